"""Version tests on the ladder: v2 against v1 in unrated duplicate pairs, played by a real worker
when no ranked game can start; the verdict on the version page (headless chromium); a test a
participant asks for through the API, with its daily quota."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest
from django.test import Client, LiveServerTestCase, TestCase, TransactionTestCase

from tests.server.helpers import RANDOM_BOT, participant, run_worker, run_worker_until, zip_bytes
from tests.web.browser import PAGE_WAIT
from tournaments.domain.store import GameOutcome, SeatOutcome
from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest
from tournaments.server.ladder import results
from tournaments.server.ladder.models import Game, Standing
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.services import reference_archive
from tournaments.server.versiontests import runs as versiontests
from tournaments.server.versiontests.models import VersionTest
from tournaments.server.worker.loop import LadderWorker

SAME_TIES_GREEDY = b"""import random

import sdk
from bots.greedy_bot import GreedyBot as Reference


class GreedyBot(Reference):
    def on_game_start(self, info):
        self.rng = random.Random(0)


if __name__ == "__main__":
    sdk.run(GreedyBot)
"""


def passed(who: Any, archive: bytes) -> Version:
    """A version of `who` that passed validation (validation itself is tested elsewhere)."""
    version = submit(who, [archive])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    version.refresh_from_db()
    enter(version)
    return version


def greedy_over_random(name: str) -> tuple[Any, Version, Version]:
    """A participant whose v1 plays at random and whose v2 is the greedy reference bot."""
    user, who = participant(name)
    old = passed(who, zip_bytes({"bot.py": RANDOM_BOT}))
    new = passed(who, reference_archive("greedy"))
    return user, old, new


def play_the_test(contest: Contest, new: Version, bound: float = 120.0) -> VersionTest:
    """Run a real ladder worker until it closes the automatic test of `new` (its verdict set).

    The only participant has nothing to play ranked games against: every slot is spare. The
    test looks for a large difference (+200 Elo) so a small budget decides it. `bound` only
    stops a broken run from hanging."""
    versiontests.ensure_automatic(contest)
    VersionTest.objects.filter(new=new, requested_by=None).update(elo1=200.0, max_games=60)
    test = VersionTest.objects.get(new=new, requested_by=None)
    worker = LadderWorker(concurrency=2, validate=False, poll=0.05)
    # The worker closes a test at its first look for a game after the verdict: the row says
    # when it is done.
    closed = VersionTest.objects.filter(pk=test.pk).exclude(verdict="").exists
    stats = run_worker_until(worker, closed, bound)
    assert stats.infrastructure_failures == 0, stats
    test.refresh_from_db()
    return test


def record_pair(contest: Contest, new: Version, won: bool) -> list[Game]:
    """The next pair the ladder would schedule, recorded as if played: `new` first in both
    games (`won`) or last in both. (Playing is tested above; this is what the pages show.)"""
    scheduled = versiontests.next_game(contest, set(), "w")
    assert scheduled is not None
    game, _ = scheduled
    pair = list(Game.objects.filter(seed=game.seed, version_test=game.version_test))
    for g in pair:
        order = [s.version for s in g.seats.all()]
        ranks = [1 if (v.pk == new.pk) == won else 2 for v in order]
        outcome = [
            SeatOutcome(v.entry_name, 40 - 10 * r, r) for v, r in zip(order, ranks, strict=True)
        ]
        results.record(g.pk, GameOutcome(seats=outcome, record={}, duration=1))
    return pair


class LadderVersionTests(TransactionTestCase):
    def setUp(self) -> None:
        self.contest = Contest.current()
        Contest.objects.filter(pk=self.contest.pk).update(time_per_move=0.2)
        self.contest.refresh_from_db()

    def test_a_new_version_is_tested_against_its_predecessor_in_spare_slots(self) -> None:
        _, old, new = greedy_over_random("ann")
        test = play_the_test(self.contest, new)
        self.assertEqual((test.base_id, test.verdict), (old.pk, "H1"))
        result = versiontests.tally(test)
        self.assertEqual(result.verdict, "H1")
        self.assertGreater(result.elo, 100)
        games = Game.objects.filter(version_test=test)
        # Duplicate pairs: every deal twice, the two versions exchanging seats; never rated.
        self.assertTrue(all(g.kind == Game.TEST and not g.rated for g in games))
        by_seed: dict[int, list[list[int]]] = {}
        for g in games:
            by_seed.setdefault(g.seed, []).append([s.version_id for s in g.seats.all()])
        self.assertTrue(
            all(sorted(s) == [[old.pk, new.pk], [new.pk, old.pk]] for s in by_seed.values())
        )
        self.assertEqual(Standing.objects.get(version=new).games, 0, "ratings untouched")
        self.assertIn("v2 vs v1: better, LLR", versiontests.view(test).line)
        # Decided: the worker schedules no more of its games.
        self.assertIsNone(versiontests.next_game(self.contest, set(), "w"))

    def test_a_ranked_game_that_can_start_comes_before_a_test(self) -> None:
        _, _, new = greedy_over_random("abe")
        _, rival = participant("ada")
        passed(rival, zip_bytes({"bot.py": RANDOM_BOT}))
        versiontests.ensure_automatic(self.contest)
        stats = run_worker(LadderWorker(concurrency=1, max_games=1, validate=False, poll=0.05))
        self.assertEqual(stats.played, 1, stats)
        self.assertEqual(
            list(Game.objects.values_list("kind", "rated")), [(Game.LADDER, True)], "no test yet"
        )
        self.assertEqual(
            VersionTest.objects.get(new=new).verdict, "", "the ladder had the first slot"
        )

    def test_the_same_bot_twice_is_not_found_better(self) -> None:
        # Greedy with its ties broken the same way every game: both games of a duplicate pair
        # are then the same game with the versions' seats exchanged, so every pair is a split
        # and the test must lean to H0. (With random ties a test at alpha 0.05 would find
        # the same bot better in about one run in twenty.)
        _, who = participant("ben")
        passed(who, zip_bytes({"bot.py": SAME_TIES_GREEDY}))
        new = passed(who, zip_bytes({"bot.py": SAME_TIES_GREEDY}))
        test = play_the_test(self.contest, new)
        self.assertIn(test.verdict, ("H0", "inconclusive"))
        result = versiontests.tally(test)
        self.assertLess(result.llr, 0, result)
        self.assertEqual(result.pair_outcomes, [0, 0, result.pairs, 0, 0], "every pair a split")

    def test_the_contest_budget_stops_the_tests(self) -> None:
        greedy_over_random("cat")
        Contest.objects.filter(pk=self.contest.pk).update(version_test_games=0)
        self.contest.refresh_from_db()
        self.assertIsNone(versiontests.next_game(self.contest, set(), "w"))
        Contest.objects.filter(pk=self.contest.pk).update(version_test_games=2)
        self.contest.refresh_from_db()
        first = versiontests.next_game(self.contest, set(), "w")
        assert first is not None
        self.assertEqual(Game.objects.filter(kind=Game.TEST).count(), 2, "a pair at once")
        self.assertIsNone(versiontests.next_game(self.contest, set(), "w"), "budget spent")

    def test_a_failed_game_leaves_its_pair_out(self) -> None:
        _, _, new = greedy_over_random("dan")
        versiontests.ensure_automatic(self.contest)
        test = VersionTest.objects.get(new=new)
        won = record_pair(self.contest, new, won=True)
        Game.objects.filter(pk=won[1].pk).update(status=Game.FAILED)
        record_pair(self.contest, new, won=False)
        result = versiontests.tally(test)
        self.assertEqual((result.pairs, result.losses, result.wins), (1, 2, 0))
        self.assertEqual(result.margin, -10.0, "the points too: 20 against 30 in each game")


class SeatsAndVisibilityTests(TestCase):
    def test_three_players_the_fillers_keep_their_seats_and_the_versions_swap(self) -> None:
        contest = Contest.current()
        Contest.objects.filter(pk=contest.pk).update(players=3)
        contest.refresh_from_db()
        _, old, new = greedy_over_random("jon")
        _, rival = participant("kim")
        filler = passed(rival, zip_bytes({"bot.py": RANDOM_BOT}))
        self.assertIsNone(versiontests.next_game(contest, {filler.pk}, "w"), "no filler free")
        scheduled = versiontests.next_game(contest, set(), "w")
        assert scheduled is not None
        pair = Game.objects.filter(seed=scheduled[0].seed).order_by("pk")
        seats = [[s.version_id for s in g.seats.order_by("seat")] for g in pair]
        self.assertEqual(len(seats), 2)
        swapped = {old.pk: new.pk, new.pk: old.pk, filler.pk: filler.pk}
        self.assertEqual(seats[1], [swapped[v] for v in seats[0]])

    def test_a_hidden_contests_tests_are_shown_to_their_team_and_the_organisers(self) -> None:
        contest = Contest.current()
        Contest.objects.filter(pk=contest.pk).update(visibility=Contest.HIDDEN)
        user, _, new = greedy_over_random("lea")
        other, _ = participant("max")
        organiser, _ = participant("prof", staff=True)
        versiontests.ensure_automatic(contest)
        game = record_pair(contest, new, won=True)[0]
        page, game_page = f"/p/lea/v/{new.number}/", f"/games/{game.pk}/"
        for who, sees in ((None, False), (other, False), (user, True), (organiser, True)):
            client = Client()
            if who is not None:
                client.force_login(who)
            shown = "v2 vs v1: undecided so far" in client.get(page).content.decode()
            self.assertEqual(shown, sees, who)
            self.assertEqual(client.get(game_page).status_code, 200 if sees else 404, who)
        client = Client()
        client.force_login(user)
        self.assertContains(client.get(game_page), "version test: <a href=")
        self.assertContains(client.get(game_page), "lea v2</a> vs lea v1, unrated")


class CompareApiTests(TestCase):
    def setUp(self) -> None:
        Contest.objects.filter(pk=Contest.current().pk).update(compare_quota=1)
        self.user, _, self.new = greedy_over_random("eve")
        _, rival = participant("fay")
        self.rival = passed(rival, zip_bytes({"bot.py": RANDOM_BOT}))
        _, key = ApiToken.issue(self.user, "laptop")
        self.auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}

    def ask(self, **fields: str) -> Any:
        return Client().post("/api/compare", fields, **self.auth)

    def test_ask_for_a_test_then_read_it_the_quota_refuses_a_second(self) -> None:
        reply = self.ask(base="fay v1")
        self.assertEqual(reply.status_code, 201, reply.content)
        body = reply.json()
        self.assertEqual(
            (body["new"], body["base"], body["verdict"]), ("eve v2", "fay v1", "inconclusive")
        )
        self.assertEqual(body["tests_left_today"], 0)
        for key in ("llr", "bounds", "games", "pairs", "wins", "draws", "losses", "elo", "elo_ci"):
            self.assertIn(key, body)
        again = self.ask(base="fay v1")
        self.assertEqual(again.status_code, 200, "the same test, not a new one")
        self.assertEqual(again.json()["test"], body["test"])
        refused = self.ask(base="eve v1")
        self.assertEqual(refused.status_code, 400)
        self.assertIn("limit is 1", refused.json()["error"])
        self.assertEqual(VersionTest.objects.filter(requested_by__isnull=False).count(), 1)

    def test_the_automatic_test_needs_no_quota_and_bad_names_are_explained(self) -> None:
        reply = self.ask()
        self.assertEqual(reply.status_code, 200, reply.content)
        self.assertTrue(reply.json()["summary"].startswith("v2 vs v1: waiting"))
        for base, words in (
            ("nobody v9", "no version nobody v9"),
            ("v2", "against itself"),
            ("??", "names no version"),
        ):
            refused = self.ask(base=base)
            self.assertEqual(refused.status_code, 400)
            self.assertIn(words, refused.json()["error"])

    def test_hidden_standings_allow_only_ones_own_versions(self) -> None:
        Contest.objects.filter(pk=Contest.current().pk).update(visibility=Contest.HIDDEN)
        refused = self.ask(base="fay v1")
        self.assertEqual(refused.status_code, 400)
        self.assertIn("hidden", refused.json()["error"])
        self.assertEqual(self.ask(base="v1").status_code, 201)


@pytest.mark.usefixtures("browser_for_class")
class VersionPageTests(LiveServerTestCase):
    browser: Any

    def test_the_version_page_shows_the_verdict_as_it_forms(self) -> None:
        contest = Contest.current()
        _, _, new = greedy_over_random("gil")
        versiontests.ensure_automatic(contest)
        # Looking for +200 Elo: a few pairs won decide it.
        VersionTest.objects.filter(new=new).update(elo1=200.0)
        test = VersionTest.objects.get(new=new)
        self.browser.get(f"{self.live_server_url}/p/gil/v/{new.number}/")
        self.assertIn("v2 vs v1: waiting", self.line().text)
        record_pair(contest, new, won=True)
        # The page refreshes itself while the test runs (every 3 s); no reload here.
        forming = self.wait_for("undecided so far")
        self.assertRegex(forming, r"^v2 vs v1: undecided so far, LLR [\d.]+ in \(-[\d.]+, [\d.]+\)")
        self.assertIn(", 2 games", forming)
        while not versiontests.tally(test).decided:
            record_pair(contest, new, won=True)
        games = versiontests.tally(test).games
        line = self.wait_for(": better")
        self.assertRegex(line, r"^v2 vs v1: better, LLR [\d.]+ >= [\d.]+, \+\d+ Elo \+- \d+, ")
        self.assertTrue(line.endswith(f", {games} games"), line)
        self.assertIn("H1", self.line().get_attribute("class") or "")

    def line(self) -> Any:
        from selenium.webdriver.common.by import By

        return self.browser.find_element(By.CSS_SELECTOR, "#version-tests li")

    def wait_for(self, words: str, bound: float = PAGE_WAIT) -> str:
        """The test's line once it says `words` (`bound` only stops a broken page hanging)."""
        from selenium.common.exceptions import StaleElementReferenceException

        deadline = time.monotonic() + bound
        text = ""
        while time.monotonic() < deadline:
            try:
                text = self.line().text
            except StaleElementReferenceException:
                continue  # htmx swapped it between finding and reading: look again
            if words in text:
                return str(text)
            time.sleep(0.3)
        raise AssertionError(f"the page never said {words!r}; it says {text!r}")


