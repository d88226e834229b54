"""One queue of work on a busy ladder (worker/shares.py, worker/backlog.py): a real worker whose
ladder always has a ranked game to start still makes the analyses and version tests asked for,
by their shares; the organisers see what waits and since when; a change of the contest's
ruleset or time applies to the next game without a restart. Real bots, a real worker."""

from __future__ import annotations

from django.test import Client, TestCase, TransactionTestCase, override_settings

from tests.server.helpers import (
    participant,
    passed_version,
    run_worker_until,
)
from tournaments.server.analyses import queue as analyses
from tournaments.server.analyses.models import Analysis
from tournaments.server.contests.models import Contest
from tournaments.server.contests.services import ContestError, GameChange
from tournaments.server.ladder.models import Game
from tournaments.server.versiontests import runs as versiontests
from tournaments.server.versiontests.models import VersionTest
from tournaments.server.worker.backlog import backlog, describe
from tournaments.server.worker.loop import LadderWorker
from tournaments.server.worker.services import change_contest, show_contest


@override_settings(ANALYSIS_BUDGET=10, ANALYSIS_NICE=0)
class BusyLadderTests(TransactionTestCase):
    def setUp(self) -> None:
        self.contest = Contest.current()
        Contest.objects.filter(pk=self.contest.pk).update(ruleset="azul-mini", time_per_move=0.2)
        self.contest.refresh_from_db()
        # Four teams: a ranked game can always start. ann has a second version to test.
        self.teams = {}
        for name in ("ann", "ben", "cat", "dan"):
            _, who = participant(name)
            self.teams[name] = who
            passed_version(who)
        self.new = passed_version(self.teams["ann"])
        self.organiser, _ = participant("org", staff=True)

    def finished_game(self) -> Game:
        worker = LadderWorker(concurrency=1, max_games=1, validate=False, poll=0.05)
        run_worker_until(worker, lambda: False, 60)
        return Game.objects.filter(status=Game.DONE).order_by("pk")[0]

    def test_a_saturated_ladder_still_makes_analyses_and_plays_version_tests(self) -> None:
        game = self.finished_game()
        analyses.request_analysis(self.organiser, game.pk)
        # What waits, as `server contest show --json` says it.
        versiontests.ensure_automatic(self.contest)
        shown = show_contest(self.contest.slug)["work"]
        self.assertEqual(shown["shares"], {"ranked": 5, "challenge": 1, "analysis": 1, "test": 1})
        self.assertEqual(shown["waiting"]["analysis"]["count"], 1)
        self.assertEqual(shown["waiting"]["test"]["count"], 1)
        self.assertIsNotNone(shown["waiting"]["analysis"]["since"])
        self.assertIn("1 analyses since", describe(shown))
        admin = Client()
        admin.force_login(self.organiser)
        listed = admin.get("/admin/arena_contests/contest/").content.decode()
        self.assertIn("1 analyses since", listed, "the admin says what waits")
        # One slot, always a ranked game to start: the analysis and the test still get turns.
        worker = LadderWorker(concurrency=1, validate=False, poll=0.05)
        test = VersionTest.objects.get(new=self.new)
        tested = Game.objects.filter(version_test=test, status=Game.DONE)

        def served() -> bool:
            made = Analysis.objects.filter(status=Analysis.DONE).exists()
            return made and tested.count() >= 2

        stats = run_worker_until(worker, served, 120)
        self.assertTrue(served(), stats)
        self.assertEqual(stats.infrastructure_failures, 0, stats)
        ranked = Game.objects.filter(kind=Game.LADDER, status=Game.DONE).count()
        self.assertGreater(ranked, 1, "the ladder went on beside them")
        self.assertEqual(backlog(self.contest)["waiting"]["analysis"]["count"], 0)

    def test_a_change_of_ruleset_and_time_applies_to_the_next_game_without_a_restart(
        self,
    ) -> None:
        worker = LadderWorker(concurrency=2, validate=False, poll=0.05)
        done = Game.objects.filter(status=Game.DONE)
        changed_at: list[int] = []

        def change_then_play_on() -> bool:
            count = done.count()
            if not changed_at and count >= 3:
                Contest.objects.filter(pk=self.contest.pk).update(ruleset="azul", time_per_move=0.3)
                # Every game scheduled from now on is played with the new settings.
                changed_at.append(Game.objects.order_by("-pk").values_list("pk", flat=True)[0])
            return bool(changed_at) and done.filter(pk__gt=changed_at[0]).count() >= 3

        stats = run_worker_until(worker, change_then_play_on, 120)
        self.assertEqual(stats.infrastructure_failures, 0, stats)
        after = done.filter(pk__gt=changed_at[0])
        self.assertGreaterEqual(after.count(), 3, stats)
        for game in done:
            # Each game's row says what it was played with, and its record agrees.
            self.assertEqual(game.record["ruleset"], game.ruleset, game.pk)
        self.assertEqual({(g.ruleset, g.time_per_move) for g in after}, {("azul", 0.3)})
        self.assertIn(("azul-mini", 0.2), {(g.ruleset, g.time_per_move) for g in done})
        # The contest's page says from which game its settings apply.
        # Games are not always taken in the order they were scheduled: the page names the
        # first game after the last one played with the old settings.
        last_old = Game.objects.exclude(ruleset="azul").order_by("-pk")[0]
        first = Game.objects.filter(pk__gt=last_old.pk).order_by("pk")[0]
        page = Client().get("/").content.decode()
        self.assertIn(f'These settings apply since <a href="/games/{first.pk}/">game', page)


class ChangeByCommandTests(TestCase):
    def test_an_organiser_sets_shares_and_game_settings_and_a_refusal_changes_nothing(
        self,
    ) -> None:
        contest = Contest.current()
        slug = contest.slug
        change_contest(slug, shares={"test": 3}, game=GameChange(ruleset="azul-mini"))
        contest.refresh_from_db()
        self.assertEqual((contest.test_share, contest.ruleset), (3, "azul-mini"))
        self.assertEqual(show_contest(slug)["work"]["shares"]["test"], 3)
        for shares, game, said in (
            ({"bogus": 1}, None, "no kind of work 'bogus'"),
            ({"ranked": 0}, None, "ranked share is a whole number from 1"),
            (None, GameChange(ruleset="nope"), "unknown ruleset"),
            (None, GameChange(isolation="chroot"), "isolation 'chroot'"),
            ({"test": 5}, GameChange(time_per_move=0.0), "time"),
        ):
            with self.assertRaisesRegex(ContestError, said):
                change_contest(slug, shares=shares, game=game)
            contest.refresh_from_db()
            self.assertEqual((contest.test_share, contest.ruleset), (3, "azul-mini"), said)
            self.assertEqual(contest.time_per_move, 1.0)
