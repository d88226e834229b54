"""The ladder's pairing measures: every version meets the field, however fast or slow its bot
(a real worker, real bot processes), and the spread rule on plain data."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from django.test import TransactionTestCase, override_settings

from tests.server.helpers import RANDOM_BOT, participant, run_worker, zip_bytes
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.matchmaking import SPREAD, Candidate, pick_game
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker

# A bot that thinks: 40 ms a move, so its games take several times a random bot's.
SLOW_BOT = RANDOM_BOT.replace(b"import random\n", b"import random\nimport time\n").replace(
    b"    def choose_move(self, state):\n",
    b"    def choose_move(self, state):\n        time.sleep(0.04)\n",
)


def opponent_shares(games: list[tuple[int, ...]]) -> dict[int, Counter[int]]:
    """Each version's games against each other version."""
    met: dict[int, Counter[int]] = {}
    for seats in games:
        for a, b in combinations(seats, 2):
            met.setdefault(a, Counter())[b] += 1
            met.setdefault(b, Counter())[a] += 1
    return met


def test_the_spread_rule_makes_every_version_meet_every_other_first() -> None:
    """Even when one opponent is by far the most informative (the same rating, uncertain),
    the first four games of a newcomer are against the four others, once each."""
    rng = random.Random(3)
    field = [Candidate(1, 1, 25.0, 0, None, sigma=8.0)]
    field += [Candidate(2, 2, 25.0, 50, None, sigma=8.0)]  # the best match by far
    field += [Candidate(v, v, 25.0 + 12 * v, 50, None, sigma=1.0) for v in (3, 4, 5)]
    met: Counter[int] = Counter()
    hero = field[0]
    for played in range(4):
        hero = Candidate(1, 1, 25.0, played, None, sigma=8.0)
        seats = pick_game([hero, *field[1:]], 2, rng, met=lambda v: met if v == 1 else {})
        assert seats is not None and hero in seats
        met.update(c.version for c in seats if c.version != 1)
    assert met == Counter({2: 1, 3: 1, 4: 1, 5: 1})


def test_a_hero_waits_for_the_opponent_it_should_meet() -> None:
    """The only opponent under its share is playing: no game rather than a lopsided one."""
    rng = random.Random(4)
    field = [
        Candidate(1, 1, 25.0, 20, None),
        Candidate(2, 2, 25.0, 20, None, playing=1),
        Candidate(3, 3, 25.0, 20, None),
    ]
    met = {1: {3: 20}, 3: {1: 20}, 2: {}}
    assert pick_game(field, 2, rng, met=lambda v: met[v], per_version=1) is None
    seats = pick_game(field, 2, rng, met=lambda v: met[v], per_version=2)
    assert seats is not None and 2 in {c.version for c in seats}


@override_settings(GAMES_PER_VERSION=2)
class LadderSpreadTests(TransactionTestCase):
    @pytest.mark.slow  # a real ladder of some 40 games: `make test-slow`, run by CI
    def test_a_slow_bot_meets_the_whole_field_and_no_pair_takes_over(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        versions = []
        for name, bot in (("slow", SLOW_BOT), ("ann", RANDOM_BOT), ("ben", RANDOM_BOT)):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": bot})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            versions.append(v.pk)
        _, late = participant("cat")  # a new version joins a ladder already under way
        newcomer = submit(late, [zip_bytes({"bot.py": RANDOM_BOT})])
        worker = LadderWorker(concurrency=2, max_games=6, validate=False, poll=0.02)
        run_worker(worker)
        Version.objects.filter(pk=newcomer.pk).update(state=Version.PASSED)
        enter(newcomer)
        versions.append(newcomer.pk)
        run_worker(LadderWorker(concurrency=2, max_games=18, validate=False, poll=0.02))
        games = [
            tuple(Seat.objects.filter(game=g).values_list("version_id", flat=True))
            for g in Game.objects.filter(status=Game.DONE)
        ]
        met = opponent_shares(games)
        slow, newcomer_id = versions[0], versions[3]
        assert set(met[slow]) == set(versions) - {slow}, f"slow met only {dict(met[slow])}"
        assert set(met[newcomer_id]) == set(versions) - {newcomer_id}, dict(met[newcomer_id])
        for version, against in met.items():
            total = sum(against.values())
            even = total / (len(versions) - 1)
            # The spread rule's bound (its +1: the game that took it there), with the slack of
            # the versions' first games, when the newcomer was not there yet.
            assert max(against.values()) <= SPREAD * (even + 1) + 1, (version, dict(against))
