"""BotStream against a real gRPC server that the test scripts: who runs the stream when, pings
answered while the bot is busy, moves answered inside the loop only when the referee promised
quiet while thinking, order kept, breaks and exits reported."""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.protocol import bot_pb2
from sdk.stream import END, BotStream, Unreachable

Request, Response = bot_pb2.ConnectRequest, bot_pb2.ConnectResponse
HELLO = Request(hello=bot_pb2.Hello(protocol_version=1, bot_name="test", token="t"))


class ScriptedReferee:
    """A real server for `BotService.Connect`: it sends what the test puts in `to_bot` (None
    ends the stream, an exception aborts it) and keeps what the bot sends, with the monotonic
    time it arrived, in `from_bot`."""

    def __init__(self, tmp_path: Path) -> None:
        self.to_bot: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.from_bot: queue.SimpleQueue[tuple[Any, float]] = queue.SimpleQueue()
        self.address = f"unix:{tmp_path / 'referee.sock'}"
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        handler = grpc.stream_stream_rpc_method_handler(
            self._connect,
            request_deserializer=Request.FromString,
            response_serializer=Response.SerializeToString,
        )
        self._server.add_generic_rpc_handlers(
            (
                grpc.method_handlers_generic_handler(
                    "azul_arena.v1.BotService", {"Connect": handler}
                ),
            )
        )
        self._server.add_insecure_port(self.address)
        self._server.start()

    def _connect(self, requests: Iterator[Any], context: Any) -> Iterator[Any]:
        def keep() -> None:
            try:
                for msg in requests:
                    self.from_bot.put((msg, time.monotonic()))
            except grpc.RpcError:  # the bot cut the stream off: nothing more to keep
                pass

        threading.Thread(target=keep, daemon=True).start()
        while (msg := self.to_bot.get()) is not None:
            if isinstance(msg, Exception):
                context.abort(grpc.StatusCode.UNAVAILABLE, str(msg))
            yield msg

    def send(self, *messages: Any) -> None:
        for msg in messages:
            self.to_bot.put(msg)

    def received(self, kind: str, timeout: float = 5.0) -> tuple[Any, float]:
        """The next message of `kind` from the bot (others before it are skipped)."""
        end = time.monotonic() + timeout
        while True:
            msg, at = self.from_bot.get(timeout=max(0.0, end - time.monotonic()))
            if msg.WhichOneof("message") == kind:
                return msg, at

    def stop(self) -> None:
        self.to_bot.put(None)
        self._server.stop(0)


def welcome(quiet: bool) -> Any:
    return Response(welcome=bot_pb2.Welcome(protocol_version=1, quiet_while_thinking=quiet))


def ping(nonce: int) -> Any:
    return Response(ping=bot_pb2.Ping(nonce=nonce))


def request(request_id: int) -> Any:
    return Response(move_request=bot_pb2.MoveRequest(request_id=request_id))


def game_start() -> Any:
    return Response(game_start=bot_pb2.GameStart(game_id="g"))


def reply_to(msg: Any, received: float) -> Any:
    out = Request()
    out.move_reply.request_id = msg.move_request.request_id
    return out


@pytest.fixture
def referee(tmp_path: Path) -> Iterator[ScriptedReferee]:
    ref = ScriptedReferee(tmp_path)
    yield ref
    ref.stop()


def quiet_stream(referee: ScriptedReferee, on_move: Any) -> BotStream:
    """A stream past a Welcome that promises quiet while thinking: moves go to `on_move`."""
    stream = BotStream(referee.address, HELLO, on_move)
    referee.send(welcome(quiet=True))
    stream.answer_moves = kind(stream.read()) == "welcome"
    assert stream.answer_moves
    return stream


def kind(item: Any) -> str:
    msg, _ = item
    return str(msg.WhichOneof("message"))


