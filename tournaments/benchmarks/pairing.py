"""Does the ladder's pairing measure (`bench pairing`)? On `server demo`'s field (the reference
bots random, greedy, search, mcts) plus a new version (the `first` bot, uploaded as a student's
bot.py), on a fresh server of its own:

1. the ladder worker plays `warmup` games among the reference bots, then the new version joins
   and it plays `games` more (its real bot processes, matchmaking, database and ratings);
2. over those `games`, each version's largest opponent share (its games against its most met
   opponent over all its games) against an even split (1 / its opponents): 1.0 is perfectly
   even, the goal is at most 1.5;
3. a full round-robin of the same bots (`bench strength`'s referee ladder, `round_robin` games a
   pair, seats swapped over shared deals) ranks them by mean rank, and the leaderboard's order
   (mu - 3 sigma) is compared with it: Kendall's tau (goal >= 0.9; with 5 bots one swapped pair
   is 0.8).

A benchmark that prints its figures, not a test: it takes minutes, and on a busy machine the
thinking bots' strength varies with the load.
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from referee import run_loop
from tournaments.benchmarks.server import fresh_server

FIELD = ("random", "greedy", "search", "mcts")
NEWCOMER = "first"  # bots/first_bot.py, uploaded as a participant's bot.py


def run_pairing_bench(  # the run's settings
    games: int,
    warmup: int,
    round_robin: int,
    time_per_move: float,
    concurrency: int,
    isolation: str | None = None,
    seed: int = 1,
) -> dict[str, Any]:
    """The figures of the module docstring, as one dict of stable keys."""
    with fresh_server("azul-pairing-bench-"):
        ladder = _ladder(games, warmup, time_per_move, concurrency, isolation)
    reference = _round_robin(round_robin, time_per_move, concurrency, seed)
    from tournaments.benchmarks.schedule import kendall_tau

    names = list(ladder["leaderboard"])
    tau = kendall_tau([ladder["leaderboard"][n] for n in names], [-reference[n] for n in names])
    worst = max(ladder["share_over_even"].values())
    return ladder | {
        "round_robin_games_per_pair": round_robin,
        "round_robin_mean_rank": reference,
        "kendall_tau": round(tau, 3),
        "largest_share_over_even": round(worst, 3),
        "time_per_move": time_per_move,
        "concurrency": concurrency,
    }


def _newcomer_archive() -> bytes:
    """bots/first_bot.py as a participant uploads it: a .zip of a folder with its bot.py."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("bot.py", (Path(__file__).parents[2] / "bots" / "first_bot.py").read_bytes())
    return buf.getvalue()


def _enter(name: str, archive: bytes) -> int:
    """A participant `name` with one version of `archive`, passed (validation is not what is
    measured here) and on the ladder; the version's id."""
    from tournaments.server.contests.models import Participant
    from tournaments.server.ladder.standings import enter
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version

    who = Participant.objects.create(name=name, staff_bot=name.startswith("ref-"))
    version = submit(who, [archive])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    enter(version)
    return int(version.pk)


def _ladder(
    games: int, warmup: int, time_per_move: float, concurrency: int, isolation: str | None
) -> dict[str, Any]:
    from tournaments.server.contests.models import Contest
    from tournaments.server.ladder.models import Game, Seat, Standing
    from tournaments.server.submissions.services import reference_archive
    from tournaments.server.worker.loop import LadderWorker

    contest = Contest.current()
    contest.time_per_move = time_per_move
    contest.save()
    names = {_enter(f"ref-{bot}", reference_archive(bot)): bot for bot in FIELD}

    def play(n: int) -> None:
        worker = LadderWorker(concurrency=concurrency, isolation=isolation, max_games=n)
        worker.validate = False
        run_loop(worker.run())

    if warmup:
        play(warmup)
    joined = Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    names[_enter("student", _newcomer_archive())] = NEWCOMER
    play(games)
    met: dict[str, Counter[str]] = {n: Counter() for n in names.values()}
    counted = Game.objects.filter(status=Game.DONE, pk__gt=joined)
    for game in counted:
        seats = [
            names[v] for v in Seat.objects.filter(game=game).values_list("version_id", flat=True)
        ]
        for a, b in combinations(seats, 2):
            met[a][b] += 1
            met[b][a] += 1
    share = {
        n: max(c.values()) / sum(c.values()) * (len(names) - 1) if c else 0.0
        for n, c in met.items()
    }
    board = {
        names[s.version_id]: round(s.conservative, 3)
        for s in Standing.objects.filter(version_id__in=names)
    }
    return {
        "games": counted.count(),
        "warmup_games": warmup,
        "games_per_version": {n: sum(c.values()) for n, c in met.items()},
        "opponents": {n: dict(c) for n, c in met.items()},
        "share_over_even": {n: round(v, 3) for n, v in share.items()},
        "leaderboard": board,
    }


def _round_robin(
    per_pair: int, time_per_move: float, concurrency: int, seed: int
) -> dict[str, float]:
    """Each bot's mean rank in a full round-robin of the field and the newcomer."""
    from tournaments.benchmarks.strength import play_referee

    newcomer = str(Path(__file__).parents[2] / "bots" / "first_bot.py")
    bots = [*FIELD, newcomer]
    result = play_referee(bots, per_pair, time_per_move, "azul", seed, concurrency=concurrency)
    ranks = {b: result.by_bot[b].mean_rank for b in bots}
    return {(NEWCOMER if b == newcomer else b): round(r, 3) for b, r in ranks.items()}