class CompareCliTests(LiveServerTestCase):
    """`azul-arena contest compare`: the real CLI in a process, over HTTP to a live server."""

    def test_the_participant_verb_prints_the_line_and_exits_by_the_verdict(self) -> None:
        import tempfile
        from pathlib import Path

        from tests.server.test_cli import cli
        from tournaments.server import client

        contest = Contest.current()
        user, _, new = greedy_over_random("ivy")
        _, key = ApiToken.issue(user, "laptop")
        tmp = Path(tempfile.mkdtemp())
        before = os.environ.get("AZUL_ARENA_CONFIG")
        os.environ["AZUL_ARENA_CONFIG"] = str(tmp / "config")  # as `cli` runs it
        try:
            client.save_token(self.live_server_url, key, "ivy")  # what `contest login` keeps
        finally:
            os.environ.pop("AZUL_ARENA_CONFIG")
            if before is not None:
                os.environ["AZUL_ARENA_CONFIG"] = before
        waiting = cli(tmp, "contest", "compare", "--json")  # the server of the last login
        self.assertEqual(waiting.returncode, 1, waiting.stderr)
        body = json.loads(waiting.stdout)
        self.assertEqual((body["verdict"], body["games"]), ("inconclusive", 0))
        self.assertTrue(body["summary"].startswith("v2 vs v1: waiting"), body)
        VersionTest.objects.filter(new=new).update(elo1=200.0)
        while not versiontests.tally(VersionTest.objects.get(new=new)).decided:
            record_pair(contest, new, won=True)
        better = cli(tmp, "contest", "compare", "--wait")
        self.assertEqual(better.returncode, 0, better.stderr)
        self.assertIn("v2 vs v1: better, LLR", better.stdout)
        self.assertIn(
            f"tests left to ask for today; the page: {self.live_server_url}/p/ivy/v/2/",
            better.stdout,
        )
        refused = cli(tmp, "contest", "compare", "nobody v9")
        self.assertEqual(refused.returncode, 1)
        self.assertIn("no version nobody v9 that passed validation", refused.stderr)


