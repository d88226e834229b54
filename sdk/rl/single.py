"""The Gymnasium single-agent environment `azul_arena/Azul-v0`: the learner plays one seat,
opponent bots (any in-process entry) play the others between its moves."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from referee.engine import Game, float_buffer, mask_buffer
from sdk.rl.core import ActionError, check_setup, move_of, results, start
from sdk.rl.encoding import float_view, mask_view
from sdk.rl.opponents import Opponents


class AzulEnv(gym.Env[npt.NDArray[np.float32], int]):
    """One seat of an Azul game against `opponent` (an entry, or a list, one per other seat).

    Observations and actions are the PettingZoo environment's (`observation` of its dict;
    docs/rl.md); the action mask is in `info["action_mask"]` and `action_masks()` (what
    sb3-contrib's MaskablePPO reads). The reward is the learner's points gained from one of its
    moves to the next (opponents' moves and round ends included) plus its final result;
    `reward="result"` gives only the result. `seat` is the learner's seat, None for a random
    seat each game.

    An illegal action (unmasked algorithms send them; so does Gymnasium's env checker) ends the
    game as a forfeit with `illegal="lose"` (the default): reward -1, `terminated`, the action
    in `info["illegal_action"]`; `illegal="raise"` raises ActionError instead."""

    # Gymnasium declares `metadata` as an attribute of Env, which a ClassVar may not override.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        ruleset: str = "azul",
        players: int = 2,
        opponent: Any = "random",
        seat: int | None = 0,
        reward: str = "score",
        time_per_move: float = 1.0,
        illegal: str = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.encoding = check_setup(ruleset, players, reward, options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1} (or None for a random seat), not {seat}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode is ansi or human, not {render_mode!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal is lose or raise, not {illegal!r}")
        self.illegal = illegal
        specs = opponent if isinstance(opponent, list | tuple) else [opponent]
        if not 1 <= len(specs) <= players - 1 or (1 < len(specs) < players - 1):
            raise ValueError(f"opponent: one entry, or {players - 1} (one per other seat)")
        self.opponents = Opponents(list(specs), time_per_move)
        self.ruleset, self.players, self.reward_mode = ruleset, players, reward
        self.options, self.fixed_seat, self.render_mode = options, seat, render_mode
        enc = self.encoding
        self.observation_space = spaces.Box(enc.low, enc.high, (enc.size,), np.float32)
        self.action_space = spaces.Discrete(enc.n_actions)  # type: ignore[assignment]
        self.game: Game = start(ruleset, players, 0, options)
        self.seat = 0 if seat is None else seat
        # The learner's observation and mask, written in place and copied out (the AEC env's way)
        self._floats = float_buffer(enc.size)
        self._floats_view = float_view(self._floats)
        self._rows = mask_buffer(enc.n_actions)
        self._rows_view = mask_view(self._rows)

    def _observation(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        enc, game = self.encoding, self.game
        if game.is_over() or game.turn != self.seat:
            self._mask = enc.mask_one(game)  # all zeros once the game is over
            obs = enc.observe_one(game, self.seat)
        else:  # the learner to move: the usual case
            enc.fill_to_move(game, self._floats, self._rows)
            self._mask = self._rows_view.copy()
            obs = self._floats_view.astype(np.float32)
        return obs, {"action_mask": self._mask, "seat": self.seat}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.game = start(self.ruleset, self.players, int(rng.integers(2**62)), self.options)
        seat = self.fixed_seat
        self.seat = int(rng.integers(self.players)) if seat is None else seat
        self.opponents.start(self.game, self.seat, int(rng.integers(2**62)))
        self.opponents.play(self.game)
        self._before = self.game.scores[self.seat]
        self._forfeited = False
        return self._observation()

    def step(
        self, action: Any
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        game = self.game
        if game.is_over() or self._forfeited:
            raise RuntimeError("the game is over: call reset() before step()")
        try:
            move = move_of(self.encoding, game, action)
        except ActionError:
            if self.illegal == "raise":
                raise
            obs, info = self._observation()
            self._mask = np.zeros_like(self._mask)  # the game is over for the learner
            info.update(action_mask=self._mask, illegal_action=action)
            self._forfeited = True
            return obs, -1.0, True, False, info
        game.push(move)
        self.opponents.play(game)
        now = game.scores[self.seat]
        reward = float(now - self._before) if self.reward_mode == "score" else 0.0
        self._before = now
        obs, info = self._observation()
        if game.is_over():
            reward += results(game)[self.seat]
            info.update(scores=game.scores, ranks=game.ranks())
        return obs, reward, game.is_over(), False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as sb3-contrib's MaskablePPO asks for them."""
        masks: npt.NDArray[np.bool_] = self._mask.astype(bool)
        return masks

    def render(self) -> str | None:
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text
