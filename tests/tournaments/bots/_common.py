"""Helpers the test bots share (imported by path: the SDK puts the bot's folder on sys.path)."""

from __future__ import annotations

import json
import zlib
from typing import Any


def position_hash(state: Any) -> int:
    """A hash of the public position that is the same in every process and every run."""
    return zlib.crc32(json.dumps(state.to_state(), sort_keys=True).encode())


def floor_move(move: Any) -> bool:
    """Whether a move sends its tiles to the floor (classic notation ends in F)."""
    return str(move).upper().endswith("F")
