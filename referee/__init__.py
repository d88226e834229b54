"""Azul Arena referee: the authority that holds the rules engine and runs matches between bots.

This module is the referee's API for the layers above (the tournaments, the CLI, the server):
they import what is listed in `__all__` from here, and the rules from `referee.engine`, never a
module of the referee itself (an import contract in pyproject.toml says so). Bots and the SDK
use only `referee.engine` and `referee.protocol`.

Rooms: `engine/` the rules (imports nothing of the project); `protocol/` the generated stubs, the
one codec and the transport's settings; the rest is the referee proper: the match
(`match_types`, `faults`, `match`, `clocks`, `events`, `replay`), the bots' processes and their
isolation (`launcher`, `pool`, `folders`, `sandbox`, `cgroups`), the service (`server`,
`sessions`, `service`, `access`, `tokens`) and the `Arena` that ties them together. The API
below lists, in groups, only the names the layers above use.

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

_HOMES: dict[str, list[str]] = {
    # Playing matches: the Arena, its settings, and what a match is asked to be and gives.
    "referee.arena": ["Arena", "BotSettings", "Network"],
    "referee.match_types": [
        "MatchConfig",
        "MatchResult",
        "SeatResult",
        "FaultPolicy",
        "FAULT_POLICIES",
    ],
    "referee.faults": ["Termination"],
    "referee.clocks": ["Clock", "CLOCKS", "CPU_CEILING", "ClockError", "require_cpu_clock"],
    "referee.seeds": ["bot_seeds"],
    "referee.match": ["final_ranks"],
    # Watching them: a match's events, and its replay written out.
    "referee.events": ["MatchEnded", "MatchEvent", "MovePlayed", "SeatFaulted"],
    "referee.replay": ["write_replay"],
    # The bots: entries and bot folders, the built-in bots, how much of a seat's log a game
    # keeps, and their processes' books (the runner plans on a BotPool of Slots, by the Arena's
    # rule).
    "referee.launcher": [
        "GAME_LOG_LIMIT",
        "write_seat_log",
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
    "referee.folders": ["FolderError", "is_folder_entry", "python_bot", "read_folder"],
    "referee.pool": ["BotPool", "Slot"],
    # The bots' processes as the kernel lists them (benchmarks count them without a /proc scan).
    "referee.cgroups": ["all_bot_pids"],
    "referee.procfs": ["read_bytes"],
    # The floor under a move with real bots: the referee's sessions asking them, no match.
    "referee.floor": ["Asked", "ask_in_turn"],
    # Below a more urgent program's CPU priority (the ladder beside the web site), bots and all.
    "referee.priority": ["lower_priority", "niceness", "session_niceness"],
    # Isolation: the levels, what this machine offers, and a bot's limits.
    "referee.sandbox": [
        "LEVELS",
        "IsolationError",
        "Limits",
        "caveats",
        "probe",
        "require",
        "strongest",
    ],
    # Serving: tokens, who may call the API, and the rule for a network address.
    "referee.tokens": ["TokenError", "TokenFile"],
    "referee.access": ["is_loopback", "operator_metadata"],
    "referee.server": ["Exposure", "ExposureError", "refuse_exposure"],
    # The event loop the referee and the SDK run on.
    "referee.protocol.loop": ["loop_name", "run_loop", "spawn"],
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [  # the names of _HOMES (tests/referee/test_api.py keeps the two lists one)
    "CLOCKS",
    "CPU_CEILING",
    "FAULT_POLICIES",
    "GAME_LOG_LIMIT",
    "LEVELS",
    "Arena",
    "Asked",
    "BotPool",
    "BotSettings",
    "Clock",
    "ClockError",
    "Exposure",
    "ExposureError",
    "FaultPolicy",
    "FolderError",
    "IsolationError",
    "Limits",
    "MatchConfig",
    "MatchEnded",
    "MatchEvent",
    "MatchResult",
    "MovePlayed",
    "Network",
    "SeatFaulted",
    "SeatResult",
    "Slot",
    "Termination",
    "TokenError",
    "TokenFile",
    "all_bot_pids",
    "ask_in_turn",
    "bot_environment",
    "bot_seeds",
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
    "lower_priority",
    "niceness",
    "operator_metadata",
    "parse_builtin",
    "probe",
    "python_bot",
    "python_target",
    "read_bytes",
    "read_folder",
    "refuse_exposure",
    "require",
    "require_cpu_clock",
    "run_loop",
    "session_niceness",
    "slug",
    "spawn",
    "strongest",
    "write_replay",
    "write_seat_log",
]

if TYPE_CHECKING:  # what type checkers and readers see; at run time each loads on first use
    from referee.access import is_loopback, operator_metadata
    from referee.arena import Arena, BotSettings, Network
    from referee.cgroups import all_bot_pids
    from referee.clocks import CLOCKS, CPU_CEILING, Clock, ClockError, require_cpu_clock
    from referee.events import MatchEnded, MatchEvent, MovePlayed, SeatFaulted
    from referee.faults import Termination
    from referee.floor import Asked, ask_in_turn
    from referee.folders import FolderError, is_folder_entry, python_bot, read_folder
    from referee.launcher import (
        GAME_LOG_LIMIT,
        bot_environment,
        builtin_bots,
        builtin_target,
        check_entry,
        entry_argv,
        entry_program,
        parse_builtin,
        python_target,
        slug,
        write_seat_log,
    )
    from referee.match import final_ranks
    from referee.match_types import (
        FAULT_POLICIES,
        FaultPolicy,
        MatchConfig,
        MatchResult,
        SeatResult,
    )
    from referee.pool import BotPool, Slot
    from referee.priority import lower_priority, niceness, session_niceness
    from referee.procfs import read_bytes
    from referee.protocol.loop import loop_name, run_loop, spawn
    from referee.replay import write_replay
    from referee.sandbox import LEVELS, IsolationError, Limits, caveats, probe, require, strongest
    from referee.seeds import bot_seeds
    from referee.server import Exposure, ExposureError, refuse_exposure
    from referee.tokens import TokenError, TokenFile


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'referee' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value
