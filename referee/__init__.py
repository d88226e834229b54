"""Azul Arena referee: the authority that holds the rules engine and runs matches between bots.

This module is the referee's API for the layers above (the tournaments, the CLI, the server):
they import what is listed in `__all__` from here, and the rules from `referee.engine`, never a
module of the referee itself (an import contract in pyproject.toml says so). Bots and the SDK
use only `referee.engine` and `referee.protocol`.

Rooms: `engine/` the rules (imports nothing of the project); `protocol/` the generated stubs, the
one codec and the transport's settings; the rest is the referee proper: the match
(`match_types`, `match`, `clocks`, `events`, `replay`), the bots' processes and their isolation
(`launcher`, `folders`, `sandbox`, `cgroups`), the service (`server`, `sessions`, `service`,
`access`, `tokens`) and the `Arena` that ties them together.

Importing it (or anything under it, the engine included) sets grpc's polling variables in
os.environ, for this process and its children, unless grpc is loaded already or the user set
them: see referee.protocol.transport.
"""

# The API is loaded lazily: bots import `referee.engine` and `referee.protocol` and must not pay
# for the server, the launcher and grpc's server side when they start.
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from referee.protocol.transport import tune_grpc

# Before anything loads grpc, which reads its settings once: see referee.protocol.transport.
tune_grpc()

_HOMES = {
    "referee.arena": ["Arena"],
    "referee.match_types": [
        "FAULT_POLICIES",
        "TERMINATIONS",
        "FaultPolicy",
        "MatchConfig",
        "MatchResult",
        "SeatResult",
        "Termination",
    ],
    "referee.match": ["final_ranks"],
    "referee.events": ["MatchEnded", "MatchEvent", "MatchStarted", "MovePlayed", "SeatFaulted"],
    "referee.replay": ["build_replay", "write_replay"],
    "referee.sandbox": [
        "LEVELS",
        "IsolationError",
        "Limits",
        "caveats",
        "probe",
        "require",
        "strongest",
    ],
    "referee.launcher": [
        "bot_environment",
        "builtin_bots",
        "builtin_target",
        "check_entry",
        "entry_argv",
        "entry_program",
        "parse_builtin",
        "python_target",
        "slug",
    ],
    "referee.clocks": ["CLOCKS", "CPU_CEILING", "ClockError", "require_cpu_clock"],
    "referee.seeds": ["bot_seeds"],
    "referee.folders": ["FolderError", "is_folder_entry", "python_bot", "read_folder"],
    "referee.tokens": ["TokenError", "TokenFile"],
    "referee.access": ["SeatRefused", "is_loopback", "operator_metadata"],
    "referee.protocol.loop": ["loop_name", "new_loop", "run_loop", "spawn"],
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [  # the names of _HOMES (tests/referee/test_api.py keeps the two lists one)
    "Arena",
    "CLOCKS",
    "CPU_CEILING",
    "ClockError",
    "FAULT_POLICIES",
    "FaultPolicy",
    "FolderError",
    "IsolationError",
    "LEVELS",
    "Limits",
    "MatchConfig",
    "MatchEnded",
    "MatchEvent",
    "MatchResult",
    "MatchStarted",
    "MovePlayed",
    "SeatFaulted",
    "SeatRefused",
    "SeatResult",
    "TERMINATIONS",
    "Termination",
    "TokenError",
    "TokenFile",
    "bot_environment",
    "bot_seeds",
    "build_replay",
    "builtin_bots",
    "builtin_target",
    "caveats",
    "check_entry",
    "entry_argv",
    "entry_program",
    "final_ranks",
    "is_folder_entry",
    "is_loopback",
    "loop_name",
    "new_loop",
    "operator_metadata",
    "parse_builtin",
    "probe",
    "python_bot",
    "python_target",
    "read_folder",
    "require",
    "require_cpu_clock",
    "run_loop",
    "slug",
    "spawn",
    "strongest",
    "write_replay",
]

if TYPE_CHECKING:  # what type checkers and readers see; at run time each loads on first use
    from referee.access import SeatRefused, is_loopback, operator_metadata
    from referee.arena import Arena
    from referee.clocks import CLOCKS, CPU_CEILING, ClockError, require_cpu_clock
    from referee.events import MatchEnded, MatchEvent, MatchStarted, MovePlayed, SeatFaulted
    from referee.folders import FolderError, is_folder_entry, python_bot, read_folder
    from referee.launcher import (
        bot_environment,
        builtin_bots,
        builtin_target,
        check_entry,
        entry_argv,
        entry_program,
        parse_builtin,
        python_target,
        slug,
    )
    from referee.match import final_ranks
    from referee.match_types import (
        FAULT_POLICIES,
        TERMINATIONS,
        FaultPolicy,
        MatchConfig,
        MatchResult,
        SeatResult,
        Termination,
    )
    from referee.protocol.loop import loop_name, new_loop, run_loop, spawn
    from referee.replay import build_replay, write_replay
    from referee.sandbox import (
        LEVELS,
        IsolationError,
        Limits,
        caveats,
        probe,
        require,
        strongest,
    )
    from referee.seeds import bot_seeds
    from referee.tokens import TokenError, TokenFile


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value
