"""A contest's final as the tournament domain's store (`tournaments.domain.store.GameStore`), over
the server's database: `run_tournament` plays and resumes it, `build_report` ranks it, as they do
a tournament's SQLite file, and its games are ladder games (kind `final`) on every page.

The guarantees are the SQLite store's: the whole schedule is written in one transaction before
the first game (each game a `Game` with its `Seat`s and its place, `FinalGame`); a finished game
is one transaction (its seats, its record and status `done`), and recording it a second time is
refused (a conditional update), so a game played again after a lost worker is stored once.

The runner calls the store from its event loop, where Django refuses to touch the database; each
call is then made on a thread of the store's own and waited for, as the SQLite store's writes are
waited for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Max, Q
from django.utils import timezone

from tournaments.domain.entries import Entry
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.store import (
    GameOutcome,
    GameWithdrawn,
    Machine,
    SeatOutcome,
    StoredGame,
    StoreError,
    removed,
)
from tournaments.server.contests.models import Contest
from tournaments.server.finals.models import Final, FinalGame
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.logs import seat_log
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.results import public_record

T = TypeVar("T")


def final_folder(contest: Contest) -> Path:
    """The final's own folder in the data folder: its bot processes' logs."""
    return Path(settings.HOME) / "contests" / contest.label


def entry_row(entry: Entry) -> list[Any]:
    """An entry as `Final.entries` keeps it (as a tournament's run key names it)."""
    return [entry.name, entry.spec, *([entry.options()] if entry.options() else [])]


def entry_of(row: Sequence[Any]) -> Entry:
    options = dict(row[2]) if len(row) > 2 else {}
    return Entry.with_options(str(row[0]), str(row[1]), options)


def scheduled_of(place: FinalGame) -> ScheduledGame:
    return ScheduledGame(
        index=place.index,
        game_id=place.name,
        seats=tuple(place.entries),
        seed=place.game.seed,
        group=place.group,
        deal=place.deal,
        rotation=place.rotation,
    )


def game_settings(config: dict[str, Any], contest: Contest) -> dict[str, Any]:
    """A final game's ruleset, options and time a move: its run key's (the contest's where a
    run key leaves them out)."""
    return {
        "ruleset": config.get("ruleset", contest.ruleset),
        "options": dict(config.get("options") or {}),
        "time_per_move": config.get("time_per_move", contest.time_per_move),
    }


def versions_handed_in(contest: Contest) -> dict[str, int]:
    """Each entry's version (the final's entries are named by participant): its hand-in's."""
    rows = HandIn.objects.filter(contest=contest, version__isnull=False).values_list(
        "participant__name", "version_id"
    )
    return {name: int(version) for name, version in rows if version is not None}


def schedule_games(
    final: Final,
    games: Sequence[ScheduledGame],
    versions: dict[str, int],
    contest: Contest,
) -> dict[str, int]:
    """Write `games` as the final's rows (call in a transaction): each a scheduled `Game` with
    its seats and its place; their ids by the schedule's names."""
    missing = sorted({n for g in games for n in g.seats} - set(versions))
    if missing:
        raise StoreError(
            f"the final of {contest.label} seats {', '.join(missing)}, with no version handed "
            f"in (server contest show {contest.label} --json lists the hand-ins)"
        )
    common = game_settings(final.config, contest)
    rows = Game.objects.bulk_create(
        [Game(contest=contest, kind=Game.FINAL, seed=g.seed, **common) for g in games]
    )
    Seat.objects.bulk_create(
        [
            Seat(game=row, seat=i, version_id=versions[name])
            for row, g in zip(rows, games, strict=True)
            for i, name in enumerate(g.seats)
        ]
    )
    FinalGame.objects.bulk_create(
        [
            FinalGame(
                game=row,
                final=final,
                index=g.index,
                name=g.game_id,
                entries=list(g.seats),
                group=g.group,
                deal=g.deal,
                rotation=g.rotation,
            )
            for row, g in zip(rows, games, strict=True)
        ]
    )
    return {g.game_id: int(row.pk) for row, g in zip(rows, games, strict=True)}


class FinalStore:
    """The final of one contest, as a `GameStore`. Use as a context manager (its thread)."""

    def __init__(self, contest: Contest) -> None:
        self.contest = contest
        # What messages name, and what no bot may read: the server's database (SQLite's file,
        # PostgreSQL's database by name).
        self.path = Path(str(settings.DATABASES["default"]["NAME"]))
        self._thread: ThreadPoolExecutor | None = None
        self._ids: dict[str, int] = {}  # the games' ids by their schedule's names

    # -- where the database is touched -------------------------------------------------------

    def _run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return fn(*args)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="final-db")
        return self._thread.submit(fn, *args).result()

    def close(self) -> None:
        if self._thread is not None:
            # Its thread's own connection (`connection` is per thread: looked up there).
            self._thread.submit(lambda: connection.close()).result()
            self._thread.shutdown(wait=True)
            self._thread = None

    def __enter__(self) -> FinalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _places(self) -> Any:
        return FinalGame.objects.filter(final__contest_id=self.contest.pk)

    # -- the run key, the entries and the schedule -------------------------------------------

    def exists(self) -> bool:
        """Whether the final has started: its schedule is written."""
        return self._run(Final.objects.filter(contest_id=self.contest.pk).exists)

    def config(self) -> dict[str, Any] | None:
        def read() -> dict[str, Any] | None:
            row = Final.objects.filter(contest_id=self.contest.pk).values_list("config").first()
            return None if row is None else dict(row[0])

        return self._run(read)

    def write_schedule(
        self, config: dict[str, Any], entries: Sequence[Entry], games: Sequence[ScheduledGame]
    ) -> None:
        def write() -> None:
            with transaction.atomic():
                if Final.objects.filter(contest_id=self.contest.pk).exists():
                    raise StoreError(f"the final of {self.contest.label} is scheduled already")
                final = Final.objects.create(
                    contest_id=self.contest.pk,
                    config=config,
                    entries=[entry_row(e) for e in entries],
                )
                versions = versions_handed_in(self.contest)
                self._ids.update(schedule_games(final, games, versions, self.contest))

        self._run(write)

    def add_games(self, games: Sequence[ScheduledGame]) -> None:
        def add() -> None:
            with transaction.atomic():
                final = Final.objects.get(contest_id=self.contest.pk)
                versions = versions_handed_in(self.contest)
                self._ids.update(schedule_games(final, games, versions, self.contest))

        self._run(add)

    def schedule_end(self) -> tuple[int, int, int]:
        def end() -> tuple[int, int, int]:
            got = self._places().aggregate(i=Max("index"), g=Max("group"), d=Max("deal"))
            return tuple(0 if got[k] is None else int(got[k]) + 1 for k in "igd")  # type: ignore[return-value]

        index, group, deal = self._run(end)
        return index, group, deal

    def entry_changes(self) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            row = Final.objects.filter(contest_id=self.contest.pk).values_list("entry_changes")
            found = row.first()
            return [] if found is None else list(found[0])

        return self._run(read)

    def removed_entries(self) -> set[str]:
        return removed(self.entry_changes())

    def entries(self) -> list[Entry]:
        def read() -> list[Entry]:
            row = Final.objects.filter(contest_id=self.contest.pk).values_list("entries").first()
            return [] if row is None else [entry_of(e) for e in row[0]]

        return self._run(read)

    def pending_games(self) -> list[ScheduledGame]:
        def read() -> list[ScheduledGame]:
            places = list(
                self._places()
                .filter(game__status=Game.SCHEDULED)
                .select_related("game")
                .order_by("index")
            )
            self._ids.update({p.name: p.pk for p in places})
            return [scheduled_of(p) for p in places]

        return self._run(read)

    def scheduled(self, game: ScheduledGame) -> bool:
        places = self._places().filter(index=game.index, name=game.game_id)
        return self._run(places.exists)

    def hosts(self) -> dict[str, int]:
        def read() -> dict[str, int]:
            rows = (
                self._places()
                .filter(game__status=Game.DONE)
                .exclude(game__host="")
                .values("game__host")
                .annotate(n=Count("pk"))
                .order_by("game__host")
            )
            return {str(r["game__host"]): int(r["n"]) for r in rows}

        return self._run(read)

    def counts(self) -> tuple[int, int]:
        def read() -> tuple[int, int]:
            got = self._places().aggregate(
                total=Count("pk"), done=Count("pk", filter=Q(game__status=Game.DONE))
            )
            return int(got["done"]), int(got["total"])

        return self._run(read)

    # -- results ---------------------------------------------------------------------------

    def record(self, game: ScheduledGame, outcome: GameOutcome) -> None:
        self._run(self._record, game, outcome)

    def _record(self, game: ScheduledGame, outcome: GameOutcome) -> None:
        machine = outcome.machine
        with transaction.atomic():
            place = self._places().filter(index=game.index, name=game.game_id).first()
            if place is None:
                raise GameWithdrawn(f"game {game.game_id} is not in the schedule of the final")
            done = Game.objects.filter(pk=place.pk, status=Game.SCHEDULED).update(
                status=Game.DONE,
                finished=timezone.now(),
                duration=outcome.duration,
                attempts=F("attempts") + 1,
                error="",
                host=machine.host if machine else "",
                isolation=machine.isolation if machine else "",
                record=public_record(outcome.record, list(game.seats)),
            )
            if done != 1:
                raise StoreError(f"game {game.game_id} of the final is already recorded")
            seats = list(Seat.objects.filter(game_id=place.pk).order_by("seat"))
            for seat, o in zip(seats, outcome.seats, strict=True):
                seat.score, seat.rank, seat.termination = o.score, o.rank, o.termination
                seat.moves, seat.move_time, seat.cpu_time, seat.log = (
                    o.moves,
                    o.move_time,
                    o.cpu_time,
                    o.log,
                )
            Seat.objects.bulk_update(
                seats, ["score", "rank", "termination", "moves", "move_time", "cpu_time", "log"]
            )
            place.cpus = machine.cpus if machine else None
            place.faults = [{"strikes": o.strikes, "faults": o.faults} for o in outcome.seats]
            place.save(update_fields=["cpus", "faults"])

    def record_error(self, game: ScheduledGame, error: str) -> None:
        def note() -> None:
            Game.objects.filter(
                in_final__final__contest_id=self.contest.pk, in_final__index=game.index
            ).update(attempts=F("attempts") + 1, error=error[:2000])

        self._run(note)

    def games(self, done_only: bool = False, since: int = 0) -> Iterator[StoredGame]:
        return iter(self._run(self._games, done_only, since))

    def _games(self, done_only: bool, since: int) -> list[StoredGame]:
        places = self._places().filter(index__gte=since).select_related("game")
        if done_only:
            places = places.filter(game__status=Game.DONE)
        places = list(places.order_by("index"))
        seats: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(
            game_id__in=[p.pk for p in places if p.game.status == Game.DONE]
        ).order_by("game_id", "seat"):
            seats.setdefault(seat.game_id, []).append(seat)
        return [stored_game(p, seats.get(p.pk, [])) for p in places]

    def replay(self, game_id: str) -> dict[str, Any] | None:
        def read() -> dict[str, Any] | None:
            row = self._places().filter(name=game_id).values_list("game__record").first()
            return None if row is None or row[0] is None else dict(row[0])

        return self._run(read)

    def records(self) -> dict[str, dict[str, Any]]:
        """Every recorded game's record by its name, in one query (an export reads them all)."""

        def read() -> dict[str, dict[str, Any]]:
            rows = self._places().filter(game__record__isnull=False)
            return {name: dict(record) for name, record in rows.values_list("name", "game__record")}

        return self._run(read)

    # -- the server's side -----------------------------------------------------------------

    def seat_logs(self, game: ScheduledGame) -> list[Path]:
        """Each seat's log file of `game`, as a ladder game's (`ladder.logs`): by its id."""
        pk = self._ids.get(game.game_id)
        if pk is None:
            places = self._places().filter(name=game.game_id).values_list("pk", flat=True)
            pk = self._ids[game.game_id] = int(self._run(places.get))
        return [seat_log(pk, i) for i in range(len(game.seats))]


def stored_game(place: FinalGame, seats: Sequence[Seat]) -> StoredGame:
    """A final's game as the tournament domain reads it back, with its seats once done."""
    game = place.game
    faults = list(place.faults or [])
    return StoredGame(
        game=scheduled_of(place),
        status="done" if game.status == Game.DONE else "pending",
        seats=[
            SeatOutcome(
                entry=str(place.entries[s.seat]),
                score=int(s.score or 0),
                rank=int(s.rank or 0),
                termination=s.termination,
                strikes=int(faults[s.seat]["strikes"]) if s.seat < len(faults) else 0,
                faults=dict(faults[s.seat]["faults"]) if s.seat < len(faults) else {},
                move_time=s.move_time,
                moves=s.moves,
                cpu_time=s.cpu_time,
            )
            for s in seats
        ],
        duration=game.duration,
        finished_at=game.finished.timestamp() if game.finished else None,
        attempts=game.attempts,
        last_error=game.error or None,
        machine=Machine(game.host, game.isolation, place.cpus or 0) if game.host else None,
    )
