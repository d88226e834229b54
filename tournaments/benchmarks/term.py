"""A simulated term on a real contest server (`bench term`): a class imported from a CSV, one
upload each over HTTP, a ladder played by real worker processes for a set time while a crowd
asks for pages through the real web server, then the deadline and a graded final.

Everything runs as a department's server runs it, on a fresh data folder: the site is
`server run`'s gunicorn (`runtime.serve`), the workers are `server ladder --contest` processes,
the uploads go to `/api/submit` (what `azul-arena contest submit` sends), the deadline freezes
the contest through the workers' own clock and one of them plays the final. The teams' bots are
the reference `random` bot writing a line of log a move, as a student's debugging output does
(STUDENT_BOT: a fast bot, so that the games cost the machine little besides the server's own
work); the staff bots are `random` and `greedy`. What is printed: the ladder's games and rate,
each page's p50 and p95 while the ladder and while the final play, what was lost (versions not
validated, games not stored once, seat logs missing), and the disk the term used, scaled to
10,000 games.

The accounts come from the class import as a course's do; a student's next steps, following
the one-time link to choose a password and logging in, are replaced by an API token issued to
each account (what `contest login` would fetch), so that 300 password hashes do not take the
machine from the games."""

from __future__ import annotations

import csv
import io
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tournaments.benchmarks.pages import latency
from tournaments.benchmarks.server import BenchError, database_vendor, fresh_server

CONTEST = "term"
STAFF_BOTS = (("staff-random", "random"), ("staff-greedy", "greedy"))
PAGES = ("front", "participant", "game")
# The pages are timed by phase: while the uploads are validated (and the ladder plays those
# that passed), while the ladder plays, while the final plays, while nothing plays.
PHASES = ("validation", "ladder", "final", "quiet")
QUIET_SECONDS = 30
UPLOADS_AT_ONCE = 4
PER_GAMES = 10_000  # the disk figures are scaled to this many games
STUDENT_BOT = '''"""A student's bot in a simulated term: the reference random bot, with a line of
log a move."""

import sdk
from bots.random_bot import RandomBot


class StudentBot(RandomBot):
    def choose_move(self, state):
        moves = state.legal_moves()
        move = self.rng.choice(moves)
        self.log.info("chose %s of %d legal moves", move, len(moves))
        return move


if __name__ == "__main__":
    sdk.run(StudentBot)
'''


@dataclass(frozen=True)
class TermPlan:
    """What the simulated term is: its size, its ladder's time and machines, its final."""

    participants: int = 300
    minutes: float = 30.0
    workers: int = 2
    concurrency: int = 2  # games at once in each worker
    page_rate: float = 6.0  # page requests a second, the three kinds in turn
    graded_games: int = 4  # the graded final's games of each team against each staff bot
    ranking_games: int = 4  # and then among the teams
    time_per_move: float = 0.2
    isolation: str | None = None
    database_url: str | None = None
    home: Path | None = None  # keep the server's folder there (default: a temporary one)
    final_timeout: float = 3600.0


def run_term_bench(plan: TermPlan) -> dict[str, Any]:
    """The simulated term of `plan` on a fresh server of its own; its figures. BenchError when
    a part of the server dies or the final does not end in `plan.final_timeout` seconds."""
    with fresh_server("azul-term-bench-", plan.database_url, plan.home, serve=True) as home:
        return _term(plan, home)