def test_the_hello_is_sent_and_pings_never_reach_the_bots_code(referee: ScriptedReferee) -> None:
    stream = BotStream(referee.address, HELLO, reply_to)
    hello, _ = referee.received("hello")
    assert hello.hello.token == "t"
    referee.send(welcome(quiet=False), ping(1), ping(2), game_start())
    assert kind(stream.read()) == "welcome"
    assert kind(stream.read()) == "game_start", "pings never reach the bot's code"
    assert [referee.received("pong")[0].pong.nonce for _ in range(2)] == [1, 2]
    stream.close()


def test_a_busy_bot_has_its_pings_answered_and_its_messages_kept_in_order(
    referee: ScriptedReferee,
) -> None:
    stream = BotStream(referee.address, HELLO, reply_to, poll=0.02)
    referee.send(welcome(quiet=False))
    assert kind(stream.read()) == "welcome"
    # The bot's thread is away from read() from here on (thinking) ...
    referee.send(ping(1), request(5), game_start(), ping(2))
    pongs = [referee.received("pong", timeout=2.0)[0].pong.nonce for _ in range(2)]
    assert pongs == [1, 2], "pings answered while the bot's thread was busy"
    # ... and what came meanwhile waits for it, in order.
    item = stream.read()
    assert kind(item) == "move_request" and item[0].move_request.request_id == 5
    assert kind(stream.read()) == "game_start"
    stream.send(reply_to(*item))  # sent while the bot's thread is away: it leaves at once
    assert referee.received("move_reply", timeout=2.0)[0].move_reply.request_id == 5
    stream.close()


def test_moves_are_answered_inside_the_stream_once_the_referee_promises_quiet(
    referee: ScriptedReferee,
) -> None:
    threads = []

    def on_move(msg: Any, received: float) -> Any:
        threads.append(threading.current_thread())
        return reply_to(msg, received)

    stream = quiet_stream(referee, on_move)
    referee.send(request(1), request(2), game_start())
    assert kind(stream.read()) == "game_start", "the two requests never reached read()"
    assert threads == [threading.current_thread()] * 2, "answered on the bot's own thread"
    ids = [referee.received("move_reply")[0].move_reply.request_id for _ in range(2)]
    assert ids == [1, 2]
    stream.close()


def test_a_bot_may_run_asyncio_of_its_own_inside_the_stream(referee: ScriptedReferee) -> None:
    async def think() -> int:
        await asyncio.sleep(0.01)
        return 7

    def on_move(msg: Any, received: float) -> Any:
        out = reply_to(msg, received)
        out.move_reply.move_index = asyncio.run(think())
        return out

    stream = quiet_stream(referee, on_move)
    referee.send(request(1), game_start())
    assert kind(stream.read()) == "game_start"
    assert referee.received("move_reply")[0].move_reply.move_index == 7
    stream.close()


def test_without_the_promise_moves_come_back_to_the_caller(referee: ScriptedReferee) -> None:
    stream = BotStream(referee.address, HELLO, reply_to)
    referee.send(welcome(quiet=False), request(3))
    stream.answer_moves = False
    assert kind(stream.read()) == "welcome"
    assert kind(stream.read()) == "move_request"
    stream.close()


def test_a_ping_just_before_a_move_is_answered_before_the_bot_thinks(
    referee: ScriptedReferee,
) -> None:
    thought: list[float] = []

    def on_move(msg: Any, received: float) -> Any:
        time.sleep(0.5)
        thought.append(time.monotonic())
        return reply_to(msg, received)

    stream = quiet_stream(referee, on_move)
    referee.send(ping(9), request(1), game_start())
    assert kind(stream.read()) == "game_start"
    _, pong_at = referee.received("pong")
    assert thought and pong_at < thought[0] - 0.3, "the pong left before the thinking ended"
    stream.close()


