"""A contest's states and dates, without playing: opening and freezing by date, the refusals
(with the dates in them), hand-ins, extensions, forward-only moves, the final's schedule."""

from __future__ import annotations

from datetime import timedelta

from django.test import TestCase, override_settings
from django.utils import timezone

from tests.server.helpers import RANDOM_BOT, participant, passed_version, zip_bytes
from tournaments.domain.entries import Entry
from tournaments.server.contests.models import Contest, Extension
from tournaments.server.finals import lifecycle
from tournaments.server.finals.play import final_config
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.challenges import ChallengeError, challenge
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version


class LifecycleTests(TestCase):
    def setUp(self) -> None:
        self.contest = Contest.objects.create(
            slug="c", state=Contest.DRAFT, opens=timezone.now() + timedelta(hours=1)
        )
        _, self.ann = participant("ann")
        _, self.ben = participant("ben")
        for who in (self.ann, self.ben):
            who.contest = self.contest
            who.save()

    def test_a_draft_refuses_submissions_and_opens_at_its_date(self) -> None:
        with self.assertRaisesRegex(SubmissionError, "not open yet .*opens at"):
            submit(self.ann, [zip_bytes({"bot.py": RANDOM_BOT})])
        self.assertEqual(lifecycle.advance(self.contest).state, Contest.DRAFT)
        Contest.objects.filter(pk=self.contest.pk).update(opens=timezone.now())
        self.assertEqual(lifecycle.advance(self.contest).state, Contest.OPEN)
        passed_version(self.ann)

    def test_freezing_hands_in_the_active_version_and_only_moves_forward(self) -> None:
        lifecycle.set_state(self.contest, Contest.OPEN)
        first = passed_version(self.ann)
        second = passed_version(self.ann)
        self.ann.pinned = first
        self.ann.save()
        passed_version(self.ben)
        made = lifecycle.freeze(self.contest)
        self.assertEqual(len(made), 2)
        handin = HandIn.objects.get(participant=self.ann)
        self.assertEqual((handin.version_id, handin.sha256), (first.pk, first.sha256))
        self.assertNotEqual(handin.version_id, second.pk)
        with self.assertRaisesRegex(lifecycle.LifecycleError, "only moves forward"):
            lifecycle.set_state(self.contest, Contest.OPEN)
        with self.assertRaisesRegex(lifecycle.LifecycleError, "already handed in"):
            lifecycle.extend(self.contest, self.ann, timezone.now() + timedelta(days=1))
        with self.assertRaisesRegex(SubmissionError, "deadline of c was .* UTC"):
            submit(self.ben, [zip_bytes({"bot.py": RANDOM_BOT})])
        with self.assertRaisesRegex(ChallengeError, "frozen"):
            challenge(self.ann, ["ben"])

    def test_a_staff_bot_may_be_entered_after_the_deadline(self) -> None:
        lifecycle.set_state(self.contest, Contest.FROZEN)
        _, bot = participant("staff-bot")
        bot.contest, bot.staff_bot = self.contest, True
        bot.save()
        passed_version(bot)

    def test_the_final_is_a_round_robin_on_a_small_field_else_adaptive(self) -> None:
        self.contest.final_games_per_pairing, self.contest.final_min_games = 2, 10
        small = final_config(self.contest, [Entry(f"e{i}", "random") for i in range(6)])
        self.assertEqual(small.schedule, "round-robin")  # 15 pairs x 2 = 30 <= 6 x 10 / 2
        large = final_config(self.contest, [Entry(f"e{i}", "random") for i in range(40)])
        self.assertEqual((large.schedule, large.min_games, large.games), ("adaptive", 10, 200))

    def test_a_member_asks_for_a_challenge_on_the_teams_page(self) -> None:
        from django.test import Client

        from tournaments.server.ladder.models import Game

        lifecycle.set_state(self.contest, Contest.OPEN)
        passed_version(self.ann)
        passed_version(self.ben)
        member = Client()
        member.force_login(self.ann.members.get())
        answer = member.post("/p/ann/", {"challenge": "ben"})
        game = Game.objects.get(kind=Game.CHALLENGE)
        self.assertRedirects(answer, f"/games/{game.pk}/", fetch_redirect_response=False)
        self.assertEqual(game.requested_by, self.ann)
        self.assertContains(member.get(f"/games/{game.pk}/"), "challenge by ann, unranked")
        stranger = Client()
        stranger.force_login(self.ben.members.get())
        self.assertEqual(stranger.post("/p/ann/", {"challenge": "ben"}).status_code, 403)