def _term(plan: TermPlan, home: Path) -> dict[str, Any]:
    from tournaments.server.finals.status import final_status

    contest = _contest(plan)
    began = time.monotonic()
    teams = _import_class(home, plan.participants)
    imported_s = time.monotonic() - began
    tokens = _tokens(contest)
    clock = _Clock()
    growth: dict[str, tuple[int, int]] = {}
    with _site() as url, _load_average() as load_average:
        load = PageLoad(url, plan.page_rate, teams, lambda: _recent_games(contest.pk))

        def on_validated() -> None:
            # From here on only games add to the database: its growth per game is measured
            # from this moment.
            growth["from"] = _database_state(contest)
            if load.phase == "validation":
                load.phase = "ladder"

        with load.running():
            with _workers(home, plan) as workers:
                clock.mark("ladder")
                uploads = _upload(url, tokens)
                clock.mark("uploaded")
                _wait(workers, clock, plan.minutes * 60, lambda: False, on_validated)
                clock.mark("deadline")
                deadline = _deadline(contest)
                load.phase = "final"
                done = _wait(
                    workers, clock, plan.final_timeout, lambda: _final_over(contest), on_validated
                )
                clock.mark("final")
                if done is None:
                    raise BenchError(
                        f"the final did not end in {plan.final_timeout:.0f} s: "
                        f"{final_status(contest).describe()}"
                    )
            growth["to"] = _database_state(contest)
            # The same pages with no game played: what the games cost them, on this
            # machine at this moment (its other work included).
            load.phase = "quiet"
            time.sleep(QUIET_SECONDS)
    played = workers.played()
    validated = clock.at.get("validated")
    ladder = _ladder_figures(contest, clock, deadline)
    games = ladder["games"]
    disk = _disk(home, contest, growth)
    return {
        "participants": plan.participants,
        "minutes": plan.minutes,
        "workers": plan.workers,
        "concurrency": plan.concurrency,
        "isolation": plan.isolation,
        "database": database_vendor(),
        "time_per_move": plan.time_per_move,
        "home": str(home) if plan.home else None,
        "load_average": load_average,
        "cpus": os.cpu_count(),
        "setup": {
            "class_import_s": imported_s,
            "uploads": latency(uploads.seconds),
            "uploads_done_s": clock.between("ladder", "uploaded"),
            "all_validated_s": clock.between("ladder", "validated") if validated else None,
        },
        "ladder": ladder,
        "pages": {phase: load.figures(phase) for phase in PHASES}
        | {"rate_per_s": plan.page_rate, "errors": load.error_counts()},
        "final": _final_figures(contest, clock.between("deadline", "final")),
        "lost": _lost(contest, uploads, played),
        "disk": disk,
        "per_10000_games": _per_games(disk, games, contest),
    }


def _ladder_figures(contest: Any, clock: _Clock, deadline: Any) -> dict[str, Any]:
    """The ladder's games until the deadline: how many, and a minute's worth overall and once
    every upload was validated."""
    from tournaments.server.ladder.models import Game

    ladder = Game.objects.filter(contest=contest, kind=Game.LADDER, status=Game.DONE)
    ladder_s = clock.between("ladder", "deadline")
    validated = clock.at.get("validated")
    steady = (
        ladder.filter(finished__gte=validated[1], finished__lt=deadline).count()
        / ((clock.between("validated", "deadline") or 1) / 60)
        if validated
        else None
    )
    games = ladder.count()
    return {
        "games": games,
        "wall_s": ladder_s,
        "games_per_minute": games / (ladder_s / 60),
        "games_per_minute_after_validation": steady,
    }


# -- the term's set-up ---------------------------------------------------------------------------
def _contest(plan: TermPlan) -> Any:
    """The term's contest: open, accounts from the class list only, a graded final against two
    staff bots (reference bots, validated by the workers as any upload)."""
    from tournaments.server.contests.services import ContestSettings, create_contest
    from tournaments.server.submissions.services import add_staff_bot, reference_archive

    contest = create_contest(
        CONTEST,
        ContestSettings(
            name="A simulated term",
            time_per_move=plan.time_per_move,
            final_format="graded",
            final_graded_games=plan.graded_games,
            final_ranking_games=plan.ranking_games,
            signup="closed",
        ),
    )
    for name, bot in STAFF_BOTS:
        add_staff_bot(contest, name, reference_archive(bot))
    return contest


def _import_class(home: Path, students: int) -> list[str]:
    """`server import-class` of a CSV of `students` students, one team each; the teams."""
    from tournaments.server.contests.services import import_class

    path = home / "bench" / "class.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    teams = [f"team-{i:03d}" for i in range(1, students + 1)]
    with path.open("w", newline="") as out:
        rows = csv.writer(out)
        rows.writerow(["login", "name", "email", "team"])
        for i, team in enumerate(teams, 1):
            rows.writerow([f"s{i:03d}", f"Student {i}", f"s{i:03d}@uni.example", team])
    made = import_class(path, CONTEST, home / "bench" / "links.csv", "http://127.0.0.1")
    if made.teams_created != students:
        raise BenchError(f"the class import made {made.teams_created} teams of {students}")
    return teams


