"""A course's end as an organiser and the students live it, through the real CLI and a real HTTP
server (`server run --contest`): the course is the front page and its sign-up; after the
freeze the final is scheduled, then playing, and `export-results` refuses (exit 1) until it is
done (`--partial` marks its files); a close is refused while it plays; the worker resumes it;
`contest show` lists each team's hand-in and the final's state; once closed the front page
publishes the final's standings, in the export's order; the standings CSV lists every team,
the one that handed in nothing with why."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

import pytest

from tests.server.test_cli import ROOT, cli, env, start, wait_for

CLASS = """
import os
os.environ['AZUL_ARENA_SERVER_HOME'] = {home!r}
from tournaments.server import setup; setup()
from django.contrib.auth import get_user_model
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.finals import lifecycle
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.services import reference_archive
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
course = Contest.objects.get(slug='course')
for name, bot, passed in (('ann', 'greedy', True), ('ben', 'random', True),
                          ('cy', 'random', True), ('dan', 'random', False)):
    user = get_user_model().objects.create_user(name, password=name + ' pass 12345')
    who = Participant.objects.create(name=name, contest=course)
    who.members.add(user)
    version = submit(who, [reference_archive(bot)])
    Version.objects.filter(pk=version.pk).update(
        state=Version.PASSED if passed else Version.FAILED,
        reason='' if passed else 'launch and handshake: no_hello')
    version.refresh_from_db()
    if passed:
        enter(version)
lifecycle.set_state(course, Contest.FROZEN, by='the test')
"""

# The final started and stopped after its first game, as a worker stopped in the middle
# leaves it: the contest is `final`, its player gone.
ONE_GAME = """
import asyncio, os
os.environ['AZUL_ARENA_SERVER_HOME'] = {home!r}
from tournaments.server import setup; setup()
from referee import run_loop
from tournaments.domain.progress import GameFinished
from tournaments.server.contests.models import Contest
from tournaments.server.finals import play as final

async def one_game(claimed):
    task = asyncio.current_task()
    def seen(event):
        if isinstance(event, GameFinished) and event.outcome is not None:
            task.cancel()
    try:
        await final.play_final(claimed, 1, seen)
    except asyncio.CancelledError:
        pass

run_loop(one_game(final.start_final(Contest.objects.get(slug='course'), 'the test')))
"""


def _python(tmp_path: Path, code: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env(tmp_path),
        cwd=ROOT,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr


def _show(tmp_path: Path, home: list[str]) -> dict:  # type: ignore[type-arg]
    shown = cli(tmp_path, "server", "contest", "show", "course", *home, "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)  # type: ignore[no-any-return]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()  # type: ignore[no-any-return]


@pytest.mark.slow  # a final through the CLI and a live server, about a minute
def test_a_course_final_is_exported_and_published_when_done(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path / "course")]
    assert cli(tmp_path, "server", "init", *home).returncode == 0
    for slug in ("course", "other"):  # two open contests: the front page is the one named
        made = cli(
            tmp_path,
            "server",
            "contest",
            "create",
            slug,
            *home,
            "--name",
            f"{slug.title()} 2026",
            "--time-per-move",
            "0.1",
            "--final-games-per-pairing",
            "4",
            "--json",
        )
        assert made.returncode == 0, made.stderr
        assert json.loads(made.stdout)["final_games_per_pairing"] == 4
    _python(tmp_path, CLASS.format(home=str(tmp_path / "course")))
    _before_the_final(tmp_path, home)
    _python(tmp_path, ONE_GAME.format(home=str(tmp_path / "course")))
    _while_it_plays(tmp_path, home)
    proc, url = start(
        tmp_path, "server", "run", *home, "--listen", "127.0.0.1:0", "--contest", "course"
    )
    try:
        assert "Course 2026" in _get(url + "/")
        assert "Sign up for Course 2026" in _get(url + "/signup/")
        # The worker of `server run --contest course` resumes the final (its player is gone).
        wait_for(lambda: _show(tmp_path, home)["final"]["state"] == "done", 120, "the final")
        _published(tmp_path, home, url)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _before_the_final(tmp_path: Path, home: list[str]) -> None:
    shown = _show(tmp_path, home)
    assert (shown["state"], shown["final"]["state"]) == ("frozen", "scheduled")
    handins = {h["team"]: h for h in shown["handins"]}
    assert handins["ann"]["version"] == 1 and len(handins["ann"]["sha256"]) == 64
    assert handins["dan"]["version"] is None
    assert "failed validation" in handins["dan"]["why"]
    table = cli(tmp_path, "server", "contest", "show", "course", *home)
    assert "hand-ins" in table.stdout and "failed validation" in table.stdout
    early = cli(tmp_path, "server", "export-results", "course", *home, "-o", str(tmp_path / "r"))
    assert early.returncode == 1, early.stderr
    assert "final of course is scheduled" in early.stderr and "--partial" in early.stderr


def _while_it_plays(tmp_path: Path, home: list[str]) -> None:
    final = _show(tmp_path, home)["final"]
    assert (final["state"], final["games_done"], final["games_planned"]) == ("playing", 1, 12)
    out = tmp_path / "partial"
    refused = cli(tmp_path, "server", "export-results", "course", *home, "-o", str(out))
    assert refused.returncode == 1 and "playing: 1 of 12 games played" in refused.stderr
    assert not out.exists()  # a refusal writes nothing
    partial = cli(
        tmp_path, "server", "export-results", "course", *home, "-o", str(out), "--partial"
    )
    assert partial.returncode == 0, partial.stderr
    assert "partial" in partial.stderr
    with tarfile.open(out / "course-games-partial.tar.gz") as tar:
        about = json.load(tar.extractfile("course/contest.json"))  # type: ignore[arg-type]
    assert about["partial"] is True and about["final"]["games_done"] == 1
    close = cli(tmp_path, "server", "contest", "set", "course", "closed", *home)
    assert close.returncode == 2 and "close it once it is done" in close.stderr


def _published(tmp_path: Path, home: list[str], url: str) -> None:
    again = cli(tmp_path, "server", "contest", "final", "course", *home)
    assert again.returncode == 0 and "done already (12 games)" in again.stdout, again.stderr
    assert "Final results" not in _get(url + "/")  # done, not yet published
    closed = cli(tmp_path, "server", "contest", "set", "course", "closed", *home)
    assert closed.returncode == 0, closed.stderr
    out = tmp_path / "results"
    done = cli(tmp_path, "server", "export-results", "course", *home, "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["partial"] is False
    with (out / "course-standings.csv").open() as f:
        rows = list(csv.DictReader(f))
    ranked = [r["team"] for r in rows if r["rank"]]
    assert sorted(ranked) == ["ann", "ben", "cy"]
    dan = next(r for r in rows if r["team"] == "dan")
    assert (dan["rank"], dan["handed_in"]) == ("", "none") and "failed validation" in dan["why"]
    assert all(r["faults"] for r in rows if r["rank"])
    page = _get(url + "/")
    assert "Final results" in page and "Ladder (before the deadline)" in page
    table = page[page.index('id="final-standings"') :]
    order = sorted(ranked, key=lambda team: table.index(f">{team}</a>"))
    assert order == ranked  # the published order is the final's, as exported
    ladder = _get(url + "/?tab=ladder")
    assert "Ladder (before the deadline; not the results)" in ladder
