"""A ladder game's bot logs are its own, per seat, named by the server's ids: real ladder games
through a real worker (the referee, the bots' processes, the sandbox where the machine has it)
and the log page and API through Django's test client."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from django.conf import settings
from django.test import Client, TransactionTestCase

from tests.server.helpers import participant, run_worker, zip_bytes
from tournaments.domain.store import GameOutcome, SeatOutcome
from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.logs import game_folder, seat_log
from tournaments.server.ladder.models import Game, Seat
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.worker.loop import LadderWorker

# A bot that writes its secret (its author's name, baked into its file) and the game's id at
# the start and each move, and the names the referee told it.
TELLER = b"""import sys

import sdk

SECRET = "__SECRET__"


class Teller(sdk.Bot):
    name = "teller"

    def on_game_start(self, info):
        self.line = f"secret of {SECRET} in game {info.game_id}"
        print(self.line, file=sys.stderr, flush=True)
        print(f"told names {'/'.join(info.names)}", file=sys.stderr, flush=True)

    def choose_move(self, state):
        print(self.line, file=sys.stderr, flush=True)
        return state.legal_moves()[0]


if __name__ == "__main__":
    sdk.run(Teller)
"""
# Alike in their first 40 characters and more: file names cut to 40 would join them.
ALIKE = "a-participant-whose-name-is-long-enough-to"


def secrets_in(text: str) -> set[tuple[str, str]]:
    return set(re.findall(r"secret of ([\w-]+) in game (\d+)", text))


class LadderLogs(TransactionTestCase):
    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        self.users = {}
        for name in (f"{ALIKE}-ann", f"{ALIKE}-ben"):
            user, who = participant(name)
            bot = TELLER.replace(b"__SECRET__", name.encode())
            version = submit(who, [zip_bytes({"bot.py": bot})])
            Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
            enter(version)
            self.users[name] = user

    def test_each_seat_reads_its_own_log_of_that_game_alone(self) -> None:
        # Two workers one after the other (a restart): their counters would start again.
        for _ in range(2):
            stats = run_worker(LadderWorker(max_games=1, validate=False, poll=0.05))
            self.assertEqual(stats.played, 1, stats)
        games = list(Game.objects.filter(status=Game.DONE))
        self.assertEqual(len(games), 2)
        files = set()
        for game in games:
            for seat in game.seats.select_related("version__participant").order_by("seat"):
                mine = seat.version.participant.name
                self.assertEqual(seat.log, str(seat_log(game.pk, seat.seat)))
                files.add(seat.log)
                client = Client()
                client.force_login(self.users[mine])
                page = client.get(f"/games/{game.pk}/log/{seat.seat}").content.decode()
                _, token = ApiToken.issue(self.users[mine])
                api = client.get(
                    f"/api/games/{game.pk}/logs", headers={"Authorization": f"Bearer {token}"}
                ).json()
                self.assertEqual([s["seat"] for s in api["seats"]], [seat.seat], "its own seat")
                for text in (page, api["seats"][0]["log"]):
                    # Its own bot's lines of this game, nothing of the other's, nor of another game.
                    self.assertEqual(secrets_in(text), {(mine, str(game.pk))}, text[-300:])
                    # Told its seat, not who sits where: no friend or rival to pick out by name.
                    told = re.findall(r"told names (.*)", text)
                    self.assertEqual(told, ["seat 1/seat 2"], text[-300:])
        self.assertEqual(len(files), 4, "a file per game and seat")

    def test_a_stored_path_outside_its_games_folder_is_not_read(self) -> None:
        """Another game's file, or a bot process's log (as stored before logs were per game):
        neither is shown, though both are in the logs folder."""
        versions = list(Version.objects.order_by("pk"))
        from tournaments.server.ladder import results

        game = results.schedule(Contest.current(), versions)
        other = seat_log(game.pk + 1, 0)
        process_log = Path(settings.HOME) / "logs" / f"{ALIKE}-ben-v1-1.log"
        for path in (other, process_log):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"secret of {versions[1].entry_name} in game 0\n")
        outcome = GameOutcome(
            seats=[
                SeatOutcome(versions[0].entry_name, 10, 1, log=str(other)),
                SeatOutcome(versions[1].entry_name, 5, 2, log=str(process_log)),
            ],
            record={"ruleset": "azul"},
            duration=1.0,
        )
        results.record(game.pk, outcome)
        for seat in Seat.objects.filter(game=game).select_related("version__participant"):
            client = Client()
            client.force_login(self.users[seat.version.participant.name])
            page = client.get(f"/games/{game.pk}/log/{seat.seat}")
            self.assertEqual(page.status_code, 200)
            self.assertNotIn("secret of", page.content.decode())
        self.assertFalse(game_folder(game.pk).exists())

    def test_a_seat_reads_its_own_file_only_not_another_seats_of_the_same_game(self) -> None:
        """A stored path naming the other seat's file of the same game (a row written wrongly,
        or by hand) shows nothing: a log page reads exactly its seat's own file."""
        versions = list(Version.objects.order_by("pk"))
        from tournaments.server.ladder import results

        game = results.schedule(Contest.current(), versions)
        self.addCleanup(shutil.rmtree, game_folder(game.pk), ignore_errors=True)
        theirs = seat_log(game.pk, 1)
        theirs.parent.mkdir(parents=True, exist_ok=True)
        theirs.write_text(f"secret of {versions[1].entry_name}\n")
        outcome = GameOutcome(
            seats=[
                SeatOutcome(versions[0].entry_name, 10, 1, log=str(theirs)),
                SeatOutcome(versions[1].entry_name, 5, 2, log=str(theirs)),
            ],
            record={"ruleset": "azul"},
            duration=1.0,
        )
        results.record(game.pk, outcome)
        shown = {}
        for seat in Seat.objects.filter(game=game).select_related("version__participant"):
            client = Client()
            client.force_login(self.users[seat.version.participant.name])
            page = client.get(f"/games/{game.pk}/log/{seat.seat}")
            self.assertEqual(page.status_code, 200)
            shown[seat.seat] = "secret of" in page.content.decode()
        self.assertEqual(shown, {0: False, 1: True})


