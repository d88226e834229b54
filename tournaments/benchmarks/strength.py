"""The strength ladder (`bench strength`): bots against each other in every line-up, seats
rotated over the same deals, tallied as a matrix of head-to-head win rates and mean ranks.

With 2 players every pair plays `games` games: game g deals from `seed + g // 2` and swaps the
seats on odd games. With 3 or 4 players every set of that many bots (a line-up) plays `games`
games, game g dealing from `seed + g // players` with the seats rotated by g: each bot sits in
each seat over the same deal. Each deal also takes the next of the line-up's orders around the
table, as a tournament's groups do (`tournaments.domain.schedule.seating`): who takes from the
factories just before a bot shapes what it gets, and a fixed order would leave one bot always
after the same other (in Summer Pavilion with 4 players that moved a bot's mean rank by up to
0.9). With `games` a multiple of 24 (4 players) or 6 (3), every order is played equally often.
Every game counts for each pair of bots in it (who ranked higher; a shared rank is half a win
each), so the matrix reads the same for any player count, and for each bot (its rank and score).
A bot's mean rank has its 95% interval with each deal (its seed, over every line-up the bot
plays it in) one sample: those games share their tiles.

Through the referee (`play_referee`: bot processes, gRPC, the referee's clocks) or in this
process (`play_local`: sdk.local, no processes). A benchmark, not a test: it is slow, and on a
busy machine short time controls are noisy.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

from referee import run_loop
from tournaments.domain.report import clustered_mean_interval, wilson
from tournaments.domain.schedule import seat_orders, seating

# The reference bots, weakest first: the ladder's rungs (docs/strength.md).
REFERENCE_BOTS = ("random", "greedy", "search", "mcts")

# With 2 players a rung holds where the stronger bot wins this share of their games (the bar a
# course grades against: docs/strength.md, "Staff bots for a course").
RUNG_WIN_RATE = 0.7


@dataclass
class PairResult:
    """Bot `a` against bot `b` over the games both played (2 players: against each other)."""

    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    a_points: int = 0
    b_points: int = 0
    faults: int = 0  # of `a` and `b` in those games

    @property
    def a_win_rate(self) -> float:
        return (self.a_wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        low, high = wilson(self.a_wins + 0.5 * self.draws, self.games)
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "a_win_rate": round(self.a_win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "a_mean_score": round(self.a_points / max(1, self.games), 2),
            "b_mean_score": round(self.b_points / max(1, self.games), 2),
            "faults": self.faults,
        }


@dataclass
class BotResult:
    """One bot over all its games."""

    name: str
    games: int = 0
    rank_total: int = 0
    firsts: int = 0  # games it ranked first in (alone or shared)
    points: int = 0
    faults: int = 0  # timeouts, illegal moves, errors, crashes...
    # by deal (its seed, or a game of its own: see `Ladder.add`), for the interval
    ranks: dict[int | tuple[str, int], list[int]] = field(default_factory=dict)

    @property
    def mean_rank(self) -> float:
        return self.rank_total / self.games if self.games else 0.0

    def rank_interval(self) -> tuple[float, float]:
        """The 95% interval of the mean rank (NaN below two deals): with 3 or 4 players the
        ladder's order holds where neighbours' intervals do not overlap. The games of one deal
        (its seats rotated) share its tiles, so they count as one sample, not several
        (`clustered_mean_interval`)."""
        _, low, high = clustered_mean_interval(list(self.ranks.values()), lowest=1.0)
        return low, high

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "mean_rank": round(self.mean_rank, 3),
            # null below two deals (JSON has no NaN)
            "rank_ci95": [None if math.isnan(x) else round(x, 3) for x in self.rank_interval()],
            "firsts": self.firsts,
            "mean_score": round(self.points / max(1, self.games), 2),
            "faults": self.faults,
        }


@dataclass(frozen=True)
class Seating:
    """One game to play: the bots in seat order and the seed of its deals."""

    seats: tuple[str, ...]
    seed: int


def schedule(bots: list[str], players: int, games: int, seed: int) -> list[Seating]:
    """Every game of the ladder, line-up by line-up (see the module docstring)."""
    if players > len(bots):
        raise ValueError(
            f"{players} players need at least {players} different bots, {len(bots)} named"
        )
    out = []
    for lineup in combinations(bots, players):
        orders = seat_orders(lineup)
        for g in range(games):
            deal, rotation = divmod(g, players)
            out.append(Seating(seating(orders, deal, rotation), seed + deal))
    return out


@dataclass(frozen=True)
class Rung:
    """Two bots next to each other in the order of mean ranks, the stronger `above`."""

    above: str
    below: str
    win_rate: float  # of `above` against `below` over the games both played
    holds: bool  # see `Ladder.rungs`

    def as_dict(self) -> dict[str, Any]:
        return {
            "above": self.above,
            "below": self.below,
            "win_rate": round(self.win_rate, 4),
            "holds": self.holds,
        }


class Ladder:
    """The tally: one PairResult per pair (in the order the bots were named), one BotResult
    per bot."""

    def __init__(self, bots: list[str]) -> None:
        self.bots = list(bots)
        self.pairs = {(a, b): PairResult(a, b) for i, a in enumerate(bots) for b in bots[i + 1 :]}
        self.by_bot = {b: BotResult(b) for b in bots}
        self.games = 0
        self.players = 0  # per game, known from the first game counted

    def add(
        self,
        seats: tuple[str, ...],
        scores: list[int],
        ranks: list[int],
        faults: list[int],
        deal: int | None = None,
    ) -> None:
        """Count one finished game (`faults` per seat) of `deal` (the seed of its tiles; None:
        a deal of its own)."""
        # A key no seed can equal (a seed may be any int, negative too).
        key: int | tuple[str, int] = ("game", self.games) if deal is None else deal
        self.games += 1
        self.players = len(seats)
        for i, name in enumerate(seats):
            bot = self.by_bot[name]
            bot.games += 1
            bot.rank_total += ranks[i]
            bot.ranks.setdefault(key, []).append(ranks[i])
            bot.firsts += ranks[i] == 1
            bot.points += scores[i]
            bot.faults += faults[i]
        for i, j in combinations(range(len(seats)), 2):
            pair = self.pairs.get((seats[i], seats[j]))
            if pair is None:  # named the other way round
                pair, i, j = self.pairs[(seats[j], seats[i])], j, i
            pair.games += 1
            pair.a_points += scores[i]
            pair.b_points += scores[j]
            pair.faults += faults[i] + faults[j]
            if ranks[i] < ranks[j]:
                pair.a_wins += 1
            elif ranks[i] > ranks[j]:
                pair.b_wins += 1
            else:
                pair.draws += 1

    def pair(self, a: str, b: str) -> tuple[float, tuple[float, float], int]:
        """`a`'s win rate against `b` (draws half), its 95% interval and the games counted."""
        p = self.pairs.get((a, b))
        if p is not None:
            won, n = p.a_wins + 0.5 * p.draws, p.games
        else:
            p = self.pairs[(b, a)]
            won, n = p.b_wins + 0.5 * p.draws, p.games
        return (won / n if n else 0.0), wilson(won, n), n

    def faults(self) -> int:
        return sum(b.faults for b in self.by_bot.values())

    def rungs(self) -> list[Rung]:
        """The bots by mean rank, strongest first (a bot with no games last), as rungs between
        neighbours, each saying whether it holds: the upper bot's mean rank is lower, and with
        2 players it wins at least `RUNG_WIN_RATE` of their games, with 3 or 4 the two mean
        ranks' 95% intervals do not overlap (too few games for an interval: it does not hold).
        A tie in mean rank never holds (three bots each beating the next, round a cycle)."""
        order = sorted(self.by_bot.values(), key=lambda r: (r.games == 0, r.mean_rank))
        rungs = []
        for above, below in pairwise(order):
            rate = self.pair(above.name, below.name)[0]
            if not 0 < above.mean_rank < below.mean_rank:
                holds = False
            elif self.players == 2:
                holds = rate >= RUNG_WIN_RATE
            else:
                holds = above.rank_interval()[1] < below.rank_interval()[0]
            rungs.append(Rung(above.name, below.name, rate, holds))
        return rungs


