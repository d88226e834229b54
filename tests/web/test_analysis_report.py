"""`replay analyse --db --save` and the tournament report: each entry's accuracy beside its
rating, in a real headless chromium, from a real tournament's games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import console_errors
from tests.web.conftest import run_cli
from tournaments.domain.store import Store


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """greedy and random play two games of azul-mini; both are analysed into the database."""
    folder = tmp_path_factory.mktemp("analysed-tournament")
    db = folder / "t.db"
    done = run_cli("tournament", "run", "greedy", "random", "--ruleset", "azul-mini",
                   "--games-per-pairing", "2", "--db", str(db), "--plain", "--seed", "4",
                   "--isolation", "none", cwd=folder, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    with Store.open(db, create=False) as store:
        ids = [g.game.game_id for g in store.games(done_only=True)]
    games = [arg for game_id in ids for arg in ("--game", game_id)]
    done = run_cli("replay", "analyse", "--db", str(db), *games, "--budget", "20", "--save")
    assert done.returncode == 0, done.stderr
    with Store.open(db, create=False) as store:
        assert all("analysis" in (store.replay(i) or {}) for i in ids)
    page = folder / "report.html"
    done = run_cli("tournament", "report", "--db", str(db), "-o", str(page))
    assert done.returncode == 0, done.stderr
    return db, page


def test_the_report_shows_each_entrys_accuracy_beside_its_rating(
    browser: Any, report: tuple[Path, Path]
) -> None:
    _db, page = report
    browser.get(page.as_uri())
    rows = browser.execute_script("""
        var heads = Array.from(document.querySelectorAll('table.leaderboard th'))
            .map(function (th) { return th.textContent; });
        return {heads: heads, rows: Array.from(document.querySelectorAll(
            'table.leaderboard tbody tr')).map(function (tr) {
              return [tr.dataset.entry, tr.querySelector('.accuracy').textContent]; })};
    """)
    assert rows["heads"][rows["heads"].index("conservative") + 1] == "accuracy"
    accuracy = {entry: float(text) for entry, text in rows["rows"]}
    assert set(accuracy) == {"greedy", "random"}
    assert accuracy["greedy"] > accuracy["random"]
    assert console_errors(browser) == []


def test_save_needs_a_database(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    record.write_text(json.dumps({"ruleset": "azul-mini", "players": 2, "rounds": []}))
    done = run_cli("replay", "analyse", str(record), "--save")
    assert done.returncode == 2 and "--save" in done.stderr and "--db" in done.stderr
