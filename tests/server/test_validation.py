"""Validation runs the real compliance checks (bot processes through the referee, in the
strongest isolation this machine has) on uploaded versions."""

from __future__ import annotations

from django.test import TestCase, TransactionTestCase
from django.utils import timezone

from tests.server.helpers import (
    CRASHING_BOT,
    RANDOM_BOT,
    failed_validations,
    participant,
    zip_bytes,
)
from tournaments.domain.ratings import make_env
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Standing
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.validation import claim_next, validate


class ValidationTests(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        self.user, self.who = participant("carol")

    def test_a_good_bot_passes_and_enters_the_ladder_a_crashing_one_fails_with_its_log(
        self,
    ) -> None:
        good = submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        claimed = claim_next()
        assert claimed is not None and claimed.pk == good.pk
        self.assertEqual(Version.objects.get(pk=good.pk).state, Version.VALIDATING)
        self.assertIsNone(claim_next(), "a version being validated is not claimed twice")
        report = validate(claimed)
        self.assertTrue(report.passed, report.as_dict())
        good.refresh_from_db()
        self.assertEqual(good.state, Version.PASSED)
        self.assertTrue(any(c["name"] == "plays azul" and c["passed"] for c in good.checks))
        standing = Standing.objects.get(version=good)
        self.assertEqual((standing.mu, standing.sigma), (make_env().mu, make_env().sigma))

        bad = submit(self.who, [zip_bytes({"crasher/bot.py": CRASHING_BOT})])
        claimed = claim_next()
        assert claimed is not None
        validate(claimed)
        bad.refresh_from_db()
        self.assertEqual(bad.state, Version.FAILED)
        self.assertIn("crash", bad.reason)
        self.assertIn("this bot always crashes on its first move", bad.log_tail)
        self.assertNotIn(str(bad.folder()), bad.reason, "no server paths in the reason")
        self.assertFalse(Standing.objects.filter(version=bad).exists())

    def test_a_new_version_starts_from_its_predecessors_mu_with_a_wider_sigma(self) -> None:
        from tournaments.server.ladder.standings import SIGMA_WIDENING, enter

        v1 = submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        s1 = enter(v1)
        s1.mu, s1.sigma = 31.0, 2.0
        s1.save()
        v2 = submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        s2 = enter(v2)
        self.assertEqual((s2.mu, s2.sigma), (31.0, 2.0 + SIGMA_WIDENING))

    def test_a_bot_toml_folder_is_built_then_validated_and_a_failed_build_says_so(self) -> None:
        import sys

        toml = (
            f'name = "folder-bot"\nrun = "{sys.executable} bot.py"\n'
            f"build = 'cp first.py bot.py'\n"
        ).encode()
        good = submit(self.who, [zip_bytes({"mine/bot.toml": toml, "mine/first.py": RANDOM_BOT})])
        self.assertEqual(good.entry, "mine")
        claimed = claim_next()
        assert claimed is not None
        report = validate(claimed)
        self.assertTrue(report.passed, report.as_dict())
        self.assertTrue((good.folder() / "bot" / "mine" / "bot.py").exists(), "it was built")

        broken = toml.replace(b"cp first.py bot.py", b"echo no compiler here >&2; exit 3")
        bad = submit(self.who, [zip_bytes({"bot.toml": broken, "first.py": RANDOM_BOT})])
        claimed = claim_next()
        assert claimed is not None
        validate(claimed)
        bad.refresh_from_db()
        self.assertEqual(bad.state, Version.FAILED)
        self.assertIn("build", bad.reason)
        self.assertIn("no compiler here", bad.log_tail)

    def test_what_a_failed_build_wrote_is_not_kept(self) -> None:
        """A build that fills its folder, then fails: the folder is the upload again, so
        failed uploads cannot pile the build's output up on the server's disk."""
        import sys

        toml = (
            f'run = "{sys.executable} bot.py"\n'
            "build = 'head -c 8000000 /dev/zero > junk.bin; exit 3'\n"
        ).encode()
        version = submit(self.who, [zip_bytes({"bot.toml": toml, "bot.py": RANDOM_BOT})])
        claimed = claim_next()
        assert claimed is not None
        validate(claimed)
        version.refresh_from_db()
        self.assertEqual(version.state, Version.FAILED)
        bot = version.folder() / "bot"
        self.assertEqual(sorted(p.name for p in bot.iterdir()), ["bot.py", "bot.toml"])
        self.assertTrue((version.folder() / "validation").is_dir(), "its log stays to read")


def _folder_bot(build: str) -> bytes:
    """A bot folder's archive whose bot.toml asks for all the time in the world to build."""
    import sys

    toml = (
        f'run = "{sys.executable} bot.py"\nbuild = "{build}"\nbuild_timeout = 1000000000\n'
    ).encode()
    return zip_bytes({"bot.toml": toml, "bot.py": RANDOM_BOT})


class BoundedValidationTests(TransactionTestCase):
    """One upload holds up nobody: its build is cut at the contest's cap, the whole check at
    a deadline, and a worker validates other participants' uploads beside it."""

    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.build_timeout = 3
        contest.save()

    def test_a_build_asking_for_a_billion_seconds_is_cut_at_the_contests_cap(self) -> None:
        _, who = participant("slow")
        version = submit(who, [_folder_bot("sleep 1000")])
        claimed = claim_next()
        assert claimed is not None
        validate(claimed)
        version.refresh_from_db()
        self.assertEqual(version.state, Version.FAILED)
        self.assertIn("the build (sleep 1000) took more than 3 s", version.reason)
        self.assertIn("its bot.toml asks for 1e+09 s", version.reason)
        self.assertIn("see the validation log on the version page", version.reason)

    def test_the_cap_is_an_organisers_setting_in_the_admin(self) -> None:
        from django.test import Client

        user, _ = participant("organiser", staff=True)
        client = Client()
        client.force_login(user)
        page = client.get(f"/admin/arena_contests/contest/{Contest.current().pk}/change/")
        self.assertContains(page, 'name="build_timeout"')
        self.assertContains(page, 'value="3"')

    def test_a_check_past_its_deadline_fails_saying_so(self) -> None:
        from django.test import override_settings

        slow_start = b"import time\ntime.sleep(60)\n" + RANDOM_BOT  # no Hello for a minute
        _, who = participant("sleepy")
        version = submit(who, [zip_bytes({"bot.py": slow_start})])
        claimed = claim_next()
        assert claimed is not None
        with override_settings(VALIDATION_PLAY_SECONDS=1):  # the deadline: 3 + 1 s
            validate(claimed)
        version.refresh_from_db()
        self.assertEqual(version.state, Version.FAILED)
        self.assertIn("finishes in time: stopped after 4 s", version.reason)

    def test_another_participants_upload_is_validated_beside_a_slow_build(self) -> None:
        import threading

        from referee import run_loop
        from tournaments.server.worker.loop import LadderWorker

        contest = Contest.current()
        contest.build_timeout = 600  # longer than the good bot's whole validation
        contest.save()
        _, slow = participant("slow")
        first = submit(slow, [_folder_bot("sleep 1000")])
        second = submit(slow, [_folder_bot("sleep 1000")])
        _, quick = participant("quick")
        good = submit(quick, [zip_bytes({"bot.py": RANDOM_BOT})])
        worker = LadderWorker(max_games=0, poll=0.05)  # VALIDATIONS: 2 at once
        thread = threading.Thread(target=lambda: run_loop(worker.run()), daemon=True)
        thread.start()
        try:
            state = _wait_for(good, {Version.PASSED, Version.FAILED})
            why = failed_validations()
            self.assertEqual(state, Version.PASSED, f"validated while the slow build runs: {why}")
            states = {v.pk: v.state for v in Version.objects.filter(participant=slow)}
            self.assertEqual(states[first.pk], Version.VALIDATING)
            self.assertEqual(states[second.pk], Version.PENDING, "one slot per participant")
        finally:
            worker.stop_from_thread()
            thread.join(60)
        self.assertFalse(thread.is_alive(), "a stopping worker ends its validations")
        first.refresh_from_db()
        self.assertEqual((first.state, first.validator), (Version.PENDING, ""))


def _wait_for(version: Version, states: set[str], bound: float = 180.0) -> str:
    """The version's state once it is one of `states` (or as it is after `bound` seconds,
    a bound that only stops a broken run from hanging)."""
    import time

    end = time.monotonic() + bound
    while True:
        version.refresh_from_db()
        if version.state in states or time.monotonic() > end:
            return version.state
        time.sleep(0.2)


class TurnTests(TestCase):
    def test_participants_take_turns_so_a_queue_of_uploads_cannot_hold_up_a_newcomer(
        self,
    ) -> None:
        # Two accounts queue three uploads each (their builds could each sleep to the build
        # timeout), then a student uploads once: it waits for one turn of each, not six.
        queued = [participant(name)[1] for name in ("flood-1", "flood-2")]
        for _ in range(3):
            for who in queued:
                submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
        student = submit(participant("student")[1], [zip_bytes({"bot.py": RANDOM_BOT})])
        order = []
        while (claimed := claim_next()) is not None:
            order.append(claimed.participant.name)
            Version.objects.filter(pk=claimed.pk).update(
                state=Version.FAILED, validated=timezone.now()
            )
        self.assertEqual(order.index("student"), 2, order)
        self.assertEqual(order.count("flood-1"), 3)
        # After the newcomer, the two take turns: each one's oldest upload first.
        self.assertEqual(order[3:], ["flood-1", "flood-2", "flood-1", "flood-2"])
        self.assertEqual(Version.objects.get(pk=student.pk).state, Version.FAILED)
