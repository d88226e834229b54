"""`bench viewer`: how heavy and how smooth the replay page of the longest possible game is."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.engine import FLOOR, new_game
from tournaments.web import browser
from tournaments.web.replay_page import viewer_html


def capped_game(players: int = 4, seed: int = 5) -> dict[str, Any]:
    """The record of a game that lasts the 50 rounds of the cap: every seat floors every tile."""
    game = new_game("azul", players, seed=seed)
    while not game.is_over():
        moves = game.legal_moves()
        floor = [m for m in moves if not m.is_wall and m.line == FLOOR]
        game.push(floor[0] if floor else moves[0])
    return game.record(["ann", "bob", "cyd", "dee"][:players])


# Every position in turn, as the slider's input event shows it, each laid out (the page's own
# work per step of a drag or of play at full speed).
_STEP_ALL = """
var s = document.querySelector('.slider'), n = +s.max, times = [];
for (var i = 0; i <= n; i++) {
  var t = performance.now();
  s.value = i; s.dispatchEvent(new Event('input')); document.body.offsetHeight;
  times.push(performance.now() - t);
}
times.sort(function (a, b) { return a - b; });
return [n, times.reduce(function (a, b) { return a + b; }, 0) / times.length,
        times[Math.floor(times.length * 0.95)], times[times.length - 1]];
"""


def run_bench(players: int = 4, use_browser: bool = True) -> dict[str, Any]:
    """Figures: moves, page build seconds and bytes; with a browser, the load time and the
    milliseconds to show one position (mean, 95th percentile, max)."""
    record = capped_game(players)
    t0 = time.perf_counter()
    page = viewer_html(record)
    build = time.perf_counter() - t0
    out: dict[str, Any] = {
        "players": players,
        "rounds": len(record["rounds"]),
        "moves": sum(len(r["moves"]) for r in record["rounds"]),
        "build_s": round(build, 4),
        "page_bytes": len(page.encode()),
        "browser": None,
        "load_ms": None,
        "step_ms_mean": None,
        "step_ms_p95": None,
        "step_ms_max": None,
    }
    why = browser.missing() if use_browser else "not asked for"
    if why is not None:
        out["browser"] = f"not measured: {why}"
        return out
    folder = Path(tempfile.mkdtemp(prefix="azul-bench-viewer-"))
    try:
        path = folder / "game.html"
        path.write_text(page, encoding="utf-8")
        driver = browser.start(folder / "profile")
        try:
            t0 = time.perf_counter()
            driver.get(path.as_uri())
            out["load_ms"] = round((time.perf_counter() - t0) * 1000, 1)
            _, mean, p95, worst = driver.execute_script(_STEP_ALL)
            out.update(
                browser="chromium " + driver.capabilities.get("browserVersion", ""),
                step_ms_mean=round(mean, 2),
                step_ms_p95=round(p95, 2),
                step_ms_max=round(worst, 2),
            )
        finally:
            driver.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out
