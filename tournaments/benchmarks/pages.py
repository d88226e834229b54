"""The contest server's pages (`bench pages`): render times of the pages a contest's crowd
looks at, on a big database: `participants` participants with one version each and `games`
finished 2-player games among them (made directly in the database: no bot plays), then the
leaderboard and participants' pages asked for through Django's whole stack (middleware, views,
templates, the database) in this process."""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta
from typing import Any

from tournaments.benchmarks.server import fresh_server

BATCH = 5000


def build(participants: int, games: int, seed: int = 1) -> None:
    """`participants` participants with one passed version and a standing each, and `games`
    finished 2-player games among them, written in batches of BATCH."""
    from django.db import transaction

    from tournaments.server.contests.models import Contest

    rng = random.Random(seed)
    contest = Contest.current()
    with transaction.atomic():
        versions = _field(contest, participants, rng)
    for start in range(0, games, BATCH):
        with transaction.atomic():
            _games(contest, versions, start, min(BATCH, games - start), games, rng)


def _field(contest: Any, participants: int, rng: random.Random) -> list[Any]:
    """The participants, their versions and standings; the versions."""
    from django.utils import timezone

    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.models import Standing
    from tournaments.server.submissions.models import Version

    people = Participant.objects.bulk_create(
        [Participant(name=f"team-{i + 1:03d}", contest=contest) for i in range(participants)]
    )
    versions = Version.objects.bulk_create(
        [
            Version(
                participant=p,
                number=1,
                sha256="0" * 64,
                size=1000,
                archive_format="zip",
                entry="bot.py",
                state=Version.PASSED,
            )
            for p in people
        ]
    )
    now = timezone.now()
    Standing.objects.bulk_create(
        [
            Standing(
                version=v, mu=rng.gauss(25, 4), sigma=rng.uniform(0.8, 3), games=0, last_game=now
            )
            for v in versions
        ]
    )
    return versions


def _games(
    contest: Any, versions: list[Any], start: int, count: int, games: int, rng: random.Random
) -> None:
    """Games start .. start + count of `games`, finished a second apart up to now, with their
    two seats each."""
    from django.utils import timezone

    from tournaments.server.ladder.models import Game

    now = timezone.now()
    made = Game.objects.bulk_create(
        [
            Game(
                contest=contest,
                status=Game.DONE,
                rated=True,
                ruleset=contest.ruleset,
                time_per_move=1.0,
                seed=rng.randrange(2**31),
                finished=now - timedelta(seconds=games - start - i),
                duration=0.5,
            )
            for i in range(count)
        ],
        batch_size=BATCH,
    )
    _seats(made, versions, rng)


def _seats(made: list[Any], versions: list[Any], rng: random.Random) -> None:
    """Two seats of two random versions for each game of `made`, one winner."""
    from tournaments.server.ladder.models import Seat

    seats = []
    for game in made:
        a, b = rng.sample(versions, 2)
        first = rng.random() < 0.5
        for seat, (v, rank) in enumerate(((a, 1 if first else 2), (b, 2 if first else 1))):
            mu = rng.gauss(25, 4)
            seats.append(
                Seat(
                    game=game,
                    seat=seat,
                    version=v,
                    score=rng.randrange(80),
                    rank=rank,
                    termination="ok",
                    moves=40,
                    mu_before=mu,
                    sigma_before=2.0,
                    mu_after=mu + 0.1,
                    sigma_after=1.9,
                )
            )
    Seat.objects.bulk_create(seats, batch_size=BATCH)


def timings(urls: list[str], rounds: int, htmx: bool = False) -> dict[str, float]:
    from django.test import Client

    client = Client()
    times = []
    for i in range(rounds):
        url = urls[i % len(urls)]
        began = time.perf_counter()
        reply = client.get(url, headers={"HX-Request": "true"} if htmx else {})
        times.append(time.perf_counter() - began)
        assert reply.status_code == 200, (url, reply.status_code)
    return latency(times)


def latency(seconds: list[float]) -> dict[str, Any]:
    """Requests' times (seconds) as the page benchmarks print them: p50, p95 and max in ms,
    and how many (None for the times of no request)."""
    times = sorted(seconds)
    if not times:
        return {"p50_ms": None, "p95_ms": None, "max_ms": None, "requests": 0}
    return {
        "p50_ms": 1e3 * statistics.median(times),
        "p95_ms": 1e3 * times[min(len(times) - 1, int(0.95 * len(times)))],
        "max_ms": 1e3 * times[-1],
        "requests": len(times),
    }


def run_page_bench(participants: int, games: int, rounds: int = 60) -> dict[str, Any]:
    """p50, p95 and max render times of the leaderboard (whole and its live refresh) and of
    participants' pages, `rounds` requests each, on a fresh server (`server.fresh_server`)
    built with `participants` participants and `games` games."""
    with fresh_server("azul-page-bench-"):
        return _page_bench(participants, games, rounds)


def _page_bench(participants: int, games: int, rounds: int) -> dict[str, Any]:
    began = time.perf_counter()
    build(participants, games)
    built = time.perf_counter() - began
    rng = random.Random(2)
    people = [f"/p/team-{rng.randrange(participants) + 1:03d}/" for _ in range(rounds)]
    timings(["/"], 3)  # the first request loads templates and URL patterns
    return {
        "participants": participants,
        "games": games,
        "build_s": built,
        "leaderboard": timings(["/"], rounds),
        "leaderboard_live_refresh": timings(["/"], rounds, htmx=True),
        "participant": timings(people, rounds),
    }
