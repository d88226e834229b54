"""The peer test suites of PettingZoo and Gymnasium, on every ruleset with 2, 3 and 4 players."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import sdk.rl
from bots.expert import ExpertBot
from referee.engine import RULESETS
from sdk.rl.opponents import load_opponent

SETUPS = [(r, p) for r in RULESETS for p in (2, 3, 4)]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # The suites warn that a dict observation "probably should be a Box" (PettingZoo's own
    # classic games, chess included, have the same dict of observation and action_mask).
    warnings.filterwarnings("ignore", category=UserWarning)


@pytest.mark.parametrize(("ruleset", "players"), SETUPS)
def test_pettingzoo_api_and_seed(ruleset: str, players: int) -> None:
    api_test(sdk.rl.env(ruleset, players), num_cycles=60)
    seed_test(lambda: sdk.rl.env(ruleset, players), num_cycles=60)


@pytest.mark.parametrize(("ruleset", "players"), SETUPS)
def test_gymnasium_check_env(ruleset: str, players: int) -> None:
    env = gymnasium.make(sdk.rl.GYM_ID, ruleset=ruleset, players=players, opponent="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_max_cycles_truncates_every_agent_at_once() -> None:
    # pettingzoo.test.max_cycles_test needs a parallel env, which a turn-based game is not:
    # the same property, checked on the AEC env.
    env = sdk.rl.env("azul", 3, max_cycles=4)
    env.reset(seed=1)
    moves = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        moves += 1
    assert moves == 4 * 3
    assert env.agents == []


def test_an_illegal_action_is_refused_with_the_legal_ones() -> None:
    env = sdk.rl.env("azul", 2)
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(sdk.rl.ActionError, match="not a legal move now; legal actions: "):
        env.step(illegal)
    # Nothing changed: a legal action is still accepted.
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_bad_setups_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown ruleset 'azull'"):
        sdk.rl.env("azull", 2)
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        sdk.rl.VectorEnv(4, "azul", 5)
    with pytest.raises(ValueError, match="reward must be one of score, result"):
        gymnasium.make(sdk.rl.GYM_ID, reward="points")
    with pytest.raises(ValueError, match="azul has no option wild_order"):
        sdk.rl.env("azul", 2, wild_order="PGOYBR")
    with pytest.raises(ValueError, match="cannot run in-process"):
        gymnasium.make(sdk.rl.GYM_ID, opponent="./some/folder")
    with pytest.raises(ValueError, match="has no parameter 'depth'"):
        gymnasium.make(sdk.rl.GYM_ID, opponent="mcts:depth=3")
    with pytest.raises(ValueError, match="iterations must be a positive whole number, not '0'"):
        gymnasium.make(sdk.rl.GYM_ID, opponent="mcts:iterations=0")
    # A switch may be 0 (the expert on its linear fit); its class still checks the value.
    linear = load_opponent("expert:net=0")
    assert isinstance(linear, ExpertBot) and linear.net is False
    with pytest.raises(ValueError, match="net=2: give 1"):
        load_opponent("expert:net=2")
