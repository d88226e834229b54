"""Slow clients cannot lock up the site, with no proxy in front (tournaments/server/slowguard.py):
the real server (`server run`, gunicorn) with deadlines of 2 and 3 seconds is sent more slow
connections than it has threads (half headers, headers or bodies that trickle, a Content-Length
that lies, a chunked body that trickles), from several loopback addresses, and more than one
address may hold from 127.0.0.1. Another address's `GET /` is still answered, every slow
connection is closed by the server within its deadline, the excess ones at once with a 503,
and the refusals are logged without a traceback."""

from __future__ import annotations

import errno
import http.client
import socket
import threading
import time
from pathlib import Path

from tests.server.test_cli import cli, start

SECONDS = 2  # the test server's header deadline and body grace
RECV_SECONDS = 3  # its per-read timeout: longer, so that the trickles meet the other deadlines
PER_ADDRESS = 4
THREADS = 2 * 16  # server run's default: 2 processes of 16 threads
TRICKLE_EVERY = 0.4
CLOSED_WITHIN = 15.0  # the deadlines twice over (a connection may wait for a thread), and then some

HALF_HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:"
LYING = (
    b"POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername=z"
)
TRICKLED_BODY = (
    b"POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 60000\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n\r\nusername="
)
TRICKLED_CHUNKS = (
    b"POST /api/token HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
)
# What each kind sends first, and then every TRICKLE_EVERY seconds (b"": nothing more).
KINDS = [
    (HALF_HEADERS, b""),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", b"a"),
    (LYING, b""),
    (TRICKLED_BODY, b"z"),
    (TRICKLED_CHUNKS, b"1\r\nz\r\n"),
]


class Slow:
    """One slow connection, and what the server did with it."""

    def __init__(self, port: int, source: str, kind: int) -> None:
        self.first, self.more = KINDS[kind % len(KINDS)]
        self.sock = socket.create_connection(("127.0.0.1", port), 5, (source, 0))
        self.sock.sendall(self.first)
        self.answer = b""
        self.closed = False

    def step(self) -> None:
        """Trickle one more piece, and note whether the server has closed the connection."""
        try:
            if self.more:
                self.sock.send(self.more, socket.MSG_DONTWAIT)
            while data := self.sock.recv(4096, socket.MSG_DONTWAIT):
                self.answer += data
            self.closed = True  # b"": the server's end is shut
        except BlockingIOError:
            pass
        except OSError as e:
            assert e.errno in (errno.EPIPE, errno.ECONNRESET), e
            self.closed = True


def _drive(slow: list[Slow], until: float) -> None:
    """Keep the connections trickling until the server has closed them all, or `until`."""
    while time.monotonic() < until and not all(s.closed for s in slow):
        for s in slow:
            if not s.closed:
                s.step()
        time.sleep(TRICKLE_EVERY)


def _get_home(port: int) -> int:
    """`GET /` from another address than the slow connections'."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=CLOSED_WITHIN, source_address=("127.0.0.2", 0)
    )
    try:
        conn.request("GET", "/")
        reply = conn.getresponse()
        reply.read()
        return reply.status
    finally:
        conn.close()


def test_slow_clients_cannot_hold_every_thread(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    made = cli(tmp_path, "server", "init", "--home", str(home), "--password", "org pass 12345")
    assert made.returncode == 0, made.stderr
    deadlines = {
        "AZUL_ARENA_WEB_RECV_SECONDS": str(RECV_SECONDS),
        "AZUL_ARENA_WEB_HEADER_SECONDS": str(SECONDS),
        "AZUL_ARENA_WEB_BODY_GRACE_SECONDS": str(SECONDS),
    }
    proc, url = start(
        tmp_path,
        *("server", "run", "--home", str(home), "--listen", "127.0.0.1:0", "--no-ladder"),
        extra_env=deadlines | {"AZUL_ARENA_WEB_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS)},
    )
    slow: list[Slow] = []
    try:
        port = int(url.rsplit(":", 1)[1])
        assert _get_home(port) == 200
        # Within the cap: PER_ADDRESS connections from each of 10 addresses, more than THREADS.
        for n in range(10 * PER_ADDRESS):
            slow.append(Slow(port, f"127.0.0.{10 + n // PER_ADDRESS}", n))
        # Past it: one address with 4 connections more than it may hold in the 2 processes.
        excess = [Slow(port, "127.0.0.1", n) for n in range(2 * PER_ADDRESS + 4)]
        slow += excess
        assert len(slow) > THREADS + 10
        driver = threading.Thread(target=_drive, args=(slow, time.monotonic() + CLOSED_WITHIN))
        driver.start()
        try:
            assert _get_home(port) == 200
        finally:
            driver.join()
        still_open = [s.first[:40] for s in slow if not s.closed]
        assert not still_open, f"{len(still_open)} slow connections still open: {still_open}"
        # (A refused connection's request is unread when it closes: the kernel may then reset
        # it before its client reads the answer.)
        refused = [s for s in excess if s.answer.startswith(b"HTTP/1.1 503")]
        assert refused, [s.answer[:60] for s in excess]
        assert b"too many connections from your address" in refused[0].answer
    finally:
        for s in slow:
            s.sock.close()
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.stdout is not None
    said = proc.stdout.read()
    assert "slow or excess connection from 127.0.0." in said, said
    assert "Traceback" not in said, said
