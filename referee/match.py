"""The match: plays one game between seats under the clocks and the fault policy.

A seat is a bot session (or nothing, when its bot never arrived). The runner asks the seat to
move, measures the answer, and on a fault applies the policy: substitute a random legal move and
count a strike (forfeit at max_strikes), or forfeit at once. A forfeited seat's remaining moves
are played at random by the referee so that the game goes on for the others; it ranks last.
Crash and disconnect always forfeit (there is nobody left to ask).

`play_match` plays one from its seats (`build_seats`: each seat's bot or the reason it has none,
and its clock); `seat_results` and `replay_bots` read its `Outcome`. Every fault is a typed
`Fault` record (referee.faults).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.clocks import Clock, SeatClock
from referee.events import MatchEnded, MatchEvent, MatchStarted, MovePlayed, SeatFaulted
from referee.faults import BotFault, Fault, Termination
from referee.match_types import FaultPolicy, MatchConfig, SeatResult
from referee.pool import Bot, NoBot, SeatBot
from referee.protocol import bot_pb2, game_pb2
from referee.protocol.codec import TERMINATIONS, encode_state
from referee.sessions import BotSession


@dataclass
class Seat:
    """One seat during a match."""

    index: int
    name: str
    session: BotSession | None
    clock: SeatClock
    termination: Termination = Termination.OK
    forfeited: bool = False
    strikes: int = 0
    faults: Counter[Termination] = field(default_factory=Counter)
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
    faults: list[Fault]


Classify = Callable[[Seat, BotFault], Awaitable[BotFault]]
Emit = Callable[[MatchEvent], None]

# How an SDK before MoveReply.crash said choose_move raised: a move in this form. Read for one
# more release, for bots on an older installed SDK; then dropped.
OLD_CRASH_PREFIX = "error: "


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
        fault_policy: FaultPolicy,
        max_strikes: int,
        rng: random.Random,
        emit: Emit | None = None,
        classify: Classify | None = None,
        bot_seeds: Sequence[int] = (),
        anonymous: bool = False,
    ) -> None:
        self.match_id = match_id
        self.game = game
        self.seats = seats
        self.fault_policy = fault_policy
        self.max_strikes = max_strikes
        self.rng = rng
        self.emit: Emit = emit or (lambda event: None)
        self._watched = emit is not None  # a MovePlayed per move only when someone listens
        self.classify = classify
        self.bot_seeds = bot_seeds  # GameStart.bot_seed per seat (none: 0, no seed)
        self.anonymous = anonymous  # GameStart.names: the seats, not who sits in them
        self.plies: list[dict[str, Any]] = []
        self.faults: list[Fault] = []
        self._elapsed = 0.0  # the last move's answer time (0: substituted)

    async def _fault(self, seat: Seat, fault: BotFault) -> None:
        if fault.kind is Termination.DISCONNECT and self.classify is not None:
            fault = await self.classify(seat, fault)
        kind = fault.kind
        seat.faults[kind] += 1
        seat.strikes += 1
        if (
            fault.forfeits
            or self.fault_policy is FaultPolicy.FORFEIT
            or seat.strikes >= self.max_strikes
        ):
            seat.forfeited = True
            seat.termination = kind
        self.faults.append(Fault(len(self.plies), seat.index, kind, fault.detail, seat.forfeited))
        self.emit(
            SeatFaulted(self.match_id, seat.index, kind, seat.strikes, seat.forfeited, fault.detail)
        )

    async def _ask(self, seat: Seat, legal: tuple[Any, ...]) -> Any | None:
        """The seat's answer as an engine move, or None after a fault (already accounted)."""
        session = seat.session
        assert session is not None
        # Filled in place: wrapping a finished MoveRequest in its ConnectResponse would copy it.
        envelope = bot_pb2.ConnectResponse()
        request = envelope.move_request
        request.game_id = self.match_id
        encode_state(self.game.to_state(), request.state)
        request.legal_moves.extend([str(m) for m in legal])
        request.clock.move_time_ms = int(seat.clock.move_limit() * 1000)
        request.clock.bank_ms = int(seat.clock.bank * 1000)
        try:
            reply, elapsed = await session.request_move(envelope, seat.clock)
        except BotFault as fault:
            seat.clock.expire()
            if fault.kind is Termination.TIMEOUT:
                seat.move_time_total += seat.clock.wall_deadline()
            await self._fault(seat, fault)
            return None
        seat.move_time_total += elapsed
        self._elapsed = elapsed
        # The limit counts CPU seconds, under a wall ceiling (a clock not enforced: neither).
        cpu = reply.cpu if seat.clock.counts_cpu() else None
        late = seat.clock.charge(elapsed if cpu is None else cpu)
        move = late if late is not None else self._read(reply.msg, legal)
        if isinstance(move, BotFault):
            await self._fault(seat, move)
            return None
        return move

    def _read(self, msg: bot_pb2.MoveReply, legal: tuple[Any, ...]) -> Any:
        """The move a reply names, or the fault it is."""
        crash = msg.crash
        if not crash and msg.move.startswith(OLD_CRASH_PREFIX):
            crash = msg.move[len(OLD_CRASH_PREFIX) :]
        if crash:
            # The SDK's word that choose_move raised: a crash of the bot's code (`memory` for a
            # failed allocation), with the last line of its traceback; its process lives on, so
            # the policy decides (a strike).
            said = crash[:200]
            kind = Termination.MEMORY if said.startswith("MemoryError") else Termination.CRASH
            return BotFault(kind, said, fatal=False)
        choice = msg.WhichOneof("choice")
        if choice == "move_index":
            if msg.move_index < len(legal):
                return legal[msg.move_index]
            return BotFault(
                Termination.ILLEGAL, f"index {msg.move_index} of {len(legal)} legal moves"
            )
        if choice == "move":
            try:
                move = self.game.parse_move(msg.move)
            except Exception:  # NotationError: not a move at all
                return BotFault(
                    Termination.MALFORMED, f"{_clip(msg.move)} is not a move in notation"
                )
            if move in legal:
                return move
            return BotFault(Termination.ILLEGAL, f"{_clip(msg.move)} is not legal here")
        return BotFault(Termination.MALFORMED, "a reply with no move")

    async def run(self) -> Outcome:
        """Play the game to its end: tell the seats it starts, ask each move, tell them it
        ended."""
        started = await self._start()
        while not self.game.is_over():
            await self._turn()
        return await self._finish(started)

    async def _start(self) -> list[Seat]:
        """Tell the seats that play the game starts; the seats told."""
        game, seats = self.game, self.seats
        ruleset = getattr(game.ruleset, "name", game.ruleset)
        self.emit(MatchStarted(self.match_id, ruleset, tuple(s.name for s in seats)))
        start = bot_pb2.ConnectResponse(
            game_start=bot_pb2.GameStart(
                game_id=self.match_id,
                ruleset=ruleset,
                players=len(seats),
                names=[seat_label(s.index) if self.anonymous else s.name for s in seats],
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
        return started

    async def _turn(self) -> None:
        """One move: the seat's, or a random one for a seat that faulted or forfeited."""
        game = self.game
        seat = self.seats[game.turn]
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
                    self.match_id, len(self.plies), seat.index, notation, self._elapsed, substituted
                )
            )

    async def _finish(self, started: list[Seat]) -> Outcome:
        """Rank the seats and tell those told of the start how the game ended."""
        game, seats = self.game, self.seats
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


