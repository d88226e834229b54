"""The server as docs/deployment.md runs it behind a reverse proxy that terminates TLS: the
settings come from the environment (AZUL_ARENA_TLS_PROXY, AZUL_ARENA_ALLOWED_HOSTS,
AZUL_ARENA_TRUSTED_ORIGINS, AZUL_ARENA_SECRET_KEY), the proxy's X-Forwarded-Proto makes a request
HTTPS, the cookies are Secure, a login posted from the public https:// origin passes the CSRF
check, and the login throttle counts by the client's address the proxy gives (X-Real-IP). The
proxy is played by the test's own requests to the real HTTP port."""

from __future__ import annotations

import http.client
import re
import subprocess
import urllib.parse
from pathlib import Path

from tests.server.test_cli import CLI, ROOT, cli, env

PUBLIC = "arena.example.edu"


def _request(
    port: int, method: str, path: str, headers: dict[str, str], body: str | None = None
) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=body, headers={"Host": PUBLIC, **headers})
    reply = conn.getresponse()
    reply.read()
    return reply


def test_behind_a_tls_proxy_cookies_are_secure_and_a_login_passes_csrf(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    made = cli(
        tmp_path,
        "server",
        "init",
        "--home",
        str(home),
        "--organiser",
        "org",
        "--password",
        "org pass 12345",
    )
    assert made.returncode == 0, made.stderr
    proc = subprocess.Popen(
        [*CLI, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0", "--no-ladder"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env=env(tmp_path)
        | {
            "AZUL_ARENA_TLS_PROXY": "1",
            "AZUL_ARENA_ALLOWED_HOSTS": PUBLIC,
            "AZUL_ARENA_TRUSTED_ORIGINS": f"https://{PUBLIC}",
            "AZUL_ARENA_SECRET_KEY": "a-secret-from-the-environment-" + "x" * 40,
        },
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"serving on http://127\.0\.0\.1:(\d+)", line)
        assert found, line
        port = int(found.group(1))
        https = {"X-Forwarded-Proto": "https"}
        page = _request(port, "GET", "/login/", https)
        assert page.status == 200
        cookie = page.headers["Set-Cookie"]
        assert "csrftoken=" in cookie and "Secure" in cookie, cookie
        token = re.search(r"csrftoken=([^;]+)", cookie).group(1)  # type: ignore[union-attr]
        form = urllib.parse.urlencode(
            {"username": "org", "password": "org pass 12345", "csrfmiddlewaretoken": token}
        )
        headers = https | {
            "Cookie": f"csrftoken={token}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"https://{PUBLIC}",
            "Referer": f"https://{PUBLIC}/login/",
        }
        logged = _request(port, "POST", "/login/", headers, form)
        assert logged.status == 302, logged.status
        session = [c for c in logged.headers.get_all("Set-Cookie") or [] if "sessionid=" in c]
        assert session and "Secure" in session[0], session
        # The same form posted from another origin is refused.
        forged = _request(
            port, "POST", "/login/", headers | {"Origin": "https://evil.example"}, form
        )
        assert forged.status == 403
        # The login throttle counts by the client's address as the proxy names it (X-Real-IP),
        # not the proxy's own: a stranger's wrong passwords lock the stranger out, not org.
        wrong = form.replace(urllib.parse.quote_plus("org pass 12345"), "wrong")
        stranger = headers | {"X-Real-IP": "203.0.113.5"}
        statuses = [_request(port, "POST", "/login/", stranger, wrong).status for _ in range(6)]
        assert statuses[-1] == 429, statuses
        assert _request(port, "POST", "/login/", stranger, form).status == 429  # locked out
        at_home = headers | {"X-Real-IP": "198.51.100.7"}
        assert _request(port, "POST", "/login/", at_home, form).status == 302
        # A host name the settings do not list is refused (Django's ALLOWED_HOSTS).
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/", headers={"Host": "elsewhere.example"})
        assert conn.getresponse().status == 400
    finally:
        proc.terminate()
        proc.wait(timeout=30)
