"""Game analysis (tournaments/domain/analysis): the engine's values against an exhaustive search
written here, a deliberate blunder found where it was played and nowhere else, labels stable for a
seed, the annotated record still a record, whole games of 3 and 4 players valued to the last
decision, and a decision the engine fails on reported in its place."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bots.expert.solver import tiles_left
from bots.expert.values import leaf_values
from referee.engine import Game, new_game, verify
from tournaments.domain.analysis.batch import analyse_record
from tournaments.domain.analysis.engine import decision_seed, value_moves
from tournaments.domain.analysis.exact import margins
from tournaments.domain.analysis.game import annotate, decisions_to_analyse, label_of

BUDGET = 40  # playouts a decision: the tests check the bookkeeping, not the engine's strength


def exhaustive(state: Any, me: int, round_no: int) -> float:
    """`me`'s margin at the end of the round with every seat playing for its own margin: every
    legal move, no pruning, no table (2 players: plain minimax)."""
    if state.round != round_no or state.is_over():
        return margins(leaf_values(state))[me]
    values = []
    for move in state.legal_moves():
        child = state.copy()
        child.push(move)
        values.append(exhaustive(child, me, round_no))
    return max(values) if state.turn == me else min(values)


def late_positions(ruleset: str, count: int, most_tiles: int, seed: int) -> list[Any]:
    """`count` positions of random 2-player games with 3..`most_tiles` tiles left in the round."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        game = new_game(ruleset, players=2, seed=rng.randrange(10**6))
        while not game.is_over() and len(found) < count:
            if game.phase == "take" and 3 <= tiles_left(game) <= most_tiles and rng.random() < 0.3:
                found.append(game.copy())
            game.push(rng.choice(game.legal_moves()))
    return found


@pytest.mark.parametrize("ruleset", ["azul-mini", "azul"])
def test_exact_values_equal_an_exhaustive_search(ruleset: str) -> None:
    for state in late_positions(ruleset, 6, 7, seed=len(ruleset)):
        me = state.turn
        played = random.Random(1).choice(state.legal_moves())
        # First: it sets the leaf values the exhaustive search then uses too (the bot's own for
        # the game, `bots.expert.net_fits`).
        found = value_moves(state, BUDGET, seed=1, include=(played,))
        truth = {}
        for move in state.legal_moves():
            child = state.copy()
            child.push(move)
            truth[str(move)] = exhaustive(child, me, state.round)
        assert found.exact
        assert found.value(found.best) == pytest.approx(max(truth.values()))
        assert found.value(str(played)) == pytest.approx(truth[str(played)])
        assert truth[found.best] == pytest.approx(max(truth.values()))


def best_line(ruleset: str, seed: int, plies: int) -> tuple[dict[str, Any], int]:
    """A record of `plies` moves, each the analysis's own best move (same budget and seed as the
    analysis of the test) but one: at the first ply from the fourth where the move the analysis
    values lowest loses at least 10 points, that move. Returns the record and that ply."""
    game = new_game(ruleset, players=2, seed=seed)
    bad_ply = -1
    for ply in range(plies):
        found = value_moves(game, BUDGET, decision_seed(7, ply))
        choice = found.best
        if bad_ply < 0 and ply >= 3:
            worst = min(found.values, key=lambda m: found.values[m])
            # Valued as the analysis will value it: as the played move, never halved away.
            again = value_moves(game, BUDGET, decision_seed(7, ply), (game.parse_move(worst),))
            if again.value(again.best) - again.value(worst) >= 10:
                choice, bad_ply = worst, ply
        game.push(game.parse_move(choice))
    assert bad_ply >= 0, "no move bad enough in this game: pick another seed"
    return game.record(["a", "b"]), bad_ply


def test_a_deliberate_blunder_is_found_at_its_ply_and_nowhere_else() -> None:
    record, bad_ply = best_line("azul-mini", 1, 18)
    analysis = analyse_record(record, budget=BUDGET, seed=7)
    labelled = {m["ply"]: m["label"] for m in analysis["moves"] if m["label"]}
    assert labelled == {bad_ply: "blunder"}, analysis["moves"]
    assert all(m["loss"] == 0 for m in analysis["moves"] if m["ply"] != bad_ply)
    bad = next(m for m in analysis["moves"] if m["ply"] == bad_ply)
    assert bad["loss"] >= 10 and bad["best"] != bad["played"]
    seat = bad["seat"]
    summary = analysis["summary"]
    assert summary[seat]["blunder"] == 1 and summary[1 - seat]["blunder"] == 0
    assert summary[seat]["accuracy"] < summary[1 - seat]["accuracy"] == 100.0


def test_labels_and_values_are_the_same_for_a_seed_whatever_is_analysed() -> None:
    game = new_game("azul-mini", players=2, seed=11)
    rng = random.Random(3)
    while not game.is_over() and len(game.record()["rounds"]) < 3:
        game.push(rng.choice(game.legal_moves()))
    record = game.record(["a", "b"])
    first = analyse_record(record, budget=BUDGET, seed=4)
    again = analyse_record(record, budget=BUDGET, seed=4)
    assert first == again
    assert any(m["label"] for m in first["moves"])  # random moves: something to label
    # One seat's decisions alone: the same values as in the whole game's analysis.
    seat1 = analyse_record(record, budget=BUDGET, seed=4, seats=[1])
    assert seat1["moves"] == [m for m in first["moves"] if m["seat"] == 1]
    assert seat1["summary"][0]["decisions"] == 0


