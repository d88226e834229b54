"""The referee's gRPC server (grpc.aio): the bot stream, the referee API, health and reflection.

One server holds many matches at once: every bot stream is a `BotSession`; matches (see
`referee.match`) borrow sessions and never block each other, because every wait on a bot has a
timer. The RunMatch/WatchMatch API is served by whatever runs matches (the `Arena`), handed in as
`run_match`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from referee.protocol import PROTOCOL_VERSION, bot_pb2, bot_pb2_grpc, referee_pb2, referee_pb2_grpc
from referee.sessions import BotSession, SessionHub
from referee.tokens import TokenFile

log = logging.getLogger("referee.server")

REFEREE_NAME = "azul-arena-referee/0.1"

# Small, frequent messages: no compression, and keep-alive at the HTTP/2 level so that a vanished
# remote peer is noticed even between games.
# A bot's messages are a few hundred bytes; a hostile one could send megabytes per message.
MAX_BOT_MESSAGE = 64 * 1024
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_BOT_MESSAGE),
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.max_pings_without_data", 0),
    ("grpc.keepalive_permit_without_calls", 1),
]


class BotServicer(bot_pb2_grpc.BotServiceServicer):
    """`BotService.Connect`: the handshake, then the read loop of one bot stream."""

    def __init__(self, hub: SessionHub, hello_timeout: float = 30.0) -> None:
        self.hub = hub
        self.hello_timeout = hello_timeout

    async def Connect(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:  # noqa: N802
        try:
            first = await asyncio.wait_for(context.read(), self.hello_timeout)
        except (TimeoutError, grpc.aio.AioRpcError):
            return
        if first is grpc.aio.EOF:
            return
        if first.WhichOneof("message") != "hello":
            await self._reject(context, bot_pb2.REJECTION_REASON_MALFORMED,
                               "the first message must be a Hello")
            return
        hello = first.hello
        waiter, fault = self.hub.claim(hello.token)
        try:
            await self._serve(context, first, waiter, fault)
        finally:
            if not fault:
                self.hub.release(hello.token)

    async def _serve(self, context: grpc.aio.ServicerContext, first: Any,
                     waiter: asyncio.Future[BotSession] | None, fault: str) -> None:
        hello = first.hello
        if not fault and hello.protocol_version != PROTOCOL_VERSION:
            fault = "version_mismatch"
        if fault:
            from referee.sessions import BotFault

            if waiter is not None and not waiter.done():
                waiter.set_exception(BotFault(fault, f"Hello from {hello.bot_name!r}"))
            reason = (bot_pb2.REJECTION_REASON_VERSION_MISMATCH if fault == "version_mismatch"
                      else bot_pb2.REJECTION_REASON_BAD_TOKEN)
            text = (f"this referee speaks protocol {PROTOCOL_VERSION}, not "
                    f"{hello.protocol_version}" if fault == "version_mismatch"
                    else "this token is in use by another connection" if fault == "in_use"
                    else "unknown or wrong token")
            await self._reject(context, reason, text)
            return
        session = BotSession(context, first, hello.token)
        try:
            # Quiet while thinking: BotSession.keepalive pings no bot that owes a move.
            await session.send(bot_pb2.ConnectResponse(welcome=bot_pb2.Welcome(
                protocol_version=PROTOCOL_VERSION, referee=REFEREE_NAME,
                quiet_while_thinking=True)))
        except Exception:
            session.stream_ended()
            return
        if waiter is not None and not waiter.done():
            waiter.set_result(session)
        else:  # the seat gave up waiting (start-up timeout) before this Hello came
            session.stream_ended()
            return
        perf = time.perf_counter
        dispatch = session.dispatch
        try:
            while True:
                msg = await context.read()
                if msg is grpc.aio.EOF:
                    break
                dispatch(msg, perf())
        except asyncio.CancelledError:
            session.stream_ended()
            raise
        except Exception as exc:  # a broken stream, an undecodable or oversized message
            log.info("stream of %s ended: %s", session.name, exc)
            code = exc.code() if isinstance(exc, grpc.aio.AioRpcError) else None
            if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
                session.stream_ended("malformed", f"a message over {MAX_BOT_MESSAGE} bytes")
                return
        session.stream_ended()

    @staticmethod
    async def _reject(context: grpc.aio.ServicerContext, reason: bot_pb2.RejectionReason,
                      text: str) -> None:
        try:
            await asyncio.wait_for(context.write(bot_pb2.ConnectResponse(
                rejection=bot_pb2.Rejection(reason=reason, message=text))), 2.0)
        except Exception:
            pass


RunMatch = Callable[[referee_pb2.RunMatchRequest], Awaitable[referee_pb2.RunMatchResponse]]


class RefereeServicer(referee_pb2_grpc.RefereeServiceServicer):
    """`RefereeService`: run a match, watch a match's events."""

    def __init__(self, run_match: RunMatch | None, board: MatchBoard) -> None:
        self._run_match = run_match
        self._board = board

    async def RunMatch(self, request: referee_pb2.RunMatchRequest,  # noqa: N802
                       context: grpc.aio.ServicerContext) -> referee_pb2.RunMatchResponse:
        if self._run_match is None:
            await context.abort(grpc.StatusCode.UNIMPLEMENTED, "this referee runs no matches")
        assert self._run_match is not None
        try:
            return await self._run_match(request)
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise

    async def WatchMatch(self, request: referee_pb2.WatchMatchRequest,  # noqa: N802
                         context: grpc.aio.ServicerContext
                         ) -> AsyncIterator[referee_pb2.WatchMatchResponse]:
        async for event in self._board.watch(request.match_id):
            yield event


