"""A third game family, azul-tiny (tests/families/tiny), plays a tournament, a viewer page and an
SDK bot through its descriptor alone: the test registers it (`register(TINY)`), nothing shared
names it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.engine import FAMILIES, RULESETS, EngineError, Game, new_game, register, replay
from referee.engine.game import ENGINES
from tests.families.tiny.family import TINY
from tests.web.browser import chromium_browser, console_errors

BOT = Path(__file__).with_name("tiny") / "bot.py"


@pytest.fixture(scope="module")
def tiny() -> Iterator[None]:
    """azul-tiny registered for this module's tests, and gone after them."""
    register(TINY)
    yield
    del FAMILIES["tiny"], ENGINES["tiny"], RULESETS["azul-tiny"]


def _played(seed: int) -> Game:
    game, rng = new_game("azul-tiny", 2, seed=seed), random.Random(seed)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    return game


def test_a_registered_family_plays_replays_and_travels_as_generic_state(tiny: None) -> None:
    from referee.protocol.codec import decode_state, encode_state

    game = _played(3)
    assert replay(game.record()).scores == game.scores
    state = game.to_state()
    message = encode_state(state)
    assert message.extra_json and not message.HasField("pavilion")  # no message of its own
    assert decode_state(message) == state
    with pytest.raises(EngineError, match=r"azul-tiny has no option wild_order.*has no options"):
        new_game("azul-tiny", 2, wild_order="GOPYBR")


def test_a_family_cannot_take_another_familys_name_or_ruleset(tiny: None) -> None:
    from dataclasses import replace

    from referee.engine.classic import FAMILY as CLASSIC

    with pytest.raises(EngineError, match="already registered"):
        register(replace(TINY, name="classic", rulesets=()))
    with pytest.raises(EngineError, match="says family classic"):
        register(replace(TINY, rulesets=CLASSIC.rulesets))


def test_a_tournament_of_two_sdk_bots(tiny: None, tmp_path: Path) -> None:
    from tournaments.domain.entries import Entry
    from tournaments.domain.settings import MatchSettings
    from tournaments.domain.store import Store
    from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament

    entries = [Entry("one", str(BOT)), Entry("two", str(BOT))]
    config = TournamentConfig(entries, MatchSettings(ruleset="azul-tiny", isolation="none"), seed=1)
    with Store.open(tmp_path / "t.db") as store:
        config, games = prepare(store, config)
        summary = asyncio.run(run_tournament(store, config, games, concurrency=2))
        assert (summary.played, summary.failed) == (2, 0), summary.errors
        done = list(store.games(done_only=True))
        assert all(s.termination == "ok" for g in done for s in g.seats)
        record = store.replay(done[0].game.game_id)
    assert record is not None and record["ruleset"] == "azul-tiny"
    assert replay(record).is_over()


def _record() -> dict[str, Any]:
    return _played(5).record(["ann", "bob"])


def test_the_viewer_page_draws_it_with_its_views_renderer(tiny: None) -> None:
    from tournaments.web.replay_page import game_data, viewer_html

    record = _record()
    data = game_data(record)
    assert data["family"] == "tiny" and len(data["frames"]) == len(data["plies"]) + 1
    assert data["plies"][0]["words"].startswith("takes ")
    page = viewer_html(record)
    assert "AzulViewer.renderers.tiny" in page and "AzulViewer.renderers.pavilion" not in page


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium_browser()


def test_the_viewer_page_in_chromium(tiny: None, browser: Any, tmp_path: Path) -> None:
    from tournaments.web.replay_page import viewer_html

    record = _record()
    page = tmp_path / "tiny.html"
    page.write_text(viewer_html(record), encoding="utf-8")
    browser.get(page.as_uri() + f"#move={sum(len(r['moves']) for r in record['rounds'])}")
    browser.refresh()
    walls = browser.execute_script(
        "return Array.from(document.querySelectorAll('.tiny-wall')).map(e => e.textContent)"
    )
    assert walls == [b["wall"] for b in _played(5).to_state()["boards"]]
    assert console_errors(browser) == []