def test_a_move_does_not_overtake_the_message_before_it(referee: ScriptedReferee) -> None:
    calls: list[int] = []

    def on_move(msg: Any, received: float) -> Any:
        calls.append(msg.move_request.request_id)
        return reply_to(msg, received)

    stream = quiet_stream(referee, on_move)
    referee.send(game_start(), request(1), ping(5))
    referee.received("pong")  # all three are in by the time the bot reads again
    assert kind(stream.read()) == "game_start"
    assert calls == [], "the move waits until the bot has seen the game start"
    item = stream.read()
    assert kind(item) == "move_request" and calls == [], "it comes back to the caller, in order"
    stream.close()


class SlowToTake:
    """A lock whose blocking acquire sees it free, then loses `delay` seconds before it takes
    it: the bot's thread waiting for a core, or frozen by the referee between its moves, just
    as the pings thread lets go of the stream."""

    def __init__(self, lock: Any, delay: float) -> None:
        self._lock, self._delay = lock, delay

    def acquire(self, blocking: bool = True) -> bool:
        if blocking:
            self._lock.acquire()
            self._lock.release()
            time.sleep(self._delay)
        return bool(self._lock.acquire(blocking))

    def release(self) -> None:
        self._lock.release()


def test_the_bots_thread_gets_the_stream_back_even_when_slow_to_take_it(
    referee: ScriptedReferee,
) -> None:
    # The pings thread runs the stream while the bot thinks. When the bot's thread comes back
    # but is slow to take the stream over, the pings thread must not take it again and run it
    # for good: the bot would never read another move (three timeouts, then a forfeit).
    stream = BotStream(referee.address, HELLO, reply_to, poll=0.02)
    stream._lock = SlowToTake(stream._lock, delay=0.2)  # type: ignore[assignment]
    referee.send(welcome(quiet=False), request(6))
    assert kind(stream.read()) == "welcome"
    item = stream.read()
    time.sleep(0.1)  # thinking: the pings thread takes the stream
    stream.send(reply_to(*item))
    assert referee.received("move_reply")[0].move_reply.request_id == 6
    got: list[Any] = []
    back = threading.Thread(target=lambda: got.append(stream.read()), daemon=True)
    back.start()  # the bot's thread waits for its next message, the stream in its hands
    time.sleep(0.5)
    referee.send(game_start())
    back.join(3.0)
    assert got and kind(got[0]) == "game_start", "the bot's thread never got the stream back"
    stream.close()


def test_a_broken_stream_is_reported_then_ends(referee: ScriptedReferee) -> None:
    stream = BotStream(referee.address, HELLO, reply_to)
    referee.send(welcome(quiet=True), RuntimeError("the referee went away"))
    assert kind(stream.read()) == "welcome"
    error, at = stream.read()
    assert isinstance(error, grpc.aio.AioRpcError) and at == 0.0
    assert error.code() == grpc.StatusCode.UNAVAILABLE
    assert stream.read() is END and stream.read() is END
    stream.close()


def test_an_exit_inside_the_move_handler_reaches_the_caller(referee: ScriptedReferee) -> None:
    def on_move(msg: Any, received: float) -> Any:
        raise SystemExit(3)

    stream = quiet_stream(referee, on_move)
    referee.send(request(1))
    with pytest.raises(SystemExit):
        stream.read()
    assert stream.read() is END
    stream.close()


def test_close_sends_what_was_queued(referee: ScriptedReferee) -> None:
    stream = BotStream(referee.address, HELLO, reply_to)
    referee.send(welcome(quiet=False), request(4))
    assert kind(stream.read()) == "welcome"
    item = stream.read()
    stream.send(reply_to(*item))
    stream.close()
    assert referee.received("move_reply")[0].move_reply.request_id == 4


def test_an_unreachable_referee_is_a_clear_error(tmp_path: Path) -> None:
    began = time.monotonic()
    with pytest.raises(Unreachable, match="cannot reach the referee at unix:"):
        BotStream(f"unix:{tmp_path / 'nobody.sock'}", HELLO, reply_to, connect_timeout=0.5)
    assert time.monotonic() - began < 5
