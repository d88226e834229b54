"""The floor under a referee's move with real bots: the referee with its match taken away.

`ask_in_turn` asks bots of a started `Arena` for moves through the referee's own server and
sessions (`BotSession.request_move`: the same stream, timers and freeze/grace policy, the bots
at the Arena's isolation, frozen between their moves unless they ponder), two bots a game asked
in turn as a game asks its seats, but the same prebuilt request every time: no engine, no codec,
no record, no store between the moves. The benchmarks set what it measures beside the referee's
games in the same run: what a move costs over it is the match's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.clocks import SeatClock
from referee.faults import BotFault
from referee.pool import Bot, NoBot
from referee.protocol import bot_pb2

if TYPE_CHECKING:
    from referee.arena import Arena


@dataclass
class Asked:
    """What `ask_in_turn` measured over its counted moves: their number, each move's round trip
    as the referee times it (request written to reply read, seconds), the games' own wall
    seconds summed (as a game's duration is: the per-move path), this process's CPU seconds
    and the bots' (their cgroups'; None where not counted) from the first counted move of all
    games to the last."""

    round_trips: list[float] = field(default_factory=list)
    wall: float = 0.0
    cpu: float = 0.0
    bot_cpu: float | None = None

    @property
    def moves(self) -> int:
        return len(self.round_trips)


async def ask_in_turn(
    arena: Arena,
    seats: Sequence[str],
    request: bytes,
    *,
    games: int = 1,
    moves: int = 1000,
    warm: int = 100,
    patience: float = 30.0,
) -> Asked:
    """`games` at once, each asking a bot of every entry of `seats` (taken from `arena`'s pool,
    launched where it has none idle) in turn for `warm` unmeasured and then `moves` measured
    moves, `request` (a ConnectResponse holding a move request, on the wire) every time; after
    a GameStart, ended by a GameOver, the bots back in the pool. Each answer and each write
    has `patience` seconds: a floor has no faults to count, and on a starved machine an SDK
    bot may take a second or more (the bots are told the request's own limit). ValueError when
    a bot cannot start, or does not answer or read within `patience`."""
    template = bot_pb2.ConnectResponse.FromString(request)
    if template.WhichOneof("message") != "move_request":
        raise ValueError("the request to ask is not a move request (ConnectResponse)")
    # All at once, as a game's seats are: the launches overlap.
    found = await asyncio.gather(*(arena.acquire(name) for _ in range(games) for name in seats))
    bots = [w for w in found if isinstance(w, Bot)]
    healthy = False
    try:
        for name, worker in zip(list(seats) * games, found, strict=True):
            if isinstance(worker, NoBot):
                raise ValueError(f"{name!r} could not start: {worker.detail}")
        tables = [bots[i : i + len(seats)] for i in range(0, len(bots), len(seats))]
        asked = await _play(tables, template, moves, warm, patience)
        healthy = True
        return asked
    finally:
        for worker in bots:  # as after a game: one that faulted (it may still think) ends
            await arena.give_back(worker, healthy)


async def _play(
    tables: list[list[Bot]],
    template: bot_pb2.ConnectResponse,
    moves: int,
    warm: int,
    patience: float,
) -> Asked:
    asked = Asked()
    # Every game warms up, then all count from the same moment to the same moment: the CPU
    # counted is the process's over those moves alone.
    started, ended = asyncio.Barrier(len(tables)), asyncio.Barrier(len(tables))
    marks: list[tuple[float, float | None]] = []
    everyone = [w for table in tables for w in table]

    def mark() -> None:
        spent = [w.cpu() for w in everyone]
        bots = None if None in spent else sum(s or 0.0 for s in spent)
        marks.append((time.process_time(), bots))

    async def game(table: list[Bot]) -> None:
        msg = bot_pb2.ConnectResponse()
        msg.CopyFrom(template)
        clocks = [SeatClock(patience) for _ in table]
        request = template.move_request
        start = bot_pb2.GameStart(
            game_id=request.game_id, ruleset=request.state.ruleset, players=len(table)
        )
        for seat, worker in enumerate(table):
            start.seat = seat
            await worker.session.send(bot_pb2.ConnectResponse(game_start=start), patience)
        for turn in range(warm):
            await _ask(table, clocks, msg, turn)
        await started.wait()
        if not marks:  # the first game through: before any counted move is asked
            mark()
        began = time.perf_counter()
        for turn in range(moves):
            asked.round_trips.append(await _ask(table, clocks, msg, turn))
        asked.wall += time.perf_counter() - began
        await ended.wait()
        if len(marks) == 1:  # the first game through: after every counted move
            mark()
        over = bot_pb2.ConnectResponse(game_over=bot_pb2.GameOver(game_id=start.game_id))
        for worker in table:
            await worker.session.send(over, patience)

    try:  # one game's fault cancels the others (none is left waiting at a barrier)
        async with asyncio.TaskGroup() as group:
            for table in tables:
                group.create_task(game(table))
    except* BotFault as faults:
        first = faults.exceptions[0]
        what = f"{first.kind} ({first.detail})" if isinstance(first, BotFault) else str(first)
        raise ValueError(f"a bot asked in turn failed: {what}") from None
    (cpu0, bots0), (cpu1, bots1) = marks
    asked.cpu = cpu1 - cpu0
    if bots0 is not None and bots1 is not None:
        asked.bot_cpu = bots1 - bots0
    return asked


async def _ask(
    table: list[Bot], clocks: list[SeatClock], msg: bot_pb2.ConnectResponse, turn: int
) -> float:
    """The move of seat `turn` (modulo the seats): its round trip in seconds."""
    seat = turn % len(table)
    _, elapsed = await table[seat].session.request_move(msg, clocks[seat])
    return elapsed
