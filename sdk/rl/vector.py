"""N games stepped in one call on numpy arrays, for training throughput.

The observations of all N games are written into one array (Encoding.observe); a finished
game is replaced by a new one in the same step (auto-reset), its last figures in `info`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding

from referee.engine import Game, float_buffer, mask_buffer
from referee.engine.batch import pick_moves, push_all
from sdk.rl.core import ActionError, check_setup, move_of, results, start
from sdk.rl.encoding import float_view, mask_view
from sdk.rl.opponents import Opponents

Obs = npt.NDArray[np.float32]


class VectorEnv:
    """`num_envs` games of one ruleset, stepped together.

    Self-play (`opponent=None`): each game's seat to move is the learner; `step` returns the
    observations of the seats to move next, rewards of shape (N, players) by seat (points
    gained in this step, plus the final results when a game ends) and `info["seat"]`, the seat
    each observation is for. With an `opponent` (as azul_arena/Azul-v0's), the learner plays
    `seat` (None: a random seat each game) and the rewards are its own, shape (N,).
    `info["action_mask"]` is (N, actions) int8.
    A game that ends is restarted at once: `terminated[i]` says so, `info["final_scores"]` and
    `info["final_ranks"]` (N, players) hold its end (-1 for the games still running)."""

    def __init__(
        self,
        num_envs: int,
        ruleset: str = "azul",
        players: int = 2,
        opponent: Any = None,
        seat: int | None = 0,
        reward: str = "score",
        seed: int | None = None,
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.encoding = enc = check_setup(ruleset, players, reward, options)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat is 0 to {players - 1} (or None: a random seat), not {seat}")
        self.num_envs, self.ruleset, self.players = num_envs, ruleset, players
        self.seat, self.reward_mode, self.options = seat, reward, options
        self.single_observation_space = spaces.Box(enc.low, enc.high, (enc.size,), np.float32)
        self.single_action_space = spaces.Discrete(enc.n_actions)
        self.opponents: list[Opponents] | None = None
        if opponent is not None:
            specs = list(opponent) if isinstance(opponent, list | tuple) else [opponent]
            self.opponents = [Opponents(specs, 1.0) for _ in range(num_envs)]
        self._np_random, _ = seeding.np_random(seed)
        self.games: list[Game] = []
        # The observations and masks of every game, written in place at each step and read
        # through numpy views made once; the masks (row after row) are what the next step's
        # actions are checked against.
        self._floats = float_buffer(num_envs * enc.size)
        self._floats_view = float_view(self._floats).reshape(num_envs, enc.size)
        self._legal = mask_buffer(num_envs * enc.n_actions)
        self._legal_view = mask_view(self._legal).reshape(num_envs, enc.n_actions)
        self.learners = [0 if seat is None else seat] * num_envs  # the learner's seat per game

    def _new_game(self, i: int) -> Game:
        game = start(self.ruleset, self.players, int(self._np_random.integers(2**62)), self.options)
        if self.opponents is not None:
            rng = self._np_random
            self.learners[i] = int(rng.integers(self.players)) if self.seat is None else self.seat
            self.opponents[i].start(game, self.learners[i], int(rng.integers(2**62)))
            self.opponents[i].play(game)
        return game

    def _seats(self) -> list[int]:
        return [g.turn for g in self.games] if self.opponents is None else self.learners

    def _observe(self, info: dict[str, Any]) -> Obs:
        seats = self._seats()
        self.encoding.fill(self.games, seats, self._floats, self._legal)
        info["action_mask"] = self._legal_view.copy()  # the caller's own
        info["seat"] = np.array(seats, np.int64)
        return self._floats_view.astype(np.float32)

    def reset(self, seed: int | None = None) -> tuple[Obs, dict[str, Any]]:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.games = [self._new_game(i) for i in range(self.num_envs)]
        info: dict[str, Any] = {}
        return self._observe(info), info

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_], dict[str, Any]
    ]:
        if not self.games:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions).tolist()
        if not isinstance(acts, list) or len(acts) != self.num_envs:
            given = len(acts) if isinstance(acts, list) else "one number"
            raise ValueError(f"step takes {self.num_envs} actions (one per game), not {given}")
        n, p = self.num_envs, self.players
        moves = self._moves(acts)
        self.learners_before = self.learners[:]  # a restarted game may seat the learner anew
        if self.opponents is None:  # self-play: one compiled call moves every game
            gains: list[int] = []
            over = push_all(self.games, moves, gains)
            rewards = np.array(gains, np.float32).reshape(n, p)
        else:
            rewards, over = self._play_against(moves)
        if self.reward_mode != "score":
            rewards[:] = 0.0
        done = np.zeros(n, bool)
        final_scores = np.full((n, p), -1, np.int64)
        final_ranks = np.full((n, p), -1, np.int64)
        for i in over:  # a finished game: its result, its end in info, and a new game
            game = self.games[i]
            rewards[i] += results(game)
            done[i] = True
            final_scores[i] = game.scores
            final_ranks[i] = game.ranks()
            self.games[i] = self._new_game(i)
        info: dict[str, Any] = {"final_scores": final_scores, "final_ranks": final_ranks}
        obs = self._observe(info)
        own = rewards if self.opponents is None else rewards[np.arange(n), self.learners_before]
        return obs, own, done, np.zeros(n, bool), info

    def _play_against(self, moves: list[Any]) -> tuple[npt.NDArray[np.float32], list[int]]:
        """Each game's learner move, then its opponents' up to the learner's next turn: the
        score changes by seat, and the games that ended."""
        opponents = self.opponents or []
        gains: list[int] = []
        over = []
        for i, game in enumerate(self.games):
            before = game.scores
            game.push(moves[i])
            opponents[i].play(game)
            gains.extend(new - old for new, old in zip(game.scores, before, strict=True))
            if game.is_over():
                over.append(i)
        return np.array(gains, np.float32).reshape(self.num_envs, self.players), over

    def _moves(self, actions: list[Any]) -> list[Any]:
        """The move of each game's action, every one checked before any is played: an illegal
        action raises ActionError (naming its game) and leaves all the games as they were."""
        picked = pick_moves(actions, self._legal, self.encoding.moves)
        if isinstance(picked, list):
            return picked  # each legal by the mask this step was given
        moves = []
        for i, action in enumerate(actions):  # the slow way: numbers of other types, or errors
            try:
                moves.append(move_of(self.encoding, self.games[i], action))
            except ActionError as exc:
                raise ActionError(f"game {i}: {exc}") from None
        return moves

    def close(self) -> None:
        pass
