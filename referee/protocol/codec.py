"""The one codec between engine objects (the `to_state()` dict, moves) and protobuf messages.

The engine speaks plain dicts and notation; the wire speaks `GameState`. Each game family's keys
have typed fields, filled by the family's own codec (the module its descriptor names: classic's
are GameState's own fields, referee.protocol.classic; Summer Pavilion's are in
`GameState.pavilion`, referee.protocol.pavilion); keys of the state dict that the message does
not model travel in `extra_json`, so a newer engine never loses information on the way to a bot,
and a family with no codec of its own travels whole (GENERIC).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine import DEFAULT_FAMILY, FAMILIES, RULESETS, Family, family_of
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
COMMON = frozenset(
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
COMMON_BOARD_KEYS = frozenset({"score", "has_marker"})

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


def _encode_common(
    state: dict[str, Any], boards: Sequence[dict[str, Any]], msg: game_pb2.GameState
) -> None:
    add = msg.boards.add
    for board in boards:
        add(score=board["score"], has_marker=board["has_marker"])


def _decode_common(msg: game_pb2.GameState, state: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"score": b.score, "has_marker": b.has_marker} for b in msg.boards]


# The codec of a family that names none (Family.codec empty): GameState's common fields, and the
# family's own keys in extra_json. A family needs a message of its own only for speed or types.
GENERIC = FamilyCodec(
    modelled=COMMON, board_keys=COMMON_BOARD_KEYS, encode=_encode_common, decode=_decode_common
)
# A ruleset's codec, found once (Family.codec) and looked up at every encode.
_CODEC_OF_RULESET: dict[str, FamilyCodec] = {}


def codec_of_family(family: Family) -> FamilyCodec:
    """The codec of `family`: the CODEC of the module its descriptor names, else GENERIC."""
    codec: FamilyCodec | None = family.part("codec")
    return GENERIC if codec is None else codec


def _known_codec(ruleset: str) -> FamilyCodec | None:
    codec = _CODEC_OF_RULESET.get(ruleset)
    if codec is None and ruleset in RULESETS:
        codec = _CODEC_OF_RULESET[ruleset] = codec_of_family(family_of(ruleset))
    return codec


def _own_message_codecs() -> list[FamilyCodec]:
    """The codecs of the registered families that have a GameState field of their own."""
    codecs = (codec_of_family(f) for f in FAMILIES.values())
    return [c for c in codecs if c.field is not None]


def _codec_of(state: dict[str, Any]) -> FamilyCodec:
    """The codec of a state's family: from its ruleset, or, for a ruleset this engine does not
    know (a newer one), the family with a message of its own whose keys the state has, else
    GameState's own fields (any key they do not model travels in extra_json)."""
    codec = _known_codec(state["ruleset"])
    if codec is not None:
        return codec
    for candidate in _own_message_codecs():
        if candidate.modelled - COMMON <= state.keys():
            return candidate
    return codec_of_family(FAMILIES[DEFAULT_FAMILY])


def _codec_of_message(msg: game_pb2.GameState) -> FamilyCodec:
    """The codec of a message's family: the ruleset's when this engine knows it, else the one
    whose message is present (a bot may be sent a ruleset newer than its copy of the engine),
    else GameState's own fields."""
    codec = _known_codec(msg.ruleset)
    if codec is not None:
        return codec
    present = (c for c in _own_message_codecs() if c.field and msg.HasField(c.field))
    return next(present, codec_of_family(FAMILIES[DEFAULT_FAMILY]))


def _all_modelled(
    state: dict[str, Any], boards: Sequence[dict[str, Any]], codec: FamilyCodec
) -> bool:
    """Whether the codec's fields hold every key of the state and its boards (else the rest
    travels in extra_json). A subset test of the keys' view builds no set, unlike a difference:
    this runs at every move."""
    if not state.keys() <= codec.modelled:
        return False
    board_keys = codec.board_keys
    for board in boards:
        if not board.keys() <= board_keys:
            return False
    return True


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
    if not _all_modelled(state, boards, codec):
        modelled, board_keys = codec.modelled, codec.board_keys
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
    codec = _codec_of_message(msg)
    boards = codec.decode(msg, state)
    state["boards"] = boards
    if msg.extra_json:
        extra = json.loads(msg.extra_json)
        for board, more in zip(boards, extra.pop("boards", ()), strict=False):
            board.update(more)
        state.update(extra)
    return state


def settings_options(settings: Any) -> dict[str, str]:
    """The ruleset options a `MatchSettings` asks for: its `options` map, and any family's option
    that the message still carries in a deprecated field of the option's name (the map wins;
    the family's schema judges both, so a classic game given a Summer Pavilion option is
    refused as before)."""
    options = dict(settings.options)
    fields = settings.DESCRIPTOR.fields_by_name
    for name in {o.name for family in FAMILIES.values() for o in family.options}:
        value = getattr(settings, name) if name in fields else ""
        if value and name not in options:
            options[name] = value
    return options
