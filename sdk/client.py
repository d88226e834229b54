"""The SDK's transport: one gRPC stream to the referee, the handshake, pings and threading.

The bot's own code (game start, choose_move, game over) always runs in the caller's thread, one
message at a time. That thread also reads the stream itself whenever it is free, so a move request
reaches `choose_move` with no hand-off between threads: the per-move round trip costs what a bare
gRPC ping-pong costs. While the bot is busy (thinking, or in a hook) for longer than a poll
interval (50-100 ms), a pings thread takes the stream over, answers the referee's pings and hands
the next other message back (from then on until the bot's thread reads again, a message costs one
hand-off); so a bot that thinks for a second never misses a ping. grpc's own thread sends what
the request generator yields (replies, pongs).
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from sdk.bot import Bot, Clock, GameInfo, GameResult
from sdk.state import LazyGame, read_moves

log = logging.getLogger("sdk")

_END = object()


class Rejected(Exception):
    """The referee refused the Hello."""


class Unreachable(Exception):
    """No referee answered at the address."""


def answer(bot: Bot, state: Any, legal: list[str], reply: Any) -> None:
    """Fill `reply` (a MoveReply) with the bot's answer. A bot's mistake costs it one strike at
    the referee (never the whole process) and is explained in the bot's own log."""
    try:
        move = bot.choose_move(state)
    except Exception:
        log.exception("choose_move raised in this position (the referee counts a fault):\n%s",
                      state)
        reply.move = "error"  # not notation: a malformed answer, one strike
        return
    if isinstance(move, int) and not isinstance(move, bool):
        if not 0 <= move < len(legal):
            log.warning("choose_move returned index %d, but there are %d legal moves", move,
                        len(legal))
            move = len(legal)  # out of range: the referee counts an illegal move
        reply.move_index = move
        return
    if move is None:
        log.warning("choose_move returned None; return one of state.legal_moves()")
        reply.move = "none"
        return
    notation = str(move)
    try:
        reply.move_index = legal.index(notation)
    except ValueError:  # not legal here: let the referee judge (and name) it
        log.warning("choose_move returned %r, which is not a legal move here", notation)
        reply.move = notation[:40]


class StreamReader:
    """Reads the referee's stream for two threads: the bot's and a pings thread (module
    docstring).

    The bot's thread calls `read()`, which reads the stream itself when no one else does. The
    pings thread runs `answer_pings_while_busy()`: it reads only while the bot has been busy for
    longer than `poll` seconds (`busy_since`, set by the bot's thread), answers pings, and
    forwards the next other message to the bot's thread. One lock makes the stream's reader one
    thread at a time, and the forwarding queue keeps the messages in order.
    """

    def __init__(self, responses: Iterator[Any], pong: Callable[[int], None],
                 rpc_error: type[Exception], cancelled: Any) -> None:
        self._responses = responses
        self._pong = pong
        self._rpc_error, self._cancelled = rpc_error, cancelled
        self._read_lock = threading.Lock()
        self._forwarded: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._closed = threading.Event()
        self.busy_since: float | None = None  # time.monotonic() when the bot's code started

    def _read(self) -> Any:
        """The next message that is not a ping, as (message, time received); (error, 0.0) when
        the stream broke; _END when it ended. The caller holds the read lock."""
        while True:
            try:
                msg = next(self._responses)
            except StopIteration:
                return _END
            except self._rpc_error as exc:
                code = exc.code() if hasattr(exc, "code") else None
                return _END if code == self._cancelled else (exc, 0.0)
            if msg.WhichOneof("message") == "ping":
                self._pong(msg.ping.nonce)
            else:
                return msg, time.monotonic()

    def read(self) -> Any:
        """The next message for the bot's thread (see `_read`)."""
        try:
            return self._forwarded.get_nowait()
        except queue.Empty:
            pass
        if not self._read_lock.acquire(blocking=False):
            return self._forwarded.get()  # the pings thread holds the stream: it forwards one
        try:
            try:  # forwarded just before the pings thread let go of the stream
                return self._forwarded.get_nowait()
            except queue.Empty:
                return self._read()
        finally:
            self._read_lock.release()

    def answer_pings_while_busy(self, poll: float = 0.05) -> None:
        """The pings thread's loop: take the stream over while the bot is busy."""
        while not self._closed.wait(poll):
            since = self.busy_since
            if since is None or time.monotonic() - since < poll:
                continue
            if not self._read_lock.acquire(blocking=False):
                continue
            try:
                item = self._read()
            except BaseException as exc:  # never leave the bot's thread waiting for nothing
                item = (exc, 0.0)
            finally:
                self._read_lock.release()
            self._forwarded.put(item)
            if item is _END or isinstance(item[0], BaseException):
                return

    def close(self) -> None:
        """Stop the pings thread (the bot's thread is done with the stream)."""
        self._closed.set()


