"""A trained policy is a bot like any other: the folder `bot new --template rl` makes, with a
policy the example trainer wrote, uploaded through the participant's page, passes the worker's
validation (in the sandbox, where the machine has one: numpy must import there) and plays a
rated ladder game."""

from __future__ import annotations

import asyncio
import io
import threading
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client, TransactionTestCase
from typer.testing import CliRunner

from referee import run_loop
from referee.sandbox import strongest
from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.worker import LadderWorker
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version

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


async def stopped_on_a_failure(worker: LadderWorker) -> Any:
    """`worker.run()`, stopped early when a version fails validation (no game could then
    reach `max_games`: the run would idle until the test's timeout) or after 240 s."""
    done = threading.Event()

    def watch() -> None:  # a thread of its own: the ORM refuses the event loop's thread
        deadline = time.monotonic() + 240
        try:
            while time.monotonic() < deadline and not done.wait(0.2):
                if Version.objects.filter(state=Version.FAILED).exists():
                    break
        finally:
            connection.close()
        if not done.is_set():
            worker.stop_from_thread()

    task = asyncio.ensure_future(worker.run())
    await asyncio.sleep(0)  # run() has set its loop and stop event: it may be stopped now
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return await task
    finally:
        done.set()


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
        stats = run_loop(stopped_on_a_failure(worker))

        version = Version.objects.get(participant=student)
        self.assertEqual(version.state, Version.PASSED, version.log_tail)
        self.assertEqual((stats.validated, stats.played), (2, 1), stats)
        game = Game.objects.get(status=Game.DONE)
        self.assertTrue(game.rated)
        self.assertEqual(game.isolation, strongest(), "played as the ladder plays: sandboxed here")
        seat = Seat.objects.get(game=game, version=version)
        self.assertEqual(seat.termination, "ok", seat.log)
        self.assertGreater(seat.moves, 0, "the policy bot moved")
