"""A person plays a reference bot in the browser on a real server (`server demo` with the random
reference bot), in a real headless chromium: a visitor is told to sign in, before any form; a
signed-up participant picks the bot, plays a whole game with the board's clicks in the site's
page, is told who won, and replays it under their own name; the game is stored unrated, and the
moves API refuses what the engine did not list."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_browser import PASSWORD, until
from tests.server.test_cli import start
from tests.web.browser import PAGE_WAIT, chromium_browser, console_errors
from tests.web.play_clicks import play_to_the_end


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium_browser()


def _post_json(driver: Any, url: str, body: str) -> dict[str, Any]:
    """POST from the page itself (its session and CSRF token), as play.js does."""
    script = """
const [url, body, done] = arguments;
const csrf = JSON.parse(document.getElementById("play-config").textContent).csrf;
fetch(url, {method: "POST", credentials: "same-origin", body: body,
            headers: {"Content-Type": "application/json", "X-CSRFToken": csrf}})
  .then(r => r.json().then(b => done({status: r.status, body: b})));
"""
    return driver.execute_async_script(script, url, body)  # type: ignore[no-any-return]


@pytest.mark.slow  # a server demo and a whole game in chromium: `make test-slow`, run by CI
def test_a_participant_plays_a_reference_bot_in_the_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    home = tmp_path / "srv"
    proc, url = start(
        tmp_path,
        "server",
        "demo",
        "--home",
        str(home),
        "--listen",
        "127.0.0.1:0",
        "--bot",
        "random",
        "-c",
        "1",
    )
    try:
        b = browser
        b.set_script_timeout(20)
        # The reference bot is validated (its own process) before it can be played; a visitor
        # is told to sign in before any form (this contest takes no visitors).
        until(b, f"{url}/play/", lambda page: "ref-random" in page, 120, "the reference bot")
        assert "Sign in to play" in b.find_element(By.ID, "play-refused").text
        assert not b.find_elements(By.ID, "play-form")

        b.get(f"{url}/signup/")
        b.find_element(By.NAME, "username").send_keys("ann")
        b.find_element(By.NAME, "participant").send_keys("ann-bots")
        b.find_element(By.NAME, "password1").send_keys(PASSWORD)
        b.find_element(By.NAME, "password2").send_keys(PASSWORD)
        b.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(b, PAGE_WAIT).until(lambda d: d.current_url.endswith("/p/ann-bots/"))

        b.get(f"{url}/play/")
        b.find_element(By.CSS_SELECTOR, "#play-form button[type=submit]").click()
        WebDriverWait(b, PAGE_WAIT).until(lambda d: "/tables/" in d.current_url)
        table_url = b.current_url
        WebDriverWait(b, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".legal button.move"))
        # A move the engine did not list, and a second game at once, are refused.
        refused = _post_json(b, table_url + "move", '{"move": "9Z9"}')
        assert refused["status"] == 400 and "not a legal move" in refused["body"]["error"]
        console_errors(b)  # the refusals above are logged as failed requests: expected
        # The board is the site's page: its header and navigation stay.
        assert b.find_elements(By.CSS_SELECTOR, "header a[href='/play/']")
        clicked, status_line = play_to_the_end(b)
        assert clicked >= 10 and "Game over" in status_line
        assert "could not be played" not in status_line, status_line
        # The end names the winner, says how the person did, and leaves no moves box.
        verdict = b.find_element(By.CSS_SELECTOR, ".result .verdict").text
        assert " wins: " in verdict or "share first place" in verdict, verdict
        assert any(v in verdict for v in ("You won.", "You lost.", "A draw")), verdict
        assert not b.find_element(By.CSS_SELECTOR, ".panel.yours").is_displayed()
        assert not console_errors(b)
        b.find_element(By.CSS_SELECTOR, "a.replay").click()
        WebDriverWait(b, PAGE_WAIT).until(lambda d: d.current_url.endswith("/viewer"))
        WebDriverWait(b, PAGE_WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".seats-title")
        )
        # The replay starts at the start; its end has the final table.
        assert not b.find_elements(By.CSS_SELECTOR, ".final")
        b.find_element(By.CSS_SELECTOR, "button[data-act=end]").click()
        final = b.find_element(By.CSS_SELECTOR, ".final").text
        # The person under their own name (not their team's), at a seat no bot played.
        assert "ann" in final and "ref-random" in final and "ann-bots" not in final
        assert "human" not in b.find_element(By.CSS_SELECTOR, "#app .seats").text
        # The replay names the bot, not its folder on the server (as a ladder game's does).
        assert str(home) not in b.page_source and str(home.resolve()) not in b.page_source

        # Stored, unrated; and no one else's.
        b.get(f"{url}/play/")
        assert "done" in b.find_element(By.ID, "my-tables").text
        b.delete_all_cookies()
        b.get(table_url + "state")
        assert "Not Found" in b.page_source or "404" in b.page_source
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=60)[0]
        print(output[-4000:])  # the server's output, if this failed
    # Nothing went wrong on the way that only the server's terminal saw (grpc's streams of the
    # browser game closed under it printed a CancelledError traceback there).
    assert "Traceback" not in output, output[-4000:]
