"""A participant's whole path in a real headless chromium against a real server (`server demo`
with the random reference bot): sign up, upload a bot, see it validated, see it on the
leaderboard after ladder games, open a game in the viewer, read its own log; and not read the
reference bot's log."""

from __future__ import annotations

import signal
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_cli import start
from tests.web.browser import (
    PAGE_WAIT,
    chromium_browser,
    console_errors,
    drawn_fraction,
    fresh,
)

CHATTY_BOT = b"""import random
import sys

import sdk


class ChattyBot(sdk.Bot):
    name = "chatty"

    def choose_move(self, state):
        print("chatty thinks about move", len(state.legal_moves()), file=sys.stderr)
        return random.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(ChattyBot)
"""
PASSWORD = "zed's long password 42"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium_browser()


def until(driver: Any, url: str, check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        driver.get(url)
        if check(driver.page_source):
            return
        time.sleep(1)
    raise AssertionError(f"timed out waiting for {what}; the page:\n{driver.page_source[:3000]}")


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_sign_up_upload_validate_play_watch_and_read_the_log(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    proc, url = start(
        tmp_path,
        "server",
        "demo",
        "--home",
        str(tmp_path / "srv"),
        "--listen",
        "127.0.0.1:0",
        "--bot",
        "random",
        "-c",
        "1",
    )
    try:
        b = browser
        b.get(f"{url}/signup/")
        b.find_element(By.NAME, "username").send_keys("zed")
        b.find_element(By.NAME, "participant").send_keys("zed-bots")
        b.find_element(By.NAME, "password1").send_keys(PASSWORD)
        b.find_element(By.NAME, "password2").send_keys(PASSWORD)
        b.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(b, PAGE_WAIT).until(
            lambda d: d.current_url.endswith("/p/zed-bots/") and d.find_elements(By.NAME, "archive")
        )

        archive = tmp_path / "chatty.zip"
        with zipfile.ZipFile(archive, "w") as zf:
            zf.writestr("chatty/bot.py", CHATTY_BOT)
        b.find_element(By.NAME, "archive").send_keys(str(archive))
        b.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(b, PAGE_WAIT).until(lambda d: "version 1 received" in d.page_source)

        until(
            b,
            f"{url}/p/zed-bots/v/1/",
            lambda page: 'id="state" class="passed"' in page,
            120,
            "the upload's validation",
        )
        assert "only legal moves" in b.page_source
        assert "chatty thinks about move" in b.find_element(By.ID, "log-tail").text

        def ranked(page: str) -> bool:
            return "zed-bots" in page and "ref-random" in page and "No games yet" not in page

        until(b, f"{url}/", ranked, 120, "ladder games on the leaderboard")
        assert b.find_elements(By.CSS_SELECTOR, "#leaderboard a[href='/p/zed-bots/']")

        b.get(f"{url}/p/zed-bots/")
        # Its games are in the part of the page that refreshes itself every 5 s.
        fresh(b, lambda d: d.find_element(By.CSS_SELECTOR, "a[href^='/games/']").click())
        WebDriverWait(b, PAGE_WAIT).until(lambda d: "/games/" in d.current_url)
        game_url = b.current_url
        # The replay viewer, in the game's page itself.
        WebDriverWait(b, PAGE_WAIT).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#app .drawing")
        )
        drawn, colours = drawn_fraction(
            b.find_element(By.CSS_SELECTOR, "#app .drawing").screenshot_as_png
        )
        assert drawn > 0.05 and colours > 10, "the viewer drew the game"
        assert not console_errors(b)

        b.find_element(By.LINK_TEXT, "its log").click()
        WebDriverWait(b, PAGE_WAIT).until(lambda d: d.find_elements(By.ID, "log"))
        assert "/log/" in b.current_url
        assert "chatty thinks about move" in b.find_element(By.ID, "log").text
        # The other seat's log is not ours: no link, and its URL is refused.
        b.get(game_url)
        links = b.find_elements(By.LINK_TEXT, "its log")
        assert len(links) == 1
        ours = int(links[0].get_attribute("href").rsplit("/", 1)[1])
        b.get(f"{game_url}log/{1 - ours}")
        assert "Not Found" in b.page_source and "chatty" not in b.page_source
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
