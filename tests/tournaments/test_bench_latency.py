"""`bench latency`'s bare ping-pongs: one client, and clients asked in turn as a game asks its
seats; real grpc servers and echo client processes."""

from __future__ import annotations

from referee.protocol.loop import run_loop
from tournaments.benchmarks.latency import _ECHO_CLIENT_AIO, bare_pingpong, sample_payload


def test_bare_pingpong_asks_clients_in_turn() -> None:
    payload = run_loop(sample_payload())
    alone = run_loop(bare_pingpong(payload, 30))
    # Three clients, so that a round count that is no multiple of them is covered too.
    in_turn = run_loop(bare_pingpong(payload, 31, _ECHO_CLIENT_AIO, in_turn=3))
    assert len(alone) == 30
    assert len(in_turn) == 31
    assert all(0 < t < 5 for t in alone + in_turn)
