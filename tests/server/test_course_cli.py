"""The course commands as an organiser types them: contest create/show/set/extend, import-class
(a bad row: its line, exit 2, nothing applied; a re-import: no duplicates), export-results
before the final (a clear error)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.server.test_cli import cli


@pytest.mark.slow  # a whole run of real servers and workers (CI runs it)
def test_a_contest_and_a_class_from_the_command_line(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path / "course")]
    _create_and_set(tmp_path, home)
    _import_a_class(tmp_path, home)
    _extend_freeze_and_export(tmp_path, home)


def _create_and_set(tmp_path: Path, home: list[str]) -> None:
    made = cli(
        tmp_path,
        "server",
        "contest",
        "create",
        "comp",
        *home,
        "--deadline",
        "2030-01-01T17:00",
        "--hidden",
        "--build-timeout",
        "30",
        "--json",
    )
    assert made.returncode == 0, made.stderr
    about = json.loads(made.stdout)
    assert (about["state"], about["visibility"]) == ("open", "hidden")
    assert about["build_timeout"] == 30
    longer = cli(tmp_path, "server", "contest", "set", "comp", "--build-timeout", "45", *home)
    assert longer.returncode == 0 and "a build may take 45 s" in longer.stdout, longer.stderr
    nothing = cli(tmp_path, "server", "contest", "set", "comp", *home)
    assert nothing.returncode == 2 and "say what to set" in nothing.stderr
    closed = cli(tmp_path, "server", "contest", "set", "comp", "--signup", "closed", *home)
    assert closed.returncode == 0 and "sign-up is closed" in closed.stdout, closed.stderr
    # comp is the one open contest beside an empty default: the site's front, no note.
    assert "note:" not in closed.stdout, closed.stdout
    no_code = cli(tmp_path, "server", "contest", "set", "comp", "--signup", "code", *home)
    assert no_code.returncode == 2 and "takes --signup-code" in no_code.stderr
    shown = cli(tmp_path, "server", "contest", "show", "comp", "--json", *home)
    assert json.loads(shown.stdout)["signup"] == "closed", "a refusal changes nothing"
    assert about["deadline"].startswith("2030-01-01T17:00")


def _import_a_class(tmp_path: Path, home: list[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("login,name,email,team\nann,Ann A,ann@x.org,t1\nbob,Bob B,bob-at-x,t1\n")
    refused = cli(tmp_path, "server", "import-class", str(bad), "--contest", "comp", *home)
    assert refused.returncode == 2
    assert "line 3" in refused.stderr and "nothing was imported" in refused.stderr
    good = tmp_path / "class.csv"
    good.write_text(
        "login,name,email,team\nann,Ann A,ann@x.org,t1\nbob,Bob B,bob@x.org,t1\n"
        "cy,Cy C,cy@x.org,t2\n"
    )
    links = tmp_path / "links.csv"
    first = cli(
        tmp_path,
        "server",
        "import-class",
        str(good),
        "--contest",
        "comp",
        *home,
        "--links",
        str(links),
        "--json",
    )
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) | {"links_file": ""} == {
        "created": 3,
        "updated": 0,
        "teams_created": 2,
        "links": 3,
        "links_file": "",
        "mailed": 0,
    }
    rows = links.read_text().splitlines()
    assert rows[0] == "login,email,link" and len(rows) == 4 and "/welcome/" in rows[1]
    again = cli(
        tmp_path,
        "server",
        "import-class",
        str(good),
        "--contest",
        "comp",
        *home,
        "--links",
        str(links),
        "--json",
    )
    assert json.loads(again.stdout)["created"] == 0
    assert json.loads(again.stdout)["updated"] == 3


def _extend_freeze_and_export(tmp_path: Path, home: list[str]) -> None:
    ext = cli(
        tmp_path,
        "server",
        "contest",
        "extend",
        "comp",
        "t2",
        "--until",
        "2030-01-03T17:00",
        "--reason",
        "illness",
        *home,
    )
    assert ext.returncode == 0, ext.stderr
    frozen = cli(tmp_path, "server", "contest", "set", "comp", "frozen", *home)
    assert frozen.returncode == 0, frozen.stderr
    back = cli(tmp_path, "server", "contest", "set", "comp", "open", *home)
    assert back.returncode == 2 and "only moves forward" in back.stderr
    shown = json.loads(cli(tmp_path, "server", "contest", "show", "comp", *home, "--json").stdout)
    assert shown["state"] == "frozen" and shown["participants"] == 2
    assert shown["build_timeout"] == 45
    assert shown["extensions"][0]["team"] == "t2"
    early = cli(tmp_path, "server", "export-results", "comp", *home, "-o", str(tmp_path / "r"))
    assert early.returncode == 1 and "final of comp is scheduled" in early.stderr
    unknown = cli(tmp_path, "server", "contest", "show", "nope", *home)
    assert unknown.returncode == 2 and "no contest 'nope'" in unknown.stderr


def test_import_class_send_mails_each_link_through_django_s_email_backend(
    tmp_path: Path,
) -> None:
    import subprocess

    from tests.server.test_cli import CLI, ROOT, env

    mail = tmp_path / "mail"
    good = tmp_path / "class.csv"
    good.write_text("login,name,email,team\nann,Ann A,ann@x.org,t1\nbob,Bob B,bob@y.org,t1\n")
    links = tmp_path / "links.csv"
    sent = subprocess.run(
        [
            *CLI,
            "server",
            "import-class",
            str(good),
            "--home",
            str(tmp_path / "course"),
            "--links",
            str(links),
            "--base-url",
            "https://arena.example.edu",
            "--send",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        # Django's file backend: each message written as a file, as an SMTP server would get it.
        env=env(tmp_path)
        | {
            "AZUL_ARENA_EMAIL_BACKEND": "file",
            "AZUL_ARENA_EMAIL_FILE_PATH": str(mail),
            "AZUL_ARENA_EMAIL_FROM": "teacher@example.edu",
        },
    )
    assert sent.returncode == 0, sent.stderr
    assert json.loads(sent.stdout)["mailed"] == 2
    messages = "".join(p.read_text() for p in sorted(mail.iterdir()))
    rows = links.read_text().splitlines()[1:]
    assert len(rows) == 2
    for row in rows:
        login, email, link = row.split(",")
        assert link.startswith("https://arena.example.edu/welcome/")
        assert f"To: {email}" in messages and link in messages
        assert f"Your login is {login}." in messages
    assert messages.count("From: teacher@example.edu") == 2
    # No mail server where one is set: the links are still written, and the error says so.
    unsent = subprocess.run(
        [
            *CLI,
            "server",
            "import-class",
            str(good),
            "--home",
            str(tmp_path / "course"),
            "--links",
            str(links),
            "--send",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env(tmp_path) | {"AZUL_ARENA_EMAIL_HOST": "127.0.0.1", "AZUL_ARENA_EMAIL_PORT": "9"},
    )
    assert unsent.returncode == 1, unsent.stderr
    assert "mailing them failed" in unsent.stderr and str(links) in unsent.stderr
