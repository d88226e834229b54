"""The browser game's rules on the server (`tables.play`, `web.tables`), with Django's test
client: who may play, one game at a time, a few an hour, only listed opponents, moves the engine
listed, and nobody else's table. (The games themselves are played in chromium:
test_play_browser.py; here the game's thread is not started, as TestCase never commits.)"""

from __future__ import annotations

import json

from django.test import Client, TestCase

from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
from tournaments.server.contests.models import Contest
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.tables import play as tables
from tournaments.server.tables.models import TableGame

PASSWORD = "a long enough pass 7"


class TableRules(TestCase):
    def setUp(self) -> None:
        self.ann_user, self.ann = participant("ann", PASSWORD)
        _, self.ref = participant("ref-random", PASSWORD)
        self.ref.staff_bot = True
        self.ref.save()
        _, self.bob = participant("bob", PASSWORD)
        self.ref_v, self.bob_v = self.passed(self.ref), self.passed(self.bob)

    def passed(self, who: object) -> Version:
        v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])  # type: ignore[arg-type]
        Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
        enter(v)
        return Version.objects.get(pk=v.pk)

    def ann_client(self) -> Client:
        client = Client()
        client.force_login(self.ann_user)
        return client

    def start(self, client: Client, opponent: int) -> object:
        return client.post("/play/", {"opponent": opponent, "seat": 0})

    def test_a_visitor_plays_only_where_the_contest_allows_it(self) -> None:
        visitor = Client()
        refused = self.start(visitor, self.ref_v.pk)
        assert refused.status_code == 400 and b"sign in to play" in refused.content
        assert not TableGame.objects.exists()
        Contest.objects.filter(pk=Contest.current().pk).update(visitors_may_play=True)
        started = self.start(visitor, self.ref_v.pk)
        table = TableGame.objects.get()
        assert started.status_code == 302 and started["Location"] == f"/tables/{table.pk}/"
        assert table.participant is None and table.visitor and table.name == "visitor"
        assert visitor.get(f"/tables/{table.pk}/").status_code == 200
        # Another visitor, or a participant, does not see it.
        assert Client().get(f"/tables/{table.pk}/state").status_code == 404
        assert self.ann_client().get(f"/tables/{table.pk}/").status_code == 404

    def test_one_game_at_a_time_and_a_few_an_hour(self) -> None:
        ann = self.ann_client()
        assert self.start(ann, self.ref_v.pk).status_code == 302
        again = self.start(ann, self.ref_v.pk)
        assert again.status_code == 400 and b"playing a game already" in again.content
        for _ in range(tables.PER_HOUR - 1):
            TableGame.objects.update(status=TableGame.DONE)
            assert self.start(ann, self.ref_v.pk).status_code == 302
        TableGame.objects.update(status=TableGame.DONE)
        limited = self.start(ann, self.ref_v.pk)
        assert limited.status_code == 400 and b"games an hour" in limited.content

    def test_the_server_plays_a_bounded_number_of_browser_games_at_once(self) -> None:
        # Everyone's together: accounts alone (one game each) must not multiply them.
        from django.test import override_settings

        with override_settings(TABLES=2):
            players = [participant(f"p{i}", PASSWORD)[0] for i in range(3)]
            clients = []
            for user in players:
                client = Client()
                client.force_login(user)
                clients.append(client)
            assert self.start(clients[0], self.ref_v.pk).status_code == 302
            assert self.start(clients[1], self.ref_v.pk).status_code == 302
            full = self.start(clients[2], self.ref_v.pk)
            assert full.status_code == 400 and b"as many as it plays at once" in full.content
            TableGame.objects.filter(participant__name="p0").update(status=TableGame.DONE)
            assert self.start(clients[2], self.ref_v.pk).status_code == 302

    def test_a_played_games_record_names_no_server_path_nor_the_bots_fault_details(self) -> None:
        from django.conf import settings

        folder = f"{settings.HOME}/versions/7/3/bot/bot.py"
        record = {
            "players": ["ann", folder],
            "referee": {
                "entries": ["ann", folder],
                "faults": [
                    {"ply": 9, "seat": 1, "fault": "crash", "detail": f"KeyError at {folder}:4"},
                    {"ply": 4, "seat": 0, "fault": "timeout", "detail": "no move in 600 s"},
                ],
            },
        }
        stored = tables.stored_record(record, ["ann", "ref-random"], seat=0)
        text = json.dumps(stored)
        assert str(settings.HOME) not in text and "KeyError" not in text
        assert stored["referee"]["entries"] == ["ann", "ref-random"]
        assert [f["fault"] for f in stored["referee"]["faults"]] == ["crash", "timeout"]
        assert stored["referee"]["faults"][1]["detail"] == "no move in 600 s"  # the person's own

    def test_only_the_listed_bots_are_played(self) -> None:
        ann = self.ann_client()
        page = ann.get("/play/")
        assert b"ref-random" in page.content and b"bob" in page.content
        assert self.start(ann, 987654).status_code == 400
        # A contest hiding its standings offers only the reference bots.
        Contest.objects.filter(pk=Contest.current().pk).update(visibility=Contest.HIDDEN)
        assert [v.pk for v in tables.opponents(Contest.current(), self.ann_user)] == [self.ref_v.pk]
        refused = self.start(ann, self.bob_v.pk)
        assert refused.status_code == 400 and b"pick a bot from the list" in refused.content

    def test_moves_the_engine_did_not_list_are_refused(self) -> None:
        ann = self.ann_client()
        self.start(ann, self.ref_v.pk)
        table = TableGame.objects.get()
        url = f"/tables/{table.pk}/move"

        def post(body: str, kind: str = "application/json") -> tuple[int, str]:
            reply = ann.post(url, body, content_type=kind)
            return reply.status_code, json.loads(reply.content).get("error", "")

        # As the game's thread writes it: the position's legal moves, by the engine.
        TableGame.objects.filter(pk=table.pk).update(
            state={"ply": 4, "your_turn": True, "legal": [{"move": "1B1", "words": "..."}]}
        )
        assert post('{"move": "9Z9"}')[1].startswith("9Z9 is not a legal move")
        assert post("<script>")[0] == 400
        assert post('{"move": "1B1"}', "text/plain")[0] == 400
        assert post('{"move": ["1B1"]}')[0] == 400
        assert post('{"move": "1b1"}') == (200, "")
        # Tagged with its position; a second answer waits for the first to be played.
        assert TableGame.objects.get().answer == "4:1B1"
        assert "being played" in post('{"move": "1B1"}')[1]
        assert json.loads(ann.get(f"/tables/{table.pk}/state").content)["your_turn"] is False
        TableGame.objects.update(status=TableGame.DONE)
        assert "over" in post('{"move": "1B1"}')[1]

    def test_a_visitor_is_told_before_the_form_that_the_contest_wants_a_sign_in(self) -> None:
        page = Client().get("/play/").content.decode()
        assert 'id="play-form"' not in page, "no form that the server would refuse"
        refused = page[page.index('id="play-refused"') :]
        assert "Sign in to play" in refused
        assert 'href="/login/?next=/play/"' in refused and 'href="/signup/"' in refused
        # The contest's title, not its slug; and an allowed visitor gets the form.
        assert "a bot of Azul Arena ladder" in page and "of default" not in page
        Contest.objects.filter(pk=Contest.current().pk).update(visitors_may_play=True)
        page = Client().get("/play/").content.decode()
        assert 'id="play-form"' in page and 'id="play-refused"' not in page

    def test_the_person_plays_under_their_own_name_in_the_sites_page(self) -> None:
        self.ann.name = "ann-bots"  # the team: its bots' name on the leaderboard
        self.ann.save()
        ann = self.ann_client()
        self.start(ann, self.ref_v.pk)
        table = TableGame.objects.get()
        assert table.name == "ann", "the person, not their team"
        self.ann_user.first_name, self.ann_user.last_name = "Ann", "Lee"
        self.ann_user.save()
        TableGame.objects.update(status=TableGame.DONE)
        self.start(ann, self.ref_v.pk)
        assert TableGame.objects.order_by("-pk").first().name == "Ann Lee"
        # The board is the site's page: its header and navigation stay.
        page = ann.get(f"/tables/{table.pk}/").content.decode()
        assert "<header>" in page and 'href="/play/"' in page and 'id="play-config"' in page

    def test_the_replay_names_no_bot_at_the_persons_seat(self) -> None:
        record = {
            "players": ["Ann Lee", "ref-random"],
            "referee": {
                "entries": ["token:abc", "ref"],
                "bots": [{"name": "human", "version": "1"}, {"name": "random", "version": "2"}],
            },
        }
        stored = tables.stored_record(record, ["Ann Lee", "ref-random"], seat=0)
        assert [(b["name"], b["version"]) for b in stored["referee"]["bots"]] == [
            ("", ""),
            ("random", "2"),
        ]
        assert record["referee"]["bots"][0]["name"] == "human", "the record given is unchanged"
