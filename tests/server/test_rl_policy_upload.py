"""A trained policy is a bot like any other: the folder `bot new --template rl` makes, with a
policy the example trainer wrote, uploaded through the participant's page, passes the worker's
validation (in the sandbox, where the machine has one: numpy must import there) and plays a
rated ladder game."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TransactionTestCase
from typer.testing import CliRunner

from referee.sandbox import strongest
from tests.server.helpers import RANDOM_BOT, participant, run_worker_until, zip_bytes
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker

pytest.importorskip("numpy", reason="sdk.rl is the rl extra")


def policy_bot_folder(tmp_path: Path) -> Path:
    """`bot new student --template rl`, its untrained policy replaced by a (briefly) trained
    one, as a student's folder is before it is zipped."""
    from sdk.rl.examples import train
    from tournaments.cli import app

    made = CliRunner().invoke(
        app, ["bot", "new", "student", "--template", "rl", "--dir", str(tmp_path)]
    )
    assert made.exit_code == 0, made.output
    folder = tmp_path / "student"
    untrained = (folder / "policy.npz").read_bytes()
    policy = str(folder / "policy.npz")
    train.main(["--minutes", "0.02", "--envs", "8", "--steps", "8", "--eval-every", "1",
                "--eval-games", "2", "--hidden", "16", "--out", policy])  # fmt: skip
    assert (folder / "policy.npz").read_bytes() != untrained, "the trainer wrote its policy"
    return folder


def zip_folder(folder: Path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, path.relative_to(folder).as_posix())
    return buf.getvalue()


class PolicyUploadTests(TransactionTestCase):
    def test_a_trained_policy_bot_is_validated_and_plays_on_the_ladder(self) -> None:
        import tempfile

        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        user, student = participant("student")
        with tempfile.TemporaryDirectory() as tmp:
            archive = zip_folder(policy_bot_folder(Path(tmp)))
        client = Client()
        client.force_login(user)
        upload = SimpleUploadedFile("student.zip", archive)
        reply = client.post("/p/student/", {"archive": upload})
        self.assertEqual(reply.status_code, 302, reply.content[:2000])
        _, rival = participant("rival")
        submit(rival, [zip_bytes({"bot.py": RANDOM_BOT})])

        worker = LadderWorker(concurrency=1, max_games=1, poll=0.05)
        # A version failing validation leaves no game to reach max_games: stop there.
        failed = Version.objects.filter(state=Version.FAILED).exists
        stats = run_worker_until(worker, failed, 240)

        version = Version.objects.get(participant=student)
        self.assertEqual(version.state, Version.PASSED, version.log_tail)
        self.assertEqual((stats.validated, stats.played), (2, 1), stats)
        game = Game.objects.get(status=Game.DONE)
        self.assertTrue(game.rated)
        self.assertEqual(game.isolation, strongest(), "played as the ladder plays: sandboxed here")
        seat = Seat.objects.get(game=game, version=version)
        self.assertEqual(seat.termination, "ok", seat.log)
        self.assertGreater(seat.moves, 0, "the policy bot moved")