# Says its last words, naming its author and the game, then crashes on its first move.
LAST_WORDS = b"""import sys

import sdk

SECRET = "__SECRET__"


class LastWords(sdk.Bot):
    name = "last-words"

    def on_game_start(self, info):
        self.line = f"secret of {SECRET} in game {info.game_id}"

    def choose_move(self, state):
        print(self.line, file=sys.stderr, flush=True)
        raise RuntimeError("last words said, this bot crashes")


if __name__ == "__main__":
    sdk.run(LastWords)
"""


class ClusterLadderLogs(TransactionTestCase):
    """Games played on a Dask cluster's worker processes: each seat's log of its game comes
    back to the ladder's own file, read through the same pages as a local game's."""

    def setUp(self) -> None:
        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        self.users = {}
        for name, bot in (("teller-ann", TELLER), ("crasher-cat", LAST_WORDS)):
            user, who = participant(name)
            version = submit(
                who, [zip_bytes({"bot.py": bot.replace(b"__SECRET__", name.encode())})]
            )
            Version.objects.filter(pk=version.pk).update(state=Version.PASSED)
            enter(version)
            self.users[name] = user

    def test_the_seats_logs_of_a_game_played_on_a_cluster_reach_its_pages(self) -> None:
        import os
        import tempfile
        from unittest import mock

        import pytest

        pytest.importorskip("distributed", reason="dask[distributed] is in the dev extras")
        from tournaments.domain.cluster import ClusterOptions

        cache = Path(tempfile.mkdtemp(prefix="arena-cluster-cache-"))
        self.addCleanup(shutil.rmtree, cache, ignore_errors=True)
        # The worker processes inherit it: their bots' logs and the games' files go there.
        with mock.patch.dict(os.environ, {"AZUL_ARENA_CACHE": str(cache)}):
            cluster = ClusterOptions(workers=1, threads=1)
            worker = LadderWorker(max_games=2, validate=False, poll=0.05, cluster=cluster)
            stats = run_worker(worker)
        self.assertEqual((stats.played, stats.infrastructure_failures), (2, 0), stats)
        games = list(Game.objects.filter(status=Game.DONE))
        self.assertEqual(len(games), 2)
        for game in games:
            for seat in game.seats.select_related("version__participant").order_by("seat"):
                mine = seat.version.participant.name
                self.assertEqual(seat.log, str(seat_log(game.pk, seat.seat)), "its own file here")
                client = Client()
                client.force_login(self.users[mine])
                page = client.get(f"/games/{game.pk}/log/{seat.seat}").content.decode()
                _, token = ApiToken.issue(self.users[mine])
                api = client.get(
                    f"/api/games/{game.pk}/logs", headers={"Authorization": f"Bearer {token}"}
                ).json()
                self.assertEqual([s["seat"] for s in api["seats"]], [seat.seat], "its own seat")
                for text in (Path(seat.log).read_text(), page, api["seats"][0]["log"]):
                    # Its own bot's lines of this game: nothing of the other's, nor another game's
                    # (the teller's process plays both games on the worker).
                    self.assertEqual(secrets_in(text), {(mine, str(game.pk))}, text[-300:])
                    if mine == "crasher-cat":
                        self.assertEqual(seat.termination, "crash")
                        self.assertIn("last words said, this bot crashes", text)
        # The worker's copies of the games' logs went once read; its bots' own logs stay.
        self.assertEqual(list(cache.glob("logs/*/game-*")), [])
        self.assertTrue(list(cache.glob("logs/*/*.log")), "the worker's bots' own logs")
