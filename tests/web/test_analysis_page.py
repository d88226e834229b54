"""The analysed game in the replay viewer, in a real headless chromium: the evaluation chart,
the labels on the move list, "best was ..." at each move and the button that draws the best
move on the board. The game is a real match through the referee, analysed by the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine import Game
from tests.web.browser import CHART_SHOWN, console_errors
from tests.web.conftest import run_cli
from tournaments.families import view_for
from tournaments.web.analysis_view import analysis_data


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """greedy against random (azul-mini, to the end), analysed at a small budget, as a page."""
    folder = tmp_path_factory.mktemp("analysed")
    game, annotated, page = folder / "g.json", folder / "g.analysed.json", folder / "g.html"
    done = run_cli("match", "greedy", "random", "-r", "azul-mini", "-s", "3", "--replay",
                   str(game), "--json", "--isolation", "none", cwd=folder)  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = run_cli("replay", "analyse", str(game), "--budget", "20", "-o", str(annotated))
    assert done.returncode == 0, done.stderr
    done = run_cli("replay", "view", str(annotated), "-o", str(page))
    assert done.returncode == 0, done.stderr
    return page, json.loads(annotated.read_text())


def _open(browser: Any, page: Path, move: int) -> None:
    browser.get(page.as_uri() + f"#move={move}")
    browser.refresh()
    console_errors(browser)


def test_chart_and_labels_follow_the_analysis(browser: Any, analysed: tuple) -> None:  # type: ignore[type-arg]
    page, record = analysed
    moves = record["analysis"]["moves"]
    labelled = {m["ply"]: m["label"] for m in moves if m["label"]}
    assert labelled, "random's moves should earn labels"
    total = sum(len(r["moves"]) for r in record["rounds"])
    script = (
        CHART_SHOWN
        + """
        var lines = Array.from(document.querySelectorAll('.evalbox polyline.eval-line'));
        return {
          points: lines.map(function (l) {
            var text = (l.getAttribute('points') || '').trim();
            return text ? text.split(' ').length : 0; }),
          marks: document.querySelectorAll('.evalplot .eval-mark:not([hidden])').length,
          shown: SHOWN(document.querySelector('.evalbox')),
          legend: document.querySelector('.evalbox .legend').textContent,
          labelled: Array.from(document.querySelectorAll('.moves li')).map(function (li, i) {
            var s = li.querySelector('.sym');
            return s ? [i, li.className.match(/lbl-(\\w+)/)[1], s.textContent] : null;
          }).filter(Boolean)
        };
    """
    )
    # At the start the chart shows nothing of the game to come (it would tell the result).
    _open(browser, page, 0)
    shown = browser.execute_script(script)
    assert shown["shown"] <= 6 and shown["marks"] == 0
    # Every colour has its key: the seats' lines and the labels' marks.
    for key in (*record["players"], "?! inaccuracy", "? mistake", "?? blunder"):
        assert key in shown["legend"], (key, shown["legend"])
    _open(browser, page, total)
    shown = browser.execute_script(script)
    per_seat = [sum(m["seat"] == s for m in moves) for s in (0, 1)]
    assert sorted(shown["points"]) == sorted(per_seat) and shown["shown"] >= 593.5
    assert shown["marks"] == len(labelled)
    symbols = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    assert shown["labelled"] == [[p, lab, symbols[lab]] for p, lab in sorted(labelled.items())]
    assert console_errors(browser) == []


def test_best_move_button_draws_the_best_move(browser: Any, analysed: tuple) -> None:  # type: ignore[type-arg]
    page, record = analysed
    worst = max(record["analysis"]["moves"], key=lambda m: m["loss"])
    assert worst["best"] != worst["played"]
    n = worst["ply"] + 1
    _open(browser, page, n)
    info = browser.find_element("css selector", ".info").text
    assert f"best was {worst['best']} (+" in info or f"best was {worst['best']} (\u2212" in info
    assert worst["label"] in info and f"{worst['loss']:.1f} points lost" in info
    tiles = "return document.querySelectorAll('.drawing .table-top .t:not(.tM)').length"
    played_tiles = browser.execute_script(tiles)
    # The table after the best move, by the engine: the button must draw that one.
    game = Game.from_record(record, upto=worst["ply"])
    game.push(game.parse_move(worst["best"]))
    after = game.to_state()
    expected = len("".join(after["factories"])) + len(after["centre"])
    browser.find_element("css selector", ".info .show-best").click()
    assert browser.execute_script(tiles) == expected
    assert "showing-best" in browser.find_element("css selector", ".drawing").get_attribute("class")
    browser.find_element("css selector", ".info .show-best").click()  # back to the game's move
    assert browser.execute_script(tiles) == played_tiles
    assert console_errors(browser) == []


def test_a_hostile_analysis_block_is_checked_before_it_is_drawn(analysed: tuple) -> None:  # type: ignore[type-arg]
    _page, record = analysed
    states, moves = view_for(record["ruleset"]).replay_states(record)
    good = record["analysis"]["moves"][0]
    hostile = {
        **record,
        "analysis": {
            "moves": [
                {**good, "best": "<b>1</b>"},  # not a move: no best shown
                {**good, "best": "<img src=x onerror=alert(1)>"},  # too long: dropped
                {**good, "ply": 10**9},
                {**good, "loss": float("nan")},
                {**good, "label": "<script>"},
                "not a move",
            ],
            "summary": "nonsense",
        },
    }
    data = analysis_data(hostile, view_for(record["ruleset"]), states, moves)
    assert data is not None and data["summary"] == []
    assert list(data["moves"]) == [str(good["ply"])]
    entry = data["moves"][str(good["ply"])]
    assert entry["best"] == entry["played"] and "best_frame" not in entry
