"""A contest's results for the organisers: the grades' CSV and the archive of every game.

`standings_csv` is the final tournament's leaderboard (fresh ratings from the final's games
alone, as `tournament show` reports them) with what a grade needs: the team's members, the
version it handed in with its hash and why, its faults, and its win rate against each staff
bot (finishing ahead = 1, level = 1/2) with its 95% Wilson interval; the teams that handed in
nothing follow, unranked, with why. `write_archive` adds the final as a tournament database of
its own (`tournament report --db final.db`; written from the server's rows, `write_store`) and
its games' records as JSON files that `replay verify` checks (the ladder's and challenges' too
when asked: thousands in a term). Nothing in it names a server path (`tournaments.server.paths`):
the final's database has them replaced (its entries' files, its config, its errors), as have the
records.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import sqlite3
import tarfile
import tempfile
from pathlib import Path

from tournaments.domain.report import Report, wilson
from tournaments.domain.store import GameOutcome, Store
from tournaments.server.contests.lifecycle import LifecycleError
from tournaments.server.contests.models import Contest
from tournaments.server.finals.play import final_report, staff_names
from tournaments.server.finals.status import final_status
from tournaments.server.finals.store import FinalStore
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.models import Game
from tournaments.server.paths import hide_in, replacements


def staff_win_rates(report: Report, team: str, bot: str) -> tuple[float, float, float, int]:
    """(rate, low, high, games) of `team` against `bot` in the final; nan when they never met."""
    cell = report.crosstable.get((team, bot))
    if cell is None or cell.games == 0:
        nan = float("nan")
        return nan, nan, nan, 0
    score = cell.wins + 0.5 * cell.draws
    low, high = wilson(score, cell.games)
    return score / cell.games, low, high, cell.games


HEADER = [
    "rank",
    "team",
    "staff_bot",
    "members",
    "handed_in",
    "version_sha256",
    "why",
    "mu",
    "sigma",
    "games",
    "mean_score",
    "faults",
    "fault_kinds",
]


def standings_rows(contest: Contest) -> tuple[list[str], list[list[str]]]:
    """The final's leaderboard, every team of the contest with it: a team that handed in
    nothing (or whose hand-in is not decided) is listed after it, unranked, with why. Faults
    per team (`fault_kinds`: crash:12 timeout:1), so a crasher's zero is told from a weak bot."""
    report = final_report(contest)
    bots = staff_names(contest)
    handins = {
        h.participant.name: h
        for h in HandIn.objects.filter(contest=contest).select_related("participant", "version")
    }
    members = {
        p.name: " ".join(sorted(m.username for m in p.members.all()))
        for p in contest.participants.prefetch_related("members")
    }
    header = list(HEADER)
    for bot in bots:
        header += [
            f"win_rate_vs_{bot}",
            f"win_rate_vs_{bot}_low",
            f"win_rate_vs_{bot}_high",
            f"games_vs_{bot}",
        ]
    rows = []
    for r in report.leaderboard:
        row = [str(r.rank), r.entry, "yes" if r.entry in bots else "no", members.get(r.entry, "")]
        row += _handed_in(handins.get(r.entry))
        row += [f"{r.mu:.4f}", f"{r.sigma:.4f}", str(r.games), f"{r.mean_score:.2f}"]
        row += [str(r.faults), " ".join(f"{k}:{n}" for k, n in r.fault_kinds.items())]
        for bot in bots:
            rate, low, high, n = staff_win_rates(report, r.entry, bot)
            row += (
                ["", "", "", "0"]
                if n == 0 or bot == r.entry
                else [f"{rate:.4f}", f"{low:.4f}", f"{high:.4f}", str(n)]
            )
        rows.append(row)
    ranked = {r.entry for r in report.leaderboard}
    for name in sorted(set(members) - ranked):
        handin = handins.get(name)
        row = ["", name, "yes" if name in bots else "no", members[name]]
        row += _handed_in(handin) if handin else ["none", "", "no hand-in decided"]
        rows.append(row + ["", "", "0", "", "0", ""] + ["", "", "", "0"] * len(bots))
    return header, rows


def _handed_in(handin: HandIn | None) -> list[str]:
    """handed_in, version_sha256 and why of a team's row."""
    if handin is None:
        return ["", "", ""]
    version = f"v{handin.version.number}" if handin.version else "none"
    return [version, handin.sha256, handin.note]


