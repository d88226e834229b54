"""The ladder: matchmaking rules on plain data, and a real worker (bot processes, the referee,
the sandbox where the machine has it) validating uploads and playing rated games."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from django.test import TestCase, TransactionTestCase

from tests.server.helpers import (
    CRASHING_BOT,
    RANDOM_BOT,
    failed_validations,
    participant,
    run_worker,
    zip_bytes,
)
from tournaments.domain.store import GameOutcome, SeatOutcome
from tournaments.server.contests.models import Contest
from tournaments.server.ladder import coordination, results
from tournaments.server.ladder.matchmaking import PROVISIONAL_GAMES, Candidate, pick_game
from tournaments.server.ladder.models import Game, Seat, Standing
from tournaments.server.ladder.standings import active_versions, enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def cand(v: int, p: int, mu: float = 25.0, games: int = 50, idle_min: int = 0) -> Candidate:
    return Candidate(v, p, mu, games, T0 + timedelta(minutes=idle_min))


def test_a_new_version_is_seeded_first_then_the_longest_idle() -> None:
    rng = random.Random(1)
    field = [
        cand(1, 1, idle_min=5),
        cand(2, 2, idle_min=1),
        cand(3, 3, idle_min=9),
        Candidate(4, 4, 25.0, 0, None),
    ]
    assert 4 in {c.version for c in pick_game(field, 2, rng) or []}
    rated = [cand(1, 1, idle_min=5), cand(2, 2, idle_min=1), cand(3, 3, idle_min=9)]
    for _ in range(10):
        assert 2 in {c.version for c in pick_game(rated, 2, rng) or []}
    under = [
        cand(1, 1, games=PROVISIONAL_GAMES - 1, idle_min=0),
        cand(2, 2, idle_min=-100),
        cand(3, 3, idle_min=50),
    ]
    assert 1 in {c.version for c in pick_game(under, 2, rng) or []}


def test_opponents_are_near_in_rating_and_one_version_per_participant() -> None:
    rng = random.Random(2)
    field = [cand(1, 1, mu=20, games=0)] + [cand(10 + i, 10 + i, mu=20 + i * 3) for i in range(12)]
    field += [cand(99, 1, mu=20.1)]  # the hero's own other version is never its opponent
    for _ in range(50):
        game = pick_game(field, 3, rng) or []
        assert len({c.participant for c in game}) == 3
        assert 1 in {c.version for c in game}
        assert max(c.mu for c in game) <= 20 + 3 * 3
    assert pick_game([cand(1, 1), cand(2, 1)], 2, rng) is None
    assert pick_game(field, 2, rng, busy=frozenset(c.version for c in field[1:])) is None


class RecordTests(TestCase):
    def setUp(self) -> None:
        self.versions = []
        for name in ("ann", "ben"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            self.versions.append(v)

    def outcome(self, first_wins: bool = True) -> GameOutcome:
        a, b = self.versions
        return GameOutcome(
            seats=[
                SeatOutcome(a.entry_name, 40, 1 if first_wins else 2),
                SeatOutcome(b.entry_name, 30, 2 if first_wins else 1),
            ],
            record={"ruleset": "azul"},
            duration=0.5,
        )

    def test_a_game_is_rated_once_even_when_recorded_twice(self) -> None:
        game = results.schedule(Contest.current(), self.versions)
        self.assertTrue(results.record(game.pk, self.outcome()))
        self.assertFalse(results.record(game.pk, self.outcome()), "a replay is not rated again")
        a, b = (Standing.objects.get(version=v) for v in self.versions)
        self.assertEqual((a.games, b.games, a.wins), (1, 1, 1))
        self.assertGreater(a.mu, b.mu)

    def test_infrastructure_failures_are_never_rated_and_give_up_after_max_attempts(self) -> None:
        game = results.schedule(Contest.current(), self.versions)
        for _ in range(results.MAX_ATTEMPTS - 1):
            self.assertEqual(results.infrastructure_failure(game.pk, "worker lost"), Game.SCHEDULED)
        self.assertEqual(results.infrastructure_failure(game.pk, "worker lost"), Game.FAILED)
        self.assertFalse(results.record(game.pk, self.outcome()))
        self.assertEqual(sum(s.games for s in Standing.objects.all()), 0)
        self.assertEqual(Game.objects.get(pk=game.pk).rated, False)

    def test_a_version_that_faults_in_most_games_is_suspended(self) -> None:
        for _ in range(results.SUSPEND_AFTER):
            game = results.schedule(Contest.current(), self.versions)
            out = self.outcome(first_wins=False)
            out.seats[0].termination = "crash"
            results.record(game.pk, out)
        a, b = (Version.objects.get(pk=v.pk) for v in self.versions)
        self.assertIn("faulted in 4 of its last 4 games (crash)", a.suspended)
        self.assertEqual(b.suspended, "")
        self.assertEqual([v.pk for v in active_versions()], [b.pk])

    def test_the_pinned_version_plays_else_the_newest_that_passed(self) -> None:
        who = self.versions[0].participant
        v2 = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
        Version.objects.filter(pk=v2.pk).update(state=Version.PASSED)
        enter(v2)
        self.assertIn(v2.pk, [v.pk for v in active_versions()])
        who.pinned = self.versions[0]
        who.save()
        self.assertIn(self.versions[0].pk, [v.pk for v in active_versions()])
        self.assertNotIn(v2.pk, [v.pk for v in active_versions()])


class PickTests(TestCase):
    """What a worker plays next, on a database of four versions (no bot is run)."""

    def setUp(self) -> None:
        self.versions = []
        for name in ("ann", "ben", "cat", "dan"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            self.versions.append(v)
        self.contest = Contest.current()
        self.worker = LadderWorker()
        self.worker._contest_id = self.contest.pk
        coordination.beat("elsewhere pid 7")  # another worker, alive

    def test_a_challenge_waits_while_one_of_its_versions_plays(self) -> None:
        ann, ben, cat, _ = self.versions
        worker = self.worker
        # ann plays ben at the other worker; ann then asks for a challenge against cat.
        playing = results.schedule(self.contest, [ann, ben], worker="elsewhere pid 7")
        asked = results.schedule(self.contest, [ann, cat], kind=Game.CHALLENGE)
        # The challenge waits for ann; its versions start no ranked game meanwhile (ben, in
        # one game, may start a second: GAMES_PER_VERSION).
        other = worker._pick(frozenset(), frozenset())
        assert other is not None
        self.assertEqual(set(other.versions), {ben.pk, self.versions[3].pk})
        Game.objects.filter(pk=other.game_id).delete()
        # The same game in flight at this worker.
        Game.objects.filter(pk=playing.pk).update(worker=worker.name)
        in_flight = frozenset({ann.pk, ben.pk})
        nxt = worker._pick(in_flight, frozenset({playing.pk}))
        self.assertTrue(nxt is None or asked.pk != nxt.game_id, "ann would play twice")
        Game.objects.exclude(pk__in=[playing.pk, asked.pk]).delete()
        # Once it is over, the challenge is played, by this worker.
        Game.objects.filter(pk=playing.pk).update(status=Game.DONE)
        nxt = worker._pick(frozenset(), frozenset())
        assert nxt is not None
        self.assertEqual((nxt.game_id, nxt.versions), (asked.pk, (ann.pk, cat.pk)))
        self.assertEqual(Game.objects.get(pk=asked.pk).worker, worker.name)

    def test_challenges_are_played_in_the_order_asked(self) -> None:
        ann, ben, cat, dan = self.versions
        playing = results.schedule(self.contest, [ben, dan], worker="elsewhere pid 7")
        first = results.schedule(self.contest, [ann, ben], kind=Game.CHALLENGE)
        results.schedule(self.contest, [ann, cat], kind=Game.CHALLENGE)
        # The second does not take ann while the first waits for ben.
        self.assertIsNone(self.worker._pick(frozenset(), frozenset()))
        Game.objects.filter(pk=playing.pk).update(status=Game.DONE)
        nxt = self.worker._pick(frozenset(), frozenset())
        assert nxt is not None
        self.assertEqual(nxt.game_id, first.pk)

    def test_a_game_that_failed_at_a_live_worker_is_anyones_to_play_again(self) -> None:
        ann, ben, cat, _dan = self.versions
        # Each worker's game failed (not a bot's doing): neither holds it any more, so neither
        # waits for the other (it would, if each still held its own).
        theirs = results.schedule(self.contest, [ann, ben], worker="elsewhere pid 7")
        mine = results.schedule(self.contest, [ann, cat], worker=self.worker.name)
        for game in (theirs, mine):
            self.assertEqual(results.infrastructure_failure(game.pk, "lost"), Game.SCHEDULED)
        self.assertEqual(set(Game.objects.values_list("worker", flat=True)), {""})
        nxt = self.worker._pick(frozenset(), frozenset())
        assert nxt is not None
        self.assertEqual(nxt.game_id, theirs.pk)

    def test_a_game_an_organiser_requeues_is_anyones_to_play(self) -> None:
        from django.contrib import admin
        from django.test import RequestFactory

        from tournaments.server.ladder.admin import GameAdmin

        ann, ben, _, _ = self.versions
        game = results.schedule(self.contest, [ann, ben], worker="elsewhere pid 7")
        Game.objects.filter(pk=game.pk).update(status=Game.FAILED)
        request = RequestFactory().post("/admin/")
        request.user, _ = participant("org", staff=True)
        GameAdmin(Game, admin.site).requeue(request, Game.objects.filter(pk=game.pk))
        nxt = self.worker._pick(frozenset(), frozenset())
        assert nxt is not None, "the requeued game waits for the worker that failed it"
        self.assertEqual(nxt.game_id, game.pk)


class WorkerTests(TransactionTestCase):
    def test_the_worker_validates_uploads_and_plays_rated_games(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        for name in ("dora", "eve", "finn"):
            _, who = participant(name)
            submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
        _, bad = participant("gus")
        submit(bad, [zip_bytes({"bot.py": CRASHING_BOT})])
        worker = LadderWorker(concurrency=2, max_games=6, poll=0.05)
        stats = run_worker(worker)
        self.assertEqual(stats.played, 6, stats)
        self.assertEqual(stats.validated, 4)
        passed = Version.objects.filter(state=Version.PASSED).count()
        self.assertEqual(passed, 3, failed_validations())
        self.assertEqual(Version.objects.get(participant=bad).state, Version.FAILED)
        done = Game.objects.filter(status=Game.DONE)
        self.assertEqual(done.count(), 6)
        self.assertTrue(all(g.rated and g.record and g.record["ruleset"] == "azul" for g in done))
        self.assertEqual(sum(s.games for s in Standing.objects.all()), 12)
        seats = Seat.objects.filter(game__in=done)
        self.assertTrue(all(s.termination == "ok" and s.log for s in seats))
        self.assertFalse(seats.filter(version__participant=bad).exists())
        from django.conf import settings

        for g in done:
            self.assertNotIn(str(settings.HOME), str(g.record), "no server path in a record")
            names = [s.version.entry_name for s in g.seats.order_by("seat")]
            self.assertEqual(g.record["players"], names)
            self.assertEqual(g.record["referee"]["entries"], names)

    def test_a_scheduled_game_nobody_plays_is_played_first_on_its_deal(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        versions = []
        for name in ("hal", "ida"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            versions.append(v)
        # As a killed worker or an organiser's requeue leaves it: scheduled, not in flight.
        orphan = results.schedule(contest, versions)
        stats = run_worker(LadderWorker(max_games=1, validate=False, poll=0.05))
        self.assertEqual(stats.played, 1)
        orphan.refresh_from_db()
        self.assertEqual((orphan.status, orphan.rated), (Game.DONE, True))
        self.assertEqual(orphan.record["seed"], orphan.seed)

    def test_the_ladder_plays_on_a_dask_cluster_with_the_versions_shipped(self) -> None:
        import pytest

        pytest.importorskip("distributed", reason="dask[distributed] is in the dev extras")
        from tournaments.domain.cluster import ClusterOptions

        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        for name in ("jan", "kim"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
        worker = LadderWorker(
            max_games=3, validate=False, poll=0.05, cluster=ClusterOptions(workers=1, threads=1)
        )
        stats = run_worker(worker)
        self.assertEqual((stats.played, stats.infrastructure_failures), (3, 0), stats)
        done = Game.objects.filter(status=Game.DONE)
        self.assertEqual(done.count(), 3)
        self.assertTrue(all(g.rated and g.record for g in done))
        self.assertEqual(sum(s.games for s in Standing.objects.all()), 6)
