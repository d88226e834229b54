"""The compliance run of one entry (what `bot check` and the contest server's validation do):
handshake, answers within the time limit, only legal moves, 2-4 players, every ruleset it claims,
all through the real referee path (bot processes, the sandbox, gRPC) against random bots."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from referee import Clock, Termination, run_loop

# A freshly launched bot's first answer includes its warm-up (lazy imports): without an
# allowance one slow first move can cascade into strikes (a late reply then counts as malformed).
FIRST_MOVE_ALLOWANCE = 1.0
T = TypeVar("T")
# A validation game the bot timed out in while the machine was loaded (or its CPU shows it within
# its limit) is played again, at most this many times: the machine's load is not the bot's fault.
MAX_REPLAYS = 2


def machine_loaded() -> str | None:
    """Why this machine is too busy to judge a bot's time by the wall clock (its 1-minute load
    average over its cores), or None when it is not."""
    try:
        load, cores = os.getloadavg()[0], len(os.sched_getaffinity(0))
    except (OSError, AttributeError):
        return None
    return f"load average {load:.1f} on {cores} cores" if load > cores else None


def not_the_bots_fault(seat: Any, time_per_move: float) -> str | None:
    """Why a timeout of `seat` (a SeatResult) may be the machine's doing rather than the
    bot's: the machine is loaded, or the bot's own CPU time shows it thinking within its limit
    (it was starved, not slow). None: nothing excuses it."""
    loaded = machine_loaded()
    if loaded:
        return loaded
    if seat.cpu_time is not None and seat.cpu_time <= time_per_move * max(1, seat.moves):
        return f"its CPU time ({seat.cpu_time:.2f} s in {seat.moves} moves) is within its limit"
    return None


# A seat that ended so never completed its handshake.
_HANDSHAKE = (Termination.NO_HELLO, Termination.VERSION_MISMATCH, Termination.BAD_TOKEN)


class CheckStopped(RuntimeError):
    """The check was stopped from outside (its `stop` event): no verdict on the bot."""


@dataclass(frozen=True)
class Bounds:
    """How long a check may run, all of it on the wall clock: `build_timeout` caps a bot
    folder's build whatever its bot.toml asks, `deadline` the whole check (build and games);
    `stop` ends it at once (a server going down). None: no bound."""

    build_timeout: float | None = None
    deadline: float | None = None
    stop: threading.Event | None = None


@dataclass
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass
class CheckReport:
    entry: str
    rulesets: list[str]
    checks: list[Check] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "passed": self.passed,
            "rulesets": self.rulesets,
            "checks": [
                {"name": c.name, "passed": c.passed, "detail": c.detail} for c in self.checks
            ],
        }


def declared(rulesets: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """What a bot's Hello lists, as (the rulesets to check it on, the names no ruleset has): the
    listed rulesets it knows, or every classic one when it knows none."""
    from referee.engine import RULESETS, rulesets_played

    return rulesets_played(rulesets), [r for r in rulesets if r not in RULESETS]


async def _check_games(  # noqa: PLR0913  # the options of run_check
    entry: str,
    rulesets: list[str] | None,
    games: int,
    time_per_move: float,
    grace: float,
    isolation: str | None = None,
    log_dir: Path | None = None,
    build_timeout: float | None = None,
    clock: str = "wall",
    replays: list[str] | None = None,
) -> tuple[list[str], list[str], list[tuple[str, int, Any]]]:
    """Play the bot (seat rotating) against random bots: every ruleset x 2, 3, 4 players. With
    no `rulesets`, those the bot declares in its Hello. Returns the rulesets, the unknown names
    the bot declared, and each game's (ruleset, players, the bot's SeatResult). With `replays`
    (a list), a game the bot timed out in for a reason not its own (`not_the_bots_fault`) is
    played again, up to MAX_REPLAYS times, each reason added to the list."""
    from referee import Arena, FaultPolicy, MatchConfig

    out = []
    unknown: list[str] = []
    async with Arena(
        [entry, "random"], isolation=isolation, log_dir=log_dir, build_timeout=build_timeout
    ) as arena:
        if rulesets is None:
            said = await arena.declared_rulesets(entry)
            # A bot that does not start fails the handshake check on its first game.
            rulesets, unknown = declared(said or ()) if said is not None else (["azul"], [])
        game_no = 0
        for ruleset in rulesets:
            for players in (2, 3, 4):
                for _ in range(games):
                    seat = game_no % players
                    seats = ["random"] * players
                    seats[seat] = entry
                    config = MatchConfig(
                        ruleset=ruleset,
                        seed=1000 + game_no,
                        time_per_move=time_per_move,
                        grace=grace,
                        first_move_allowance=FIRST_MOVE_ALLOWANCE,
                        fault_policy=FaultPolicy.FORFEIT,
                        clock=Clock(clock),
                    )
                    mine = (await arena.play(seats, config)).seats[seat]
                    for _ in range(MAX_REPLAYS if replays is not None else 0):
                        excuse = mine.faults.get(Termination.TIMEOUT) and not_the_bots_fault(
                            mine, time_per_move
                        )
                        if not excuse:
                            break
                        assert replays is not None
                        replays.append(excuse)
                        mine = (await arena.play(seats, config)).seats[seat]
                    out.append((ruleset, players, mine))
                    game_no += 1
    return rulesets, unknown, out


async def _bounded(main: Coroutine[Any, Any, T], bounds: Bounds) -> T:
    """`main`'s result, or TimeoutError past `bounds.deadline`, CheckStopped once `bounds.stop`
    is set; either way `main` is cancelled first (its Arena closes: bots and builds killed)."""
    task = asyncio.ensure_future(main)
    watch: asyncio.Future[Any] | None = None
    if bounds.stop is not None:
        stop = bounds.stop

        async def stopped() -> None:
            while not stop.is_set():  # a threading.Event: looked at, not awaited
                await asyncio.sleep(0.2)

        watch = asyncio.ensure_future(stopped())
    waiting: set[asyncio.Future[Any]] = {task} if watch is None else {task, watch}
    try:
        done, _ = await asyncio.wait(
            waiting, timeout=bounds.deadline, return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        if watch is not None:
            watch.cancel()
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    if bounds.stop is not None and bounds.stop.is_set():
        raise CheckStopped("the check was stopped before it ended")
    raise TimeoutError


def _log_pointer(detail: str, log_path: str, hint: str | None) -> str:
    """Where the failed bot's log is, after its detail: `hint`, else its path (when the detail
    does not name it already)."""
    if hint:
        return f"; {hint}"
    return "" if log_path in detail else f"; see the log {log_path}"


def run_check(  # noqa: PLR0913  # the options of `bot check`, each with a default
    entry: str,
    games: int = 1,
    time_per_move: float = 0.5,
    grace: float = 0.05,
    rulesets: list[str] | None = None,
    isolation: str | None = None,
    log_dir: Path | None = None,
    bounds: Bounds = Bounds(),
    log_hint: str | None = None,
    clock: str = "wall",
    replay_late: bool = False,
) -> CheckReport:
    """Check `entry` through the real referee path; see `bot check`. The bots' logs go to
    `log_dir` (default: a temporary folder). Past `bounds.deadline` the check fails saying so;
    `log_hint` replaces the log's path in a detail (a server's participant cannot open it).
    `clock`: what a move's time counts (wall, or cpu where cgroups exist); `replay_late`: a
    game timed out in while the machine was loaded is played again (`not_the_bots_fault`)."""
    from referee import check_entry

    report = CheckReport(entry, list(rulesets or []))
    try:
        check_entry(entry)
    except ValueError as exc:
        report.checks.append(Check("launch", False, str(exc)))
        return report
    began = time.monotonic()
    replays: list[str] | None = [] if replay_late else None
    games_run = _check_games(
        entry,
        rulesets,
        games,
        time_per_move,
        grace,
        isolation,
        log_dir,
        bounds.build_timeout,
        clock,
        replays,
    )
    try:
        report.rulesets, unknown, seats = run_loop(_bounded(games_run, bounds))
    except TimeoutError:
        report.checks.append(
            Check(
                "finishes in time",
                False,
                f"stopped after {bounds.deadline:g} s: the whole check (the build and the "
                "test games) must end within that",
            )
        )
        return report
    handshake = _handshake(seats[0][2], log_hint)
    report.checks.append(handshake)
    if not handshake.passed:
        return report
    if unknown:
        report.checks.append(
            Check(
                "declares known rulesets",
                False,
                f"its Hello lists {', '.join(unknown)}, which no ruleset is",
            )
        )
    report.checks += _answers(seats, time_per_move, grace, replays or [])
    report.checks += _survives(seats, report.rulesets)
    report.checks.append(Check("finished", True, f"{time.monotonic() - began:.1f} s"))
    return report


Seats = list[tuple[str, int, Any]]  # each game's (ruleset, players, the bot's SeatResult)


def _handshake(first: Any, log_hint: str | None) -> Check:
    """Whether the bot said Hello in its first game (with no name, it never did: the referee
    played its seat without it)."""
    handshake = first.termination not in _HANDSHAKE and not (
        first.termination in (Termination.CRASH, Termination.MALFORMED)
        and (first.moves == 0 or not first.bot_name)
    )
    return Check(
        "launch and handshake",
        handshake,
        f"said Hello as {first.bot_name!r}"
        if handshake
        else f"{first.termination}: {first.detail or 'no detail'}"
        + _log_pointer(first.detail, first.log_path, log_hint),
    )


def _answers(seats: Seats, time_per_move: float, grace: float, replays: list[str]) -> list[Check]:
    """In time, and only legal moves: the faults of every game, counted; games played again
    for the machine's load are said (`replays`: why each was)."""

    def faults(kinds: tuple[str, ...]) -> int:
        return sum(s.faults.get(k, 0) for _, _, s in seats for k in kinds)

    timeouts = faults((Termination.TIMEOUT,))
    slowest = max(s.move_time_total / max(1, s.moves) for _, _, s in seats)
    illegal = faults((Termination.ILLEGAL, Termination.MALFORMED))
    # The moves the referee played for the bot after a fault are not its own: a bot that
    # raises on every move made none, legal or not.
    own = sum(s.moves - s.substituted for _, _, s in seats)
    substituted = sum(s.substituted for _, _, s in seats)
    kinds = sorted({k for _, _, s in seats for k, n in s.faults.items() if n})
    # The first fault's own words (a crash's exception and line), else the kinds of faults.
    why = next((why_it_ended(s) for _, _, s in seats if s.substituted and s.detail), None)
    played_for = (
        f" ({substituted} more played by the referee after its faults: {why or ', '.join(kinds)})"
        if substituted
        else ""
    )
    return [
        Check(
            f"answers within {time_per_move:g} s (+{grace:g} s grace)",
            timeouts == 0,
            (
                f"{timeouts} timeouts in {len(seats)} games"
                if timeouts
                else f"slowest game average {slowest * 1e3:.1f} ms/move"
            )
            + (
                f" ({len(replays)} games replayed, not the bot's fault: {replays[-1]})"
                if replays
                else ""
            ),
        ),
        Check(
            "only legal moves",
            illegal == 0 and (own > 0 or substituted == 0),
            f"{illegal} illegal or malformed answers"
            if illegal
            else f"{own} moves of its own, all legal{played_for}"
            if own
            else f"no move of its own{played_for}",
        ),
    ]


