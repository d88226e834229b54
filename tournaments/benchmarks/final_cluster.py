"""A contest final on Dask workers (`bench final --cluster-speedup`): how much faster N workers
play it than 1, and whether they give the standings of the final played on this machine.

On a fresh server of its own, a contest of `teams` teams, each with one version handed in: a
bot that sleeps `move_sleep` seconds a move and then plays a cheap move (`sleeping_bot`), so
that the game's time is waiting, not computing, and the machine's cores do not cap how many
games play at once. The contest is frozen and its final claimed as `server contest final` does
(`finals.play.start_final`, a round-robin of `games_per_pairing` games a pair, seed `seed`);
then the same final is played three times, each into a database of its own: on a LocalCluster
of one worker process (one game at a time), on one of `workers` worker processes (one game at
a time each), and on this machine without Dask (the embedded final, `workers` games at once).
The standings (the final's report: TrueSkill from its games in their order) of the three are
compared entry by entry, and every game's scores too. A bot late on a loaded machine has a
move played for it (the contest's fault policy), which changes that game: the games with a fault
are counted for each run, so that a difference can be told from a cluster that plays another
game. The bots have `time_per_move` (5 s) for their sleep: only a machine starved for seconds
makes one late.
"""

from __future__ import annotations

import io
import time
import zipfile
from typing import TYPE_CHECKING, Any

from referee import run_loop
from tournaments.benchmarks.server import BenchError, fresh_server

if TYPE_CHECKING:
    from tournaments.domain.store import GameStore

SLEEPING_BOT = '''"""Sleeps MOVE_SLEEP seconds a move (waits, computes nothing), then plays:
with probability SKILL a move that keeps its tiles off the floor, else any legal move. Its draws
come from the SDK's generator, seeded for each game: the same game wherever it is played."""

import time

import sdk

MOVE_SLEEP = {sleep!r}
SKILL = {skill!r}


class SleepingBot(sdk.Bot):
    def choose_move(self, state):
        time.sleep(MOVE_SLEEP)
        moves = list(state.legal_moves())
        if self.rng.random() < SKILL:
            moves = [m for m in moves if not str(m).upper().endswith("F")] or moves
        return self.rng.choice(moves)


if __name__ == "__main__":
    sdk.run(SleepingBot)
'''


