"""A person plays a bot in the browser: unrated games against a reference bot or a public version.

`open_table` checks who may play (a participant, or a visitor where the contest allows it), one
game per person at a time and a few an hour, and starts the game on a thread of this process:
a referee `Arena` runs the bot as the ladder does (the contest's isolation, its time per move),
and the person's seat is a `WebSeat` (`tournaments.web.live_table`). The page and the game meet
in the database, not in this process's memory, so any web process serves the page: the game's
thread writes what the page draws (`TableGame.state`, the legal moves the engine listed) and
takes the page's move from `TableGame.answer`; the engine checks it again before it is played.
The record is stored unrated; the replay viewer shows it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import close_old_connections, transaction
from django.utils import timezone

from tournaments.server.contests.models import Contest, Participant
from tournaments.server.ladder.logs import details_hidden
from tournaments.server.ladder.results import public_record
from tournaments.server.ladder.standings import active_versions
from tournaments.server.paths import hide_paths
from tournaments.server.submissions.models import Version
from tournaments.server.tables.models import TableGame
from tournaments.web.live_table import LiveTable, MoveRejected, WebSeat, outcome

log = logging.getLogger(__name__)

PER_HOUR = 10  # games a person may start in an hour
MOVE_SECONDS = 600.0  # the person's time per move; then the referee plays one for them
SYNC_SECONDS = 0.1  # how often the game's thread reads the page's move and writes the table
STALE = timedelta(seconds=30)  # a game whose thread has not written for this long is gone
HELLO_TIMEOUT = 30.0


class TableError(ValueError):
    """A game refused; the message says why and what to do."""


def opponents(contest: Contest, user: Any) -> list[Version]:
    """The versions a person may play: the reference bots, and every active version when the
    leaderboard is public."""
    from tournaments.server.visibility import results_open

    everyone = results_open(contest, user)
    return [v for v in active_versions(contest=contest) if v.participant.staff_bot or everyone]


def refusal(contest: Contest, user: Any) -> str | None:
    """Why this person may not play the contest's bots (None: they may), said before the
    form: a table is for two, and a contest that takes no visitors is played by its teams'
    members and its organisers."""
    if contest.players != 2:
        return f"{contest.name} plays {contest.players}-player games: a person plays only 2"
    if user.is_authenticated and (user.is_staff or _team(contest, user) is not None):
        return None
    if contest.visitors_may_play:
        return None
    if user.is_authenticated:
        return (
            f"{contest.name}'s bots are played by its participants and organisers, and your "
            f"account is in none of its teams"
        )
    return f"sign in to play: {contest.name}'s bots are played by its participants"


def _team(contest: Contest, user: Any) -> Participant | None:
    return Participant.objects.filter(contest=contest, members=user).first()


def person_name(user: Any) -> str:
    """The person's name at the table and in its record: their own (their team's name is
    their bot's, on the leaderboard), or "visitor"."""
    if not user.is_authenticated:
        return "visitor"
    return str(user.get_full_name() or user.get_username())[:64]


def _who(contest: Contest, user: Any, session_key: str) -> tuple[Participant | None, str]:
    why = refusal(contest, user)
    if why is not None:
        raise TableError(why)
    if user.is_authenticated:
        participant = _team(contest, user)
        if participant is not None:
            return participant, ""
        if user.is_staff:
            return None, f"staff:{user.pk}"
    if not session_key:
        raise TableError("your browser kept no session: allow this site's cookie and try again")
    return None, session_key


