"""A journey through the site in a real headless chromium for each role: a visitor, a
participant and an organiser, on a live server with a contest that has everything a page can
show (versions passed and failed, ladder games with logs and an analysis, a game still to be
played, a failed one, a browser game against a reference bot).

Every page of the site's URL resolver is visited by some role (`test_the_journeys_visit_every_
page` checks that against the resolver itself), each at 1400 and at 390 px wide, and each must
show: no console error, nothing wider than the window, every chart with both axes labelled and
a legend, every heading with something under it, every table's empty row across all its columns.
Then what each role does there: a visitor waits on a game being played until its page shows it,
a participant asks for an analysis and logs out, an organiser edits the contest's options."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import LiveServerTestCase

from tests.server.helpers import (
    CRASHING_BOT,
    RANDOM_BOT,
    participant,
    passed_version,
    played_record,
    sign_in,
    zip_bytes,
)
from tests.web.browser import PAGE_WAIT, console_errors

WIDTHS = (1400, 390)

# What every page must be, whatever its role (a list of what is wrong; empty: nothing).
PAGE_PROBLEMS = """
const out = [];
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
const wide = document.documentElement.scrollWidth;
const clipped = (e) => {
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    if (getComputedStyle(a).overflowX !== 'visible') return true;
  }
  return false;
};
if (wide > window.innerWidth + 1) {
  // What sticks out: the outermost elements past the window's edge that nothing clips.
  const past = (e) => e && e.getBoundingClientRect().right > window.innerWidth + 1;
  const culprits = Array.from(document.querySelectorAll('body *')).filter(
    (e) => shown(e) && past(e) && !clipped(e) && !past(e.parentElement)
  ).slice(0, 3).map((e) => e.tagName + '.' + e.className + '#' + e.id);
  out.push('wider than the window: ' + wide + ' > ' + window.innerWidth + ' px: ' + culprits);
}
for (const chart of document.querySelectorAll('[data-chart]')) {
  if (!shown(chart)) continue;
  const name = chart.getAttribute('data-chart') || chart.id;
  for (const axis of ['x', 'y']) {
    const box = chart.querySelector('.axis.' + axis);
    const labels = box ? Array.from(box.querySelectorAll('span, text'))
      .filter((t) => !t.classList.contains('title') && t.textContent.trim()) : [];
    if (labels.length < 2) out.push('chart ' + name + ': its ' + axis + ' axis has no scale');
  }
  const legend = chart.querySelector('.legend');
  if (!legend || !legend.textContent.trim()) out.push('chart ' + name + ': no legend');
}
for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
  if (!shown(h)) continue;
  if (!h.textContent.trim()) { out.push('an empty ' + h.tagName); continue; }
  const link = h.querySelector('a');
  if (link && link.textContent.trim() === h.textContent.trim()) continue;  // a control, not a title
  const level = +h.tagName[1];
  let content = false;
  for (let n = h.nextElementSibling; n && !content; n = n.nextElementSibling) {
    if (/^H[1-6]$/.test(n.tagName) && +n.tagName[1] <= level) break;
    if (n.tagName === 'SCRIPT' || !shown(n)) continue;
    content = !!(n.innerText.trim() || n.querySelector('svg, table, form, input, button'));
  }
  if (!content) out.push('heading "' + h.textContent.trim() + '" has nothing under it');
}
for (const table of document.querySelectorAll('table')) {
  const head = table.rows.length ? table.rows[0].cells.length : 0;
  for (const cell of table.querySelectorAll('td[colspan]')) {
    if (+cell.colSpan !== head) {
      out.push('"' + cell.textContent.trim() + '" spans ' + cell.colSpan + ' of ' + head +
               ' columns');
    }
  }
}
return out;
"""


@dataclass
class World:
    """What the contest holds, by what its pages are about."""

    contest: Any
    organiser: Any
    ann_user: Any
    ann: Any
    versions: dict[str, Any]
    games: dict[str, Any]
    table: Any


Page = tuple[str, Callable[[World], list[Any]]]  # a route's name and its arguments

# Each role's pages, by route name (its arguments from the world). The organiser's admin pages
# are listed from the admin's own registry (`admin_pages`).
VISITOR: list[Page] = [
    ("leaderboard", lambda w: []),
    ("contest", lambda w: [w.contest.slug]),
    ("signup", lambda w: []),
    ("login", lambda w: []),
    ("welcome", lambda w: ["MQ", "not-a-token"]),  # a used or wrong link says so
    ("play", lambda w: []),
    ("participant", lambda w: [w.ann.name]),
    ("version", lambda w: [w.ann.name, w.versions["plays"].number]),
    ("game", lambda w: [w.games["analysed"].pk]),
    ("viewer", lambda w: [w.games["analysed"].pk]),
    ("game", lambda w: [w.games["failed"].pk]),
    ("favicon", lambda w: []),
]
PARTICIPANT: list[Page] = [
    ("home", lambda w: []),
    ("tokens", lambda w: []),
    ("participant", lambda w: [w.ann.name]),
    ("version", lambda w: [w.ann.name, w.versions["failed"].number]),
    ("version", lambda w: [w.ann.name, w.versions["plays"].number]),
    ("game", lambda w: [w.games["analysed"].pk]),
    ("game", lambda w: [w.games["plain"].pk]),
    ("seat_log", lambda w: [w.games["plain"].pk, 0]),
    ("play", lambda w: []),
    ("contest_play", lambda w: [w.contest.slug]),
    ("table", lambda w: [w.table.pk]),
    ("table_viewer", lambda w: [w.table.pk]),
]
ORGANISER: list[Page] = [
    ("leaderboard", lambda w: []),
    ("game", lambda w: [w.games["failed"].pk]),
    ("seat_log", lambda w: [w.games["analysed"].pk, 1]),
    ("participant", lambda w: [w.ann.name]),
]
# The resolver's routes that are not pages a person opens, and where they are tested.
NOT_PAGES = {
    "archive": "a file to download: fetched by the participant's journey",
    "table_state": "the board's JSON, polled by the table page",
    "table_move": "the board's moves (POST), tests/server/test_play_browser.py",
    "game_analyse": "a POST: the participant's journey clicks its button",
    "logout": "a POST: the participant's journey clicks its button",
    "api_token": "the command line's JSON API: tests/server/test_web.py",
    "api_submit": "the command line's JSON API: tests/server/test_web.py",
    "api_versions": "the command line's JSON API: tests/server/test_web.py",
    "api_challenge": "the command line's JSON API: tests/server/test_challenge_cli.py",
    "api_compare": "the command line's JSON API: tests/server/test_versiontests.py",
    "api_logs": "the command line's JSON API: tests/server/test_web.py",
}


def site_routes() -> set[str]:
    """The names of the site's routes (the admin's and static files' aside)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    names: set[str] = set()

    def walk(patterns: list[Any]) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace != "admin":
                    walk(p.url_patterns)
            elif isinstance(p, URLPattern) and p.name:
                names.add(p.name)

    walk(get_resolver().url_patterns)
    return names


