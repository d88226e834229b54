"""`bench latency`'s floors: the bare ping-pongs (one client, and clients asked in turn as a game
asks its seats), and the referee asking two SDK bots in turn with no match; real grpc servers,
echo client processes and bots."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from referee.protocol.loop import run_loop
from tournaments.benchmarks.latency import _ECHO_CLIENT_AIO, bare_pingpong, sample_payload
from tournaments.cli import app


def test_bare_pingpong_asks_clients_in_turn() -> None:
    payload = run_loop(sample_payload())
    alone = run_loop(bare_pingpong(payload, 30))
    # Three clients, so that a round count that is no multiple of them is covered too.
    in_turn = run_loop(bare_pingpong(payload, 31, _ECHO_CLIENT_AIO, in_turn=3))
    assert len(alone) == 30
    assert len(in_turn) == 31
    assert all(0 < t < 5 for t in alone + in_turn)


def test_bench_latency_sets_the_referee_beside_its_no_match_floor() -> None:
    args = "bench latency --games 2 --spawns 1 --isolation process --json"
    result = CliRunner().invoke(app, args.split())
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["per_move_us"] > 0 and out["no_match_round_trip_us"] > 0
    assert out["ratio_to_no_match"] == pytest.approx(
        out["per_move_us"] / out["no_match_round_trip_us"], abs=0.002
    )
