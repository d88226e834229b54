"""The address a request came from, for login throttling (django-axes).

Behind the reverse proxy (AZUL_ARENA_TLS_PROXY=1) every request reaches Django from the proxy's
own address, so throttling by REMOTE_ADDR would lock a user name out for everyone after a
stranger's failed logins. There the proxy's `X-Real-IP` header names the client: the proxy sets
it itself (`proxy_set_header X-Real-IP $remote_addr`, docs/deployment.md), replacing any header
of that name a client sent, and the site listens on loopback only, behind it.
"""

from __future__ import annotations

from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the proxy gives it (REMOTE_ADDR when it gives none)."""
    return request.META.get("HTTP_X_REAL_IP") or request.META.get("REMOTE_ADDR")
