"""Hand-in by upload time, with real bots validated by a real ladder worker: a version received
1 s before the deadline whose validation ends after the freeze is what its team hands in; one
that fails falls back to the newest earlier version that passed, and the team's page says which
and why; an upload accepted before the deadline but written after the freeze is not lost."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client, TransactionTestCase
from django.utils import timezone

from tests.server.helpers import (
    CRASHING_BOT,
    RANDOM_BOT,
    failed_validations,
    participant,
    run_worker,
    zip_bytes,
)
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.finals import lifecycle
from tournaments.server.finals.play import start_final
from tournaments.server.handins.decisions import reconsider, undecided
from tournaments.server.handins.models import HandIn
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker


def _validate_all(slug: str) -> None:
    """A real ladder worker validates every version waiting, then stops."""
    run_worker(LadderWorker(contest=slug, max_games=0, poll=0.05))


class HandInByUploadTime(TransactionTestCase):
    def setUp(self) -> None:
        self.contest = Contest.objects.create(slug="hw", time_per_move=0.2, final_min_games=2)
        self.teams = {}
        for name in ("ann", "ben"):
            user, who = participant(name)
            who.contest = self.contest
            who.save()
            self.teams[name] = (user, who)
            submit(who, [zip_bytes({"bot.py": RANDOM_BOT, "v": b"1"})])
        # Version 1 of each, an hour before the last-minute uploads (however fast the
        # validation below: a test that took under a second once had them after the deadline).
        Version.objects.update(uploaded=timezone.now() - timedelta(hours=1))
        _validate_all("hw")  # version 1 of each passes
        passed = Version.objects.filter(state=Version.PASSED).count()
        self.assertEqual(passed, 2, failed_validations())

    def _last_minute(self, name: str, source: bytes) -> Version:
        """Version 2 of `name`, received 1 s before the deadline, which has just passed."""
        version = submit(self.teams[name][1], [zip_bytes({"bot.py": source, "v": b"2"})])
        now = timezone.now()
        Version.objects.filter(pk=version.pk).update(uploaded=now - timedelta(seconds=2))
        Contest.objects.filter(pk=self.contest.pk).update(deadline=now - timedelta(seconds=1))
        version.refresh_from_db()
        return version

    def _page(self, name: str) -> str:
        client = Client()
        client.force_login(self.teams[name][0])
        return client.get(f"/p/{name}/").content.decode()

    def test_an_upload_1s_before_the_deadline_validated_after_it_is_handed_in(self) -> None:
        late = self._last_minute("ann", RANDOM_BOT)
        # The deadline passes with ann's version 2 still waiting: the freeze decides ben
        # (version 1) and waits for ann.
        self.contest = lifecycle.advance(self.contest)
        self.assertEqual(self.contest.state, Contest.FROZEN)
        self.assertEqual(list(HandIn.objects.values_list("participant__name", flat=True)), ["ben"])
        self.assertEqual([n for n, _ in undecided(self.contest)], ["ann"])
        self.assertIn("waits for the validation of version 2", self._page("ann"))
        with self.assertRaisesRegex(lifecycle.LifecycleError, "wait for a validation .*ann v2"):
            start_final(self.contest)  # the final waits for it
        _validate_all("hw")
        late.refresh_from_db()
        self.assertEqual(late.state, Version.PASSED)
        self.assertGreater(late.validated, self.contest.deadline)  # passed after the deadline
        lifecycle.advance(self.contest)  # the worker's look at the dates, once a second
        handin = HandIn.objects.get(participant__name="ann")
        self.assertEqual((handin.version_id, handin.sha256), (late.pk, late.sha256))
        self.assertIn("Handed in: version 2", self._page("ann"))
        self.assertEqual(undecided(self.contest), [])

    def test_a_failing_last_minute_upload_falls_back_and_says_so(self) -> None:
        late = self._last_minute("ben", CRASHING_BOT)
        lifecycle.advance(self.contest)
        _validate_all("hw")
        late.refresh_from_db()
        self.assertEqual(late.state, Version.FAILED)
        lifecycle.advance(self.contest)
        handin = HandIn.objects.select_related("version").get(participant__name="ben")
        self.assertEqual(handin.version.number, 1)  # type: ignore[union-attr]
        self.assertIn("version 2 (sent ", handin.note)
        self.assertIn("failed validation", handin.note)
        self.assertIn("version 1, the newest earlier version that passed", handin.note)
        page = self._page("ben")
        self.assertIn("Handed in: version 1", page)
        self.assertIn("version 2 (sent", page)
        # Another team does not see ben's hand-in; the organisers' admin lists it, and where
        # the final is.
        self.assertNotIn("Handed in", Client().get("/p/ben/").content.decode())
        organiser, _ = participant("prof", staff=True)
        admin = Client()
        admin.force_login(organiser)
        self.assertContains(admin.get("/admin/arena_handins/handin/"), "newest earlier version")
        self.assertContains(admin.get("/admin/arena_contests/contest/"), "scheduled: it starts")

    def test_an_upload_accepted_before_the_freeze_but_written_after_it_counts(self) -> None:
        lifecycle.set_state(self.contest, Contest.FROZEN, by="a test")
        first = HandIn.objects.get(participant__name="ann")
        self.assertEqual(first.version.number, 1)  # type: ignore[union-attr]
        # Its upload was received a moment before the freeze (its archive was being
        # unpacked as the contest froze): made now, with the time it was received.
        who = self.teams["ann"][1]
        version = Version.objects.create(
            participant=who,
            number=2,
            sha256="0" * 64,
            size=1,
            archive_format="zip",
            entry="bot.py",
            uploaded=first.at - timedelta(milliseconds=300),
        )
        reconsider(version)  # what the submissions app's version_received makes the ladder do
        self.assertFalse(HandIn.objects.filter(participant=who).exists())
        self.assertEqual(
            [(n, v.number if v else 0) for n, v in undecided(self.contest)], [("ann", 2)]
        )
        Version.objects.filter(pk=version.pk).update(state=Version.FAILED, reason="a test")
        lifecycle.advance(self.contest, now=timezone.now())
        self.assertEqual(HandIn.objects.get(participant=who).version.number, 1)  # type: ignore[union-attr]


class FrontPage(TransactionTestCase):
    """The site's front page and sign-up go to the course: the one named by the setting
    (`server run --contest`), else the one open contest while the default one is empty."""

    def test_the_course_is_the_front_page_and_its_sign_up(self) -> None:
        from django.test import override_settings

        Contest.current()
        course = Contest.objects.create(slug="comp", name="COMP 2026")
        self.assertEqual(Contest.front(), course)
        self.assertContains(Client().get("/"), "COMP 2026")
        answer = Client().post(
            "/signup/",
            {
                "username": "newbie",
                "password1": "a long enough pass 7",
                "password2": "a long enough pass 7",
                "participant": "newbies",
            },
        )
        self.assertEqual(answer.status_code, 302, answer.content)
        self.assertEqual(Participant.objects.get(name="newbies").contest, course)
        other = Contest.objects.create(slug="other", name="Other 2026")
        self.assertEqual(Contest.front(), Contest.current())  # two open: not guessed
        with override_settings(FRONT_CONTEST="other"):
            self.assertEqual(Contest.front(), other)
            self.assertContains(Client().get("/signup/"), "Sign up for Other 2026")