@transaction.atomic
def open_table(
    contest: Contest, user: Any, session_key: str, opponent_id: int, seat: int
) -> TableGame:
    """Start a game of the person against the version `opponent_id` (TableError if not)."""
    participant, visitor = _who(contest, user, session_key)
    mine = TableGame.objects.select_for_update().filter(
        contest=contest, participant=participant, visitor=visitor
    )
    _end_stale(mine)
    if mine.filter(status=TableGame.PLAYING).exists():
        raise TableError("you are playing a game already: finish it (or leave it) first")
    if mine.filter(created__gt=timezone.now() - timedelta(hours=1)).count() >= PER_HOUR:
        raise TableError(f"at most {PER_HOUR} games an hour: try again later")
    # The site-wide count under one lock, the first contest's row (PostgreSQL; SQLite writes
    # one at a time): two requests at once cannot both see one game below the cap and both
    # start one. Only this one row is locked here, so no lock order can deadlock.
    Contest.objects.select_for_update().order_by("pk").first()
    playing = TableGame.objects.filter(status=TableGame.PLAYING)
    _end_stale(playing)
    if playing.count() >= settings.TABLES:
        raise TableError(
            f"the server is playing {settings.TABLES} browser games, as many as it plays at "
            f"once: try again in a few minutes"
        )
    opponent = next((v for v in opponents(contest, user) if v.pk == opponent_id), None)
    if opponent is None:
        raise TableError("pick a bot from the list (that one is not playing in this contest)")
    name = person_name(user)
    if name == opponent.participant.name:
        name += " (you)"
    table = TableGame.objects.create(
        contest=contest,
        participant=participant,
        visitor=visitor,
        name=name,
        opponent=opponent,
        seat=1 if seat == 1 else 0,
        seed=secrets.randbelow(2**31),
    )
    transaction.on_commit(lambda: start(table.pk))
    return table


def _end_stale(tables: Any) -> None:
    tables.filter(status=TableGame.PLAYING, seen__lt=timezone.now() - STALE).update(
        status=TableGame.ABANDONED, finished=timezone.now()
    )


def may_see(table: TableGame, user: Any, session_key: str) -> bool:
    """Only the person who plays it sees a table while it is played."""
    if table.participant is not None:
        return bool(user.is_authenticated and table.participant.members.filter(pk=user.pk))
    if table.visitor.startswith("staff:"):
        return bool(user.is_authenticated and table.visitor == f"staff:{user.pk}")
    return bool(session_key) and secrets.compare_digest(table.visitor, session_key)


def of_person(contest: Contest, user: Any, session_key: str) -> Any:
    """The person's tables in `contest`, newest first (what `may_see` lets them open)."""
    from django.db.models import Q

    tables = TableGame.objects.filter(contest=contest)
    if user.is_authenticated:
        mine = Q(participant__members=user) | Q(participant=None, visitor=f"staff:{user.pk}")
    elif session_key:
        mine = Q(participant=None, visitor=session_key)
    else:
        return tables.none()
    return tables.filter(mine).select_related("opponent__participant").order_by("-pk")


def answer(table_id: int, move: Any) -> str:
    """The page's move for the table's pending question: accepted if the engine listed it
    (the game's thread checks it again before playing it)."""
    table = TableGame.objects.filter(pk=table_id).first()
    if table is None or table.status != TableGame.PLAYING:
        raise MoveRejected("the game is over")
    if not isinstance(move, str) or len(move) > 16:
        raise MoveRejected("send a move in notation, such as 1B3")
    legal = {m["move"].upper(): m["move"] for m in table.state.get("legal") or []}
    chosen = legal.get(move.strip().upper())
    if chosen is None:
        raise MoveRejected(f"{move.strip()[:16]} is not a legal move here; pick a listed one")
    # Tagged with the position it answers: a late answer is never played at a later question.
    if not TableGame.objects.filter(pk=table_id, answer="", status=TableGame.PLAYING).update(
        answer=f"{table.state.get('ply', 0)}:{chosen}"
    ):
        raise MoveRejected("a move is being played already: wait for the bot's answer")
    return chosen


def start(table_id: int) -> threading.Thread:
    """Play the table's game on a thread of this process."""
    thread = threading.Thread(target=_run, args=(table_id,), daemon=True, name=f"table-{table_id}")
    thread.start()
    return thread


def _run(table_id: int) -> None:
    try:
        table = TableGame.objects.select_related("contest", "opponent__participant").get(
            pk=table_id
        )
        record, live = asyncio.run(_play(table))
        _write(table_id, live)
        TableGame.objects.filter(pk=table_id).update(
            status=TableGame.DONE, record=record, finished=timezone.now()
        )
    except Exception as exc:
        log.exception("table %s could not be played", table_id)
        TableGame.objects.filter(pk=table_id).update(
            status=TableGame.FAILED,
            finished=timezone.now(),
            state={"result": {"text": hide_paths(f"the game could not be played: {exc}")[:300]}},
        )
    finally:
        close_old_connections()


