"""The local page of `azul-arena play BOT --web`: a small HTTP server on 127.0.0.1 that serves
the board page and the table's JSON (`LiveTable`).

The address carries a random token, so another user of the machine cannot play the game or
read it; a move must be POSTed as JSON (a form on another site cannot send that without the
browser asking first). The legal moves come from the engine; the page only picks one.
"""

from __future__ import annotations

import json
import secrets
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tournaments.web.live_table import LiveTable, MoveRejected, WebSeat, outcome
from tournaments.web.pages import Parts, parts, render
from tournaments.web.replay_page import renderer_scripts

MAX_BODY = 1024


def _play_assets(family: str, config: dict[str, str]) -> dict[str, Any]:
    return {
        "styles": ["viewer.css", "play.css"],
        "scripts": ["viewer.js", "play.js"],
        "blocks": {"play-config": config},
        "inline_scripts": renderer_scripts([family]),
    }


def play_page(title: str, family: str, state_url: str, move_url: str) -> str:
    """The whole play page of a game of `family`: it reads the table at `state_url` and POSTs
    moves to `move_url`."""
    config = {"state": state_url, "move": move_url, "title": title}
    return render("play.html", title=title, **_play_assets(family, config))


def play_parts(
    title: str, family: str, state_url: str, move_url: str, csrf: str, again: str
) -> Parts:
    """The same page as parts the contest server embeds in its own (`AzulPlay.mount` draws it
    from its "play-config" element): its moves sent with the CSRF token `csrf`, and a link to
    `again` (where another game starts) once the game is over."""
    config = {"state": state_url, "move": move_url, "title": title, "csrf": csrf, "again": again}
    return parts(**_play_assets(family, config))


class PlayServer:
    """Serves one table at http://127.0.0.1:<port>/<token>/ until `close()`."""

    def __init__(self, table: LiveTable, host: str = "127.0.0.1", port: int = 0) -> None:
        self.table = table
        self.token = secrets.token_urlsafe(12)
        base = f"/{self.token}/"
        title = " vs ".join(table.names)
        page = play_page(title, table.view.family, base + "state", base + "move").encode()
        self.httpd = ThreadingHTTPServer((host, port), _handler(table, base, page))
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, daemon=True, name="play-web"
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host!s}:{port}/{self.token}/"

    def start(self) -> PlayServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _handler(table: LiveTable, base: str, page: bytes) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "azul-arena-play"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the terminal shows the game, not each poll."""

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: Any) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def do_GET(self) -> None:
            if self.path == base:
                self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            elif self.path == base + "state":
                snap = table.snapshot()
                self._json(HTTPStatus.OK, snap)
                if snap["result"] is not None:
                    # Only now, with the answer sent (wfile writes straight to the socket): the
                    # command stops the server and exits once this is set, and an answer cut off
                    # then would leave the page polling a server that is gone.
                    table.result_seen.set()
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such page"})

        def do_POST(self) -> None:
            if self.path != base + "move":
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such page"})
                return
            if self.headers.get_content_type() != "application/json":
                self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": "send JSON"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                self._json(HTTPStatus.BAD_REQUEST, {"error": 'send {"move": "1B3"}'})
                return
            try:
                body = json.loads(self.rfile.read(length))
                move = table.submit(body.get("move") if isinstance(body, dict) else None)
            except (ValueError, MoveRejected) as exc:
                why = str(exc) if isinstance(exc, MoveRejected) else 'send {"move": "1B3"}'
                self._json(HTTPStatus.BAD_REQUEST, {"error": why})
                return
            self._json(HTTPStatus.OK, {"move": move})

    return Handler


# How long the local page is kept up after the game for the browser to read the result.
RESULT_WAIT = 30.0


def open_table(
    console: Any, names: list[str], seat: int, config: Any, port: int, open_it: bool
) -> tuple[LiveTable, PlayServer, WebSeat]:
    """The person's table of a `MatchConfig`, its local page (serving now) and its seat."""
    table = LiveTable(config.ruleset, names, seat, config.seed, dict(config.options or {}))
    page = PlayServer(table, port=port).start()
    announce(console, page.url, open_it)
    return table, page, WebSeat(table)


def announce(console: Any, url: str, open_it: bool) -> None:
    """Say where the page is, and open it in the user's browser unless told not to."""
    import webbrowser

    console.print(f"your board: {url}", highlight=False, soft_wrap=True)
    if open_it and not webbrowser.open(url):
        console.print("(no browser found here: open the address above)")
    console.print("waiting for your moves on the page (Ctrl+C abandons the game)")


def end_page(table: LiveTable, page: PlayServer, result: Any, path: Any) -> None:
    """Tell the page the result and where the record is; stop serving once it has read it."""
    said = outcome(table.names, [s.score for s in result.seats], [s.rank for s in result.seats])
    said["text"] += f" Saved as {path}: azul-arena replay view {path}"
    table.finish(said)
    table.result_seen.wait(RESULT_WAIT)
    page.close()
