"""The one codec between engine objects (the `to_state()` dict, moves) and protobuf messages.

The engine speaks plain dicts and notation; the wire speaks `GameState`. Keys of the state dict
that `GameState` does not model travel in `extra_json`, so a newer engine (or another game family)
never loses information on the way to a bot.
"""

from __future__ import annotations

import json
from typing import Any

from referee.protocol import game_pb2

PHASES = {"take": game_pb2.PHASE_TAKE, "wall": game_pb2.PHASE_WALL, "over": game_pb2.PHASE_OVER}
PHASE_NAMES = {v: k for k, v in PHASES.items()}

TERMINATIONS = {
    "ok": game_pb2.TERMINATION_OK,
    "timeout": game_pb2.TERMINATION_TIMEOUT,
    "illegal": game_pb2.TERMINATION_ILLEGAL,
    "malformed": game_pb2.TERMINATION_MALFORMED,
    "crash": game_pb2.TERMINATION_CRASH,
    "disconnect": game_pb2.TERMINATION_DISCONNECT,
    "no_hello": game_pb2.TERMINATION_NO_HELLO,
    "version_mismatch": game_pb2.TERMINATION_VERSION_MISMATCH,
    "bad_token": game_pb2.TERMINATION_BAD_TOKEN,
}
TERMINATION_NAMES = {v: k for k, v in TERMINATIONS.items()}

_MODELLED = frozenset({"ruleset", "players", "round", "turn", "phase", "round_starter",
                       "factories", "centre", "marker_in_centre", "bag", "lid", "boards",
                       "wall_line"})
_BOARD_KEYS = frozenset({"score", "lines", "wall", "floor", "has_marker"})


def encode_state(state: dict[str, Any],
                 out: game_pb2.GameState | None = None) -> game_pb2.GameState:
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
    msg.lid = state.get("lid", "")
    boards = state.get("boards", ())
    add = msg.boards.add
    for board in boards:
        add(score=board["score"], floor=board["floor"], has_marker=board["has_marker"],
            lines=board["lines"], wall=board["wall"])
    msg.wall_line = state.get("wall_line") or 0
    # Keys the message does not model travel as JSON (checked once: this runs at every move).
    if state.keys() - _MODELLED or any(board.keys() - _BOARD_KEYS for board in boards):
        extra: dict[str, Any] = {k: v for k, v in state.items() if k not in _MODELLED}
        boards_extra = [{k: v for k, v in board.items() if k not in _BOARD_KEYS}
                        for board in boards]
        if any(boards_extra):
            extra["boards"] = boards_extra
        msg.extra_json = json.dumps(extra, separators=(",", ":"))
    return msg


def decode_state(msg: game_pb2.GameState) -> dict[str, Any]:
    """`GameState` -> the dict `Game.from_state()` takes (the inverse of `encode_state`)."""
    boards = [{"score": b.score, "lines": list(b.lines), "wall": list(b.wall), "floor": b.floor,
               "has_marker": b.has_marker} for b in msg.boards]
    state: dict[str, Any] = {
        "ruleset": msg.ruleset, "players": msg.players, "round": msg.round, "turn": msg.turn,
        "phase": PHASE_NAMES.get(msg.phase, ""), "round_starter": msg.round_starter,
        "factories": list(msg.factories), "centre": msg.centre,
        "marker_in_centre": msg.marker_in_centre, "bag": msg.bag, "lid": msg.lid,
        "boards": boards, "wall_line": msg.wall_line or None,
    }
    if msg.extra_json:
        extra = json.loads(msg.extra_json)
        for board, more in zip(boards, extra.pop("boards", ()), strict=False):
            board.update(more)
        state.update(extra)
    return state
