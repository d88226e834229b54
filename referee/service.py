"""RefereeService.RunMatch on top of an Arena: proto request -> match -> proto response, and the
match's events published for WatchMatch."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import TYPE_CHECKING

from referee.events import MatchEnded, MatchEvent, MatchStarted, MovePlayed, SeatFaulted
from referee.protocol import game_pb2, referee_pb2
from referee.protocol.codec import TERMINATIONS

if TYPE_CHECKING:
    from referee.arena import Arena, MatchConfig

_REASONS = {"completed": game_pb2.GAME_END_REASON_COMPLETED,
            "forfeit": game_pb2.GAME_END_REASON_FORFEIT}


def config_from_settings(s: referee_pb2.MatchSettings) -> MatchConfig:
    from referee.arena import MatchConfig

    return MatchConfig(
        ruleset=s.ruleset or "azul", seed=s.seed if s.HasField("seed") else None,
        first_player=s.first_player,
        options={"wild_order": s.wild_order} if s.wild_order else {},
        time_per_move=(s.move_time_ms or 1000) / 1000,
        time_bank=s.time_bank_ms / 1000, first_move_allowance=s.first_move_allowance_ms / 1000,
        grace=(s.grace_ms / 1000) if s.grace_ms else 0.05,
        fault_policy="forfeit" if s.fault_policy == referee_pb2.FAULT_POLICY_FORFEIT else "random",
        max_strikes=s.max_strikes or 3,
        clock="cpu" if s.clock == referee_pb2.CLOCK_KIND_CPU else "wall")


def event_message(event: MatchEvent) -> tuple[referee_pb2.WatchMatchResponse, bool]:
    """A match event as a WatchMatchResponse, and whether it is the last one."""
    out = referee_pb2.WatchMatchResponse()
    if isinstance(event, MatchStarted):
        out.started.ruleset, out.started.names[:] = event.ruleset, list(event.names)
    elif isinstance(event, MovePlayed):
        out.move_played.seat, out.move_played.move = event.seat, event.move
        out.move_played.elapsed_us = int(event.elapsed * 1e6)
        out.move_played.substituted = event.substituted
    elif isinstance(event, SeatFaulted):
        f = out.seat_faulted
        f.seat, f.fault, f.strikes = event.seat, TERMINATIONS[event.fault], event.strikes
        f.forfeited, f.detail = event.forfeited, event.detail
    elif isinstance(event, MatchEnded):
        e = out.ended
        e.scores[:], e.ranks[:] = list(event.scores), list(event.ranks)
        e.terminations[:] = [TERMINATIONS[t] for t in event.terminations]
        e.reason = _REASONS.get(event.reason, game_pb2.GAME_END_REASON_UNSPECIFIED)
        return out, True
    return out, False


async def run_match_request(arena: Arena, request: referee_pb2.RunMatchRequest
                            ) -> referee_pb2.RunMatchResponse:
    """Serve one RunMatch: launch or await the seats, play, publish events, answer the result."""
    if not 2 <= len(request.seats) <= 4:
        raise ValueError("a match has 2 to 4 seats")
    config = config_from_settings(request.settings)
    hello_timeout = (request.settings.hello_timeout_ms or 10_000) / 1000
    match_id = request.match_id or secrets.token_hex(6)
    assert arena.server is not None
    board = arena.server.board
    names, workers = [], []
    for spec in request.seats:
        which = spec.WhichOneof("player")
        if which == "entry":
            names.append(spec.name or spec.entry)
            arena.entries.setdefault(names[-1], spec.entry)
        elif which == "token":
            names.append(spec.name or "remote")
        else:
            raise ValueError("every seat needs an entry or a token")
    acquired = await asyncio.gather(*(
        arena.connect_remote(spec.token, hello_timeout) if spec.WhichOneof("player") == "token"
        else arena._acquire(name) for spec, name in zip(request.seats, names, strict=True)))
    workers = list(acquired)
    loop = asyncio.get_running_loop()

    def publish(event: MatchEvent) -> None:
        msg, final = event_message(event)
        loop.create_task(board.publish(match_id, msg, final))

    result = await arena.play(names, config, on_event=publish, match_id=match_id,
                              _workers=workers)
    response = referee_pb2.RunMatchResponse(
        match_id=match_id, reason=_REASONS.get(result.reason, game_pb2.GAME_END_REASON_UNSPECIFIED),
        record_json=json.dumps(result.record, separators=(",", ":")))
    for seat in result.seats:
        response.seats.add(name=seat.entry, score=seat.score, rank=seat.rank,
                           termination=TERMINATIONS[seat.termination], strikes=seat.strikes,
                           moves=seat.moves, move_time_total_us=int(seat.move_time_total * 1e6))
    return response
