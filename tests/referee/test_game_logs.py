"""Bot logs per game and seat: real Arenas, real bot processes. A seat's log of a game holds
that game's lines of its own bot and nothing else, whatever the processes' reuse, restarts, or
other Arenas writing in the same log folder."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from referee import Arena, MatchConfig, MatchResult

TELLER = str(Path(__file__).parent / "bots" / "teller.py")
# Two names alike in their first 40 characters and more (a file name cut to 40 would join them).
ALIKE = "a-participant-whose-name-is-long-enough-to-be-cut"
ANN, BEN = f"{ALIKE}-ann-v1", f"{ALIKE}-ben-v1"
QUICK = MatchConfig(time_per_move=2.0)


def told(path: str | Path) -> set[tuple[str, str]]:
    """The (who, game) pairs a teller wrote in a log."""
    text = Path(path).read_text()
    return set(re.findall(r"i am (\S+) process \w+ game (\S+)", text))


def processes(path: str | Path) -> set[str]:
    return set(re.findall(r"process (\w+)", Path(path).read_text()))


def test_a_game_log_holds_that_game_alone_though_one_process_plays_many(
    tmp_path: Path,
) -> None:
    async def go() -> list[MatchResult]:
        async with Arena({ANN: TELLER, BEN: TELLER}, log_dir=tmp_path / "proc") as arena:
            results = []
            for game in ("g1", "g2", "g3", "g4boom", "g5"):
                logs = [tmp_path / "games" / game / f"seat-{i}.log" for i in range(2)]
                seats = [ANN, BEN] if game != "g2" else [BEN, ANN]
                played = await arena.play(seats, QUICK, match_id=game, seat_logs=logs)
                results.append(played)
            return results

    results = asyncio.run(go())
    for result in results:
        for i, seat in enumerate(result.seats):
            assert seat.log_path == str(tmp_path / "games" / result.match_id / f"seat-{i}.log")
            assert told(seat.log_path) == {(seat.entry, result.match_id)}, seat.log_path
    # The first three games on the same two processes: reused, each game's lines apart.
    assert len({p for r in results[:3] for s in r.seats for p in processes(s.log_path)}) == 2
    boom = results[3]
    assert {s.termination for s in boom.seats} == {"crash"}
    for seat in boom.seats:  # its last words are in that game's log, not in the next one's
        assert f"game {boom.match_id} dies" in Path(seat.log_path).read_text()
    assert "dies" not in Path(results[4].seats[0].log_path).read_text()


def test_a_restarted_arena_never_writes_in_an_earlier_ones_log(tmp_path: Path) -> None:
    """A ladder worker restarted (or a second one in the same data folder): the same entries
    in the other seats; no log file of the first is written by the second."""

    async def one(seats: list[str], game: str) -> MatchResult:
        async with Arena({ANN: TELLER, BEN: TELLER}, log_dir=tmp_path) as arena:
            return await arena.play(seats, QUICK, match_id=game)

    first = asyncio.run(one([ANN, BEN], "first"))
    second = asyncio.run(one([BEN, ANN], "second"))
    paths = [s.log_path for r in (first, second) for s in r.seats]
    assert len(set(paths)) == 4, paths
    for result in (first, second):
        for seat in result.seats:  # a whole process's log: its one game, its own bot
            assert told(seat.log_path) == {(seat.entry, result.match_id)}


def test_arenas_sharing_a_log_folder_share_no_file(tmp_path: Path) -> None:
    """Two Arenas at once (two ladder workers of one data folder), the same entry names."""

    async def one(game: str) -> MatchResult:
        async with Arena({ANN: TELLER, BEN: TELLER}, log_dir=tmp_path) as arena:
            return await arena.play([ANN, BEN], QUICK, match_id=game)

    async def both() -> list[MatchResult]:
        return list(await asyncio.gather(one("left"), one("right")))

    results = asyncio.run(both())
    paths = {s.log_path for r in results for s in r.seats}
    assert len(paths) == 4, paths
    for path in tmp_path.glob("*.log"):  # none holds two games' lines (nor two bots')
        assert len(told(path)) <= 1, (path, told(path))


def test_an_anonymous_match_tells_the_bots_their_seats_and_records_the_names(
    tmp_path: Path,
) -> None:
    """`MatchConfig(anonymous=True)` (a contest's games): each bot hears "seat N" for every
    seat, its own included, so none can pick out a friend's or a rival's bot by name; the
    result and the record still name the entries."""

    async def go() -> MatchResult:
        async with Arena({ANN: TELLER, BEN: TELLER}, log_dir=tmp_path / "proc") as arena:
            logs = [tmp_path / f"seat-{i}.log" for i in range(2)]
            config = MatchConfig(time_per_move=2.0, anonymous=True)
            return await arena.play([BEN, ANN], config, match_id="anon", seat_logs=logs)

    result = asyncio.run(go())
    for i, seat in enumerate(result.seats):
        text = Path(seat.log_path).read_text()
        assert f"i am seat {i + 1} process" in text and ALIKE not in text
    assert [s.entry for s in result.seats] == [BEN, ANN]
    assert result.record["players"] == [BEN, ANN]
    assert result.record["referee"]["config"]["anonymous"] is True
