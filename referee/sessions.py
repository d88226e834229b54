"""Bot sessions: one per connected bot stream, and the hub that matches streams to seats.

A session wraps the server side of one `BotService.Connect` stream after a successful Hello. It
owns the stream's writes (serialised: the match and the keep-alive pinger share the stream) and
routes what the bot sends: move replies to the one outstanding request, pongs to the pinger.
Every wait on a bot is bounded by a timer; nothing here can hang on a silent bot.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from referee.alarm import Alarm
from referee.clocks import SeatClock
from referee.faults import BotFault, Termination
from referee.protocol import bot_pb2
from referee.tokens import TokenFile

__all__ = ["BotFault", "BotSession", "Reply", "SessionHub"]  # BotFault's home is referee.faults

_perf = time.perf_counter

# Freezing and thawing a bot wakes every thread it has (a Python or Node gRPC bot has about 9):
# some 30 us in each of the referee's writes to its cgroup's freezer (more with signals) and 80
# us of the bot's CPU per move, which is more than a whole move of two fast bots. So a bot whose
# last wait between its moves was shorter than FREEZE_GRACE is frozen only if its next request
# has not come twice that wait after its answer (FREEZE_GRACE_MIN at least, FREEZE_GRACE at
# most); where the others think longer it is frozen as its answer arrives. Off its turn it can
# thus use at most twice the game's recent pace of CPU.
FREEZE_GRACE = 0.010
FREEZE_GRACE_MIN = 0.002

# The cpu clock reads a bot's CPU counter when its move is asked for and answered, and in
# between looks again only when the bot could have spent the rest of its limit by then with
# every core busy (CPU_CHECK_MIN at the soonest): a few reads of a few microseconds per move.
CPU_CHECK_MIN = 0.005
_CORES = max(1, os.cpu_count() or 1)


class Freezer(Protocol):
    """What stops a bot's processes between its moves (referee.launcher.BotProcess)."""

    frozen: bool

    def freeze(self) -> None: ...

    def thaw(self) -> None: ...


@dataclass
class Reply:
    """A bot's answer to a move request and when it arrived (perf_counter seconds)."""

    msg: bot_pb2.MoveReply
    received: float
    cpu: float | None = None  # CPU seconds the bot used for it (the cpu clock only)


def _consume(fut: asyncio.Future[Any]) -> None:
    """Mark a future's fault as seen: a fault set after its waiter stopped waiting (the write
    failed first) is reported by the waiter's own raise, not by asyncio at exit."""
    if fut.done() and not fut.cancelled():
        fut.exception()


