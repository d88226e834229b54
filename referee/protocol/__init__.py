"""The wire contract in Python: the generated stubs (committed) and the codec to engine objects.

protoc writes modules that import each other as `azul_arena.v1.*` (the proto package path) and
offers no relative-import option, so this package puts its own directory on `sys.path` once and
everything imports the stubs under that one name (importing them under two names would register
the descriptors twice and fail). The stub modules are loaded lazily: a bot process needs only
`bot_pb2` and must not pay for the referee's API at start-up (spawn-to-Hello is budgeted).
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.append(_HERE)

PROTOCOL_VERSION = 1

_STUBS = ("bot_pb2", "bot_pb2_grpc", "game_pb2", "referee_pb2", "referee_pb2_grpc")

__all__ = ["PROTOCOL_VERSION", *_STUBS]

if TYPE_CHECKING:
    # For the type checker only: the same modules `__getattr__` loads at run time, resolved to the
    # generated .pyi stubs through `mypy_path` (pyproject.toml). Never executed, so the lazy
    # loading and the single `azul_arena.v1.*` import name are unchanged.
    from azul_arena.v1 import bot_pb2 as bot_pb2
    from azul_arena.v1 import bot_pb2_grpc as bot_pb2_grpc
    from azul_arena.v1 import game_pb2 as game_pb2
    from azul_arena.v1 import referee_pb2 as referee_pb2
    from azul_arena.v1 import referee_pb2_grpc as referee_pb2_grpc


def __getattr__(name: str) -> ModuleType:
    if name in _STUBS:
        module = importlib.import_module(f"azul_arena.v1.{name}")
        globals()[name] = module
        return module
    raise AttributeError(name)
