"""Adaptive and Swiss schedules through the store, with in-process results: minimum games,
nobody meets itself, full seat rotations on shared deals, determinism from stored results;
and a 300-entry simulated field through `bench schedule`'s code path."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournaments.helpers import fake_outcome
from tournaments.cli import app
from tournaments.domain.entries import Entry
from tournaments.domain.rounds import RoundPlan, Rounds
from tournaments.domain.schedule import ScheduledGame, ScheduleError
from tournaments.domain.store import GameWithdrawn, Store


def _open(path: Path, names: list[str], plan: RoundPlan) -> Store:
    store = Store.open(path)
    store.write_schedule({"schedule": plan.kind}, [Entry(n, "random") for n in names], [])
    return store


def _play_rounds(store: Store, plan: RoundPlan, rounds: int | None = None) -> int:
    """Play round after round with fake results (by STRENGTH and index); return rounds."""
    played = 0
    schedule = Rounds(store, plan)
    while rounds is None or played < rounds:
        games = schedule.next_games()
        if not games:
            break
        for game in games:
            store.record(game, fake_outcome(game))
        played += 1
    return played


def _games(store: Store) -> list[ScheduledGame]:
    return [g.game for g in store.games()]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_adaptive_plays_its_games_with_the_minimum_each(tmp_path: Path, players: int) -> None:
    names = [f"x{i}" for i in range(11)]
    plan = RoundPlan("adaptive", players, seed=7, games=60 * players, min_games=3 * players)
    store = _open(tmp_path / "a.db", names, plan)
    _play_rounds(store, plan)
    games = _games(store)
    assert len(games) == 60 * players and store.counts() == (len(games), len(games))
    per_entry = Counter(n for g in games for n in g.seats)
    assert set(per_entry) == set(names)
    assert min(per_entry.values()) >= 3 * players
    for g in games:
        assert len(set(g.seats)) == players  # nobody meets itself
    # Each group: a full seat rotation on one deal, the round's deal.
    by_group: dict[int, list[ScheduledGame]] = {}
    for g in games:
        by_group.setdefault(g.group, []).append(g)
    for group in by_group.values():
        assert len(group) == players and len({g.seed for g in group}) == 1
        assert sorted(g.rotation for g in group) == list(range(players))
        assert {g.seats[0] for g in group} == set(group[0].seats)
    assert len({g.seed for g in games if g.deal == 0} | {g.seed for g in games if g.deal == 1}) == 2


def test_adaptive_pairs_close_ratings_once_it_knows_them(tmp_path: Path) -> None:
    # Strengths a < b < c < d < e (fake results are decided by them): after the first rounds
    # the neighbours in strength meet more often than the extremes.
    names = [*list("abcde"), "strong", "mid", "weak"]
    plan = RoundPlan("adaptive", 2, seed=3, games=160, min_games=2)
    store = _open(tmp_path / "a.db", names, plan)
    _play_rounds(store, plan)
    met = Counter(frozenset(g.seats) for g in _games(store))
    assert met[frozenset("de")] + met[frozenset("cd")] > met[frozenset("ae")] + met[frozenset("be")]


def test_swiss_plays_every_entry_each_round_but_the_byes(tmp_path: Path) -> None:
    names = [f"x{i}" for i in range(9)]
    plan = RoundPlan("swiss", 2, seed=2, rounds=5)
    store = _open(tmp_path / "s.db", names, plan)
    assert _play_rounds(store, plan) == 5
    games = _games(store)
    assert len(games) == 5 * 4 * 2
    for round_no in range(5):
        seated = Counter(n for g in games if g.deal == round_no for n in g.seats)
        assert len(seated) == 8 and set(seated.values()) == {2}
    rested = [
        next(n for n in names if n not in {s for g in games if g.deal == r for s in g.seats})
        for r in range(5)
    ]
    assert len(set(rested)) == 5  # the bye goes round
    assert all(len(set(g.seats)) == 2 for g in games)


@pytest.mark.parametrize("kind", ["adaptive", "swiss"])
def test_same_stored_results_give_the_same_next_round(tmp_path: Path, kind: str) -> None:
    names = [f"x{i}" for i in range(10)] + ["strong", "weak"]
    plan = RoundPlan(kind, 2, seed=11, games=400, rounds=8, min_games=2)
    store = _open(tmp_path / "one.db", names, plan)
    _play_rounds(store, plan, rounds=4)
    store.close()
    shutil.copy(tmp_path / "one.db", tmp_path / "two.db")
    nexts = []
    for db in ("one.db", "two.db"):
        with Store.open(tmp_path / db, create=False) as again:
            nexts.append([(g.game_id, g.seats, g.seed) for g in Rounds(again, plan).next_games()])
            # Asked again (a resume before any of them is played): the same pending games.
            assert [
                (g.game_id, g.seats, g.seed) for g in Rounds(again, plan).next_games()
            ] == nexts[-1]
    assert nexts[0] == nexts[1] and len(nexts[0]) == 12
    assert all(gid.startswith("r4-") for gid, _, _ in nexts[0])


def test_late_and_removed_entries(tmp_path: Path) -> None:
    names = ["a", "b", "c", "d"]
    plan = RoundPlan("adaptive", 2, seed=1, games=80, min_games=4)
    store = _open(tmp_path / "a.db", names, plan)
    _play_rounds(store, plan, rounds=2)
    store.add_entry(Entry("late", "random"))
    store.remove_entry("b")
    before = len(_games(store))
    _play_rounds(store, plan)
    later = _games(store)[before:]
    assert "b" not in {n for g in later for n in g.seats}
    assert Counter(n for g in later for n in g.seats)["late"] >= 4
    assert [c["action"] for c in store.entry_changes()] == ["add", "remove"]
    with pytest.raises(Exception, match="already an entry"):
        store.add_entry(Entry("late", "random"))
    with pytest.raises(Exception, match="already removed"):
        store.remove_entry("b")


def test_a_removed_entry_plays_no_more_games_of_its_round(tmp_path: Path) -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    plan = RoundPlan("adaptive", 2, seed=1, games=60, min_games=4)
    store = _open(tmp_path / "a.db", names, plan)
    _play_rounds(store, plan, rounds=1)
    current = Rounds(store, plan).next_games()  # the second round, stored, not played yet
    store.record(current[0], fake_outcome(current[0]))
    victim = next(n for n in current[0].seats)
    mine = [g for g in current[1:] if victim in g.seats]
    assert mine and store.remove_entry(victim) == len(mine)
    assert store.entry_changes()[-1]["withdrawn"] == len(mine)
    # Its games not played yet left the schedule: a run skips them, and a result that comes
    # anyway (a game in flight at the removal) is not recorded.
    assert all(not store.scheduled(g) for g in mine)
    assert all(store.scheduled(g) for g in current if g not in mine)
    with pytest.raises(GameWithdrawn):
        store.record(mine[0], fake_outcome(mine[0]))
    for game in Rounds(store, plan).next_games():  # the rest of the round, without it
        assert victim not in game.seats
        store.record(game, fake_outcome(game))
    _play_rounds(store, plan)
    games = _games(store)
    # Withdrawn games do not count against --games (a group whose seat rotation was cut
    # short leaves the total one game under it: groups play full rotations).
    assert 60 - plan.players < len(games) <= 60
    assert [g.game_id for g in games if victim in g.seats and g.deal >= current[0].deal] == [
        current[0].game_id
    ]


def test_impossible_plans_are_refused() -> None:
    with pytest.raises(ScheduleError, match="multiple of --players"):
        RoundPlan("adaptive", 3, 1, games=100).check(10)
    with pytest.raises(ScheduleError, match="too few"):
        RoundPlan("adaptive", 2, 1, games=10, min_games=4).check(10)
    with pytest.raises(ScheduleError, match="--rounds"):
        RoundPlan("swiss", 2, 1).check(10)
    with pytest.raises(ScheduleError, match="at least 4 entries"):
        RoundPlan("swiss", 4, 1, rounds=3).check(3)


def test_bench_schedule_on_a_300_entry_field() -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "schedule",
            "--entries",
            "300",
            "--games",
            "900",
            "--fields",
            "1",
            "--checkpoints",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["entries"] == 300 and data["games"] == 900
    schedules = data["schedules"]
    assert set(schedules) == {"round-robin", "swiss", "adaptive"}
    for kind, figures in schedules.items():
        assert figures["games"] == 900, kind
        assert figures["tau"][-1][0] == 900 and len(figures["tau"]) == 3
        # Three games each already order a 300-entry field far better than chance (tau 0).
        assert 0.3 < figures["final_tau"] <= 1.0, (kind, figures["final_tau"])
    assert schedules["adaptive"]["scheduler_us_per_game"] > 0
    assert schedules["round-robin"]["pairing_us_per_game"] >= 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--schedule", "adaptive"], "needs --games"),
        (["--schedule", "swiss"], "needs --rounds"),
        (["--games", "10"], "goes with --schedule adaptive"),
        (["--schedule", "swiss", "--rounds", "3", "--gauntlet", "a"], "does not go with"),
        (["--schedule", "adaptive", "--games", "9"], "not a multiple of --players"),
        (["--schedule", "adaptive", "--games", "4", "--min-games", "6"], "too few"),
        (["--schedule", "knockout"], "is not one of"),
    ],
)
def test_run_refuses_schedule_options_that_do_not_fit(
    tmp_path: Path, args: list[str], message: str
) -> None:
    db = tmp_path / "t.db"
    result = CliRunner().invoke(
        app, ["tournament", "run", "a=random", "b=random", "c=random", "--db", str(db), *args]
    )
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not db.exists()  # refused before the database was touched
