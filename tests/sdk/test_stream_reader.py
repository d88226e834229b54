"""StreamReader: the bot's thread reads its own stream; a pings thread answers pings only while
the bot is busy, and hands every other message back in order."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from referee.protocol import bot_pb2
from sdk.client import _END, StreamReader

Response = bot_pb2.ConnectResponse


class FakeStream:
    """A response stream fed by the test; `None` ends it, an exception breaks it."""

    def __init__(self) -> None:
        self.feed: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.readers: set[str] = set()  # names of the threads that read from it

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        self.readers.add(threading.current_thread().name)
        item = self.feed.get(timeout=10)
        if item is None:
            raise StopIteration
        if isinstance(item, Exception):
            raise item
        return item


class Broken(Exception):
    def code(self) -> str:
        return "UNAVAILABLE"


def ping(nonce: int) -> Any:
    return Response(ping=bot_pb2.Ping(nonce=nonce))


def request(request_id: int) -> Any:
    return Response(move_request=bot_pb2.MoveRequest(request_id=request_id))


def start(seat: int = 0) -> Any:
    return Response(game_start=bot_pb2.GameStart(game_id="g", seat=seat))


def reader(stream: FakeStream) -> tuple[StreamReader, list[int], threading.Thread]:
    pongs: list[int] = []
    reader = StreamReader(stream, pongs.append, Broken, "CANCELLED")
    pings = threading.Thread(target=reader.answer_pings_while_busy, kwargs={"poll": 0.01},
                             name="pings", daemon=True)
    pings.start()
    return reader, pongs, pings


def wait_for(condition: Any, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_an_idle_bot_reads_its_own_stream_and_answers_pings_itself() -> None:
    stream = FakeStream()
    read, pongs, pings = reader(stream)
    for msg in (ping(1), request(7), ping(2), None):
        stream.feed.put(msg)
    msg, _ = read.read()
    assert msg.move_request.request_id == 7 and pongs == [1]
    assert read.read() is _END and pongs == [1, 2]
    assert stream.readers == {threading.current_thread().name}, "no hand-off when not busy"
    read.close()
    pings.join(1)


def test_a_busy_bot_has_its_pings_answered_and_its_messages_kept_in_order() -> None:
    stream = FakeStream()
    read, pongs, pings = reader(stream)
    stream.feed.put(start())
    msg, received = read.read()
    assert msg.WhichOneof("message") == "game_start"
    read.busy_since = received  # the bot thinks from here on ...
    for msg in (ping(1), ping(2), request(1), ping(3)):
        stream.feed.put(msg)
    wait_for(lambda: pongs == [1, 2])  # ... and its pings are answered meanwhile
    time.sleep(0.05)  # the pings holds the request for the bot, it does not handle it
    read.busy_since = None  # done thinking
    msg, _ = read.read()
    assert msg.move_request.request_id == 1
    assert "pings" in stream.readers
    stream.feed.put(request(2))
    msg, _ = read.read()
    assert msg.move_request.request_id == 2 and pongs == [1, 2, 3]
    stream.feed.put(None)
    assert read.read() is _END
    read.close()
    pings.join(1)
    assert not pings.is_alive()


def test_a_broken_stream_is_reported_to_the_bot_even_while_it_is_busy() -> None:
    stream = FakeStream()
    read, _, pings = reader(stream)
    read.busy_since = time.monotonic()
    stream.feed.put(Broken("the referee went away"))
    wait_for(lambda: not pings.is_alive())  # the pings read the break and stopped
    error, _ = read.read()
    assert isinstance(error, Broken)
