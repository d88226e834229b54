"""The SDK's transport: one gRPC stream to the referee, the handshake, pings and threading.

Three threads, so that a bot that thinks for a second never misses a ping:
  - the caller's thread runs the bot (game start, choose_move, game over), one message at a time;
  - a reader thread drains the referee's stream, answers pings itself and queues the rest;
  - grpc's own thread sends what the request generator yields (replies, pongs).
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from sdk.bot import Bot, Clock, GameInfo, GameResult

log = logging.getLogger("sdk")

_END = object()


class Rejected(Exception):
    """The referee refused the Hello."""


class Unreachable(Exception):
    """No referee answered at the address."""


def answer(bot: Bot, state: Any, legal: list[str], request_id: int, reply_type: Any) -> Any:
    """The bot's MoveReply to one request. A bot's mistake costs it one strike at the referee
    (never the whole process) and is explained in the bot's own log."""
    reply = reply_type(request_id=request_id)
    try:
        move = bot.choose_move(state)
    except Exception:
        log.exception("choose_move raised in this position (the referee counts a fault):\n%s",
                      state)
        reply.move = "error"  # not notation: a malformed answer, one strike
        return reply
    if isinstance(move, int) and not isinstance(move, bool):
        if not 0 <= move < len(legal):
            log.warning("choose_move returned index %d, but there are %d legal moves", move,
                        len(legal))
            move = len(legal)  # out of range: the referee counts an illegal move
        reply.move_index = move
        return reply
    if move is None:
        log.warning("choose_move returned None; return one of state.legal_moves()")
        reply.move = "none"
        return reply
    notation = str(move)
    try:
        reply.move_index = legal.index(notation)
    except ValueError:  # not legal here: let the referee judge (and name) it
        log.warning("choose_move returned %r, which is not a legal move here", notation)
        reply.move = notation[:40]
    return reply


def play(bot: Bot, address: str, token: str, connect_timeout: float = 30.0) -> int:
    """Connect `bot` to the referee at `address` and play until the referee closes the stream.

    Returns the number of games played. Raises Rejected on a refused Hello, Unreachable when no
    referee answers within `connect_timeout` seconds.
    """
    import grpc

    from referee.protocol import PROTOCOL_VERSION, bot_pb2
    from referee.protocol.codec import TERMINATION_NAMES, decode_state  # noqa: I001

    Request, Response = bot_pb2.ConnectRequest, bot_pb2.ConnectResponse  # noqa: N806
    outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
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

    def reader() -> None:
        put, send = inbox.put, outbox.put
        try:
            for msg in responses:
                if msg.WhichOneof("message") == "ping":
                    send(Request(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
                else:
                    put((msg, time.monotonic()))
        except grpc.RpcError as exc:
            code = exc.code() if hasattr(exc, "code") else None
            if code != grpc.StatusCode.CANCELLED:
                put((exc, 0.0))
        finally:
            put(_END)

    threading.Thread(target=reader, name="azul-arena-reader", daemon=True).start()
    # The engine is loaded while the handshake is on the wire (spawn-to-Hello is budgeted).
    from referee.engine import game_from_state as from_state

    games = 0
    info: GameInfo | None = None
    try:
        while True:
            item = inbox.get()
            if item is _END:
                break
            msg, received = item
            if isinstance(msg, Exception):
                log.warning("the stream to the referee broke: %s", msg)
                break
            kind = msg.WhichOneof("message")
            if kind == "move_request":
                req = msg.move_request
                bot.clock = Clock(move_time=req.clock.move_time_ms / 1000.0,
                                  bank=req.clock.bank_ms / 1000.0, started=received)
                state = from_state(decode_state(req.state))
                reply = answer(bot, state, list(req.legal_moves), req.request_id,
                               bot_pb2.MoveReply)
                if time.monotonic() > bot.clock.deadline:
                    log.warning("answered %.3f s after the deadline (move limit %.3f s): the "
                                "referee counts a timeout; think less or use self.clock.budget()",
                                time.monotonic() - bot.clock.deadline, bot.clock.move_time)
                outbox.put(Request(move_reply=reply))
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
    finally:
        outbox.put(_END)
        channel.close()
    return games


def configure_logging(level: int = logging.INFO) -> None:
    """Bot logs (`self.log`) go to stderr, which the launcher captures into the bot's log file."""
    logging.basicConfig(level=level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
