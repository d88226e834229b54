"""Reinforcement learning on the referee's own rules: PettingZoo, Gymnasium, vectorised games.

    import sdk.rl
    env = sdk.rl.env("azul", players=2)          # PettingZoo AEC, every seat an agent
    gym_env = gymnasium.make("azul_arena/Azul-v0", ruleset="azul", opponent="greedy")
    vec = sdk.rl.VectorEnv(64, "azul")          # 64 games a step, numpy in and out

docs/rl.md describes the observation field by field, the actions and the rewards. Needs the
`rl` extra (`pip install azul-arena[rl]`): numpy, gymnasium, pettingzoo.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is installed wherever tests run
    raise ImportError(
        f"sdk.rl needs the rl extra ({exc.name} is missing): pip install 'azul-arena[rl]'"
    ) from exc

from sdk.rl.aec import AzulAEC, Snapshot, env, raw_env
from sdk.rl.core import ActionError
from sdk.rl.encoding import Encoding, encoding_for
from sdk.rl.policy import PolicyBot
from sdk.rl.single import AzulEnv
from sdk.rl.vector import VectorEnv

GYM_ID = "azul_arena/Azul-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="sdk.rl.single:AzulEnv")

__all__ = [
    "GYM_ID",
    "ActionError",
    "AzulAEC",
    "AzulEnv",
    "Encoding",
    "PolicyBot",
    "Snapshot",
    "VectorEnv",
    "encoding_for",
    "env",
    "raw_env",
]