def _tokens(contest: Any) -> dict[str, str]:
    """An API token for one member of each team (as `contest login` would fetch)."""
    from tournaments.server.accounts.models import ApiToken

    tokens = {}
    for who in contest.participants.filter(staff_bot=False).prefetch_related("members"):
        _, tokens[who.name] = ApiToken.issue(who.members.all()[0], "bench term")
    return tokens


@contextmanager
def _site() -> Iterator[str]:
    """The site as `server run` serves it (gunicorn, its default processes), its front page
    the term's; its URL once it answers."""
    from tournaments.server.runtime import serve

    # Every request of the crowd comes from this one address, as behind a department's
    # proxy: the cap on one address's connections is the proxy's (settings.py), not the
    # 8 that bound a single client of a site without one.
    told = {"AZUL_ARENA_CONTEST": CONTEST, "AZUL_ARENA_WEB_CONNECTIONS_PER_ADDRESS": "1000"}
    before = {name: os.environ.get(name) for name in told}
    os.environ.update(told)
    web = serve("127.0.0.1:0")
    try:
        _until_up(web.url)
        yield web.url.rstrip("/")
    finally:
        web.stop()
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _until_up(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                reply.read()
                return
        except OSError as exc:
            if time.monotonic() > deadline:
                raise BenchError(
                    f"the web server did not answer in {timeout:.0f} s: {exc}"
                ) from None
            time.sleep(0.2)


# -- the ladder workers ------------------------------------------------------------------------
@dataclass
class Workers:
    """The `server ladder` processes, each with its output in a file."""

    processes: list[subprocess.Popen[bytes]]
    outputs: list[Path]

    def check(self) -> None:
        """BenchError when a worker has ended (none should before it is stopped)."""
        for process, output in zip(self.processes, self.outputs, strict=True):
            if process.poll() is not None:
                tail = output.read_text(errors="replace")[-2000:]
                raise BenchError(f"a ladder worker ended (status {process.returncode}): {tail}")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def played(self) -> list[list[int]]:
        """The games each worker said it recorded (its `game N played` lines)."""
        return [
            [
                int(line.split()[1])
                for line in output.read_text(errors="replace").splitlines()
                if line.startswith("game ") and line.rstrip().endswith(" played")
            ]
            for output in self.outputs
        ]


@contextmanager
def _workers(home: Path, plan: TermPlan) -> Iterator[Workers]:
    """`plan.workers` ladder workers serving the term, started as a department starts them
    (`server ladder --contest`), stopped by SIGTERM at the end."""
    command = [sys.executable, "-m", "tournaments.cli", "server", "ladder", "--home", str(home)]
    command += ["--contest", CONTEST, "--concurrency", str(plan.concurrency)]
    command += ["--isolation", plan.isolation] if plan.isolation else []
    outputs = [home / "bench" / f"worker-{i + 1}.out" for i in range(plan.workers)]
    processes = []
    try:
        for output in outputs:
            with output.open("wb") as out:
                processes.append(
                    subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=home)
                )
        workers = Workers(processes, outputs)
        yield workers
    finally:
        Workers(processes, outputs[: len(processes)]).stop()


# -- the uploads -------------------------------------------------------------------------------
@dataclass
class Uploads:
    """The uploads refused (why), and the time each accepted one took."""

    refused: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


def _upload(url: str, tokens: dict[str, str]) -> Uploads:
    """One upload per team through `/api/submit`, a few at once: STUDENT_BOT with a file of
    the team's own (so that no two archives are the same, as no two students' are)."""
    from tournaments.server.client import ClientError, request

    done = Uploads()
    lock = threading.Lock()

    def one(team: str) -> None:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as archive:
            archive.writestr("bot/bot.py", STUDENT_BOT)
            archive.writestr("bot/team.txt", team)
        began = time.perf_counter()
        try:
            files = {"archive": (f"{team}.zip", buf.getvalue())}
            request(url, "/api/submit", files=files, token=tokens[team])
        except ClientError as exc:
            with lock:
                done.refused.append(f"{team}: {exc}")
            return
        with lock:
            done.seconds.append(time.perf_counter() - began)

    with ThreadPoolExecutor(UPLOADS_AT_ONCE) as pool:
        list(pool.map(one, sorted(tokens)))
    return done