Progress = Callable[[Ladder, int], None]  # (the tally so far, games in all)


def play_referee(  # noqa: PLR0913  # the ladder's settings, each with a default past the fifth
    bots: list[str],
    games: int,
    time_per_move: float,
    ruleset: str,
    seed: int,
    players: int = 2,
    concurrency: int = 1,
    progress: Progress | None = None,
    options: dict[str, str] | None = None,
    first_move_allowance: float = 0.0,
) -> Ladder:
    """The ladder through the real referee: one Arena, its bot processes reused, at most
    `concurrency` games at once; each bot's first move of a game may take
    `first_move_allowance` seconds more (a freshly launched bot warms up)."""
    from referee import Arena, MatchConfig

    plan = schedule(bots, players, games, seed)
    ladder = Ladder(bots)

    async def main() -> None:
        slots = asyncio.Semaphore(concurrency)
        async with Arena(bots) as arena:

            async def one(game: Seating) -> None:
                config = MatchConfig(
                    ruleset=ruleset,
                    seed=game.seed,
                    options=dict(options or {}),
                    time_per_move=time_per_move,
                    first_move_allowance=first_move_allowance,
                )
                async with slots:
                    r = await arena.play(list(game.seats), config)
                faults = [sum(s.faults.values()) for s in r.seats]
                ladder.add(game.seats, r.scores, r.ranks, faults, deal=game.seed)
                if progress:
                    progress(ladder, len(plan))

            await asyncio.gather(*(one(game) for game in plan))

    run_loop(main())
    return ladder


def play_local(
    bots: list[str],
    games: int,
    time_per_move: float,
    ruleset: str,
    seed: int,
    players: int = 2,
    progress: Progress | None = None,
    options: dict[str, str] | None = None,
) -> Ladder:
    """The ladder in this process (sdk.local: no referee, no processes), one game at a time."""
    from referee import builtin_target
    from sdk.local import play_local as play_one
    from sdk.run import load_bot

    plan = schedule(bots, players, games, seed)
    ladder = Ladder(bots)
    for game in plan:
        seated = [load_bot(builtin_target(n) or n) for n in game.seats]
        r = play_one(
            seated, ruleset=ruleset, seed=game.seed, time_per_move=time_per_move, options=options
        )
        ladder.add(
            game.seats,
            r.scores,
            r.ranks,
            [r.illegal[i] + r.timeouts[i] + r.errors[i] for i in range(players)],
            deal=game.seed,
        )
        if progress:
            progress(ladder, len(plan))
    return ladder