def why_it_ended(seat: Any) -> str:
    """A seat's end as the author needs it: its termination and what the bot's fault said (a
    crash: the exception's last line and the line of the bot's code it came from), the words
    `match`, `bot check` and the server all show."""
    return str(seat.termination) + (f": {seat.detail}" if seat.detail else "")


def _ended_badly(bad: list[Any]) -> str:
    """The terminations of `bad` seats, the first one's in full (its reason)."""
    first = why_it_ended(bad[0])
    others = sorted({s.termination for s in bad[1:]} - {bad[0].termination})
    return first + (f" (also {', '.join(others)})" if others else "")


def _survives(seats: Seats, rulesets: list[str]) -> list[Check]:
    """Every game played to its end: by number of players, then by ruleset."""
    checks = []
    for players in (2, 3, 4):
        mine = [s for _, p, s in seats if p == players]
        bad = [s for s in mine if s.termination != Termination.OK]
        checks.append(
            Check(
                f"survives {players}-player games",
                not bad,
                _ended_badly(bad) if bad else f"{len(mine)} completed",
            )
        )
    for ruleset in rulesets:
        mine = [s for r, _, s in seats if r == ruleset]
        bad = [s for s in mine if s.termination != Termination.OK]
        checks.append(
            Check(
                f"plays {ruleset}",
                not bad,
                _ended_badly(bad)
                if bad
                else f"{len(mine)} games, mean score {sum(s.score for s in mine) / len(mine):.1f}",
            )
        )
    return checks
