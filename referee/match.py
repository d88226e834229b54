"""The match runner: plays one game between seats under the clocks and the fault policy.

A seat is a bot session (or nothing, when its bot never arrived). The runner asks the seat to
move, measures the answer, and on a fault applies the policy: substitute a random legal move and
count a strike (forfeit at max_strikes), or forfeit at once. A forfeited seat's remaining moves
are played at random by the referee so that the game goes on for the others; it ranks last.
Crash and disconnect always forfeit (there is nobody left to ask).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.clocks import SeatClock
from referee.events import MatchEnded, MatchEvent, MatchStarted, MovePlayed, SeatFaulted
from referee.protocol import bot_pb2, game_pb2
from referee.protocol.codec import TERMINATIONS, encode_state
from referee.sessions import BotFault, BotSession

# Faults after which the seat cannot go on, whatever the policy.
FATAL = frozenset(
    {
        "crash",
        "memory",
        "disconnect",
        "no_hello",
        "version_mismatch",
        "bad_token",
        "unsupported_ruleset",
    }
)


@dataclass
class Seat:
    """One seat during a match."""

    index: int
    name: str
    session: BotSession | None
    clock: SeatClock
    termination: str = "ok"
    forfeited: bool = False
    strikes: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    substituted: int = 0  # of its moves, those the referee played for it (after a fault)
    move_time_total: float = 0.0


@dataclass
class Outcome:
    """What the runner hands back: per-seat state, the final game, the per-ply log."""

    seats: list[Seat]
    scores: list[int]
    ranks: list[int]
    reason: str
    plies: list[dict[str, Any]]
    faults: list[dict[str, Any]]


Classify = Callable[[Seat, BotFault], Awaitable[BotFault]]
Emit = Callable[[MatchEvent], None]


BOT_ERROR = "error: "  # sdk.client.ERROR_PREFIX


def _clip(text: str, keep: int = 40) -> str:
    """A bot's text as it goes into faults, replays and the store: never more than `keep`."""
    return repr(text) if len(text) <= keep else f"{text[:keep]!r}... ({len(text)} characters)"


def final_ranks(engine_ranks: tuple[int, ...] | list[int], forfeited: list[bool]) -> list[int]:
    """Engine ranks among the seats still in; forfeited seats share the last rank."""
    ranks = []
    for i, rank in enumerate(engine_ranks):
        if forfeited[i]:
            ranks.append(1 + sum(not f for f in forfeited))
        else:
            ranks.append(
                1 + sum(1 for j, r in enumerate(engine_ranks) if not forfeited[j] and r < rank)
            )
    return ranks


