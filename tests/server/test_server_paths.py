"""No server path reaches a participant: a validation's reason, check details and log name the
bot's files as the bot sees them (/bot/bot.py), with only its own frames in a traceback, and
the organiser's export names no folder of the server's."""

from __future__ import annotations

import json
import sqlite3
import tarfile
from pathlib import Path

from django.conf import settings
from django.test import TransactionTestCase

from tests.server.helpers import CRASHING_BOT, participant, server_paths_in, zip_bytes
from tournaments.domain.entries import Entry
from tournaments.domain.schedule import ScheduledGame
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.finals.export import write_archive
from tournaments.server.finals.store import FinalStore
from tournaments.server.handins.models import HandIn
from tournaments.server.ladder.models import Game
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.validation import claim_next, validate

SYNTAX_ERROR_BOT = b"import sdk\n\n\nclass Broken(sdk.Bot)\n    pass\n"


def shown_to_the_participant(version: Version) -> str:
    """Everything the version's page and the API show of its validation."""
    details = [c["detail"] for c in version.checks]
    return "\n".join([version.reason, version.log_tail, *details])


class ValidationMessagesTests(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        _, self.who = participant("paula")

    def _validated(self, files: dict[str, bytes]) -> Version:
        version = submit(self.who, [zip_bytes(files)])
        claimed = claim_next()
        assert claimed is not None and claimed.pk == version.pk
        validate(claimed)
        version.refresh_from_db()
        return version

    def test_a_syntax_error_names_the_bots_line_and_no_server_path(self) -> None:
        version = self._validated({"bot.py": SYNTAX_ERROR_BOT})
        self.assertEqual(version.state, Version.FAILED)
        shown = shown_to_the_participant(version)
        self.assertEqual(server_paths_in(shown), [], shown)
        self.assertIn("SyntaxError", version.reason)
        self.assertIn("see the validation log on the version page", version.reason)
        self.assertIn('File "/bot/bot.py", line 4', version.log_tail)
        self.assertNotIn("sdk/run.py", version.log_tail, "the SDK's frames are not the bot's")

    def test_a_bot_raising_in_choose_move_shows_its_own_frames_only(self) -> None:
        version = self._validated({"crasher/bot.py": CRASHING_BOT})
        self.assertEqual(version.state, Version.FAILED)
        shown = shown_to_the_participant(version)
        self.assertEqual(server_paths_in(shown), [], shown)
        self.assertIn('File "/bot/bot.py", line 8, in choose_move', version.log_tail)
        self.assertIn("RuntimeError: this bot always crashes", version.log_tail)
        self.assertNotIn("sdk/client.py", version.log_tail, "the SDK's frames are not the bot's")


class ExportTests(TransactionTestCase):
    def test_the_exported_archive_names_no_server_path(self) -> None:
        contest = Contest.objects.create(slug="exported", name="exported")
        entries = []
        for name in ("team-a", "staff"):
            _, who = participant(name)
            who.contest = contest
            who.save()
            version = submit(who, [zip_bytes({"bot.py": CRASHING_BOT})])
            HandIn.objects.create(
                contest=contest, participant=who, version=version, at=version.uploaded
            )
            entries.append(Entry(name, version.spec()))
        team_a = Participant.objects.get(name="team-a")
        home = str(settings.HOME)
        # A final as `server contest final` leaves it: its entries are the versions' files,
        # its config names the logs' folder, a failed game's error a log file.
        store = FinalStore(contest)
        store.write_schedule(
            {"log_dir": f"{home}/logs", "db": str(store.path)},
            entries,
            [ScheduledGame(0, "g0", ("team-a", "staff"), 7, 0, 0, 0)],
        )
        games = store.pending_games()
        store.record_error(games[0], f"crash; see {home}/logs/team-a-1.log and /tmp/x.sock")
        Game.objects.create(
            contest=contest,
            status=Game.DONE,
            ruleset="azul",
            time_per_move=1.0,
            seed=7,
            record={"players": ["team-a", "staff"], "faults": [{"log": f"{home}/logs/a.log"}]},
        )
        out = Path(home) / "export.tar.gz"
        write_archive(contest, out, ladder_games=True)
        with tarfile.open(out) as tar:
            names = tar.getnames()
            texts = {
                name: tar.extractfile(name).read()  # type: ignore[union-attr]
                for name in names
                if tar.getmember(name).isfile()
            }
        db = Path(home) / "exported-final.db"
        db.write_bytes(texts["exported/final.db"])
        with sqlite3.connect(db) as conn:
            spec = conn.execute("SELECT spec FROM entries WHERE name = 'team-a'").fetchone()[0]
        self.assertEqual(spec, f"<server>/versions/{team_a.pk}/1/bot/bot.py")
        for name, data in texts.items():
            text = data.decode("utf-8", errors="replace")
            self.assertEqual(server_paths_in(text), [], name)
        ladder = Game.objects.get(kind=Game.LADDER)
        record = json.loads(texts[f"exported/games/ladder-{ladder.pk}.json"])
        self.assertEqual(record["faults"][0]["log"], "<server>/logs/a.log")
