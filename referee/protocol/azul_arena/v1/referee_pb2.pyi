from azul_arena.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClockKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_KIND_UNSPECIFIED: _ClassVar[ClockKind]
    CLOCK_KIND_WALL: _ClassVar[ClockKind]
    CLOCK_KIND_CPU: _ClassVar[ClockKind]

class FaultPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_POLICY_UNSPECIFIED: _ClassVar[FaultPolicy]
    FAULT_POLICY_RANDOM: _ClassVar[FaultPolicy]
    FAULT_POLICY_FORFEIT: _ClassVar[FaultPolicy]
CLOCK_KIND_UNSPECIFIED: ClockKind
CLOCK_KIND_WALL: ClockKind
CLOCK_KIND_CPU: ClockKind
FAULT_POLICY_UNSPECIFIED: FaultPolicy
FAULT_POLICY_RANDOM: FaultPolicy
FAULT_POLICY_FORFEIT: FaultPolicy

class SeatSpec(_message.Message):
    __slots__ = ("entry", "token", "name")
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    entry: str
    token: str
    name: str
    def __init__(self, entry: _Optional[str] = ..., token: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class MatchSettings(_message.Message):
    __slots__ = ("ruleset", "seed", "first_player", "move_time_ms", "time_bank_ms", "first_move_allowance_ms", "grace_ms", "fault_policy", "max_strikes", "hello_timeout_ms", "wild_order", "clock", "options")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    FIRST_MOVE_ALLOWANCE_MS_FIELD_NUMBER: _ClassVar[int]
    GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    FAULT_POLICY_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    HELLO_TIMEOUT_MS_FIELD_NUMBER: _ClassVar[int]
    WILD_ORDER_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    seed: int
    first_player: int
    move_time_ms: int
    time_bank_ms: int
    first_move_allowance_ms: int
    grace_ms: int
    fault_policy: FaultPolicy
    max_strikes: int
    hello_timeout_ms: int
    wild_order: str
    clock: ClockKind
    options: _containers.ScalarMap[str, str]
    def __init__(self, ruleset: _Optional[str] = ..., seed: _Optional[int] = ..., first_player: _Optional[int] = ..., move_time_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., first_move_allowance_ms: _Optional[int] = ..., grace_ms: _Optional[int] = ..., fault_policy: _Optional[_Union[FaultPolicy, str]] = ..., max_strikes: _Optional[int] = ..., hello_timeout_ms: _Optional[int] = ..., wild_order: _Optional[str] = ..., clock: _Optional[_Union[ClockKind, str]] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class RunMatchRequest(_message.Message):
    __slots__ = ("seats", "settings", "match_id")
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    settings: MatchSettings
    match_id: str
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., settings: _Optional[_Union[MatchSettings, _Mapping]] = ..., match_id: _Optional[str] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("name", "score", "rank", "termination", "strikes", "moves", "move_time_total_us")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    TERMINATION_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_TOTAL_US_FIELD_NUMBER: _ClassVar[int]
    name: str
    score: int
    rank: int
    termination: _game_pb2.Termination
    strikes: int
    moves: int
    move_time_total_us: int
    def __init__(self, name: _Optional[str] = ..., score: _Optional[int] = ..., rank: _Optional[int] = ..., termination: _Optional[_Union[_game_pb2.Termination, str]] = ..., strikes: _Optional[int] = ..., moves: _Optional[int] = ..., move_time_total_us: _Optional[int] = ...) -> None: ...

class RunMatchResponse(_message.Message):
    __slots__ = ("match_id", "seats", "reason", "record_json")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    reason: _game_pb2.GameEndReason
    record_json: str
    def __init__(self, match_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., reason: _Optional[_Union[_game_pb2.GameEndReason, str]] = ..., record_json: _Optional[str] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("match_id", "sequence", "started", "move_played", "seat_faulted", "ended")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    MOVE_PLAYED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FAULTED_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    sequence: int
    started: MatchStarted
    move_played: MovePlayed
    seat_faulted: SeatFaulted
    ended: MatchEnded
    def __init__(self, match_id: _Optional[str] = ..., sequence: _Optional[int] = ..., started: _Optional[_Union[MatchStarted, _Mapping]] = ..., move_played: _Optional[_Union[MovePlayed, _Mapping]] = ..., seat_faulted: _Optional[_Union[SeatFaulted, _Mapping]] = ..., ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ("ruleset", "names")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ruleset: _Optional[str] = ..., names: _Optional[_Iterable[str]] = ...) -> None: ...

class MovePlayed(_message.Message):
    __slots__ = ("seat", "move", "elapsed_us", "substituted", "state")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_US_FIELD_NUMBER: _ClassVar[int]
    SUBSTITUTED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    move: str
    elapsed_us: int
    substituted: bool
    state: _game_pb2.GameState
    def __init__(self, seat: _Optional[int] = ..., move: _Optional[str] = ..., elapsed_us: _Optional[int] = ..., substituted: _Optional[bool] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ...) -> None: ...

class SeatFaulted(_message.Message):
    __slots__ = ("seat", "fault", "strikes", "forfeited", "detail")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    fault: _game_pb2.Termination
    strikes: int
    forfeited: bool
    detail: str
    def __init__(self, seat: _Optional[int] = ..., fault: _Optional[_Union[_game_pb2.Termination, str]] = ..., strikes: _Optional[int] = ..., forfeited: _Optional[bool] = ..., detail: _Optional[str] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("scores", "ranks", "terminations", "reason")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    TERMINATIONS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    terminations: _containers.RepeatedScalarFieldContainer[_game_pb2.Termination]
    reason: _game_pb2.GameEndReason
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ..., terminations: _Optional[_Iterable[_Union[_game_pb2.Termination, str]]] = ..., reason: _Optional[_Union[_game_pb2.GameEndReason, str]] = ...) -> None: ...
