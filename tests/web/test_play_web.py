"""`azul-arena play BOT --web`: a whole game against the random bot on the local page, in a real
headless chromium, with the board's clicks; the page refuses a move the engine did not list; the
local server stops only once the page has been sent the result."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import CLI, ROOT
from tests.web.play_clicks import play_to_the_end


def _start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [*CLI, "play", "random", "--web", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"},
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"your board: (http://\S+)", line)
        if found:
            return proc, found.group(1)
        if not line:
            break
    proc.kill()
    raise AssertionError("play --web printed no address")


def _post(url: str, body: bytes, kind: str = "application/json") -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, body, {"Content-Type": kind})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.mark.slow  # a whole game clicked in chromium: `make test-slow`, run by CI
def test_a_whole_game_on_the_local_page(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    proc, url = _start(tmp_path, "--seed", "7", "--name", "<b>ann</b>")
    try:
        # Hostile or wrong answers are refused with the reason, before and during the game.
        assert _post(url + "move", b"not json")[0] == 400
        assert _post(url + "move", b'{"move": "1B1"}', "text/plain")[0] == 415
        browser.get(url)
        WebDriverWait(browser, 30).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".legal button.move")
        )
        status, body = _post(url + "move", b'{"move": "9Z9"}')
        assert status == 400 and "not a legal move" in body["error"]
        # Another user of the machine cannot guess the address.
        assert _post(url.rsplit("/", 2)[0] + "/guess/move", b'{"move": "1B1"}')[0] == 404
        # The name is the page's text, never its markup.
        assert "<b>ann</b>" in browser.find_element(By.CSS_SELECTOR, ".title").text
        clicked, status_line = play_to_the_end(browser)
        assert clicked >= 10
        assert "Game over" in status_line and "Saved as" in status_line
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, out
    records = list((tmp_path / "arena-data" / "replays").glob("*.json"))
    assert len(records) == 1
    record = json.loads(records[0].read_text())
    assert record["players"] == ["<b>ann</b>", "random"]
    # Every move of the person's seat was the one clicked: none substituted by the referee.
    assert not (record.get("referee") or {}).get("substituted"), record["referee"]
    assert "You win!" in out or "wins." in out or "shared first" in out


@pytest.mark.slow  # a whole game at a second a move: `make test-slow`, run by CI
def test_a_person_who_lets_the_time_run_out_is_not_told_to_think_less(tmp_path: Path) -> None:
    """The move played for a person who does not answer arrives before the deadline: no fault,
    and none of the SDK's warning to bot authors in the person's terminal."""
    proc, _ = _start(
        tmp_path, "--time", "1", "-r", "azul-mini", "--seed", "3", "--replay", "g.json"
    )
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0, out
    assert "after the deadline" not in out and "think less" not in out, out
    referee = json.loads((tmp_path / "g.json").read_text())["referee"]
    assert not referee.get("faults") and [b["termination"] for b in referee["bots"]] == ["ok"] * 2


def test_the_result_counts_as_seen_only_once_its_answer_is_written() -> None:
    """`play --web` stops its server and exits once the page has the result: the result must
    count as seen only after the answer carrying it was written, or the exit can cut that answer
    off and leave the page polling a server that is gone (the likeliest cause of the whole-game
    test above timing out after its last click on a loaded CI machine)."""
    from tournaments.web.live_table import LiveTable
    from tournaments.web.play_server import PlayServer

    table = LiveTable("azul", ["ann", "random"], 0, 7)
    seen_while_answering: list[bool] = []
    snapshot = table.snapshot

    def watched() -> dict[str, Any]:
        snap = snapshot()
        seen_while_answering.append(table.result_seen.is_set())
        return snap

    table.snapshot = watched  # type: ignore[method-assign]
    page = PlayServer(table).start()
    try:
        with urllib.request.urlopen(page.url + "state", timeout=10) as reply:
            assert json.loads(reply.read())["result"] is None
        assert not table.result_seen.is_set()
        table.finish({"text": "over"})
        with urllib.request.urlopen(page.url + "state", timeout=10) as reply:
            assert json.loads(reply.read())["result"] == {"text": "over"}
        assert table.result_seen.wait(5)
    finally:
        page.close()
    assert seen_while_answering == [False, False]
