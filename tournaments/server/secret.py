"""The server's secret key (Django's SECRET_KEY: sessions, CSRF tokens, sign-up links).

It is $AZUL_ARENA_SECRET_KEY, else the file `secret_key` of the data folder. Only `server init`
and `server demo` make that file (`make_key`); importing the settings only reads it, so that
`--help`, `migrate` or a checkout's tests never leave a key behind. Whatever serves or signs
checks the key first (`key_problem`, `tracked_key_file`): none, a leaked one or one committed
to git is refused with what to do instead. The settings import this module: Django is imported
only inside `configured_key`.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
from pathlib import Path

VARIABLE = "AZUL_ARENA_SECRET_KEY"
FILE = "secret_key"
MIN_LENGTH = 32

# sha256 of keys that are public (never the keys themselves): the one committed to this
# repository as arena-server/secret_key (removed, but it stays in git's history).
LEAKED_SHA256 = frozenset({"9b9b17b51f8968a00f83d2e907796d78e944c5afedd058ddf1b3be792d25aa87"})

HOW = (
    "run `azul-arena server init --home HOME` (it makes HOME/secret_key, readable by you only) "
    f"or set {VARIABLE} (e.g. to the output of "
    '`python3 -c "import secrets; print(secrets.token_urlsafe(50))"`)'
)


def read_key(home: Path) -> str:
    """$AZUL_ARENA_SECRET_KEY, else the data folder's key file, else "" (no key yet)."""
    key = os.environ.get(VARIABLE, "").strip()
    if key:
        return key
    path = home / FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:  # a folder, unreadable, not text
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(
            f"cannot read the secret key file {path} ({exc.__class__.__name__}): make it a "
            f"text file readable by the server's user, or remove it and {HOW}"
        ) from None


def configured_key() -> str:
    """Django's SECRET_KEY as configured, "" when it is empty (where reading it raises a terse
    ImproperlyConfigured of Django's own, which `key_problem` says better)."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        return str(settings.SECRET_KEY)
    except ImproperlyConfigured:
        return ""


def make_key(home: Path) -> Path | None:
    """The data folder's key file, made now (mode 0600) unless $AZUL_ARENA_SECRET_KEY is set
    (None then) or the file exists (kept: sessions and links stay valid)."""
    if os.environ.get(VARIABLE, "").strip():
        return None
    path = home / FILE
    home.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    return path


def key_problem(key: str) -> str | None:
    """Why `key` must not sign anything, or None when it may."""
    if not key:
        return f"the server has no secret key: {HOW}"
    if hashlib.sha256(key.encode()).hexdigest() in LEAKED_SHA256:
        return f"the server's secret key is a published one (it was committed to git): {HOW}"
    if key.startswith("django-insecure-") or len(key) < MIN_LENGTH:
        return (
            f"the server's secret key is too weak (at least {MIN_LENGTH} random characters, "
            f"not a 'django-insecure-' placeholder): {HOW}"
        )
    return None


def tracked_key_file(home: Path) -> Path | None:
    """The data folder's key file when git tracks it (`git ls-files` lists it: anyone with the
    repository has the key), else None; without git, or outside a checkout, None."""
    if os.environ.get(VARIABLE, "").strip():
        return None  # the file, if any, is not the key in use
    path = (home / FILE).resolve()
    if not path.is_file():
        return None
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return path if listed.returncode == 0 else None


def refusal(home: Path, key: str) -> str | None:
    """Why a server with data folder `home` and key `key` must not serve, or None."""
    problem = key_problem(key)
    if problem is not None:
        return problem
    tracked = tracked_key_file(home)
    if tracked is not None:
        return (
            f"the secret key file {tracked} is tracked by git, so it is public: "
            f"`git rm --cached {tracked.name}` there and ignore it, then delete it and {HOW}"
        )
    return None