async def _play(table: TableGame) -> tuple[dict[str, Any], LiveTable]:
    """The game, through a referee Arena with the bot sandboxed as on the ladder; the page's
    moves read from the database meanwhile. Its record."""
    from referee import Arena, FaultPolicy, MatchConfig, strongest
    from sdk.client import play as play_seat

    contest = table.contest
    bot = table.opponent.participant.name
    names = [bot, bot]
    names[table.seat] = table.name
    limits: list[float | None] = [None, None]
    limits[table.seat] = MOVE_SECONDS
    config = MatchConfig(
        ruleset=contest.ruleset,
        seed=table.seed,
        time_per_move=contest.time_per_move,
        seat_time_per_move=tuple(limits),
        fault_policy=FaultPolicy.RANDOM,
        max_strikes=3,
        options=contest.options(),
        anonymous=True,  # the person's name is not the bot's (nor its author's) to read
    )
    live = LiveTable(contest.ruleset, names, table.seat, table.seed, config.options)
    isolation = contest.isolation or strongest()
    async with Arena({bot: table.opponent.spec()}, isolation=isolation) as arena:
        token = f"{secrets.token_hex(6)}.{secrets.token_hex(12)}"
        human = asyncio.ensure_future(arena.connect_remote(token, HELLO_TIMEOUT))
        await asyncio.sleep(0)
        seat_thread = threading.Thread(
            target=play_seat, args=(WebSeat(live), arena.address, token), daemon=True
        )
        seat_thread.start()
        workers: list[Any] = [None, None]
        workers[table.seat] = await human
        workers[1 - table.seat] = await arena.acquire(bot)
        sync = asyncio.ensure_future(asyncio.to_thread(_sync, table.pk, live))
        result = None
        try:
            result = await arena.play(names, config, on_event=live.on_event, bots=workers)
        finally:
            # The referee's ranks: a seat that forfeited is last whatever its score.
            live.finish(
                outcome(names, result.scores, result.ranks)
                if result is not None
                else {"text": f"{' vs '.join(names)}: the game could not be finished."}
            )
            await sync
        # The seat's stream closes with the Arena: expected now, not worth a warning.
        logging.getLogger("sdk").setLevel(logging.ERROR)
    return stored_record(result.record, names, table.seat), live


def stored_record(record: dict[str, Any], names: list[str], seat: int) -> dict[str, Any]:
    """A browser game's record as its replay shows it to the person who played it, as a
    ladder game's is shown: no server path (the bot's entry is its folder), and of the bot's
    faults only their kind (their detail is its log: its team's to read); the person's own
    seat's in full, and no bot named at it."""
    shown = details_hidden(public_record(record, names), {seat})
    bots = (shown.get("referee") or {}).get("bots")
    if isinstance(bots, list) and seat < len(bots) and isinstance(bots[seat], dict):
        # The person's seat was played by the page, not by a bot (its SDK seat says "human 1").
        bots = [dict(b) if isinstance(b, dict) else b for b in bots]
        bots[seat].update(name="", version="")
        shown = {**shown, "referee": {**shown["referee"], "bots": bots}}
    return shown


def _sync(table_id: int, live: LiveTable) -> None:
    """Until the game ends: the page's move to the seat, the table's state to the page."""
    written: tuple[Any, ...] | None = None
    last_write = 0.0
    try:
        while True:
            snap = live.snapshot()
            key = (snap["ply"], snap["your_turn"], bool(snap["result"]))
            if key != written or time.monotonic() - last_write > STALE.total_seconds() / 3:
                _write(table_id, live)
                written, last_write = key, time.monotonic()
            if snap["result"]:
                return
            move = TableGame.objects.filter(pk=table_id).values_list("answer", flat=True).first()
            if move:
                TableGame.objects.filter(pk=table_id).update(answer="")
                ply, _, text = move.partition(":")
                try:
                    if ply == str(snap["ply"]):
                        live.submit(text)
                except MoveRejected:
                    pass  # an answer to a question already gone: the page asks again
            time.sleep(SYNC_SECONDS)
    finally:
        close_old_connections()


def _write(table_id: int, live: LiveTable) -> None:
    state = live.snapshot()
    TableGame.objects.filter(pk=table_id).update(state=state, seen=timezone.now())
