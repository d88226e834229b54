"""A contest's graded final, played by the server's own code with real (random) bots: refused
with what to do while it has no staff bot; each team plays the staff bot K games on one deal,
seats swapped, then the teams play among themselves within their games; stopped after its
first game and started again it plays only what is missing, every game stored once; the
standings and the archive keep the columns and keys of any other final."""

from __future__ import annotations

import csv
import io
import json
import tarfile
from pathlib import Path

from django.conf import settings
from django.test import TestCase, TransactionTestCase

from referee import run_loop
from tests.server.helpers import RANDOM_BOT, participant, stopped_after_one_game, zip_bytes
from tournaments.domain.entries import Entry
from tournaments.domain.store import StoredGame
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.contests.services import (
    ContestError,
    ContestSettings,
    FinalChange,
    create_contest,
    set_final_format,
)
from tournaments.server.finals import lifecycle
from tournaments.server.finals import play as final
from tournaments.server.finals.export import HEADER, standings_csv, write_archive
from tournaments.server.finals.status import final_status
from tournaments.server.finals.store import FinalStore
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version

TEAMS = ("ann", "ben", "cy")
# contest.json's keys, as every final's archive has them.
ARCHIVE_KEYS = {
    "contest",
    "partial",
    "final",
    "name",
    "ruleset",
    "options",
    "players",
    "time_per_move",
    "deadline",
    "handins",
}


def _passed(who: Participant) -> None:
    version = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
    Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
    version.refresh_from_db()
    enter(version)


def _staff_bot(contest: Contest, name: str) -> None:
    bot = Participant.objects.create(name=name, contest=contest, staff_bot=True)
    _passed(bot)


class GradedFinal(TransactionTestCase):
    def setUp(self) -> None:
        self.contest = Contest.objects.create(
            slug="gr",
            state=Contest.OPEN,
            time_per_move=0.2,
            final_format=Contest.GRADED,
            final_graded_games=2,  # one deal, seats swapped
            final_ranking_games=2,
        )
        for name in TEAMS:
            _, who = participant(name)
            who.contest = self.contest
            who.save()
            _passed(who)
        lifecycle.set_state(self.contest, Contest.FROZEN, by="a test")

    def test_graded_final_is_played_resumed_once_each_and_exported_as_any(self) -> None:
        with self.assertRaisesRegex(
            lifecycle.LifecycleError, "at least 1: add one with `server contest staff-bot gr"
        ):
            final.start_final(self.contest, "a test", take_over=False)
        self.contest.refresh_from_db()
        self.assertEqual(self.contest.state, Contest.FROZEN)  # refused before its claim
        _staff_bot(self.contest, "staff")
        claimed = final.start_final(self.contest, "a test", take_over=False)
        config = claimed.config
        # 3 teams x 1 staff bot x 2 games, then 3 teams x 2 games / 2 seats, rounded up to
        # whole seat rotations.
        self.assertEqual((config.schedule, config.graders, config.games), ("graded", ["staff"], 10))
        self.assertTrue(run_loop(stopped_after_one_game(claimed)))
        self.assertLess(FinalStore(self.contest).counts()[0], 10)
        again = final.start_final(self.contest, "a test", take_over=True)
        summary = run_loop(final.play_final(again, 2))
        self.assertEqual((summary.failed, summary.aborted), (0, None))
        self.assertTrue(final.final_done(self.contest))
        self.assertEqual(
            (final_status(self.contest).done, final_status(self.contest).planned), (10, 10)
        )
        store = FinalStore(self.contest)
        self.assertEqual(store.counts(), (10, 10))
        games = list(store.games(done_only=True))
        self.assertEqual(sum(len(g.seats) for g in games), 20)  # every game stored once
        self._grading_games(games)
        self._exported_as_any_final()

    def _grading_games(self, games: list[StoredGame]) -> None:
        graded = [g.game for g in games if "staff" in g.game.seats]
        self.assertEqual(len(graded), 2 * len(TEAMS))
        self.assertEqual(len({g.seed for g in graded}), 1)  # the whole field's one deal
        for team in TEAMS:
            seats = sorted(g.seats.index(team) for g in graded if team in g.seats)
            self.assertEqual(seats, [0, 1], team)  # the deal played from both seats
        among = [g.game for g in games if "staff" not in g.game.seats]
        self.assertEqual(len(among), 4)

    def _exported_as_any_final(self) -> None:
        rows = list(csv.reader(io.StringIO(standings_csv(self.contest))))
        bot_columns = ["win_rate_vs_staff", "win_rate_vs_staff_low", "win_rate_vs_staff_high"]
        self.assertEqual(rows[0], [*HEADER, *bot_columns, "games_vs_staff"])
        by_team = {r[1]: dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
        self.assertEqual({by_team[t]["games_vs_staff"] for t in TEAMS}, {"2"})
        archive = Path(settings.HOME) / "gr.tar.gz"
        write_archive(self.contest, archive)
        with tarfile.open(archive) as tar:
            about = json.load(tar.extractfile("gr/contest.json"))  # type: ignore[arg-type]
        self.assertEqual(set(about), ARCHIVE_KEYS)


class FinalFormatSettings(TestCase):
    def test_the_format_is_checked_where_it_is_set_and_changes_nothing_when_refused(
        self,
    ) -> None:
        for settings_, message in [
            (ContestSettings(final_format="knockout"), "not one of auto, round-robin"),
            (ContestSettings(final_format="graded", final_graded_games=3), "multiple of 2"),
            (ContestSettings(final_format="graded", players=3, final_graded_games=4), "of 3"),
        ]:
            with self.subTest(message=message), self.assertRaisesRegex(ContestError, message):
                create_contest("c", settings_)
        made = create_contest("c", ContestSettings(final_format="graded", final_graded_games=4))
        self.assertEqual((made.final_format, made.final_ranking_games), ("graded", 10))
        set_final_format(made, FinalChange(ranking_games=0))
        with self.assertRaisesRegex(ContestError, "multiple of 2"):
            set_final_format(made, FinalChange(graded_games=5))
        made.refresh_from_db()
        self.assertEqual((made.final_graded_games, made.final_ranking_games), (4, 0))
        Participant.objects.create(name="s", contest=made, staff_bot=True)
        entries = [Entry(n, "random") for n in ("a", "b", "c", "s")]
        graded = final.final_config(made, entries)
        # The grading alone (no ranking games): 3 teams x 4 games against s.
        self.assertEqual((graded.graders, graded.games_per_pairing, graded.games), (["s"], 4, 12))
        made.final_format = Contest.AUTO
        self.assertEqual(final.final_config(made, entries).schedule, "round-robin")
        lifecycle.set_state(made, Contest.FROZEN)
        Contest.objects.filter(pk=made.pk).update(state=Contest.FINAL)
        made.refresh_from_db()
        with self.assertRaisesRegex(ContestError, "before the final starts"):
            set_final_format(made, FinalChange(final_format="adaptive"))
