"""The organisers' operations on contests, as the commands (`server init`, `server contest
create`, `server import-class`) and any other caller make them: typed arguments in, what was
made out, and `ContestError` with a message that says what was wrong and what to do (nothing is
changed when one is raised). Django must be set up (`tournaments.server.setup`).

The steps of a contest's life that act on versions and games (freeze, extensions, the final,
the results) are the worker app's services (`tournaments.server.worker.services`), which see
every kind of work."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug

from tournaments.server.contests import classlist
from tournaments.server.contests.models import Contest


class ContestError(ValueError):
    """A contest operation refused; the message says why and what would do."""


class MailError(ContestError):
    """The class is imported and its links written, but mailing them failed."""


@dataclass(frozen=True)
class ContestSettings:
    """What a new contest is played with and when (`create_contest`); UTC dates."""

    name: str = ""
    ruleset: str = "azul"
    players: int = 2
    time_per_move: float = 1.0
    build_timeout: int = 120
    ruleset_options: dict[str, str] = field(default_factory=dict)  # the family's schema checks
    isolation: str = ""
    opens: datetime | None = None
    deadline: datetime | None = None
    closes: datetime | None = None
    final_min_games: int = 30
    final_games_per_pairing: int = 2
    final_format: str = "auto"  # Contest.FINAL_FORMATS
    final_graded_games: int = 12
    final_ranking_games: int = 10
    hidden: bool = False
    signup: str = "open"  # open, code (with `signup_code`) or closed (class list only)
    signup_code: str = ""
    keep_logs_days: int = 0  # days a game's bot logs are kept (0: for ever; ladder.retention)


@dataclass(frozen=True)
class ClassImport:
    """What `import_class` did: counts of accounts and teams, the links file, mails sent."""

    created: int
    updated: int
    teams_created: int
    links: int
    links_file: Path
    mailed: int

    def as_json(self) -> dict[str, Any]:
        return {
            "created": self.created,
            "updated": self.updated,
            "teams_created": self.teams_created,
            "links": self.links,
            "links_file": str(self.links_file),
            "mailed": self.mailed,
        }


def find_contest(slug: str | None) -> Contest:
    """The contest `slug` (None: the default contest); ContestError naming the contests there
    are when there is none of that name."""
    if slug is None:
        return Contest.current()
    found = Contest.objects.filter(slug=slug).first()
    if found is None:
        known = ", ".join(s for s in Contest.objects.values_list("slug", flat=True) if s)
        raise ContestError(
            f"no contest {slug!r}; contests: {known or 'none'} (server contest create)"
        )
    return found


def _checked(contest: Contest) -> Contest:
    """`contest` saved if a game could be played with its settings; else ContestError."""
    try:
        contest.clean()
    except ValidationError as exc:
        raise ContestError("; ".join(exc.messages)) from None
    contest.save()
    return contest


def create_contest(slug: str, settings: ContestSettings) -> Contest:
    """A new contest `slug`: a draft until `settings.opens` when it has that date, else open."""
    try:
        validate_slug(slug)
    except ValidationError:
        raise ContestError(f"contest name {slug!r} must be letters, digits, - and _") from None
    if Contest.objects.filter(slug=slug).exists():
        raise ContestError(f"a contest {slug!r} exists already (server contest show {slug})")
    signup_settings(settings.signup, settings.signup_code or None)
    return _checked(
        Contest(
            slug=slug,
            name=settings.name or slug,
            ruleset=settings.ruleset,
            players=settings.players,
            time_per_move=settings.time_per_move,
            build_timeout=settings.build_timeout,
            ruleset_options=dict(settings.ruleset_options),
            isolation=settings.isolation,
            opens=settings.opens,
            deadline=settings.deadline,
            closes=settings.closes,
            final_min_games=settings.final_min_games,
            final_games_per_pairing=settings.final_games_per_pairing,
            final_format=settings.final_format,
            final_graded_games=settings.final_graded_games,
            final_ranking_games=settings.final_ranking_games,
            visibility=Contest.HIDDEN if settings.hidden else Contest.PUBLIC,
            state=Contest.DRAFT if settings.opens else Contest.OPEN,
            signup=settings.signup,
            signup_code=settings.signup_code,
            keep_logs_days=settings.keep_logs_days,
        )
    )


def configure_default(
    ruleset: str | None = None,
    players: int | None = None,
    time_per_move: float | None = None,
    ruleset_options: dict[str, str] | None = None,
) -> Contest:
    """The default contest with the settings given changed (None: left as it is; options given
    are added to its own), checked."""
    contest = Contest.current()
    if ruleset is not None:
        contest.ruleset = ruleset
    if players is not None:
        contest.players = players
    if time_per_move is not None:
        contest.time_per_move = time_per_move
    if ruleset_options:
        contest.ruleset_options = {**contest.ruleset_options, **ruleset_options}
    return _checked(contest)


def set_log_retention(contest: Contest, days: int) -> None:
    """How many days the bot logs of a game of `contest` are kept once it has ended (0: for
    ever); the ladder worker deletes older ones within the hour (ladder.retention)."""
    if days < 0:
        raise ContestError(f"logs are kept 0 days (for ever) or more, not {days}")
    contest.keep_logs_days = days
    contest.save(update_fields=["keep_logs_days"])


def set_build_timeout(contest: Contest, seconds: int) -> None:
    """The longest a version's build may take in `contest` (its validation fails past it)."""
    if seconds < 1:
        raise ContestError(f"a build timeout is at least 1 second, not {seconds}")
    contest.build_timeout = seconds
    contest.save(update_fields=["build_timeout"])