class BotSession:
    """The referee's side of one bot stream, after the handshake."""

    def __init__(self, context: Any, hello: bot_pb2.ConnectRequest, token: str) -> None:
        self._context = context
        self.token = token
        self.name = (hello.hello.bot_name or "bot")[:64]  # it lands in logs and the store
        self.version = hello.hello.bot_version
        self.rulesets = tuple(hello.hello.rulesets)
        self._loop = asyncio.get_running_loop()
        self.closed: asyncio.Future[str] = self._loop.create_future()
        self._write_lock = asyncio.Lock()
        self._request_id = 0
        self._pending: asyncio.Future[Reply] | None = None
        # The move request the bot has not answered yet, even after its deadline (0: none): no
        # pings until it does (Welcome.quiet_while_thinking).
        self._owed = 0
        self._no_move_owed = asyncio.Event()
        self._no_move_owed.set()
        self._pings: dict[int, asyncio.Future[float]] = {}
        self.pongs = 0
        self.busy = False  # leased to a game
        # Set when the bot gets CPU only while it owes a move: thawed just before each request
        # is sent (its clock starts after), frozen as its reply (or its deadline) arrives, or
        # a little later while its waits between moves are short (`_rest`).
        self.freezer: Freezer | None = None
        self._answered = 0.0  # when its last turn ended (perf_counter seconds; 0: never)
        self._last_wait = float("inf")  # from that to its next request: unknown, so frozen at once
        self._freeze_later = Alarm(self._loop)  # the freeze put off by a grace (`_rest`)...
        self._resting: Freezer | None = None  # ...of this freezer
        # The move's deadline (on the cpu clock: the next look at the bot's CPU counter).
        self._deadline = Alarm(self._loop)
        # The CPU seconds the bot's processes have used so far (its cgroup's counter), for the
        # cpu clock; None where the referee did not launch it in a cgroup.
        self.cpu_counter: Callable[[], float | None] | None = None

    @property
    def alive(self) -> bool:
        return not self.closed.done()

    # -- writing -------------------------------------------------------------------------------

    async def send(self, msg: bot_pb2.ConnectResponse, timeout: float = 2.0) -> None:
        """Write one message, bounded by `timeout` (a bot that never reads fills the window)."""
        if not self.alive:
            raise BotFault(self.closed.result())
        try:
            async with asyncio.timeout(timeout):
                async with self._write_lock:
                    await self._context.write(msg)
        except TimeoutError:
            raise BotFault(Termination.TIMEOUT, "the bot does not read its stream") from None
        except Exception as exc:  # the stream broke under us
            self._close(Termination.DISCONNECT)
            raise BotFault(Termination.DISCONNECT, str(exc)) from None

    async def request_move(  # noqa: C901, PLR0915  # the hot path of every move: one frame
        self,
        msg: bot_pb2.ConnectResponse,
        clock: SeatClock,
    ) -> tuple[Reply, float]:
        """Send `msg` (a ConnectResponse holding a move request, whose request id is set here)
        and wait at most the `clock`'s wall deadline (measured here) for its reply; on the cpu
        clock, a timeout too as soon as the bot's processes have used more CPU seconds than its
        limit (the reply's `cpu` is what they used; needs `cpu_counter`).

        Returns the reply and the time it took. Raises BotFault (timeout, malformed, disconnect).
        """
        timeout, cpu_limit = clock.wall_deadline(), clock.cpu_limit()
        loop = self._loop
        self._request_id += 1
        msg.move_request.request_id = self._request_id
        fut: asyncio.Future[Reply] = loop.create_future()
        self._pending = fut
        # One alarm covers the write and the wait: far cheaper per move than asyncio.wait_for's
        # extra task.
        task = asyncio.current_task(loop)
        writing = True
        expired = False

        def expire(why: str = "") -> None:
            nonlocal expired
            expired = True
            if writing and task is not None:
                task.cancel()
            elif not fut.done():
                fut.set_exception(clock.timeout(why))

        counter = self.cpu_counter if cpu_limit is not None else None
        cpu_start = counter() if counter is not None else None  # before it runs again
        freezer = self.freezer
        if freezer is not None:
            self._wake(freezer)
        sent = _perf()
        # One alarm at a time: the deadline, or (cpu clock) the next look at the CPU counter,
        # which also watches the wall-clock ceiling.
        alarm = self._deadline
        if counter is None or cpu_start is None or cpu_limit is None:
            alarm.set(loop.time() + timeout, expire)
        else:
            start, limit, ceiling = cpu_start, cpu_limit, loop.time() + timeout

            def check() -> None:
                used = (counter() or start) - start
                if used > limit:
                    expire(f"used {used:.3f}s of CPU")
                elif loop.time() >= ceiling - 0.001:  # call_at may fire a hair early
                    expire(f"no answer within the cpu clock's wall-clock ceiling of {timeout:.3f}s")
                else:
                    wait = max(CPU_CHECK_MIN, (limit - used) / _CORES)
                    alarm.set(min(ceiling, loop.time() + wait), check)

            alarm.set(min(ceiling, loop.time() + max(CPU_CHECK_MIN, limit / _CORES)), check)
        overdue = False
        try:
            self._owe(self._request_id)
            try:
                if self._write_lock.locked():
                    async with self._write_lock:
                        await self._context.write(msg)
                else:
                    await self._context.write(msg)
            except asyncio.CancelledError:
                if expired:
                    if task is not None:
                        task.uncancel()
                    raise clock.timeout("the bot does not read its stream") from None
                raise
            except Exception as exc:
                self._close(Termination.DISCONNECT)
                raise BotFault(Termination.DISCONNECT, str(exc)) from None
            writing = False
            if expired:
                raise clock.timeout()
            reply = await fut
            if counter is not None and cpu_start is not None:
                reply.cpu = (counter() or cpu_start) - cpu_start
        except BotFault as fault:
            overdue = fault.kind is Termination.TIMEOUT
            raise
        finally:
            alarm.clear()
            if freezer is not None and self.alive:  # its turn is over, answered or not
                self._rest(freezer, at_once=overdue)
            self._pending = None
            if not overdue:  # answered, or the stream is gone; an overdue bot still thinks
                self._owe(0)
            _consume(fut)
        return reply, reply.received - sent

    def _wake(self, freezer: Freezer) -> None:
        """Its turn begins: a freeze put off is cancelled, a frozen bot thawed."""
        self._freeze_later.clear()
        if self._answered:
            self._last_wait = _perf() - self._answered
        freezer.thaw()

    def _rest(self, freezer: Freezer, at_once: bool = False) -> None:
        """Its turn is over: freeze it now, or a little later when its last wait between moves
        was shorter than FREEZE_GRACE (then its next request usually comes first, and the freeze
        and thaw are saved). An overdue bot, still thinking, is frozen at once."""
        if freezer.frozen or self._freeze_later.is_set:
            return
        self._answered = _perf()
        if at_once or self._last_wait >= FREEZE_GRACE:
            freezer.freeze()
        else:
            delay = min(FREEZE_GRACE, max(FREEZE_GRACE_MIN, 2 * self._last_wait))
            self._resting = freezer
            self._freeze_later.set(self._loop.time() + delay, self._freeze_now)

    def _freeze_now(self) -> None:
        if self.alive and self._resting is not None:
            self._resting.freeze()

    def _owe(self, request_id: int) -> None:
        """Note which move request the bot owes (0: none), for the keepalive."""
        self._owed = request_id
        if request_id:
            self._no_move_owed.clear()
        else:
            self._no_move_owed.set()

    # -- reading (driven by the server's Connect handler) ---------------------------------------

    def dispatch(self, msg: bot_pb2.ConnectRequest, received: float) -> None:
        """Route one message from the bot."""
        kind = msg.WhichOneof("message")
        if kind == "move_reply":
            reply = msg.move_reply
            fut = self._pending
            if reply.request_id > self._request_id or reply.request_id <= 0:
                self._fault_pending(
                    Termination.MALFORMED,
                    f"reply to request {reply.request_id}, which was never sent",
                )
            elif reply.request_id < self._request_id:
                # A late answer to a request that already timed out: that fault is counted
                # already, and the bot may still answer the current request in time.
                pass
            elif fut is not None and not fut.done():
                if self.freezer is not None:  # as its answer arrives, not when the game reads it
                    self._rest(self.freezer)
                fut.set_result(Reply(reply, received))
            elif reply.request_id == self._owed:  # the late answer to the last request
                self._owe(0)
        elif kind == "pong":
            self.pongs += 1
            ping = self._pings.pop(msg.pong.nonce, None)
            if ping is not None and not ping.done():
                ping.set_result(received)
        else:
            self._fault_pending(Termination.MALFORMED, f"unexpected {kind or 'empty message'}")

    def _fault_pending(self, kind: str, detail: str) -> None:
        fut = self._pending
        if fut is not None and not fut.done():
            fut.set_exception(BotFault(kind, detail))

    def _close(self, reason: str, detail: str = "the stream closed") -> None:
        # A closed stream's process must stay free to end.
        self._freeze_later.close()
        if not self.closed.done():
            self.closed.set_result(reason)
        self._owe(0)  # nothing is owed on a closed stream: the keepalive ends
        self._fault_pending(reason, detail)
        for ping in self._pings.values():
            if not ping.done():
                ping.set_exception(BotFault(reason))

    def stream_ended(
        self, reason: str = Termination.DISCONNECT, detail: str = "the stream closed"
    ) -> None:
        """The stream is gone (the bot closed it, its process died, or the server stops)."""
        self._close(reason, detail)

    # -- liveness ------------------------------------------------------------------------------

    async def ping(self, timeout: float = 1.0) -> float:
        """Round trip of one Ping in seconds; raises BotFault on timeout or a closed stream."""
        nonce = secrets.randbits(63)
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._pings[nonce] = fut
        sent = _perf()
        try:
            await self.send(bot_pb2.ConnectResponse(ping=bot_pb2.Ping(nonce=nonce)), timeout)
            async with asyncio.timeout(timeout):
                return await fut - sent
        except TimeoutError:
            raise BotFault(Termination.TIMEOUT, "no pong") from None
        finally:
            self._pings.pop(nonce, None)
            _consume(fut)

    async def keepalive(self, interval: float, timeout: float) -> None:
        """Ping every `interval` seconds, but never while the bot owes a move, even past its
        deadline (until its late reply): its clock covers that time, and the bot may think
        without reading its stream (Welcome.quiet_while_thinking). Close on silence."""
        owed = self._no_move_owed
        while self.alive:
            await asyncio.sleep(interval)
            while not owed.is_set():  # woken when the move is answered; it may be owed again
                await owed.wait()
            if self.freezer is not None and (self.freezer.frozen or self._freeze_later.is_set):
                continue  # a frozen bot cannot answer (nor one about to be); its exit is watched
            try:
                await self.ping(timeout)
            except BotFault:
                self._close(Termination.DISCONNECT, f"no Pong within {timeout:g} s")
                return


