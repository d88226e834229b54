"""A contest's final tournament: the versions handed in and the staff bots, fresh ratings.

It is an ordinary tournament (`tournaments.domain.tournament`: the same schedule, runner and
report as `tournament run`), stored in the server's database as the ladder's games are
(`finals.store`: each game a `Game` of kind `final`, its seats' logs per game as theirs), so
its games have their pages and logs, and the export writes it out as a tournament database that
`tournament report` reads. Its format is the contest's `final_format`: a
round-robin (every group of `players`, each played `final_games_per_pairing` times on one deal
with the seats rotated); adaptive pairing with every entry playing at least `final_min_games`
games; `auto`, the first when the field is small enough for it to cost no more games than the
second, else the second; or graded (`tournaments.domain.rounds`): each team against each staff bot
`final_graded_games` times on shared deals, then `final_ranking_games` each among the teams by
adaptive pairing, at a cost linear in the class. Playing it again resumes it.

One process plays it at a time: the one that moved the contest to `final` (an organiser's
`server contest final`, or a ladder worker, which awaits it beside its games once the contest
is frozen), named in `Contest.final_runner`. Another takes it over only when that process is
gone. `start_final` claims it (the database's part), `play_final` plays it (a coroutine);
`run_final` is both, to its end.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from referee import run_loop
from tournaments.domain.entries import Entry
from tournaments.domain.progress import OnProgress, ignore
from tournaments.domain.report import Report, build_report
from tournaments.domain.rounds import games_for, graded_games
from tournaments.domain.runner import RunSummary
from tournaments.domain.schedule import count_games, count_graded
from tournaments.domain.store import GameStore
from tournaments.domain.tournament import TournamentConfig, prepare, run_tournament
from tournaments.server.contests.lifecycle import LifecycleError, extended, move
from tournaments.server.contests.models import Contest, Transition
from tournaments.server.finals.status import final_done
from tournaments.server.finals.store import FinalStore, final_folder
from tournaments.server.handins.decisions import final_is_due, hand_in, receiving, settle, undecided
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.coordination import runner_alive, runner_name
from tournaments.server.submissions.models import Version

if TYPE_CHECKING:
    from tournaments.domain.cluster import ClusterOptions


def final_entries(contest: Contest) -> list[tuple[HandIn, Entry]]:
    """Each hand-in and its tournament entry, named by its participant."""
    rows = (
        HandIn.objects.filter(contest=contest, version__isnull=False)
        .select_related("participant", "version__participant")
        .order_by("participant__name")
    )
    return [(h, Entry(h.participant.name, h.version.spec())) for h in rows if h.version]


def final_config(contest: Contest, entries: list[Entry]) -> TournamentConfig:
    n, players = len(entries), contest.players
    config = TournamentConfig(
        entries=entries,
        # As the ladder's games (no build timeout: the final's versions were built already).
        match=replace(contest.match_settings(), build_timeout=None),
        players=players,
        games_per_pairing=contest.final_games_per_pairing,
    )
    kind = format_played(contest, n)
    if kind == Contest.ADAPTIVE:
        config.schedule = "adaptive"
        config.min_games = contest.final_min_games
        config.games = games_for(n, contest.final_min_games, players)
    elif kind == Contest.GRADED:
        _graded(
            config, contest.final_graded_games, contest.final_ranking_games, staff_names(contest)
        )
    return config


def format_played(contest: Contest, entries: int) -> str:
    """How the final of `contest` is played with `entries`: its `final_format`, `auto` made a
    round-robin when that costs no more games than every entry playing `final_min_games`,
    else adaptive."""
    if contest.final_format != Contest.AUTO:
        return contest.final_format
    players = contest.players
    round_robin = count_games(entries, players, contest.final_games_per_pairing, False)
    needed = -(-entries * contest.final_min_games // players)
    return Contest.ADAPTIVE if round_robin > needed else Contest.ROUND_ROBIN


def _graded(config: TournamentConfig, per_bot: int, ranking: int, staff: list[str]) -> None:
    """Make `config` graded: each team plays each staff bot of the field (each group of them)
    `per_bot` games, then `ranking` games each among the teams."""
    graders = [e.name for e in config.entries if e.name in staff]
    teams, players = len(config.entries) - len(graders), config.players
    config.schedule = "graded"
    config.graders = graders
    config.games_per_pairing = per_bot
    config.min_games = count_graded(1, len(graders), players, per_bot) + ranking
    config.games = graded_games(teams, len(graders), players, per_bot, ranking)


def claim_final(contest: Contest, by: str, take_over: bool = False) -> None:
    """Make this process the final's one player: frozen -> final (recorded with `by`), or a
    final whose player is gone taken over. With `take_over` (an organiser's command), a player
    on another machine is taken to be gone too. LifecycleError when another process plays it."""
    me = runner_name()
    move(contest, Contest.FROZEN, Contest.FINAL, by, final_runner=me)
    contest.refresh_from_db()
    if contest.state != Contest.FINAL:
        raise LifecycleError(f"{contest.label} is {contest.state}: no final to play")
    current = contest.final_runner
    if current == me or final_done(contest):
        return  # a final played to its end has nothing left to take over
    alive = runner_alive(current) if current else False
    if alive or (alive is None and not take_over):
        raise LifecycleError(
            f"the final of {contest.label} is being played by {current}; stop that process "
            f"first (a process on another machine: stop it, then run this command again with "
            f"--take-over)"
        )
    # Conditional on the player seen: of two processes taking over at once, one does.
    if not Contest.objects.filter(pk=contest.pk, state=Contest.FINAL, final_runner=current).update(
        final_runner=me
    ):
        raise LifecycleError(f"another process took over the final of {contest.label} just now")
    contest.final_runner = me
    Transition.objects.create(
        contest=contest,
        before=Contest.FINAL,
        after=Contest.FINAL,
        by=f"{by} (resumed; {current or 'nobody'} had stopped)",
    )


@dataclass(frozen=True)
class ClaimedFinal:
    """A final this process plays: its contest and its tournament."""

    contest: Contest
    config: TournamentConfig


def start_final(contest: Contest, by: str = "an organiser", take_over: bool = True) -> ClaimedFinal:
    """Claim the final for this process (the contest is `final` from here): the database work
    before its games, which a ladder worker does on its database thread. LifecycleError when
    the contest has no final to play, or another process plays it."""
    contest.refresh_from_db()
    _refuse_unready(contest)
    # Staff bots entered after the deadline take part with their active version, handed in
    # as the final starts, in the transaction that claims it, under a lock on the contest's
    # row (SQLite: the database's write lock): of two processes starting it at once, the
    # one refused hands in nothing. A resume hands in nothing either: the field of a final
    # is the one it started with.
    with transaction.atomic():
        contest.refresh_from_db(from_queryset=Contest.objects.select_for_update())
        if contest.state == Contest.FROZEN:
            hand_in(contest, timezone.now(), contest.participants.filter(staff_bot=True))
            _field(contest)  # a final too small to play is refused before it is claimed
        claim_final(contest, by, take_over)
    pairs = _field(contest)
    return ClaimedFinal(contest, final_config(contest, [e for _, e in pairs]))


async def play_final(
    claimed: ClaimedFinal,
    concurrency: int = 2,
    on_progress: OnProgress = ignore,
    log_dir: Path | None = None,
    cluster: ClusterOptions | None = None,
    into: GameStore | None = None,
) -> RunSummary:
    """Play (or resume) a claimed final's games, on this machine or on the Dask `cluster`
    (as `tournament run --cluster`: a lost worker's games are played again elsewhere and
    stored once); cancelled, the games not played stay pending and the next claim resumes
    them. `into`: another store to play the same final into (a benchmark's, to compare ways
    of playing it), not the contest's."""
    with FinalStore(claimed.contest) as final:
        store = into or final
        config, games = prepare(store, claimed.config)
        return await run_tournament(
            store,
            config,
            games,
            concurrency=concurrency,
            on_progress=on_progress,
            log_dir=log_dir or final_folder(claimed.contest) / "logs",
            cluster=cluster,
            # Each game's own files, as the ladder's games' (by the game's id).
            seat_logs=final.seat_logs if into is None else None,
        )


Guard = Callable[[Coroutine[Any, Any, RunSummary]], Coroutine[Any, Any, RunSummary]]


def run_final(
    contest: Contest,
    concurrency: int = 2,
    on_progress: OnProgress = ignore,
    log_dir: Path | None = None,
    by: str = "an organiser",
    take_over: bool = True,
    cluster: ClusterOptions | None = None,
    guard: Guard | None = None,
) -> RunSummary:
    """Play (or resume) the final tournament to its end in this thread, watched by
    `on_progress`; `guard`, if given, wraps the run (a shell's command stops it on SIGINT or
    SIGTERM: `tournaments.terminal.running.until_signal`, `RunSummary.interrupted`)."""
    claimed = start_final(contest, by, take_over)
    playing = play_final(claimed, concurrency, on_progress, log_dir, cluster)
    return run_loop(guard(playing) if guard else playing)


def _refuse_unready(contest: Contest) -> None:
    """LifecycleError, saying what to do, when the final of `contest` cannot start now."""
    label = contest.label
    if contest.state in (Contest.DRAFT, Contest.OPEN):
        raise LifecycleError(
            f"{label} is {contest.state}: its final is played after the deadline (the ladder "
            f"worker starts it), or freeze it now: server contest set {label} frozen"
        )
    if contest.state == Contest.CLOSED:
        raise LifecycleError(
            f"{label} is closed: its final is over and its results published "
            f"(server export-results {label})"
        )
    if contest.state == Contest.FROZEN:
        settle(contest)
        waiting = undecided(contest)
        if waiting:
            raise LifecycleError(
                f"{len(waiting)} hand-ins of {label} wait for a validation ("
                + ", ".join(f"{n} v{v.number}" if v else n for n, v in waiting[:5])
                + "); the final starts once they are decided: keep a ladder worker running "
                f"(server ladder --contest {label})"
            )
        if extended(contest, timezone.now()):
            raise LifecycleError(
                f"{label} has extensions still running: its final starts once they have passed "
                f"(server contest show {label})"
            )
        if receiving(contest, timezone.now()):
            raise LifecycleError(
                f"{label}'s last deadline is less than {settings.UPLOAD_GRACE_SECONDS} s ago: "
                f"an upload received before it may still be being stored; start the final "
                f"again in a minute"
            )


def _field(contest: Contest) -> list[tuple[HandIn, Entry]]:
    """The final's (hand-in, entry) pairs; LifecycleError when too few for one game, or for
    a graded final."""
    pairs = final_entries(contest)
    if len(pairs) < contest.players:
        raise LifecycleError(
            f"{contest.label} has {len(pairs)} versions handed in; a final of "
            f"{contest.players}-player games needs at least {contest.players}"
        )
    if format_played(contest, len(pairs)) == Contest.GRADED:
        bots = sum(1 for h, _ in pairs if h.participant.staff_bot)
        _refuse_ungradable(contest, bots, len(pairs) - bots)
    return pairs


def _refuse_ungradable(contest: Contest, bots: int, teams: int) -> None:
    """LifecycleError, saying what to do, when a graded final has too few staff bots to grade
    against (a staff bot plays the final once a version of it has passed validation), or no
    team to grade."""
    label, need = contest.label, contest.players - 1
    if bots < need:
        raise LifecycleError(
            f"the final of {label} is graded (each team against each staff bot), but it has "
            f"{bots} staff bots with a version that passed validation; a "
            f"{contest.players}-player graded final needs at least {need}: add one with "
            f"`server contest staff-bot {label} NAME --reference greedy`, or choose another "
            f"format: `server contest set {label} --final-format auto`"
        )
    if teams < 1:
        raise LifecycleError(f"the final of {label} is graded, but no team handed in a version")


def final_wanted(contest: Contest) -> bool:
    """A ladder worker should start (or resume) the final: the contest is frozen, every
    extension has passed and the last deadline is `UPLOAD_GRACE_SECONDS` behind
    (`handins.final_is_due`); or its final is unfinished and its player is gone from this
    machine (or there is none)."""
    if contest.state == Contest.FROZEN:
        return final_is_due(contest) and _field_ready(contest)
    if contest.state != Contest.FINAL or final_done(contest):
        return False
    return not contest.final_runner or runner_alive(contest.final_runner) is False


def _field_ready(contest: Contest) -> bool:
    """No version of the contest waits for validation (a staff bot entered late plays in the
    final once it has passed), and there are enough entries for one game."""
    if Version.objects.filter(
        participant__contest=contest, state__in=(Version.PENDING, Version.VALIDATING)
    ).exists():
        return False
    entries = (
        contest.participants.filter(handins__contest=contest, handins__version__isnull=False)
        | contest.participants.filter(staff_bot=True, versions__state=Version.PASSED)
    ).distinct()
    return entries.count() >= contest.players


def final_report(contest: Contest) -> Report:
    """The final tournament's report (fresh ratings from its games alone)."""
    store = FinalStore(contest)
    if not store.exists():
        raise LifecycleError(
            f"{contest.label} has no final tournament yet (server contest final {contest.label})"
        )
    return build_report(store)


def staff_names(contest: Contest) -> list[str]:
    return sorted(contest.participants.filter(staff_bot=True).values_list("name", flat=True))
