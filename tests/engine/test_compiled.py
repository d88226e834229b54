"""The mypyc build of the engine plays exactly the games its Python sources play, and the
compiled expert bot (its search is built with the engine) chooses exactly the moves its sources
choose."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

import referee.engine
from referee.engine import RULESETS, new_game

# Plays seeded random games and prints their records: run here and in a plain-Python process.
PLAY = """
import json, random, sys
from referee.engine import COMPILED, RULESETS, new_game
out = {"compiled": COMPILED, "records": []}
for ruleset in RULESETS:
    for players in (2, 3, 4):
        for seed in range(3):
            chooser = random.Random(seed)
            game = new_game(ruleset, players, seed=seed)
            while not game.is_over():
                game.push(chooser.choice(game.legal_moves()))
            out["records"].append(game.record())
print(json.dumps(out))
"""


# The expert at a fixed budget over positions of every stage of a round (the exact search's
# included), in both families and at 2 and 3 players: its moves as text.
THINK = """
import json, random
import bots.expert.tree
from bots.expert import ExpertBot
from referee.engine import COMPILED, new_game
from sdk.bot import Clock
out = {"compiled": COMPILED, "tree": bots.expert.tree.__file__, "moves": []}
for ruleset, players in (("azul", 2), ("azul", 3), ("pavilion", 2), ("pavilion", 3)):
    chooser = random.Random(players)
    game = new_game(ruleset, players, seed=players)
    for ply in range(60):
        if game.is_over():
            break
        if ply % 4 == 0:
            bot = ExpertBot(seed=ply, iterations=60)
            bot.clock = Clock(move_time=3600.0)  # the budget is the iterations, not the clock
            out["moves"].append(str(bot.choose_move(game.copy())))
        game.push(chooser.choice(game.legal_moves()))
print(json.dumps(out))
"""


def _play(pure: bool, script: str = PLAY) -> dict[str, object]:
    env = {**os.environ, "AZUL_ARENA_PURE_PYTHON": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=300,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(
    not referee.engine.COMPILED, reason="the engine is not compiled here (make install compiles it)"
)
def test_compiled_engine_plays_the_same_games_as_its_sources() -> None:
    compiled, pure = _play(pure=False), _play(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(compiled["records"]) == len(RULESETS) * 9  # type: ignore[arg-type]
    assert compiled["records"] == pure["records"]


@pytest.mark.skipif(
    not referee.engine.COMPILED, reason="the engine is not compiled here (make install compiles it)"
)
def test_compiled_expert_chooses_the_moves_its_sources_choose() -> None:
    compiled, pure = _play(pure=False, script=THINK), _play(pure=True, script=THINK)
    assert compiled["compiled"] is True and pure["compiled"] is False
    # The search is compiled with the engine, and its sources are what the switch imports.
    assert str(compiled["tree"]).endswith(".so") and str(pure["tree"]).endswith("tree.py")
    assert len(compiled["moves"]) >= 40  # type: ignore[arg-type]
    assert compiled["moves"] == pure["moves"]


def test_pure_python_switch_is_honoured() -> None:
    pure = _play(pure=True)
    assert pure["compiled"] is False
    game = new_game("azul", 2, seed=0)
    chooser = random.Random(0)
    while not game.is_over():
        game.push(chooser.choice(game.legal_moves()))
    assert pure["records"][0] == game.record()  # type: ignore[index]
