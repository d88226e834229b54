"""The classic family on the wire: its keys are GameState's own fields (lid, wall_line, the
boards' lines, wall and floor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.protocol import game_pb2
from referee.protocol.codec import COMMON, COMMON_BOARD_KEYS, FamilyCodec


def _encode_classic(
    state: dict[str, Any], boards: Sequence[dict[str, Any]], msg: game_pb2.GameState
) -> None:
    msg.lid = state.get("lid", "")
    add = msg.boards.add
    for board in boards:
        # Field by field: a sixth faster than add()'s keywords, at every move.
        out = add()
        out.score = board["score"]
        out.floor = board["floor"]
        out.has_marker = board["has_marker"]
        out.lines.extend(board["lines"])
        out.wall.extend(board["wall"])
    msg.wall_line = state.get("wall_line") or 0


def _decode_classic(msg: game_pb2.GameState, state: dict[str, Any]) -> list[dict[str, Any]]:
    state["lid"], state["wall_line"] = msg.lid, msg.wall_line or None
    return [
        {
            "score": b.score,
            "lines": list(b.lines),
            "wall": list(b.wall),
            "floor": b.floor,
            "has_marker": b.has_marker,
        }
        for b in msg.boards
    ]


CODEC = FamilyCodec(
    modelled=COMMON | {"lid", "wall_line"},
    board_keys=COMMON_BOARD_KEYS | {"lines", "wall", "floor"},
    encode=_encode_classic,
    decode=_decode_classic,
)
