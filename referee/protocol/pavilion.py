"""The Summer Pavilion family on the wire: its keys travel in `GameState.pavilion`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.protocol import game_pb2
from referee.protocol.codec import COMMON, COMMON_BOARD_KEYS, FamilyCodec


def _encode_pavilion(
    state: dict[str, Any], boards: Sequence[dict[str, Any]], msg: game_pb2.GameState
) -> None:
    pavilion = msg.pavilion
    pavilion.SetInParent()  # present even if every field were at its default
    pavilion.wild_order = state["wild_order"]
    pavilion.wild = state.get("wild", "")
    pavilion.supply = state.get("supply", "")
    pavilion.depot = state.get("depot", "")
    pavilion.bonus_owed = state.get("bonus_owed", 0)
    add, add_stars = msg.boards.add, pavilion.boards.add
    for board in boards:
        add(score=board["score"], has_marker=board["has_marker"])
        add_stars(
            stars=board["stars"],
            tiles=board["tiles"],
            kept=board["kept"],
            passed=board["passed"],
        )


def _decode_pavilion(msg: game_pb2.GameState, state: dict[str, Any]) -> list[dict[str, Any]]:
    pavilion = msg.pavilion
    if len(pavilion.boards) != len(msg.boards):
        raise ValueError(
            f"GameState: {len(msg.boards)} boards but "
            f"{len(pavilion.boards)} pavilion boards; one of each per seat"
        )
    state["wild_order"], state["wild"] = pavilion.wild_order, pavilion.wild
    state["supply"], state["depot"] = pavilion.supply, pavilion.depot
    state["bonus_owed"] = pavilion.bonus_owed
    return [
        {
            "score": b.score,
            "stars": list(p.stars),
            "tiles": p.tiles,
            "kept": p.kept,
            "passed": p.passed,
            "has_marker": b.has_marker,
        }
        for b, p in zip(msg.boards, pavilion.boards, strict=True)
    ]


CODEC = FamilyCodec(
    modelled=COMMON | {"wild_order", "wild", "supply", "depot", "bonus_owed"},
    board_keys=COMMON_BOARD_KEYS | {"stars", "tiles", "kept", "passed"},
    encode=_encode_pavilion,
    decode=_decode_pavilion,
    field="pavilion",
)