def test_the_journeys_visit_every_page() -> None:
    visited = {name for name, _ in (*VISITOR, *PARTICIPANT, *ORGANISER)}
    missing = site_routes() - visited - set(NOT_PAGES)
    assert not missing, f"pages no journey visits: {sorted(missing)}"
    assert not (visited & set(NOT_PAGES)), "a route is both a page and not one"


def build_world() -> World:
    """A contest with something on every page."""
    from django.contrib.auth import get_user_model

    from tournaments.domain.analysis.batch import analyse_record
    from tournaments.domain.store import GameOutcome, SeatOutcome
    from tournaments.server.analyses.models import Analysis
    from tournaments.server.contests.models import Contest
    from tournaments.server.ladder import results
    from tournaments.server.ladder.logs import seat_log
    from tournaments.server.ladder.models import Game
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version
    from tournaments.server.tables import play as tables
    from tournaments.server.tables.models import TableGame
    from tournaments.web.live_table import outcome

    contest = Contest.current()
    Contest.objects.filter(pk=contest.pk).update(name="Spring term ladder")
    contest.refresh_from_db()
    organiser = get_user_model().objects.create_user(
        "org", password="an organiser's pass 9", is_staff=True, is_superuser=True
    )
    ann_user, ann = participant("ann")
    _, bob = participant("bob")
    _, ref = participant("ref-random")
    ref.staff_bot = True
    ref.save()
    first = passed_version(ann)
    plays = passed_version(ann, zip_bytes({"bot.py": RANDOM_BOT + b"# v2\n"}))
    failed = submit(ann, [zip_bytes({"bot.py": CRASHING_BOT})])
    Version.objects.filter(pk=failed.pk).update(
        state=Version.FAILED,
        reason="it crashed on its first move (see its log below)",
        checks=[
            {"name": "says Hello", "passed": True, "detail": "in 0.2 s"},
            {"name": "only legal moves", "passed": False, "detail": "RuntimeError"},
        ],
        log_tail="Traceback (most recent call last):\n  File bot.py, line 9\n"
        "RuntimeError: this bot always crashes on its first move",
    )
    bob_v, ref_v = passed_version(bob), passed_version(ref)
    games: dict[str, Any] = {}
    for k, (name, other) in enumerate([("analysed", bob_v), ("plain", ref_v), ("third", bob_v)]):
        game = results.schedule(contest, [plays, other])
        record = played_record([plays.entry_name, other.entry_name], seed=3 + k)
        scores = record["final_scores"]
        logs = [seat_log(game.pk, seat) for seat in (0, 1)]
        logs[0].parent.mkdir(parents=True, exist_ok=True)
        logs[0].write_text("ann's bot thinks\nTraceback (most recent call last):\nKeyError: 3\n")
        logs[1].write_text("")  # a silent bot
        ranks = [1, 2] if scores[0] >= scores[1] else [2, 1]
        results.record(
            game.pk,
            GameOutcome(
                seats=[
                    SeatOutcome(v.entry_name, scores[i], ranks[i], log=str(logs[i]), moves=30)
                    for i, v in enumerate([plays, other])
                ],
                record=record,
                duration=1.0,
            ),
        )
        games[name] = Game.objects.get(pk=game.pk)
    Analysis.objects.create(
        game=games["analysed"],
        status=Analysis.DONE,
        budget=20,
        block=analyse_record(games["analysed"].record, budget=20, seed=1),
    )
    games["failed"] = results.schedule(contest, [first, bob_v])
    Game.objects.filter(pk=games["failed"].pk).update(
        status=Game.FAILED, error="the worker's machine went away (3 attempts)"
    )
    games["scheduled"] = results.schedule(contest, [plays, bob_v])
    names = ["ann", "ref-random"]
    record = played_record(names, seed=11)
    table = TableGame.objects.create(
        contest=contest,
        participant=ann,
        name="ann",
        opponent=ref_v,
        seed=11,
        status=TableGame.DONE,
        state={
            "names": names,
            "seat": 0,
            "ply": 0,
            "result": outcome(names, record["final_scores"], [1, 2]),
        },
        record=tables.stored_record(record, names, seat=0),
    )
    return World(
        contest, organiser, ann_user, ann, {"plays": plays, "failed": failed}, games, table
    )