def sleeping_bot(move_sleep: float, skill: float) -> bytes:
    """A participant's archive (a .zip with its bot.py) of the sleeping bot: `skill` in [0, 1]
    makes teams of different strength, so that the standings have an order to agree on."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("bot.py", SLEEPING_BOT.format(sleep=move_sleep, skill=skill))
    return buf.getvalue()


def sleeping_contest(
    slug: str,
    teams: int,
    move_sleep: float,
    games_per_pairing: int,
    time_per_move: float,
    isolation: str | None = None,
) -> Any:
    """A contest of `teams` teams (team-01, ...; skill rising with the number), each with one
    passed version of the sleeping bot on the ladder, frozen: its final is ready to start."""
    from tournaments.server.contests.models import Contest, Participant
    from tournaments.server.finals import lifecycle
    from tournaments.server.ladder.standings import enter
    from tournaments.server.submissions.intake import submit
    from tournaments.server.submissions.models import Version

    contest = Contest.objects.create(
        slug=slug,
        state=Contest.OPEN,
        time_per_move=time_per_move,
        isolation=isolation or "",
        final_format=Contest.ROUND_ROBIN,
        final_games_per_pairing=games_per_pairing,
    )
    for i in range(teams):
        who = Participant.objects.create(name=f"team-{i + 1:02d}", contest=contest)
        version = submit(who, [sleeping_bot(move_sleep, round(i / max(1, teams - 1), 3))])
        # Validation is not what is measured: the version is passed as the worker would.
        Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
        enter(version)
    lifecycle.set_state(contest, Contest.FROZEN, by="bench final --cluster-speedup")
    return contest


def run_cluster_speedup(
    teams: int,
    workers: int,
    move_sleep: float = 0.02,
    games_per_pairing: int = 1,
    isolation: str | None = None,
    time_per_move: float = 5.0,
    seed: int = 1,
) -> dict[str, Any]:
    """The figures of the module docstring, as one dict of stable keys. ValueError for
    settings that measure nothing; BenchError when a final has failed games (its wall time
    would not be a whole final's)."""
    if workers < 2:
        raise ValueError(f"--workers {workers}: compare 1 worker with 2 or more")
    if teams < 2:
        raise ValueError(f"--teams {teams}: a final needs at least 2 teams")
    with fresh_server("azul-final-cluster-bench-"):
        return _speedup(
            teams, workers, move_sleep, games_per_pairing, time_per_move, isolation, seed
        )


def _speedup(
    teams: int,
    workers: int,
    move_sleep: float,
    games_per_pairing: int,
    time_per_move: float,
    isolation: str | None,
    seed: int,
) -> dict[str, Any]:
    import os

    from django.test import override_settings

    from tournaments.domain.arena import isolation_level
    from tournaments.domain.cluster import ClusterOptions
    from tournaments.domain.store import Store
    from tournaments.server.finals.play import play_final, start_final
    from tournaments.server.finals.status import final_status
    from tournaments.server.finals.store import FinalStore, final_folder

    contest = sleeping_contest(
        "speedup", teams, move_sleep, games_per_pairing, time_per_move, isolation
    )
    # Every upload was made above and is stored: no grace to wait for after the freeze.
    with override_settings(UPLOAD_GRACE_SECONDS=0):
        claimed = start_final(contest, "bench final --cluster-speedup", take_over=False)
    claimed.config.seed = seed
    load_before = os.getloadavg()[0]

    def play(into: Store | None, cluster: ClusterOptions | None, concurrency: int) -> float:
        began = time.perf_counter()
        summary = run_loop(play_final(claimed, concurrency, cluster=cluster, into=into))
        wall = time.perf_counter() - began
        if summary.failed or not summary.played:
            errors = "; ".join(f"{game}: {error}" for game, error in summary.errors[:3])
            where = "the contest's own" if into is None else into.path.name
            raise BenchError(
                f"the final into {where} played {summary.played} games, "
                f"{summary.failed} failed ({errors}); the wall time of part of a final "
                "measures nothing: remove the cause and run the benchmark again"
            )
        return wall

    folder = final_folder(contest)
    with (
        Store.open(folder / "one-worker.sqlite") as one,
        Store.open(folder / "embedded.sqlite") as embedded,
        FinalStore(contest) as own,
    ):
        one_s = play(one, ClusterOptions(workers=1, threads=1), 1)
        # The contest's own final: its state names the machines that played it.
        many_s = play(None, ClusterOptions(workers=workers, threads=1), workers)
        embedded_s = play(embedded, None, workers)
        load_after = os.getloadavg()[0]
        stores: dict[str, GameStore] = {"one_worker": one, "workers": own, "embedded": embedded}
        standings = {k: final_standings(s) for k, s in stores.items()}
        games = {k: final_games(s) for k, s in stores.items()}
        faulted = {k: faulted_games(s) for k, s in stores.items()}
    differing = sorted(
        g
        for g in games["workers"]
        if not games["one_worker"].get(g) == games["workers"][g] == games["embedded"].get(g)
    )
    status = final_status(contest)
    return {
        "teams": teams,
        "workers": workers,
        "games": len(games["workers"]),
        "games_per_pairing": games_per_pairing,
        "move_sleep_s": move_sleep,
        "time_per_move": time_per_move,
        "ruleset": contest.ruleset,
        "seed": seed,
        "isolation": contest.isolation or isolation_level(),
        "one_worker_wall_s": round(one_s, 2),
        "workers_wall_s": round(many_s, 2),
        "embedded_wall_s": round(embedded_s, 2),
        "embedded_concurrency": workers,
        "ratio": round(many_s / one_s, 3),
        "one_worker_s_per_game": round(one_s / len(games["one_worker"]), 3),
        "same_standings": standings["one_worker"] == standings["workers"] == standings["embedded"],
        "same_games": games["one_worker"] == games["workers"] == games["embedded"],
        "differing_games": differing,
        "games_with_a_fault": faulted,
        "final_state": status.state,
        "machines": dict(status.machines),
        "standings": [
            {"entry": e, "mu": mu, "sigma": sigma} for e, mu, sigma in standings["workers"]
        ],
        "cpus": os.cpu_count(),
        "load_average_before": round(load_before, 2),
        "load_average_after": round(load_after, 2),
    }


def final_standings(store: GameStore) -> list[tuple[str, float, float]]:
    """The leaderboard of the final in `store`: each entry with its mu and sigma, best first
    (rounded: the same games in the same order give the same figures)."""
    from tournaments.domain.report import build_report

    report = build_report(store)
    return [(row.entry, round(row.mu, 6), round(row.sigma, 6)) for row in report.leaderboard]


def final_games(store: GameStore) -> dict[str, list[tuple[str, float]]]:
    """Each finished game of the final in `store`: its seats' entries and scores, by game id."""
    return {
        g.game.game_id: [(s.entry, s.score) for s in g.seats] for g in store.games(done_only=True)
    }


def faulted_games(store: GameStore) -> int:
    """The games of the final in `store` in which a seat had a fault (late, illegal, crashed)."""
    return sum(
        1
        for g in store.games(done_only=True)
        if any(s.strikes or s.faults or s.termination != "ok" for s in g.seats)
    )
