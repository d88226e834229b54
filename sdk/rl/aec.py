"""The PettingZoo AEC environment: every seat of one game is an agent, one moves at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from referee.engine import Game, float_buffer, mask_buffer
from referee.engine.batch import credit, push_action, push_gains
from sdk.rl.core import check_setup, move_of, results, start
from sdk.rl.encoding import float_view, mask_view


@dataclass(frozen=True)
class Snapshot:
    """An environment's whole state at one moment (AzulAEC.state()); restore() returns to it."""

    game: Game
    agents: tuple[str, ...]
    agent_selection: str
    rewards: tuple[tuple[str, float], ...]
    cumulative: tuple[tuple[str, float], ...]
    terminations: tuple[tuple[str, bool], ...]
    truncations: tuple[tuple[str, bool], ...]
    steps: int


class AzulAEC(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]  # untyped base
    """Azul as a PettingZoo AEC environment; agents are "player_0".."player_{n-1}" (seats).

    Observations are dicts: `observation` (float32, the seat's own view; docs/rl.md lists the
    fields) and `action_mask` (int8, 1 for each legal action of the agent to move, all 0 for
    the others). Actions are the engine's move numbers (a fixed space per family). Rewards:
    `reward="score"` gives each seat the points it gained at each step, plus its final result
    (+1 win, -1 loss, between for 3-4 players) when the game ends; `reward="result"` only the
    result. `max_cycles` truncates the game after that many moves per seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "azul_arena_v0",
    }

    def __init__(
        self,
        ruleset: str = "azul",
        players: int = 2,
        reward: str = "score",
        max_cycles: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.encoding = check_setup(ruleset, players, reward, options)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is ansi or human, not {render_mode!r}")
        self.ruleset, self.players, self.reward_mode = ruleset, players, reward
        self.options, self.max_cycles, self.render_mode = options, max_cycles, render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agent_seat = {a: seat for seat, a in enumerate(self.possible_agents)}
        enc = self.encoding
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.n_actions,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(enc.n_actions)
        self._np_random, _ = seeding.np_random(None)
        self.game: Game = start(ruleset, players, 0, options)
        # observe()'s buffers for the seat to move, written in place at each step and read
        # through numpy views made once (an array is cheaper to copy than to make). The mask
        # is of the game and step below: step() reads the action's legality there instead of
        # listing the legal moves again.
        self._floats = float_buffer(enc.size)
        self._floats_view = float_view(self._floats)
        self._mask = mask_buffer(enc.n_actions)
        self._mask_view = mask_view(self._mask)
        self._mask_game: Game | None = None
        self._mask_step = -1

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # -- the game ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `options={"game": game}` starts from a copy of that engine game instead
        (a position to study, or a recorded game: `Game.from_record(record, upto=0)` deals
        the recorded tiles)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        given = (options or {}).get("game")
        if given is not None:
            if (given.ruleset.name, given.players) != (self.ruleset, self.players):
                raise ValueError(
                    f"options['game'] is {given.ruleset.name} for {given.players}; this "
                    f"environment plays {self.ruleset} for {self.players}"
                )
            self.game = given.copy(stack=True)
        else:
            seed_ = int(self._np_random.integers(2**62))
            self.game = start(self.ruleset, self.players, seed_, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.turn]
        self._steps = 0

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation, made when asked (not for every agent at each step)."""
        seat = self.agent_seat[agent]
        enc = self.encoding
        game = self.game
        if seat == game.turn and not game.is_over():
            enc.fill_to_move(game, self._floats, self._mask)
            self._mask_game, self._mask_step = game, self._steps
            return {
                "observation": self._floats_view.astype(np.float32),
                "action_mask": self._mask_view.copy(),  # the caller's own
            }
        mask = np.zeros(enc.n_actions, np.int8)
        return {"observation": enc.observe_one(game, seat), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's last(), read straight from this environment's dicts."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        agents, cumulative = self.possible_agents, self._cumulative_rewards
        scored = self.reward_mode == "score"
        gains = None
        if self._mask_game is game and self._mask_step == self._steps:
            # legal by the mask observe() gave for this very position: checked and played at once
            gains = push_action(game, action, self._mask, self.encoding.moves, scored)
        if gains is None:
            gains = push_gains(game, move_of(self.encoding, game, action), scored)
        self._steps += 1
        cumulative[agent] = 0.0  # then every seat's reward is added to its cumulative reward
        if not game.is_over() and (
            self.max_cycles is None or self._steps < self.max_cycles * self.players
        ):  # the usual step: the game goes on with the seat the engine says
            credit(agents, self.rewards, cumulative, gains)
            self.agent_selection = agents[game.turn]
            return
        if game.is_over():
            for s, result in enumerate(results(game)):
                gains[s] += result
                self.terminations[agents[s]] = True
                self.infos[agents[s]] = {"scores": game.scores, "ranks": game.ranks()}
        else:
            self.truncations = dict.fromkeys(self.agents, True)
        credit(agents, self.rewards, cumulative, gains)
        self.agent_selection = self.agents[(self.agent_seat[agent] + 1) % self.players]

    # -- search: the whole environment saved and restored ----------------------------------------
    def state(self) -> Snapshot:  # a snapshot, not PettingZoo's global-state array
        """Everything needed to come back to this moment (the engine's copy() underneath):
        `env.restore(snapshot)` later, as often as wanted. The chance to come (the next deals)
        is part of it: a restored game deals the same tiles again."""
        return Snapshot(
            self.game.copy(),
            tuple(self.agents),
            self.agent_selection,
            tuple(self.rewards.items()),
            tuple(self._cumulative_rewards.items()),
            tuple(self.terminations.items()),
            tuple(self.truncations.items()),
            self._steps,
        )

    def restore(self, snapshot: Snapshot) -> None:
        """Return to the moment `state()` saved."""
        self.game = snapshot.game.copy()
        self.agents = list(snapshot.agents)
        self.agent_selection = snapshot.agent_selection
        self.rewards = dict(snapshot.rewards)
        self._cumulative_rewards = dict(snapshot.cumulative)
        self.terminations = dict(snapshot.terminations)
        self.truncations = dict(snapshot.truncations)
        self.infos = {a: {} for a in self.agents}
        self._steps = snapshot.steps

    def clone(self) -> AzulAEC:
        """An independent environment at this same moment."""
        twin = AzulAEC(
            self.ruleset, self.players, self.reward_mode, self.max_cycles, self.render_mode,
            **self.options,
        )  # fmt: skip
        twin.restore(self.state())
        twin.infos = {a: dict(i) for a, i in self.infos.items()}
        return twin

    def render(self) -> str | None:
        """The table as text (the engine's own drawing); printed when render_mode is "human"."""
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(**kwargs: Any) -> AzulAEC:
    """The environment without PettingZoo's wrappers (for speed; no order checks)."""
    return AzulAEC(**kwargs)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's order checks, with `last()` and `step()` asked of the environment directly:
    the base wrapper's read six attributes a step through its checking __getattr__."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:  # what the base wrapper raises on its first attribute
            raise AttributeError("agent_selection cannot be accessed before reset")
        found: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return found

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:  # the base wrapper's checks, without its __getattr__
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)


def env(ruleset: str = "azul", players: int = 2, **kwargs: Any) -> AECEnv[str, Any, int]:
    """A PettingZoo AEC environment of `ruleset` for `players` seats (2-4), with PettingZoo's
    order checks; keyword arguments as AzulAEC (reward, max_cycles, render_mode, the ruleset's
    options such as wild_order)."""
    wrapped: AECEnv[str, Any, int] = OrderEnforcing(
        AzulAEC(ruleset=ruleset, players=players, **kwargs)
    )
    return wrapped