# -- the crowd on the pages --------------------------------------------------------------------
class PageLoad:
    """Requests for the front page, a participant's page and a game's page in turn, at a
    steady rate (an open loop: a slow answer does not delay the next request, as a crowd does
    not wait for one another), each timed from its sending to its last byte, by phase.
    Anonymous visitors of a public contest: the pages everyone may see."""

    def __init__(
        self, url: str, rate: float, teams: list[str], games: Callable[[], list[int]]
    ) -> None:
        self.url, self.rate, self.teams, self.games = url, rate, teams, games
        self.phase = PHASES[0]
        self.times: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.errors: Counter[tuple[str, str, int]] = Counter()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._rng = random.Random(1)

    @contextmanager
    def running(self) -> Iterator[None]:
        thread = threading.Thread(target=self._run, name="page-load", daemon=True)
        thread.start()
        try:
            yield
        finally:
            self._stop.set()
            thread.join(timeout=60)

    def figures(self, phase: str) -> dict[str, Any]:
        with self._lock:
            return {kind: latency(self.times[(phase, kind)]) for kind in PAGES}

    def error_counts(self) -> dict[str, int]:
        with self._lock:
            return {f"{p} {k} {status}": n for (p, k, status), n in sorted(self.errors.items())}

    def _run(self) -> None:
        from django.db import connection

        recent: list[int] = []
        refreshed = 0.0
        due = time.monotonic()
        turn = 0
        with ThreadPoolExecutor(16, thread_name_prefix="page") as pool:
            while not self._stop.is_set():
                if time.monotonic() >= refreshed:
                    recent, refreshed = self.games() or recent, time.monotonic() + 5
                kind = PAGES[turn % len(PAGES)]
                turn += 1
                path = self._path(kind, recent)
                if path is not None:
                    pool.submit(self._get, self.phase, kind, path)
                due += 1 / self.rate
                self._stop.wait(max(0.0, due - time.monotonic()))
        connection.close()

    def _path(self, kind: str, recent: list[int]) -> str | None:
        if kind == "front":
            return "/"
        if kind == "participant":
            return f"/p/{self._rng.choice(self.teams)}/"
        return f"/games/{self._rng.choice(recent)}/" if recent else None

    def _get(self, phase: str, kind: str, path: str) -> None:
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(self.url + path, timeout=60) as reply:
                reply.read()
                status = reply.status
        except urllib.error.HTTPError as exc:
            status = exc.code
        except OSError:
            status = 0  # no answer at all
        elapsed = time.perf_counter() - began
        with self._lock:
            if status == 200:
                self.times[(phase, kind)].append(elapsed)
            else:
                self.errors[(phase, kind, status)] += 1


def _recent_games(contest_id: int) -> list[int]:
    """The ids of the term's latest finished games, whose pages the crowd looks at."""
    from django.db import close_old_connections

    from tournaments.server.ladder.models import Game

    close_old_connections()
    return list(
        Game.objects.filter(contest_id=contest_id, status=Game.DONE)
        .exclude(kind=Game.FINAL)  # a visitor sees the final's games once the contest closes
        .order_by("-pk")
        .values_list("pk", flat=True)[:500]
    )


@contextmanager
def _load_average() -> Iterator[dict[str, float]]:
    """The machine's 1-minute load average, sampled every 10 s while it runs: its mean and
    highest (the figures' context: the machine is shared)."""
    seen: list[float] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(10):
            seen.append(os.getloadavg()[0])

    thread = threading.Thread(target=sample, name="load-average", daemon=True)
    thread.start()
    figures: dict[str, float] = {}
    try:
        yield figures
    finally:
        stop.set()
        thread.join()
        seen = seen or [os.getloadavg()[0]]
        figures.update(mean=sum(seen) / len(seen), max=max(seen))


# -- the term's clock ----------------------------------------------------------------------------
@dataclass
class _Clock:
    """Moments of the term: (monotonic time, wall time) by name."""

    at: dict[str, tuple[float, datetime]] = field(default_factory=dict)

    def mark(self, name: str) -> None:
        from django.utils import timezone

        self.at.setdefault(name, (time.monotonic(), timezone.now()))

    def between(self, first: str, then: str) -> float:
        return self.at[then][0] - self.at[first][0]


