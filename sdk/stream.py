"""A bot's one gRPC stream to the referee, run from the bot's own thread.

The stream is a grpc.aio call on an event loop of its own, and the bot's thread runs that loop
itself, inside `read()`. How a move request is answered depends on what the referee promised in
its Welcome:

- *Quiet while thinking* (this project's referee): no Ping comes while the bot owes a move. A
  move request that arrives while the bot's thread waits on the stream is then answered by the
  loop itself, which calls the bot's move handler and sends its reply: no thread hand-off and no
  stop of the loop (docs/protocol.md, Latency).
- Otherwise, and for every other message (game start, game over, ...): the loop stops and
  `read()` hands the message to the caller. While the caller's code runs (thinking, or in a hook),
  the loop stands still; if that lasts longer than a poll interval (50-100 ms), a pings thread
  runs the loop instead: it answers the referee's pings and keeps every other message, in order,
  for the next `read()`. So a slow hook never misses a ping.

Bot code always runs on the thread that calls `read()`. One lock says who runs the loop; only its
holder touches the loop's objects, the other thread asks through `call_soon_threadsafe` (it only
looks at the two message queues, deques that are safe to read from any thread). The caller's
claim wins: once its thread asks for the loop back, the pings thread does not run it again, even
where it gets the lock first (a lock is not handed to the thread that waited for it: one slow to
wake, waiting for a core or frozen by the referee between its moves, can lose it).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

END = object()  # what read() returns once the referee closed the stream

# The move handler: (MoveRequest envelope, monotonic time it arrived) -> the reply to send.
MoveHandler = Callable[[Any, float], Any]


class Unreachable(Exception):
    """No referee answered at the address."""


class _Raised:
    """What the move handler raised (it handles a bot's own errors itself: this is SystemExit,
    KeyboardInterrupt or an SDK bug), for read() to raise in the caller's frame rather than lose
    in the loop."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _wake(waiter: asyncio.Future[None] | None) -> None:
    """Resolve `waiter` if someone still waits on it."""
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


def open_channel(grpc: Any, address: str) -> Any:
    """A channel to the referee: TLS when AZUL_ARENA_TLS_CA names the certificate (or its CA)
    that the referee serves with (`referee serve --tls-cert`), or is `system` (the system's
    roots); else plain."""
    ca = os.environ.get("AZUL_ARENA_TLS_CA", "")
    if not ca:
        return grpc.aio.insecure_channel(address)
    try:
        roots = None if ca == "system" else open(ca, "rb").read()
    except OSError as exc:
        raise Unreachable(f"cannot read the referee's certificate {ca}: {exc.strerror}") from None
    return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(roots))


