"""Validation runs the real compliance checks (bot processes through the referee, in the
strongest isolation this machine has) on uploaded versions."""

from __future__ import annotations

from django.test import TransactionTestCase

from tests.server.helpers import CRASHING_BOT, RANDOM_BOT, participant, zip_bytes
from tournaments.ratings import make_env
from tournaments.server.ladder.models import Contest, Standing
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
