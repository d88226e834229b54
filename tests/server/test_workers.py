"""Two ladder workers on one contest and one database, as a department runs more than one:
no game is played by both, no version plays two games at once, nothing is rated twice; and a
worker that has gone silent leaves its games and validations to the others."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from django.test import TestCase
from django.utils import timezone

from tests.server.test_cli import CLI, ROOT, database_env, database_query
from tournaments.server.ladder import coordination
from tournaments.server.ladder.models import WorkerBeat

SETUP = """
import os
os.environ['AZUL_ARENA_SERVER_HOME'] = {home!r}
from tournaments.server import setup; setup()
from tournaments.server.contests.models import Participant
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.services import reference_archive
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
archive = reference_archive('random')
for i in range(8):
    who = Participant.objects.create(name=f'bot-{{i}}')
    version = submit(who, [archive])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    version.refresh_from_db()
    enter(version)
"""


def _moment(value: str | datetime) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return moment.replace(tzinfo=None) if moment.tzinfo is None else moment


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_two_workers_on_one_contest_share_its_games(tmp_path: Path) -> None:
    home = tmp_path / "arena"
    init = subprocess.run(
        [*CLI, "server", "init", "--home", str(home), "--time-per-move", "0.05"],
        capture_output=True,
        text=True,
        env=database_env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert init.returncode == 0, init.stderr
    made = subprocess.run(
        [sys.executable, "-c", SETUP.format(home=str(home))],
        capture_output=True,
        text=True,
        env=database_env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    workers = [
        subprocess.Popen(
            [*CLI, "server", "ladder", "--home", str(home), "--games", "12", "-c", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=database_env(tmp_path),
            cwd=ROOT,
        )
        for _ in range(2)
    ]
    said = [w.communicate(timeout=600)[1] for w in workers]
    assert [w.returncode for w in workers] == [0, 0], said
    for text in said:
        assert "ladder stopped: 12 games played" in text, text
        assert "recorded by another worker" not in text, text  # no game played by both
    games = database_query(home, "SELECT id, worker, created, finished FROM arena_ladder_game")
    assert len(games) == 24 and all(g[3] for g in games)  # each recorded once, none left
    assert len({g[1] for g in games}) == 2  # both workers played, each its own games
    # Nothing rated twice: each version's game count is its seats in done games.
    assert database_query(home, "SELECT SUM(games) FROM arena_ladder_standing") == [(48,)]
    # No version in more than GAMES_PER_VERSION (2) games at once, across both workers: at
    # each game's scheduling, the version's games scheduled and not yet recorded.
    seats = database_query(
        home,
        "SELECT s.version_id, g.created, g.finished FROM arena_ladder_seat s "
        "JOIN arena_ladder_game g ON g.id = s.game_id ORDER BY g.created",
    )
    spans: dict[int, list[tuple[datetime, datetime]]] = {}
    for version, created, finished in seats:
        start = _moment(created)
        at_once = [1 for a, b in spans.get(version, []) if a <= start < b]
        assert len(at_once) < 2, (version, created, spans[version])
        spans.setdefault(version, []).append((start, _moment(finished)))
    assert database_query(home, "SELECT COUNT(*) FROM arena_ladder_workerbeat") == [
        (0,)
    ]  # both left


class GoneWorkerTests(TestCase):
    def test_a_silent_worker_is_gone_and_a_dead_local_one_at_once(self) -> None:
        now = timezone.now()
        coordination.beat("elsewhere pid 7", now - timedelta(seconds=5))
        coordination.beat("far pid 9", now - timedelta(seconds=coordination.GONE_SECONDS + 1))
        gone = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        )
        coordination.beat(coordination.runner_name(int(gone.stdout)), now)
        coordination.beat(coordination.runner_name(), now)
        self.assertEqual(
            coordination.live_workers(now), {"elsewhere pid 7", coordination.runner_name()}
        )

    def test_a_killed_workers_row_is_forgotten_after_an_hour(self) -> None:
        now = timezone.now()
        coordination.beat("killed pid 3", now - timedelta(seconds=coordination.FORGET_SECONDS + 1))
        coordination.beat("quiet pid 4", now - timedelta(seconds=coordination.GONE_SECONDS + 1))
        coordination.beat("alive pid 5", now)
        self.assertEqual(
            set(WorkerBeat.objects.values_list("name", flat=True)), {"quiet pid 4", "alive pid 5"}
        )

    def test_a_gone_workers_validation_waits_again_a_live_ones_does_not(self) -> None:
        from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
        from tournaments.server.submissions.intake import submit
        from tournaments.server.submissions.models import Version
        from tournaments.server.submissions.validation import claim_next, requeue_interrupted

        _, ann = participant("ann")
        _, ben = participant("ben")
        submit(ann, [zip_bytes({"bot.py": RANDOM_BOT})])
        submit(ben, [zip_bytes({"bot.py": RANDOM_BOT})])
        first, second = claim_next("alive pid 1"), claim_next("gone pid 2")
        assert first is not None and second is not None
        self.assertEqual(requeue_interrupted({"alive pid 1"}), 1)
        states = dict(Version.objects.values_list("pk", "state"))
        self.assertEqual(states[first.pk], Version.VALIDATING)
        self.assertEqual(states[second.pk], Version.PENDING)