@dataclass(frozen=True)
class GameChange:
    """A change of what a contest's games are played with (None: unchanged). Its workers play
    the next game they schedule with it, without a restart."""

    ruleset: str | None = None
    time_per_move: float | None = None
    options: dict[str, str] | None = None
    isolation: str | None = None  # "" for the strongest the workers' machines offer

    def asked(self) -> bool:
        fields = (self.ruleset, self.time_per_move, self.options, self.isolation)
        return any(value is not None for value in fields)


ISOLATIONS = ("", "none", "process", "sandbox")


def set_game_settings(contest: Contest, change: GameChange) -> None:
    """Change the ruleset, its options, the time a move and/or the isolation of `contest`'s
    games; ContestError (nothing changed) when no game could be played with them."""
    if change.isolation is not None and change.isolation not in ISOLATIONS:
        raise ContestError(
            f"isolation {change.isolation!r} is not one of none, process, sandbox (or empty: "
            "the strongest the workers' machines offer)"
        )
    names = ("ruleset", "time_per_move", "ruleset_options", "isolation")
    before = {name: getattr(contest, name) for name in names}
    for name, value in (
        ("ruleset", change.ruleset),
        ("time_per_move", change.time_per_move),
        ("ruleset_options", change.options),
        ("isolation", change.isolation),
    ):
        if value is not None:
            setattr(contest, name, value)
    if change.ruleset is not None and change.options is None:
        contest.ruleset_options = {}  # another ruleset's options would not apply
    try:
        _checked(contest)
    except ContestError:
        for name, value in before.items():
            setattr(contest, name, value)
        raise


def set_shares(contest: Contest, shares: dict[str, int]) -> None:
    """The workers' slot time by kind of work (ranked, challenge, analysis, test: weights from
    the next pick on); ContestError naming the kinds for an unknown one."""
    kinds = contest.shares()
    for kind, weight in shares.items():
        if kind not in kinds:
            raise ContestError(f"no kind of work {kind!r}: the kinds are {', '.join(kinds)}")
        if not 0 <= weight <= 100 or (kind == "ranked" and weight < 1):
            least = 1 if kind == "ranked" else 0
            raise ContestError(f"the {kind} share is a whole number from {least} to 100")
    fields = [f"{kind}_share" for kind in shares]
    for kind, weight in shares.items():
        setattr(contest, f"{kind}_share", weight)
    contest.save(update_fields=fields)


def signup_settings(signup: str, code: str | None, current_code: str = "") -> tuple[str, str]:
    """(signup, code) checked: one of `Contest.SIGNUPS`; an invitation code with `code` sign-up
    (`current_code` kept when none is given) and with no other."""
    signups = [value for value, _ in Contest.SIGNUPS]
    if signup not in signups:
        raise ContestError(f"sign-up {signup!r} is not one of {', '.join(signups)}")
    if signup != Contest.CODE:
        if code:
            raise ContestError("--signup-code goes with --signup code, and only with it")
        return signup, ""
    code = code if code is not None else current_code
    if not code:
        raise ContestError("--signup code takes --signup-code CODE, the code to give out")
    longest = Contest._meta.get_field("signup_code").max_length or 64
    if code != code.strip() or len(code) > longest:
        # The sign-up form strips what is typed and takes at most that many characters: such a
        # code could never be matched.
        raise ContestError(
            f"an invitation code is at most {longest} characters, with no space at either end"
        )
    return signup, code


def set_signup(contest: Contest, signup: str | None, code: str | None) -> None:
    """Who may make an account on the site (`signup`: open, code, closed; None: as it is) and
    the invitation code of `code` sign-up (None: the one it has). Closing sign-up stops new
    accounts; the accounts made stay."""
    current = contest.signup
    signup, code = signup_settings(
        signup or current, code, contest.signup_code if current == Contest.CODE else ""
    )
    contest.signup, contest.signup_code = signup, code
    contest.save(update_fields=["signup", "signup_code"])


