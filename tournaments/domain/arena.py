"""The bridge to the referee: play scheduled games through `referee.Arena`.

This is the tournament domain's door to the referee's Arena (a game's `MatchConfig` comes from
its `MatchSettings`: tournaments.domain.settings). One `Arena` serves the whole run:
it launches each entry's bot process on demand and reuses it for the next game, so process
start-up is paid once per entry (and again only after a crash) as long as the processes fit
under `process_cap`; past it the least recently used idle bot is ended first.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tournaments.domain.entries import Entry
from tournaments.domain.runner import PlayFn, Pool, parallel_games
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.settings import MatchSettings
from tournaments.domain.store import GameOutcome, Machine, SeatOutcome

if TYPE_CHECKING:
    from referee import Arena, BotSettings, MatchResult

# Idle processes kept beyond the seats in play, and the field size up to which every entry
# may keep its own process (a 300-entry class must not hold 300 processes, some 45 MiB each).
SPARE_PROCESSES = 4
ONE_PER_ENTRY_UP_TO = 32


def process_cap(entries: int, players: int, concurrency: int) -> int:
    """The most bot processes (busy, idle and the warm standby) a run keeps alive: the seats of
    the games in flight plus a few spare, or one per entry (and the standby) in a small field."""
    return max(players * concurrency + SPARE_PROCESSES, min(entries, ONE_PER_ENTRY_UP_TO) + 1)


def local_pool(cap: int) -> Pool:
    """The runner's model of an Arena on this machine capped at `cap` processes (one of them
    the warm standby, not a bot the games use)."""
    return Pool(max_processes=cap - 1, parallel=parallel_games())


def isolation_level() -> str:
    """The strongest isolation this machine offers its bots: sandbox, process or none
    (referee.sandbox)."""
    from referee import strongest

    return strongest()


def this_machine(isolation: str | None = None) -> Machine:
    """This host as stored with each game it plays (`isolation`: its bots' level, if not the
    strongest it offers)."""
    return Machine(socket.gethostname(), isolation or isolation_level(), os.cpu_count() or 1)


def outcome_from_match(game: ScheduledGame, result: MatchResult) -> GameOutcome:
    """Convert the referee's `MatchResult` into what the store keeps. The schedule is the
    authority on who sat where: the seats are named as it names them."""
    seats = [
        SeatOutcome(
            entry=name,
            score=seat.score,
            rank=seat.rank,
            termination=str(seat.termination),
            strikes=seat.strikes,
            faults=dict(seat.faults),
            move_time=seat.move_time_total,
            moves=seat.moves,
            cpu_time=seat.cpu_time,
            log=seat.log_path,
        )
        for name, seat in zip(game.seats, result.seats, strict=True)
    ]
    record = dict(result.record)
    record.setdefault("game_id", game.game_id)
    record.setdefault("seed", game.seed)
    return GameOutcome(seats=seats, record=record, duration=result.duration)


async def play_game(
    arena: Arena,
    game: ScheduledGame,
    settings: MatchSettings,
    machine: Machine,
    seat_logs: Sequence[Path] | None = None,
) -> GameOutcome:
    """Play one scheduled game on a started referee `Arena` whose entries include its seats;
    with `seat_logs`, each seat's bot output of this game alone is written to its file there."""
    from referee import bot_seeds

    config = settings.to_match_config(
        game.seed,
        # Keyed with the tournament's seed: the same game gets the same bot seeds in every run,
        # on any machine of a cluster, and the bots see the schedule's stable game id.
        bot_seeds(settings.seed, seed_key(game, settings), len(game.seats))
        if settings.seed is not None
        else (),
        first_player=0,  # seat rotation, not the first player, spreads the head start
    )
    result = await arena.play(list(game.seats), config, match_id=game.game_id, seat_logs=seat_logs)
    outcome = outcome_from_match(game, result)
    outcome.machine = machine
    return outcome


