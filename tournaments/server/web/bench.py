"""Render times of the pages a contest's crowd looks at, on a big database: `participants`
participants with one version each and `games` finished 2-player games among them (made
directly in the database: no bot plays), then the leaderboard and participants' pages asked
for through Django's whole stack (middleware, views, templates, the database) in this process."""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta
from typing import Any

BATCH = 5000


def build(participants: int, games: int, seed: int = 1) -> None:
    from django.db import transaction
    from django.utils import timezone

    from tournaments.server.contests.models import Contest, Participant
    from tournaments.server.ladder.models import Game, Seat, Standing
    from tournaments.server.submissions.models import Version

    rng = random.Random(seed)
    now = timezone.now()
    contest = Contest.current()
    with transaction.atomic():
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
        Standing.objects.bulk_create(
            [
                Standing(
                    version=v,
                    mu=rng.gauss(25, 4),
                    sigma=rng.uniform(0.8, 3),
                    games=0,
                    last_game=now,
                )
                for v in versions
            ]
        )
    for start in range(0, games, BATCH):
        count = min(BATCH, games - start)
        with transaction.atomic():
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
    times.sort()
    return {
        "p50_ms": 1e3 * statistics.median(times),
        "p95_ms": 1e3 * times[min(len(times) - 1, int(0.95 * len(times)))],
        "max_ms": 1e3 * times[-1],
        "requests": len(times),
    }


def run_page_bench(participants: int, games: int, rounds: int = 60) -> dict[str, Any]:
    """Needs Django set up on a fresh data folder (the command does it)."""
    from tournaments.server.runtime import migrate

    migrate()
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
