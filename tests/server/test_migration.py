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
