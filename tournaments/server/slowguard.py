"""gunicorn's threaded worker, bounded in time against slow clients (appserver.py runs it).

A gthread worker answers each request on one of its few threads, and the thread reads the
request with blocking socket reads: a client that sends half its headers, or announces a body
and trickles it (or never sends it), holds that thread for as long as it likes, and a few dozen
such connections hold every thread of the site. gunicorn bounds only the wait for a request's
first byte. GuardedWorker adds, with no proxy in front:

- a per-read timeout (RECV_SECONDS): a socket read or write that waits longer ends the
  connection;
- a deadline for the request line and headers (HEADER_SECONDS from the thread taking the
  request), and a minimum rate for the body (BODY_MIN_RATE bytes a second on average, after
  BODY_GRACE_SECONDS): a watchdog thread shuts the socket down when a read is blocked past
  them, which ends the blocked read (the request is then served like a client that hung up);
  the time the application spends between reads is not counted;
- a cap on one client address's open connections per worker (PER_ADDRESS; an IPv6 address's
  /64 counts as one): further connections are answered 503 and closed at once, so one address
  cannot hold every thread.

Refusals are logged at warning level (at most one line per LOG_EVERY seconds), without
tracebacks. Many addresses together are a distributed attack: that is a proxy's or a
firewall's to stop.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import threading
import time
from collections import Counter
from typing import Any

from gunicorn import util
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.gthread import TConn, ThreadWorker

TICK = 0.25  # the watchdog's round: deadlines are kept to within this
LOG_EVERY = 10.0
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain\r\n"
    b"Content-Length: 52\r\n\r\ntoo many connections from your address: retry later\n"
)
assert len(BUSY.split(b"\r\n\r\n", 1)[1]) == 52


class Limits:
    """The bounds, from the Django settings (AZUL_ARENA_* variables, settings.py)."""

    def __init__(self) -> None:
        from django.conf import settings

        self.recv_seconds = float(settings.WEB_RECV_SECONDS)
        self.header_seconds = float(settings.WEB_HEADER_SECONDS)
        self.body_grace_seconds = float(settings.WEB_BODY_GRACE_SECONDS)
        self.body_min_rate = float(settings.WEB_BODY_MIN_RATE)
        self.per_address = int(settings.WEB_CONNECTIONS_PER_ADDRESS)


class Guard:
    """One request's progress, as its thread reads it and the watchdog checks it."""

    def __init__(self, sock: socket.socket, client: Any) -> None:
        self.sock = sock
        self.client = client
        self.lock = threading.Lock()
        self.started = time.monotonic()
        self.headers_done: float | None = None
        self.body_bytes = 0
        self.reading = False  # the thread is blocked in a read from the client
        self.cut = False

    def overdue(self, limits: Limits, now: float) -> str | None:
        """Why the blocked read should end, or None while the client keeps to the bounds."""
        if not self.reading:
            return None
        if self.headers_done is None:
            if now - self.started > limits.header_seconds:
                return f"its headers took more than {limits.header_seconds:g} s"
            return None
        late = now - self.headers_done - limits.body_grace_seconds
        if late > 0 and self.body_bytes < late * limits.body_min_rate:
            return f"its body came slower than {limits.body_min_rate:g} bytes/s"
        return None

    def shut(self) -> None:
        """End the connection from outside its thread: a blocked recv() returns b"" at once."""
        self.cut = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already gone


class GuardedUnreader(SocketUnreader):  # type: ignore[misc]  # gunicorn has no type hints
    """Reads from the client, telling the guard when it waits and what arrived."""

    def __init__(self, sock: socket.socket, conn: GuardedConn) -> None:
        super().__init__(sock)
        self.conn = conn

    def chunk(self, size_hint: int | None = None) -> bytes:
        guard = self.conn.guard
        if guard is None or guard.cut:
            return b""
        with guard.lock:
            guard.reading = True
        try:
            data: bytes = super().chunk(size_hint)
        except TimeoutError:
            self.conn.worker.refused(self.conn.client, "a read waited too long")
            guard.shut()
            return b""
        finally:
            with guard.lock:
                guard.reading = False
        if guard.headers_done is not None:
            guard.body_bytes += len(data)
        return data


