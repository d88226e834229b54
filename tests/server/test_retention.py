"""A contest's bot logs kept for a set number of days (ladder/retention.py): exactly the seat
logs of the games that ended before the cutoff are deleted, never those of a team's latest
games (its page links them), of a game in play or failed, or of another contest's; the bots'
process logs by the same rule; the pages of a game whose logs are gone say so instead of
linking them. Real files in the server's data folder, real pages through Django's client; the
ladder worker applies the rule to the logs of games it played itself, and `server prune` from
the command line."""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.test import Client, TestCase, TransactionTestCase
from django.utils import timezone

from tests.server.helpers import participant, passed_version, run_worker
from tests.server.test_cli import cli
from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest
from tournaments.server.ladder import retention
from tournaments.server.ladder.logs import game_folder, seat_log
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.worker.loop import LadderWorker

DAYS = 7


def make_game(
    contest: Contest, versions: list, ended_days_ago: float | None, status: str = Game.DONE
) -> Game:
    """A finished (or failed, or scheduled) 2-player game of `versions` with both seats' log
    files, as the worker leaves them (`ladder.logs`)."""
    ended = timezone.now() - timedelta(days=ended_days_ago) if ended_days_ago is not None else None
    game = Game.objects.create(
        contest=contest,
        status=status,
        ruleset=contest.ruleset,
        time_per_move=contest.time_per_move,
        seed=1,
        finished=ended if status == Game.DONE else None,
        created=ended or timezone.now(),
    )
    for i, version in enumerate(versions):
        path = seat_log(game.pk, i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"seat {i} of game {game.pk}\n")
        ranked = status == Game.DONE
        Seat.objects.create(
            game=game,
            seat=i,
            version=version,
            score=10 * i if ranked else None,
            rank=(2 - i) if ranked else None,
            termination="ok" if ranked else "",
            log=str(path),
        )
    return game


def logs_linked_on(page: str) -> set[int]:
    """The games whose seat log `page` links."""
    return {int(g) for g in re.findall(r'href="/games/(\d+)/log/\d+"', page)}


def recent_on(page: str) -> set[int]:
    """The games a team's page lists as its recent games."""
    table = page.split('<table id="recent">', 1)[1].split("</table>", 1)[0]
    return {int(g) for g in re.findall(r'href="/games/(\d+)/"', table)}


def fresh_logs_folder(test: TestCase | TransactionTestCase) -> None:
    """No logs left by an earlier test (game ids are used again once its rows are gone), and
    none of this test's left for a later one."""
    logs = Path(settings.HOME) / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    test.addCleanup(shutil.rmtree, logs, ignore_errors=True)


