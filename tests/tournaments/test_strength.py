"""The strength ladder's schedule and tally (tournaments/benchmarks/strength.py), and `bench
strength` with 3 players in process (real bots, sdk.local)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import pty
import subprocess
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

from tournaments.benchmarks.strength import Ladder, schedule
from tournaments.cli import app


def test_two_players_swap_seats_over_the_same_deal() -> None:
    games = schedule(["a", "b", "c"], 2, 4, seed=10)
    assert [(g.seats, g.seed) for g in games[:4]] == [
        (("a", "b"), 10),
        (("b", "a"), 10),
        (("a", "b"), 11),
        (("b", "a"), 11),
    ]
    assert len(games) == 3 * 4  # three pairs


def test_three_players_rotate_every_bot_through_every_seat_of_a_deal() -> None:
    games = schedule(["a", "b", "c", "d"], 3, 6, seed=1)
    assert len(games) == 4 * 6  # four line-ups of three
    first = games[:3]
    assert {g.seed for g in first} == {1}
    for seat in range(3):
        assert {g.seats[seat] for g in first} == {"a", "b", "c"}
    assert Counter(name for g in games for name in g.seats) == {n: 18 for n in "abcd"}


@pytest.mark.parametrize(("players", "games"), [(3, 6), (4, 24)])
def test_every_bot_sits_just_after_every_other_equally_often(players: int, games: int) -> None:
    """Who takes just before a bot shapes what it gets: a line-up's deals go through its orders
    around the table, so over a multiple of (players - 1)! deals no bot always follows the same
    other (with 4 players a fixed order moved a bot's mean rank by up to 0.9 in Summer
    Pavilion), and each deal still rotates every bot through every seat."""
    lineup = tuple("abcd"[:players])
    plan = schedule(list(lineup), players, games, seed=1)
    follows = Counter(
        (g.seats[seat], g.seats[(seat + 1) % players]) for g in plan for seat in range(players)
    )
    pairs = [(x, y) for x in lineup for y in lineup if x != y]
    assert set(follows) == set(pairs)
    assert set(follows.values()) == {games // (players - 1)}
    for deal in range(games // players):
        block = plan[deal * players : (deal + 1) * players]
        assert {g.seed for g in block} == {1 + deal}
        for seat in range(players):
            assert {g.seats[seat] for g in block} == set(lineup)
    assert plan[0].seats == lineup  # the first deal in the order the bots were named


def test_more_players_than_bots_is_refused() -> None:
    with pytest.raises(ValueError, match="3 players need at least 3 different bots"):
        schedule(["a", "b"], 3, 2, seed=1)


def test_a_multiplayer_game_counts_for_every_pair_in_it() -> None:
    ladder = Ladder(["a", "b", "c"])
    ladder.add(("c", "a", "b"), scores=[30, 20, 20], ranks=[1, 2, 2], faults=[0, 1, 0])
    rate, (low, high), games = ladder.pair("c", "a")
    assert (rate, games) == (1.0, 1) and low < 1.0 <= high
    assert ladder.pair("a", "b")[0] == 0.5  # a shared rank is half a win each
    assert ladder.pair("a", "c")[0] == 0.0
    assert ladder.pairs[("a", "c")].faults == 1
    assert ladder.by_bot["c"].mean_rank == 1.0 and ladder.by_bot["a"].faults == 1
    assert ladder.faults() == 1


def test_a_bot_s_mean_rank_has_its_95_percent_interval() -> None:
    # The 3- and 4-player ladder holds where neighbours' intervals do not overlap.
    ladder = Ladder(["a", "b", "c"])
    for ranks in ([1, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3]):
        ladder.add(("a", "b", "c"), scores=[0, 0, 0], ranks=ranks, faults=[0, 0, 0])
    a = ladder.by_bot["a"]
    low, high = a.rank_interval()
    # ranks 1, 1, 2, 1: mean 1.25, sd 0.5, t(3) = 3.182: 1.25 +- 0.80, clipped at rank 1.
    assert a.mean_rank == 1.25
    assert low == 1.0 and high == pytest.approx(1.25 + 3.182 * 0.5 / 2, abs=1e-3)
    assert a.as_dict()["rank_ci95"] == [1.0, round(high, 3)]
    c_low, c_high = ladder.by_bot["c"].rank_interval()  # ranks 3, 2, 3, 3: 2.75 +- 0.80
    assert (c_low, c_high) == pytest.approx((2.75 - 0.7955, 2.75 + 0.7955), abs=1e-3)


def test_the_games_of_one_deal_count_as_one_sample_of_a_bot_s_rank() -> None:
    # Each deal favours one bot: over its three games that bot is first every time. Twelve
    # independent games would make a and b apart; four deals do not.
    def played(deals: list[int | None]) -> Ladder:
        ladder = Ladder(["a", "b", "c"])
        for g, deal in enumerate(deals):
            ranks = [1, 2, 3] if g // 3 % 2 else [2, 1, 3]
            ladder.add(("a", "b", "c"), [0, 0, 0], ranks, [0, 0, 0], deal=deal)
        return ladder

    as_games = played([None] * 12)  # a game of its own each
    as_deals = played([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4])
    for bot in ("a", "b"):
        assert as_deals.by_bot[bot].mean_rank == as_games.by_bot[bot].mean_rank == 1.5
        low, high = as_deals.by_bot[bot].rank_interval()
        g_low, g_high = as_games.by_bot[bot].rank_interval()
        # four deals of 1, 2, 1, 2 (means): 1.5 +- t(3) x 0.289 = 0.92; twelve games: +- 0.33
        assert high - 1.5 == pytest.approx(3.182 * 0.5 / math.sqrt(3), abs=1e-3)
        assert g_high - 1.5 == pytest.approx(2.201 * math.sqrt(3 / 11) / math.sqrt(12), abs=1e-3)
        assert low == 1.0 and g_low > 1.0
    # A game without a deal is a deal of its own, whatever seeds the others have.
    mixed = played([-1, -1, -1, None, None, None, -2, -2, -2, None, None, None])
    assert len(mixed.by_bot["a"].ranks) == 8
    one_deal = played([7, 7, 7])
    assert one_deal.by_bot["a"].as_dict()["rank_ci95"] == [None, None]  # JSON has no NaN


def test_a_two_player_rung_holds_where_the_stronger_wins_seventy_percent() -> None:
    ladder = Ladder(["a", "b", "c"])
    # a beats b 7 games of 10, b beats c 6 of 10, a beats c every game.
    for won in range(10):
        ladder.add(("a", "b"), [50, 40], [1, 2] if won < 7 else [2, 1], [0, 0])
        ladder.add(("b", "c"), [50, 40], [1, 2] if won < 6 else [2, 1], [0, 0])
        ladder.add(("a", "c"), [50, 40], [1, 2], [0, 0])
    rungs = [r.as_dict() for r in ladder.rungs()]
    assert rungs == [
        {"above": "a", "below": "b", "win_rate": 0.7, "holds": True},
        {"above": "b", "below": "c", "win_rate": 0.6, "holds": False},
    ]


def test_a_multiplayer_rung_holds_where_the_mean_ranks_intervals_are_apart() -> None:
    ladder = Ladder(["a", "b", "c"])
    # a is first every game; b and c share the other two places half and half.
    for g in range(8):
        ranks = [1, 2, 3] if g % 2 else [1, 3, 2]
        ladder.add(("a", "b", "c"), [30, 20, 10], ranks, [0, 0, 0])
    first, second = ladder.rungs()
    assert (first.above, first.holds) == ("a", True)  # 1.0 (1.0-1.0) against 2.5 (2.08-2.92)
    assert {second.above, second.below} == {"b", "c"} and not second.holds  # both 2.5
    assert second.win_rate == 0.5


def test_a_cycle_is_no_ladder_and_a_bot_without_games_comes_last() -> None:
    ladder = Ladder(["a", "b", "c", "idle"])
    for _ in range(10):  # a beats b, b beats c, c beats a: every time
        ladder.add(("a", "b"), [50, 40], [1, 2], [0, 0])
        ladder.add(("b", "c"), [50, 40], [1, 2], [0, 0])
        ladder.add(("c", "a"), [50, 40], [1, 2], [0, 0])
    rungs = ladder.rungs()
    assert [r.holds for r in rungs] == [False, False, False]  # all three tie at 1.5
    assert rungs[-1].below == "idle"


def test_one_game_is_no_rung() -> None:
    ladder = Ladder(["a", "b", "c"])
    ladder.add(("a", "b", "c"), [30, 20, 10], [1, 2, 3], [0, 0, 0])
    assert [r.holds for r in ladder.rungs()] == [False, False]  # no interval from one game


def test_bench_strength_with_three_players_in_process() -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "strength",
            "--local",
            "-n",
            "6",
            "-t",
            "0.02",
            "-p",
            "3",
            "-b",
            "random",
            "-b",
            "greedy",
            "-b",
            "search",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output.strip().splitlines()[-1])
    assert data["players"] == 3 and data["games"] == 6  # two deals, each in every seat
    assert {(p["a"], p["b"]) for p in data["pairs"]} == {
        ("random", "greedy"),
        ("random", "search"),
        ("greedy", "search"),
    }
    assert all(p["games"] == 6 for p in data["pairs"])
    by_name = {b["name"]: b for b in data["bots"]}
    assert by_name["random"]["mean_rank"] == 3.0  # last in every game
    assert by_name["random"]["rank_ci95"] == [3.0, 3.0]
    assert data["faults"] == sum(b["faults"] for b in data["bots"])
    # random last every game: below the others in the order of the rungs.
    assert data["rungs"][-1]["below"] == "random"
    assert len(data["rungs"]) == 2 and all(isinstance(r["holds"], bool) for r in data["rungs"])


def test_bench_strength_prints_the_ladder_with_each_rung_held_or_not() -> None:
    command = ["bench", "strength", "--local", "-n", "4", "-t", "0.02", "-b", "random"]
    result = CliRunner().invoke(app, [*command, "-b", "greedy"])
    assert result.exit_code == 0, result.output
    assert "ladder: greedy > random" in result.output  # greedy wins all 4
    assert "at least 70% of their games" in result.output


def test_bench_strength_says_when_the_bots_are_too_few_for_the_players() -> None:
    result = CliRunner().invoke(
        app, ["bench", "strength", "--local", "-p", "3", "-b", "random", "-b", "greedy"]
    )
    assert result.exit_code == 2
    assert "--players 3 needs at least 3 bots" in result.output


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["bench", "strength", "-b", "m1=mcts", "-b", "greedy"], "unknown bot entry 'm1=mcts'"),
        (["bench", "strength", "-b", "greedy", "-b", "no/such/bot.py"], "bot file not found"),
        (["bench", "compare", "--new", "mctz", "--base", "greedy"], "unknown bot entry 'mctz'"),
    ],
)
def test_a_bot_that_cannot_be_launched_is_refused_before_any_game(
    command: list[str], said: str
) -> None:
    """A typo or a missing file is said at once (exit 2), not played as a fault in every game."""
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 2
    assert said in result.output


def test_bench_strength_shows_its_progress_to_a_person_even_with_json() -> None:
    """A long `--json` run still shows its games on a terminal's stderr (a pseudo-terminal
    here), while stdout keeps the one JSON object a script reads."""
    command = [sys.executable, "-m", "tournaments.cli", "bench", "strength", "--local"]
    command += ["-n", "2", "-t", "0.02", "-b", "random", "-b", "greedy", "--json"]
    main, sub = pty.openpty()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=sub, timeout=120, check=False)
        os.close(sub)
        shown = b""
        with contextlib.suppress(OSError):  # the terminal's end reads EIO once all is read
            while chunk := os.read(main, 4096):
                shown += chunk
    finally:
        os.close(main)
    assert done.returncode == 0, shown.decode(errors="replace")
    assert json.loads(done.stdout)["games"] == 2
    assert b"game 2/2" in shown
