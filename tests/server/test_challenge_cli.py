"""A challenge asked for from the command line, over a real HTTP port: the participant's API
token (as `submit` uses it), the contest's daily quota, the game's URL; the ladder worker plays
it, unranked."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.server.test_cli import ROOT, cli, env, query, start, wait_for

SETUP = """
import os
os.environ['AZUL_ARENA_SERVER_HOME'] = {home!r}
from tournaments.server import setup; setup()
from django.contrib.auth import get_user_model
from tournaments.server.contests.models import Participant
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.services import reference_archive
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
Contest.objects.filter(pk=Contest.current().pk).update(challenge_quota=1, paused=True)
for name, bot in (('zoe', 'random'), ('rival', 'greedy')):
    user = get_user_model().objects.create_user(name, password=name + ' pass 12345')
    who = Participant.objects.create(name=name)
    who.members.add(user)
    version = submit(who, [reference_archive(bot)])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    version.refresh_from_db()
    enter(version)
"""


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_a_challenge_from_the_command_line_is_played_unranked(tmp_path: Path) -> None:
    home = tmp_path / "contest"
    init = cli(tmp_path, "server", "init", "--home", str(home), "--time-per-move", "0.1")
    assert init.returncode == 0, init.stderr
    made = subprocess.run(
        [sys.executable, "-c", SETUP.format(home=str(home))],
        capture_output=True,
        text=True,
        env=env(tmp_path),
        cwd=ROOT,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    not_yet = cli(tmp_path, "contest", "challenge", "rival", "--server", "http://127.0.0.1:9")
    assert not_yet.returncode == 1 and "not logged in" in not_yet.stderr
    # The ladder is paused (no ranked game is played): the worker plays the challenge alone.
    proc, url = start(tmp_path, "server", "run", "--home", str(home), "--listen", "127.0.0.1:0")
    try:
        logged = cli(
            tmp_path,
            "contest",
            "login",
            "--server",
            url,
            "-u",
            "zoe",
            "--password-stdin",
            stdin="zoe pass 12345\n",
        )
        assert logged.returncode == 0, logged.stderr
        for args, said in (
            (["zoe"], "not yourself"),
            (["nobody"], "no participant 'nobody'"),
            (["rival", "zoe"], "needs 1 opponent(s), not 2"),
        ):
            refused = cli(tmp_path, "contest", "challenge", *args, "--server", url)
            assert refused.returncode == 1, refused.stdout
            assert said in refused.stderr and "HTTP 400" in refused.stderr, refused.stderr
        asked = cli(tmp_path, "contest", "challenge", "rival", "--server", url, "--json")
        assert asked.returncode == 0, asked.stderr
        reply = json.loads(asked.stdout)
        assert reply["opponents"] == ["rival"] and reply["challenges_left_today"] == 0
        assert reply["url"] == f"{url}/games/{reply['game']}/"
        with urllib.request.urlopen(reply["url"], timeout=30) as page:
            assert "challenge by zoe, unranked" in page.read().decode()
        db = home / "server.sqlite3"
        wait_for(
            lambda: (
                query(db, f"SELECT status FROM arena_ladder_game WHERE id={reply['game']}")
                == [("done",)]
            ),
            180,
            "the challenge to be played",
        )
        assert query(db, f"SELECT kind, rated FROM arena_ladder_game WHERE id={reply['game']}") == [
            ("challenge", 0)
        ]
        assert query(db, "SELECT SUM(games) FROM arena_ladder_standing") == [(0,)]
        over = cli(tmp_path, "contest", "challenge", "rival", "--server", url)
        assert over.returncode == 1
        assert "the contest's limit is 1" in over.stderr, over.stderr
    finally:
        proc.terminate()
        proc.wait(timeout=60)