# -- one match from its seats' bots -----------------------------------------------------------


def unsupported(declared: tuple[str, ...], ruleset: str) -> NoBot | None:
    """The forfeit of a bot whose Hello does not list `ruleset` (a Hello that lists no ruleset
    this referee knows means the classic family, as `bot check` reads it), or None when it
    plays it."""
    from referee.engine import rulesets_played

    plays = rulesets_played(declared)
    if ruleset in plays:
        return None
    return NoBot(
        Termination.UNSUPPORTED_RULESET,
        f"this game is {ruleset}; its Hello says it plays {', '.join(plays)}",
    )


def seat_clock(config: MatchConfig, index: int, bot: SeatBot) -> SeatClock:
    """Seat `index`'s clock: its own move time where the config gives one (a person's seat)."""
    own = config.seat_time_per_move[index] if index < len(config.seat_time_per_move) else None
    # A bot with no CPU counter (a remote bot: no cgroup here) keeps the wall clock.
    counted = isinstance(bot, Bot) and bot.session.cpu_counter is not None
    return SeatClock(
        config.time_per_move if own is None else own,
        config.time_bank,
        config.first_move_allowance,
        config.grace,
        kind=config.clock if counted else Clock.WALL,
        ceiling=config.ceiling,
        enforced=config.time_limit,
    )