class KeepingLogs(TestCase):
    def setUp(self) -> None:
        fresh_logs_folder(self)
        self.contest = Contest.objects.create(slug="term", keep_logs_days=DAYS)
        self.organiser, _ = participant("prof", staff=True)
        self.organiser.participants.clear()
        people = {}
        for name in ("ann", "bob", "cid"):
            user, who = participant(name)
            who.contest = self.contest
            who.save()
            people[name] = (user, passed_version(who))
        self.people = people
        ann, bob, cid = (people[n][1] for n in ("ann", "bob", "cid"))
        self.young = make_game(self.contest, [ann, cid], DAYS - 1)  # inside the days kept
        # ann-bob: 30 old games; then bob-cid: 25 old ones. ann's latest 20 (a team's page
        # lists its latest games by id) are ann-bob's last 20; bob's and cid's are bob-cid's
        # last 20: the first 10 ann-bob games and the first 5 bob-cid games are no one's.
        self.ann_bob = [make_game(self.contest, [ann, bob], 11 - i / 100) for i in range(30)]
        self.bob_cid = [make_game(self.contest, [bob, cid], 10 - i / 100) for i in range(25)]
        self.failed = make_game(self.contest, [ann, cid], 12, status=Game.FAILED)  # requeueable
        self.playing = make_game(self.contest, [ann, cid], 11, status=Game.SCHEDULED)
        # Another contest keeps its logs for ever: its old game is not this rule's.
        other = Contest.objects.create(slug="other")
        _, dan = participant("dan")
        dan.contest = other
        dan.save()
        _, eve = participant("eve")
        eve.contest = other
        eve.save()
        self.elsewhere = make_game(other, [passed_version(dan), passed_version(eve)], 100)
        self.expected = {g.pk for g in self.ann_bob[:10] + self.bob_cid[:5]}

    def _process_logs(self) -> tuple[Path, Path, Path]:
        folder = Path(settings.HOME) / "logs"
        old, fresh, final = (
            folder / "ann-v1-00aa11bb22cc33dd.log",
            folder / "bob-v1-44ee55ff66aa77bb.log",
            folder / "final-term.log",
        )
        long_ago = (timezone.now() - timedelta(days=DAYS + 1)).timestamp()
        for path in (old, fresh, final):
            path.write_text("a bot's output\n")
        for path in (old, final):
            os.utime(path, (long_ago, long_ago))
        return old, fresh, final

    def test_exactly_the_expired_unlinked_games_lose_their_logs(self) -> None:
        old, fresh, final = self._process_logs()
        self.assertEqual(set(retention.expired(self.contest, timezone.now())), self.expected)

        dry = retention.prune(self.contest, dry_run=True)
        self.assertEqual((dry.games, dry.seat_logs, dry.process_logs), (15, 30, 1))
        self.assertTrue(all(game_folder(pk).is_dir() for pk in self.expected))
        self.assertTrue(old.exists())
        self.assertFalse(Game.objects.filter(logs_deleted__isnull=False).exists())

        done = retention.prune(self.contest)
        self.assertEqual((done.games, done.seat_logs, done.process_logs), (15, 30, 1))
        self.assertEqual(done.bytes, dry.bytes)
        every = Game.objects.all()
        for game in every:
            gone = game.pk in self.expected
            self.assertEqual(not game_folder(game.pk).exists(), gone, game)
            self.assertEqual(game.logs_deleted is not None, gone, game)
        self.assertEqual((old.exists(), fresh.exists(), final.exists()), (False, True, True))
        # Nothing is left to delete: a second run deletes nothing.
        again = retention.prune(self.contest)
        self.assertEqual((again.games, again.seat_logs, again.process_logs), (0, 0, 0))
        # Records stay: only the logs went.
        self.assertEqual(Game.objects.count(), 30 + 25 + 3 + 1)

    def test_a_contest_that_keeps_its_logs_deletes_nothing(self) -> None:
        self._process_logs()
        self.contest.keep_logs_days = 0
        self.contest.save()
        done = retention.prune(self.contest)
        self.assertEqual((done.games, done.seat_logs, done.process_logs), (0, 0, 0))
        self.assertTrue(all(game_folder(g.pk).is_dir() for g in Game.objects.all()))

    def test_no_page_links_a_log_that_is_gone_and_the_game_page_says_so(self) -> None:
        retention.prune(self.contest)
        for viewer in (self.organiser, *(user for user, _ in self.people.values())):
            browser = Client()
            browser.force_login(viewer)
            for name in self.people:
                page = browser.get(f"/p/{name}/")
                self.assertEqual(page.status_code, 200)
                linked = logs_linked_on(page.content.decode())
                if viewer.is_staff or viewer.username == name:
                    # Every game the page lists links its log: none of them lost it.
                    listed = recent_on(page.content.decode())
                    self.assertEqual(linked, listed, (viewer, name))
                    self.assertEqual(len(listed), 20)
                self.assertFalse(linked & self.expected, (viewer, name))
                for game_id in linked:
                    self.assertTrue(game_folder(game_id).is_dir(), game_id)
        ann, _ = self.people["ann"]
        browser = Client()
        browser.force_login(ann)
        gone = self.ann_bob[0]
        page = browser.get(f"/games/{gone.pk}/").content.decode()
        self.assertIn("no longer kept", page)
        self.assertFalse(logs_linked_on(page))
        log_page = browser.get(f"/games/{gone.pk}/log/0").content.decode()
        self.assertIn(f"keeps its bots' logs {DAYS} days after a game", log_page)
        kept = self.ann_bob[-1]
        page = browser.get(f"/games/{kept.pk}/").content.decode()
        self.assertNotIn("no longer kept", page)
        self.assertEqual(logs_linked_on(page), {kept.pk})
        log_page = browser.get(f"/games/{kept.pk}/log/0").content.decode()
        self.assertIn(f"seat 0 of game {kept.pk}", log_page)

    def test_the_logs_api_says_a_log_is_no_longer_kept(self) -> None:
        """`contest logs GAME` shows why a seat has no line: its log went with the retention."""
        retention.prune(self.contest)
        ann, _ = self.people["ann"]
        _, token = ApiToken.issue(ann)
        for game, gone in ((self.ann_bob[0], True), (self.ann_bob[-1], False)):
            reply = Client().get(
                f"/api/games/{game.pk}/logs", headers={"Authorization": f"Bearer {token}"}
            )
            seat = reply.json()["seats"][0]
            if gone:
                self.assertEqual(seat["log"], "")
                self.assertIn("no longer kept", seat["empty"])
                self.assertIn(f"{timezone.now():%Y-%m-%d}", seat["empty"])
            else:
                self.assertIn(f"seat 0 of game {game.pk}", seat["log"])
                self.assertIsNone(seat["empty"])


