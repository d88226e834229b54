"""The machine's faults are not the bot's: a validation game timed out in for the machine's
sake is played again, a staff bot that fails is validated again and the organisers are told
(real bot processes through the referee; `process` isolation, so a bot can leave a mark in its
own folder that its next process sees)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import TransactionTestCase

from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
from tournaments.server.contests.models import Contest
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.validation import STAFF_RETRIES, claim_next, validate

# One hiccup in the bot's whole life (its third move, in its first process only): what a
# machine's load does to a bot that is well within its limit. It sleeps, so its own CPU time
# shows it was not thinking too long.
HICCUP_ONCE = b"""import pathlib
import random
import time

import sdk

MARK = pathlib.Path(__file__).with_name(".hiccup")
MOVES = 0


class HiccupOnce(sdk.Bot):
    name = "hiccup-once"

    def choose_move(self, state):
        global MOVES
        MOVES += 1
        if MOVES == 3 and not MARK.exists():
            MARK.write_text("once")
            time.sleep(1.5)
        return random.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(HiccupOnce)
"""

# Crashes in every game of its first validation, plays well in the next (a mark it leaves).
CRASH_FIRST_TIME = b"""import pathlib
import random

import sdk

MARK = pathlib.Path(__file__).with_name(".crashed")
FIRST = not MARK.exists()
MARK.write_text("yes")


class CrashFirstTime(sdk.Bot):
    name = "crash-first-time"

    def choose_move(self, state):
        if FIRST:
            raise RuntimeError("the machine had a bad moment")
        return random.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(CrashFirstTime)
"""

ALWAYS_CRASHES = RANDOM_BOT.replace(
    b"return random.choice(state.legal_moves())", b"raise ValueError('broken')"
)


class InfrastructureTests(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.2
        contest.save()

    def test_a_timeout_that_is_the_machines_doing_is_replayed_not_failed(self) -> None:
        _, who = participant("hana")
        version = submit(who, [zip_bytes({"bot.py": HICCUP_ONCE})])
        claimed = claim_next()
        assert claimed is not None
        report = validate(claimed, isolation="process")
        version.refresh_from_db()
        self.assertEqual(version.state, Version.PASSED, version.reason)
        answers = next(c for c in report.checks if c.name.startswith("answers within"))
        self.assertIn("1 games replayed, not the bot's fault", answers.detail)

    def test_a_staff_bot_that_fails_is_tried_again(self) -> None:
        _, who = participant("ref-flaky")
        who.staff_bot = True
        who.save()
        version = submit(who, [zip_bytes({"bot.py": CRASH_FIRST_TIME})])
        claimed = claim_next()
        assert claimed is not None
        validate(claimed, isolation="process")
        version.refresh_from_db()
        self.assertEqual(version.state, Version.PASSED, version.reason)
        self.assertEqual(mail.outbox, [])

    @pytest.mark.slow  # three validations of a broken staff bot: `make test-slow`, run by CI
    def test_a_staff_bot_that_keeps_failing_is_reported_to_the_organisers(self) -> None:
        org, _ = participant("organiser", staff=True)
        org.email = "org@example.org"
        org.save()
        _, who = participant("ref-broken")
        who.staff_bot = True
        who.save()
        version = submit(who, [zip_bytes({"bot.py": ALWAYS_CRASHES})])
        claimed = claim_next()
        assert claimed is not None
        with self.assertLogs("tournaments.server.submissions.validation", "ERROR") as said:
            validate(claimed, isolation="process")
        version.refresh_from_db()
        self.assertEqual(version.state, Version.FAILED)
        self.assertIn(f"failed validation {1 + STAFF_RETRIES} times", said.output[-1])
        self.assertEqual(len(mail.outbox), 1)
        self.assertEqual(mail.outbox[0].to, ["org@example.org"])
        self.assertIn("ref-broken", mail.outbox[0].subject)
        self.assertIn("Revalidate", mail.outbox[0].body)
