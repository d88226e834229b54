"""Graded schedules through the store, with in-process results: every entry meets every
grader (group of graders) K times on the field's shared deals, seats rotated; then a ranking
stage among the others within its games; a cost linear in the entries; resumed in the middle
of a round it ends as an uninterrupted one, every game stored once; `bench final --grading`
says what it costs beside a round-robin and an adaptive final."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.tournaments.helpers import fake_outcome
from tests.tournaments.test_rounds import _games, _open, _play_rounds
from tournaments.cli import app
from tournaments.domain.entries import Entry
from tournaments.domain.rounds import RoundPlan, Rounds, graded_games
from tournaments.domain.schedule import ScheduleError, count_games, count_graded, deal_seed
from tournaments.domain.store import Store, StoreError
from tournaments.domain.tournament import TournamentConfig

GRADERS = ("s1", "s2")


def _plan(players: int, teams: int, per_pairing: int, ranking: int) -> RoundPlan:
    """A graded plan as a contest's final makes it (finals/play.py)."""
    per_team = count_graded(1, len(GRADERS), players, per_pairing)
    return RoundPlan(
        "graded",
        players,
        seed=5,
        games=graded_games(teams, len(GRADERS), players, per_pairing, ranking),
        min_games=per_team + ranking,
        graders=GRADERS,
        games_per_pairing=per_pairing,
    )


@pytest.mark.parametrize("players", [2, 3])
def test_each_entry_meets_each_grader_on_shared_deals_then_the_others_within_budget(
    tmp_path: Path, players: int
) -> None:
    teams = [f"t{i}" for i in range(6)]
    per_pairing, ranking = 2 * players, 2 * players
    plan = _plan(players, len(teams), per_pairing, ranking)
    store = _open(tmp_path / "g.db", [*teams, *GRADERS], plan)
    _play_rounds(store, plan)
    games = _games(store)
    assert len(games) == plan.games and store.counts() == (len(games), len(games))
    grading = [g for g in games if g.deal < plan.grading_rounds]
    deals = {deal_seed(plan.seed, r) for r in range(per_pairing // players)}
    for team in teams:
        mine = [g for g in grading if team in g.seats]
        assert all(set(g.seats) - {team} <= set(GRADERS) for g in mine)  # no other team
        for grader in GRADERS:
            met = [g for g in mine if grader in g.seats]
            # K games with each group of graders: with 3 players the one group of both.
            assert len(met) == per_pairing * math.comb(len(GRADERS) - 1, players - 2)
            # On the field's deals, each played in every seat: duplicate deals.
            assert {g.seed for g in met} == deals
            for seed in deals:
                seats = [g.seats.index(team) for g in met if g.seed == seed]
                assert sorted(seats) == list(range(players))
    ranked = [g for g in games if g.deal >= plan.grading_rounds]
    assert len(ranked) == plan.games - len(grading) > 0
    assert not any(set(g.seats) & set(GRADERS) for g in ranked)  # among the teams alone
    assert min(Counter(n for g in ranked for n in g.seats).values()) >= ranking


def test_its_cost_is_linear_in_the_entries() -> None:
    for players in (2, 3, 4):
        assert count_graded(120, 3, players, 12) == 2 * count_graded(60, 3, players, 12)
        # The ranking stage rounds up to whole seat rotations, no more.
        assert graded_games(120, 3, players, 12, 10) <= 2 * graded_games(60, 3, players, 12, 10)
    assert graded_games(60, 2, 2, 10, 10) == 60 * 2 * 10 + 300
    assert count_games(62, 2, 10, False) == 18_910  # the round-robin: 12 times as many


def test_resumed_in_the_middle_of_a_round_it_ends_as_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    names = [*(f"t{i}" for i in range(5)), *GRADERS]
    plan = _plan(2, 5, 4, 4)
    whole = _open(tmp_path / "whole.db", names, plan)
    _play_rounds(whole, plan)
    cut = _open(tmp_path / "cut.db", names, plan)
    first = Rounds(cut, plan).next_games()
    for game in first[:3]:
        cut.record(game, fake_outcome(game))
    cut.close()
    with Store.open(tmp_path / "cut.db", create=False) as again:
        assert Rounds(again, plan).next_games() == first[3:]  # the round it was in
        _play_rounds(again, plan)
        assert [(g.game_id, g.seats, g.seed) for g in _games(again)] == [
            (g.game_id, g.seats, g.seed) for g in _games(whole)
        ]
        assert again.counts() == (plan.games, plan.games)
        with pytest.raises(StoreError, match="already recorded"):
            again.record(first[0], fake_outcome(first[0]))


def test_impossible_graded_plans_are_refused() -> None:
    good = _plan(2, 4, 4, 4)
    good.check(6, {"t0", "t1", "t2", "t3", *GRADERS})
    for plan, entries, message in [
        (RoundPlan("graded", 3, 1, graders=("s1",), games_per_pairing=3), 5, "at least 2"),
        (RoundPlan("graded", 2, 1, graders=("s1",), games_per_pairing=3), 5, "multiple of 2"),
        (RoundPlan("graded", 2, 1, games=0, graders=GRADERS, games_per_pairing=2), 2, "besides"),
        (RoundPlan("graded", 2, 1, games=10, graders=GRADERS, games_per_pairing=2), 6, "16"),
        (RoundPlan("graded", 2, 1, games=6, graders=GRADERS, games_per_pairing=2), 3, "alone"),
    ]:
        with pytest.raises(ScheduleError, match=message):
            plan.check(entries)
    with pytest.raises(ScheduleError, match="not among the entries: s2"):
        good.check(6, {"t0", "t1", "t2", "t3", "s1", "x"})


def test_a_config_without_graders_stores_none() -> None:
    # Stored as before graded schedules existed, so older tournaments resume unchanged.
    plain = TournamentConfig(entries=[Entry("a", "random"), Entry("b", "random")])
    assert "graders" not in plain.to_json()
    graded = TournamentConfig(entries=plain.entries, schedule="graded", graders=["b"], seed=1)
    assert graded.to_json()["graders"] == ["b"]
    plan = graded.round_plan()
    assert plan is not None and plan.graders == ("b",) and plan.grading_rounds == 1


def test_bench_final_grading_prints_the_graded_cost_beside_the_others() -> None:
    args = ["bench", "final", "--grading", "--teams", "60", "--staff", "2"]
    done = CliRunner().invoke(app, [*args, "--json"])
    assert done.exit_code == 0, done.output
    table = json.loads(done.output)
    # The keys a script read before stay; the graded and adaptive figures are new keys.
    assert {"staff_bots", "seconds_per_game", "rows"} <= set(table)
    ten = next(r for r in table["rows"] if r["games_per_pairing"] == 10)
    sixty = next(c for c in ten["classes"] if c["teams"] == 60)
    assert (sixty["final_games"], sixty["wall_s_one_at_a_time"]) == (18_910, 567_300)
    assert sixty["final_min_games_for_round_robin"] == 610
    # 60 teams x 2 staff bots x 10 games, then 10 games a team among the teams.
    assert (sixty["graded_games"], sixty["graded_wall_s_one_at_a_time"]) == (1_500, 45_000)
    assert table["adaptive"][-1] == {
        "teams": 60,
        "final_games": 930,
        "wall_s_one_at_a_time": 27_900,
    }
    shown = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "60 teams: graded" in shown.output and "1,500 (12.5)" in shown.output
    assert "adaptive final (30 games an entry" in shown.output
