"""A whole term on the server, with real bots: a contest, a class of 30 imported from a CSV,
30 teams submitting (some broken), ladder games, the deadline, a late submission refused, an
extension, the final tournament, the export (standings equal the final's ratings, the staff-bot
win rates counted from the final's games), and the access rules (an organiser-only action tried
by a participant fails; a hidden contest shows participants no standings).

The same test runs on PostgreSQL (tests/server/test_postgres.py runs this file against a server
it starts). Kept fast: random bots, 0.2 s per move, a final of a few games per entry.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import tarfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, TransactionTestCase
from django.utils import timezone

from tests.server.helpers import CRASHING_BOT, RANDOM_BOT, run_worker, zip_bytes
from tournaments.server.contests import classlist
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.finals import lifecycle
from tournaments.server.finals.export import standings_rows, write_archive
from tournaments.server.finals.play import final_done, run_final
from tournaments.server.finals.store import FinalStore
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.challenges import ChallengeError, challenge
from tournaments.server.ladder.models import Game, Standing
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.services import add_staff_bot, reference_archive
from tournaments.server.worker.loop import LadderWorker

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "tournaments.cli"]
TEAMS = 30
BROKEN = {"team-04", "team-17"}  # crash on their first move: they fail validation


def class_csv(path: Path, students: int = TEAMS) -> Path:
    with path.open("w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["login", "name", "email", "team"])
        for i in range(1, students + 1):
            w.writerow([f"s{i:03d}", f"Student {i}", f"s{i:03d}@uni.example", f"team-{i:02d}"])
    return path


class TermTests(TransactionTestCase):
    def setUp(self) -> None:
        self.tmp = Path(settings.HOME) / f"term-{self.id().rsplit('.', 1)[-1]}"
        self.tmp.mkdir(parents=True, exist_ok=True)

    @pytest.mark.slow  # a term through the CLI, some 40 s: `make test-slow`, run by CI
    def test_a_whole_term(self) -> None:
        contest = Contest.objects.create(
            slug="term",
            name="COMP-TEST",
            players=2,
            time_per_move=0.2,
            visibility=Contest.HIDDEN,
            final_min_games=4,
            challenge_quota=1,
            deadline=timezone.now() + timedelta(days=7),
        )
        organiser = get_user_model().objects.create_superuser("prof", password="organiser pw 1")

        student = self._sign_up(contest)
        teams = self._submit_every_team(contest)
        self._ladder_validates_and_plays(contest)
        game = self._challenges(teams)
        self._hidden_until_results(student, organiser, teams, game)
        self._organiser_only(student, contest)
        contest = self._extension_then_deadline(contest, teams)
        entries, games = self._final(contest)
        every = self._standings_are_the_finals(contest, entries, games)
        self._archive(contest, games, every)

        # -- results published: the standings become visible ---------------------------------
        lifecycle.set_state(contest, Contest.CLOSED)
        self.assertContains(student.get("/c/term/"), "team-02")

    def _sign_up(self, contest: Contest) -> Client:
        # -- the class: 30 students in 30 teams, one-time sign-up links ------------------------
        students = classlist.read(class_csv(self.tmp / "class.csv"))
        result = classlist.apply(students, contest, "http://testserver")
        self.assertEqual(
            (len(result.created), len(result.teams_created), len(result.links)),
            (TEAMS, TEAMS, TEAMS),
        )
        again = classlist.apply(
            classlist.read(self.tmp / "class.csv"), contest, "http://testserver"
        )
        self.assertEqual((len(again.created), len(again.updated)), (0, TEAMS))
        self.assertEqual(get_user_model().objects.filter(is_staff=False).count(), TEAMS)
        self.assertEqual(contest.participants.count(), TEAMS)
        student = Client()
        link = result.links["s001"].removeprefix("http://testserver")
        page = student.get(link, follow=True)
        self.assertContains(page, "Choose your password")
        set_pw = page.redirect_chain[-1][0] if page.redirect_chain else link
        done = student.post(
            set_pw,
            {"new_password1": "a long student pass 1", "new_password2": "a long student pass 1"},
        )
        self.assertEqual(done.status_code, 302)
        self.assertContains(student.get(link, follow=True), "no longer works")  # one time
        logged = student.post("/login/", {"username": "s001", "password": "a long student pass 1"})
        self.assertEqual(logged.status_code, 302)
        return student

    def _submit_every_team(self, contest: Contest) -> dict[str, Participant]:
        # -- submissions: 28 good, 2 broken, one bad archive refused; 2 staff bots -----------
        teams = {p.name: p for p in contest.participants.all()}
        for name, who in sorted(teams.items()):
            source = CRASHING_BOT if name in BROKEN else RANDOM_BOT
            submit(who, [zip_bytes({"bot.py": source, "team.txt": name.encode()})])
        with self.assertRaises(SubmissionError):
            submit(teams["team-01"], [zip_bytes({"notes.txt": b"no bot here"})])
        add_staff_bot(contest, "staff-random", reference_archive("random"))
        add_staff_bot(contest, "staff-greedy", reference_archive("greedy"))
        return teams

    def _ladder_validates_and_plays(self, contest: Contest) -> None:
        # -- the ladder validates everything and plays ----------------------------------------
        worker = LadderWorker(concurrency=2, max_games=12, contest="term", poll=0.1)
        stats = run_worker(worker)
        self.assertGreaterEqual(stats.played, 12)
        failed = set(
            Version.objects.filter(state=Version.FAILED).values_list("participant__name", flat=True)
        )
        self.assertEqual(failed, BROKEN)
        self.assertEqual(Version.objects.filter(state=Version.PASSED).count(), TEAMS - 2 + 2)
        self.assertTrue(Game.objects.filter(contest=contest, status=Game.DONE).exists())

    def _challenges(self, teams: dict[str, Participant]) -> Game:
        # -- challenges: unranked, quota per day ---------------------------------------------
        before = {s.version_id: (s.mu, s.sigma, s.games) for s in Standing.objects.all()}
        game = challenge(teams["team-01"], ["staff-greedy"])
        with self.assertRaisesRegex(ChallengeError, "limit is 1"):
            challenge(teams["team-01"], ["staff-random"])
        run_worker(LadderWorker(concurrency=1, max_games=1, contest="term", poll=0.1))
        game.refresh_from_db()
        self.assertEqual((game.status, game.rated), (Game.DONE, False))
        for seat in game.seats.all():
            st = Standing.objects.get(version_id=seat.version_id)
            self.assertEqual((st.mu, st.sigma, st.games), before[seat.version_id])
        return game

    def _hidden_until_results(
        self, student: Client, organiser: Any, teams: dict[str, Participant], game: Game
    ) -> None:
        # -- a hidden contest: no standings for participants, all for the organiser ----------
        board = student.get("/c/term/")
        self.assertContains(board, "hidden until its results")
        self.assertNotContains(board, "team-02")
        own = student.get("/p/team-01/")
        self.assertEqual(own.status_code, 200)
        self.assertNotContains(own, "rating-chart")
        self.assertFalse(own.context["rated"])
        staff = Client()
        staff.force_login(organiser)
        self.assertContains(staff.get("/c/term/"), "team-02")
        # Nor a game's page or replay that would give the results away, but for its own games:
        # another team's challenge, played for the purpose (unrated, like the one above).
        other = challenge(teams["team-02"], ["staff-random"])
        run_worker(LadderWorker(concurrency=1, max_games=1, contest="term", poll=0.1))
        other.refresh_from_db()
        self.assertEqual(other.status, Game.DONE)
        for url in (f"/games/{other.pk}/", f"/games/{other.pk}/viewer"):
            self.assertEqual(student.get(url).status_code, 404, url)
            self.assertEqual(staff.get(url).status_code, 200, url)
        self.assertEqual(student.get(f"/games/{game.pk}/").status_code, 200)  # its challenge

    def _organiser_only(self, student: Client, contest: Contest) -> None:
        # -- an organiser-only action tried by a participant fails ----------------------------
        url = f"/admin/arena_contests/contest/{contest.pk}/change/"
        self.assertNotEqual(student.post(url, {"state": "closed"}).status_code, 200)
        changelist = "/admin/arena_contests/contest/"
        student.post(changelist, {"action": "freeze", "_selected_action": [contest.pk]})
        contest.refresh_from_db()
        self.assertEqual(contest.state, Contest.OPEN)

    def _extension_then_deadline(self, contest: Contest, teams: dict[str, Participant]) -> Contest:
        # -- an extension, then the deadline passes -------------------------------------------
        lifecycle.extend(
            contest, teams["team-03"], timezone.now() + timedelta(hours=1), "illness", "prof"
        )
        Contest.objects.filter(pk=contest.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        contest = lifecycle.advance(contest)  # what the ladder worker does before each game
        self.assertEqual(contest.state, Contest.FROZEN)
        with self.assertRaises(SubmissionError) as late:
            submit(teams["team-05"], [zip_bytes({"bot.py": RANDOM_BOT})])
        self.assertIn(f"{contest.deadline:%Y-%m-%d %H:%M:%S} UTC", str(late.exception))
        self.assertIn("deadline", str(late.exception))
        # team-03 may still submit until its own deadline; it hands in when that passes.
        extended = submit(teams["team-03"], [zip_bytes({"bot.py": RANDOM_BOT, "v": b"2"})])
        self.assertFalse(HandIn.objects.filter(participant=teams["team-03"]).exists())
        run_worker(LadderWorker(concurrency=1, max_games=0, contest="term", poll=0.1))
        extended.refresh_from_db()
        self.assertEqual(extended.state, Version.PASSED)
        # The extension ends after the upload (validation of a random bot may take less than a
        # second on a quiet machine: "a second ago" could fall before it) and before now.
        ends = extended.uploaded + timedelta(milliseconds=1)
        self.assertLess(ends, timezone.now())
        contest.extensions.update(deadline=ends)
        lifecycle.advance(contest)
        handin = HandIn.objects.get(participant=teams["team-03"])
        self.assertEqual((handin.version_id, handin.sha256), (extended.pk, extended.sha256))
        handins = HandIn.objects.filter(contest=contest).select_related("version", "participant")
        # Every team's is recorded: the broken ones' with nothing handed in, and why.
        self.assertEqual(handins.filter(version__isnull=False).count(), TEAMS - 2 + 2)
        self.assertEqual({h.participant.name for h in handins if h.version is None}, BROKEN)
        for h in handins:
            if h.version is None:
                self.assertIn("failed validation", h.note)
            else:
                self.assertEqual(h.sha256, h.version.sha256)
        return contest

    def _final(self, contest: Contest) -> tuple[set[str], list[Any]]:
        # -- the final tournament --------------------------------------------------------------
        summary = run_final(contest, concurrency=2)
        self.assertEqual(summary.failed, 0)
        contest.refresh_from_db()
        self.assertEqual(contest.state, Contest.FINAL)
        self.assertTrue(final_done(contest))
        store = FinalStore(contest)
        config = store.config() or {}
        self.assertEqual(config["schedule"], "adaptive")
        games = list(store.games(done_only=True))
        entries = {e.name for e in store.entries()}
        self.assertEqual(
            entries,
            {
                h.participant.name
                for h in HandIn.objects.filter(
                    contest=contest, version__isnull=False
                ).select_related("participant")
            },
        )
        self.assertGreaterEqual(min(sum(n in g.game.seats for g in games) for n in entries), 4)
        return entries, games

    def _standings_are_the_finals(
        self, contest: Contest, entries: set[str], games: list[Any]
    ) -> list[list[str]]:
        # -- the export: standings = the final's ratings; staff-bot win rates counted ---------
        from tournaments.domain.ratings import compute

        ratings = compute(
            sorted(entries),
            [
                (g.game.game_id, [s.entry for s in g.seats], [s.rank for s in g.seats])
                for g in sorted(games, key=lambda g: g.game.index)
            ],
        )
        header, every = standings_rows(contest)
        col = {name: i for i, name in enumerate(header)}
        # Every team is listed: those that handed in nothing (the broken ones) unranked, with why.
        unranked = {r[col["team"]]: r for r in every if not r[col["rank"]]}
        self.assertEqual(set(unranked), BROKEN)
        for row in unranked.values():
            self.assertEqual(row[col["handed_in"]], "none")
            self.assertIn("failed validation", row[col["why"]])
        rows = [r for r in every if r[col["rank"]]]
        self.assertEqual(len(rows), len(entries))
        for row in rows:
            r = ratings.rating(row[col["team"]])
            self.assertAlmostEqual(float(row[col["mu"]]), float(r.mu), places=3)
            self.assertAlmostEqual(float(row[col["sigma"]]), float(r.sigma), places=3)
            team = row[col["team"]]
            self.assertEqual(
                row[col["version_sha256"]], HandIn.objects.get(participant__name=team).sha256
            )
            for bot in ("staff-greedy", "staff-random"):
                met = [g for g in games if {team, bot} <= set(g.game.seats)]
                if team == bot or not met:
                    self.assertEqual(row[col[f"win_rate_vs_{bot}"]], "")
                    continue
                score = 0.0
                for g in met:
                    rank = {s.entry: s.rank for s in g.seats}
                    score += (
                        1.0 if rank[team] < rank[bot] else 0.5 if rank[team] == rank[bot] else 0.0
                    )
                self.assertAlmostEqual(
                    float(row[col[f"win_rate_vs_{bot}"]]), score / len(met), places=3
                )
                low, high = (float(row[col[f"win_rate_vs_{bot}_{k}"]]) for k in ("low", "high"))
                self.assertLessEqual(low, score / len(met) + 1e-9)
                self.assertGreaterEqual(high, score / len(met) - 1e-9)
        self.assertEqual([int(r[col["rank"]]) for r in rows], list(range(1, len(rows) + 1)))
        members = {r[col["team"]]: r[col["members"]] for r in rows}
        self.assertEqual(members["team-01"], "s001")
        return every

    def _archive(self, contest: Contest, games: list[Any], every: list[list[str]]) -> None:
        # The whole contest as one archive: `tournament report` and `replay verify` read it.
        archive = self.tmp / "term.tar.gz"
        count = write_archive(contest, archive, ladder_games=True)
        # The final's games once (they are games of the contest too), then the ladder's.
        others = Game.objects.filter(contest=contest, status=Game.DONE).exclude(kind=Game.FINAL)
        self.assertEqual(count, len(games) + others.count())
        out = self.tmp / "unpacked"
        with tarfile.open(archive) as tar:
            tar.extractall(out, filter="data")
        records = sorted((out / "term" / "games").glob("*.json"))
        self.assertEqual(len(records), count)
        verify = subprocess.run(
            [*CLI, "replay", "verify", *map(str, records[:6]), *map(str, records[-6:]), "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        self.assertEqual(verify.returncode, 0, verify.stdout + verify.stderr)
        report = subprocess.run(
            [
                *CLI,
                "tournament",
                "report",
                "--db",
                str(out / "term" / "final.db"),
                "-o",
                str(self.tmp / "r.html"),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )
        self.assertEqual(report.returncode, 0, report.stdout + report.stderr)
        self.assertIn("staff-greedy", (self.tmp / "r.html").read_text())
        exported = list(csv.reader(io.StringIO((out / "term" / "standings.csv").read_text())))
        self.assertEqual(exported[1:], every)
        about = json.loads((out / "term" / "contest.json").read_text())
        self.assertEqual(len(about["handins"]), TEAMS + 2)  # with the broken ones' (nothing)

    def test_a_bad_row_is_reported_with_its_line_and_nothing_is_applied(self) -> None:
        contest = Contest.current()
        path = class_csv(self.tmp / "class.csv", 5)
        lines = path.read_text().splitlines()
        lines.insert(4, "s099,Bad Row,not-an-email,team-9")
        path.write_text("\n".join(lines) + "\n")
        with self.assertRaisesRegex(classlist.ClassListError, "line 5: 'not-an-email'"):
            classlist.apply(classlist.read(path), contest, "http://x")
        self.assertFalse(get_user_model().objects.exists())
        # A conflict found only while writing (a team taken in another contest) rolls back too.
        other = Contest.objects.create(slug="other")
        Participant.objects.create(name="team-05", contest=other)
        with self.assertRaisesRegex(classlist.ClassListError, "line 6: team name 'team-05'"):
            classlist.apply(classlist.read(class_csv(self.tmp / "c2.csv", 5)), contest, "x")
        self.assertFalse(get_user_model().objects.exists())
        self.assertEqual(Participant.objects.filter(contest=contest).count(), 0)
