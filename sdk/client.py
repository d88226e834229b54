"""The SDK's game loop: the handshake, then each message from the referee to the bot's hooks.

The bot's own code (game start, choose_move, game over) always runs in the caller's thread, one
message at a time; the stream under it (sdk.stream) keeps answering pings while that code runs.
"""

from __future__ import annotations

import logging
import os
import random
import sys
import time
import traceback
from collections.abc import Sequence
from functools import partial
from typing import Any

from sdk.bot import Bot, Clock, GameInfo, GameResult
from sdk.state import LazyGame, read_game, read_moves
from sdk.stream import END, BotStream, Unreachable

__all__ = ["Rejected", "Unreachable", "answer", "configure_logging", "play"]

log = logging.getLogger("sdk")


def last_line(exc: BaseException, keep: int = 200) -> str:
    """The last line of `exc`'s traceback (`KeyError: 'x'`), clipped to `keep` characters."""
    line = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return line if len(line) <= keep else line[:keep] + "..."


def own_line(exc: BaseException) -> str:
    """Where in the bot's own code `exc` came from, as " (bot.py line 12, in helper)": its
    deepest frame in the bot's files (a SyntaxError: the line it points at); "" when none is."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f" ({os.path.basename(exc.filename)} line {exc.lineno})"
    te = traceback.TracebackException.from_exception(exc)
    _trim(te, set())
    if not te.stack:
        return ""
    frame = te.stack[-1]
    return f" ({os.path.basename(frame.filename)} line {frame.lineno}, in {frame.name})"


def _not_the_bots() -> tuple[str, ...]:
    """The folders whose files are not a bot's own: the project's packages (the SDK, the
    referee, the built-in bots) and Python's (its library, site-packages)."""
    root = os.path.realpath(os.path.join(os.path.dirname(__file__), os.pardir))
    folders = [os.path.join(root, p) for p in ("sdk", "referee", "bots")]
    folders += {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return tuple(os.path.realpath(f).rstrip(os.sep) + os.sep for f in folders if f.strip(os.sep))


def _trim(te: traceback.TracebackException, seen: set[int]) -> None:
    """Keep only the frames of the bot's own files, in `te` and the exceptions chained to it."""
    if id(te) in seen:
        return
    seen.add(id(te))
    theirs = _not_the_bots()
    own = [f for f in te.stack if not f.filename.startswith("<")]  # not <frozen importlib>
    te.stack = traceback.StackSummary.from_list(
        [f for f in own if not os.path.realpath(f.filename).startswith(theirs)]
    )
    for chained in (te.__cause__, te.__context__, *(getattr(te, "exceptions", None) or ())):
        if chained is not None:
            _trim(chained, seen)


def bot_traceback(exc: BaseException) -> str:
    """`exc`'s traceback with only the bot's own frames (its files, as it sees them: /bot/...
    in the sandbox): the SDK's, the referee's and Python's own frames say nothing to its author
    and name the host's folders. A SyntaxError still shows the bot's line."""
    te = traceback.TracebackException.from_exception(exc)
    _trim(te, set())
    return "".join(te.format())


class Rejected(Exception):
    """The referee refused the Hello."""


def answer(bot: Bot, state: Any, legal: Sequence[str], reply: Any) -> None:
    """Fill `reply` (a MoveReply) with the bot's answer to the request whose legal moves are
    `legal` (their notation). A bot's mistake costs it one strike at the referee (never the whole
    process) and is explained in the bot's own log."""
    try:
        move = bot.choose_move(state)
    except Exception as exc:
        log.error(
            "choose_move raised in this position (the referee counts a fault):\n%s\n%s",
            state,
            bot_traceback(exc).rstrip(),
        )
        # The referee names it a crash and shows this line, even when the log cannot (full).
        reply.crash = last_line(exc, keep=150) + own_line(exc)
        return
    if isinstance(move, int) and not isinstance(move, bool):
        if not 0 <= move < len(legal):
            log.warning(
                "choose_move returned index %d, but there are %d legal moves", move, len(legal)
            )
            move = len(legal)  # out of range: the referee counts an illegal move
        reply.move_index = move
        return
    if move is None:
        log.warning("choose_move returned None; return one of state.legal_moves()")
        reply.move = "none"
        return
    index = state._index_of(move) if isinstance(state, LazyGame) else None
    if index is not None:
        reply.move_index = index
        return
    notation = str(move)
    try:
        reply.move_index = list(legal).index(notation)
    except ValueError:  # not legal here: let the referee judge (and name) it
        log.warning("choose_move returned %r, which is not a legal move here", notation)
        reply.move = notation[:40]


def start_game(bot: Bot, info: GameInfo) -> None:
    """A game starts: `bot.rng` is seeded with the seat's seed (a referee that sends none leaves
    it as it is), then the bot's own hook runs."""
    rng = getattr(bot, "rng", None)
    if info.seed and isinstance(rng, random.Random):
        rng.seed(info.seed)
    bot.on_game_start(info)


def _hello(bot: Bot, token: str) -> Any:
    """The bot's Hello, as the first message of its stream."""
    from referee.protocol import PROTOCOL_VERSION, bot_pb2

    return bot_pb2.ConnectRequest(
        hello=bot_pb2.Hello(
            protocol_version=PROTOCOL_VERSION,
            bot_name=bot.display_name,
            bot_version=str(bot.version),
            rulesets=list(bot.rulesets),
            token=token,
        )
    )


def _move_reply(bot: Bot, request: Any, msg: Any, received: float) -> Any:
    """The reply to a move request (called by the stream, or by `play`), a `request`
    (bot_pb2.ConnectRequest, looked up once, not on every move)."""
    req = msg.move_request
    bot.clock = Clock(
        move_time=req.clock.move_time_ms / 1000.0,
        bank=req.clock.bank_ms / 1000.0,
        started=received,
    )
    legal = req.legal_moves  # notation, read only if the bot needs it
    state = LazyGame(partial(read_game, req.state), partial(read_moves, req.state.ruleset, legal))
    envelope = request()  # filled in place: wrapping a finished reply copies it
    envelope.move_reply.request_id = req.request_id
    answer(bot, state, legal, envelope.move_reply)
    late = time.monotonic() - bot.clock.deadline
    if late > 0:
        log.warning(
            "answered %.3f s after the deadline (move limit %.3f s): the referee "
            "counts a timeout; think less or use self.clock.budget()",
            late,
            bot.clock.move_time,
        )
    return envelope


def _game_start(bot: Bot, msg: Any) -> GameInfo:
    gs = msg.game_start
    info = GameInfo(
        game_id=gs.game_id,
        ruleset=gs.ruleset,
        players=gs.players,
        seat=gs.seat,
        names=tuple(gs.names),
        seed=gs.bot_seed,
    )
    start_game(bot, info)
    return info


def _game_over(bot: Bot, msg: Any, info: GameInfo | None) -> None:
    """The bot's game-over hook, and a warning when the referee ended this bot's game."""
    from referee.protocol import game_pb2
    from referee.protocol.codec import TERMINATION_NAMES

    reasons = {
        game_pb2.GAME_END_REASON_COMPLETED: "completed",
        game_pb2.GAME_END_REASON_FORFEIT: "forfeit",
        game_pb2.GAME_END_REASON_ABORTED: "aborted",
    }
    go = msg.game_over
    bot.on_game_over(
        GameResult(
            game_id=go.game_id,
            scores=tuple(go.scores),
            ranks=tuple(go.ranks),
            reason=reasons.get(go.reason, "completed"),
        )
    )
    if info is not None and go.terminations and info.seat < len(go.terminations):
        mine = TERMINATION_NAMES.get(go.terminations[info.seat], "ok")
        if mine != "ok":
            log.warning("game %s: the referee ended this bot's game: %s", go.game_id, mine)


def play(bot: Bot, address: str, token: str, connect_timeout: float = 30.0) -> int:
    """Connect `bot` to the referee at `address` and play until the referee closes the stream.

    Returns the number of games played. Raises Rejected on a refused Hello, Unreachable when no
    referee answers within `connect_timeout` seconds.
    """
    from referee.protocol.transport import tune_grpc

    tune_grpc(one_connection=True)  # before grpc loads: it reads its settings once
    from referee.protocol import bot_pb2

    on_move = partial(_move_reply, bot, bot_pb2.ConnectRequest)
    stream = BotStream(address, _hello(bot, token), on_move, connect_timeout)
    # The engine is loaded while the handshake is on the wire (spawn-to-Hello is budgeted).
    import referee.engine  # noqa: F401

    games = 0
    info: GameInfo | None = None
    try:
        while (item := stream.read()) is not END:
            msg, received = item
            if isinstance(msg, BaseException):
                log.warning("the stream to the referee broke: %s", msg)
                break
            kind = msg.WhichOneof("message")
            if kind == "move_request":  # not answered inside the stream (sdk/stream.py)
                stream.send(on_move(msg, received))
            elif kind == "game_start":
                info = _game_start(bot, msg)
            elif kind == "game_over":
                games += 1
                _game_over(bot, msg, info)
            elif kind == "welcome":
                log.info("connected to %s as %s", msg.welcome.referee, bot.display_name)
                stream.answer_moves = msg.welcome.quiet_while_thinking
            elif kind == "rejection":
                raise Rejected(msg.rejection.message or "rejected")
    finally:
        stream.close()
    return games


def configure_logging(level: int = logging.INFO) -> None:
    """Bot logs (`self.log`) go to stderr, which the launcher captures into the bot's log file."""
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
