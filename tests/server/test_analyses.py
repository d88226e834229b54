"""Game analyses on the server: a participant asks for the analysis of a game its bot played
(within a daily quota; staff: any game), the ladder worker makes it by its share of the slots
in a process of its own, and the game page and its viewer show it. Real games played by a real
worker."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, TransactionTestCase, override_settings

from referee import niceness
from tests.server.helpers import RANDOM_BOT, participant, run_worker, run_worker_until, zip_bytes
from tournaments.server.analyses.models import Analysis
from tournaments.server.analyses.queue import AnalysisProcesses
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker

PASSWORD = "a long enough pass 7"


# Niceness 0: on a loaded test machine the lowest priority would starve the analysis for minutes.
@override_settings(ANALYSIS_BUDGET=10, ANALYSIS_DAILY_QUOTA=1, ANALYSIS_NICE=0)
class AnalysisTests(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        contest.ruleset, contest.time_per_move = "azul-mini", 0.5
        contest.save()
        for name in ("ann", "ben"):
            _, who = participant(name, PASSWORD)
            version = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
            enter(version)
        participant("cat", PASSWORD)  # plays no game
        participant("org", PASSWORD, staff=True)
        stats = run_worker(LadderWorker(max_games=2, validate=False, poll=0.05))
        self.assertEqual(stats.played, 2)
        self.first, self.second = Game.objects.filter(status=Game.DONE).order_by("pk")

    def client_of(self, name: str) -> Client:
        client = Client()
        client.force_login(get_user_model().objects.get(username=name))
        return client

    def ask(self, client: Client, game: Game) -> str:
        page = client.post(f"/games/{game.pk}/analyse", follow=True)
        return page.content.decode()

    @pytest.mark.slow  # two games and two analyses: about 20 s on a loaded machine
    def test_a_participant_asks_the_worker_makes_it_the_game_page_shows_it(self) -> None:
        ann = self.client_of("ann")
        page = ann.get(f"/games/{self.first.pk}/").content.decode()
        self.assertIn("Analyse this game", page)
        self.assertIn("1 of today's analyses left", page)
        self.assertIn("analysis queued", self.ask(ann, self.first))
        # The daily quota: a second game is refused, said, and nothing is queued.
        refused = self.ask(ann, self.second)
        self.assertIn("daily quota", refused)
        self.assertEqual(Analysis.objects.count(), 1)
        # Someone who did not play may not ask; staff may ask for any game, beyond any quota.
        self.assertIn("only a game your bot played", self.ask(self.client_of("cat"), self.second))
        self.assertNotIn(
            "Analyse this game",
            self.client_of("cat").get(f"/games/{self.second.pk}/").content.decode(),
        )
        self.assertIn("analysis queued", self.ask(self.client_of("org"), self.second))
        self.assertEqual(Analysis.objects.filter(status=Analysis.QUEUED).count(), 2)
        # The worker makes them by their share of its slots, though the ladder always has a
        # ranked game to start (two active versions): it is never starved.
        worker = LadderWorker(poll=0.05, validate=False)
        made = Analysis.objects.filter(status__in=[Analysis.DONE, Analysis.FAILED]).count
        stats = run_worker_until(worker, lambda: made() == 2, 120)
        self.assertEqual((stats.analysed, stats.errors), (2, []))
        self.assertGreater(stats.played, 0, "the ladder went on beside them")
        done = Analysis.objects.get(game=self.first)
        self.assertEqual((done.status, done.error), (Analysis.DONE, ""))
        self.assertEqual(done.budget, 10)
        page = ann.get(f"/games/{self.first.pk}/").content.decode()
        self.assertIn("Analysed", page)
        self.assertIn("accuracy", page)
        # The viewer draws the analysis: its data holds the analysed moves.
        viewer = ann.get(f"/games/{self.first.pk}/viewer").content.decode()
        data = json.loads(re.search(r'id="game-data">(.*?)</script>', viewer, re.S).group(1))
        self.assertEqual(len(data["analysis"]["moves"]), len(done.block["moves"]))
        self.assertTrue(data["analysis"]["moves"])

    def test_a_visitor_cannot_ask(self) -> None:
        page = Client().post(f"/games/{self.first.pk}/analyse")
        self.assertEqual(page.status_code, 302)
        self.assertIn("login", page["Location"])
        self.assertFalse(Analysis.objects.exists())


@override_settings(ANALYSIS_NICE=3)
def test_analyses_run_below_the_worker_that_starts_them() -> None:
    processes = AnalysisProcesses(1)
    try:
        below = processes.pool().submit(niceness).result(timeout=120)
    finally:
        processes.close()
    assert below == min(19, niceness() + 3)