@pytest.mark.slow  # a live server and chromium: `make test-slow`, run by CI
@pytest.mark.usefixtures("browser_for_class")
class Journeys(LiveServerTestCase):
    browser: Any

    def setUp(self) -> None:
        self.world = build_world()
        self.browser.delete_all_cookies()

    # -- the browser ---------------------------------------------------------------------------
    def url(self, name: str, args: list[Any]) -> str:
        from django.urls import reverse

        return self.live_server_url + reverse(name, args=args)

    def width(self, pixels: int) -> None:
        """The window `pixels` wide, as a phone or a desktop shows the page."""
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            # Not as a phone: one would widen its layout to the page (hiding the overflow).
            {"width": pixels, "height": 900, "deviceScaleFactor": 1, "mobile": False},
        )

    def sign_in(self, user: Any) -> None:
        sign_in(self.browser, self.live_server_url, user)

    def check(self, where: str) -> None:
        """The page now shown is as every page must be, at each width."""
        from selenium.webdriver.support.ui import WebDriverWait

        for pixels in WIDTHS:
            self.width(pixels)

            # The new width reaches the page after the command that sets it has returned.
            def ready(b: Any, pixels: int = pixels) -> bool:
                now = b.execute_script("return [document.readyState, window.innerWidth]")
                return bool(now == ["complete", pixels])

            WebDriverWait(self.browser, PAGE_WAIT).until(
                ready, f"{where}: the page loaded and {pixels} px wide"
            )
            problems = self.browser.execute_script(PAGE_PROBLEMS)
            assert problems == [], f"{where} at {pixels} px: {problems}"
        errors = console_errors(self.browser)
        assert errors == [], f"{where}: console errors {errors}"

    def visit(self, pages: list[Page]) -> None:
        for name, args in pages:
            url = self.url(name, args(self.world))
            self.browser.get(url)
            if name != "favicon":
                self.check(f"{name} {url}")

    def text(self, css: str) -> str:
        from selenium.webdriver.common.by import By

        return str(self.browser.find_element(By.CSS_SELECTOR, css).text)

    # -- the journeys --------------------------------------------------------------------------
    def test_a_visitor(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        from tournaments.domain.store import GameOutcome, SeatOutcome
        from tournaments.server.ladder import results

        self.visit(VISITOR)
        self.browser.get(self.url("play", []))
        assert "Sign in to play" in self.text("#play-refused")
        assert not self.browser.find_elements(By.ID, "play-form")
        self.browser.get(self.url("game", [self.world.games["plain"].pk]))
        assert "Log in" in self.text("#analysis")
        # The replay starts at the start: the table of move 0, not the final one.
        assert self.text(".seats-title") == "Scores so far"
        assert not self.browser.find_elements(By.CSS_SELECTOR, "table.final")
        # A game still to be played: its page waits for it, and shows it once it is.
        scheduled = self.world.games["scheduled"]
        self.browser.get(self.url("game", [scheduled.pk]))
        self.check("a scheduled game")
        assert "refreshes itself" in self.text("#live-note")
        seats = list(scheduled.seats.select_related("version").order_by("seat"))
        record = played_record([s.version.entry_name for s in seats], seed=21)
        scores = record["final_scores"]
        results.record(
            scheduled.pk,
            GameOutcome(
                seats=[
                    SeatOutcome(s.version.entry_name, scores[i], 1 + i) for i, s in enumerate(seats)
                ],
                record=record,
                duration=1.0,
            ),
        )
        WebDriverWait(self.browser, PAGE_WAIT).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, "#app .seats-title")
        )
        assert not self.browser.find_elements(By.ID, "live-note")
        self.check("the game once played")

    def test_a_participant(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        self.sign_in(self.world.ann_user)
        self.visit(PARTICIPANT)
        # The board of a game over: inside the site, the winner named, no moves box left.
        self.browser.get(self.url("table", [self.world.table.pk]))
        assert self.browser.find_elements(By.CSS_SELECTOR, "header a[href='/play/']")
        WebDriverWait(self.browser, PAGE_WAIT).until(
            lambda b: b.find_element(By.CSS_SELECTOR, ".result .verdict").text
        )
        verdict = self.text(".result .verdict")
        assert "wins" in verdict and ("You won." in verdict or "You lost." in verdict)
        assert not self.browser.find_element(By.CSS_SELECTOR, ".panel.yours").is_displayed()
        assert self.browser.find_element(By.CSS_SELECTOR, "a.again").get_attribute("href")
        # Its replay names the person, and no bot at their seat.
        self.browser.get(self.url("table_viewer", [self.world.table.pk]))
        assert "human" not in self.text("#app .seats") and "ann" in self.text("#app .seats")
        # Its archive is a download, and the analysis is asked for from the game's page.
        archive = self.url("archive", [self.world.ann.name, self.world.versions["plays"].number])
        status = self.browser.execute_async_script(
            "fetch(arguments[0]).then(r => arguments[1](r.status + ' ' + "
            "r.headers.get('Content-Disposition')))",
            archive,
        )
        assert status.startswith("200 attachment")
        self.browser.get(self.url("game", [self.world.games["third"].pk]))
        self.browser.find_element(By.CSS_SELECTOR, "#analysis button[type=submit]").click()
        WebDriverWait(self.browser, PAGE_WAIT).until(lambda b: b.find_elements(By.ID, "live-note"))
        assert "analysis queued" in self.text(".messages")
        self.check("a game whose analysis is queued")
        self.browser.find_element(By.CSS_SELECTOR, "header form button").click()
        WebDriverWait(self.browser, PAGE_WAIT).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, "header a[href='/login/']")
        )

    def test_an_organiser(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select, WebDriverWait

        from tournaments.server.contests.models import Contest

        self.sign_in(self.world.organiser)
        self.visit(ORGANISER)
        for url in admin_pages():
            self.browser.get(self.live_server_url + url)
            assert "Django administration" not in self.browser.page_source, url
            assert "Azul Arena" in self.browser.title, (url, self.browser.title)
            self.check(url)
        # The contest's options: a field of the ruleset's family, checked as it is saved.
        self.browser.get(f"{self.live_server_url}/admin/arena_contests/contest/1/change/")
        Select(self.browser.find_element(By.NAME, "ruleset")).select_by_value("pavilion")
        field = self.browser.find_element(By.NAME, "option_wild_order")
        field.send_keys("GOPYBX")
        self.browser.find_element(By.NAME, "_save").click()
        WebDriverWait(self.browser, PAGE_WAIT).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, ".errorlist")
        )
        assert "option wild_order=GOPYBX" in self.text(".errorlist")
        field = self.browser.find_element(By.NAME, "option_wild_order")
        field.clear()
        field.send_keys("GOPYBR")
        self.browser.find_element(By.NAME, "_save").click()
        # The save is a navigation: wait for the page it lands on, not the one it leaves.
        WebDriverWait(self.browser, PAGE_WAIT).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, ".messagelist .success")
        )
        contest = Contest.objects.get(pk=1)
        assert (contest.ruleset, contest.ruleset_options) == ("pavilion", {"wild_order": "GOPYBR"})
        assert console_errors(self.browser) == []


def admin_pages() -> list[str]:
    """The console's pages: its index, each section's, and each model's list and first row."""
    from django.contrib import admin
    from django.urls import reverse

    pages = [reverse("admin:index")]
    for label in sorted({m._meta.app_label for m in admin.site._registry}):
        pages.append(reverse("admin:app_list", args=[label]))
    for model in admin.site._registry:
        meta = model._meta
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages.append(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            )
    return pages
