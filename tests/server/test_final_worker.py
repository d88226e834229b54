"""A contest's final played in the ladder worker's own process (`final.start_final` and the
coroutine `final.play_final`, awaited beside the ladder's games): stopped in the middle, as a
worker that stops cancels it, the games played are kept, and the worker resumes it to its
end."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.test import TransactionTestCase

from referee import run_loop
from tests.server.helpers import participant, passed_version, run_worker, stopped_after_one_game
from tournaments.server.contests.models import Contest, Transition
from tournaments.server.finals import lifecycle
from tournaments.server.finals import play as final
from tournaments.server.finals.store import FinalStore
from tournaments.server.ladder import coordination
from tournaments.server.ladder.logs import seat_log
from tournaments.server.ladder.models import Game
from tournaments.server.worker.loop import LadderWorker


class FinalInTheWorker(TransactionTestCase):
    def test_a_final_stopped_in_the_middle_is_resumed_by_the_worker(self) -> None:
        contest = Contest.objects.create(
            slug="fin",
            state=Contest.OPEN,
            time_per_move=0.2,
            final_games_per_pairing=4,  # a round-robin of 4 games on one deal
            final_min_games=4,
        )
        for name in ("ann", "ben"):
            _, who = participant(name)
            who.contest = contest
            who.save()
            passed_version(who)
        lifecycle.set_state(contest, Contest.FROZEN, by="a test")
        claimed = final.start_final(contest, "a test", take_over=False)
        self.assertTrue(run_loop(stopped_after_one_game(claimed)))
        done, total = FinalStore(contest).counts()
        self.assertEqual(total, 4)
        self.assertGreaterEqual(done, 1)
        self.assertLess(done, 4)  # cancelled at its first game's end: the rest wait
        contest.refresh_from_db()
        self.assertEqual(contest.state, Contest.FINAL)
        self.assertEqual(contest.final_runner, coordination.runner_name())
        # Its player (this process) is alive: no other process takes it over; the worker of
        # this process, which sees it is its own and not playing, resumes it.
        self.assertFalse(final.final_wanted(contest))
        stats = run_worker(LadderWorker(contest="fin", max_games=0, validate=False, poll=0.05))
        self.assertEqual((stats.finals, stats.errors), (1, []))
        contest.refresh_from_db()
        self.assertTrue(final.final_done(contest))
        store = FinalStore(contest)
        self.assertEqual(store.counts(), (4, 4))
        # Its bots were told their seats, not whom they played, as in the ladder's games.
        self.assertTrue((store.config() or {}).get("anonymous"))
        for game in store.games(done_only=True):
            replay = store.replay(game.game.game_id) or {}
            self.assertIs(replay["referee"]["config"]["anonymous"], True, game.game.game_id)
        # Its games are ladder games of kind `final`, each stored once, each seat's log its
        # own file of that game (as a ladder game's), the game's page shown to its players.
        games = Game.objects.filter(contest=contest, kind=Game.FINAL, status=Game.DONE)
        self.assertEqual(games.count(), 4)
        for game in games:
            for seat in game.seats.all():
                self.assertEqual(seat.log, str(seat_log(game.pk, seat.seat)))
                self.assertTrue(Path(seat.log).is_file(), seat.log)
        steps = list(Transition.objects.filter(contest=contest).values_list("before", "after"))
        self.assertEqual(steps, [(Contest.OPEN, Contest.FROZEN), (Contest.FROZEN, Contest.FINAL)])
        log = Path(settings.HOME, "logs", "final-fin.log").read_text()
        self.assertIn("final of fin: ", log)  # its progress, where the worker keeps it
