"""A server made before contests existed keeps its ladder: the data migration makes it the
default contest, with its participants and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import TransactionTestCase

from tests.server.helpers import stopped_after_one_game

BEFORE = [("arena_ladder", "0003_contest_wild_order"), ("arena_accounts", "0002_initial")]
AFTER = [("arena_ladder", "0005_default_contest"), ("arena_accounts", "0003_participant_contest")]


class DefaultContestMigrationTests(TransactionTestCase):
    def tearDown(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    def test_the_single_ladder_becomes_the_default_contest(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE).apps
        # (The row the first migration run made is there already; it stands for the old one.)
        old.get_model("arena_ladder", "Contest").objects.update_or_create(
            pk=1, defaults={"name": "Old ladder"}
        )
        old.get_model("arena_accounts", "Participant").objects.create(name="ann")
        old.get_model("arena_ladder", "Game").objects.create(
            ruleset="azul", time_per_move=1.0, seed=7
        )
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        contest = new.get_model("arena_ladder", "Contest").objects.get(pk=1)
        self.assertEqual(
            (contest.slug, contest.name, contest.state), ("default", "Old ladder", "open")
        )
        ann = new.get_model("arena_accounts", "Participant").objects.get(name="ann")
        self.assertEqual(ann.contest_id, 1)
        self.assertEqual(new.get_model("arena_ladder", "Game").objects.get().contest_id, 1)
        # A contest made next gets a new id (PostgreSQL's sequence moved past 1).
        other = new.get_model("arena_ladder", "Contest").objects.create(slug="next")
        self.assertNotEqual(other.pk, 1)


# The last migrations before the contests app: its models lived in ladder and accounts.
BEFORE_MOVE = [
    ("arena_ladder", "0009_contest_build_timeout"),
    ("arena_accounts", "0003_participant_contest"),
    ("arena_submissions", "0002_workers"),
]


class ContestsAppMoveTests(TransactionTestCase):
    """The move of Contest, Participant, Extension and Transition into the contests app
    changes no table: a database made before it migrates and keeps every row and link."""

    def tearDown(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    def test_a_database_made_before_the_move_keeps_its_rows(self) -> None:
        from django.contrib.auth import get_user_model
        from django.contrib.contenttypes.models import ContentType

        executor = MigrationExecutor(connection)
        executor.migrate([*BEFORE_MOVE, ("arena_contests", None)])  # None: none of the app's
        old = executor.loader.project_state(BEFORE_MOVE).apps
        types = ContentType.objects  # (its table is as now: contenttypes is not moved back)
        types.filter(app_label="arena_contests").delete()  # as before the app existed
        contest_type = types.get_or_create(app_label="arena_ladder", model="contest")[0].pk
        contest = old.get_model("arena_ladder", "Contest").objects.create(slug="term")
        user = old.get_model("auth", "User").objects.create(username="ann")
        ann = old.get_model("arena_accounts", "Participant").objects.create(
            name="ann", contest=contest
        )
        ann.members.add(user)
        version = old.get_model("arena_submissions", "Version").objects.create(
            participant=ann, number=1, sha256="0" * 64, size=1, archive_format="zip", entry="."
        )
        old.get_model("arena_ladder", "Extension").objects.create(
            contest=contest, participant=ann, deadline="2030-01-01T00:00Z"
        )
        old.get_model("arena_ladder", "Transition").objects.create(
            contest=contest, before="open", after="frozen", by="test"
        )
        old.get_model("arena_ladder", "HandIn").objects.create(
            contest=contest, participant=ann, version=version, sha256="0" * 64, at=version.uploaded
        )

        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

        from tournaments.server.contests.models import Contest, Participant, Transition
        from tournaments.server.handins.models import HandIn

        moved = Participant.objects.get(name="ann")
        self.assertEqual(moved.contest, Contest.objects.get(slug="term"))
        self.assertEqual(list(moved.members.all()), [get_user_model().objects.get(username="ann")])
        self.assertEqual(moved.versions.get().number, 1)
        self.assertEqual(moved.extensions.get().contest.slug, "term")
        self.assertEqual(Transition.objects.get(contest__slug="term").after, "frozen")
        self.assertEqual(HandIn.objects.get().participant, moved)
        # The admin's history and the permissions of a contest are still a contest's.
        ContentType.objects.clear_cache()
        self.assertEqual(ContentType.objects.get_for_model(Contest).pk, contest_type)


BEFORE_OPTIONS = [("arena_contests", "0001_initial"), ("arena_ladder", "0011_delete_old_contest")]
AFTER_OPTIONS = [("arena_contests", "0002_ruleset_options")]


class RulesetOptionsMigrationTests(TransactionTestCase):
    """The contest's wild_order field becomes its JSON ruleset_options, values kept both ways."""

    def tearDown(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    def _contests(self, target: list[tuple[str, str]]) -> object:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(target)
        return executor.loader.project_state(target).apps.get_model("arena_contests", "Contest")

    def test_the_wild_order_moves_into_the_options_and_back(self) -> None:
        old = self._contests(BEFORE_OPTIONS)
        old.objects.create(slug="pav", ruleset="pavilion", wild_order="GOPYBR")  # type: ignore[attr-defined]
        old.objects.create(slug="plain", ruleset="azul")  # type: ignore[attr-defined]
        new = self._contests(AFTER_OPTIONS)
        options = dict(new.objects.values_list("slug", "ruleset_options"))  # type: ignore[attr-defined]
        self.assertEqual(options["pav"], {"wild_order": "GOPYBR"})
        self.assertEqual(options["plain"], {})
        back = self._contests(BEFORE_OPTIONS)
        orders = dict(back.objects.values_list("slug", "wild_order"))  # type: ignore[attr-defined]
        self.assertEqual((orders["pav"], orders["plain"]), ("GOPYBR", ""))


# The last migrations before the ladder's models moved to apps of their own.
BEFORE_SPLIT = [
    ("arena_ladder", "0016_game_logs_deleted"),
    *((app, None) for app in ("arena_handins", "arena_analyses", "arena_tables")),
    *((app, None) for app in ("arena_versiontests", "arena_finals")),
]
SPLIT = {
    "handin": "arena_handins",
    "analysis": "arena_analyses",
    "tablegame": "arena_tables",
    "versiontest": "arena_versiontests",
}


class LadderSplitTests(TransactionTestCase):
    """The move of HandIn, Analysis, TableGame and VersionTest out of the ladder changes no
    table: a database made before it migrates, both ways, and keeps every row and link."""

    def tearDown(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    def _migrate(self, target: list[tuple[str, str | None]]) -> object:
        """Migrate to `target`; the models as they were there (every other app at its last)."""
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(target)
        apps = {app for app, _ in target}
        others = [n for n in executor.loader.graph.leaf_nodes() if n[0] not in apps]
        named = [(app, name) for app, name in target if name is not None]
        return executor.loader.project_state([*named, *others]).apps

    def test_a_database_made_before_the_split_keeps_its_rows(self) -> None:
        from django.contrib.contenttypes.models import ContentType

        old: Any = self._migrate(BEFORE_SPLIT)
        types = {
            model: ContentType.objects.get_or_create(app_label="arena_ladder", model=model)[0].pk
            for model in SPLIT
        }
        ids = self._old_rows(old)

        self._migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        self._assert_rows(ids)
        # The admin's history and the permissions of each model stay its own.
        ContentType.objects.clear_cache()
        for model, app in SPLIT.items():
            self.assertEqual(ContentType.objects.get(app_label=app, model=model).pk, types[model])

        # And back: the same rows under the ladder's names.
        back: Any = self._migrate(BEFORE_SPLIT)
        self.assertEqual(back.get_model("arena_ladder", "HandIn").objects.get().pk, ids["handin"])
        test = back.get_model("arena_ladder", "VersionTest").objects.get()
        self.assertEqual(list(test.games.values_list("pk", flat=True)), [ids["game"]])
        self.assertEqual(
            back.get_model("arena_ladder", "Analysis").objects.get().game_id, ids["game"]
        )
        self.assertEqual(back.get_model("arena_ladder", "TableGame").objects.get().name, "ann")
        self.assertEqual(ContentType.objects.get(pk=types["handin"]).app_label, "arena_ladder")

    def _old_rows(self, old: Any) -> dict[str, int]:
        """A row in every model the split moves, and in those it keeps, linked as in use."""
        contest = old.get_model("arena_contests", "Contest").objects.create(slug="term")
        user = old.get_model("auth", "User").objects.create(username="ann")
        ann = old.get_model("arena_contests", "Participant").objects.create(
            name="ann", contest=contest
        )
        versions = [
            old.get_model("arena_submissions", "Version").objects.create(
                participant=ann,
                number=n,
                sha256=f"{n}" * 64,
                size=1,
                archive_format="zip",
                entry=".",
            )
            for n in (1, 2)
        ]
        model = lambda name: old.get_model("arena_ladder", name)  # noqa: E731
        handin = model("HandIn").objects.create(
            contest=contest,
            participant=ann,
            version=versions[1],
            sha256="2" * 64,
            at=versions[1].uploaded,
            note="v2, the newest",
        )
        test = model("VersionTest").objects.create(
            contest=contest, new=versions[1], base=versions[0], requested_by=ann, verdict="H1"
        )
        game = model("Game").objects.create(
            contest=contest,
            kind="test",
            version_test=test,
            ruleset="azul",
            time_per_move=1.0,
            seed=7,
            status="done",
            record={"moves": []},
        )
        for seat, version in enumerate(versions):
            model("Seat").objects.create(game=game, seat=seat, version=version, score=10 + seat)
        model("Standing").objects.create(version=versions[1], games=3)
        model("WorkerBeat").objects.create(name="host pid 1")
        analysis = model("Analysis").objects.create(
            game=game, requested_by=user, budget=100, status="done", block={"moves": 2}
        )
        table = model("TableGame").objects.create(
            contest=contest,
            participant=ann,
            name="ann",
            opponent=versions[0],
            seed=3,
            state={"phase": "factory"},
        )
        return {
            "handin": handin.pk,
            "test": test.pk,
            "game": game.pk,
            "analysis": analysis.pk,
            "table": table.pk,
        }

    def _assert_rows(self, ids: dict[str, int]) -> None:
        from tournaments.server.analyses.models import Analysis
        from tournaments.server.handins.models import HandIn
        from tournaments.server.ladder.models import Game, Standing, WorkerBeat
        from tournaments.server.tables.models import TableGame
        from tournaments.server.versiontests.models import VersionTest

        handin = HandIn.objects.get(pk=ids["handin"])
        self.assertEqual((handin.participant.name, handin.version.number), ("ann", 2))  # type: ignore[union-attr]
        self.assertEqual(handin.note, "v2, the newest")
        test = VersionTest.objects.get(pk=ids["test"])
        self.assertEqual((test.new.number, test.base.number, test.verdict), (2, 1, "H1"))
        game = Game.objects.get(pk=ids["game"])
        self.assertEqual(game.version_test, test)
        self.assertEqual(list(test.games.all()), [game])
        self.assertEqual([s.score for s in game.seats.all()], [10, 11])
        analysis = Analysis.objects.get(pk=ids["analysis"])
        self.assertEqual((analysis.game, analysis.block), (game, {"moves": 2}))
        self.assertEqual(game.analysis, analysis)
        self.assertEqual(analysis.requested_by.username, "ann")  # type: ignore[union-attr]
        table = TableGame.objects.get(pk=ids["table"])
        self.assertEqual((table.participant.name, table.opponent.number), ("ann", 1))  # type: ignore[union-attr]
        self.assertEqual(table.state, {"phase": "factory"})
        self.assertEqual(Standing.objects.get().games, 3)
        self.assertEqual(WorkerBeat.objects.get().name, "host pid 1")


BEFORE_FINALS = [("arena_finals", None)]


class FinalFileImportTests(TransactionTestCase):
    """A final played before finals were rows (its own tournament database in the contest's
    folder, as that code made it: the domain's store and runner) is in the rows after the
    migration: its games, standings and exported columns the same, and it resumes there."""

    def tearDown(self) -> None:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    def _migrate(self, target: list[tuple[str, str | None]]) -> None:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(target)

    def test_a_final_in_its_file_is_in_the_rows_and_resumes(self) -> None:
        from django.conf import settings

        from referee import run_loop
        from tests.server.helpers import participant, passed_version
        from tournaments.domain.report import build_report, export_csv
        from tournaments.domain.store import Store
        from tournaments.domain.tournament import prepare
        from tournaments.server.contests.models import Contest
        from tournaments.server.finals import lifecycle
        from tournaments.server.finals import play as final
        from tournaments.server.finals.export import standings_rows, write_store
        from tournaments.server.finals.status import final_status
        from tournaments.server.finals.store import FinalStore
        from tournaments.server.ladder.models import Game

        contest = Contest.objects.create(
            slug="old", state=Contest.OPEN, time_per_move=0.2, final_games_per_pairing=4
        )
        for name in ("ann", "ben"):
            _, who = participant(name)
            who.contest = contest
            who.save()
            passed_version(who)
        lifecycle.set_state(contest, Contest.FROZEN, by="a test")
        claimed = final.start_final(contest, "a test", take_over=False)
        self._migrate(BEFORE_FINALS)
        # The final as the code before played it: a tournament database of its own, stopped
        # after its first game (a worker stopped in the middle).
        path = Path(settings.HOME) / "contests" / "old" / "final.sqlite"
        with Store.open(path) as old:
            _, games = prepare(old, claimed.config)
            self.assertEqual(len(games), 4)
            self.assertTrue(run_loop(stopped_after_one_game(claimed, into=old)))
            done, total = old.counts()
            expected = (build_report(old), export_csv(old), _records(old))
            stored = old.config()
        self.assertEqual(total, 4)
        self.assertTrue(1 <= done < 4)

        self._migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        rows = FinalStore(contest)
        self.assertEqual(rows.counts(), (done, 4))
        self.assertEqual(rows.config(), stored)
        self.assertEqual((build_report(rows), export_csv(rows), _records(rows)), expected)
        self.assertEqual(final_status(contest).done, done)
        # The export writes it out as the file it was (its columns, its games).
        copy = Path(settings.HOME) / "copy.db"
        write_store(rows, copy)
        with Store.open(copy, create=False) as written:
            self.assertEqual(export_csv(written), expected[1])
        _, ranked = standings_rows(contest)
        self.assertEqual([r[1] for r in ranked], [r.entry for r in expected[0].leaderboard])
        # The ladder's workers leave its pending games alone; the final's own run resumes them.
        pending = Game.objects.filter(contest=contest, kind=Game.FINAL, status=Game.SCHEDULED)
        self.assertEqual(pending.count(), 4 - done)
        summary = run_loop(final.play_final(final.start_final(contest, "a test"), 2))
        self.assertEqual((summary.played, summary.failed), (4 - done, 0))
        self.assertEqual(rows.counts(), (4, 4))
        self.assertEqual(Game.objects.filter(contest=contest, kind=Game.FINAL).count(), 4)
        self.assertTrue(final.final_done(contest))


def _records(store: Any) -> list[tuple[str, list[Any], int | None]]:
    """Each game done: its name, its moves and its final scores, as its record holds them."""
    found = []
    for g in store.games(done_only=True):
        record = store.replay(g.game.game_id) or {}
        found.append((g.game.game_id, record.get("moves"), len(record.get("players") or [])))
    return found
