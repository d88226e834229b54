"""Who may call the referee's own API (RefereeService): the operator, and nobody else.

The referee serves two kinds of caller. Bots speak `BotService` and nothing else: the socket the
referee gives the bots it launches serves only that (see `referee.server`). The operator runs
matches and reads their results through `RefereeService`; `RunMatch` starts processes, so on a
network address each call must carry an operator token (`azul-arena referee token new NAME
--operator`) as `authorization: Bearer NAME.SECRET` metadata, checked here before any handler
runs. On a Unix socket the socket file's permissions (owner only) are the credential, and on a
port with mutual TLS (`--tls-client-ca`) the client certificate is.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from referee.tokens import TokenFile

REFEREE_SERVICE = "/azul_arena.v1.RefereeService/"
WATCH_MATCH = REFEREE_SERVICE + "WatchMatch"
METADATA_KEY = "authorization"
HOW_TO = (
    "send an operator token as `authorization: Bearer NAME.SECRET` metadata (issue one with "
    "`azul-arena referee token new NAME --operator`)"
)


class SeatRefused(ValueError):
    """A RunMatch seat names something the referee never runs for a caller of its API (a
    command line or a path): answered PERMISSION_DENIED, nothing started."""


def operator_metadata(token: str) -> tuple[tuple[str, str]]:
    """The call metadata that carries an operator token."""
    return ((METADATA_KEY, f"Bearer {token}"),)


def is_loopback(address: str) -> bool:
    """Whether a `HOST:PORT` (or `unix:PATH`) listen address is reachable from this machine only."""
    if address.startswith("unix:"):
        return True
    host = address.rsplit(":", 1)[0].strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve to any interface
        return False


class OperatorGuard(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Refuses a RefereeService call without an operator token, before its handler runs:
    UNAUTHENTICATED for none or an unknown one, PERMISSION_DENIED for a bot's token.
    `public_watch`: WatchMatch is open to anyone (spectators), RunMatch still is not."""

    def __init__(self, tokens: TokenFile | None, public_watch: bool = False) -> None:
        self.tokens = tokens
        self.public_watch = public_watch

    async def intercept_service(
        self,
        continuation: Callable[[Any], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        method = details.method or ""
        if not method.startswith(REFEREE_SERVICE) or (self.public_watch and method == WATCH_MATCH):
            return await continuation(details)
        refusal = self.refusal(dict(details.invocation_metadata or ()).get(METADATA_KEY, ""))
        handler = await continuation(details)
        if refusal is None or handler is None:
            return handler
        return _refusing(handler, *refusal)

    def refusal(self, header: str | bytes) -> tuple[grpc.StatusCode, str] | None:
        """None when `header` (the authorization metadata) names an operator; else why not."""
        if isinstance(header, bytes):
            header = header.decode("utf-8", "replace")
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if not header or scheme.lower() != "bearer" or not token:
            return (
                grpc.StatusCode.UNAUTHENTICATED,
                f"the referee's API is for its operator: {HOW_TO}",
            )
        if self.tokens is not None and self.tokens.check_operator(token) is not None:
            return None
        if self.tokens is not None and self.tokens.check(token) is not None:
            return (
                grpc.StatusCode.PERMISSION_DENIED,
                "a bot's token is for BotService.Connect only; the referee's API needs an "
                "operator token",
            )
        return grpc.StatusCode.UNAUTHENTICATED, f"unknown or wrong operator token: {HOW_TO}"


def _refusing(
    handler: grpc.RpcMethodHandler, code: grpc.StatusCode, text: str
) -> grpc.RpcMethodHandler:
    """A handler of the same shape as `handler` that ends the call with `code`, having run
    nothing."""

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, text)

    async def streaming(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, text)
        yield  # pragma: no cover - an async generator, as a streaming handler must be

    kwargs = {
        "request_deserializer": handler.request_deserializer,
        "response_serializer": handler.response_serializer,
    }
    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(streaming, **kwargs)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(unary, **kwargs)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(streaming, **kwargs)
    return grpc.unary_unary_rpc_method_handler(unary, **kwargs)
