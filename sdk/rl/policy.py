"""A trained policy as a bot: weights in a `.npz`, inference in numpy alone (no torch in the
sandbox), the move chosen from the engine's legal moves under the referee's clock.

The file holds a multilayer perceptron: `w0, b0, w1, b1, ...` (ReLU between layers; the last
layer gives one logit per action of the family's action space), and `family`, the game family
it was trained for. `save_policy` writes one; anything that writes these arrays works (a torch
model's weights, transposed to (inputs, outputs), included).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from referee.engine import Game, get_ruleset
from sdk.bot import Bot
from sdk.rl.encoding import encoding_for

Array = npt.NDArray[np.float32]


class Policy:
    """The perceptron of a policy file: `logits(observations)` -> (N, actions)."""

    def __init__(self, weights: list[Array], biases: list[Array], family: str) -> None:
        if not weights or len(weights) != len(biases):
            raise ValueError("a policy has w0, b0, w1, b1, ... (as many biases as weights)")
        for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: w{i} is (inputs, outputs), b{i} is (outputs,)")
            if i and w.shape[0] != weights[i - 1].shape[1]:
                raise ValueError(f"layer {i}: w{i} takes {w.shape[0]} inputs, layer {i - 1} "
                                 f"gives {weights[i - 1].shape[1]}")  # fmt: skip
        self.weights, self.biases, self.family = weights, biases, family

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy file; ValueError says what is wrong with one that is not."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = dict(data)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: not a policy file ({exc})") from None
        layers = sum(1 for k in arrays if k.startswith("w"))
        try:
            weights = [arrays[f"w{i}"].astype(np.float32) for i in range(layers)]
            biases = [arrays[f"b{i}"].astype(np.float32) for i in range(layers)]
            family = str(arrays["family"])
        except KeyError as exc:
            raise ValueError(
                f"{path}: a policy file has w0, b0, ... and family; no {exc}"
            ) from None
        return cls(weights, biases, family)

    def logits(self, observations: Array) -> Array:
        x = observations
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0)
        return x

    def save(self, path: str | Path) -> None:
        save_policy(path, self.weights, self.biases, self.family)


def save_policy(path: str | Path, weights: list[Any], biases: list[Any], family: str) -> None:
    """Write a policy file (see the module docstring)."""
    arrays: dict[str, Any] = {"family": np.array(family)}
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"] = np.asarray(w, np.float32)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    np.savez(path, **arrays)


def choose(policy: Policy, game: Game, rng: Any = None, temperature: float = 0.0) -> Any:
    """The policy's move in `game`, among its legal moves only: the best logit, or (with a
    temperature and a random.Random) a draw from the masked softmax."""
    enc = encoding_for(game.ruleset.name, game.players)
    if enc.family != policy.family:
        raise ValueError(f"this policy plays {policy.family} rulesets, not {game.ruleset.name}")
    if policy.weights[0].shape[0] != enc.size or policy.weights[-1].shape[1] != enc.n_actions:
        raise ValueError(
            f"the policy takes {policy.weights[0].shape[0]} inputs and gives "
            f"{policy.weights[-1].shape[1]} actions; {enc.family} has {enc.size} and "
            f"{enc.n_actions}: it was trained on another observation layout"
        )
    legal = game.legal_moves()
    logits = policy.logits(enc.observe((game,), (game.turn,)))[0]
    scores = logits[[m.index for m in legal]]
    if temperature > 0 and rng is not None:
        p = np.exp((scores - scores.max()) / temperature)
        return legal[int(np.searchsorted(np.cumsum(p / p.sum()), rng.random()))]
    return legal[int(np.argmax(scores))]


class PolicyBot(Bot):
    """Plays the policy in `policy_file` (a subclass sets it, e.g. next to its bot.py):

        class MyBot(PolicyBot):
            name = "mybot"
            policy_file = Path(__file__).with_name("policy.npz")
            rulesets = ("azul",)

    `temperature` 0 plays the best legal action; above 0 it draws from the masked softmax
    with `self.rng` (which the referee seeds, so a game replays)."""

    policy_file: ClassVar[str | Path] = "policy.npz"
    temperature: ClassVar[float] = 0.0

    def __init__(self, policy: str | Path | Policy | None = None) -> None:
        super().__init__()
        self.policy = (
            policy if isinstance(policy, Policy) else Policy.load(policy or self.policy_file)
        )

    def choose_move(self, state: Game) -> Any:
        game = getattr(state, "game", state)  # the SDK's lazy state stands for the Game
        return choose(self.policy, game, self.rng, self.temperature)


def family_rulesets(family: str) -> tuple[str, ...]:
    """The rulesets a policy of `family` plays."""
    from referee.engine import RULESETS

    return tuple(name for name in RULESETS if get_ruleset(name).family == family)


def untrained_policy(ruleset: str = "azul", hidden: int = 128, seed: int = 0) -> Policy:
    """A policy of `ruleset`'s family with random weights (He initialisation): it plays legal
    moves and is where training starts (`bot new --template rl` writes one)."""
    enc = encoding_for(ruleset, 2)
    rng = np.random.default_rng(seed)
    w0 = rng.normal(0, np.sqrt(2 / enc.size), (enc.size, hidden)).astype(np.float32)
    w1 = rng.normal(0, 0.01, (hidden, enc.n_actions)).astype(np.float32)
    zeros = [np.zeros(hidden, np.float32), np.zeros(enc.n_actions, np.float32)]
    return Policy([w0, w1], zeros, enc.family)