def play(bot: Bot, address: str, token: str, connect_timeout: float = 30.0) -> int:
    """Connect `bot` to the referee at `address` and play until the referee closes the stream.

    Returns the number of games played. Raises Rejected on a refused Hello, Unreachable when no
    referee answers within `connect_timeout` seconds.
    """
    from referee.protocol.transport import tune_grpc

    tune_grpc(one_connection=True)  # before grpc loads: it reads its settings once
    import grpc

    from referee.protocol import PROTOCOL_VERSION, bot_pb2
    from referee.protocol.codec import TERMINATION_NAMES, decode_state  # noqa: I001

    Request, Response = bot_pb2.ConnectRequest, bot_pb2.ConnectResponse  # noqa: N806
    outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    hello = bot_pb2.Hello(protocol_version=PROTOCOL_VERSION, bot_name=bot.display_name,
                          bot_version=str(bot.version), rulesets=list(bot.rulesets), token=token)
    outbox.put(Request(hello=hello))

    def requests() -> Iterator[Any]:
        get = outbox.get
        while True:
            item = get()
            if item is _END:
                return
            yield item

    channel = grpc.insecure_channel(address)  # unix:/path or host:port, as grpc takes them
    try:
        grpc.channel_ready_future(channel).result(timeout=connect_timeout)
    except grpc.FutureTimeoutError:
        channel.close()
        raise Unreachable(f"cannot reach the referee at {address} (waited {connect_timeout:g} s):"
                          " is it running, and is the address right?") from None
    connect = channel.stream_stream("/azul_arena.v1.BotService/Connect",
                                    request_serializer=Request.SerializeToString,
                                    response_deserializer=Response.FromString)
    responses = connect(requests(), wait_for_ready=True)

    def pong(nonce: int) -> None:
        outbox.put(Request(pong=bot_pb2.Pong(nonce=nonce)))

    stream = StreamReader(responses, pong, grpc.RpcError, grpc.StatusCode.CANCELLED)
    threading.Thread(target=stream.answer_pings_while_busy, name="azul-arena-pings",
                     daemon=True).start()
    # The engine is loaded while the handshake is on the wire (spawn-to-Hello is budgeted).
    from referee.engine import Game

    def rebuild(message: Any) -> Game:
        return Game.from_state(decode_state(message))

    games = 0
    info: GameInfo | None = None
    try:
        while True:
            item = stream.read()
            if item is _END:
                break
            msg, received = item
            if isinstance(msg, BaseException):
                log.warning("the stream to the referee broke: %s", msg)
                break
            stream.busy_since = received
            kind = msg.WhichOneof("message")
            if kind == "move_request":
                req = msg.move_request
                bot.clock = Clock(move_time=req.clock.move_time_ms / 1000.0,
                                  bank=req.clock.bank_ms / 1000.0, started=received)
                legal = list(req.legal_moves)
                state = LazyGame(partial(rebuild, req.state),
                                 partial(read_moves, req.state.ruleset, legal))
                envelope = Request()  # filled in place: wrapping a finished reply copies it
                envelope.move_reply.request_id = req.request_id
                answer(bot, state, legal, envelope.move_reply)
                if time.monotonic() > bot.clock.deadline:
                    log.warning("answered %.3f s after the deadline (move limit %.3f s): the "
                                "referee counts a timeout; think less or use self.clock.budget()",
                                time.monotonic() - bot.clock.deadline, bot.clock.move_time)
                outbox.put(envelope)
            elif kind == "game_start":
                gs = msg.game_start
                info = GameInfo(game_id=gs.game_id, ruleset=gs.ruleset, players=gs.players,
                                seat=gs.seat, names=tuple(gs.names))
                bot.on_game_start(info)
            elif kind == "game_over":
                go = msg.game_over
                games += 1
                reason = {1: "completed", 2: "forfeit", 3: "aborted"}.get(go.reason, "completed")
                bot.on_game_over(GameResult(game_id=go.game_id, scores=tuple(go.scores),
                                            ranks=tuple(go.ranks), reason=reason))
                if info is not None and go.terminations and info.seat < len(go.terminations):
                    mine = TERMINATION_NAMES.get(go.terminations[info.seat], "ok")
                    if mine != "ok":
                        log.warning("game %s: the referee ended this bot's game: %s",
                                    go.game_id, mine)
            elif kind == "welcome":
                log.info("connected to %s as %s", msg.welcome.referee, bot.display_name)
            elif kind == "rejection":
                raise Rejected(msg.rejection.message or "rejected")
            stream.busy_since = None
    finally:
        stream.close()
        outbox.put(_END)
        channel.close()
    return games


def configure_logging(level: int = logging.INFO) -> None:
    """Bot logs (`self.log`) go to stderr, which the launcher captures into the bot's log file."""
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
