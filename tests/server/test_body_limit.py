"""Request bodies are bounded as they arrive, by the real server (`server run`, gunicorn) with no
proxy in front: a Content-Length above an address's limit is answered 413 before the body is
read, a chunked body is read only up to the limit. Only the submit addresses take an archive
(the archive limit, 20 MiB); a login, a sign-up or a token request takes a form's few
kilobytes. What the server's processes wrote to disk meanwhile (/proc/PID/io) stays below the
limit: nothing of the refused bodies is stored."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.test_cli import cli, make_participant, start

MiB = 2**20
ARCHIVE_LIMIT = 20 * MiB  # settings.ARCHIVE_MAX_BYTES's default
FORM_LIMIT = 64 * 1024  # settings.FORM_MAX_BYTES's default
ANNOUNCED = 120 * MiB
BOUNDARY = "----azul-arena-test"

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/io").exists(), reason="needs Linux's /proc/PID/io to count disk writes"
)


def _descendants(root: int) -> list[int]:
    """`root` and every process below it (server run, gunicorn's master and workers)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found = [root]
    for pid in found:
        found += [child for child, parent in parents.items() if parent == pid]
    return found


def _written(root: int) -> int:
    """The bytes the server's processes have written (files, pipes and sockets: wchar)."""
    total = 0
    for pid in _descendants(root):
        try:
            io = (Path("/proc") / str(pid) / "io").read_text()
        except OSError:
            continue
        total += int(io.split("wchar:")[1].split()[0])
    return total


def _head(fields: dict[str, str]) -> bytes:
    """A multipart body's start: the fields, then an `archive` file part's headers."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
        for k, v in fields.items()
    ]
    parts.append(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="archive"; '
        f'filename="bot.zip"\r\nContent-Type: application/zip\r\n\r\n'
    )
    return "".join(parts).encode()


def _announced(port: int, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """POST announcing a 120 MiB body but sending only its first 256 KiB, then wait for the
    answer: a server that reads the body before deciding waits forever (and times out)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("POST", path)
    for name, value in headers.items():
        conn.putheader(name, value)
    conn.putheader("Content-Type", f"multipart/form-data; boundary={BOUNDARY}")
    conn.putheader("Content-Length", str(ANNOUNCED))
    conn.endheaders()
    conn.send(_head({}) + b"\0" * (256 * 1024))
    reply = conn.getresponse()
    answer = (reply.status, reply.read())
    conn.close()
    return answer


def _chunks(head: bytes, size: int) -> Iterator[bytes]:
    yield head
    sent = len(head)
    while sent < size:
        piece = min(MiB, size - sent)
        yield b"\0" * piece
        sent += piece


def _chunked(port: int, path: str, headers: dict[str, str], size: int) -> tuple[int, bytes]:
    """POST a chunked body (no Content-Length) of `size` bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(
        "POST",
        path,
        body=_chunks(_head({}), size),
        headers=headers
        | {
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
            "Transfer-Encoding": "chunked",
        },
        encode_chunked=True,
    )
    reply = conn.getresponse()
    answer = (reply.status, reply.read())
    conn.close()
    return answer


def _token(port: int) -> str:
    """A token from /api/token, its small form sent chunked: a body within the limit passes."""
    form = urllib.parse.urlencode({"username": "zoe", "password": "zoe pass 12345"}).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(
        "POST",
        "/api/token",
        body=iter([form[:10], form[10:]]),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        encode_chunked=True,
    )
    reply = conn.getresponse()
    body = reply.read()
    assert reply.status == 200, body
    return str(json.loads(body)["token"])


def test_oversized_bodies_are_refused_as_they_arrive(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    made = cli(tmp_path, "server", "init", "--home", str(home), "--password", "org pass 12345")
    assert made.returncode == 0, made.stderr
    make_participant(home, tmp_path)
    proc, url = start(
        tmp_path, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0", "--no-ladder"
    )
    try:
        port = int(url.rsplit(":", 1)[1])
        bearer = {"Authorization": f"Bearer {_token(port)}"}
        before = _written(proc.pid)
        for path, headers in [
            ("/api/submit", bearer),
            ("/p/zoe/", {}),
            ("/api/token", {}),
            ("/login/", {}),
            ("/signup/", {}),
        ]:
            status, said = _announced(port, path, headers)
            assert status == 413, (path, status, said[:300])
        assert _announced(port, "/api/submit", bearer)[1].startswith(
            b"the archive is larger than the limit of 20 MiB"
        )
        assert _written(proc.pid) - before < MiB, "nothing of an announced body is stored"
        for path in ("/api/token", "/login/", "/signup/"):
            status, said = _chunked(port, path, {}, 256 * 1024)
            assert status == 413, (path, status, said[:300])
            assert b"64 KiB" in said
        assert _written(proc.pid) - before < MiB, "a form's chunked body is kept in memory"
        # A chunked upload just past the limit: read up to it, no further, then refused.
        status, said = _chunked(port, "/api/submit", bearer, ARCHIVE_LIMIT + FORM_LIMIT + 16384)
        assert status == 413, (status, said[:300])
        assert _written(proc.pid) - before <= ARCHIVE_LIMIT + FORM_LIMIT + MiB
        uploads = home / "uploads"
        assert not uploads.exists() or not any(uploads.iterdir())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
