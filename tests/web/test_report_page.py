"""The tournament report in a real headless chromium: it says what `tournament show` says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import console_errors, drawn_fraction
from tests.web.conftest import ROOT, run_cli


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament: random, greedy and a bot that plays illegal moves (faults)."""
    folder = tmp_path_factory.mktemp("tournament")
    db = folder / "t.db"
    done = run_cli(
        "tournament",
        "run",
        "random",
        "greedy",
        f"illegal={ROOT / 'tests/bots/illegal_bot.py'}",
        "--games-per-pairing",
        "2",
        "--db",
        str(db),
        "--plain",
        "--time-per-move",
        "1",
        "--seed",
        "5",
        "--concurrency",
        "2",
        cwd=folder,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return db


@pytest.fixture(scope="module")
def report_page(tournament_db: Path) -> Path:
    out = tournament_db.with_name("report.html")
    done = run_cli("tournament", "report", "--db", str(tournament_db), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_the_leaderboard_is_the_one_tournament_show_prints(
    browser: Any, tournament_db: Path, report_page: Path
) -> None:
    shown = run_cli("tournament", "show", "--db", str(tournament_db), "--json")
    assert shown.returncode == 0, shown.stderr
    expected = json.loads(shown.stdout)["leaderboard"]
    browser.get(report_page.as_uri())
    rows = browser.execute_script("""
        return Array.from(document.querySelectorAll('table.leaderboard tbody tr')).map(
          function (r) {
            var t = function (c) { return r.querySelector('.' + c).textContent; };
            return {entry: t('entry'), mu: t('mu'), sigma: t('sigma'),
                    conservative: t('conservative'), games: +t('games'),
                    wins: parseInt(t('wins'), 10), faults: +t('faults')};
          });""")
    assert [r["entry"] for r in rows] == [r["entry"] for r in expected]
    for got, want in zip(rows, expected, strict=True):
        assert got["mu"] == f"{want['mu']:.2f}" and got["sigma"] == f"{want['sigma']:.2f}"
        assert got["conservative"] == f"{want['conservative']:.2f}"
        assert (got["games"], got["wins"], got["faults"]) == (
            want["games"],
            want["wins"],
            want["faults"],
        )
    assert rows[-1]["entry"] == "illegal" and rows[-1]["faults"] > 0
    embedded = browser.execute_script(
        "return JSON.parse(document.getElementById('report-data').textContent).leaderboard"
    )
    for row in embedded:
        assert 0 <= (row.pop("p_better_than_next") or 0) <= 1
    assert embedded == expected
    assert console_errors(browser) == []


def test_a_mean_score_of_few_games_has_no_interval_but_says_so(
    browser: Any, tournament_db: Path, report_page: Path
) -> None:
    """4 games each: a t interval would span more than any score ("76.5 (0.0-311.6)" for
    2 games); the report and `tournament show` say "too few games" instead."""
    from tournaments.domain.report import MEAN_INTERVAL_MIN_GAMES

    browser.get(report_page.as_uri())
    cells = browser.execute_script("""
        return Array.from(document.querySelectorAll('table.leaderboard tbody tr')).map(
          function (r) { return [+r.querySelector('.games').textContent,
                                 r.cells[r.cells.length - 3].textContent]; });""")
    assert cells and all(games < MEAN_INTERVAL_MIN_GAMES for games, _ in cells)
    for _, text in cells:
        assert text.endswith("(too few games)") and "\u2013" not in text, text
    shown = run_cli("tournament", "show", "--db", str(tournament_db))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count("(too few games)") == len(cells), shown.stdout


def test_every_game_opens_in_the_viewer_inside_the_report(browser: Any, report_page: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(report_page.as_uri())
    buttons = browser.find_elements(By.CSS_SELECTOR, "table.games button.watch")
    assert len(buttons) == 6
    buttons[1].click()
    modal = browser.find_element(By.ID, "modal")
    assert modal.is_displayed()
    pos = lambda: browser.execute_script(  # noqa: E731
        "return document.querySelector('#modal .pos').textContent"
    )
    assert pos().startswith("move 0 /")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert pos().startswith("move 1 /")
    WebDriverWait(browser, 5).until(
        lambda b: b.execute_script("return location.hash") == "#game=1&move=1"
    )
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    assert not modal.is_displayed()
    # A link to a moment of a game opens it there.
    browser.get(report_page.as_uri() + "#game=2&move=5")
    browser.refresh()
    assert browser.find_element(By.ID, "modal").is_displayed() and pos().startswith("move 5 /")
    png = browser.find_element(By.CSS_SELECTOR, "#modal .drawing").screenshot_as_png
    assert drawn_fraction(png)[0] > 0.15
    assert console_errors(browser) == []


def test_the_report_draws_its_plots(browser: Any, report_page: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(report_page.as_uri())
    text = browser.find_element(By.ID, "report").text
    for heading in (
        "Leaderboard",
        "Results by seat",
        "Crosstable",
        "Rating history",
        "Faults",
        "Games",
        "The game to watch",
    ):
        assert heading in text
    assert "illegal" in browser.find_element(By.CSS_SELECTOR, "table.faults").text
    lines = browser.find_elements(By.CSS_SELECTOR, ".hist svg polyline")
    assert len(lines) == 3
    drawn, colours = drawn_fraction(
        browser.find_element(By.CSS_SELECTOR, ".hist svg").screenshot_as_png
    )
    assert drawn > 0.05 and colours > 5
    # The legend shows each line's colour: a visible swatch, one colour per line.
    dots = browser.find_elements(By.CSS_SELECTOR, ".hist .pick .dot")
    assert len(dots) == 3 and all(d.size["width"] >= 8 and d.size["height"] >= 8 for d in dots)
    assert len({d.value_of_css_property("background-color") for d in dots}) == 3
    assert console_errors(browser) == []


def test_the_rating_charts_labels_keep_their_shape_at_any_width(
    browser: Any, report_page: Path
) -> None:
    """The rating history's labels are beside its stretched drawing, not in it: on a phone
    they are as wide as on a wide screen, and both axes have a scale and the lines a legend."""
    seen = {}
    for width in (1300, 390):
        browser.set_window_size(width, 1000)
        browser.get(report_page.as_uri())
        seen[width] = browser.execute_script("""
            var chart = document.querySelector('.hist[data-chart="rating"]');
            if (!chart) return null;
            var labels = function (axis) {
              return Array.from(chart.querySelectorAll('.axis.' + axis + ' span'))
                .map(function (s) { return [s.textContent, s.getBoundingClientRect().width]; });
            };
            return {x: labels('x'), y: labels('y'), text: chart.querySelectorAll('svg text').length,
                    legend: chart.querySelector('.legend').textContent};
        """)
    browser.set_window_size(1300, 1000)
    wide, phone = seen[1300], seen[390]
    assert wide is not None and phone is not None, "a chart with axes (data-chart)"
    assert wide["text"] == phone["text"] == 0, "no text in the stretched drawing"
    assert len(wide["x"]) >= 2 and len(wide["y"]) == 5 and wide["x"][0][0] == "0"
    assert [t for t, _ in wide["x"] + wide["y"]] == [t for t, _ in phone["x"] + phone["y"]]
    for (_, a), (_, b) in zip(wide["x"] + wide["y"], phone["x"] + phone["y"], strict=True):
        assert abs(a - b) < 0.5, (wide, phone)
    assert all(name in phone["legend"] for name in ("random", "greedy", "illegal"))
    assert console_errors(browser) == []


def test_report_of_no_database_is_a_clear_error(tmp_path: Path) -> None:
    done = run_cli("tournament", "report", "--db", str(tmp_path / "none.db"))
    assert done.returncode == 2 and "no tournament database" in done.stderr
