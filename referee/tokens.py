"""Tokens the organiser issues to remote entries (`azul-arena referee token new NAME`).

A token is `NAME.SECRET`: the entry's name, then a random secret. The tokens file keeps, per
name, only the SHA-256 of the secret (whoever reads the file cannot connect as anyone), and is
readable by its owner only. A referee serving with `--tokens FILE` accepts a remote bot whose
Hello carries a token of the file as that entry, and only one connection per token at a time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import time
from pathlib import Path

NAME_RE = re.compile(r"^[A-Za-z0-9_@+\-]{1,64}$")  # no dot: the token's separator


class TokenError(ValueError):
    """A tokens file or a name that cannot be used; the message says what and why."""


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class TokenFile:
    """The issued tokens: name -> SHA-256 of its secret, in a JSON file."""

    def __init__(self, path: Path, digests: dict[str, str]) -> None:
        self.path = path
        self.digests = digests

    @classmethod
    def load(cls, path: Path, create: bool = False) -> TokenFile:
        if not path.exists():
            if create:
                return cls(path, {})
            raise TokenError(f"no tokens file at {path}: issue one with `azul-arena referee token "
                             "new NAME`")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            digests = {str(k): str(v["sha256"]) for k, v in data["tokens"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TokenError(f"{path} is not an azul-arena tokens file ({exc})") from None
        return cls(path, digests)

    def issue(self, name: str, replace: bool = False) -> str:
        """A new token for `name`, saved (its digest only); TokenError for a bad or taken name."""
        if not NAME_RE.match(name):
            raise TokenError(f"entry name {name!r}: 1-64 letters, digits and _ @ + - (no dot)")
        if name in self.digests and not replace:
            raise TokenError(f"{name} has a token already in {self.path}; --replace issues a new "
                             "one (the old one stops working)")
        secret = secrets.token_urlsafe(24)
        self.digests[name] = _digest(secret)
        self.save()
        return f"{name}.{secret}"

    def save(self) -> None:
        data = {"format": "azul-arena/tokens/1", "tokens": {
            name: {"sha256": digest} for name, digest in sorted(self.digests.items())},
            "saved_at": time.time()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
        os.replace(tmp, self.path)

    def check(self, token: str) -> str | None:
        """The entry name `token` stands for, or None when it is not one of these."""
        name, _, secret = token.partition(".")
        digest = self.digests.get(name)
        if digest is None or not secret:
            return None
        return name if secrets.compare_digest(digest, _digest(secret)) else None