def _wait(
    workers: Workers,
    clock: _Clock,
    seconds: float,
    done: Callable[[], bool],
    validated: Callable[[], None],
) -> bool | None:
    """Until `seconds` have passed or `done()` is True (True then, None on time), checking
    the workers stay up; once every upload has been validated, `validated` is marked and
    called."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        workers.check()
        if "validated" not in clock.at and "uploaded" in clock.at and _validated_now():
            clock.mark("validated")
            validated()
        if done():
            return True
        time.sleep(min(2.0, max(0.0, end - time.monotonic())))
    return None


def _validated_now() -> bool:
    from django.db import close_old_connections

    from tournaments.server.submissions.models import Version

    close_old_connections()
    waiting = (Version.PENDING, Version.VALIDATING)
    return not Version.objects.filter(
        participant__contest__slug=CONTEST, state__in=waiting
    ).exists()


def _deadline(contest: Any) -> datetime:
    """The deadline, now: the workers freeze the contest at their next look at its dates,
    record the hand-ins, and one of them plays the final."""
    from django.utils import timezone

    from tournaments.server.contests.models import Contest

    now = timezone.now()
    Contest.objects.filter(pk=contest.pk).update(deadline=now)
    return now


def _final_over(contest: Any) -> bool:
    from django.db import close_old_connections

    from tournaments.server.finals.status import final_done

    close_old_connections()
    return final_done(contest)


# -- what the term leaves ------------------------------------------------------------------------
def _final_figures(contest: Any, wall_s: float) -> dict[str, Any]:
    from tournaments.server.finals.store import FinalStore

    store = FinalStore(contest)
    done, scheduled = store.counts()
    config = store.config() or {}
    entries = len(store.entries())
    return {
        "format": "graded",
        "entries": entries,
        "games": done,
        "games_scheduled": scheduled,
        "games_planned": int(config.get("games") or scheduled),
        "wall_s": wall_s,
        "games_per_minute": done / (wall_s / 60) if wall_s else None,
    }


def _lost(contest: Any, uploads: Uploads, played: list[list[int]]) -> dict[str, Any]:
    """What the term lost, each count 0 when nothing was: uploads refused, versions not
    validated, games said recorded by two workers or by none, games stored without their
    result or seat logs, and the final's games not played."""
    from tournaments.server.finals.status import final_status
    from tournaments.server.ladder.logs import seat_log
    from tournaments.server.ladder.models import Game, Seat
    from tournaments.server.submissions.models import Version

    versions = Version.objects.filter(participant__contest=contest, participant__staff_bot=False)
    said = Counter(game_id for worker in played for game_id in worker)
    done = Game.objects.filter(contest=contest, status=Game.DONE)
    # The workers say their ladder games; the final's are counted by `final_games_not_played`.
    stored = set(done.exclude(kind=Game.FINAL).values_list("pk", flat=True))
    unranked = Seat.objects.filter(game__in=done, rank__isnull=True).values("game").distinct()
    seats = Seat.objects.filter(game__in=done).values_list("game_id", "seat")
    status = final_status(contest)
    return {
        "uploads_refused": uploads.refused[:20],
        "versions_uploaded": versions.count(),
        "versions_not_passed": versions.exclude(state=Version.PASSED).count(),
        "games_said_recorded_twice": sum(1 for n in said.values() if n > 1),
        "games_said_recorded_not_stored": len(set(said) - stored),
        "games_stored_not_said": len(stored - set(said)),
        "games_without_result": done.filter(record__isnull=True).count() + unranked.count(),
        "games_failed": Game.objects.filter(contest=contest, status=Game.FAILED).count(),
        "games_left_scheduled": Game.objects.filter(contest=contest, status=Game.SCHEDULED).count(),
        "seat_logs_missing": sum(1 for g, s in seats.iterator() if not seat_log(g, s).exists()),
        "final_games_not_played": (status.planned or 0) - status.done,
    }


@dataclass(frozen=True)
class _Files:
    files: int
    bytes: int
    allocated: int  # what the disk gives them: a small file takes a whole block

    def as_json(self) -> dict[str, int]:
        return {"files": self.files, "bytes": self.bytes, "allocated_bytes": self.allocated}