def standings_csv(contest: Contest) -> str:
    header, rows = standings_rows(contest)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    tar.addfile(info, io.BytesIO(data))


def hide_paths_in_db(path: Path) -> None:
    """Replace the server's paths in every text of the SQLite database at `path` (a copy)."""
    pairs = replacements()
    with contextlib.closing(sqlite3.connect(path)) as db:
        # One file, no WAL beside it: what the archive takes is all of it.
        db.execute("PRAGMA journal_mode = DELETE")
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        with db:
            for table in tables:
                for column in [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]:
                    for server, shown in pairs:
                        db.execute(
                            f'UPDATE "{table}" SET "{column}" = replace("{column}", ?, ?) WHERE '
                            f'typeof("{column}") = \'text\' AND instr("{column}", ?) > 0',
                            (server, shown, server),
                        )
        db.execute("VACUUM")  # no old text left in its free pages


def write_store(final: FinalStore, path: Path) -> None:
    """The final as a tournament database file at `path` (new), as `tournament run` writes
    one: its run key, entries and schedule, and each game done with its seats, record, time
    and machine. LifecycleError when the final has not started."""
    config = final.config()
    if config is None:
        label = final.contest.label
        raise LifecycleError(f"{label} has no final tournament yet (server contest final {label})")
    games = list(final.games())
    records = final.records()
    with Store.open(path) as out:
        out.write_schedule(config, final.entries(), [g.game for g in games])
        for g in games:
            if g.status == "done":
                record = records.get(g.game.game_id, {})
                out.record(g.game, GameOutcome(g.seats, record, g.duration or 0.0, g.machine))
        with out.transaction() as c:
            # As they happened, not as they were copied.
            c.executemany(
                "UPDATE games SET finished_at = ?, attempts = ?, last_error = ? WHERE idx = ?",
                [(g.finished_at, g.attempts, g.last_error, g.game.index) for g in games],
            )
        changes = final.entry_changes()
        if changes:
            out.set_meta("entry_changes", json.dumps(changes))


def write_archive(contest: Contest, out: Path, ladder_games: bool = False) -> int:
    """contest.tar.gz: standings.csv, contest.json, final.db and games/*.json (the final's,
    and with `ladder_games` the ladder's and challenges' too); the number of game records
    written. contest.json says where the final was (`final`: a partial export's is not done)."""
    count = 0
    status = final_status(contest)
    with tarfile.open(out, "w:gz") as tar, tempfile.TemporaryDirectory() as tmp:
        _add(tar, f"{contest.label}/standings.csv", standings_csv(contest).encode())
        about = {
            "contest": contest.label,
            "partial": not status.finished,
            "final": status.as_json() | {"runner": None},
            "name": contest.name,
            "ruleset": contest.ruleset,
            "options": contest.options(),
            "players": contest.players,
            "time_per_move": contest.time_per_move,
            "deadline": contest.deadline.isoformat() if contest.deadline else None,
            "handins": [
                {
                    "team": h.participant.name,
                    "version": h.version.number if h.version else None,
                    "sha256": h.sha256 or None,
                    "at": h.at.isoformat(),
                    "why": h.note,
                }
                for h in HandIn.objects.filter(contest=contest).select_related(
                    "participant", "version"
                )
            ],
        }
        _add(tar, f"{contest.label}/contest.json", json.dumps(about, indent=1).encode())
        copy = Path(tmp) / "final.db"
        write_store(FinalStore(contest), copy)
        hide_paths_in_db(copy)
        tar.add(copy, f"{contest.label}/final.db")
        with Store.open(copy, create=False) as store:
            for g in store.games(done_only=True):
                record = store.replay(g.game.game_id)
                if record is not None:
                    _add(
                        tar,
                        f"{contest.label}/games/final-{g.game.game_id}.json",
                        json.dumps(hide_in(record)).encode(),
                    )
                    count += 1
        games = Game.objects.filter(
            contest=contest, status=Game.DONE, record__isnull=False
        ).exclude(kind=Game.FINAL)  # those are in the final's files above
        for game in games.iterator() if ladder_games else ():
            _add(
                tar,
                f"{contest.label}/games/{game.kind}-{game.pk}.json",
                json.dumps(hide_in(game.record)).encode(),
            )
            count += 1
    return count
