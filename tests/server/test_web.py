"""The pages and the CLI's API through Django's test client: sign-up, log in, CSRF, uploads,
tokens, and every way one participant might reach another's logs, sources and archives
(each must fail)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase

from tests.server.helpers import RANDOM_BOT, participant, played_record, zip_bytes
from tournaments.domain.store import GameOutcome, SeatOutcome
from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.ladder import results
from tournaments.server.ladder.logs import seat_log
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version

PASSWORD = "a long enough pass 7"


class Pages(TestCase):
    def setUp(self) -> None:
        self.alice_user, self.alice = participant("alice", PASSWORD)
        self.bob_user, self.bob = participant("bob", PASSWORD)
        self.va = self.passed(self.alice)
        self.vb = self.passed(self.bob)
        game = results.schedule(Contest.current(), [self.va, self.vb])
        # Where the ladder writes a game's logs (ladder.logs): by game id and seat.
        self.alice_log, self.bob_log = seat_log(game.pk, 0), seat_log(game.pk, 1)
        self.alice_log.parent.mkdir(parents=True, exist_ok=True)
        self.bob_log.write_text("bob's private thoughts: opening book v3\n")
        self.alice_log.write_text("alice says hello\n")
        record = played_record([self.va.entry_name, self.vb.entry_name])
        scores = record.get("final_scores") or [10, 5]
        outcome = GameOutcome(
            seats=[
                SeatOutcome(self.va.entry_name, int(scores[0]), 1, log=str(self.alice_log)),
                SeatOutcome(self.vb.entry_name, int(scores[1]), 2, log=str(self.bob_log)),
            ],
            record=record,
            duration=1.0,
        )
        results.record(game.pk, outcome)
        self.game = game

    def passed(self, who: Participant) -> Version:
        v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
        Version.objects.filter(pk=v.pk).update(state=Version.PASSED, log_tail="tail of " + who.name)
        enter(v)
        return Version.objects.get(pk=v.pk)

    def login(self, name: str, csrf: bool = False) -> Client:
        from django.contrib.auth import get_user_model

        client = Client(enforce_csrf_checks=csrf)
        client.force_login(get_user_model().objects.get(username=name))
        return client

    # -- public pages --------------------------------------------------------------------------
    def test_leaderboard_game_page_and_viewer_are_public(self) -> None:
        anon = Client()
        page = anon.get("/").content.decode()
        self.assertIn("alice", page)
        self.assertIn("bob", page)
        self.assertLess(page.index("alice"), page.index("bob"), "the winner ranks first")
        partial = anon.get("/", headers={"HX-Request": "true"}).content.decode()
        self.assertIn('id="leaderboard"', partial)
        self.assertNotIn("<html", partial)
        game = anon.get(f"/games/{self.game.pk}/").content.decode()
        self.assertIn('id="game-data"', game, "the replay viewer, in the page itself")
        self.assertNotIn("its log", game, "a visitor gets no log links")
        viewer = anon.get(f"/games/{self.game.pk}/viewer")
        self.assertEqual(viewer.status_code, 200)
        self.assertIn(b"game-data", viewer.content)

    def test_the_analysis_heading_always_has_something_under_it(self) -> None:
        visitor = Client().get(f"/games/{self.game.pk}/").content.decode()
        section = visitor[visitor.index("<h2>Analysis</h2>") : visitor.index("<h2>Replay</h2>")]
        self.assertIn(f'href="/login/?next=/games/{self.game.pk}/"', section)
        self.assertIn("Not analysed", section)
        # Someone signed in who may not ask for one sees no empty heading either.
        participant("carol", PASSWORD)
        carol = self.login("carol").get(f"/games/{self.game.pk}/").content.decode()
        self.assertNotIn("<h2>Analysis</h2>", carol)
        alice = self.login("alice").get(f"/games/{self.game.pk}/").content.decode()
        self.assertIn("Analyse this game", alice)

    def test_a_game_still_to_be_played_refreshes_its_page_until_it_is(self) -> None:
        scheduled = results.schedule(Contest.current(), [self.va, self.vb])
        url = f"/games/{scheduled.pk}/"
        page = Client().get(url).content.decode()
        self.assertIn('hx-trigger="every 5s"', page)
        self.assertIn("refreshes itself", page)
        polled = Client().get(url, headers={"HX-Request": "true"})
        self.assertEqual(polled.status_code, 200)
        self.assertNotIn("HX-Refresh", polled.headers)
        # Once played, the refresh gets the whole page again (the viewer's scripts must run).
        results.record(
            scheduled.pk,
            GameOutcome(
                seats=[
                    SeatOutcome(self.va.entry_name, 3, 1),
                    SeatOutcome(self.vb.entry_name, 1, 2),
                ],
                record=played_record([self.va.entry_name, self.vb.entry_name]),
                duration=1.0,
            ),
        )
        done = Client().get(url, headers={"HX-Request": "true"})
        self.assertEqual(done.headers.get("HX-Refresh"), "true")
        self.assertNotIn('hx-trigger="every 5s"', Client().get(url).content.decode())

    def test_the_version_that_plays_offers_a_pin_not_play_this_one(self) -> None:
        v2 = self.passed(self.alice)
        page = self.login("alice").get("/p/alice/").content.decode()
        rows = page[
            page.index('id="versions"') : page.index("</table>", page.index('id="versions"'))
        ]
        newest = rows[rows.index(f">v{v2.number}</a>") :].split("</tr>")[0]
        older = rows[rows.index(f">v{self.va.number}</a>") :].split("</tr>")[0]
        self.assertIn("(plays)", newest)
        self.assertNotIn("play this one", newest)
        self.assertIn("pin it", newest)
        self.assertIn("play this one", older)

    def test_empty_tables_span_all_their_columns(self) -> None:
        import re

        participant("dan", PASSWORD)
        for client in (Client(), self.login("dan")):
            page = client.get("/p/dan/").content.decode()
            for table in re.findall(r"<table.*?</table>", page, re.S):
                headers = len(re.findall(r"<th\b", table.split("</tr>")[0]))
                for span in re.findall(r'colspan="(\d+)"', table):
                    self.assertEqual(int(span), headers, table)

    def test_an_empty_log_says_why(self) -> None:
        seat = self.game.seats.get(seat=0)
        self.alice_log.write_text("")
        page = self.login("alice").get(f"/games/{self.game.pk}/log/0").content.decode()
        self.assertIn("its bot wrote nothing in this game", page)
        self.alice_log.unlink()
        page = self.login("alice").get(f"/games/{self.game.pk}/log/0").content.decode()
        self.assertIn("its log file is no longer in the server", page)
        seat.log = ""
        seat.save()
        page = self.login("alice").get(f"/games/{self.game.pk}/log/0").content.decode()
        self.assertIn("the server kept no log of this seat", page)
        self.assertNotIn("empty or no longer kept", page)

    def test_a_bots_crash_detail_in_the_replay_is_for_its_team_and_the_organisers(self) -> None:
        # A crash's detail is the bot's exception and its line of code; a dead process's, the
        # last line it printed: its log, not for the other seats or a visitor.
        self.game.refresh_from_db()
        record = dict(self.game.record)
        record["referee"] = {
            **record.get("referee", {}),
            "faults": [
                {
                    "ply": 4,
                    "seat": 1,
                    "fault": "crash",
                    "detail": "KeyError in bob_secret.py:12",
                    "forfeited": True,
                },
                {
                    "ply": 2,
                    "seat": 0,
                    "fault": "timeout",
                    "detail": "alice was late",
                    "forfeited": False,
                },
            ],
        }
        type(self.game).objects.filter(pk=self.game.pk).update(record=record)
        url = f"/games/{self.game.pk}/viewer"
        for client in (Client(), self.login("alice")):
            page = client.get(url).content.decode()
            self.assertIn('"crash"', page, "the kind of fault stays public")
            self.assertNotIn("bob_secret", page)
        self.assertIn("alice was late", self.login("alice").get(url).content.decode())
        self.assertNotIn("alice was late", Client().get(url).content.decode())
        self.assertIn("bob_secret", self.login("bob").get(url).content.decode())
        _staff_user, _ = participant("org", PASSWORD, staff=True)
        self.assertIn("bob_secret", self.login("org").get(url).content.decode())

    def test_a_games_server_error_is_for_the_organisers(self) -> None:
        type(self.game).objects.filter(pk=self.game.pk).update(
            status=type(self.game).FAILED,
            error='Traceback (most recent call last):\n  File "/srv/arena/worker.py"',
        )
        page = Client().get(f"/games/{self.game.pk}/").content.decode()
        self.assertIn("Not rated", page)
        self.assertNotIn("worker.py", page)
        _staff_user, _ = participant("org", PASSWORD, staff=True)
        self.assertIn(
            "worker.py", self.login("org").get(f"/games/{self.game.pk}/").content.decode()
        )

    def test_the_version_handed_in_cannot_be_pinned_past_the_deadline(self) -> None:
        from datetime import timedelta

        from django.utils import timezone

        alice = self.login("alice")
        alice.post("/p/alice/", {"pin": str(self.va.number)})
        self.assertEqual(Participant.objects.get(pk=self.alice.pk).pinned_id, self.va.pk)
        Contest.objects.filter(pk=self.alice.contest_id).update(
            deadline=timezone.now() - timedelta(seconds=1)
        )
        page = alice.post("/p/alice/", {"pin": "newest"}, follow=True).content.decode()
        self.assertIn("cannot be changed now", page)
        self.assertEqual(Participant.objects.get(pk=self.alice.pk).pinned_id, self.va.pk)

    def test_the_owner_reads_its_own_log_and_archive(self) -> None:
        alice = self.login("alice")
        log = alice.get(f"/games/{self.game.pk}/log/0")
        self.assertEqual(log.status_code, 200)
        self.assertIn(b"alice says hello", log.content)
        archive = alice.get(f"/p/alice/v/{self.va.number}/archive")
        self.assertEqual(archive.status_code, 200)
        self.assertEqual(b"".join(archive.streaming_content), self.va.archive_path().read_bytes())
        self.assertIn(b"tail of alice", alice.get(f"/p/alice/v/{self.va.number}/").content)

    def test_another_participants_log_source_and_archive_are_refused(self) -> None:
        checks = [{"name": "handles 4 players", "passed": False, "detail": "crashed"}]
        Version.objects.filter(pk=self.vb.pk).update(checks=checks)
        bobs = self.login("bob").get(f"/p/bob/v/{self.vb.number}/").content
        self.assertIn(b"handles 4 players", bobs)
        for client in (Client(), self.login("alice")):
            self.assertEqual(client.get(f"/games/{self.game.pk}/log/1").status_code, 404)
            self.assertEqual(client.get(f"/p/bob/v/{self.vb.number}/archive").status_code, 404)
            page = client.get(f"/p/bob/v/{self.vb.number}/").content
            self.assertNotIn(b"tail of bob", page)
            self.assertNotIn(b"handles 4 players", page, "which checks failed is bob's to read")
            self.assertNotIn(b"archive</a>", page)
            # Guessed ids: other seats, versions and games do not exist or are not theirs.
            for url in (
                f"/games/{self.game.pk}/log/7",
                "/games/99999/log/0",
                "/p/bob/v/99/archive",
                "/p/nobody/v/1/archive",
            ):
                self.assertEqual(client.get(url).status_code, 404, url)
        _staff_user, _ = participant("org", PASSWORD, staff=True)
        staff = self.login("org")
        self.assertIn(b"opening book", staff.get(f"/games/{self.game.pk}/log/1").content)

    def test_why_a_version_failed_is_for_its_members_and_the_organisers(self) -> None:
        Version.objects.filter(pk=self.vb.pk).update(
            state=Version.FAILED, reason="launch and handshake: crash: secret_helper.py line 3"
        )
        for client in (Client(), self.login("alice")):
            for url in ("/p/bob/", f"/p/bob/v/{self.vb.number}/"):
                page = client.get(url).content.decode()
                self.assertIn("failed", page)
                self.assertNotIn("secret_helper", page, url)
        self.assertIn("secret_helper", self.login("bob").get("/p/bob/").content.decode())

    def test_a_stored_log_path_outside_the_log_folder_is_never_read(self) -> None:
        seat = self.game.seats.get(seat=0)
        seat.log = "/etc/passwd"
        seat.save()
        page = self.login("alice").get(f"/games/{self.game.pk}/log/0").content
        self.assertNotIn(b"root:", page)

    def test_rating_chart_and_results_against_each_opponent(self) -> None:
        game = results.schedule(Contest.current(), [self.va, self.vb])
        results.record(
            game.pk,
            GameOutcome(
                seats=[
                    SeatOutcome(self.va.entry_name, 10, 2),
                    SeatOutcome(self.vb.entry_name, 20, 1),
                ],
                record={},
                duration=1.0,
            ),
        )
        page = Client().get("/p/alice/").content.decode()
        self.assertIn('id="rating-chart"', page)
        self.assertRegex(page, r"<polyline points=\"[0-9., ]+\"")
        against = page[page.index('id="against"') :]
        self.assertRegex(
            against,
            r"bob</a></td><td class=\"num\">2</td><td class=\"num\">1"
            r"</td><td class=\"num\">1</td>",
        )

    def test_a_member_pins_a_version_and_nobody_else_can(self) -> None:
        from tournaments.server.ladder.standings import active_versions

        v2 = self.passed(self.alice)
        self.assertIn(v2.pk, [v.pk for v in active_versions()])
        bob = self.login("bob")
        self.assertEqual(bob.post("/p/alice/", {"pin": "1"}).status_code, 403)
        alice = self.login("alice")
        self.assertEqual(alice.post("/p/alice/", {"pin": "1"}).status_code, 302)
        self.assertIn(self.va.pk, [v.pk for v in active_versions()])
        self.assertNotIn(v2.pk, [v.pk for v in active_versions()])
        self.assertContains(
            alice.post("/p/alice/", {"pin": "9"}), "no version 9 that passed", status_code=400
        )
        alice.post("/p/alice/", {"pin": "newest"})
        self.assertIn(v2.pk, [v.pk for v in active_versions()])

    # -- forms and CSRF ------------------------------------------------------------------------
    def test_sign_up_then_upload_through_the_form(self) -> None:
        client = Client(enforce_csrf_checks=True)
        page = client.get("/signup/")
        token = page.cookies["csrftoken"].value
        form = {
            "username": "dave",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "participant": "dave-bots",
            "csrfmiddlewaretoken": token,
        }
        reply = client.post("/signup/", form)
        self.assertEqual(reply.status_code, 302, reply.content[:2000])
        user = Participant.objects.get(name="dave-bots").members.get()
        self.assertTrue(user.password.startswith("argon2"), "passwords are hashed with Argon2")
        page = client.get("/p/dave-bots/")
        token = page.cookies.get("csrftoken", client.cookies["csrftoken"]).value
        upload = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        reply = client.post("/p/dave-bots/", {"archive": upload, "csrfmiddlewaretoken": token})
        self.assertEqual(reply.status_code, 302)
        self.assertEqual(Version.objects.get(participant__name="dave-bots").state, Version.PENDING)
        bad = SimpleUploadedFile("bot.zip", zip_bytes({"../evil.py": b"x", "bot.py": b""}))
        reply = client.post("/p/dave-bots/", {"archive": bad, "csrfmiddlewaretoken": token})
        self.assertContains(reply, "contains &#x27;..&#x27;", status_code=400)

    def test_sign_up_by_invitation_code_when_the_organiser_says_so(self) -> None:
        contest = Contest.current()
        contest.signup, contest.signup_code = Contest.CODE, "azul-2026"
        contest.save()
        form = {
            "username": "erin",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "participant": "erin",
        }
        self.assertContains(Client().post("/signup/", form), "invitation code", status_code=400)
        self.assertEqual(Client().post("/signup/", {**form, "code": "azul-2026"}).status_code, 302)

    def test_a_closed_sign_up_takes_no_one_nor_does_a_code_never_set(self) -> None:
        # A course's accounts come from its class list: nobody may sign up under a login first.
        form = {
            "username": "s1234567",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "participant": "squat",
        }
        contest = Contest.current()
        contest.signup = Contest.SIGNUP_CLOSED
        contest.save()
        page = Client().get("/signup/").content.decode()
        self.assertIn("Sign-up is closed", page)
        self.assertNotIn("<form method", page.split("<main>")[-1])
        self.assertContains(Client().post("/signup/", form), "Sign-up is closed", status_code=400)
        # Asking for an invitation code and giving none is no open door for an empty code.
        contest.signup, contest.signup_code = Contest.CODE, ""
        contest.save()
        refused = Client().post("/signup/", {**form, "code": ""})
        self.assertContains(refused, "sign-up is closed", status_code=400)
        self.assertFalse(User.objects.filter(username="s1234567").exists())

    def test_forms_without_their_csrf_token_are_refused(self) -> None:
        alice = self.login("alice", csrf=True)
        upload = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        self.assertEqual(alice.post("/p/alice/", {"archive": upload}).status_code, 403)
        self.assertEqual(alice.post("/tokens/", {"name": "x"}).status_code, 403)
        self.assertEqual(
            Client(enforce_csrf_checks=True)
            .post("/login/", {"username": "alice", "password": PASSWORD})
            .status_code,
            403,
        )
        self.assertEqual(Version.objects.filter(participant=self.alice).count(), 1)

    def test_a_member_of_another_participant_cannot_upload_for_it(self) -> None:
        alice = self.login("alice")
        upload = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        self.assertEqual(alice.post("/p/bob/", {"archive": upload}).status_code, 403)
        self.assertEqual(Version.objects.filter(participant=self.bob).count(), 1)

    def test_logins_are_throttled_after_repeated_failures(self) -> None:
        client = Client()
        reply = client.post("/login/", {"username": "alice", "password": PASSWORD})
        self.assertEqual(reply.status_code, 302, "the right password logs in")
        client = Client()
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            self.assertEqual(
                client.post("/login/", {"username": "alice", "password": "guess"}).status_code, 400
            )
        self.assertEqual(
            client.post("/login/", {"username": "alice", "password": "guess"}).status_code,
            429,
            "the last failure allowed locks the account out",
        )
        locked = client.post("/login/", {"username": "alice", "password": PASSWORD})
        self.assertEqual(locked.status_code, 429, "even the right password, once locked out")
        self.assertEqual(
            Client().post("/api/token", {"username": "alice", "password": PASSWORD}).status_code,
            429,
        )
        # Another account is not locked by alice's failures.
        self.assertEqual(
            Client().post("/login/", {"username": "bob", "password": PASSWORD}).status_code, 302
        )

    def test_a_session_expires(self) -> None:
        self.assertTrue(settings.SESSION_EXPIRE_AT_BROWSER_CLOSE)
        self.assertLessEqual(settings.SESSION_COOKIE_AGE, 24 * 3600)
        alice = self.login("alice")
        self.assertLessEqual(alice.session.get_expiry_age(), 24 * 3600)

    # -- tokens and the API --------------------------------------------------------------------
    def test_api_tokens_submit_and_revoked_tokens_are_refused(self) -> None:
        anon = Client()
        self.assertEqual(
            anon.post("/api/token", {"username": "alice", "password": "wrong"}).status_code, 401
        )
        reply = anon.post("/api/token", {"username": "alice", "password": PASSWORD}).json()
        token = reply["token"]
        self.assertEqual(reply["participant"], "alice")
        row = ApiToken.objects.get(user=self.alice_user)
        self.assertNotIn(token, (row.digest, row.hint), "only a hash of the token is stored")
        auth = {"Authorization": f"Bearer {token}"}
        archive = SimpleUploadedFile("bot.tar.gz", zip_bytes({"bot.py": RANDOM_BOT}))
        done = anon.post("/api/submit", {"archive": archive}, headers=auth)
        self.assertEqual(done.status_code, 201, done.content)
        self.assertEqual(done.json()["version"], 2)
        listing = anon.get("/api/versions", headers=auth).json()
        self.assertEqual([v["version"] for v in listing["versions"]], [2, 1])
        # Submitting for another participant with one's own token.
        archive = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        self.assertEqual(
            anon.post(
                "/api/submit", {"archive": archive, "participant": "bob"}, headers=auth
            ).status_code,
            403,
        )
        # A name that is nobody's: the API says so in JSON, as its other refusals.
        archive = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        unknown = anon.post(
            "/api/submit", {"archive": archive, "participant": "nobody"}, headers=auth
        )
        self.assertEqual(unknown.status_code, 404)
        self.assertIn("no participant is named 'nobody'", unknown.json()["error"])
        row.revoke()
        archive = SimpleUploadedFile("bot.zip", zip_bytes({"bot.py": RANDOM_BOT}))
        refused = anon.post("/api/submit", {"archive": archive}, headers=auth)
        self.assertEqual(refused.status_code, 401)
        self.assertIn("revoked", refused.json()["error"])
        self.assertEqual(
            anon.get("/api/versions", headers={"Authorization": "Bearer aat_made-up"}).status_code,
            401,
        )
        self.assertEqual(Version.objects.filter(participant=self.bob).count(), 1)

    def test_the_logs_api_gives_only_ones_own_seats(self) -> None:
        _, alice_token = ApiToken.issue(self.alice_user)
        reply = Client().get(
            f"/api/games/{self.game.pk}/logs", headers={"Authorization": f"Bearer {alice_token}"}
        )
        self.assertEqual(reply.status_code, 200)
        seats = reply.json()["seats"]
        self.assertEqual([s["seat"] for s in seats], [0])
        self.assertIn("alice says hello", seats[0]["log"])
        self.assertNotIn("opening book", reply.content.decode())
        carl, _ = participant("carl", PASSWORD)
        _, carl_token = ApiToken.issue(carl)
        self.assertEqual(
            Client()
            .get(
                f"/api/games/{self.game.pk}/logs", headers={"Authorization": f"Bearer {carl_token}"}
            )
            .status_code,
            404,
        )
        self.assertEqual(Client().get(f"/api/games/{self.game.pk}/logs").status_code, 401)

    def test_the_tokens_page_shows_a_new_token_once_and_revokes_only_ones_own(self) -> None:
        alice = self.login("alice")
        page = alice.post("/tokens/", {"name": "laptop"}).content.decode()
        self.assertIn('id="new-token"', page)
        self.assertNotIn('id="new-token"', alice.get("/tokens/").content.decode())
        bob_token, _ = ApiToken.issue(self.bob_user)
        self.assertEqual(alice.post("/tokens/", {"revoke": bob_token.pk}).status_code, 404)
        bob_token.refresh_from_db()
        self.assertIsNone(bob_token.revoked)

    def test_the_admin_is_for_organisers_only(self) -> None:
        self.assertEqual(self.login("alice").get("/admin/").status_code, 302)
        participant("org2", PASSWORD, staff=True)
        self.assertEqual(
            self.login("org2").get("/admin/arena_submissions/version/").status_code, 200
        )
