"""The one codec between engine objects (the `to_state()` dict, moves) and protobuf messages.

The engine speaks plain dicts and notation; the wire speaks `GameState`. Each game family's keys
have typed fields (Summer Pavilion's in `GameState.pavilion`); keys of the state dict that the
message does not model travel in `extra_json`, so a newer engine never loses information on the
way to a bot.
"""

from __future__ import annotations

import json
from typing import Any

from referee.protocol import game_pb2

PHASES = {
    "take": game_pb2.PHASE_TAKE,
    "wall": game_pb2.PHASE_WALL,
    "over": game_pb2.PHASE_OVER,
    "play": game_pb2.PHASE_PLAY,
    "bonus": game_pb2.PHASE_BONUS,
}
PHASE_NAMES = {v: k for k, v in PHASES.items()}

# A termination's name (referee.match_types.Termination) -> the wire's enum value: the .proto's
# own list, `TERMINATION_TIMEOUT` as "timeout".
TERMINATIONS: dict[str, game_pb2.Termination] = {
    name.removeprefix("TERMINATION_").lower(): getattr(game_pb2, name)
    for name, number in game_pb2.Termination.items()
    if number
}
TERMINATION_NAMES = {v: k for k, v in TERMINATIONS.items()}

# The keys each family's state dict has that the message models; any other key travels in
# extra_json (checked once per encode: this runs at every move).
_COMMON = frozenset(
    {
        "ruleset",
        "players",
        "round",
        "turn",
        "phase",
        "round_starter",
        "factories",
        "centre",
        "marker_in_centre",
        "bag",
        "boards",
    }
)
_MODELLED = _COMMON | {"lid", "wall_line"}
_BOARD_KEYS = frozenset({"score", "lines", "wall", "floor", "has_marker"})
# Summer Pavilion (GameState.pavilion; the state dict is described in docs/protocol.md).
_PAVILION_MODELLED = _COMMON | {"wild_order", "wild", "supply", "depot", "bonus_owed"}
_PAVILION_BOARD_KEYS = frozenset({"score", "stars", "tiles", "kept", "passed", "has_marker"})


def is_pavilion(state: dict[str, Any]) -> bool:
    """Whether a state dict is a Summer Pavilion game's (it names a wild colour order)."""
    return "wild_order" in state


def encode_state(
    state: dict[str, Any], out: game_pb2.GameState | None = None
) -> game_pb2.GameState:
    """`game.to_state()` -> `GameState` (filled into `out` when given, to spare a copy)."""
    msg = game_pb2.GameState() if out is None else out
    msg.ruleset = state["ruleset"]
    msg.players = state["players"]
    msg.round = state.get("round", 0)
    msg.turn = state.get("turn", 0)
    msg.phase = PHASES.get(state.get("phase", ""), game_pb2.PHASE_UNSPECIFIED)
    msg.round_starter = state.get("round_starter", 0)
    msg.factories.extend(state.get("factories", ()))
    msg.centre = state.get("centre", "")
    msg.marker_in_centre = bool(state.get("marker_in_centre", False))
    msg.bag = state.get("bag", "")
    boards = state.get("boards", ())
    add = msg.boards.add
    if is_pavilion(state):
        modelled, board_keys = _PAVILION_MODELLED, _PAVILION_BOARD_KEYS
        pavilion = msg.pavilion
        pavilion.SetInParent()  # present even if every field were at its default
        pavilion.wild_order = state["wild_order"]
        pavilion.wild = state.get("wild", "")
        pavilion.supply = state.get("supply", "")
        pavilion.depot = state.get("depot", "")
        pavilion.bonus_owed = state.get("bonus_owed", 0)
        add_stars = pavilion.boards.add
        for board in boards:
            add(score=board["score"], has_marker=board["has_marker"])
            add_stars(
                stars=board["stars"],
                tiles=board["tiles"],
                kept=board["kept"],
                passed=board["passed"],
            )
    else:
        modelled, board_keys = _MODELLED, _BOARD_KEYS
        msg.lid = state.get("lid", "")
        for board in boards:
            add(
                score=board["score"],
                floor=board["floor"],
                has_marker=board["has_marker"],
                lines=board["lines"],
                wall=board["wall"],
            )
        msg.wall_line = state.get("wall_line") or 0
    if state.keys() - modelled or any(board.keys() - board_keys for board in boards):
        extra: dict[str, Any] = {k: v for k, v in state.items() if k not in modelled}
        boards_extra = [{k: v for k, v in board.items() if k not in board_keys} for board in boards]
        if any(boards_extra):
            extra["boards"] = boards_extra
        msg.extra_json = json.dumps(extra, separators=(",", ":"))
    return msg


def decode_state(msg: game_pb2.GameState) -> dict[str, Any]:
    """`GameState` -> the dict `Game.from_state()` takes (the inverse of `encode_state`)."""
    state: dict[str, Any] = {
        "ruleset": msg.ruleset,
        "players": msg.players,
        "round": msg.round,
        "turn": msg.turn,
        "phase": PHASE_NAMES.get(msg.phase, ""),
        "round_starter": msg.round_starter,
        "factories": list(msg.factories),
        "centre": msg.centre,
        "marker_in_centre": msg.marker_in_centre,
        "bag": msg.bag,
    }
    if msg.HasField("pavilion"):
        pavilion = msg.pavilion
        if len(pavilion.boards) != len(msg.boards):
            raise ValueError(
                f"GameState: {len(msg.boards)} boards but "
                f"{len(pavilion.boards)} pavilion boards; one of each per seat"
            )
        boards = [
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
        state["wild_order"], state["wild"] = pavilion.wild_order, pavilion.wild
        state["supply"], state["depot"] = pavilion.supply, pavilion.depot
        state["bonus_owed"] = pavilion.bonus_owed
    else:
        boards = [
            {
                "score": b.score,
                "lines": list(b.lines),
                "wall": list(b.wall),
                "floor": b.floor,
                "has_marker": b.has_marker,
            }
            for b in msg.boards
        ]
        state["lid"], state["wall_line"] = msg.lid, msg.wall_line or None
    state["boards"] = boards
    if msg.extra_json:
        extra = json.loads(msg.extra_json)
        for board, more in zip(boards, extra.pop("boards", ()), strict=False):
            board.update(more)
        state.update(extra)
    return state
