"""A trained policy is a bot: `bot new --template rl`, PolicyBot through the real referee, the
example trainer's file, and what a bad policy file or option says."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bots.random_bot import RandomBot
from sdk.local import play_local
from sdk.rl.examples import train
from sdk.rl.policy import Policy, PolicyBot, untrained_policy
from tournaments.cli import app

runner = CliRunner()


def test_the_rl_template_makes_a_bot_that_passes_bot_check(tmp_path: Path) -> None:
    made = runner.invoke(
        app, ["bot", "new", "student", "--template", "rl", "--ruleset", "pavilion",
              "--dir", str(tmp_path)],
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    folder = tmp_path / "student"
    assert {p.name for p in folder.iterdir()} == {
        "bot.py",
        "test_bot.py",
        "README.md",
        "policy.npz",
    }
    text = (folder / "bot.py").read_text()
    assert "class StudentBot(PolicyBot)" in text and 'family_rulesets("pavilion")' in text
    assert "sdk.rl.examples.train --ruleset pavilion" in (folder / "README.md").read_text()
    assert "sdk.rl.examples.train --ruleset pavilion" in re.sub(r"\s+", " ", made.output)
    checked = runner.invoke(
        app, ["bot", "check", str(folder / "bot.py"), "-r", "pavilion", "-t", "0.5", "--json"]
    )
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.output.strip().splitlines()[-1])
    assert report["passed"] is True and report["rulesets"] == ["pavilion"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--template", "neural"], "--template is greedy or rl, not 'neural'"),
        (["--template", "rl", "--lang", "node"], "--template rl is a Python bot"),
        (["--template", "rl", "--ruleset", "chess"], "unknown ruleset 'chess'"),
    ],
)
def test_bad_template_options_say_what_is_wrong(
    tmp_path: Path, args: list[str], message: str
) -> None:
    made = runner.invoke(app, ["bot", "new", "x", "--dir", str(tmp_path), *args])
    assert made.exit_code == 2
    assert message in re.sub(r"\s+", " ", made.output)
    assert not (tmp_path / "x").exists()  # nothing written


def test_the_trainer_writes_a_policy_the_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / "policy.npz"
    train.main(["--minutes", "0.05", "--envs", "8", "--steps", "8", "--eval-every", "1",
                "--eval-games", "4", "--hidden", "16", "--out", str(out)])  # fmt: skip
    bot = PolicyBot(out)
    result = play_local([bot, RandomBot(seed=1)], ruleset="azul-gray", seed=3)
    assert result.illegal[0] == result.errors[0] == 0
    assert result.decisions[0] > 0


def test_a_bad_policy_file_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a policy file"):
        Policy.load(tmp_path / "missing.npz")
    np.savez(tmp_path / "half.npz", w0=np.zeros((3, 2)), family=np.array("classic"))
    with pytest.raises(ValueError, match="no 'b0'"):
        Policy.load(tmp_path / "half.npz")
    bot = PolicyBot(untrained_policy("pavilion"))
    result = play_local([bot, RandomBot(seed=1)], ruleset="azul", seed=1)
    assert result.errors[0] > 0  # a pavilion policy does not play azul; the game went on


@pytest.mark.slow
def test_the_example_trainer_beats_random(tmp_path: Path) -> None:
    out = tmp_path / "policy.npz"
    train.main(["--minutes", "10", "--target", "0.9", "--out", str(out)])
    bot = PolicyBot(out)
    won = sum(
        play_local([bot, RandomBot(seed=s)][:: 1 - 2 * (s % 2)], ruleset="azul", seed=s).ranks[
            s % 2
        ]
        == 1
        for s in range(100)
    )
    assert won >= 90
