"""The referee's gRPC server (grpc.aio): the bot stream, the referee API, health and reflection.

One server holds many matches at once: every bot stream is a `BotSession`; matches (see
`referee.match`) borrow sessions and never block each other, because every wait on a bot has a
timer. The RunMatch/WatchMatch API is served by whatever runs matches (the `Arena`), handed in as
`run_match`, and only where the operator alone may call it (`RefereeServer`, `referee.access`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import stat
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from referee.access import OperatorGuard, SeatRefused, is_loopback
from referee.faults import Termination
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

    def __init__(
        self, hub: SessionHub, *, streams: set[asyncio.Task[Any]], hello_timeout: float = 30.0
    ) -> None:
        self.hub = hub
        self.hello_timeout = hello_timeout
        # The tasks serving the streams still open (RefereeServer.stop waits for them).
        self.streams = streams

    async def Connect(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:  # noqa: N802
        task = asyncio.current_task()
        if task is not None:
            self.streams.add(task)
            task.add_done_callback(self.streams.discard)
        try:
            first = await asyncio.wait_for(context.read(), self.hello_timeout)
        except (TimeoutError, grpc.aio.AioRpcError):
            return
        if first is grpc.aio.EOF:
            return
        if first.WhichOneof("message") != "hello":
            await self._reject(
                context, bot_pb2.REJECTION_REASON_MALFORMED, "the first message must be a Hello"
            )
            return
        hello = first.hello
        waiter, fault = self.hub.claim(hello.token)
        try:
            await self._serve(context, first, waiter, fault)
        finally:
            if not fault:
                self.hub.release(hello.token)

    async def _serve(
        self,
        context: grpc.aio.ServicerContext,
        first: Any,
        waiter: asyncio.Future[BotSession] | None,
        fault: str,
    ) -> None:
        hello = first.hello
        if not fault and hello.protocol_version != PROTOCOL_VERSION:
            fault = "version_mismatch"
        if fault:
            from referee.sessions import BotFault

            if waiter is not None and not waiter.done():
                waiter.set_exception(BotFault(fault, f"Hello from {hello.bot_name!r}"))
            reason = (
                bot_pb2.REJECTION_REASON_VERSION_MISMATCH
                if fault == Termination.VERSION_MISMATCH
                else bot_pb2.REJECTION_REASON_BAD_TOKEN
            )
            text = (
                f"this referee speaks protocol {PROTOCOL_VERSION}, not {hello.protocol_version}"
                if fault == Termination.VERSION_MISMATCH
                else "this token is in use by another connection"
                if fault == "in_use"
                else "unknown or wrong token"
            )
            await self._reject(context, reason, text)
            return
        session = BotSession(context, first, hello.token)
        try:
            # Quiet while thinking: BotSession.keepalive pings no bot that owes a move.
            await session.send(
                bot_pb2.ConnectResponse(
                    welcome=bot_pb2.Welcome(
                        protocol_version=PROTOCOL_VERSION,
                        referee=REFEREE_NAME,
                        quiet_while_thinking=True,
                    )
                )
            )
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
                session.stream_ended(
                    Termination.MALFORMED, f"a message over {MAX_BOT_MESSAGE} bytes"
                )
                return
        session.stream_ended()

    @staticmethod
    async def _reject(
        context: grpc.aio.ServicerContext, reason: bot_pb2.RejectionReason, text: str
    ) -> None:
        try:
            await asyncio.wait_for(
                context.write(
                    bot_pb2.ConnectResponse(
                        rejection=bot_pb2.Rejection(reason=reason, message=text)
                    )
                ),
                2.0,
            )
        except Exception:
            pass


RunMatch = Callable[[referee_pb2.RunMatchRequest], Awaitable[referee_pb2.RunMatchResponse]]


class RefereeServicer(referee_pb2_grpc.RefereeServiceServicer):
    """`RefereeService`: run a match, watch a match's events."""

    def __init__(self, run_match: RunMatch | None, board: MatchBoard) -> None:
        self._run_match = run_match
        self._board = board

    async def RunMatch(
        self,
        request: referee_pb2.RunMatchRequest,
        context: grpc.aio.ServicerContext,
    ) -> referee_pb2.RunMatchResponse:
        if self._run_match is None:
            await context.abort(grpc.StatusCode.UNIMPLEMENTED, "this referee runs no matches")
        assert self._run_match is not None
        try:
            return await self._run_match(request)
        except SeatRefused as exc:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, str(exc))
            raise
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise

    async def WatchMatch(
        self,
        request: referee_pb2.WatchMatchRequest,
        context: grpc.aio.ServicerContext,
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

    async def publish(
        self, match_id: str, event: referee_pb2.WatchMatchResponse, final: bool = False
    ) -> None:
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


BOT_SERVICE = bot_pb2.DESCRIPTOR.services_by_name["BotService"].full_name
REFEREE_SERVICE = referee_pb2.DESCRIPTOR.services_by_name["RefereeService"].full_name
SERVICE_NAMES = [BOT_SERVICE, REFEREE_SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME]


# -- the network-exposure rule --------------------------------------------------------------------


class ExposureError(ValueError):
    """Serving as asked would expose the referee to the network in clear, or to no operator in
    particular: the message says what is exposed and how to close it, in `referee serve`'s
    options; from Python those are `Network.tls` (--tls-cert, --tls-key), `Network.tokens`
    (--tokens), `Network.api` and `Network.client_ca` (--api-listen, --tls-client-ca) and
    `Network.insecure` (--insecure)."""


@dataclass
class Exposure:
    """What a referee would expose, from its settings, before anything listens: `listen` (the
    bots' address and the API's, if any) and the `api` addresses, served with TLS or not, with
    how many operator tokens, with a client CA (mutual TLS on the `api` ports) or not."""

    listen: str | None
    api: list[str]
    tls: bool
    operators: int  # operator tokens in the tokens file
    client_ca: bool

    @classmethod
    def of(  # the settings that decide it, as the server takes them
        cls,
        listen: str | None,
        api: Sequence[str] = (),
        tls: object = None,
        tokens: TokenFile | None = None,
        client_ca: object = None,
    ) -> Exposure:
        """The exposure of a server with these settings (`tls` and `client_ca`: given or not)."""
        operators = len(tokens.operators) if tokens is not None else 0
        return cls(listen, list(api), tls is not None, operators, client_ca is not None)

    def addresses(self) -> list[str]:
        return [a for a in [self.listen, *self.api] if a]

    def problems(self) -> list[str]:
        """Why serving so is unsafe: each line what is exposed and how to close it."""
        out = []
        exposed = [a for a in self.addresses() if not is_loopback(a)]
        if exposed and not self.tls:
            out.append(
                f"{', '.join(exposed)} is reachable from the network, and without TLS "
                "the bots' and operators' tokens and every move cross it in clear: give "
                "--tls-cert and --tls-key"
            )
        mutual = self.client_ca and any(a in exposed for a in self.api)
        if exposed and not self.operators and not mutual:
            out.append(
                "there is no operator credential: RunMatch would refuse every caller. "
                "Issue one (`azul-arena referee token new NAME --operator --tokens F`, "
                "then --tokens F), or use --api-listen with --tls-client-ca"
            )
        return out

    def api_line(self, public_watch: bool) -> str:
        """Who may call RunMatch and WatchMatch, as the server's start-up lines say it."""
        where = []
        for address in self.addresses():
            if address.startswith("unix:"):
                where.append(
                    f"{address} (the socket file's owner only"
                    + (", with an operator token)" if self.operators else ")")
                )
            elif address in self.api and self.client_ca and self.tls:
                where.append(f"{address} (a client certificate of --tls-client-ca)")
            else:
                where.append(f"{address} (an operator token: {self.operators} issued)")
        watch = "; WatchMatch open to anyone (--public-watch)" if public_watch else ""
        return "referee API (RunMatch, WatchMatch): " + ", ".join(where) + watch


def refuse_exposure(exposure: Exposure, insecure: bool = False) -> list[str]:
    """The rule every referee server obeys before it listens: on an address reachable from the
    network, TLS and an operator credential (a token, or mutual TLS on an API port). Raises
    ExposureError saying what is exposed and how to close it; with `insecure` (a network the
    operator trusts entirely) returns the problems instead, for the caller to warn of."""
    problems = exposure.problems()
    if problems and not insecure:
        raise ExposureError(
            "refusing to serve: "
            + "; and ".join(problems)
            + ". (--insecure serves anyway: for a network you trust entirely)"
        )
    return problems


MAX_SOCKET_PATH = 107  # bytes: sun_path's room, its final NUL aside


def _private_to_us(folder: Path) -> bool:
    """Whether only this user may enter `folder` (a socket inside is nobody else's to dial)."""
    try:
        found = os.stat(folder)
    except OSError:
        return False
    return found.st_uid == os.getuid() and found.st_mode & 0o077 == 0


@contextlib.contextmanager
def _owner_only(address: str, renamed: list[tuple[Path, int]]) -> Iterator[str]:
    """Bind a Unix socket so that it is its owner's alone from the start; yields the address
    grpc binds. In a folder only its owner may enter (the Arena's), the address itself, the
    socket made 0600 after. Elsewhere, a path in a new 0700 folder beside it: made 0600 there,
    then renamed into place (over a stale socket, never over another kind of file), and noted
    in `renamed` with its inode for `stop` to remove (grpc removes the path it bound).

    Not the umask: it is the whole process's, and other threads (a ladder worker's validations,
    each with an Arena) would make their folders and files without permissions meanwhile."""
    path = Path(address.removeprefix("unix:"))
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        limit = f"a socket's path has at most {MAX_SOCKET_PATH} bytes"
        raise OSError(f"cannot listen on {address}: {limit}")
    if _private_to_us(path.parent):
        yield address
        _bound(address, path)
        os.chmod(path, 0o600)
        return
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise OSError(f"cannot listen on {address}: a file that is not a socket is there")
    try:
        private = Path(tempfile.mkdtemp(prefix=".", dir=path.parent))  # 0700
    except OSError as exc:
        raise OSError(f"cannot listen on {address}: {exc.strerror} ({path.parent})") from exc
    inside = private / "s"
    if len(os.fsencode(inside)) > MAX_SOCKET_PATH:
        private.rmdir()
        raise OSError(
            f"cannot listen on {address}: its folder's path is too long to bind it in private "
            f"(at most {MAX_SOCKET_PATH - 12} bytes; or give a folder only you may enter)"
        )
    try:
        yield f"unix:{inside}"
        _bound(address, inside)
        os.chmod(inside, 0o600)
        os.replace(inside, path)
        renamed.append((path, os.lstat(path).st_ino))
    finally:
        shutil.rmtree(private, ignore_errors=True)


def _bound(address: str, path: Path) -> None:
    if not path.exists():
        raise OSError(f"cannot listen on {address}")


class RefereeServer:
    """A running grpc.aio referee on one or more addresses, each serving what its callers may use:

    - `listen`: the bot stream (`BotService`), health and reflection, and the referee's own API
      (`RefereeService`) when there is a `run_match`; on TCP that API is the operator's alone
      (`referee.access.OperatorGuard`), on a Unix socket the socket is its owner's alone (and
      needs an operator token too once `tokens` has any);
    - `also`: the bot stream and health only, for the bots the Arena launches itself (this is the
      socket a sandbox binds in: no bot can reach the API that starts processes from it);
    - `api`: the referee's own API and health only (a Unix socket: its owner's alone; TCP: an
      operator token, or a client certificate signed by `client_ca` when that is given).
    """

    def __init__(  # noqa: PLR0913  # keyword-only options, each with a default
        self,
        listen: str,
        run_match: RunMatch | None = None,
        *,
        also: list[str] | None = None,
        keepalive: bool = True,
        tls: tuple[bytes, bytes] | None = None,
        tokens: TokenFile | None = None,
        api: list[str] | None = None,
        client_ca: bytes | None = None,
        public_watch: bool = False,
        listen_api: bool = True,
    ) -> None:
        """`also`: more addresses for bots (the Arena's own socket, beside a TCP port);
        `keepalive`: HTTP/2 pings to idle peers (off where bots are frozen between moves: they
        could not answer); `tls`: (certificate chain, private key) in PEM for `listen` and TCP
        `api` addresses; `tokens`: the issued tokens (remote entries say Hello with theirs,
        operators call the API with theirs); `client_ca`: TCP `api` addresses require a client
        certificate signed by it (mutual TLS); `public_watch`: WatchMatch needs no credential;
        `listen_api`: False serves the bot stream alone on `listen` too."""
        self.listen = listen
        self.tls = tls
        self.also = list(also or [])
        self.api = list(api or [])
        self.client_ca = client_ca
        self.keepalive = keepalive
        self.hub = SessionHub(tokens)
        self.board = MatchBoard()
        self.guard = OperatorGuard(tokens, public_watch)
        self._run_match = run_match
        self._listen_api = listen_api and run_match is not None
        # Once operators have tokens, a Unix socket asks for one too: at the `process` and
        # `none` levels bots run as this user, on this file system, and could dial it.
        self._operators = bool(tokens is not None and tokens.operators)
        self._server: grpc.aio.Server | None = None
        self._servers: list[grpc.aio.Server] = []
        self._renamed: list[tuple[Path, int]] = []  # sockets bound elsewhere, renamed in
        self._streams: set[asyncio.Task[Any]] = set()  # the bot streams being served
        self.port = 0
        self.api_ports: list[int] = []

    @property
    def address(self) -> str:
        """The address bots dial (`unix:/path` or `host:port`)."""
        return _dialable(self.listen, self.port)

    @property
    def api_addresses(self) -> list[str]:
        """The addresses an operator dials for the referee's own API, besides `address`."""
        return [_dialable(a, p) for a, p in zip(self.api, self.api_ports, strict=True)]

    def _grpc_server(
        self, keepalive: bool, bots: bool, api: bool, guarded: bool
    ) -> tuple[grpc.aio.Server, Any, list[str]]:
        """A grpc server with the services asked for on this referee's state, its health
        servicer and the names of what it serves."""
        options = (
            SERVER_OPTIONS
            if keepalive
            else [
                *(o for o in SERVER_OPTIONS if not o[0].startswith("grpc.keepalive")),
                ("grpc.keepalive_time_ms", 2**31 - 1),
                ("grpc.keepalive_permit_without_calls", 1),
            ]
        )
        server = grpc.aio.server(options=options, interceptors=[self.guard] if guarded else None)
        names = []
        if bots:
            # The generated registration functions carry no annotations (grpc_tools).
            bot_pb2_grpc.add_BotServiceServicer_to_server(  # type: ignore[no-untyped-call]
                BotServicer(self.hub, streams=self._streams), server
            )
            names.append(BOT_SERVICE)
        if api:
            referee_pb2_grpc.add_RefereeServiceServicer_to_server(  # type: ignore[no-untyped-call]
                RefereeServicer(self._run_match, self.board), server
            )
            names.append(REFEREE_SERVICE)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        reflection.enable_server_reflection(
            [*names, health.SERVICE_NAME, reflection.SERVICE_NAME], server
        )
        return server, health_servicer, names

    def _add_port(
        self, server: grpc.aio.Server, address: str, tls: bool, client_ca: bytes | None = None
    ) -> int:
        unix = address.startswith("unix:")
        bound = _owner_only(address, self._renamed) if unix else contextlib.nullcontext(address)
        with bound as bind:
            if tls and self.tls is not None:
                credentials = grpc.ssl_server_credentials(
                    [(self.tls[1], self.tls[0])],
                    root_certificates=client_ca,
                    require_client_auth=client_ca is not None,
                )
                port = server.add_secure_port(bind, credentials)
            else:
                port = server.add_insecure_port(bind)
        if port == 0 and not unix:
            raise OSError(f"cannot listen on {address}")
        return int(port)  # grpc is untyped

    async def start(self) -> None:
        tcp = not self.listen.startswith("unix:")
        main = self._grpc_server(
            self.keepalive,
            bots=True,
            api=self._listen_api,
            guarded=self._listen_api and (tcp or self._operators),
        )
        self.port = self._add_port(main[0], self.listen, tls=True)
        servers = [main]
        if self.also:  # the Arena's own bots: no HTTP/2 keepalive (they may be frozen)
            local = self._grpc_server(False, bots=True, api=False, guarded=False)
            for address in self.also:
                self._add_port(local[0], address, tls=False)
            servers.append(local)
        self.api_ports = []
        for address in self.api:
            unix = address.startswith("unix:")
            mutual = self.client_ca is not None and not unix and self.tls is not None
            each = self._grpc_server(
                True, bots=False, api=True, guarded=(not unix or self._operators) and not mutual
            )
            self.api_ports.append(
                self._add_port(
                    each[0], address, tls=True, client_ca=self.client_ca if mutual else None
                )
            )
            servers.append(each)
        for each, each_health, names in servers:
            await each.start()
            for name in [*names, ""]:
                await each_health.set(name, health_pb2.HealthCheckResponse.SERVING)
        self._servers = [each for each, _, _ in servers]
        self._server = main[0]

    async def stop(self, grace: float = 0.5) -> None:
        for server in self._servers:
            await server.stop(grace)
        # grpc has cancelled the streams still open, but their handlers (and grpc's own task
        # around each) end on the loop's next turns: a caller that closes the loop at once
        # (asyncio.run) would cancel those tasks under grpc, which prints a CancelledError
        # traceback from its `_schedule_rpc_coro` for each.
        if self._streams:
            await asyncio.wait(set(self._streams), timeout=max(grace, 0.1) + 1.0)
        await asyncio.sleep(0)  # grpc's task awaiting each handler ends on this turn
        self._servers = []
        self._server = None
        for path, inode in self._renamed:  # grpc removed the path it bound, not these
            with contextlib.suppress(OSError):
                if os.lstat(path).st_ino == inode:
                    path.unlink()
        self._renamed = []

    async def wait(self) -> None:
        if self._server is not None:
            await self._server.wait_for_termination()


def _dialable(listen: str, port: int) -> str:
    if listen.startswith("unix:"):
        return listen
    host = listen.rsplit(":", 1)[0]
    host = "127.0.0.1" if host in ("", "0.0.0.0", "[::]") else host
    return f"{host}:{port}"
