"""The reference ladder's guarantees, in process (sdk.local) and seeded:

- greedy beats random in at least 95% of 2-player games of each family;
- search and mcts play every ruleset they declare with 2, 3 and 4 players at 0.05 s a move
  without an illegal move, an exception or a timeout (an answer later than the move time plus
  the referee's own 50 ms grace).

The ladder itself (search over greedy, mcts over search) is a benchmark, not a test:
`azul-arena bench strength` (docs/strength.md has the figures).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import sdk
from bots.greedy_bot import GreedyBot
from bots.mcts_bot import MctsBot
from bots.random_bot import RandomBot
from bots.search_bot import SearchBot
from referee import MatchConfig
from sdk.local import play_local

QUICK = 0.05  # seconds per move: the shortest time control the reference bots must keep
GRACE = MatchConfig().grace  # what the referee forgives beyond the move time


def _greedy_wins(ruleset: str, games: int, seed: int) -> int:
    wins = 0
    for g in range(games):
        seat = g % 2  # seats swapped over the same deal
        bots = [GreedyBot(seed=g), RandomBot(seed=g)]
        if seat:
            bots.reverse()
        result = play_local(bots, ruleset=ruleset, seed=seed + g // 2, time_per_move=5.0)
        assert result.faults == 0
        wins += result.ranks[seat] == 1 and result.ranks[1 - seat] == 2
    return wins


@pytest.mark.parametrize("ruleset", ["azul", "azul-gray", "azul-greenbox"])
def test_greedy_beats_random_in_at_least_95_percent_of_classic_games(ruleset: str) -> None:
    games = 40
    wins = _greedy_wins(ruleset, games, 700)
    assert wins >= 0.95 * games, f"greedy won {wins} of {games} {ruleset} games"


class _Timed:
    """Wraps a bot's choose_move to keep each decision's wall-clock and CPU time (this
    thread's): a decision late by the wall clock but short in CPU was the machine's doing (a
    loaded 2-core machine deschedules a process for 100 ms and more), not the bot's."""

    def __init__(self, bot: sdk.Bot) -> None:
        self.decisions: list[tuple[float, float]] = []
        self._choose = bot.choose_move
        bot.choose_move = self  # type: ignore[method-assign]

    def __call__(self, state: Any) -> Any:
        wall, cpu = time.monotonic(), time.thread_time()
        try:
            return self._choose(state)
        finally:
            self.decisions.append((time.monotonic() - wall, time.thread_time() - cpu))


@pytest.mark.parametrize("bot", [SearchBot, MctsBot], ids=lambda b: b.name)
def test_thinking_bots_keep_a_quick_clock_in_every_ruleset_they_declare(bot: type) -> None:
    assert bot.rulesets, "a reference bot names the rulesets it plays"
    # Every ruleset once, at a table size that turns from ruleset to ruleset: over the six
    # rulesets each size twice, and each family (azul first, pavilion fifth) at 2 players.
    for i, ruleset in enumerate(bot.rulesets):
        for players in ((2, 3, 4, 4, 2, 3)[i % 6],):
            seat = (players + len(ruleset)) % players  # a different seat from game to game
            seats = [RandomBot(seed=s) for s in range(players)]
            seats[seat] = bot()
            timed = _Timed(seats[seat])
            result = play_local(
                seats, ruleset=ruleset, seed=40 + players, time_per_move=QUICK, grace=GRACE
            )
            where = f"{bot.name} {ruleset} {players}p"
            assert result.illegal[seat] == 0, where
            assert result.errors[seat] == 0, where
            assert result.decisions[seat] >= 5, where
            # Every answer within the move time and the grace, unless the machine took the CPU
            # away: then the bot's own work must still have fitted in the move time.
            late = [(round(w, 3), round(c, 3)) for w, c in timed.decisions if w > QUICK + GRACE]
            assert all(c <= QUICK for _, c in late), f"{where}: late (wall, cpu) {late}"
            assert result.timeouts[seat] == len(late), where
            assert result.ranks[seat] == 1, f"{where}: lost to random players {result.scores}"
