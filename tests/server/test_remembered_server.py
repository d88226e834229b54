"""`contest login` remembers the server: later verbs use it; --server and $AZUL_ARENA_SERVER
still win; with none of them the error says what to do (the real CLI in a process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.test_cli import cli
from tournaments.server import client


def test_the_server_is_given_then_from_the_environment_then_the_last_login(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AZUL_ARENA_CONFIG", str(tmp_path / "config"))
    with pytest.raises(client.ClientError, match="give --server URL"):
        client.choose_server(None)
    client.save_token("http://one.example:8000/", "t1", "ann")
    client.save_token("http://two.example:8000", "t2", "ann")
    assert client.choose_server(None) == "http://two.example:8000"
    assert client.choose_server("http://one.example:8000") == "http://one.example:8000"
    assert client.saved_token(client.choose_server(None)) == "t2"


def test_a_verb_with_no_server_says_what_to_do_and_the_environment_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    none = cli(tmp_path, "contest", "submissions")
    assert none.returncode == 1
    assert "give --server URL" in none.stderr and "contest login" in none.stderr
    monkeypatch.setenv("AZUL_ARENA_SERVER", "http://127.0.0.1:9")
    env_given = cli(tmp_path, "contest", "submissions")
    assert env_given.returncode == 1 and "not logged in to http://127.0.0.1:9" in env_given.stderr
