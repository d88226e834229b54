"""Submissions become versions: content hash, size, numbering, the daily quota, and a refused
archive leaves no version, no folder and no archive behind."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.test import TestCase

from tests.server.helpers import (
    RANDOM_BOT,
    participant,
    server_paths_in,
    tgz_bytes,
    zip_bytes,
)
from tournaments.server.contests.models import Contest
from tournaments.server.submissions.intake import SubmissionError, submit
from tournaments.server.submissions.models import Version


class IntakeTests(TestCase):
    def setUp(self) -> None:
        self.user, self.who = participant("alice")

    def test_versions_are_numbered_and_kept_with_hash_size_and_folder(self) -> None:
        data = zip_bytes({"mybot/bot.py": RANDOM_BOT})
        v1 = submit(self.who, [data], self.user)
        v2 = submit(self.who, [tgz_bytes({"bot.py": RANDOM_BOT})], self.user)
        self.assertEqual((v1.number, v2.number), (1, 2))
        self.assertEqual(v1.sha256, hashlib.sha256(data).hexdigest())
        self.assertEqual(v1.size, len(data))
        self.assertEqual((v1.archive_format, v2.archive_format), ("zip", "tar.gz"))
        self.assertEqual(v1.entry, "mybot/bot.py")
        self.assertEqual(Path(v1.spec()).read_bytes(), RANDOM_BOT)
        self.assertEqual(v1.archive_path().read_bytes(), data)
        self.assertEqual(v1.state, Version.PENDING)
        self.assertTrue(str(v1.folder()).startswith(str(settings.HOME)))

    def test_a_refused_archive_leaves_nothing(self) -> None:
        before = (
            sorted(p.name for p in (Path(settings.HOME) / "uploads").glob("*"))
            if (Path(settings.HOME) / "uploads").exists()
            else []
        )
        with self.assertRaisesRegex(SubmissionError, r"contains '\.\.'"):
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT, "../escape.py": b"x"})])
        with self.assertRaisesRegex(SubmissionError, "no bot.py or bot.toml"):
            submit(self.who, [zip_bytes({"notes.txt": b"x"})])
        with self.assertRaisesRegex(SubmissionError, "empty"):
            submit(self.who, [b""])
        self.assertFalse(Version.objects.exists())
        after = sorted(p.name for p in (Path(settings.HOME) / "uploads").glob("*"))
        self.assertEqual(before, after)

    def test_a_member_name_too_long_is_refused_naming_no_server_path(self) -> None:
        long_name = "a" * 4000
        for pack in (zip_bytes, tgz_bytes):
            with self.assertRaises(SubmissionError) as refused:
                submit(self.who, [pack({"bot.py": RANDOM_BOT, long_name: b"x"})])
            message = str(refused.exception)
            self.assertIn("longer than 255 bytes", message)
            self.assertIn("(4000 characters)", message)
            self.assertLess(len(message), 300, "the name is cut short")
            self.assertEqual(server_paths_in(message), [], message)
        deep = "/".join(["d" * 200] * 6) + "/bot.py"  # every part fits, the whole does not
        with self.assertRaisesRegex(SubmissionError, "a path longer than 1024 bytes"):
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT, deep: b"x"})])
        self.assertFalse(Version.objects.exists())

    def test_the_daily_quota_is_the_contests_setting(self) -> None:
        contest = Contest.current()
        contest.daily_quota = 2
        contest.save()
        for _ in range(2):
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        with self.assertRaisesRegex(SubmissionError, "limit is 2; the next one is possible at"):
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        # Another participant has a quota of their own.
        _, bob = participant("bob")
        submit(bob, [zip_bytes({"bot.py": RANDOM_BOT})])

    def test_refused_archives_count_against_the_daily_quota(self) -> None:
        """The server reads, unpacks and checks a refused archive as any other: refused ones
        are counted, so a participant cannot make it do that without limit."""
        contest = Contest.current()
        contest.daily_quota = 3
        contest.save()
        for bad in (zip_bytes({"notes.txt": b"x"}), b"", zip_bytes({"../up.py": b"x"})):
            with self.assertRaises(SubmissionError):
                submit(self.who, [bad], self.user)
        with self.assertRaisesRegex(
            SubmissionError, r"made 3 submissions in the last 24 hours \(3 of them refused\)"
        ):
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})], self.user)
        self.assertFalse(Version.objects.exists())
        # The quota's own refusal is not counted again: a day later all is free.
        from datetime import timedelta

        from django.utils import timezone

        from tournaments.server.submissions.models import RefusedUpload

        self.assertEqual(RefusedUpload.objects.filter(participant=self.who).count(), 3)
        RefusedUpload.objects.update(at=timezone.now() - timedelta(days=1, seconds=1))
        self.assertEqual(submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})]).number, 1)

    def test_uploads_sent_side_by_side_cannot_pass_the_quota_together(self) -> None:
        """An upload counts the quota as it starts, but its bytes take a while to arrive:
        another upload finished meanwhile is counted again before the version is made."""
        contest = Contest.current()
        contest.daily_quota = 1
        contest.save()
        archive = zip_bytes({"bot.py": RANDOM_BOT})

        def slow_upload():  # the other upload lands while this one's bytes are arriving
            yield archive[:100]
            submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT + b"# the other\n"})])
            yield archive[100:]

        with self.assertRaisesRegex(SubmissionError, "made 1 submissions .* limit is 1"):
            submit(self.who, slow_upload())
        self.assertEqual(Version.objects.filter(participant=self.who).count(), 1)
        uploads = Path(settings.HOME) / "uploads"
        self.assertEqual(list(uploads.iterdir()), [], "the refused upload leaves nothing")

    def test_an_archive_over_the_size_limit_is_refused_while_it_arrives(self) -> None:
        with self.settings(ARCHIVE_MAX_BYTES=1000):
            with self.assertRaisesRegex(SubmissionError, "larger than the limit"):
                submit(self.who, [b"PK\x03\x04" + bytes(600), bytes(600)])


def test_the_committed_migrations_match_the_models() -> None:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:
        raise AssertionError(f"models changed without a migration:\n{out.getvalue()}") from exc