class BotStream:
    """The bot's side of `BotService.Connect` (see the module docstring).

    `read()` gives the next message for the caller, as (message, time.monotonic() when it
    arrived); (error, 0.0) when the stream broke; END when it ended. `send()` queues a message.
    Set `answer_moves` once the referee's Welcome says quiet_while_thinking.
    """

    def __init__(
        self,
        address: str,
        hello: Any,
        on_move: MoveHandler,
        connect_timeout: float = 30.0,
        poll: float = 0.05,
    ) -> None:
        """Connect to the referee at `address` (`unix:/path` or `host:port`) and send `hello`;
        raises Unreachable when nothing answers within `connect_timeout` seconds."""
        import grpc

        from referee.protocol import bot_pb2
        from referee.protocol.loop import new_loop

        self._grpc = grpc
        self._pong: Callable[[int], Any] = lambda nonce: bot_pb2.ConnectRequest(
            pong=bot_pb2.Pong(nonce=nonce)
        )
        self._on_move = on_move
        self.answer_moves = False  # call on_move from the loop (quiet while thinking)
        self._inbox: deque[Any] = deque()  # messages for the caller, in order
        self._outbox: deque[Any] = deque()  # messages for the referee, in order
        self._more: asyncio.Future[None] | None = None  # the write loop waits on it for more
        self._drained: asyncio.Future[None] | None = None  # set when the outbox empties
        self._write_failed = False
        self._lock = threading.Lock()  # held by whoever runs the loop
        self._caller_waits = False  # the caller's thread runs the loop, waiting for a message
        self._away_since: float | None = None  # monotonic() when the caller left read()
        self._caller_back = False  # the caller's thread wants the loop back (module docstring)
        self._ended = False
        self._closed = threading.Event()
        self._loop = loop = new_loop()
        with self._lock:
            try:
                self._channel, self._call = loop.run_until_complete(
                    self._connect(address, hello, connect_timeout, bot_pb2)
                )
            except BaseException:
                loop.close()
                raise
            self._tasks = [
                loop.create_task(self._read_loop()),
                loop.create_task(self._write_loop()),
            ]
        self._pings = threading.Thread(
            target=self._answer_pings_while_away, args=(poll,), name="azul-arena-pings", daemon=True
        )
        self._pings.start()

    async def _connect(
        self, address: str, hello: Any, timeout: float, bot_pb2: Any
    ) -> tuple[Any, Any]:
        grpc = self._grpc
        channel = open_channel(grpc, address)
        try:
            await asyncio.wait_for(channel.channel_ready(), timeout)
        except TimeoutError:
            await channel.close()
            raise Unreachable(
                f"cannot reach the referee at {address} (waited {timeout:g} s):"
                " is it running, and is the address right?"
            ) from None
        request, response = bot_pb2.ConnectRequest, bot_pb2.ConnectResponse
        connect = channel.stream_stream(
            "/azul_arena.v1.BotService/Connect",
            request_serializer=request.SerializeToString,
            response_deserializer=response.FromString,
        )
        call = connect(wait_for_ready=True)
        try:
            await call.write(hello)  # on the wire before the constructor returns
        except grpc.aio.AioRpcError as exc:
            await channel.close()
            raise Unreachable(
                f"the referee at {address} closed the stream before the Hello: "
                f"{exc.details() or exc.code()}"
            ) from None
        return channel, call

    # -- the loop's side ------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        try:
            await self._read_messages()
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            self._deliver((exc, 0.0))

    async def _read_messages(self) -> None:
        call, grpc = self._call, self._grpc
        while True:
            try:
                msg = await call.read()
            except grpc.aio.AioRpcError as exc:
                # A cancelled call, or one grpc failed after a write it could not make (the
                # referee had closed the stream), has simply ended.
                ended = exc.code() == grpc.StatusCode.CANCELLED or (
                    self._write_failed and exc.code() == grpc.StatusCode.INTERNAL
                )
                self._deliver(END if ended else (exc, 0.0))
                return
            if msg is grpc.aio.EOF:
                self._deliver(END)
                return
            received = time.monotonic()
            kind = msg.WhichOneof("message")
            if kind == "ping":
                self._queue(self._pong(msg.ping.nonce))
            # Answered here only on the caller's thread while it waits on the stream, which is
            # only while nothing else waits for it: a move never overtakes an earlier message.
            elif kind == "move_request" and self.answer_moves and self._caller_waits:
                await self._drain()  # a pong queued just before leaves before the bot thinks
                # The bot's code sees no running loop, as between reads, so it may run one of
                # its own (_set_running_loop is asyncio's hook for loop implementations).
                asyncio._set_running_loop(None)
                try:
                    self._queue(self._on_move(msg, received))
                except BaseException as exc:
                    self._deliver(_Raised(exc))
                    return
                finally:
                    asyncio._set_running_loop(self._loop)
            else:
                self._deliver((msg, received))

    async def _drain(self) -> None:
        """Wait until the write loop has started to write everything queued (it may be
        finishing an earlier write)."""
        if self._outbox and not self._write_failed:
            self._drained = self._loop.create_future()
            await self._drained

    def _deliver(self, item: Any) -> None:
        if not isinstance(item, tuple) or isinstance(item[0], BaseException):
            self._ended = True  # the stream is over: later reads get END
        self._inbox.append(item)
        if self._caller_waits:  # hand the caller its message now (one stop: uvloop queues each)
            self._caller_waits = False
            self._loop.stop()

    def _queue(self, msg: Any) -> None:
        """Queue `msg` for the write loop (in the loop's thread)."""
        self._outbox.append(msg)
        _wake(self._more)

    async def _write_loop(self) -> None:
        outbox, write = self._outbox, self._call.write
        while True:
            while outbox:
                msg = outbox.popleft()
                if not outbox:
                    _wake(self._drained)  # its write starts below, before _drain resumes
                try:
                    if msg is END:
                        await self._call.done_writing()  # after all that was queued
                        return
                    await write(msg)
                except Exception:
                    self._write_failed = True
                    _wake(self._drained)  # nothing more will leave
                    return
            self._more = self._loop.create_future()
            await self._more

    # -- the caller's thread --------------------------------------------------------------------

    def read(self) -> Any:
        """The next message for the caller (see the class docstring), running the stream until
        one comes; what was sent since the last read leaves first."""
        inbox = self._inbox
        if not inbox or self._outbox:
            if not inbox and self._ended:
                return END
            self._take_loop()
            try:
                if inbox:  # turns of the loop until the sends have started
                    give_up = time.monotonic() + 1.0  # a referee that reads nothing: go on
                    while self._outbox and not self._ended and time.monotonic() < give_up:
                        self._loop.call_soon(self._loop.stop)
                        self._loop.run_forever()
                else:
                    while not inbox:
                        self._caller_waits = True
                        self._loop.run_forever()
            finally:
                self._caller_waits = False
                self._give_loop()
        item = inbox.popleft()
        if isinstance(item, _Raised):
            raise item.exc
        return item

    def send(self, msg: Any) -> None:
        """Queue `msg` for the referee: it leaves when the loop next runs (at once, when the
        pings thread runs it)."""
        if self._lock.acquire(blocking=False):
            try:
                self._queue(msg)
            finally:
                self._lock.release()
        else:
            self._loop.call_soon_threadsafe(self._queue, msg)

    def _take_loop(self) -> None:
        self._caller_back = True
        if not self._lock.acquire(blocking=False):
            self._loop.call_soon_threadsafe(self._hand_back)  # the pings thread runs it
            self._lock.acquire()
        self._caller_back = False
        self._away_since = None

    def _hand_back(self) -> None:
        """Stop the loop if the pings thread runs it (in the loop: a late call is harmless)."""
        if threading.current_thread() is self._pings:
            self._loop.stop()

    def _give_loop(self) -> None:
        self._away_since = time.monotonic()
        self._lock.release()

    def close(self) -> None:
        """Flush what was sent, close the stream and stop the pings thread."""
        self._closed.set()
        self._take_loop()
        try:
            loop = self._loop
            self._queue(END)
            # What was queued leaves, then the referee may end its side; a referee that does
            # not within the patience below is cut off.
            done = asyncio.wait(self._tasks, timeout=1.0, return_when=asyncio.ALL_COMPLETED)
            loop.run_until_complete(done)
            loop.run_until_complete(self._channel.close())
            for task in self._tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*self._tasks, return_exceptions=True))
            loop.close()
        finally:
            self._lock.release()
        self._pings.join(1.0)

    # -- the pings thread -----------------------------------------------------------------------

    def _answer_pings_while_away(self, poll: float) -> None:
        """Run the loop whenever the caller's thread has been away from read() for `poll` s."""
        while not self._closed.wait(poll):
            since = self._away_since
            if since is None or time.monotonic() - since < poll:
                continue
            if not self._lock.acquire(blocking=False):
                continue
            try:
                if not (self._closed.is_set() or self._caller_back or self._away_since is None):
                    self._loop.run_forever()  # until the caller's thread asks for it back
            finally:
                self._lock.release()