def test_labels_follow_the_documented_thresholds() -> None:
    assert [label_of(x) for x in (0, 1.99, 2, 4.99, 5, 9.99, 10, 30)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder",
    ]  # fmt: skip


def test_an_annotated_record_still_verifies_and_replays() -> None:
    game = new_game("azul-mini", players=2, seed=2)
    rng = random.Random(2)
    for _ in range(12):
        game.push(rng.choice(game.legal_moves()))
    record = game.record(["a", "b"])
    annotated = annotate(record, analyse_record(record, budget=BUDGET, seed=0))
    assert annotated["analysis"]["moves"] and "analysis" not in record
    assert verify(annotated).ok
    assert Game.from_record(annotated).scores == Game.from_record(record).scores


@pytest.mark.parametrize(("ruleset", "players"), [("pavilion", 2), ("azul-mini", 3)])
def test_every_family_and_table_size_is_analysed(ruleset: str, players: int) -> None:
    game = new_game(ruleset, players=players, seed=3)
    rng = random.Random(3)
    for _ in range(8):
        game.push(rng.choice(game.legal_moves()))
    analysis = analyse_record(game.record(), budget=BUDGET, seed=1)
    assert [m["ply"] for m in analysis["moves"]] == list(range(8))
    assert len(analysis["summary"]) == players
    for m in analysis["moves"]:
        assert m["value_best"] >= m["value_played"] and m["loss"] >= 0


def greedy_record(ruleset: str, players: int, seed: int) -> dict[str, Any]:
    """The record of a whole game between greedy bots (quick, and deterministic for the seed)."""
    from bots.greedy_bot import GreedyBot
    from sdk.local import play_local

    bots = [GreedyBot(seed=k) for k in range(players)]
    return play_local(bots, ruleset=ruleset, seed=seed, time_per_move=30).record


# azul with 3 and 4 players, seed 9: replayed from the record, a search line that ended round 3
# otherwise than the game could not take round 4's recorded deal from its own lid, and the whole
# analysis failed. Summer Pavilion: the same question, its family's own chance.
@pytest.mark.parametrize(
    ("ruleset", "players", "seed"),
    [("azul", 3, 9), ("azul", 4, 9), ("pavilion", 3, 9), ("pavilion-mono", 4, 9)],
)
def test_every_decision_of_a_whole_3_or_4_player_game_is_valued(
    ruleset: str, players: int, seed: int
) -> None:
    record = greedy_record(ruleset, players, seed)
    analysis = analyse_record(record, budget=BUDGET, seed=0)
    moves = analysis["moves"]
    assert [m["ply"] for m in moves] == [ply for ply, _s, _m in decisions_to_analyse(record)]
    assert [m for m in moves if m["not_valued"] is not None] == []
    assert all(m["value_best"] >= m["value_played"] and m["loss"] >= 0 for m in moves)
    assert [s["not_valued"] for s in analysis["summary"]] == [0] * players
    assert sum(s["decisions"] for s in analysis["summary"]) == len(moves)
    assert verify(annotate(record, analysis)).ok


def test_the_deal_after_the_horizon_changes_no_value() -> None:
    """`public_position` deals past the round's end from a bag order of its own (seed 0): the
    values are read at the round's end, so another order gives the same values."""
    record = greedy_record("azul", 3, 9)
    decisions = [d for d in decisions_to_analyse(record) if 28 <= d[0] < 42]  # round 3, whole
    exact = 0
    for ply, state, move in decisions:
        other = state.from_state(state.to_state(), 12345)
        first = value_moves(state, BUDGET, decision_seed(0, ply), (move,))
        again = value_moves(other, BUDGET, decision_seed(0, ply), (move,))
        assert first == again, ply
        exact += first.exact
    assert 0 < exact < len(decisions)  # both engines, the exact search and the tree


def test_a_decision_the_engine_fails_on_is_reported_and_the_rest_stand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tournaments.domain.analysis.game as game_module

    record = greedy_record("azul-mini", 2, 3)
    whole = analyse_record(record, budget=BUDGET, seed=0)
    failing = whole["moves"][4]

    def value_or_fail(state: Any, budget: int, seed: int, include: tuple[Any, ...] = ()) -> Any:
        if seed == decision_seed(0, failing["ply"]):
            raise RuntimeError("out of luck")
        return value_moves(state, budget, seed, include)

    monkeypatch.setattr(game_module, "value_moves", value_or_fail)
    analysis = analyse_record(record, budget=BUDGET, seed=0)
    assert analysis["moves"][4] == {
        **failing,
        "best": None,
        "value_played": None,
        "value_best": None,
        "loss": None,
        "label": None,
        "exact": False,
        "not_valued": "RuntimeError: out of luck",
    }
    assert analysis["moves"][:4] + analysis["moves"][5:] == whole["moves"][:4] + whole["moves"][5:]
    seat = failing["seat"]
    assert analysis["summary"][seat]["not_valued"] == 1
    assert analysis["summary"][seat]["decisions"] == whole["summary"][seat]["decisions"] - 1
    assert analysis["summary"][1 - seat] == whole["summary"][1 - seat]
