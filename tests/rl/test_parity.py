"""Rules parity by construction, and tested: the environments run the engine, so a recorded
game replayed through them and random games of every ruleset must agree with the engine at
every decision; and the observation must say what `to_state()` says."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import sdk.rl
from bots.greedy_bot import GreedyBot
from bots.random_bot import RandomBot
from referee.engine import COLOUR_LETTERS, RULESETS, Game, new_game
from sdk.local import play_local
from sdk.rl.encoding import encoding_for

RECORDS = Path(__file__).parent.parent / "engine" / "records"


def _records() -> list[dict[str, Any]]:
    """Recorded games of every ruleset: the engine's fixtures (records as the tournament store
    keeps them) and games played now by real bots."""
    found = [json.loads(p.read_text()) for p in sorted(RECORDS.glob("good-*.json"))]
    for i, ruleset in enumerate(RULESETS):
        bots = [GreedyBot(), RandomBot(seed=i), RandomBot(seed=i + 1)][: 2 + i % 2]
        found.append(play_local(bots, ruleset=ruleset, seed=i, time_per_move=5).record)
    return found


def _moves(record: dict[str, Any]) -> list[str]:
    """The record's moves in order (the same replay Game.from_record does, kept as text)."""
    game = Game.from_record(record)
    texts = game.record()["rounds"]
    return [m for r in texts for m in r["moves"]]


@pytest.mark.parametrize("record", _records(), ids=lambda r: f"{r['ruleset']}-{len(r['players'])}p")
def test_a_recorded_game_replays_through_the_environment(record: dict[str, Any]) -> None:
    engine = Game.from_record(record, upto=0)
    env = sdk.rl.raw_env(ruleset=record["ruleset"], players=len(record["players"]))
    env.reset(options={"game": Game.from_record(record, upto=0)})
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for text in _moves(record):
        agent = env.agent_selection
        assert env.agent_seat[agent] == engine.turn
        mask = env.observe(agent)["action_mask"]
        assert set(np.flatnonzero(mask)) == {m.index for m in engine.legal_moves()}
        move = engine.parse_move(text)
        engine.push(move)
        env.step(move.index)
        for a in env.possible_agents:
            totals[a] += env.rewards[a]
        assert env.game.scores == engine.scores
    assert engine.is_over() and all(env.terminations.values())
    assert list(engine.scores) == record["final_scores"]
    results = sdk.rl.core.results(engine)
    for seat, agent in enumerate(env.possible_agents):  # rewards add up to the final scores
        assert totals[agent] == pytest.approx(engine.scores[seat] - _start(engine) + results[seat])


def _start(game: Game) -> int:
    return 5 if game.ruleset.family == "pavilion" else 0  # Summer Pavilion starts at 5 points


@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_mask_is_the_legal_moves_and_the_observation_the_state(
    ruleset: str, players: int
) -> None:
    enc = encoding_for(ruleset, players)
    rng = random.Random(f"{ruleset}{players}")
    game = new_game(ruleset, players, seed=rng.getrandbits(32))
    while not game.is_over():
        seat = rng.randrange(players)
        mask = np.zeros((1, enc.n_actions), np.int8)
        enc.mask_into(mask, (game,))
        assert [enc.moves[i] for i in np.flatnonzero(mask[0])] == sorted(
            game.legal_moves(), key=lambda m: m.index
        )
        obs = enc.observe((game,), (seat,))[0]
        _check_fields(enc, obs, game.to_state(), seat, players)
        game.push(rng.choice(game.legal_moves()))


def _counts(letters: str, alphabet: str, scale: float) -> list[float]:
    return [letters.count(ch) / scale for ch in alphabet]


def _check_table(f: Any, state: dict[str, Any], alphabet: str, players: int) -> None:
    """The blocks that are not the boards': the centre, the box lid or depot, the round, the
    table size, the phase (and its details), each against the public state."""
    classic = len(alphabet) == 5
    per_colour = 20 if classic else 22
    assert np.allclose(f("centre"), _counts(state["centre"], alphabet, per_colour))
    assert f("marker_in_centre").tolist() == [float(state["marker_in_centre"])]
    discarded = state["lid"] if classic else state["depot"]
    assert np.allclose(f("lid" if classic else "depot"), _counts(discarded, alphabet, per_colour))
    assert np.allclose(f("round"), [state["round"] / (10 if classic else 6)])
    assert f("players").tolist() == [float(players == n) for n in (2, 3, 4)]
    phases = ["take", "wall", "over"] if classic else ["take", "play", "bonus", "over"]
    assert f("phase").tolist() == [float(state["phase"] == p) for p in phases]
    if classic:
        line = state["wall_line"]  # 1-5 as the notation writes it, None outside its phase
        assert f("wall_line").tolist() == [float(line == d + 1) for d in range(5)]
    else:
        assert f("bonus_owed").tolist() == [state["bonus_owed"] / 4]


def _check_fields(enc: Any, obs: Any, state: dict[str, Any], seat: int, players: int) -> None:
    """Every field of the observation against the public state, the seats rotated to `seat`."""
    f = lambda name: enc.field(obs, name)  # noqa: E731
    classic = enc.family == "classic"
    alphabet = COLOUR_LETTERS if classic else "PGOYBR"
    order = [(seat + k) % players for k in range(players)]
    boards = [state["boards"][s] for s in order]
    factories = [_counts(t, alphabet, 4) for t in state["factories"]]
    assert f("factories")[: len(factories)].tolist() == factories
    assert not f("factories")[len(factories) :].any()
    assert np.allclose(f("bag"), _counts(state["bag"], alphabet, 20 if classic else 22))
    assert f("to_move").tolist()[:players] == [
        float(state["phase"] != "over" and s == state["turn"]) for s in order
    ]
    assert np.allclose(f("scores")[:players], [b["score"] / 100 for b in boards])
    assert f("present").tolist() == [1.0] * players + [0.0] * (4 - players)
    assert f("marker_holder").tolist()[:players] == [float(b["has_marker"]) for b in boards]
    _check_table(f, state, alphabet, players)
    if classic:
        for k, b in enumerate(boards):
            floor = min(7, len(b["floor"]) + b["has_marker"])  # the marker takes a space
            assert np.isclose(f("floor")[k], floor / 7)
            for d, line in enumerate(b["lines"]):
                expected = _counts(line, alphabet, d + 1)
                assert np.allclose(f("lines")[k, d], expected)
            walls = [[ch != "." for ch in row] for row in b["wall"]]
            assert f("wall")[k].astype(bool).tolist() == walls
            rows = [[float(ch in row) for ch in alphabet] for row in b["wall"]]
            assert f("wall_rows")[k].tolist() == rows
            columns = ["".join(row[c] for row in b["wall"]) for c in range(5)]
            assert f("wall_columns")[k].tolist() == [
                [float(ch in col) for ch in alphabet] for col in columns
            ]
    else:
        assert f("supply").tolist() == [
            [float(s == ch) for ch in alphabet] for s in state["supply"]
        ]
        assert f("wild").tolist() == [float(state["wild"] == ch) for ch in alphabet]
        for k, b in enumerate(boards):
            assert f("stars")[k].astype(bool).tolist() == [
                [ch != "." for ch in star] for star in b["stars"]
            ]
            assert f("passed")[k] == b["passed"]
            assert np.allclose(f("hand")[k], _counts(b["tiles"], alphabet, 22))
            assert np.allclose(f("kept")[k], _counts(b["kept"], alphabet, 4))