class VersionTestAdminTests(TestCase):
    def test_organisers_see_where_tests_stand_stop_them_and_let_them_play_on(self) -> None:
        user, _, new = greedy_over_random("hal")
        versiontests.ensure_automatic(Contest.current())
        test = VersionTest.objects.get(new=new)
        organiser, _ = participant("prof", staff=True)
        admin = Client()
        admin.force_login(organiser)
        changelist = "/admin/arena_versiontests/versiontest/"
        self.assertContains(admin.get(changelist), "v2 vs v1: waiting for its first games")
        self.assertContains(admin.get(f"{changelist}{test.pk}/change/"), 'name="elo1"')
        self.assertEqual(admin.get(f"{changelist}add/").status_code, 403, "made by the ladder")
        student = Client()
        student.force_login(user)
        student.post(changelist, {"action": "stop", "_selected_action": [test.pk]})
        test.refresh_from_db()
        self.assertEqual(test.verdict, "", "a participant stops nothing")
        admin.post(changelist, {"action": "stop", "_selected_action": [test.pk]})
        test.refresh_from_db()
        self.assertEqual(test.verdict, "inconclusive")
        self.assertIsNone(versiontests.next_game(Contest.current(), set(), "w"), "stopped")
        admin.post(changelist, {"action": "play_on", "_selected_action": [test.pk]})
        test.refresh_from_db()
        self.assertEqual((test.verdict, test.finished), ("", None))
        self.assertIsNotNone(versiontests.next_game(Contest.current(), set(), "w"), "plays on")