class GuardedConn(TConn):  # type: ignore[misc]
    def __init__(self, worker: GuardedWorker, *args: Any) -> None:
        super().__init__(*args)
        self.worker = worker
        self.guard: Guard | None = None
        self.released = False

    def init(self) -> None:
        fresh = self.parser is None
        super().init()  # handle() calls it before each request, the socket made blocking
        self.sock.settimeout(self.worker.limits.recv_seconds)
        if fresh and type(self.parser.unreader) is SocketUnreader:
            self.parser.unreader = GuardedUnreader(self.sock, self)

    def close(self, graceful: bool = False) -> None:
        super().close(graceful)
        if not self.released:  # every close runs on the worker's main thread, as accept does
            self.released = True
            self.worker.release(self.client)


def address_key(client: Any) -> str:
    """Who a connection counts against: its IP address, an IPv6 address's /64."""
    host = client[0] if isinstance(client, tuple) else str(client)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host  # a Unix socket's peer
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class GuardedWorker(ThreadWorker):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = Limits()
        self.open: Counter[str] = Counter()
        self.guards: set[Guard] = set()
        self.guards_lock = threading.Lock()
        self.log_lock = threading.Lock()  # the main thread, the threads and the watchdog log
        self.last_log = 0.0
        self.unlogged = 0

    def init_process(self) -> None:
        threading.Thread(target=self.watch, name="slow-watchdog", daemon=True).start()
        super().init_process()

    def accept(self, listener: socket.socket) -> None:
        """gunicorn's accept, refusing an address past its connections."""
        try:
            client_sock, client_addr = listener.accept()
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        key = address_key(client_addr)
        if self.open[key] >= self.limits.per_address:
            self.refused(client_addr, f"it has {self.open[key]} connections open already")
            try:
                client_sock.setblocking(False)
                client_sock.send(BUSY)  # never waits: a full buffer just loses the answer
            except OSError:
                pass
            util.close(client_sock)
            return
        self.open[key] += 1
        self.nr_conns += 1
        client_sock.setblocking(True)
        conn = GuardedConn(self, self.cfg, client_sock, client_addr, listener.getsockname())
        self.enqueue_req(conn)

    def release(self, client: Any) -> None:
        key = address_key(client)
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]

    def handle(self, conn: GuardedConn) -> Any:
        """One request on a thread, watched from its start to its end."""
        guard = conn.guard = Guard(conn.sock, conn.client)
        with self.guards_lock:
            self.guards.add(guard)
        try:
            return super().handle(conn)
        finally:
            with self.guards_lock:
                self.guards.discard(guard)

    def handle_request(self, req: Any, conn: GuardedConn) -> Any:
        if conn.guard is not None:
            conn.guard.headers_done = time.monotonic()
        return super().handle_request(req, conn)

    def _keepalive_after(self, conn: GuardedConn, keepalive: bool) -> bool:
        if conn.guard is not None and conn.guard.cut:
            return False
        return bool(super()._keepalive_after(conn, keepalive))

    def watch(self) -> None:
        """The watchdog: each round, shut the connections whose blocked read is overdue."""
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            with self.guards_lock:
                guards = list(self.guards)
            for guard in guards:
                with guard.lock:  # the read cannot end (and the app start) while deciding
                    why = None if guard.cut else guard.overdue(self.limits, now)
                    if why is not None:
                        guard.shut()
                if why is not None:
                    self.refused(guard.client, why)

    def refused(self, client: Any, why: str) -> None:
        """A warning line, without traceback, at most one per LOG_EVERY seconds."""
        now = time.monotonic()
        with self.log_lock:
            if now - self.last_log < LOG_EVERY:
                self.unlogged += 1
                return
            more = f" ({self.unlogged} more since the last such line)" if self.unlogged else ""
            self.last_log, self.unlogged = now, 0
        self.log.warning(
            "slow or excess connection from %s ended: %s%s", address_key(client), why, more
        )
