"""The replay viewer in a real headless chromium: it draws the record's game, move by move."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import CHART_SHOWN, console_errors, drawn_fraction
from tests.web.conftest import run_cli
from tournaments.families import view_for


def _page(record: Path, out: Path) -> Path:
    done = run_cli("replay", "view", str(record), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def fault_page(fault_record: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _page(fault_record, tmp_path_factory.mktemp("pages") / "faulty.html")


def _open(browser: Any, page: Path, move: int | None = None) -> None:
    browser.get(page.as_uri() + (f"#move={move}" if move is not None else ""))
    browser.refresh()  # a new hash alone would not reload the page
    console_errors(browser)  # start each test with an empty log


def _shown(browser: Any) -> dict[str, Any]:
    """What the page shows now: the position, the move's notation, the seats' scores."""
    return browser.execute_script("""
        var pos = document.querySelector('.pos').textContent;
        var note = document.querySelector('.info .move-notation');
        var scores = Array.from(document.querySelectorAll('.drawing .seat-score'))
            .map(function (e) { return parseInt(e.textContent, 10); });
        return {pos: pos, move: note ? note.textContent : null, scores: scores,
                words: (document.querySelector('.info .words') || {}).textContent || null,
                info: document.querySelector('.info').textContent, hash: location.hash};
    """)


def _hash_becomes(browser: Any, expected: str) -> None:
    """The address follows the position (at most ten times a second: wait for it)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 5).until(lambda b: b.execute_script("return location.hash") == expected)