def _files(folder: Path, skip: Path | None = None) -> _Files:
    files = size = allocated = 0
    for path in folder.rglob("*") if folder.exists() else ():
        if skip is not None and path.is_relative_to(skip):
            continue
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            files, size, allocated = files + 1, size + st.st_size, allocated + st.st_blocks * 512
    return _Files(files, size, allocated)


def _disk(home: Path, contest: Any, growth: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """The disk the term used: the games' records (in the database), the database (and how
    much it grew from the moment every upload was validated, with the games played since),
    the seat logs (one file per game and seat), the bots' process logs, the final's folder
    (its bots' process logs: its games are the database's, as the ladder's), the versions
    (per participant, not per game)."""
    from django.conf import settings

    logs = home / "logs"
    start, end = growth.get("from"), growth.get("to")
    return {
        "records_bytes": _records_bytes(contest),
        "database_bytes": _database_bytes(Path(str(settings.DATABASES["default"]["NAME"]))),
        "database_growth": {
            "bytes": end[0] - start[0] if start and end else None,
            "games": end[1] - start[1] if start and end else None,
        },
        "seat_logs": _files(logs / "games").as_json(),
        "process_logs": _files(logs, skip=logs / "games").as_json(),
        "final": _files(home / "contests").as_json(),
        "versions": _files(home / "versions").as_json(),
        "home": _files(home).as_json(),
    }


def _records_bytes(contest: Any) -> int:
    """The stored size of the term's game records (PostgreSQL: as stored, compressed)."""
    from django.db import connection

    from tournaments.server.ladder.models import Game

    size = "pg_column_size(record)" if connection.vendor == "postgresql" else "length(record)"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COALESCE(SUM({size}), 0) FROM {Game._meta.db_table} "  # names, not input
            "WHERE contest_id = %s AND record IS NOT NULL",
            [contest.pk],
        )
        return int(cursor.fetchone()[0])


def _database_state(contest: Any) -> tuple[int, int]:
    """(the database's size, the term's finished games): SQLite's pages in use (those the
    write-ahead log holds included, those free left out), PostgreSQL's database size."""
    from django.db import close_old_connections, connection

    from tournaments.server.ladder.models import Game

    close_old_connections()
    games = Game.objects.filter(contest=contest, status=Game.DONE).count()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_database_size(current_database())")
            return int(cursor.fetchone()[0]), games
        sizes = []
        for pragma in ("page_count", "freelist_count", "page_size"):
            cursor.execute(f"PRAGMA {pragma}")
            sizes.append(int(cursor.fetchone()[0]))
    return (sizes[0] - sizes[1]) * sizes[2], games


def _database_bytes(sqlite_file: Path) -> int:
    """What the database takes on disk now."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_database_size(current_database())")
            return int(cursor.fetchone()[0])
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the WAL's pages into the file
    return sum(p.stat().st_size for p in (sqlite_file, Path(f"{sqlite_file}-wal")) if p.exists())


def _per_games(disk: dict[str, Any], games: int, contest: Any) -> dict[str, float | None]:
    """Megabytes per PER_GAMES games, of what grows with the games: the records and seat logs
    of every game stored, the database by its growth once the uploads were validated (ladder
    games), the bots' process logs (the ladder's) and the final's folder."""
    from tournaments.server.finals.store import FinalStore

    def scaled(size: int | None, of: int | None = games) -> float | None:
        return round(size / of * PER_GAMES / 2**20, 1) if of and size is not None else None

    final_games = FinalStore(contest).counts()[0]
    every = games + final_games  # the final's games are stored, and log, as the ladder's
    grew = disk["database_growth"]
    return {
        "records_mb": scaled(disk["records_bytes"], every),
        "database_mb": scaled(grew["bytes"], grew["games"]),
        "final_mb": scaled(disk["final"]["allocated_bytes"], final_games),
        "seat_logs_mb": scaled(disk["seat_logs"]["bytes"], every),
        "seat_logs_allocated_mb": scaled(disk["seat_logs"]["allocated_bytes"], every),
        "seat_log_files": round(disk["seat_logs"]["files"] / every * PER_GAMES) if every else None,
        "process_logs_mb": scaled(disk["process_logs"]["allocated_bytes"]),
    }
