"""Each bot's seed: given at every game start, the same for the same game and seat in every run,
unrelated between games and seats, and telling nothing of the deal."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path

from referee import Arena, MatchConfig, MatchResult
from referee.seeds import bot_seed, bot_seeds
from tournaments.domain.schedule import build_schedule, deal_seed

TELLER = str(Path(__file__).parent / "bots" / "seed_teller.py")


def test_the_same_game_and_seat_get_the_same_seed_and_anything_else_another() -> None:
    assert bot_seed(12, "g0001", 0) == bot_seed(12, "g0001", 0)
    seeds = {bot_seed(12, f"g{i:04d}", seat) for i in range(500) for seat in range(4)}
    assert len(seeds) == 2000  # every game and seat its own
    assert all(0 < s < 2**63 for s in seeds)
    assert bot_seed(13, "g0001", 0) != bot_seed(12, "g0001", 0)  # another tournament


def test_seeds_of_one_seat_in_different_games_are_unrelated() -> None:
    # Seat 0 across games: no bit is fixed, the differences between games are not constant,
    # and about half the bits change from one game to the next (as for independent numbers).
    seeds = [bot_seed(12, f"g{i:04d}", 0) for i in range(400)]
    assert len({b - a for a, b in itertools.pairwise(seeds)}) == len(seeds) - 1
    assert len({a ^ b for a, b in itertools.pairwise(seeds)}) == len(seeds) - 1
    for bit in range(63):
        ones = sum(s >> bit & 1 for s in seeds)
        assert 120 < ones < 280, bit
    flips = [bin(a ^ b).count("1") for a, b in itertools.pairwise(seeds)]
    assert 28 < sum(flips) / len(flips) < 35


def test_a_bot_seed_says_nothing_of_the_deal() -> None:
    # The games of one block share a deal (seat rotation): their deal seed is one number, while
    # each of their seats gets its own bot seed; no bot seed is a deal seed of the tournament,
    # nor its low bits.
    games = build_schedule(["a", "b", "c"], 2, 4, seed=12)
    deals = {deal_seed(12, d) for d in range(100)}
    by_deal: dict[int, set[int]] = {}
    for game in games:
        for seed in bot_seeds(12, game.game_id, 2):
            assert seed not in deals and seed & 0x7FFF_FFFF not in deals
            by_deal.setdefault(game.seed, set()).add(seed)
    shared = [seeds for seeds in by_deal.values() if len(seeds) > 2]
    assert shared, "the schedule has blocks sharing a deal"


def play_twice(config: MatchConfig, tmp_path: Path) -> tuple[MatchResult, MatchResult]:
    async def go() -> tuple[MatchResult, MatchResult]:
        async with Arena([TELLER, "greedy"], log_dir=tmp_path) as arena:
            first = await arena.play([TELLER, "greedy"], config, match_id="g0007")
            second = await arena.play([TELLER, "greedy"], config, match_id="g0007")
            return first, second

    return asyncio.run(go())


def moves(result: MatchResult) -> list[str]:
    return [m for rnd in result.record["rounds"] for m in rnd["moves"]]


def test_a_bot_gets_its_seed_and_the_game_id_and_replays_move_for_move(tmp_path: Path) -> None:
    config = MatchConfig(seed=41, time_per_move=2.0)
    first, second = play_twice(config, tmp_path)
    seeds = first.record["referee"]["config"]["bot_seeds"]
    assert (
        seeds == second.record["referee"]["config"]["bot_seeds"] == list(bot_seeds(41, "g0007", 2))
    )
    assert 41 not in seeds
    said = Path(first.seats[0].log_path).read_text()  # one process played both games
    assert (
        re.findall(r"game (\S+) seat (\d) seed (\d+)", said) == [("g0007", "0", str(seeds[0]))] * 2
    )
    # Both the teller (its rng) and greedy (its ties) drew from the seeds: the same game twice.
    assert moves(first) == moves(second) and first.scores == second.scores