def _key(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


def test_the_page_needs_no_network(fault_page: Path) -> None:
    text = fault_page.read_text()
    assert "<script src" not in text and '<link rel="stylesheet"' not in text
    assert not re.search(r"(src|href)=\"https?://", text)
    # The record is in the page as it was written.
    record = json.loads(re.search(r'id="game-record">(.*?)</script>', text, re.S).group(1))
    assert record["referee"]["match_id"]


def test_stepping_shows_each_move_and_the_records_scores(
    browser: Any, fault_page: Path, fault_record: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    record = json.loads(fault_record.read_text())
    states, moves = view_for("azul").replay_states(record)
    _open(browser, fault_page)
    assert _shown(browser)["pos"].startswith("move 0 /")
    # Through round 1 into round 2: the scores change at the end of a round.
    steps = len(record["rounds"][0]["moves"]) + 3
    for n in range(1, steps + 1):
        _key(browser, Keys.ARROW_RIGHT)
        shown = _shown(browser)
        assert shown["pos"].startswith(f"move {n} / {len(moves)}")
        assert shown["move"] == moves[n - 1]
        assert shown["scores"] == [b["score"] for b in states[n]["boards"]]
        _hash_becomes(browser, f"#move={n}")
        assert ("End of round 1" in shown["info"]) == (n == len(record["rounds"][0]["moves"]))
    assert any(s != 0 for s in _shown(browser)["scores"]), "round 1 scored nothing?"
    _key(browser, Keys.ARROW_LEFT)
    assert _shown(browser)["pos"].startswith(f"move {steps - 1} /")
    _key(browser, Keys.HOME)
    assert _shown(browser)["pos"].startswith("move 0 /")
    assert console_errors(browser) == []


def test_the_slider_reaches_the_last_move_and_the_final_scores(
    browser: Any, fault_page: Path, fault_record: Path
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    record = json.loads(fault_record.read_text())
    total = sum(len(r["moves"]) for r in record["rounds"])
    _open(browser, fault_page)
    slider = browser.find_element(By.CSS_SELECTOR, ".slider")
    # Dragged by the mouse from its left end to past its right end, as a person would.
    ActionChains(browser).move_to_element_with_offset(
        slider, -slider.size["width"] // 2 + 2, 0
    ).click_and_hold().move_by_offset(slider.size["width"] + 40, 0).release().perform()
    shown = _shown(browser)
    assert shown["pos"].startswith(f"move {total} / {total}")
    assert shown["scores"] == record["final_scores"]
    finals = browser.execute_script(
        "return Array.from(document.querySelectorAll('table.final tr[data-seat]')).map("
        "function (r) { return [+r.dataset.seat, +r.querySelector('.final-score').textContent]; })"
    )
    assert sorted(finals) == [[i, s] for i, s in enumerate(record["final_scores"])]
    _hash_becomes(browser, f"#move={total}")
    assert console_errors(browser) == []


def test_the_start_shows_the_start_and_not_the_result(
    browser: Any, fault_page: Path, fault_record: Path
) -> None:
    """As a game is watched, its result waits for its end: at move 0 the seats' table has the
    scores of move 0 and the chart nothing beyond it; the final table comes at the end."""
    from selenium.webdriver.common.keys import Keys

    record = json.loads(fault_record.read_text())
    _open(browser, fault_page, 0)
    seen = browser.execute_script(
        CHART_SHOWN
        + """
        return {final: document.querySelectorAll('table.final').length,
                title: document.querySelector('.seats-title').textContent,
                now: Array.from(document.querySelectorAll('.score-now'))
                  .map(function (e) { return +e.textContent; }),
                shown: SHOWN(document.querySelector('.chartbox')),
                top: document.querySelector('.chartbox .axis.y .top').textContent};
    """
    )
    assert seen["final"] == 0 and seen["title"] == "Scores so far"
    # The score lines are drawn up to move 0 only (of a chart 600 wide).
    assert seen["now"] == [0, 0] and seen["shown"] <= 6
    assert seen["top"] == "10", "the scale of the scores so far, not of the whole game's"
    _key(browser, Keys.END)
    assert browser.find_element("css selector", ".seats-title").text == "Final table"
    shown = browser.execute_script(
        CHART_SHOWN + "return SHOWN(document.querySelector('.chartbox'));"
    )
    assert shown >= 593.5, "the whole game drawn at its end (its last point is at 594)"
    finals = browser.find_elements("css selector", "table.final .final-score")
    assert sorted(int(e.text) for e in finals) == sorted(record["final_scores"])
    assert console_errors(browser) == []


def test_a_step_leaves_the_charts_drawing_alone(browser: Any, fault_page: Path) -> None:
    """A step moves the chart's curtain and marker and changes nothing in its drawing (a
    change there repaints the whole chart on every step); only a new top of the scale redraws
    the lines."""
    _open(browser, fault_page, 0)
    steps = browser.execute_script(
        CHART_SHOWN
        + """
        var box = document.querySelector('.chartbox'), svg = box.querySelector('svg');
        var slider = document.querySelector('.slider'), out = [];
        var changed = 0;
        var watch = new MutationObserver(function (list) { changed += list.length; });
        watch.observe(svg, {attributes: true, childList: true, subtree: true});
        for (var i = 1; i <= 40; i++) {
          var top = box.querySelector('.top').textContent;
          slider.value = i; slider.dispatchEvent(new Event('input'));
          changed += watch.takeRecords().length;
          out.push([i, top === box.querySelector('.top').textContent, changed, SHOWN(box)]);
          changed = 0;
        }
        watch.disconnect();
        return out;
    """
    )
    same_scale = [s for s in steps if s[1]]
    assert len(same_scale) > 30, steps
    assert [s[0] for s in same_scale if s[2]] == [], "steps that changed the chart's drawing"
    shown = [s[3] for s in steps]
    assert shown == sorted(shown) and shown[-1] > shown[0], "the curtain follows the position"
    assert console_errors(browser) == []


def test_no_chart_label_covers_another(browser: Any, fault_page: Path) -> None:
    """The move axis's title and its labels (0, the middle move, the last) each in a place of
    their own, at a wide and at a phone's width."""
    _open(browser, fault_page, 0)
    for width in (1300, 390):
        browser.set_window_size(width, 1000)
        overlaps = browser.execute_script("""
            var out = [];
            document.querySelectorAll('[data-chart]').forEach(function (chart) {
              var texts = Array.from(chart.querySelectorAll('.axis span, .axis-title'));
              for (var i = 0; i < texts.length; i++) {
                for (var j = i + 1; j < texts.length; j++) {
                  var a = texts[i].getBoundingClientRect();
                  var b = texts[j].getBoundingClientRect();
                  if (a.left < b.right && b.left < a.right &&
                      a.top < b.bottom && b.top < a.bottom) {
                    out.push(texts[i].textContent + ' / ' + texts[j].textContent);
                  }
                }
              }
            });
            return out;
        """)
        assert overlaps == [], (width, overlaps)
    browser.set_window_size(1300, 1000)


def test_the_address_keeps_the_move(browser: Any, fault_page: Path, fault_record: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    record = json.loads(fault_record.read_text())
    _open(browser, fault_page, move=7)
    shown = _shown(browser)
    assert shown["pos"].startswith("move 7 /")
    assert shown["move"] == [m for r in record["rounds"] for m in r["moves"]][6]
    _key(browser, Keys.ARROW_LEFT)
    _hash_becomes(browser, "#move=6")
    _key(browser, Keys.END)
    _hash_becomes(browser, f"#move={sum(len(r['moves']) for r in record['rounds'])}")


def test_play_pause_and_speed_keys(browser: Any, fault_page: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _open(browser, fault_page)
    speed = lambda: browser.execute_script(  # noqa: E731
        "return document.querySelector('.speed').textContent"
    )
    assert speed() == "4 moves/s"
    _key(browser, "+")
    _key(browser, "+")
    assert speed() == "16 moves/s"
    _key(browser, "-")
    assert speed() == "8 moves/s"
    _key(browser, " ")
    WebDriverWait(browser, 10).until(lambda b: not _shown(b)["pos"].startswith("move 0 "))
    _key(browser, " ")
    paused = _shown(browser)["pos"]
    assert browser.execute_script("return document.querySelector('.play').textContent") == "play"
    browser.execute_script("return new Promise(function (r) { setTimeout(r, 400); })")
    assert _shown(browser)["pos"] == paused
    assert console_errors(browser) == []


def test_moves_in_words_times_substitutions_and_faults(
    browser: Any, fault_page: Path, fault_record: Path
) -> None:
    record = json.loads(fault_record.read_text())
    ref = record["referee"]
    first_sub = ref["substituted"][0]
    _open(browser, fault_page, move=first_sub + 1)
    shown = _shown(browser)
    assert "substituted" in shown["info"]
    fault = next(f for f in ref["faults"] if f["ply"] == first_sub)
    assert fault["fault"] in shown["info"]
    assert re.match(
        r"takes \d+ (blue|yellow|red|black|white) from (factory \d|the centre)", shown["words"]
    )
    # A move the bot chose itself carries the time the referee measured.
    timed = next(i for i, us in enumerate(ref["move_times_us"]) if us > 0)
    _open(browser, fault_page, move=timed + 1)
    assert re.search(r"\d+(\.\d+)? (µs|ms|s)", _shown(browser)["info"])
    header = browser.execute_script("return document.querySelector('.az').textContent")
    assert "seed 11" in header and "ruleset azul" in header
    assert "2 s per move, wall clock" in header  # the clock the game was timed on
    assert "greedy" in header and ref["bots"][1]["version"] in header
    assert console_errors(browser) == []


def test_a_bots_name_cannot_turn_the_text_after_it_around(browser: Any, tmp_path: Path) -> None:
    """A bot's name is its author's text: a right-to-left override in it would show the rest
    of the line (the other seat's name) backwards. It is shown as an escape."""
    import random

    from referee.engine import new_game
    from tournaments.web.replay_page import viewer_html

    game = new_game("azul", 2, seed=4)
    rng = random.Random(4)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    record = game.record(["ann", "bob"])
    record["referee"] = {"bots": [{"name": "\u202eevil\x07"}, {"name": "fair"}]}
    page = tmp_path / "names.html"
    page.write_text(viewer_html(record), encoding="utf-8")
    _open(browser, page)
    seats = browser.execute_script("return document.querySelector('.meta.seats').textContent")
    assert "(\\u202eevil\\x07)" in seats and "bob (fair)" in seats, seats
    assert "\u202e" not in seats and "\x07" not in seats, repr(seats)
    assert console_errors(browser) == []


def test_the_board_is_drawn(browser: Any, fault_page: Path) -> None:
    from selenium.webdriver.common.by import By

    _open(browser, fault_page, move=12)
    png = browser.find_element(By.CSS_SELECTOR, ".drawing").screenshot_as_png
    drawn, colours = drawn_fraction(png)
    assert drawn > 0.15 and colours > 8, (drawn, colours)


def test_a_four_player_fifty_round_game(browser: Any, big_record: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    record = json.loads(big_record.read_text())
    total = sum(len(r["moves"]) for r in record["rounds"])
    assert len(record["rounds"]) == 50
    _open(browser, _page(big_record, tmp_path / "big.html"))
    _key(browser, Keys.END)
    shown = _shown(browser)
    assert shown["pos"] == f"move {total} / {total} · game over"
    assert shown["scores"] == record["final_scores"]
    assert len(browser.execute_script("return document.querySelectorAll('.board')")) == 4
    assert console_errors(browser) == []


def test_a_summer_pavilion_game(browser: Any, pavilion_record: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    record = json.loads(pavilion_record.read_text())
    states, moves = view_for("pavilion").replay_states(record)
    _open(browser, _page(pavilion_record, tmp_path / "pavilion.html"))
    for n in range(1, 41):
        _key(browser, Keys.ARROW_RIGHT)
        shown = _shown(browser)
        assert shown["move"] == moves[n - 1]
        assert shown["scores"] == [b["score"] for b in states[n]["boards"]]
    # The drawing: 7 stars of 6 spaces per seat, the 10 supply spaces, the wild colour.
    assert len(browser.find_elements(By.CSS_SELECTOR, ".drawing .star")) == 7 * 3
    assert len(browser.find_elements(By.CSS_SELECTOR, ".drawing .star .sp")) == 42 * 3
    assert len(browser.find_elements(By.CSS_SELECTOR, ".drawing .supply .t")) == 10
    wild = browser.find_element(By.CSS_SELECTOR, ".drawing .wild").text
    assert states[40]["wild"] in "PGOYBR" and "wild" in wild
    placed = sum(ch != "." for b in states[40]["boards"] for star in b["stars"] for ch in star)
    drawn = browser.execute_script(
        "return document.querySelectorAll('.drawing .star .sp > .t:not(.free)').length"
    )
    assert drawn == placed
    _key(browser, Keys.END)
    assert _shown(browser)["scores"] == record["final_scores"]
    png = browser.find_element(By.CSS_SELECTOR, ".drawing").screenshot_as_png
    assert drawn_fraction(png)[0] > 0.15
    assert console_errors(browser) == []
