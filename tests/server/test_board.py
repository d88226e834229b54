"""The front page's standings table kept between requests (tournaments/server/web/board.py):
made once while the ladder stands still, made anew once a game finishes. A real worker plays
the game; the pages go through Django's whole stack."""

from __future__ import annotations

import re
import time

from django.db import connection
from django.test import Client, TransactionTestCase, override_settings
from django.test.utils import CaptureQueriesContext

from tests.server.helpers import participant, passed_version, run_worker
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.models import Game
from tournaments.server.web import board
from tournaments.server.worker.loop import LadderWorker

WINDOW = 0.2  # BOARD_SECONDS here: a changed ladder shows once this has passed


def games_cell(page: str, team: str) -> str:
    """The games column of `team`'s row in the standings table."""
    row = re.search(rf"<tr><td class=\"num\">\d+</td><td><a [^>]*>{team}</a>.*?</tr>", page)
    assert row is not None, page
    return re.findall(r"<td[^>]*>(.*?)</td>", row.group(0))[6]


@override_settings(BOARD_SECONDS=WINDOW)
class KeptStandingsTests(TransactionTestCase):
    def setUp(self) -> None:
        board.forget()
        self.addCleanup(board.forget)
        contest = Contest.current()
        Contest.objects.filter(pk=contest.pk).update(ruleset="azul-mini", time_per_move=0.2)
        for name in ("ann", "ben"):
            _, who = participant(name)
            passed_version(who)

    def front(self) -> tuple[str, bool]:
        """The front page after the window, and whether its standings were read anew."""
        time.sleep(WINDOW * 1.5)
        with CaptureQueriesContext(connection) as queries:
            page = Client().get("/").content.decode()
        made = any("arena_ladder_standing" in q["sql"] for q in queries.captured_queries)
        return page, made

    def test_the_table_is_made_once_per_change_of_the_ladder(self) -> None:
        page, made = self.front()
        self.assertTrue(made)
        self.assertEqual((games_cell(page, "ann"), games_cell(page, "ben")), ("0", "0"))
        page, made = self.front()
        self.assertFalse(made, "nothing changed: the kept table is shown")
        self.assertEqual(games_cell(page, "ann"), "0")
        # A game finishes: the next request after the window shows it.
        stats = run_worker(LadderWorker(concurrency=1, max_games=1, validate=False, poll=0.05))
        self.assertEqual(stats.played, 1, stats)
        self.assertEqual(Game.objects.filter(status=Game.DONE).count(), 1)
        page, made = self.front()
        self.assertTrue(made, "a game finished: the table is made anew")
        self.assertEqual((games_cell(page, "ann"), games_cell(page, "ben")), ("1", "1"))
        page, made = self.front()
        self.assertFalse(made)
        # A new version on the ladder is a change too.
        _, cat = participant("cat")
        passed_version(cat)
        page, made = self.front()
        self.assertTrue(made)
        self.assertEqual(games_cell(page, "cat"), "0")

    @override_settings(BOARD_SECONDS=0)
    def test_none_is_kept_with_a_window_of_0(self) -> None:
        self.assertTrue(self.front()[1])
        self.assertTrue(self.front()[1])