class SessionHub:
    """Matches incoming Hellos to the seats waiting for them, by token.

    Tokens issued by the launcher look like `SLOT.SECRET`: a Hello that names a known slot with the
    wrong secret is a `bad_token` for that slot (so the seat learns why at once), an unknown slot
    is rejected. Remote bots may also be expected under an exact token chosen by the caller.
    """

    def __init__(self, tokens: TokenFile | None = None) -> None:
        self._waiting: dict[str, tuple[str, asyncio.Future[BotSession]]] = {}
        # Issued tokens (referee.tokens): a bot with one is that entry, one connection at a time;
        # one that arrives before its match waits, parked, until a seat asks for its name.
        self.tokens = tokens
        self._in_use: set[str] = set()
        self._parked: dict[str, asyncio.Future[BotSession]] = {}

    def issue(self) -> tuple[str, asyncio.Future[BotSession]]:
        """A fresh token and the future its session will resolve."""
        slot, secret = secrets.token_hex(6), secrets.token_hex(12)
        return f"{slot}.{secret}", self.expect(f"{slot}.{secret}")

    def expect(self, token: str) -> asyncio.Future[BotSession]:
        """A future resolved with the session that says Hello with `token` (with issued
        tokens: the entry's name, resolved at once if its bot is connected and waiting)."""
        parked = self._parked.pop(token, None)
        if (
            parked is not None
            and parked.done()
            and not parked.cancelled()
            and parked.exception() is None
            and parked.result().alive
        ):
            return parked
        slot, _, secret = token.partition(".")
        fut: asyncio.Future[BotSession] = asyncio.get_running_loop().create_future()
        self._waiting[slot] = (secret, fut)
        return fut

    def forget(self, token: str) -> None:
        """Stop waiting for `token` (the seat gave up on it)."""
        self._waiting.pop(token.partition(".")[0], None)

    def claim(self, token: str) -> tuple[asyncio.Future[BotSession] | None, str]:
        """Look a Hello's token up: (the waiting future, "") or (future or None, fault name:
        bad_token, or in_use for an issued token already connected)."""
        slot, _, secret = token.partition(".")
        if self.tokens is not None and slot in self.tokens.digests:
            return self._claim_issued(token, slot)
        entry = self._waiting.get(slot)
        if entry is None or entry[1].done():
            return None, "bad_token"
        if not secrets.compare_digest(entry[0], secret):
            return entry[1], "bad_token"
        del self._waiting[slot]
        return entry[1], ""

    def _claim_issued(self, token: str, name: str) -> tuple[asyncio.Future[BotSession] | None, str]:
        assert self.tokens is not None
        if self.tokens.check(token) != name:
            return None, "bad_token"
        if name in self._in_use:
            return None, "in_use"
        self._in_use.add(name)
        waiting = self._waiting.pop(name, None)
        if waiting is not None and not waiting[1].done():
            return waiting[1], ""
        parked: asyncio.Future[BotSession] = asyncio.get_running_loop().create_future()
        self._parked[name] = parked
        return parked, ""

    def release(self, token: str) -> None:
        """The stream of `token` ended: an issued token may connect again."""
        name = token.partition(".")[0]
        if self.tokens is not None and name in self._in_use:
            self._in_use.discard(name)
            parked = self._parked.get(name)
            if parked is not None and (
                not parked.done()
                or parked.cancelled()
                or parked.exception() is not None
                or not parked.result().alive
            ):
                del self._parked[name]
