from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_TAKE: _ClassVar[Phase]
    PHASE_WALL: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_BONUS: _ClassVar[Phase]

class Termination(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TERMINATION_UNSPECIFIED: _ClassVar[Termination]
    TERMINATION_OK: _ClassVar[Termination]
    TERMINATION_TIMEOUT: _ClassVar[Termination]
    TERMINATION_ILLEGAL: _ClassVar[Termination]
    TERMINATION_MALFORMED: _ClassVar[Termination]
    TERMINATION_CRASH: _ClassVar[Termination]
    TERMINATION_DISCONNECT: _ClassVar[Termination]
    TERMINATION_NO_HELLO: _ClassVar[Termination]
    TERMINATION_VERSION_MISMATCH: _ClassVar[Termination]
    TERMINATION_BAD_TOKEN: _ClassVar[Termination]
    TERMINATION_MEMORY: _ClassVar[Termination]
    TERMINATION_UNSUPPORTED_RULESET: _ClassVar[Termination]

class GameEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_END_REASON_UNSPECIFIED: _ClassVar[GameEndReason]
    GAME_END_REASON_COMPLETED: _ClassVar[GameEndReason]
    GAME_END_REASON_FORFEIT: _ClassVar[GameEndReason]
    GAME_END_REASON_ABORTED: _ClassVar[GameEndReason]
PHASE_UNSPECIFIED: Phase
PHASE_TAKE: Phase
PHASE_WALL: Phase
PHASE_OVER: Phase
PHASE_PLAY: Phase
PHASE_BONUS: Phase
TERMINATION_UNSPECIFIED: Termination
TERMINATION_OK: Termination
TERMINATION_TIMEOUT: Termination
TERMINATION_ILLEGAL: Termination
TERMINATION_MALFORMED: Termination
TERMINATION_CRASH: Termination
TERMINATION_DISCONNECT: Termination
TERMINATION_NO_HELLO: Termination
TERMINATION_VERSION_MISMATCH: Termination
TERMINATION_BAD_TOKEN: Termination
TERMINATION_MEMORY: Termination
TERMINATION_UNSUPPORTED_RULESET: Termination
GAME_END_REASON_UNSPECIFIED: GameEndReason
GAME_END_REASON_COMPLETED: GameEndReason
GAME_END_REASON_FORFEIT: GameEndReason
GAME_END_REASON_ABORTED: GameEndReason

class Board(_message.Message):
    __slots__ = ("score", "lines", "wall", "floor", "has_marker")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    LINES_FIELD_NUMBER: _ClassVar[int]
    WALL_FIELD_NUMBER: _ClassVar[int]
    FLOOR_FIELD_NUMBER: _ClassVar[int]
    HAS_MARKER_FIELD_NUMBER: _ClassVar[int]
    score: int
    lines: _containers.RepeatedScalarFieldContainer[str]
    wall: _containers.RepeatedScalarFieldContainer[str]
    floor: str
    has_marker: bool
    def __init__(self, score: _Optional[int] = ..., lines: _Optional[_Iterable[str]] = ..., wall: _Optional[_Iterable[str]] = ..., floor: _Optional[str] = ..., has_marker: _Optional[bool] = ...) -> None: ...

class PavilionBoard(_message.Message):
    __slots__ = ("stars", "tiles", "kept", "passed")
    STARS_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    stars: _containers.RepeatedScalarFieldContainer[str]
    tiles: str
    kept: str
    passed: bool
    def __init__(self, stars: _Optional[_Iterable[str]] = ..., tiles: _Optional[str] = ..., kept: _Optional[str] = ..., passed: _Optional[bool] = ...) -> None: ...

class PavilionState(_message.Message):
    __slots__ = ("wild_order", "wild", "supply", "depot", "bonus_owed", "boards")
    WILD_ORDER_FIELD_NUMBER: _ClassVar[int]
    WILD_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    DEPOT_FIELD_NUMBER: _ClassVar[int]
    BONUS_OWED_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    wild_order: str
    wild: str
    supply: str
    depot: str
    bonus_owed: int
    boards: _containers.RepeatedCompositeFieldContainer[PavilionBoard]
    def __init__(self, wild_order: _Optional[str] = ..., wild: _Optional[str] = ..., supply: _Optional[str] = ..., depot: _Optional[str] = ..., bonus_owed: _Optional[int] = ..., boards: _Optional[_Iterable[_Union[PavilionBoard, _Mapping]]] = ...) -> None: ...

class GameState(_message.Message):
    __slots__ = ("ruleset", "players", "round", "turn", "phase", "round_starter", "factories", "centre", "marker_in_centre", "bag", "lid", "boards", "wall_line", "extra_json", "pavilion")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTER_FIELD_NUMBER: _ClassVar[int]
    FACTORIES_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    MARKER_IN_CENTRE_FIELD_NUMBER: _ClassVar[int]
    BAG_FIELD_NUMBER: _ClassVar[int]
    LID_FIELD_NUMBER: _ClassVar[int]
    BOARDS_FIELD_NUMBER: _ClassVar[int]
    WALL_LINE_FIELD_NUMBER: _ClassVar[int]
    EXTRA_JSON_FIELD_NUMBER: _ClassVar[int]
    PAVILION_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    players: int
    round: int
    turn: int
    phase: Phase
    round_starter: int
    factories: _containers.RepeatedScalarFieldContainer[str]
    centre: str
    marker_in_centre: bool
    bag: str
    lid: str
    boards: _containers.RepeatedCompositeFieldContainer[Board]
    wall_line: int
    extra_json: str
    pavilion: PavilionState
    def __init__(self, ruleset: _Optional[str] = ..., players: _Optional[int] = ..., round: _Optional[int] = ..., turn: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., round_starter: _Optional[int] = ..., factories: _Optional[_Iterable[str]] = ..., centre: _Optional[str] = ..., marker_in_centre: _Optional[bool] = ..., bag: _Optional[str] = ..., lid: _Optional[str] = ..., boards: _Optional[_Iterable[_Union[Board, _Mapping]]] = ..., wall_line: _Optional[int] = ..., extra_json: _Optional[str] = ..., pavilion: _Optional[_Union[PavilionState, _Mapping]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ("move_time_ms", "bank_ms")
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    move_time_ms: int
    bank_ms: int
    def __init__(self, move_time_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...