def set_final_games(contest: Contest, games: int) -> None:
    """Games per pairing of the final's round-robin (seats rotated on one deal): what the width
    of each team's win-rate interval against a staff bot depends on (docs/course.md). Only
    before the final starts."""
    if games < 1:
        raise ContestError(f"a final plays at least 1 game per pairing, not {games}")
    _refuse_started(contest)
    contest.final_games_per_pairing = games
    contest.save(update_fields=["final_games_per_pairing"])


@dataclass(frozen=True)
class FinalChange:
    """A change of how a contest's final is played (None: unchanged): its format
    (`Contest.FINAL_FORMATS`), and a graded final's games against each staff bot and then
    each team's among the teams."""

    final_format: str | None = None
    graded_games: int | None = None
    ranking_games: int | None = None

    def asked(self) -> bool:
        fields = (self.final_format, self.graded_games, self.ranking_games)
        return any(value is not None for value in fields)


def set_final_format(contest: Contest, change: FinalChange) -> None:
    """Change how the final of `contest` is played; only before it starts. A graded final's
    staff bots are checked when it starts (finals/play.py): they may be entered until then."""
    _refuse_started(contest)
    if change.graded_games is not None and change.graded_games < 1:
        raise ContestError(
            f"a graded final plays at least 1 game a staff bot, not {change.graded_games}"
        )
    if change.ranking_games is not None and change.ranking_games < 0:
        raise ContestError(
            f"a graded final's ranking games are 0 or more, not {change.ranking_games}"
        )
    for name, value in (
        ("final_format", change.final_format),
        ("final_graded_games", change.graded_games),
        ("final_ranking_games", change.ranking_games),
    ):
        if value is not None:
            setattr(contest, name, value)
    _checked(contest)


def _refuse_started(contest: Contest) -> None:
    if contest.state in (Contest.FINAL, Contest.CLOSED):
        raise ContestError(
            f"{contest.label} is {contest.state}: its final's games are set; change them "
            f"before the final starts"
        )


def import_class(
    csv_file: Path, contest: str | None, links: Path, base_url: str, send: bool = False
) -> ClassImport:
    """A class's accounts and teams in `contest` (None: the default) from a CSV of
    login,name,email,team; the one-time sign-up links written to `links` and, with `send`,
    mailed. A bad row: ContestError with its line, nothing applied. Importing again updates."""
    target = find_contest(contest)
    try:
        students = classlist.read(csv_file)
        result = classlist.apply(students, target, base_url)
    except classlist.ClassListError as exc:
        raise ContestError(f"{exc}; nothing was imported") from None
    classlist.write_links(result, students, links)
    try:
        sent = classlist.send(result, students, target.name) if send else 0
    except OSError as exc:  # smtplib's errors included: no mail server, refused, bad login
        raise MailError(
            f"the accounts are made and the links are in {links}, but mailing them failed "
            f"({exc}); set AZUL_ARENA_EMAIL_HOST and the other AZUL_ARENA_EMAIL_* "
            f"(docs/deployment.md), or send the links yourself"
        ) from None
    return ClassImport(
        created=len(result.created),
        updated=len(result.updated),
        teams_created=len(result.teams_created),
        links=len(result.links),
        links_file=links,
        mailed=sent,
    )


def about(contest: Contest) -> dict[str, Any]:
    """A contest's settings, dates, state, hand-ins, extensions and transitions, as JSON."""
    return {
        "contest": contest.label,
        "name": contest.name,
        "state": contest.state,
        "ruleset": contest.ruleset,
        "options": contest.options(),
        "players": contest.players,
        "time_per_move": contest.time_per_move,
        "build_timeout": contest.build_timeout,
        "isolation": contest.isolation or None,
        "visibility": contest.visibility,
        "signup": contest.signup,  # never the code: `contest show` is printed and logged
        "final_games_per_pairing": contest.final_games_per_pairing,
        "final_min_games": contest.final_min_games,
        "final_format": contest.final_format,
        "final_graded_games": contest.final_graded_games,
        "final_ranking_games": contest.final_ranking_games,
        "keep_logs_days": contest.keep_logs_days,
        **{
            k: (getattr(contest, k).isoformat() if getattr(contest, k) else None)
            for k in ("opens", "deadline", "closes")
        },
        "participants": contest.participants.filter(staff_bot=False).count(),
        "staff_bots": sorted(
            contest.participants.filter(staff_bot=True).values_list("name", flat=True)
        ),
        # handins: the ladder's table of the versions handed in, by its reverse name.
        "handed_in": contest.handins.count(),
        "extensions": [
            {
                "team": e.participant.name,
                "until": e.deadline.isoformat(),
                "reason": e.reason,
                "granted_by": e.granted_by,
            }
            for e in contest.extensions.select_related("participant")
        ],
        "transitions": [
            {"from": t.before, "to": t.after, "at": t.at.isoformat(), "by": t.by}
            for t in contest.transitions.all()
        ],
    }
