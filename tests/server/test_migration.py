"""A server made before contests existed keeps its ladder: the data migration makes it the
default contest, with its participants and games."""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import TransactionTestCase

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
        from tournaments.server.ladder.models import HandIn

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