class MatchBoard:
    """The events of every match this server runs, for spectators (kept while the server runs)."""

    def __init__(self, keep: int = 200) -> None:
        self._events: dict[str, list[referee_pb2.WatchMatchResponse]] = {}
        self._done: set[str] = set()
        self._changed = asyncio.Condition()
        self._keep = keep

    async def publish(self, match_id: str, event: referee_pb2.WatchMatchResponse,
                      final: bool = False) -> None:
        events = self._events.setdefault(match_id, [])
        event.match_id, event.sequence = match_id, len(events)
        events.append(event)
        if final:
            self._done.add(match_id)
            while len(self._done) > self._keep:  # forget the oldest finished matches
                old = next(iter(self._events))
                self._events.pop(old, None)
                self._done.discard(old)
        async with self._changed:
            self._changed.notify_all()

    async def watch(self, match_id: str) -> AsyncIterator[referee_pb2.WatchMatchResponse]:
        sent = 0
        while True:
            events = self._events.get(match_id, [])
            while sent < len(events):
                yield events[sent]
                sent += 1
            if match_id in self._done:
                return
            async with self._changed:
                await self._changed.wait()


SERVICE_NAMES = [bot_pb2.DESCRIPTOR.services_by_name["BotService"].full_name,
                 referee_pb2.DESCRIPTOR.services_by_name["RefereeService"].full_name,
                 health.SERVICE_NAME, reflection.SERVICE_NAME]


class RefereeServer:
    """A running grpc.aio referee: bot stream + referee API + health + reflection."""

    def __init__(self, listen: str, run_match: RunMatch | None = None, *,
                 also: list[str] | None = None, keepalive: bool = True,
                 tls: tuple[bytes, bytes] | None = None, tokens: TokenFile | None = None
                 ) -> None:
        """`also`: more addresses to listen on (the Arena's own socket, for the bots it starts,
        beside a TCP port); `keepalive`: HTTP/2 pings to idle peers (off where bots are frozen
        between moves: they could not answer); `tls`: (certificate chain, private key) in PEM
        for `listen`; `tokens`: the issued tokens remote entries say Hello with."""
        self.listen = listen
        self.tls = tls
        self.also = list(also or [])
        self.keepalive = keepalive
        self.hub = SessionHub(tokens)
        self.board = MatchBoard()
        self._run_match = run_match
        self._server: grpc.aio.Server | None = None
        self._servers: list[grpc.aio.Server] = []
        self.port = 0

    @property
    def address(self) -> str:
        """The address bots dial (`unix:/path` or `host:port`)."""
        if self.listen.startswith("unix:"):
            return self.listen
        host = self.listen.rsplit(":", 1)[0]
        host = "127.0.0.1" if host in ("", "0.0.0.0", "[::]") else host
        return f"{host}:{self.port}"

    def _grpc_server(self, keepalive: bool) -> tuple[grpc.aio.Server, Any]:
        """A grpc server with every service on this referee's state, and its health servicer."""
        options = SERVER_OPTIONS if keepalive else [
            *(o for o in SERVER_OPTIONS if not o[0].startswith("grpc.keepalive")),
            ("grpc.keepalive_time_ms", 2**31 - 1), ("grpc.keepalive_permit_without_calls", 1)]
        server = grpc.aio.server(options=options)
        bot_pb2_grpc.add_BotServiceServicer_to_server(BotServicer(self.hub), server)
        referee_pb2_grpc.add_RefereeServiceServicer_to_server(
            RefereeServicer(self._run_match, self.board), server)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        reflection.enable_server_reflection(SERVICE_NAMES, server)
        return server, health_servicer

    async def start(self) -> None:
        server, health_servicer = self._grpc_server(self.keepalive)
        if self.tls is not None:
            credentials = grpc.ssl_server_credentials([(self.tls[1], self.tls[0])])
            self.port = server.add_secure_port(self.listen, credentials)
        else:
            self.port = server.add_insecure_port(self.listen)
        if not self.listen.startswith("unix:") and self.port == 0:
            raise OSError(f"cannot listen on {self.listen}")
        servers = [(server, health_servicer)]
        if self.also:  # the Arena's own bots: no HTTP/2 keepalive (they may be frozen)
            local, local_health = self._grpc_server(False)
            for address in self.also:
                local.add_insecure_port(address)
            servers.append((local, local_health))
        for each, each_health in servers:
            await each.start()
            for name in SERVICE_NAMES[:2] + [""]:
                await each_health.set(name, health_pb2.HealthCheckResponse.SERVING)
        self._servers = [each for each, _ in servers]
        self._server = server

    async def stop(self, grace: float = 0.5) -> None:
        for server in self._servers:
            await server.stop(grace)
        self._servers = []
        self._server = None

    async def wait(self) -> None:
        if self._server is not None:
            await self._server.wait_for_termination()
