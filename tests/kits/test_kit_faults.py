"""A kit bot's faults through the real referee: a slow chooseMove is a timeout (the bot plays on,
never a disconnect); an exception in it is one strike, its message in the bot's log."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from referee import Arena, MatchConfig, MatchResult

# A limit the faulty bot's 450 ms think overruns; the first move has room for start-up.
CONFIG = MatchConfig(
    seed=5,
    time_per_move=0.2,
    grace=0.05,
    first_move_allowance=1.0,
    fault_policy="random",
    max_strikes=3,
)


# The C++ kit's first build compiles gRPC's headers (about a minute of CPU on a fresh checkout):
# its cases run with the slow suites (`make test-slow`, CI), Node's in `make test`.
LANGS = ["node", pytest.param("cpp", marks=pytest.mark.slow)]


def faulty_entry(lang: str, request: pytest.FixtureRequest, mode: str) -> str:
    if lang == "node":
        folder: Path = request.getfixturevalue("node_bot")
        return f"node {folder / 'faulty.js'} {mode}"
    folder = request.getfixturevalue("cpp_bot")
    return f"{folder / 'build' / 'faulty'} {mode}"


def play(seats: list[str], log_dir: Path) -> MatchResult:
    async def go() -> MatchResult:
        async with Arena(list(dict.fromkeys(seats)), log_dir=log_dir) as arena:
            return await arena.play(seats, CONFIG)

    return asyncio.run(go())


@pytest.mark.parametrize("lang", LANGS)
def test_slow_choose_move_is_a_timeout_not_a_disconnect(
    lang: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    result = play([faulty_entry(lang, request, "slow"), "random"], tmp_path)
    bot = result.seats[0]
    # Its next request may time out too (it came while the bot still thought; the referee
    # ignores the late answer), but the bot is never disconnected and plays on.
    assert set(bot.faults) == {"timeout"}, bot.faults
    assert bot.termination == "ok" and bot.strikes == bot.faults["timeout"] <= 2
    assert bot.moves > 10  # it played on to the end after its late answer
    assert result.reason == "completed"
    assert "after the deadline" in Path(bot.log_path).read_text()  # the kit says so too


@pytest.mark.parametrize("lang", LANGS)
def test_exception_in_choose_move_is_a_strike_with_its_message_in_the_log(
    lang: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    result = play([faulty_entry(lang, request, "throw"), "random"], tmp_path)
    bot = result.seats[0]
    assert sum(bot.faults.values()) == 1 and bot.strikes == 1, bot.faults
    assert "timeout" not in bot.faults and bot.termination == "ok"
    assert bot.moves > 10
    log = Path(bot.log_path).read_text()
    assert "deliberate failure in chooseMove" in log
    assert "threw (the referee counts a fault)" in log


@pytest.mark.parametrize("lang", LANGS)
def test_an_idle_kit_bot_answers_pings(
    lang: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Between games the referee pings every 0.1 s here; a bot that did not answer within the
    timeout would be disconnected, and its next game would start from a new process. (With
    `ponder`: a bot frozen between its moves, the default, is never pinged.)"""
    entry = faulty_entry(lang, request, "none")  # plays the first legal move, no fault

    async def go() -> tuple[MatchResult, MatchResult, list[int]]:
        async with Arena(
            [entry, "random"], log_dir=tmp_path, ping_interval=0.1, ping_timeout=0.5, ponder=True
        ) as arena:
            first = await arena.play([entry, "random"], CONFIG)
            await asyncio.sleep(1.0)  # idle: about ten pings
            pongs = [w.session.pongs for w in arena.pool.items() if w.entry == entry]
            second = await arena.play([entry, "random"], CONFIG)
            return first, second, pongs

    first, second, pongs = asyncio.run(go())
    assert pongs and pongs[0] >= 5, pongs
    assert first.seats[0].termination == second.seats[0].termination == "ok"
    assert first.seats[0].log_path == second.seats[0].log_path  # the same process played on


@pytest.mark.parametrize("lang", LANGS)
def test_a_kit_bot_reads_its_seed_at_each_game_start(
    lang: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    entry = faulty_entry(lang, request, "none")
    result = play([entry, "random"], tmp_path)
    seeds = result.record["referee"]["config"]["bot_seeds"]
    assert len(seeds) == 2 and all(0 < s < 2**63 for s in seeds)
    said = Path(result.seats[0].log_path).read_text()
    # All 64 bits arrive (the Node kit gives it as a decimal string: no JS number holds it).
    assert f"game {result.match_id} seat 0 seed {seeds[0]}" in said, said[-500:]
