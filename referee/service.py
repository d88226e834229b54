"""RefereeService.RunMatch on top of an Arena: proto request -> match -> proto response, and the
match's events published for WatchMatch.

It knows the Arena only through `MatchPlayer`, what RunMatch needs of whatever plays matches, so
that the Arena (which serves this API) and this module do not import each other."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Protocol

from referee.access import SeatRefused
from referee.clocks import Clock
from referee.events import MatchEnded, MatchEvent, MatchStarted, MovePlayed, SeatFaulted
from referee.match_types import FaultPolicy, MatchConfig, MatchResult
from referee.pool import SeatBot
from referee.protocol import game_pb2, referee_pb2
from referee.protocol.codec import TERMINATIONS, settings_options
from referee.server import MatchBoard


class MatchPlayer(Protocol):
    """What RunMatch needs of the Arena: its entries, seats for them, and play."""

    entries: dict[str, str]

    @property
    def board(self) -> MatchBoard: ...

    def builtin_bots(self) -> frozenset[str]: ...

    def entry_of(self, name: str) -> str: ...

    async def acquire(self, name: str) -> SeatBot: ...

    async def connect_remote(self, token: str, timeout: float) -> SeatBot: ...

    async def play(
        self,
        seats: list[str],
        config: MatchConfig | None = None,
        *,
        on_event: Callable[[MatchEvent], None] | None = None,
        match_id: str | None = None,
        bots: Sequence[SeatBot] | None = None,
    ) -> MatchResult: ...


_REASONS = {
    "completed": game_pb2.GAME_END_REASON_COMPLETED,
    "forfeit": game_pb2.GAME_END_REASON_FORFEIT,
}


def config_from_settings(s: referee_pb2.MatchSettings) -> MatchConfig:
    forfeit = s.fault_policy == referee_pb2.FAULT_POLICY_FORFEIT
    return MatchConfig(
        ruleset=s.ruleset or "azul",
        seed=s.seed if s.HasField("seed") else None,
        first_player=s.first_player,
        options=settings_options(s),
        time_per_move=(s.move_time_ms or 1000) / 1000,
        time_bank=s.time_bank_ms / 1000,
        first_move_allowance=s.first_move_allowance_ms / 1000,
        grace=(s.grace_ms / 1000) if s.grace_ms else 0.05,
        fault_policy=FaultPolicy.FORFEIT if forfeit else FaultPolicy.RANDOM,
        max_strikes=s.max_strikes or 3,
        clock=Clock.CPU if s.clock == referee_pb2.CLOCK_KIND_CPU else Clock.WALL,
    )


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


def _seat_entry(arena: MatchPlayer, entry: str, name: str) -> str:
    """The Arena's name for a RunMatch seat's `entry`: a built-in bot or an entry the operator
    registered. Never a command line or a path: whoever calls the API chooses no program to
    run on this machine (SeatRefused says so)."""
    builtins = arena.builtin_bots()
    if entry not in arena.entries and entry not in builtins:
        known = sorted({*builtins, *arena.entries})
        raise SeatRefused(
            f"seat entry {entry[:80]!r} is neither a built-in bot nor an entry registered on "
            f"this referee (known: {', '.join(known)}): a RunMatch seat never names a command "
            "line or a path; the operator registers entries with `referee serve --entries "
            "FILE.toml`, and a remote bot takes its seat by token"
        )
    if name and name != entry and name not in arena.entries:
        arena.entries[name] = arena.entry_of(entry)  # a display name for an allowed entry
        return name
    return entry


async def run_match_request(
    arena: MatchPlayer, request: referee_pb2.RunMatchRequest
) -> referee_pb2.RunMatchResponse:
    """Serve one RunMatch: launch or await the seats, play, publish events, answer the result."""
    if not 2 <= len(request.seats) <= 4:
        raise ValueError("a match has 2 to 4 seats")
    config = config_from_settings(request.settings)
    hello_timeout = (request.settings.hello_timeout_ms or 10_000) / 1000
    match_id = request.match_id or secrets.token_hex(6)
    board = arena.board
    names = []
    for spec in request.seats:
        which = spec.WhichOneof("player")
        if which == "entry":
            names.append(_seat_entry(arena, spec.entry, spec.name))
        elif which == "token":
            names.append(spec.name or "remote")
        else:
            raise ValueError("every seat needs an entry or a token")
    bots = await asyncio.gather(
        *(
            arena.connect_remote(spec.token, hello_timeout)
            if spec.WhichOneof("player") == "token"
            else arena.acquire(name)
            for spec, name in zip(request.seats, names, strict=True)
        )
    )
    loop = asyncio.get_running_loop()
    # The events' tasks, held until done: the loop keeps only weak references to tasks.
    publishing: set[asyncio.Task[None]] = set()

    def publish(event: MatchEvent) -> None:
        msg, final = event_message(event)
        task = loop.create_task(board.publish(match_id, msg, final))
        publishing.add(task)
        task.add_done_callback(publishing.discard)

    result = await arena.play(names, config, on_event=publish, match_id=match_id, bots=bots)
    await asyncio.gather(*publishing)  # watchers have the whole game before the caller's answer
    response = referee_pb2.RunMatchResponse(
        match_id=match_id,
        reason=_REASONS.get(result.reason, game_pb2.GAME_END_REASON_UNSPECIFIED),
        record_json=json.dumps(result.record, separators=(",", ":")),
    )
    for seat in result.seats:
        response.seats.add(
            name=seat.entry,
            score=seat.score,
            rank=seat.rank,
            termination=TERMINATIONS[seat.termination],
            strikes=seat.strikes,
            moves=seat.moves,
            move_time_total_us=int(seat.move_time_total * 1e6),
        )
    return response
