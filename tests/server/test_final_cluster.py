"""A contest's final played on a Dask cluster (real worker processes): the same games and
standings as the embedded final for the same seed, its state naming the machines that played
it, and `server contest final --workers N` from the command line."""

from __future__ import annotations

from pathlib import Path

from django.test import TransactionTestCase

from referee import run_loop
from tests.server.helpers import participant, passed_version, zip_bytes
from tournaments.domain.cluster import ClusterOptions
from tournaments.domain.store import Store
from tournaments.domain.tournament import prepare, run_tournament
from tournaments.server.contests.models import Contest
from tournaments.server.ladder import final, lifecycle
from tournaments.server.ladder.finalstate import final_status

# Its moves come from the bot's own seeded generator: a game is the same wherever it is played.
SEEDED_BOT = b"""import sdk


class SeededBot(sdk.Bot):
    def choose_move(self, state):
        return self.rng.choice(state.legal_moves())


if __name__ == "__main__":
    sdk.run(SeededBot)
"""


def games_of(path: Path) -> dict[str, list[tuple[str, int]]]:
    """Each game's seats and scores, by game id."""
    with Store.open(path, create=False) as store:
        return {
            g.game.game_id: [(s.entry, s.score) for s in g.seats]
            for g in store.games(done_only=True)
        }


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
        embedded = claimed.path.parent / "embedded.sqlite"
        with Store.open(embedded) as store:
            config, games = prepare(store, claimed.config)
            run_loop(run_tournament(store, config, games, concurrency=2))
        self.assertEqual(games_of(embedded), games_of(claimed.path))
