"""A contest's final tournament: the versions handed in and the staff bots, fresh ratings.

It is an ordinary tournament (`tournaments.tournament`: the same store, schedule, runner and
report as `tournament run`), kept in the contest's folder (contests/<slug>/final.sqlite), so
`tournament report` reads it as it is. A round-robin (every group of `players`, each played
`final_games_per_pairing` times on one deal with the seats rotated) when the field is small
enough for it to cost no more games than the minimum asked; else adaptive pairing with every
entry playing at least `final_min_games` games. Playing it again resumes it.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import timezone
from rich.console import Console

from tournaments.entries import Entry
from tournaments.report import Report, build_report
from tournaments.runner import RunSummary
from tournaments.schedule import count_games
from tournaments.server.ladder.lifecycle import LifecycleError, hand_in
from tournaments.server.ladder.models import Contest, HandIn
from tournaments.store import Store
from tournaments.tournament import TournamentConfig, play, prepare


def final_path(contest: Contest) -> Path:
    return Path(settings.HOME) / "contests" / contest.label / "final.sqlite"


def final_entries(contest: Contest) -> list[tuple[HandIn, Entry]]:
    """Each hand-in and its tournament entry, named by its participant."""
    rows = (
        HandIn.objects.filter(contest=contest)
        .select_related("participant", "version__participant")
        .order_by("participant__name")
    )
    return [(h, Entry(h.participant.name, h.version.spec())) for h in rows]


def final_config(contest: Contest, entries: list[Entry]) -> TournamentConfig:
    n, players = len(entries), contest.players
    config = TournamentConfig(
        entries=entries,
        ruleset=contest.ruleset,
        players=players,
        time_per_move=contest.time_per_move,
        options=contest.options(),
        isolation=contest.isolation or None,
        games_per_pairing=contest.final_games_per_pairing,
    )
    round_robin = count_games(n, players, contest.final_games_per_pairing, False)
    needed = -(-n * contest.final_min_games // players)
    if round_robin > needed:
        # Adaptive: games in all rounded up to whole seat rotations.
        config.schedule = "adaptive"
        config.min_games = contest.final_min_games
        config.games = needed + (-needed) % players
    return config


def run_final(
    contest: Contest,
    concurrency: int = 2,
    console: Console | None = None,
    log_dir: Path | None = None,
) -> RunSummary:
    """Play (or resume) the final tournament; the contest is `final` from its start."""
    if contest.state not in (Contest.FROZEN, Contest.FINAL):
        raise LifecycleError(
            f"{contest.label} is {contest.state}: the final is played once the "
            f"contest is frozen (server contest set {contest.label} frozen)"
        )
    # Staff bots entered after the deadline take part with their active version.
    hand_in(contest, timezone.now(), contest.participants.filter(staff_bot=True))
    pairs = final_entries(contest)
    if len(pairs) < contest.players:
        raise LifecycleError(
            f"{contest.label} has {len(pairs)} versions handed in; a final of "
            f"{contest.players}-player games needs at least {contest.players}"
        )
    Contest.objects.filter(pk=contest.pk).update(state=Contest.FINAL)
    contest.state = Contest.FINAL
    path = final_path(contest)
    path.parent.mkdir(parents=True, exist_ok=True)
    config = final_config(contest, [e for _, e in pairs])
    with Store.open(path) as store:
        config, games = prepare(store, config)
        return play(
            store,
            config,
            games,
            concurrency,
            console or Console(quiet=True),
            log_dir=log_dir or path.parent / "logs",
            live=False,
        )


def final_done(contest: Contest) -> bool:
    """The final has been played to its end (every scheduled game recorded)."""
    path = final_path(contest)
    if not path.exists():
        return False
    with Store.open(path, create=False) as store:
        done, total = store.counts()
        config = store.config() or {}
        if config.get("schedule", "round-robin") == "round-robin":
            return total > 0 and done == total
        return done >= int(config.get("games") or 0)


def final_report(contest: Contest) -> Report:
    """The final tournament's report (fresh ratings from its games alone)."""
    path = final_path(contest)
    if not path.exists():
        raise LifecycleError(
            f"{contest.label} has no final tournament yet (server contest final {contest.label})"
        )
    with Store.open(path, create=False) as store:
        return build_report(store)


def staff_names(contest: Contest) -> list[str]:
    return sorted(contest.participants.filter(staff_bot=True).values_list("name", flat=True))
