"""The replay writer: the engine's record plus what only the referee knows (bots, times, faults)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.faults import Fault

REPLAY_FORMAT = "azul-arena/replay/1"


def build_replay(  # noqa: PLR0913  # keyword-only: the facts a replay records
    record: dict[str, Any],
    *,
    match_id: str,
    names: list[str],
    entries: list[str],
    bots: list[dict[str, Any]],
    plies: list[dict[str, Any]],
    faults: Sequence[Fault],
    config: dict[str, Any],
    duration: float,
) -> dict[str, Any]:
    """The engine record (still readable by the engine: extra keys are ignored) + referee facts.

    `players` becomes the seat names; `move_times_us` lists the referee-measured time of every
    ply in order (0 for moves the referee substituted), `substituted` the plies it played for a
    faulty seat, `faults` every fault with its ply, seat and detail.
    """
    replay = dict(record)
    replay["players"] = names
    replay["referee"] = {
        "format": REPLAY_FORMAT,
        "match_id": match_id,
        "entries": entries,
        "bots": bots,
        "config": config,
        "duration": round(duration, 6),
        "move_times_us": [p["us"] for p in plies],
        "substituted": [i for i, p in enumerate(plies) if p["substituted"]],
        "faults": [fault.as_dict() for fault in faults],
    }
    return replay


def write_replay(path: Path, replay: dict[str, Any]) -> Path:
    """Write `replay` as JSON to `path` (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(replay, indent=1) + "\n")
    return path