class WorkerKeepsLogs(TransactionTestCase):
    def test_the_worker_deletes_its_old_games_logs_and_keeps_the_latest(self) -> None:
        fresh_logs_folder(self)
        contest = Contest.current()
        passed_version(participant("ann")[1])
        passed_version(participant("bob")[1])
        stats = run_worker(LadderWorker(concurrency=2, max_games=24, validate=False, poll=0.1))
        self.assertGreaterEqual(stats.played, 24)
        games = list(Game.objects.filter(status=Game.DONE).order_by("pk"))
        for game in games:
            for seat in game.seats.all():
                self.assertTrue(Path(seat.log).exists(), seat)  # the worker wrote them
        # The term goes on: its games ended long ago, and the contest keeps logs a week.
        Game.objects.update(finished=timezone.now() - timedelta(days=DAYS + 1))
        Contest.objects.filter(pk=contest.pk).update(keep_logs_days=DAYS)
        run_worker(LadderWorker(concurrency=1, max_games=0, validate=False, poll=0.1))
        # Two teams: each's latest 20 games are the same 20, the last ones.
        kept = {g.pk for g in games[-retention.KEEP_RECENT :]}
        for game in Game.objects.filter(status=Game.DONE):
            self.assertEqual(game_folder(game.pk).is_dir(), game.pk in kept, game)
            self.assertEqual(game.logs_deleted is None, game.pk in kept, game)


def test_server_prune_from_the_command_line(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path / "h")]
    made = cli(tmp_path, "server", "contest", "create", "c1", *home, "--keep-logs-days", "3")
    assert made.returncode == 0, made.stderr
    assert "keep_logs_days: 3" in made.stdout
    dry = cli(tmp_path, "server", "prune", "c1", *home, "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["contests"] == [
        {
            "contest": "c1",
            "keep_logs_days": 3,
            "games": 0,
            "seat_logs": 0,
            "process_logs": 0,
            "bytes": 0,
            "dry_run": True,
        }
    ]
    changed = cli(tmp_path, "server", "contest", "set", "c1", *home, "--keep-logs-days", "0")
    assert changed.returncode == 0, changed.stderr
    assert "c1: its bots' logs are kept for ever" in changed.stdout
    said = cli(tmp_path, "server", "prune", "c1", *home)
    assert said.returncode == 0 and "c1 keeps its logs for ever: nothing to delete" in said.stdout
    unknown = cli(tmp_path, "server", "prune", "nope", *home)
    assert unknown.returncode == 2 and "no contest 'nope'; contests: c1" in unknown.stderr
