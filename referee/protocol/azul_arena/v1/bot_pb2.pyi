from azul_arena.v1 import game_pb2 as _game_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RejectionReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REJECTION_REASON_UNSPECIFIED: _ClassVar[RejectionReason]
    REJECTION_REASON_VERSION_MISMATCH: _ClassVar[RejectionReason]
    REJECTION_REASON_BAD_TOKEN: _ClassVar[RejectionReason]
    REJECTION_REASON_MALFORMED: _ClassVar[RejectionReason]
REJECTION_REASON_UNSPECIFIED: RejectionReason
REJECTION_REASON_VERSION_MISMATCH: RejectionReason
REJECTION_REASON_BAD_TOKEN: RejectionReason
REJECTION_REASON_MALFORMED: RejectionReason

class ConnectRequest(_message.Message):
    __slots__ = ("hello", "move_reply", "pong")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    MOVE_REPLY_FIELD_NUMBER: _ClassVar[int]
    PONG_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    move_reply: MoveReply
    pong: Pong
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., move_reply: _Optional[_Union[MoveReply, _Mapping]] = ..., pong: _Optional[_Union[Pong, _Mapping]] = ...) -> None: ...

class ConnectResponse(_message.Message):
    __slots__ = ("welcome", "rejection", "game_start", "move_request", "game_over", "ping")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    REJECTION_FIELD_NUMBER: _ClassVar[int]
    GAME_START_FIELD_NUMBER: _ClassVar[int]
    MOVE_REQUEST_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    rejection: Rejection
    game_start: GameStart
    move_request: MoveRequest
    game_over: GameOver
    ping: Ping
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., rejection: _Optional[_Union[Rejection, _Mapping]] = ..., game_start: _Optional[_Union[GameStart, _Mapping]] = ..., move_request: _Optional[_Union[MoveRequest, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., ping: _Optional[_Union[Ping, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("protocol_version", "bot_name", "bot_version", "rulesets", "token")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    bot_name: str
    bot_version: str
    rulesets: _containers.RepeatedScalarFieldContainer[str]
    token: str
    def __init__(self, protocol_version: _Optional[int] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., rulesets: _Optional[_Iterable[str]] = ..., token: _Optional[str] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "referee", "quiet_while_thinking")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REFEREE_FIELD_NUMBER: _ClassVar[int]
    QUIET_WHILE_THINKING_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    referee: str
    quiet_while_thinking: bool
    def __init__(self, protocol_version: _Optional[int] = ..., referee: _Optional[str] = ..., quiet_while_thinking: _Optional[bool] = ...) -> None: ...

class Rejection(_message.Message):
    __slots__ = ("reason", "message")
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    reason: RejectionReason
    message: str
    def __init__(self, reason: _Optional[_Union[RejectionReason, str]] = ..., message: _Optional[str] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("game_id", "ruleset", "players", "seat", "names", "bot_seed")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    BOT_SEED_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    ruleset: str
    players: int
    seat: int
    names: _containers.RepeatedScalarFieldContainer[str]
    bot_seed: int
    def __init__(self, game_id: _Optional[str] = ..., ruleset: _Optional[str] = ..., players: _Optional[int] = ..., seat: _Optional[int] = ..., names: _Optional[_Iterable[str]] = ..., bot_seed: _Optional[int] = ...) -> None: ...

class MoveRequest(_message.Message):
    __slots__ = ("request_id", "game_id", "state", "legal_moves", "clock")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    game_id: str
    state: _game_pb2.GameState
    legal_moves: _containers.RepeatedScalarFieldContainer[str]
    clock: _game_pb2.Clock
    def __init__(self, request_id: _Optional[int] = ..., game_id: _Optional[str] = ..., state: _Optional[_Union[_game_pb2.GameState, _Mapping]] = ..., legal_moves: _Optional[_Iterable[str]] = ..., clock: _Optional[_Union[_game_pb2.Clock, _Mapping]] = ...) -> None: ...

class MoveReply(_message.Message):
    __slots__ = ("request_id", "move_index", "move", "crash")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_INDEX_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CRASH_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    move_index: int
    move: str
    crash: str
    def __init__(self, request_id: _Optional[int] = ..., move_index: _Optional[int] = ..., move: _Optional[str] = ..., crash: _Optional[str] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ("game_id", "scores", "ranks", "reason", "terminations")
    GAME_ID_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TERMINATIONS_FIELD_NUMBER: _ClassVar[int]
    game_id: str
    scores: _containers.RepeatedScalarFieldContainer[int]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: _game_pb2.GameEndReason
    terminations: _containers.RepeatedScalarFieldContainer[_game_pb2.Termination]
    def __init__(self, game_id: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ..., ranks: _Optional[_Iterable[int]] = ..., reason: _Optional[_Union[_game_pb2.GameEndReason, str]] = ..., terminations: _Optional[_Iterable[_Union[_game_pb2.Termination, str]]] = ...) -> None: ...

class Ping(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...

class Pong(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...
