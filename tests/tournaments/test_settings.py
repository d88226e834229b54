"""The match settings declared once (tournaments.domain.settings): the run key a database keeps
is the one databases have always held, a command's options come from the fields, and a game's
MatchConfig from the settings."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from referee import Clock, FaultPolicy
from tournaments.cli import app
from tournaments.commands.match_options import match_options
from tournaments.domain.entries import Entry
from tournaments.domain.settings import MatchSettings, option_fields
from tournaments.domain.store import Store
from tournaments.domain.tournament import TournamentConfig

ENTRIES = [Entry("a", "random"), Entry("b", "greedy", "512M", ("X=1",))]


def test_the_run_key_is_the_one_databases_have_always_held() -> None:
    """Written out as the store held it before the settings were one type: a database made
    then resumes now (its run key compares equal)."""
    config = TournamentConfig(
        ENTRIES,
        MatchSettings(
            ruleset="pavilion",
            options={"wild_order": "GOPYBR"},
            time_per_move=0.5,
            fault_policy="forfeit",
            clock="cpu",
            isolation="process",
            ponder=True,
            bot_env=("A=1", "B"),
            anonymous=True,
            build_timeout=30.0,  # how a run is played, not what it is: never stored
        ),
        schedule="adaptive",
        games=10,
        min_games=2,
        seed=3,
    )
    assert config.to_json() == {
        "anonymous": True,
        "bot_env": ["A", "B"],  # names only: a value may be a secret
        "clock": "cpu",
        "entries": [["a", "random"], ["b", "greedy", {"env": ["X=1"], "memory": "512M"}]],
        "fault_policy": "forfeit",
        "format": "azul-arena/tournament/1",
        "games": 10,
        "games_per_pairing": 2,
        "gauntlet": None,
        "isolation": "process",
        "min_games": 2,
        "options": {"wild_order": "GOPYBR"},
        "players": 2,
        "ponder": True,
        "rounds": None,
        "ruleset": "pavilion",
        "schedule": "adaptive",
        "seed": 3,
        "time_per_move": 0.5,
    }


def test_settings_added_later_are_left_out_at_their_default() -> None:
    """A round-robin with no options, no clock chosen and named bots stores exactly the keys of
    the first databases."""
    stored = TournamentConfig(ENTRIES, seed=1).to_json()
    assert sorted(stored) == sorted(
        [
            *("bot_env", "entries", "fault_policy", "format", "games_per_pairing", "gauntlet"),
            *("isolation", "players", "ponder", "ruleset", "seed", "time_per_move"),
        ]
    )


def test_a_game_s_match_config_comes_from_the_settings() -> None:
    settings = MatchSettings(time_per_move=0.25, fault_policy="forfeit", clock="cpu")
    config = settings.to_match_config(41, (1, 2), first_player=1)
    assert (config.seed, config.bot_seeds, config.first_player) == (41, (1, 2), 1)
    assert config.time_per_move == 0.25
    assert config.fault_policy is FaultPolicy.FORFEIT and config.clock is Clock.CPU
    with pytest.raises(ValueError, match="fault policy"):
        MatchSettings(fault_policy="shrug").to_match_config(1)


def _app(*names: str) -> tuple[typer.Typer, list[MatchSettings]]:
    seen: list[MatchSettings] = []
    app = typer.Typer()

    @app.command()
    @match_options(*names)
    def play(games: int = 1, *, match: MatchSettings) -> None:
        """A command that plays."""
        seen.append(dataclasses.replace(match, seed=games))

    return app, seen


def test_a_command_gets_the_options_it_names_and_one_settings_value() -> None:
    app, seen = _app("ruleset", "time_per_move", "bot_env", "anonymous")
    result = CliRunner().invoke(
        app,
        [
            *("--games", "3", "--ruleset", "pavilion", "--time-per-move", "0.5"),
            *("--bot-env", "A=1", "--bot-env", "B", "--anonymous"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert seen == [
        MatchSettings(
            ruleset="pavilion",
            time_per_move=0.5,
            bot_env=("A=1", "B"),
            anonymous=True,
            seed=3,
        )
    ]
    help_text = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    for field in option_fields():
        if field.name in ("ruleset", "time_per_move", "bot_env", "anonymous"):
            opening = " ".join(field.metadata["help"].split()[:4])  # rich wraps the rest
            assert field.metadata["flag"] in help_text and opening in help_text
    assert "--clock" not in help_text  # not asked for


def test_an_option_s_limits_come_from_its_field() -> None:
    app, seen = _app("time_per_move")
    result = CliRunner().invoke(app, ["--time-per-move", "0"])
    assert result.exit_code == 2 and not seen


def test_an_unknown_setting_is_refused_when_the_command_is_declared() -> None:
    with pytest.raises(ValueError, match="no match setting with an option: colour"):
        match_options("colour")


def test_every_field_says_how_it_is_stored() -> None:
    kinds: set[Any] = {f.metadata["stored"] for f in dataclasses.fields(MatchSettings)}
    assert kinds <= {"always", "unless-default", "never"}


LATE_ONCE = Path(__file__).parents[1] / "referee" / "bots" / "late_once.py"


def _late_run(tmp_path: Path, *bank: str) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """`tournament run` of a bot that answers its first move 0.6 s late, at 0.2 s a move:
    the stored run key, and each seat's faults."""
    db = tmp_path / f"bank{len(bank)}.db"
    result = CliRunner().invoke(
        app,
        [
            *("tournament", "run", f"late={LATE_ONCE}", "random", "--time-per-move", "0.2"),
            *("--bot-env", "AZUL_TEST_SLEEP=0.6", "--games-per-pairing", "2", "--seed", "1"),
            *("--isolation", "process", "--db", str(db), "--json", *bank),
        ],
    )
    assert result.exit_code == 0, result.output
    with Store.open(db, create=False) as store:
        stored = store.config()
        faults = [seat.faults for game in store.games(done_only=True) for seat in game.seats]
    assert stored is not None
    return stored, faults


def test_a_time_bank_given_on_the_command_line_reaches_the_referee(tmp_path: Path) -> None:
    """A match setting end to end: the option, the stored run key, the referee's clock. Without
    a bank the late answer is a timeout; with one, it is paid from the bank."""
    stored, faults = _late_run(tmp_path)
    assert "time_bank" not in stored  # at its default: the key older databases lack
    assert any(f.get("timeout") for f in faults), faults
    stored, faults = _late_run(tmp_path, "--time-bank", "2")
    assert stored["time_bank"] == 2.0
    assert not any(f.get("timeout") for f in faults), faults
