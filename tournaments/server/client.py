"""The participant's side of the API (`azul-arena contest login`, `submit`, ...): plain HTTP
with the standard library, a token kept per server URL in the user's config folder (readable by
the user only). Imports no Django: it runs on a participant's own machine."""

from __future__ import annotations

import io
import json
import os
import secrets
import tarfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

SKIP = {".git", "__pycache__", ".venv", "node_modules", ".mypy_cache", ".pytest_cache"}


class ClientError(RuntimeError):
    """The server refused, or could not be reached; the message says what it said."""


def config_file() -> Path:
    base = os.environ.get("AZUL_ARENA_CONFIG") or os.path.join(
        os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config", "azul-arena"
    )
    return Path(base) / "servers.json"


def normal(url: str) -> str:
    parts = urllib.parse.urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"--server is a URL such as http://localhost:8000, not {url!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def saved_token(server: str) -> str:
    try:
        data = json.loads(config_file().read_text())
    except (OSError, ValueError):
        data = {}
    token = (data.get(normal(server)) or {}).get("token")
    if not token:
        raise ClientError(
            f"not logged in to {normal(server)}: run `azul-arena contest login --server "
            f"{normal(server)}` first"
        )
    return str(token)


LAST = "last-login"  # servers.json's key of the server logged in to last (never a URL)


def choose_server(given: str | None) -> str:
    """The server a command talks to: `given` (--server, or $AZUL_ARENA_SERVER), else the one
    logged in to last; ClientError saying what to do when there is none."""
    if given:
        return normal(given)
    try:
        last = json.loads(config_file().read_text()).get(LAST)
    except (OSError, ValueError, AttributeError):
        last = None
    if not last:
        raise ClientError(
            "which server? give --server URL (or set AZUL_ARENA_SERVER), or log in once with "
            "`azul-arena contest login --server URL`: later commands use that server"
        )
    return str(last)


def save_token(server: str, token: str, user: str) -> Path:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        data = {}
    data[normal(server)] = {"token": token, "user": user}
    data[LAST] = normal(server)
    fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(data, out, indent=1)
    os.replace(path.with_suffix(".tmp"), path)
    return path


def _multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = "azul-arena-" + secrets.token_hex(12)
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    for name, (filename, data) in files.items():
        out.write(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
        )
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def request(
    server: str,
    path: str,
    *,
    fields: dict[str, str] | None = None,
    files: dict[str, tuple[str, bytes]] | None = None,
    token: str | None = None,
    timeout: float = 60,
) -> dict[str, Any]:
    url = normal(server) + path
    headers = {"Accept": "application/json"}
    body = None
    if fields is not None or files is not None:
        body, headers["Content-Type"] = _multipart(fields or {}, files or {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(
        url, data=body, headers=headers, method="POST" if body is not None else "GET"
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as reply:
            return dict(json.loads(reply.read()))
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read()).get("error") or exc.reason
        except ValueError:
            message = (
                "too many failed logins: locked out for a while, try again later"
                if exc.code == 429
                else exc.reason
            )
        raise ClientError(f"{url}: {message} (HTTP {exc.code})") from None
    except (urllib.error.URLError, OSError) as exc:
        raise ClientError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None


def login(server: str, username: str, password: str) -> dict[str, Any]:
    reply = request(
        server,
        "/api/token",
        fields={"username": username, "password": password, "name": f"cli@{os.uname().nodename}"},
    )
    save_token(server, reply["token"], reply["user"])
    return reply


def pack(path: Path) -> tuple[str, bytes]:
    """What `submit PATH` sends: an archive file as it is, or a folder (or a bot.py's folder)
    as a .tar.gz of its files (leaving out .git, caches, virtual environments)."""
    if path.is_file() and path.name.endswith((".zip", ".tar.gz", ".tgz")):
        return path.name, path.read_bytes()
    folder = path.parent if path.is_file() else path
    if not folder.is_dir():
        raise ClientError(f"{path} is neither a bot folder nor a .zip or .tar.gz archive")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for item in sorted(folder.rglob("*")):
            rel = item.relative_to(folder)
            if any(part in SKIP for part in rel.parts) or item.is_symlink():
                continue
            if item.is_file():
                tar.add(item, arcname=str(rel), recursive=False)
    return f"{folder.name}.tar.gz", buf.getvalue()


def submit(server: str, path: Path, participant: str | None = None) -> dict[str, Any]:
    name, data = pack(path)
    fields = {"participant": participant} if participant else {}
    return request(
        server,
        "/api/submit",
        fields=fields,
        files={"archive": (name, data)},
        token=saved_token(server),
    )


def challenge(server: str, opponents: list[str], participant: str | None = None) -> dict[str, Any]:
    fields = {"opponents": ",".join(opponents)}
    if participant:
        fields["participant"] = participant
    return request(server, "/api/challenge", fields=fields, token=saved_token(server))


def compare(
    server: str, base: str | None, version: int | None = None, participant: str | None = None
) -> dict[str, Any]:
    """Ask for a version test (or read the one that exists): `version` against `base`."""
    given = {"base": base, "version": str(version) if version else None, "participant": participant}
    fields = {k: v for k, v in given.items() if v}
    return request(server, "/api/compare", fields=fields, token=saved_token(server))


def versions(server: str) -> dict[str, Any]:
    return request(server, "/api/versions", token=saved_token(server))


def logs(server: str, game: int) -> dict[str, Any]:
    return request(server, f"/api/games/{game}/logs", token=saved_token(server))
