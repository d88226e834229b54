"""Request bodies bounded as they arrive, before Django reads them (answering 413).

Django spools a multipart upload to a temporary file before any view can look at its size, so
without this anyone could fill the disk with one large POST. The limit is the archive limit (and
a little for the form's other fields) for the URLs that take an archive (ARCHIVE_UPLOAD_URLS,
by URL name), FORM_MAX_BYTES for every other one. A Content-Length above it is refused before a
byte of the body is read; a chunked body (no Content-Length) is read up to the limit and refused
as soon as it passes it, else handed to Django with its length. The limits hold without a proxy.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from typing import Any

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
App = Callable[[Environ, StartResponse], Iterable[bytes]]

CHUNK = 64 * 1024


class TooLarge(Exception):
    pass


def _length(environ: Environ) -> int | None:
    """The request's Content-Length, or None when it has none (chunked, or no body)."""
    text = str(environ.get("CONTENT_LENGTH") or "").strip()
    return int(text) if text.isdigit() else None


def _chunked(environ: Environ) -> bool:
    return "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()


class BodyLimit:
    """WSGI middleware around Django's application (tournaments/server/wsgi.py)."""

    def __init__(self, app: App) -> None:
        from django.conf import settings

        self.app = app
        self.form_limit: int = settings.FORM_MAX_BYTES
        self.archive_limit: int = settings.ARCHIVE_MAX_BYTES + settings.FORM_MAX_BYTES
        self.archive_mib = settings.ARCHIVE_MAX_BYTES // 2**20
        self.archive_urls = frozenset(settings.ARCHIVE_UPLOAD_URLS)

    def limit(self, environ: Environ) -> int:
        """The most this request's body may hold: an archive upload's for the URLs that take
        one (POST only), FORM_MAX_BYTES otherwise."""
        if environ.get("REQUEST_METHOD") != "POST":
            return self.form_limit
        from django.core.handlers.wsgi import get_path_info
        from django.urls import Resolver404, resolve

        try:
            name = resolve(get_path_info(environ)).url_name
        except Resolver404:
            return self.form_limit
        return self.archive_limit if name in self.archive_urls else self.form_limit

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        length = _length(environ)
        chunked = length is None and _chunked(environ)
        if not chunked and (length or 0) <= self.form_limit:
            return self.app(environ, start_response)  # the common case: no URL lookup
        limit = self.limit(environ)
        if length is not None and length > limit:
            return self.refuse(start_response, limit)
        if chunked:
            try:
                environ["wsgi.input"], environ["CONTENT_LENGTH"] = _spool(environ, limit)
            except TooLarge:
                return self.refuse(start_response, limit)
        return self.app(environ, start_response)

    def refuse(self, start_response: StartResponse, limit: int) -> list[bytes]:
        said = (
            f"the archive is larger than the limit of {self.archive_mib} MiB"
            if limit == self.archive_limit
            else f"the request's body is larger than the {limit // 1024} KiB this address takes"
        )
        body = f"{said}\n".encode()
        start_response(
            "413 Request Entity Too Large",
            [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
        )
        return [body]


def _spool(environ: Environ, limit: int) -> tuple[Any, str]:
    """A chunked body read up to `limit` bytes (kept in memory up to FILE_UPLOAD_MAX_MEMORY_SIZE,
    then in a temporary file deleted with it), or TooLarge as soon as it passes the limit."""
    from django.conf import settings

    source = environ["wsgi.input"]
    spool = tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE)
    size = 0
    while data := source.read(min(CHUNK, limit + 1 - size)):
        size += len(data)
        if size > limit:
            spool.close()
            raise TooLarge
        spool.write(data)
    spool.seek(0)
    return spool, str(size)