def build_seats(
    names: Sequence[str], bots: Sequence[SeatBot], config: MatchConfig
) -> tuple[list[Seat], list[Fault]]:
    """The seats of a match with their clocks, and the faults of those that cannot play (their
    bot did not start, or its Hello excludes this ruleset): they forfeit before the first move."""
    seats, faults = [], []
    for i, (name, bot) in enumerate(zip(names, bots, strict=True)):
        if isinstance(bot, Bot):
            failure = unsupported(bot.session.rulesets, config.ruleset)
            seat = Seat(i, name, bot.session, seat_clock(config, i, bot))
        else:
            failure, seat = bot, Seat(i, name, None, seat_clock(config, i, bot))
        if failure is not None:
            seat.forfeited, seat.termination = True, failure.termination
            seat.strikes, seat.faults[failure.termination] = 1, 1
            faults.append(Fault(0, i, failure.termination, failure.detail, True))
        seats.append(seat)
    return seats, faults


def seat_label(index: int) -> str:
    """What an anonymous match (`MatchConfig.anonymous`) calls a seat to its bots."""
    return f"seat {index + 1}"


async def play_match(  # noqa: PLR0913  # keyword-only: what a match is played with
    match_id: str,
    game: Any,
    seats: list[Seat],
    config: MatchConfig,
    *,
    seed: int,
    faults: Sequence[Fault] = (),
    bot_seeds: Sequence[int] = (),
    on_event: Emit | None = None,
    classify: Classify | None = None,
) -> Outcome:
    """Play `game` (new, dealt with `seed`) between `seats` (`build_seats`; `faults`: those of
    the seats that cannot play) under `config`'s fault policy. Substituted moves are drawn from
    the deal's seed, so a match played again with it replays."""
    runner = MatchRunner(
        match_id,
        game,
        seats,
        fault_policy=config.fault_policy,
        max_strikes=config.max_strikes,
        rng=random.Random(seed ^ 0x5EED),
        emit=on_event,
        bot_seeds=bot_seeds,
        classify=classify,
        anonymous=config.anonymous,
    )
    runner.faults.extend(faults)
    return await runner.run()


def seat_results(
    outcome: Outcome, log_paths: Sequence[str], cpu_used: Sequence[float | None]
) -> list[SeatResult]:
    """Each seat's result: how it did, its log (`log_paths`) and its CPU (`cpu_used`)."""
    results = []
    for seat, score, rank in zip(outcome.seats, outcome.scores, outcome.ranks, strict=True):
        last = next((f for f in reversed(outcome.faults) if f.seat == seat.index), None)
        results.append(
            SeatResult(
                entry=seat.name,
                score=score,
                rank=rank,
                termination=seat.termination,
                strikes=seat.strikes,
                faults={str(kind): n for kind, n in seat.faults.items()},
                move_time_total=round(seat.move_time_total, 6),
                moves=seat.moves,
                substituted=seat.substituted,
                bot_name=seat.session.name if seat.session else "",
                log_path=log_paths[seat.index],
                cpu_time=cpu_used[seat.index],
                detail=last.detail if last is not None else "",
            )
        )
    return results


def replay_bots(results: Sequence[SeatResult], seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """The replay's `bots`: who played each seat and how it went."""
    return [
        {
            "name": r.bot_name,
            "version": s.session.version if s.session else "",
            "termination": str(r.termination),
            "strikes": r.strikes,
            "faults": r.faults,
            "moves": r.moves,
            "move_time_total": r.move_time_total,
            "cpu_time": r.cpu_time,
            "clock": str(s.clock.kind),
        }
        for r, s in zip(results, seats, strict=True)
    ]