class DatedTransitionTests(TestCase):
    """Each step is made once however many callers see its date, and says who made it."""

    def setUp(self) -> None:
        self.contest = Contest.objects.create(slug="d", state=Contest.OPEN)
        _, self.ann = participant("ann")
        self.ann.contest = self.contest
        self.ann.save()
        passed_version(self.ann)
        # The deadline has passed, after ann's upload (longer ago than the final waits for an
        # upload received just before it: `handins.receiving`).
        Version.objects.filter(participant=self.ann).update(
            uploaded=timezone.now() - timedelta(minutes=3)
        )
        Contest.objects.filter(pk=self.contest.pk).update(
            deadline=timezone.now() - timedelta(minutes=2)
        )

    @override_settings(UPLOAD_GRACE_SECONDS=60)  # its default (the other tests have none)
    def test_the_final_waits_for_uploads_received_before_the_last_deadline(self) -> None:
        # Received at 16:59:59, an upload may still be unpacking at 17:00:00: its version
        # does not exist yet, and a final started then would leave it out.
        from django.conf import settings

        from tournaments.server.finals.play import start_final
        from tournaments.server.handins.decisions import final_is_due

        contest = lifecycle.advance(self.contest)
        self.assertEqual(contest.state, Contest.FROZEN)
        deadline = contest.deadline
        grace = timedelta(seconds=settings.UPLOAD_GRACE_SECONDS)
        self.assertGreater(grace, timedelta(0))
        self.assertFalse(final_is_due(contest, deadline + timedelta(seconds=1)))
        self.assertTrue(final_is_due(contest, deadline + grace))

        # An extension that has passed is a later deadline: the final waits for its uploads too.
        Extension.objects.create(
            contest=contest, participant=self.ann, deadline=deadline + grace, reason="ill"
        )
        self.assertFalse(final_is_due(contest, deadline + grace + timedelta(seconds=1)))
        self.assertTrue(final_is_due(contest, deadline + 2 * grace))
        # Nor does an organiser start it by hand in that minute: frozen by hand just now,
        # before its deadline, the contest took uploads until the freeze.
        Contest.objects.filter(pk=contest.pk).update(
            state=Contest.OPEN, deadline=timezone.now() + timedelta(days=1)
        )
        contest.refresh_from_db()
        lifecycle.freeze(contest)
        with self.assertRaisesRegex(lifecycle.LifecycleError, "start the final again in a minute"):
            start_final(contest, "a test", take_over=False)
        self.assertTrue(final_is_due(contest, timezone.now() + grace))

    def test_a_second_worker_seeing_the_same_deadline_does_nothing(self) -> None:
        from tournaments.server.contests.models import Transition

        first = lifecycle.advance(Contest.objects.get(pk=self.contest.pk), by="worker A")
        second = lifecycle.advance(Contest.objects.get(pk=self.contest.pk), by="worker B")
        self.assertEqual((first.state, second.state), (Contest.FROZEN, Contest.FROZEN))
        self.assertEqual(
            list(Transition.objects.values_list("before", "after", "by")),
            [(Contest.OPEN, Contest.FROZEN, "worker A")],
        )
        self.assertEqual(HandIn.objects.filter(contest=self.contest).count(), 1)
        with self.assertRaisesRegex(lifecycle.LifecycleError, "only an open contest"):
            lifecycle.freeze(self.contest)

    def test_a_final_whose_player_died_is_resumed_and_a_live_one_is_left_alone(self) -> None:
        import subprocess
        import sys

        from tournaments.server.contests.models import Transition
        from tournaments.server.finals import play as final
        from tournaments.server.ladder import coordination

        lifecycle.advance(self.contest, by="worker A")
        _, bob = participant("bob")
        bob.contest = self.contest
        bob.save()
        lifecycle.hand_in(self.contest, timezone.now(), [bob])  # nothing passed: no hand-in
        self.contest.refresh_from_db()
        self.assertFalse(final.final_wanted(self.contest))  # one entry: no 2-player final
        _, staff = participant("staff-bar")
        staff.contest, staff.staff_bot = self.contest, True
        staff.save()
        passed_version(staff)
        self.assertTrue(final.final_wanted(self.contest))
        gone = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        )
        dead = coordination.runner_name(int(gone.stdout))
        lifecycle.move(self.contest, Contest.FROZEN, Contest.FINAL, "worker A", final_runner=dead)
        self.assertTrue(final.final_wanted(self.contest))  # its player is gone
        final.claim_final(self.contest, "worker B", take_over=False)
        self.assertEqual(self.contest.final_runner, coordination.runner_name())
        self.assertIn("resumed", Transition.objects.last().by)  # type: ignore[union-attr]
        self.assertFalse(final.final_wanted(self.contest))  # this process plays it now
        live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            Contest.objects.filter(pk=self.contest.pk).update(
                final_runner=coordination.runner_name(live.pid)
            )
            self.contest.refresh_from_db()
            self.assertFalse(final.final_wanted(self.contest))
            with self.assertRaisesRegex(lifecycle.LifecycleError, "being played by"):
                final.claim_final(self.contest, "an organiser", take_over=True)
            # Nor does a refused final hand in the staff bot entered meanwhile.
            with self.assertRaisesRegex(lifecycle.LifecycleError, "being played by"):
                final.run_final(self.contest)
            self.assertFalse(HandIn.objects.filter(participant=staff).exists())
        finally:
            live.kill()
            live.wait()
        Contest.objects.filter(pk=self.contest.pk).update(final_runner="elsewhere pid 12")
        with self.assertRaisesRegex(lifecycle.LifecycleError, "another machine"):
            final.claim_final(self.contest, "worker C", take_over=False)
        final.claim_final(self.contest, "an organiser", take_over=True)  # the organiser decides

    def test_a_final_refused_at_its_claim_hands_in_nothing(self) -> None:
        from unittest import mock

        from tournaments.server.finals import play as final

        lifecycle.advance(self.contest, by="worker A")  # frozen: ann handed in
        _, staff = participant("staff-bar")
        staff.contest, staff.staff_bot = self.contest, True
        staff.save()
        passed_version(staff)
        # Another process's claim committed first (the race this process loses).
        refused = lifecycle.LifecycleError("the final of d is being played by elsewhere")
        with (
            mock.patch.object(final, "claim_final", side_effect=refused),
            self.assertRaisesRegex(lifecycle.LifecycleError, "being played by"),
        ):
            final.run_final(self.contest)
        self.assertFalse(HandIn.objects.filter(participant=staff).exists())
