"""One of our bots against an outside engine (`bench outside`): an independent Azul AI, run as
an entry (a command line, a bot folder...) through the real referee, at several time odds.

The outside engine always thinks `engine_time` seconds a move; our bot a `fraction` of that (1:
equal time, 0.1: a tenth), each seat with its own clock (MatchConfig.seat_time_per_move). For
each fraction the two play `games` games, game g dealing from `seed + g // 2` with the seats
swapped on odd games (strength.schedule), one game at a time so neither competes with the other
for the CPU. Each fraction's result is our bot's win rate (draws half) with a 95% interval, the
mean scores and each side's faults.

The adapter for gleb-t/AzulBot's C++ MCTS is kept out of the package: tests/outside/azulbot
(docs/strength.md, "Against an outside engine").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee import run_loop
from tournaments.benchmarks.strength import Ladder, schedule

ENGINE = "outside"  # the outside engine's entry name in the tally
# The goals for the top bot (docs/strength.md): >= 90% at equal time, >= 75% at a tenth.
GOALS = {1.0: 0.90, 0.1: 0.75}

Progress = Callable[[float, int, int], None]  # (fraction, games played, games in all)


@dataclass(frozen=True)
class Odds:
    """The thinking times of one setting: our bot's and the outside engine's, a move."""

    bot_time: float
    engine_time: float

    @property
    def fraction(self) -> float:
        return round(self.bot_time / self.engine_time, 6)


def seat_times(seats: tuple[str, ...], bot: str, odds: Odds) -> tuple[float, ...]:
    """Each seat's time per move: our bot's for its seat, the engine's for the other."""
    return tuple(odds.bot_time if seat == bot else odds.engine_time for seat in seats)


def summarise(
    ladder: Ladder, bot: str, odds: Odds, kinds: dict[str, Counter[str]] | None = None
) -> dict[str, Any]:
    """One setting's result with stable keys (`bench outside --json`'s `settings`); `kinds`:
    each side's faults by kind (timeout, illegal...), as the referee counted them."""
    kinds = kinds or {}
    rate, (low, high), games = ladder.pair(bot, ENGINE)
    pair = ladder.pairs[(bot, ENGINE)]
    goal = GOALS.get(odds.fraction)
    return {
        "fraction": odds.fraction,
        "bot_time": odds.bot_time,
        "engine_time": odds.engine_time,
        "games": games,
        "bot_wins": pair.a_wins,
        "engine_wins": pair.b_wins,
        "draws": pair.draws,
        "win_rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "bot_mean_score": round(pair.a_points / max(1, games), 2),
        "engine_mean_score": round(pair.b_points / max(1, games), 2),
        "bot_faults": ladder.by_bot[bot].faults,
        "engine_faults": ladder.by_bot[ENGINE].faults,
        "bot_fault_kinds": dict(sorted(kinds.get(bot, Counter()).items())),
        "engine_fault_kinds": dict(sorted(kinds.get(ENGINE, Counter()).items())),
        "goal": goal,
        "goal_met": None if goal is None else rate >= goal,
    }


def play_outside(  # noqa: PLR0913  # the benchmark's settings, each named by its caller
    bot: tuple[str, str],
    engine: str,
    odds: list[Odds],
    games: int,
    seed: int,
    ruleset: str = "azul",
    isolation: str | None = None,
    first_move_allowance: float = 0.0,
    progress: Progress | None = None,
    startup_timeout: float | None = None,
) -> list[dict[str, Any]]:
    """Our `bot` (name, spec) against the `engine` spec at each of `odds`, through one Arena
    (its bot processes reused); one summary per setting, in the order given. `startup_timeout`:
    the seconds a bot may take from launch to Hello (None: the Arena's default), for an engine
    that loads or compiles much before it can play."""
    from referee import Arena, BotSettings, MatchConfig

    name = bot[0]
    results: list[dict[str, Any]] = []

    async def setting(arena: Any, one: Odds) -> dict[str, Any]:
        ladder = Ladder([name, ENGINE])
        kinds: dict[str, Counter[str]] = {name: Counter(), ENGINE: Counter()}
        plan = schedule([name, ENGINE], 2, games, seed)
        for game in plan:
            config = MatchConfig(
                ruleset=ruleset,
                seed=game.seed,
                time_per_move=one.engine_time,
                seat_time_per_move=seat_times(game.seats, name, one),
                first_move_allowance=first_move_allowance,
            )
            r = await arena.play(list(game.seats), config)
            faults = [sum(s.faults.values()) for s in r.seats]
            ladder.add(game.seats, r.scores, r.ranks, faults, deal=game.seed)
            for seat, result in zip(game.seats, r.seats, strict=True):
                kinds[seat].update({k: v for k, v in result.faults.items() if v})
            if progress:
                progress(one.fraction, ladder.games, len(plan))
        return summarise(ladder, name, one, kinds)

    async def main() -> None:
        settings = BotSettings(isolation=isolation)
        if startup_timeout is not None:
            settings.startup_timeout = startup_timeout
        async with Arena({name: bot[1], ENGINE: engine}, bots=settings) as arena:
            for one in odds:
                results.append(await setting(arena, one))

    run_loop(main())
    return results
