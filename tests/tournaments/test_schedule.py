"""The schedule: pairings, groups, seat rotation over shared deals, gauntlet, stable ids."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournaments.domain.schedule import ScheduleError, build_schedule, count_games, deal_seed

NAMES = ["a", "b", "c", "d", "e"]


def test_round_robin_pairs_every_pair_with_rotation() -> None:
    games = build_schedule(NAMES, players=2, games_per_group=4, seed=1)
    assert len(games) == 10 * 4 == count_games(5, 2, 4, False)
    by_pair = Counter(frozenset(g.seats) for g in games)
    assert set(by_pair) == {frozenset(p) for p in itertools.combinations(NAMES, 2)}
    assert set(by_pair.values()) == {4}
    # Each entry of a pair sits in seat 0 exactly twice, once per deal.
    for pair in itertools.combinations(NAMES, 2):
        mine = [g for g in games if set(g.seats) == set(pair)]
        assert Counter(g.seats[0] for g in mine) == {pair[0]: 2, pair[1]: 2}
        # both rotations of a deal use the same seed
        for deal in (0, 1):
            seeds = {g.seed for g in mine if g.deal == deal}
            assert len(seeds) == 1
            assert {g.seats for g in mine if g.deal == deal} == {pair, pair[::-1]}


def test_four_player_groups_rotate_every_seat() -> None:
    games = build_schedule(NAMES, players=4, games_per_group=4, seed=3)
    assert len(games) == 5 * 4
    for group in itertools.combinations(NAMES, 4):
        mine = [g for g in games if set(g.seats) == set(group)]
        assert len(mine) == 4
        for seat in range(4):
            assert {g.seats[seat] for g in mine} == set(group)
        assert len({g.seed for g in mine}) == 1
    # Group k starts at its k-th order around the table: even one deal a group does not seat
    # the whole field in the order of its names (an entry always just after the next name).
    firsts = [g.seats for g in games if g.rotation == 0]
    assert sum(s == tuple(sorted(s)) for s in firsts) == 1  # group 0 only


@pytest.mark.parametrize(("players", "games"), [(3, 6), (4, 24)])
def test_every_entry_sits_just_after_every_other_equally_often(players: int, games: int) -> None:
    """Who takes just before an entry shapes what it can take: each deal of a group takes the
    next of its orders around the table, so over (players - 1)! deals no entry always follows
    the same other, in a round-robin and in rounds of an adaptive tournament alike."""
    from tournaments.domain.schedule import round_games

    group = tuple(NAMES[:players])
    plans = {
        "round-robin": build_schedule(list(group), players, games, seed=5),
        "rounds": [
            g for r in range(games // players) for g in round_games([group], r, 0, 0, seed=5)
        ],
    }
    for plan in plans.values():
        follows = Counter(
            (g.seats[s], g.seats[(s + 1) % players]) for g in plan for s in range(players)
        )
        assert set(follows) == {(x, y) for x in group for y in group if x != y}
        assert set(follows.values()) == {games // (players - 1)}
        deals = range(games // players)  # each entry leads each deal once: the seats rotate
        leads = Counter((g.seats[0], g.deal) for g in plan)
        assert leads == {(n, d): 1 for n in group for d in deals}
    assert plans["round-robin"][0].seats == group  # group 0, deal 0: in its own order


def test_deals_shared_across_groups_and_ids_stable() -> None:
    a = build_schedule(NAMES, players=3, games_per_group=6, seed=42)
    b = build_schedule(NAMES, players=3, games_per_group=6, seed=42)
    assert a == b
    assert len({g.game_id for g in a}) == len(a)
    assert [g.index for g in a] == list(range(len(a)))
    assert {g.seed for g in a} == {deal_seed(42, 0), deal_seed(42, 1)}
    assert deal_seed(42, 0) != deal_seed(43, 0)
    c = build_schedule(NAMES, players=3, games_per_group=6, seed=43)
    assert {g.seed for g in a}.isdisjoint({g.seed for g in c})


def test_games_are_interleaved_over_the_field() -> None:
    games = build_schedule(NAMES, players=2, games_per_group=2, seed=0)
    first_round = games[:10]
    assert Counter(n for g in first_round for n in g.seats) == {n: 4 for n in NAMES}


def test_gauntlet_puts_hero_in_every_game() -> None:
    games = build_schedule(NAMES, players=2, games_per_group=2, seed=0, gauntlet="c")
    assert len(games) == 4 * 2 == count_games(5, 2, 2, True)
    assert all("c" in g.seats for g in games)
    assert Counter(g.seats[0] for g in games)["c"] == 4
    four = build_schedule(NAMES, players=4, games_per_group=4, seed=0, gauntlet="a")
    assert len(four) == 4 * 4
    assert all("a" in g.seats for g in four)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(names=["a"], players=2, games_per_group=2), "at least 2"),
        (dict(names=NAMES, players=5, games_per_group=2), "2, 3 or 4"),
        (dict(names=NAMES, players=2, games_per_group=0), "at least 1"),
        (dict(names=NAMES, players=2, games_per_group=2, gauntlet="zz"), "not among"),
        (dict(names=[f"s{i}" for i in range(300)], players=4, games_per_group=4), "limit"),
    ],
)
def test_bad_schedules_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        build_schedule(seed=0, **kwargs)
