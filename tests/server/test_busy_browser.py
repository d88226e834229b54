"""The busy demo in a real headless chromium: on a live server whose ladder is saturated (four
teams: a ranked game can always start) and played by a real worker, an organiser presses
"Analyse this game" and the game's page, refreshing itself, shows the analysis; a participant's
new version that passed gets its version test, whose first pair is played and whose verdict the
version's page shows; the ranked games go on meanwhile. Small budgets (azul-mini, 0.1 s a move,
10 simulations a decision, a test of one pair)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.test import LiveServerTestCase, override_settings

from tests.server.helpers import participant, passed_version, run_worker, run_worker_until, sign_in
from tests.web.browser import console_errors
from tournaments.server.analyses.models import Analysis
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game
from tournaments.server.versiontests import runs as versiontests
from tournaments.server.versiontests.models import VersionTest
from tournaments.server.worker.loop import LadderWorker

BOUND = 120  # seconds any one wait may take before the test fails saying what it waited for


@override_settings(ANALYSIS_BUDGET=10, ANALYSIS_NICE=0)
@pytest.mark.usefixtures("browser_for_class")
class BusyDemoTests(LiveServerTestCase):
    browser: Any

    def setUp(self) -> None:
        contest = Contest.current()
        Contest.objects.filter(pk=contest.pk).update(ruleset="azul-mini", time_per_move=0.1)
        self.contest = Contest.current()
        self.teams = {}
        for name in ("ann", "ben", "cat", "dan"):
            _, self.teams[name] = participant(name)
            passed_version(self.teams[name])
        self.organiser, _ = participant("org", staff=True)
        # One game played before the ladder gets busy: the one analysed.
        stats = run_worker(LadderWorker(concurrency=1, max_games=1, validate=False, poll=0.05))
        self.assertEqual(stats.played, 1, stats)
        self.game = Game.objects.get(status=Game.DONE)
        # ann's new version, passed: its automatic test (v2 vs v1) is made as the worker
        # watches the contest; here at once, and of a single pair so that a verdict comes soon.
        self.new = passed_version(self.teams["ann"])
        versiontests.ensure_automatic(self.contest)
        VersionTest.objects.filter(new=self.new).update(max_games=2)

    def sign_in(self, user: Any) -> None:
        sign_in(self.browser, self.live_server_url, user)

    def test_an_analysis_and_a_version_test_on_a_saturated_ladder(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        ranked = Game.objects.filter(kind=Game.LADDER, status=Game.DONE)
        ranked_before = ranked.count()
        test = VersionTest.objects.get(new=self.new)
        stop = threading.Event()
        stats: list[Any] = []
        worker = LadderWorker(concurrency=2, validate=False, poll=0.05)

        def play() -> None:  # the busy ladder, until the test has seen what it waits for
            stats.append(run_worker_until(worker, stop.is_set, 4 * BOUND))

        ladder = threading.Thread(target=play)
        ladder.start()
        try:
            self.sign_in(self.organiser)
            b = self.browser
            b.get(f"{self.live_server_url}/games/{self.game.pk}/")
            b.find_element(By.CSS_SELECTOR, "#analysis button[type=submit]").click()
            WebDriverWait(b, BOUND).until(lambda d: "analysis queued" in d.page_source)
            # The page refreshes itself until the analysis is done.
            WebDriverWait(b, BOUND).until(
                lambda d: "Analysed (the replay below shows it" in d.page_source
            )
            assert "accuracy" in b.find_element(By.ID, "analysis").text
            assert Analysis.objects.get(game=self.game).status == Analysis.DONE

            version_page = f"{self.live_server_url}/p/ann/v/{self.new.number}/"

            def verdict_shown(driver: Any) -> bool:
                driver.get(version_page)
                found = driver.find_elements(By.CSS_SELECTOR, "#version-tests li:not(.running)")
                return bool(found)

            WebDriverWait(b, BOUND, poll_frequency=1).until(verdict_shown)
            line = b.find_element(By.CSS_SELECTOR, "#version-tests li").text
            assert line.startswith("v2 vs v1: ") and "2 games" in line, line
            assert not console_errors(b)
        finally:
            stop.set()
            ladder.join(BOUND)
        test.refresh_from_db()
        self.assertTrue(test.verdict, "the test reached its verdict")
        self.assertEqual(test.games.filter(status=Game.DONE).count(), 2)
        self.assertTrue(stats, "the worker did not stop")
        self.assertEqual(stats[0].infrastructure_failures, 0, stats[0])
        self.assertGreater(ranked.count(), ranked_before, "the ranked games went on meanwhile")
