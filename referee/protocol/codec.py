"""The one codec between engine objects (the `to_state()` dict, moves) and protobuf messages.

The engine speaks plain dicts and notation; the wire speaks `GameState`. Each game family's keys
have typed fields (Summer Pavilion's in `GameState.pavilion`); keys of the state dict that the
message does not model travel in `extra_json`, so a newer engine never loses information on the
way to a bot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine import RULESETS
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

# The keys every family's state dict has that GameState models; a family's own keys are in its
# codec below, and any other key travels in extra_json (checked once per encode: this runs at
# every move).
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
_COMMON_BOARD_KEYS = frozenset({"score", "has_marker"})

# (state, boards, message) -> None: fills the message's family part, boards included.
Encoder = Callable[[dict[str, Any], Sequence[dict[str, Any]], game_pb2.GameState], None]
# (message, state) -> the boards: fills the state's family keys and reads the boards.
Decoder = Callable[[game_pb2.GameState, dict[str, Any]], list[dict[str, Any]]]


@dataclass(frozen=True)
class FamilyCodec:
    """How one game family's own keys travel: which keys and board keys its fields model, how it
    fills them, and how it reads them back."""

    modelled: frozenset[str]
    board_keys: frozenset[str]
    encode: Encoder
    decode: Decoder
    # The GameState field holding the family's own message; None: its fields are GameState's.
    field: str | None = None


def _encode_classic(
    state: dict[str, Any], boards: Sequence[dict[str, Any]], msg: game_pb2.GameState
) -> None:
    msg.lid = state.get("lid", "")
    add = msg.boards.add
    for board in boards:
        add(
            score=board["score"],
            floor=board["floor"],
            has_marker=board["has_marker"],
            lines=board["lines"],
            wall=board["wall"],
        )
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


# Each family's codec, keyed by family (referee.engine's Ruleset.family). Classic's keys are
# GameState's own fields; every other family has its own message in a GameState field named for
# it (the state dict is described in docs/protocol.md).
CODECS: dict[str, FamilyCodec] = {
    "classic": FamilyCodec(
        modelled=_COMMON | {"lid", "wall_line"},
        board_keys=_COMMON_BOARD_KEYS | {"lines", "wall", "floor"},
        encode=_encode_classic,
        decode=_decode_classic,
    ),
    "pavilion": FamilyCodec(
        modelled=_COMMON | {"wild_order", "wild", "supply", "depot", "bonus_owed"},
        board_keys=_COMMON_BOARD_KEYS | {"stars", "tiles", "kept", "passed"},
        encode=_encode_pavilion,
        decode=_decode_pavilion,
        field="pavilion",
    ),
}
# A ruleset's codec, looked up once per encode.
_CODEC_OF_RULESET = {name: CODECS[r.family] for name, r in RULESETS.items()}
_DEFAULT = CODECS["classic"]


def _codec_of(state: dict[str, Any]) -> FamilyCodec:
    """The codec of a state's family: from its ruleset, or, for a ruleset this engine does not
    know (a newer one), the family with a message of its own whose keys the state has, else
    GameState's own fields (any key they do not model travels in extra_json)."""
    codec = _CODEC_OF_RULESET.get(state["ruleset"])
    if codec is not None:
        return codec
    for candidate in CODECS.values():
        if candidate.field is not None and candidate.modelled - _COMMON <= state.keys():
            return candidate
    return _DEFAULT


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
    codec = _codec_of(state)
    codec.encode(state, boards, msg)
    modelled, board_keys = codec.modelled, codec.board_keys
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
    # The family is the one whose message is present (not the ruleset's name: a bot may be
    # sent a ruleset newer than its copy of the engine).
    codec = next(
        (c for c in CODECS.values() if c.field is not None and msg.HasField(c.field)), _DEFAULT
    )
    boards = codec.decode(msg, state)
    state["boards"] = boards
    if msg.extra_json:
        extra = json.loads(msg.extra_json)
        for board, more in zip(boards, extra.pop("boards", ()), strict=False):
            board.update(more)
        state.update(extra)
    return state