class MatchRunner:
    """Plays one game. `classify` turns a closed stream into crash or disconnect (the launcher
    knows whether the process died); `emit` receives every event as it happens."""

    def __init__(  # noqa: PLR0913  # keyword-only options, each with a default
        self,
        match_id: str,
        game: Any,
        seats: list[Seat],
        *,
        fault_policy: str,
        max_strikes: int,
        rng: random.Random,
        emit: Emit | None = None,
        classify: Classify | None = None,
        bot_seeds: Sequence[int] = (),
    ) -> None:
        self.match_id = match_id
        self.game = game
        self.seats = seats
        self.fault_policy = fault_policy
        self.max_strikes = max_strikes
        self.rng = rng
        self.emit = emit or (lambda event: None)
        self._watched = emit is not None  # a MovePlayed per move only when someone listens
        self.classify = classify
        self.bot_seeds = bot_seeds  # GameStart.bot_seed per seat (none: 0, no seed)
        self.plies: list[dict[str, Any]] = []
        self.faults: list[dict[str, Any]] = []

    async def _fault(self, seat: Seat, fault: BotFault) -> None:
        if fault.kind == "disconnect" and self.classify is not None:
            fault = await self.classify(seat, fault)
        kind = fault.kind
        seat.faults[kind] += 1
        seat.strikes += 1
        fatal = kind in FATAL if fault.fatal is None else fault.fatal
        if fatal or self.fault_policy == "forfeit" or seat.strikes >= self.max_strikes:
            seat.forfeited = True
            seat.termination = kind
        self.faults.append(
            {
                "ply": len(self.plies),
                "seat": seat.index,
                "fault": kind,
                "detail": fault.detail,
                "forfeited": seat.forfeited,
            }
        )
        self.emit(
            SeatFaulted(self.match_id, seat.index, kind, seat.strikes, seat.forfeited, fault.detail)
        )

    async def _ask(self, seat: Seat, legal: tuple[Any, ...]) -> Any | None:
        """The seat's answer as an engine move, or None after a fault (already accounted)."""
        session = seat.session
        assert session is not None
        game = self.game
        # Filled in place: wrapping a finished MoveRequest in its ConnectResponse would copy it.
        envelope = bot_pb2.ConnectResponse()
        request = envelope.move_request
        request.game_id = self.match_id
        encode_state(game.to_state(), request.state)
        request.legal_moves.extend([str(m) for m in legal])
        limit = seat.clock.move_limit()
        request.clock.move_time_ms = int(limit * 1000)
        request.clock.bank_ms = int(seat.clock.bank * 1000)
        # The limit counts CPU seconds, under a wall ceiling (a clock not enforced: neither).
        cpu = seat.clock.kind == "cpu" and seat.clock.enforced
        try:
            reply, elapsed = await session.request_move(
                envelope,
                seat.clock.wall_deadline(),
                cpu_limit=seat.clock.deadline() if cpu else None,
            )
        except BotFault as fault:
            seat.clock.expire()
            if fault.kind == "timeout":
                seat.move_time_total += seat.clock.wall_deadline()
            await self._fault(seat, fault)
            return None
        seat.move_time_total += elapsed
        self._elapsed = elapsed
        spent = reply.cpu if cpu and reply.cpu is not None else elapsed
        if not seat.clock.charge(spent):
            what = "used {:.3f}s of CPU" if cpu else "answered after {:.3f}s"
            await self._fault(seat, BotFault("timeout", what.format(spent)))
            return None
        msg = reply.msg
        choice = msg.WhichOneof("choice")
        if choice == "move_index":
            if msg.move_index < len(legal):
                return legal[msg.move_index]
            await self._fault(
                seat, BotFault("illegal", f"index {msg.move_index} of {len(legal)} legal moves")
            )
            return None
        if choice == "move" and msg.move.startswith(BOT_ERROR):
            # The SDK's word that choose_move raised: a crash of the bot's code (`memory` for a
            # failed allocation), with the last line of its traceback; its process lives on, so
            # the policy decides (a strike).
            said = msg.move[len(BOT_ERROR) :][:200]
            kind = "memory" if said.startswith("MemoryError") else "crash"  # over its limit
            await self._fault(seat, BotFault(kind, said, fatal=False))
            return None
        if choice == "move":
            try:
                move = game.parse_move(msg.move)
            except Exception:  # NotationError: not a move at all
                await self._fault(
                    seat, BotFault("malformed", f"{_clip(msg.move)} is not a move in notation")
                )
                return None
            if move in legal:
                return move
            await self._fault(seat, BotFault("illegal", f"{_clip(msg.move)} is not legal here"))
            return None
        await self._fault(seat, BotFault("malformed", "a reply with no move"))
        return None

    async def run(self) -> Outcome:
        game, seats = self.game, self.seats
        ruleset = getattr(game.ruleset, "name", game.ruleset)
        self.emit(MatchStarted(self.match_id, ruleset, tuple(s.name for s in seats)))
        start = bot_pb2.ConnectResponse(
            game_start=bot_pb2.GameStart(
                game_id=self.match_id,
                ruleset=ruleset,
                players=len(seats),
                names=[s.name for s in seats],
            )
        )
        # Seats forfeited already (no bot, or one that does not play this ruleset) are not told
        # of the game at all.
        started = [s for s in seats if s.session is not None and not s.forfeited]
        for seat in started:
            assert seat.session is not None
            start.game_start.seat = seat.index
            if seat.index < len(self.bot_seeds):
                start.game_start.bot_seed = self.bot_seeds[seat.index]
            try:
                await seat.session.send(start)
            except BotFault as fault:
                await self._fault(seat, fault)
        while not game.is_over():
            seat = seats[game.turn]
            legal = game.legal_moves()
            move = None
            self._elapsed = 0.0
            if not seat.forfeited and seat.session is not None:
                move = await self._ask(seat, legal)
            substituted = move is None
            if substituted:
                move = self.rng.choice(legal)
                seat.substituted += 1
            seat.moves += 1
            game.push(move)
            notation = str(move)
            self.plies.append(
                {
                    "seat": seat.index,
                    "move": notation,
                    "us": int(self._elapsed * 1e6),
                    "substituted": substituted,
                }
            )
            if self._watched:
                self.emit(
                    MovePlayed(
                        self.match_id,
                        len(self.plies),
                        seat.index,
                        notation,
                        self._elapsed,
                        substituted,
                    )
                )
        forfeited = [s.forfeited for s in seats]
        scores = list(game.scores)
        ranks = final_ranks(game.ranks(), forfeited)
        reason = "forfeit" if any(forfeited) else "completed"
        terminations = [s.termination for s in seats]
        over = bot_pb2.ConnectResponse(
            game_over=bot_pb2.GameOver(
                game_id=self.match_id,
                scores=scores,
                ranks=ranks,
                reason=(
                    game_pb2.GAME_END_REASON_FORFEIT
                    if any(forfeited)
                    else game_pb2.GAME_END_REASON_COMPLETED
                ),
                terminations=[TERMINATIONS[t] for t in terminations],
            )
        )
        for seat in started:
            if seat.session is not None and seat.session.alive:
                try:
                    await seat.session.send(over, timeout=1.0)
                except BotFault:
                    pass
        self.emit(
            MatchEnded(self.match_id, tuple(scores), tuple(ranks), tuple(terminations), reason)
        )
        return Outcome(seats, scores, ranks, reason, self.plies, self.faults)
