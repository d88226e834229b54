"""The vectorised environment (the same games as one at a time, auto-reset) and the snapshots
for search (state / restore / clone)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import sdk.rl
from sdk.rl.encoding import encoding_for


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return np.argmax(mask, axis=-1)


@pytest.mark.parametrize(("ruleset", "players"), [("azul-gray", 3), ("pavilion-mono", 2)])
def test_vector_games_are_the_games_played_one_by_one(ruleset: str, players: int) -> None:
    vec = sdk.rl.VectorEnv(5, ruleset, players, seed=7)
    obs, info = vec.reset()
    enc = encoding_for(ruleset, players)
    totals = np.zeros((5, players))
    ended = 0
    for _ in range(400):
        games = [g.copy() for g in vec.games]
        # The batch's rows are each game's own observation and mask.
        assert np.array_equal(obs, np.stack([enc.observe((g,), (g.turn,))[0] for g in games]))
        for row, g in zip(info["action_mask"], games, strict=True):
            assert set(np.flatnonzero(row)) == {m.index for m in g.legal_moves()}
        actions = _first_legal(info["action_mask"])
        obs, rewards, terminated, truncated, info = vec.step(actions)
        assert rewards.shape == (5, players) and not truncated.any()
        totals += rewards
        for i in np.flatnonzero(terminated):  # rewards sum to the final scores + results
            final = info["final_scores"][i]
            start = 5 if ruleset.startswith("pavilion") else 0
            assert final.min() >= 0 and vec.games[i].round <= 1  # already a new game
            assert totals[i].sum() == pytest.approx((final - start).sum())  # results sum to 0
            totals[i] = 0
            ended += 1
    assert ended >= 5


def test_vector_with_an_opponent_gives_the_learner_its_rewards() -> None:
    vec = sdk.rl.VectorEnv(3, "azul", 2, opponent="greedy", seat=1, seed=2)
    _, info = vec.reset()
    assert (info["seat"] == 1).all() and all(g.turn == 1 for g in vec.games)
    _, rewards, *_ = vec.step(_first_legal(info["action_mask"]))
    assert rewards.shape == (3,)
    with pytest.raises(ValueError, match="step takes 3 actions"):
        vec.step([0])


def test_an_illegal_action_plays_no_game_of_the_batch() -> None:
    vec = sdk.rl.VectorEnv(3, "azul", 2, seed=4)
    _, info = vec.reset()
    before = [g.to_state() for g in vec.games]
    actions = _first_legal(info["action_mask"])
    actions[1] = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    info["action_mask"][:] = 1  # what the caller does to its mask does not make a move legal
    with pytest.raises(sdk.rl.ActionError, match=r"game 1: action \d+ .* is not a legal move"):
        vec.step(actions)
    assert [g.to_state() for g in vec.games] == before  # game 0 was not played either
    with pytest.raises(RuntimeError, match="reset"):
        sdk.rl.VectorEnv(2, "azul").step([0, 0])


def test_restore_returns_to_the_snapshot_and_clone_is_independent() -> None:
    env = sdk.rl.raw_env(ruleset="azul", players=2)
    env.reset(seed=5)
    for _ in range(10):
        env.step(int(_first_legal(env.observe(env.agent_selection)["action_mask"])))
    snap = env.state()
    before = env.observe(env.agent_selection)
    twin = env.clone()
    played = []
    for _ in range(30):  # past a round end: the deal after a restore is the same again
        action = int(_first_legal(env.observe(env.agent_selection)["action_mask"]))
        played.append(action)
        env.step(action)
    after = env.observe(env.agent_selection)["observation"]
    assert (
        twin.observe(twin.agent_selection)["observation"].tolist() == before["observation"].tolist()
    )
    env.restore(snap)
    assert (
        env.observe(env.agent_selection)["observation"].tolist() == before["observation"].tolist()
    )
    for action in played:
        env.step(action)
        twin.step(action)
    assert env.observe(env.agent_selection)["observation"].tolist() == after.tolist()
    assert twin.observe(twin.agent_selection)["observation"].tolist() == after.tolist()
    assert twin._cumulative_rewards == env._cumulative_rewards


def test_render_is_the_board_as_text() -> None:
    env = sdk.rl.env("pavilion", 2)
    env.reset(seed=1)
    text = env.render()
    assert "seat 0" in text and "seat 1" in text


def test_result_rewards_only_at_the_end() -> None:
    env = sdk.rl.raw_env(ruleset="azul", players=2, reward="result")
    env.reset(seed=4)
    seen = []
    while not env.game.is_over():
        env.step(int(_first_legal(env.observe(env.agent_selection)["action_mask"])))
        seen.append(dict(env.rewards))
    assert all(r == {"player_0": 0.0, "player_1": 0.0} for r in seen[:-1])
    assert sorted(seen[-1].values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_mask_seen_in_another_game_does_not_make_a_move_legal() -> None:
    # step() reads legality in the mask observe() last made: only while it is of this position
    # (a new game starts at the same step count).
    env = sdk.rl.raw_env(ruleset="azul", players=2)
    env.reset(seed=7)
    first = env.observe(env.agent_selection)["action_mask"]
    env.reset(seed=8)
    now = env.observe(env.agent_selection)["action_mask"]
    only_before = np.flatnonzero((first == 1) & (now == 0))
    assert only_before.size, "some move was legal in the first deal and is not in this one"
    env.reset(seed=7)
    env.observe(env.agent_selection)
    env.reset(seed=8)  # no observe() since: the mask kept is the first deal's
    with pytest.raises(sdk.rl.ActionError, match="not a legal move now"):
        env.step(int(only_before[0]))


def test_vector_actions_of_any_integral_type_are_taken() -> None:
    # The compiled pick takes Python ints; floats and numpy scalars go the careful way.
    a = sdk.rl.VectorEnv(4, "azul", 2, seed=9)
    b = sdk.rl.VectorEnv(4, "azul", 2, seed=9)
    _, info = a.reset()
    b.reset()
    actions = _first_legal(info["action_mask"])
    obs_a, *_ = a.step(actions)
    obs_b, *_ = b.step(actions.astype(np.float64))
    assert obs_a.tolist() == obs_b.tolist()


def test_what_a_step_returned_is_not_changed_by_the_next() -> None:
    # The environments write each step into buffers of their own and hand out copies: arrays a
    # training loop keeps (a rollout buffer) must stay as they were given.
    vec = sdk.rl.VectorEnv(4, "azul", 2, seed=3)
    obs, info = vec.reset()
    kept = [(obs, info["action_mask"], obs.copy(), info["action_mask"].copy())]
    for _ in range(30):
        obs, _, _, _, info = vec.step(_first_legal(info["action_mask"]))
        kept.append((obs, info["action_mask"], obs.copy(), info["action_mask"].copy()))
    assert all(np.array_equal(o, o0) and np.array_equal(m, m0) for o, m, o0, m0 in kept)
    assert obs.flags.writeable and info["action_mask"].flags.writeable
    env = sdk.rl.env("pavilion", 3)
    env.reset(seed=5)
    seen = []
    for _ in range(30):
        observed = env.observe(env.agent_selection)
        seen.append((observed, {k: v.copy() for k, v in observed.items()}))
        env.step(int(_first_legal(observed["action_mask"])))
    assert all(np.array_equal(d[k], d0[k]) for d, d0 in seen for k in d0)
    single = gymnasium.make(sdk.rl.GYM_ID, ruleset="azul", players=2, opponent="greedy")
    obs, info = single.reset(seed=6)
    given = [(obs, info["action_mask"], obs.copy(), info["action_mask"].copy())]
    for _ in range(20):
        obs, _, terminated, _, info = single.step(int(_first_legal(info["action_mask"])))
        given.append((obs, info["action_mask"], obs.copy(), info["action_mask"].copy()))
        if terminated:
            break
    assert all(np.array_equal(o, o0) and np.array_equal(m, m0) for o, m, o0, m0 in given)
