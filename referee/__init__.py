"""Azul Arena referee: the authority that holds the rules engine and runs matches between bots.

Importing it (or anything under it, the engine included) sets grpc's polling variables in
os.environ, for this process and its children, unless grpc is loaded already or the user set
them: see referee.protocol.transport.
"""

# The match API is loaded lazily: bots import `referee.engine` and `referee.protocol` and must not
# pay for the server, the launcher and grpc's server side when they start.
from __future__ import annotations

from typing import Any

from referee.protocol.transport import tune_grpc

# Before anything loads grpc, which reads its settings once: see referee.protocol.transport.
tune_grpc()

__all__ = ["Arena", "MatchConfig", "MatchResult", "SeatResult", "TERMINATIONS"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from referee import arena

        return getattr(arena, name)
    raise AttributeError(name)
