"""Archives of real bots, accounts and a watched ladder worker for the server's tests."""

from __future__ import annotations

import asyncio
import io
import tarfile
import threading
import time
import zipfile
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import Argon2PasswordHasher
from django.db import connection

from tournaments.server.contests.models import Participant

RANDOM_BOT = b"""import random

import sdk


class RandomBot(sdk.Bot):
    name = "uploaded-random"

    def choose_move(self, state):
        return random.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(RandomBot)
"""

CRASHING_BOT = b"""import sdk


class CrashBot(sdk.Bot):
    name = "crasher"

    def choose_move(self, state):
        raise RuntimeError("this bot always crashes on its first move")


if __name__ == "__main__":
    sdk.run(CrashBot)
"""


def played_record(names: list[str], seed: int = 3) -> dict[str, Any]:
    """The record of a whole 2-player game of random moves, its seats named `names`."""
    import random

    from referee.engine import new_game

    game = new_game("azul", 2, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.push(rng.choice(game.legal_moves()))
    return game.record(names)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def tgz_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def participant(
    name: str, password: str = "a long enough pass 7", staff: bool = False
) -> tuple[Any, Participant]:
    user = get_user_model().objects.create_user(
        name, password=password, is_staff=staff, is_superuser=staff
    )
    who = Participant.objects.create(name=name)
    who.members.add(user)
    return user, who


class TestArgon2PasswordHasher(Argon2PasswordHasher):  # type: ignore[misc]
    """Argon2 with small costs, for the tests only."""

    time_cost = 1
    memory_cost = 1024
    parallelism = 1


def server_paths_in(text: str) -> list[str]:
    """The server's own paths `text` names: its data folder (HOME) or the temporary folder
    (what a participant must never be shown)."""
    import tempfile
    from pathlib import Path

    from django.conf import settings

    home = [str(settings.HOME), str(Path(settings.HOME).resolve())]
    tmp = [tempfile.gettempdir() + "/", str(Path(tempfile.gettempdir()).resolve()) + "/"]
    return [p for p in {*home, *tmp} if p in text]


def run_worker(worker: Any, bound: float = 120) -> Any:
    """`worker.run()` (a LadderWorker) until it ends by itself, or fails the test after `bound`
    seconds: a worker waiting for games that cannot start would otherwise wait for ever."""
    deadline = time.monotonic() + bound
    timed_out = False

    def past_bound() -> bool:  # true once: the watcher then stops the worker
        nonlocal timed_out
        timed_out = time.monotonic() > deadline
        return timed_out

    stats = run_worker_until(worker, past_bound, bound + 60)  # past_bound stops it first
    if timed_out:
        raise AssertionError(
            f"the worker did not end within {bound} s: {stats}\n{failed_validations()}"
        )
    return stats


def failed_validations() -> str:
    """Why the versions that did not pass failed: the test's message when a validation it
    counts on did not pass (their reason and the tail of their log)."""
    from tournaments.server.submissions.models import Version

    return "\n".join(
        f"{v}: {v.state} {v.reason}\n{v.log_tail}"
        for v in Version.objects.exclude(state=Version.PASSED)
    )


def run_worker_until(worker: Any, done: Callable[[], bool], bound: float) -> Any:
    """`worker.run()` (a LadderWorker) until it ends by itself, `done()` is true or `bound`
    seconds have passed; its statistics. `done` reads the database from a thread of its own
    (the ORM refuses the event loop's thread), every 0.1 s."""
    from referee import run_loop

    started, finished = threading.Event(), threading.Event()

    def watch() -> None:
        deadline = time.monotonic() + bound
        try:
            while time.monotonic() < deadline and not finished.wait(0.1):
                if done():
                    break
        finally:
            connection.close()
        started.wait()
        if not finished.is_set():  # a loop that has ended takes no more calls
            worker.stop_from_thread()

    async def run() -> Any:
        task = asyncio.ensure_future(worker.run())
        await asyncio.sleep(0)  # run() has set its loop and stop event: it may be stopped now
        started.set()
        return await task

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return run_loop(run())
    finally:
        finished.set()
        watcher.join(5)


def passed_version(who: Any, archive: bytes | None = None) -> Any:
    """A version of `who` (a random bot unless `archive` is given) that passed validation and
    stands on the ladder (validation itself is tested elsewhere)."""
    from tournaments.server.ladder.standings import enter
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version

    version = submit(who, [archive or zip_bytes({"bot.py": RANDOM_BOT})])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    version.refresh_from_db()
    enter(version)
    return version


def sign_in(browser: Any, live_server_url: str, user: Any) -> None:
    """`user` signed in to the live server in `browser`: the session of Django's test client
    set as the browser's cookie (after a page of the site, so that the cookie has its domain)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    browser.get(live_server_url + "/favicon.ico")
    browser.add_cookie(
        {"name": "sessionid", "value": client.cookies["sessionid"].value, "path": "/"}
    )


async def stopped_after_one_game(claimed: Any, into: Any = None) -> bool:
    """Play the claimed final (into the store `into`, if given) until its first game is
    recorded, then cancel it; True if it was cancelled, False if it ended first."""
    from tournaments.domain.progress import GameFinished, ProgressEvent
    from tournaments.server.finals import play as final

    task = asyncio.current_task()
    assert task is not None

    def on_progress(event: ProgressEvent) -> None:
        if isinstance(event, GameFinished) and event.outcome is not None:
            task.cancel()

    try:
        await final.play_final(claimed, 1, on_progress, into=into)
    except asyncio.CancelledError:
        return True
    return False
