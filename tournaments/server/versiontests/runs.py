"""Version tests: did v3 help over v2? A sequential test (`tournaments.domain.sprt`) of NEW against
BASE in duplicate pairs, played unrated by the ladder worker as one kind of its work, by the
contest's share of slot time (`worker.shares`).

Every version that passes validation is tested against its predecessor (the newest earlier
version of its participant that passed); a participant may ask for a test of its version
against any other version that passed in the contest (`request`, `compare_quota` a day). The
games are those of `bot compare` (`tournaments.domain.compare`): one deal played twice with NEW and
BASE exchanging seats (3-4 players: the other seats hold other participants' active versions,
the same in both games), scored NEW against BASE, read pair by pair in the order scheduled.

The worker asks for a test game (`next_game`) when tests are owed slot time by their share, or
when no ranked game can start. A contest spends at most `version_test_games` games on tests in
all; a test stops at its verdict or at its `max_games`. A game that failed for the
infrastructure leaves its pair out of the count (the pair's deal is not seen whole).
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from tournaments.domain.compare import CompareResult, CompareSpec, CompareTally, pair_games
from tournaments.domain.schedule import ScheduledGame
from tournaments.domain.sprt import SprtSettings
from tournaments.domain.store import SeatOutcome
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.ladder import results
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.standings import active_versions
from tournaments.server.submissions.models import Version
from tournaments.server.versiontests.models import VersionTest
from tournaments.server.visibility import results_open

VERDICT_WORDS = {"H1": "better", "H0": "not better", "inconclusive": "inconclusive"}


class CompareError(ValueError):
    """A version test refused; the message says why and what to do."""


@dataclass(frozen=True)
class TestView:
    """A test as pages and the API show it."""

    test: VersionTest
    result: CompareResult
    running: bool  # still scheduling games

    @property
    def line(self) -> str:
        return summary(self.test, self.result, self.running)

    def to_json(self) -> dict[str, Any]:
        return {
            "test": self.test.pk,
            "new": self.test.new.label,
            "base": self.test.base.label,
            "requested_by": self.test.requested_by.name if self.test.requested_by else None,
            "running": self.running,
            "max_games": self.test.max_games,
            "summary": self.line,
            **self.result.to_json(),
        }


def summary(test: VersionTest, result: CompareResult, running: bool) -> str:
    """'v3 vs v2: better, LLR 2.97 >= 2.94, +31 Elo +- 18, 412 games'."""
    where = result.llr_against_bounds()
    word = VERDICT_WORDS[result.verdict]
    if result.verdict == "inconclusive" and running:
        word = "undecided so far"
    name = test.new.label if test.new.participant_id != test.base.participant_id else None
    new = name or f"v{test.new.number}"
    base = test.base.label if name else f"v{test.base.number}"
    if not result.pairs:
        return f"{new} vs {base}: waiting for its first games, 0 games"
    low, high = result.elo_ci
    return (
        f"{new} vs {base}: {word}, {where}, {result.elo:+.0f} Elo +- {(high - low) / 2:.0f}, "
        f"{result.games} games"
    )


# -- the tally -------------------------------------------------------------------------------------
def tally(test: VersionTest) -> CompareResult:
    """Where the test stands: its finished games, pair by pair in the order scheduled."""
    settings = SprtSettings(test.elo0, test.elo1)  # alpha and beta: 0.05, as `bot compare`
    spec = CompareSpec(str(test.new_id), str(test.base_id), settings, test.max_games)
    counted = CompareTally(spec)
    games = list(test.games.order_by("pk").values_list("pk", "seed", "status"))
    pairs: dict[int, list[int]] = {}  # seed -> its games, in the order scheduled
    broken: set[int] = set()
    for pk, seed, status in games:
        pairs.setdefault(seed, []).append(pk)
        if status == Game.FAILED:
            broken.add(seed)
    ranks: dict[int, list[SeatOutcome]] = {}
    for game_id, version_id, score, rank in Seat.objects.filter(
        game__version_test=test, game__status=Game.DONE
    ).values_list("game_id", "version_id", "score", "rank"):
        # The scores too: the tally reports NEW's point margin beside the ranks' verdict.
        seat = SeatOutcome(str(version_id), score or 0, rank or 0)
        ranks.setdefault(game_id, []).append(seat)
    number = 0
    for seed, ids in pairs.items():
        if seed in broken:
            continue
        for rotation, game_id in enumerate(ids[:2]):
            if game_id in ranks:
                game = ScheduledGame(game_id, str(game_id), (), seed, number, number, rotation)
                counted.add(game, ranks[game_id])
        number += 1
    return counted.result()


def view(test: VersionTest) -> TestView:
    return TestView(test, tally(test), running=not test.verdict)


def tests_of(version: Version, user: Any) -> list[TestView]:
    """The tests of `version` as NEW that `user` may see: all when the contest's results are
    open to them or the version is theirs, else none (a test's outcome is a result)."""
    contest = Contest.of(version.participant)
    if not (results_open(contest, user) or version.participant.may_see_private(user)):
        return []
    tests = VersionTest.objects.filter(new=version).select_related(
        "new__participant", "base__participant", "requested_by"
    )
    return [view(t) for t in tests]


# -- what the worker asks ------------------------------------------------------------------------
def _predecessor(version: Version) -> Version | None:
    return (
        Version.objects.filter(
            participant_id=version.participant_id,
            number__lt=version.number,
            state=Version.PASSED,
        )
        .order_by("-number")
        .first()
    )


def ensure_automatic(contest: Contest) -> None:
    """A test for each version that passed (and may play) against its predecessor, once."""
    untested = (
        Version.objects.filter(
            participant__contest=contest, state=Version.PASSED, suspended="", number__gt=1
        )
        .exclude(pk__in=VersionTest.objects.filter(requested_by=None).values("new_id"))
        .order_by("pk")
    )
    for version in untested:
        base = _predecessor(version)
        if base is not None:
            VersionTest.objects.get_or_create(
                contest=contest, new=version, base=base, requested_by=None
            )


def _playable(version: Version) -> bool:
    return version.state == Version.PASSED and not version.suspended


def _close(test: VersionTest, verdict: str) -> None:
    test.verdict, test.finished = verdict, timezone.now()
    test.save(update_fields=["verdict", "finished"])


def stop(test: VersionTest) -> bool:
    """An organiser's stop: no more games, its verdict as it stands (undecided: inconclusive).
    Its games already scheduled are played and shown; False when it had stopped already."""
    if test.verdict:
        return False
    _close(test, tally(test).verdict)
    return True


def _budget_left(contest: Contest) -> bool:
    """Whether the contest's games for version tests allow one more pair."""
    used = Game.objects.filter(contest=contest, kind=Game.TEST).count()
    return used + 2 <= contest.version_test_games


def has_games_to_play(contest: Contest) -> bool:
    """Whether a test is open and the contest's budget allows it a pair (a read: the automatic
    tests are made by `ensure_automatic`, which the worker calls once a second)."""
    is_open = VersionTest.objects.filter(contest=contest, verdict="").exists()
    return is_open and _budget_left(contest)


def next_game(
    contest: Contest, seated: Collection[int], worker: str, rng: random.Random | None = None
) -> tuple[Game, list[Version]] | None:
    """Schedule the next duplicate pair of the test most in need of games and return its first
    game (the second is scheduled for `worker` too and played next, as a scheduled game), or
    None when no test can play now. `seated`: versions in scheduled games (not seated again).
    Called by the ladder worker, in its pick's transaction, when tests have the slot."""
    if not _budget_left(contest):
        return None
    ensure_automatic(contest)
    open_tests = (
        VersionTest.objects.filter(contest=contest, verdict="")
        .select_related("new__participant", "base__participant")
        .annotate(scheduled=Count("games"))
        .order_by("scheduled", "pk")
    )
    for test in open_tests:
        result = tally(test)
        if result.decided or test.scheduled + 2 > test.max_games:  # type: ignore[attr-defined]
            if result.decided or not _in_flight(test):
                _close(test, result.verdict)
            continue
        if not (_playable(test.new) and _playable(test.base)):
            continue  # waits: a suspension may be lifted
        if {test.new_id, test.base_id} & set(seated):
            continue
        fillers = _fillers(contest, test, seated, rng or random.Random())
        if fillers is None:
            continue
        return _schedule_pair(contest, test, fillers, worker)
    return None


def _in_flight(test: VersionTest) -> bool:
    return test.games.filter(status=Game.SCHEDULED).exists()


def _fillers(
    contest: Contest, test: VersionTest, seated: Collection[int], rng: random.Random
) -> list[Version] | None:
    """3-4 players: other participants' active versions, free now, for the other seats."""
    want = contest.players - 2
    if want <= 0:
        return []
    owners = {test.new.participant_id, test.base.participant_id}
    free = [
        v
        for v in active_versions(contest=contest)
        if v.participant_id not in owners and v.pk not in seated
    ]
    return rng.sample(free, want) if len(free) >= want else None


def _schedule_pair(
    contest: Contest, test: VersionTest, fillers: Sequence[Version], worker: str
) -> tuple[Game, list[Version]]:
    by_key = {str(v.pk): v for v in (test.new, test.base, *fillers)}
    spec = CompareSpec(str(test.new_id), str(test.base_id))
    pair = test.games.values("seed").distinct().count()
    seed = random.SystemRandom().randrange(2**31)
    played = []
    for planned in pair_games(spec, [str(v.pk) for v in fillers], contest.players, pair, 0, seed):
        seats = [by_key[key] for key in planned.seats]
        game = results.schedule(
            contest,
            seats,
            kind=Game.TEST,
            worker=worker,
            seed=planned.seed,
            version_test=test,
        )
        played.append((game, seats))
    return played[0]


# -- what a participant asks -------------------------------------------------------------------
_LABEL = re.compile(r"^\s*(?:(?P<name>[^\s:]+?)(?:\s+|-|:))?v?(?P<number>\d+)\s*$")


def parse_label(text: str, own: Participant) -> tuple[str, int]:
    """'ann v3', 'ann-v3', 'ann:3', or 'v3' / '3' (one's own): the participant and number."""
    match = _LABEL.match(text)
    if match is None:
        raise CompareError(
            f"{text!r} names no version: write NAME vN (e.g. 'ann v3'), or vN for your own"
        )
    return match["name"] or own.name, int(match["number"])


def used_today(participant: Participant, now: datetime | None = None) -> int:
    """Tests `participant` asked for in the last 24 hours (the quota's count)."""
    now = now or timezone.now()
    return VersionTest.objects.filter(
        requested_by=participant, created__gt=now - timedelta(days=1)
    ).count()


@transaction.atomic
def request(
    participant: Participant, base: str | None, new: int | None = None, user: Any = None
) -> TestView:
    """A test of `participant`'s version `new` (its active one if None) against `base` (a
    label; None: its own predecessor, the automatic test). Asking again for a test that exists
    returns it (not counted against the quota)."""
    Participant.objects.select_for_update().filter(pk=participant.pk).first()
    contest = Contest.of(participant)
    mine = _own_version(participant, new)
    if base is None:
        before = _predecessor(mine)
        if before is None:
            raise CompareError(f"{mine.label} has no earlier version that passed: name a BASE")
        ensure_automatic(contest)
        existing = VersionTest.objects.filter(new=mine, base=before).first()
        if existing is None:
            raise CompareError(f"{mine.label} is not tested yet: it may play only once it passed")
        return view(existing)
    theirs = _base_version(contest, participant, base, user)
    if theirs.pk == mine.pk:
        raise CompareError(f"{mine.label} against itself tells nothing: name another version")
    existing = VersionTest.objects.filter(new=mine, base=theirs).first()
    if existing is not None:
        return view(existing)
    _may_ask(contest, participant)
    test = VersionTest.objects.create(
        contest=contest, new=mine, base=theirs, requested_by=participant
    )
    return view(test)


def _own_version(participant: Participant, number: int | None) -> Version:
    if number is None:
        active = active_versions(participant)
        if not active:
            raise CompareError(f"{participant.name} has no version that passed validation")
        return active[0]
    version = Version.objects.filter(participant=participant, number=number).first()
    if version is None or version.state != Version.PASSED:
        raise CompareError(
            f"{participant.name} has no version {number} that passed validation: see "
            "`azul-arena contest versions`"
        )
    return version


def _base_version(contest: Contest, participant: Participant, label: str, user: Any) -> Version:
    name, number = parse_label(label, participant)
    version = (
        Version.objects.filter(participant__contest=contest, participant__name=name, number=number)
        .select_related("participant")
        .first()
    )
    if version is None or version.state != Version.PASSED:
        raise CompareError(
            f"no version {name} v{number} that passed validation in {contest.label}: "
            "name one from the leaderboard"
        )
    if version.participant_id != participant.pk and not results_open(contest, user):
        raise CompareError(
            f"{contest.label}'s standings are hidden until its results: test against your "
            "own versions only"
        )
    return version


def _may_ask(contest: Contest, participant: Participant) -> None:
    if contest.state != Contest.OPEN:
        raise CompareError(
            f"{contest.label} is {contest.state}: version tests are played while it is open"
        )
    used = used_today(participant)
    if used >= contest.compare_quota:
        raise CompareError(
            f"{participant.name} has asked for {used} version tests in the last 24 hours, the "
            f"contest's limit is {contest.compare_quota}; ask again tomorrow"
        )
    if not _budget_left(contest):
        raise CompareError(
            f"{contest.label} has spent its {contest.version_test_games} games for version "
            "tests: ask the organisers to raise it"
        )
