"""A contest's final played on a Dask cluster (real worker processes): the same games and
standings as the embedded final for the same seed, its state naming the machines that played
it, and every game stored once when a worker is killed mid-final."""

from __future__ import annotations

import os
import signal
import threading

import pytest
from django.db import connection
from django.test import TransactionTestCase

from referee import run_loop
from tests.server.helpers import participant, passed_version, zip_bytes
from tests.tournaments.test_cluster import worker_pids
from tournaments.benchmarks.final_cluster import final_games, sleeping_contest
from tournaments.domain.cluster import ClusterOptions
from tournaments.domain.store import Store
from tournaments.server.contests.models import Contest
from tournaments.server.finals import lifecycle
from tournaments.server.finals import play as final
from tournaments.server.finals.status import final_status
from tournaments.server.finals.store import FinalStore, final_folder
from tournaments.server.ladder.models import Game, Seat

# Its moves come from the bot's own seeded generator: a game is the same wherever it is played.
SEEDED_BOT = b"""import sdk


class SeededBot(sdk.Bot):
    def choose_move(self, state):
        return self.rng.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(SeededBot)
"""


class FinalOnACluster(TransactionTestCase):
    def test_the_final_on_two_workers_plays_the_embedded_finals_games(self) -> None:
        contest = Contest.objects.create(
            slug="big",
            state=Contest.OPEN,
            ruleset="azul-mini",
            time_per_move=0.3,
            final_games_per_pairing=2,
            final_min_games=6,  # 12 games: the round-robin
        )
        for name in ("ann", "ben", "cat", "dan"):
            _, who = participant(name)
            who.contest = contest
            who.save()
            passed_version(who, zip_bytes({"bot.py": SEEDED_BOT}))
        lifecycle.set_state(contest, Contest.FROZEN, by="a test")
        claimed = final.start_final(contest, "a test", take_over=False)
        claimed.config.seed = 2026
        summary = run_loop(
            final.play_final(claimed, 2, cluster=ClusterOptions(workers=2, threads=1))
        )
        self.assertEqual((summary.played, summary.failed), (12, 0), summary)
        contest.refresh_from_db()
        status = final_status(contest)
        self.assertEqual(status.state, "done")
        self.assertEqual(sum(n for _, n in status.machines), 12, status)
        self.assertIn("machines", status.as_json())
        # The same final on this machine alone, from the same seed: the same games.
        with Store.open(final_folder(contest) / "embedded.sqlite") as embedded:
            run_loop(final.play_final(claimed, 2, into=embedded))
            self.assertEqual(final_games(embedded), final_games(FinalStore(contest)))


class AWorkerLostMidFinal(TransactionTestCase):
    @pytest.mark.slow  # real Dask workers, one killed, and the embedded final beside it
    def test_a_worker_killed_mid_final_leaves_every_game_stored_once(self) -> None:
        # Bots that sleep 20 ms a move: games long enough that both workers are mid-game.
        contest = sleeping_contest("lost", 4, 0.02, 2, 2.0)  # 12 games: the round-robin
        claimed = final.start_final(contest, "a test", take_over=False)
        claimed.config.seed = 2027
        killed: list[tuple[int, int]] = []  # (worker pid, games stored then)
        stop = threading.Event()

        def kill_one_worker() -> None:
            while not stop.wait(0.05):
                stored = FinalStore(contest).counts()[0]
                pids = worker_pids(os.getpid())
                if stored >= 2 and len(pids) == 2:
                    os.kill(pids[0], signal.SIGKILL)  # no goodbye: its games in flight are lost
                    killed.append((pids[0], stored))
                    return

        def watch() -> None:
            try:
                kill_one_worker()
            finally:
                connection.close()  # this thread's own

        killer = threading.Thread(target=watch, daemon=True)
        killer.start()
        try:
            summary = run_loop(
                final.play_final(claimed, 2, cluster=ClusterOptions(workers=2, threads=1))
            )
        finally:
            stop.set()
            killer.join(5)
        self.assertEqual(len(killed), 1, "no worker was killed")
        self.assertLess(killed[0][1], 12, "the final was over before the kill")
        self.assertEqual((summary.played, summary.failed), (12, 0), summary.errors)
        # Every game done, each seat scored once and each record stored: none lost or doubled.
        games = Game.objects.filter(contest=contest, kind=Game.FINAL)
        self.assertEqual(
            (games.count(), games.filter(status=Game.DONE, record__isnull=False).count()),
            (12, 12),
        )
        self.assertEqual(
            Seat.objects.filter(game__in=games, rank__isnull=False).count(), 12 * contest.players
        )
        contest.refresh_from_db()
        self.assertEqual(final_status(contest).state, "done")
        # The games played again elsewhere are the games the embedded final plays.
        with Store.open(final_folder(contest) / "embedded.sqlite") as embedded:
            run_loop(final.play_final(claimed, 2, into=embedded))
            self.assertEqual(final_games(embedded), final_games(FinalStore(contest)))
