"""Tokens the organiser issues: to remote entries (`azul-arena referee token new NAME`) and to
operators (`... token new NAME --operator`).

A token is `NAME.SECRET`: a name, then a random secret. The tokens file keeps, per name, only the
SHA-256 of the secret (whoever reads the file cannot connect as anyone), and is readable by its
owner only. A referee serving with `--tokens FILE` accepts a remote bot whose Hello carries a bot
token of the file as that entry, one connection per token at a time; and a call to its own API
(RunMatch, WatchMatch) over TCP only with an operator token in the call's metadata. The two kinds
live apart in the file: a bot token is never an operator's, whatever its name.
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

    def __init__(
        self, path: Path, digests: dict[str, str], operators: dict[str, str] | None = None
    ) -> None:
        self.path = path
        self.digests = digests  # remote entries' tokens
        self.operators = dict(operators or {})  # tokens of whoever may call the referee's API

    @classmethod
    def load(cls, path: Path, create: bool = False) -> TokenFile:
        if not path.exists():
            if create:
                return cls(path, {})
            raise TokenError(
                f"no tokens file at {path}: issue one with `azul-arena referee token new NAME`"
            )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            digests = {str(k): str(v["sha256"]) for k, v in data["tokens"].items()}
            operators = {str(k): str(v["sha256"]) for k, v in data.get("operators", {}).items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TokenError(f"{path} is not an azul-arena tokens file ({exc})") from None
        return cls(path, digests, operators)

    def issue(self, name: str, replace: bool = False, operator: bool = False) -> str:
        """A new token for `name` (an entry's, or with `operator` an operator's), saved (its
        digest only); TokenError for a bad or taken name."""
        kind = "operator" if operator else "entry"
        if not NAME_RE.match(name):
            raise TokenError(f"{kind} name {name!r}: 1-64 letters, digits and _ @ + - (no dot)")
        table = self.operators if operator else self.digests
        if name in table and not replace:
            raise TokenError(
                f"{kind} {name} has a token already in {self.path}; --replace issues "
                "a new one (the old one stops working)"
            )
        secret = secrets.token_urlsafe(24)
        table[name] = _digest(secret)
        self.save()
        return f"{name}.{secret}"

    def save(self) -> None:
        data: dict[str, object] = {
            "format": "azul-arena/tokens/1",
            "tokens": {name: {"sha256": digest} for name, digest in sorted(self.digests.items())},
        }
        if self.operators:
            data["operators"] = {
                name: {"sha256": digest} for name, digest in sorted(self.operators.items())
            }
        data["saved_at"] = time.time()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
        os.replace(tmp, self.path)

    def check(self, token: str) -> str | None:
        """The entry name the bot token `token` stands for, or None when it is not one of these."""
        return _match(self.digests, token)

    def check_operator(self, token: str) -> str | None:
        """The operator the token stands for, or None when it is not an operator token."""
        return _match(self.operators, token)


def _match(digests: dict[str, str], token: str) -> str | None:
    name, _, secret = token.partition(".")
    digest = digests.get(name)
    if digest is None or not secret:
        return None
    return name if secrets.compare_digest(digest, _digest(secret)) else None