def seed_key(game: ScheduledGame, settings: MatchSettings) -> str:
    """What the bots' seeds of `game` are keyed with besides the tournament's seed: its deal
    (every game of the deal alike, seat by seat) or its own id."""
    return f"deal-{game.deal}" if settings.seeds_by_deal else game.game_id


def own_folder(entry: Entry) -> Path | None:
    """The folder of an entry's own files (None for a built-in or no entry at all)."""
    from referee import entry_program

    try:
        return entry_program(entry.spec).bot_dir
    except ValueError:
        return None


def arena_options(
    entries: Sequence[Entry], settings: MatchSettings, hidden: Sequence[Path] = ()
) -> dict[str, Any]:
    """The `Arena` keyword arguments for these entries and settings: isolation, variables,
    per-entry limits, and the paths no bot may see (`hidden`, plus every entry's own files)."""
    from referee import Limits
    from tournaments.domain.entries import resolve_env

    own = [folder for folder in map(own_folder, entries) if folder is not None]
    return {  # BotSettings' fields (bot_settings), and Arena's keywords of the same names
        "isolation": settings.isolation,
        "ponder": settings.ponder,
        "bot_env": resolve_env(settings.bot_env),
        "entry_limits": {e.name: Limits(memory=e.memory) for e in entries if e.memory},
        "entry_env": {e.name: resolve_env(e.env, f"entry {e.name!r}") for e in entries if e.env},
        "hidden": [*hidden, *own],
        "build_timeout": settings.build_timeout,
    }


def bot_settings(
    entries: Sequence[Entry],
    settings: MatchSettings,
    hidden: Sequence[Path] = (),
    max_processes: int | None = None,
) -> BotSettings:
    """How an `Arena` runs these entries' bots (`arena_options`), with at most `max_processes`
    processes (None: no cap)."""
    from referee import BotSettings

    return BotSettings(max_processes=max_processes, **arena_options(entries, settings, hidden))


def join(arena: Arena, entry: Entry) -> None:
    """`entry` joins a started Arena as the first entries did (`arena_options`): its limits,
    its variables, its folder hidden from the others."""
    from referee import Limits
    from tournaments.domain.entries import resolve_env

    arena.add_entry(
        entry.name,
        entry.spec,
        Limits(memory=entry.memory) if entry.memory else None,
        resolve_env(entry.env, f"entry {entry.name!r}") if entry.env else None,
        own_folder(entry),
    )


@contextlib.asynccontextmanager
async def arena_player(
    entries: Sequence[Entry],
    settings: MatchSettings,
    log_dir: Path | None = None,
    max_processes: int | None = None,
    entry_of: Callable[[str], Entry | None] | None = None,
    hidden: Sequence[Path] = (),
    seat_logs: Callable[[ScheduledGame], list[Path]] | None = None,
) -> AsyncIterator[PlayFn]:
    """An async context giving a `play(game)` coroutine backed by one referee `Arena` that
    keeps at most `max_processes` bot processes (None: no cap). A seat whose entry joined
    after the start is looked up with `entry_of`, and joins with its limits and hiding.
    `seat_logs(game)`: the files where each seat's log of that game goes (the ladder's, named
    by its game's id); without it a seat's log is its bot process's (`log_dir`)."""
    from referee import Arena  # the referee is needed only to actually play

    arena = Arena(
        {e.name: e.spec for e in entries},
        log_dir=log_dir,
        bots=bot_settings(entries, settings, hidden, max_processes),
    )
    machine = this_machine(arena.isolation)
    async with arena:

        async def play(game: ScheduledGame) -> GameOutcome:
            for name in game.seats:
                if name not in arena.entries and entry_of is not None:
                    late = entry_of(name)
                    if late is None:
                        raise ValueError(f"entry {name!r} is not in the tournament")
                    join(arena, late)
            logs = None if seat_logs is None else seat_logs(game)
            return await play_game(arena, game, settings, machine, logs)

        yield play
