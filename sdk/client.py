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


def state_builder() -> Any:
    """The engine's state -> Game function: `game_from_state` dispatches on the ruleset's family
    (the abstract `Game.from_state` cannot know which family to build)."""
    try:
        from referee.engine import game_from_state
    except ImportError:  # an engine that only offers the classmethod
        from referee.engine import ClassicGame

        return ClassicGame.from_state
    return game_from_state


def _address(address: str) -> str:
    """grpc targets: `unix:/path` as is, `unix://path` too; `host:port` as is."""
    return address


def play(bot: Bot, address: str, token: str) -> int:
    """Connect `bot` to the referee at `address` and play until the referee closes the stream.

    Returns the number of games played. Raises Rejected on a refused Hello.
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

    channel = grpc.insecure_channel(_address(address))
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
    from_state = state_builder()

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
                move = bot.choose_move(state)
                reply = bot_pb2.MoveReply(request_id=req.request_id)
                if isinstance(move, int):  # an index into state.legal_moves() is fine too
                    reply.move_index = move
                else:
                    notation = str(move)
                    try:
                        reply.move_index = list(req.legal_moves).index(notation)
                    except ValueError:  # not in the list: let the referee judge the notation
                        reply.move = notation
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
