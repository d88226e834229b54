"""Who sees what, URL by URL: every URL the server has (read from its URL patterns, so a new
URL without a case here fails) asked for as a visitor, as another participant, as a member and
as an organiser, of a public contest and of one hidden until its results; and every form
posted with bad values answers 400 with a message, never 500."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.tokens import default_token_generator
from django.test import Client, TestCase
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
from tests.server.test_web import PASSWORD, played_record
from tournaments.domain.store import GameOutcome, SeatOutcome
from tournaments.server.accounts.models import ApiToken
from tournaments.server.contests.models import Contest, Participant
from tournaments.server.ladder import results
from tournaments.server.ladder.logs import game_folder, seat_log
from tournaments.server.ladder.models import Game
from tournaments.server.ladder.standings import enter
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version

VIEWERS = ("anon", "other", "member", "staff")


def url_keys() -> Iterator[str]:
    """Every URL of the server, by name (the admin and the static files as one each)."""

    def walk(patterns: list[Any]) -> Iterator[str]:
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from ["admin"] if p.namespace == "admin" else walk(p.url_patterns)
            elif isinstance(p, URLPattern):
                yield p.name or ("static" if "static" in str(p.pattern) else str(p.pattern))

    return walk(get_resolver().url_patterns)


@dataclass
class Scene:
    """A contest with a played game: `member`'s participant (seat 0, the winner) against an
    opponent (seat 1); `other` is a participant of the same contest who did not play."""

    contest: Contest
    game: Game
    member: Participant
    opponent: Participant
    version: Version
    scores: tuple[str, str]
    mu: str
    clients: dict[str, Client] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def hidden(self) -> bool:
        return self.contest.visibility == Contest.HIDDEN

    def results(self, viewer: str) -> bool:
        """The game's scores and ranks: all, or in the hidden contest its players and staff."""
        return not self.hidden or viewer in ("member", "staff")

    def ratings(self, viewer: str) -> bool:
        """Ratings and game counts: the standings, hidden from all but the organisers."""
        return not self.hidden or viewer == "staff"

    @staticmethod
    def private(viewer: str) -> bool:
        return viewer in ("member", "staff")


def passed(who: Participant, tail: str) -> Version:
    v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
    Version.objects.filter(pk=v.pk).update(state=Version.PASSED, log_tail=tail)
    enter(v)
    return Version.objects.get(pk=v.pk)


def scene(contest: Contest, names: tuple[str, str, str], scores: tuple[int, int]) -> Scene:
    member_name, opponent_name, other_name = names
    people = {}
    for name in names:
        user, who = participant(name, PASSWORD)
        who.contest = contest
        who.save()
        people[name] = (user, who)
    mine = passed(people[member_name][1], f"validation tail of {member_name}")
    theirs = passed(people[opponent_name][1], f"validation tail of {opponent_name}")
    game = results.schedule(contest, [mine, theirs])
    paths = [seat_log(game.pk, seat) for seat in range(2)]  # where the ladder writes them
    for path, name in zip(paths, names, strict=False):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"the private thoughts of {name}\n")
    results.record(
        game.pk,
        GameOutcome(
            seats=[
                SeatOutcome(mine.entry_name, scores[0], 1, log=str(paths[0])),
                SeatOutcome(theirs.entry_name, scores[1], 2, log=str(paths[1])),
            ],
            record=played_record([mine.entry_name, theirs.entry_name]),
            duration=1.0,
        ),
    )
    mine = Version.objects.select_related("standing").get(pk=mine.pk)
    s = Scene(
        contest,
        game,
        people[member_name][1],
        people[opponent_name][1],
        mine,
        (str(scores[0]), str(scores[1])),
        f"{mine.standing.mu:.2f}",
    )
    for viewer, user in (
        ("anon", None),
        ("other", people[other_name][0]),
        ("member", people[member_name][0]),
    ):
        s.clients[viewer] = Client(raise_request_exception=False)
        if user is not None:
            s.clients[viewer].force_login(user)
            s.tokens[viewer] = ApiToken.issue(user)[1]
    return s


class EveryUrl(TestCase):
    def setUp(self) -> None:
        hidden = Contest.objects.create(
            slug="hidden", visibility=Contest.HIDDEN, state=Contest.OPEN
        )
        # Six-digit scores: no page prints such a number but as a score (a hash might, rarely,
        # hold four digits in a row).
        self.scenes = {
            "open": scene(Contest.current(), ("alice", "bob", "olive"), (731905, 482316)),
            "hidden": scene(hidden, ("carol", "dave", "erin"), (918273, 564738)),
        }
        for s in self.scenes.values():  # the database is rolled back, the log files are not
            self.addCleanup(shutil.rmtree, game_folder(s.game.pk), ignore_errors=True)
        staff_user, _ = participant("org", PASSWORD, staff=True)
        staff_token = ApiToken.issue(staff_user)[1]
        for s in self.scenes.values():
            s.clients["staff"] = Client(raise_request_exception=False)
            s.clients["staff"].force_login(staff_user)
            s.tokens["staff"] = staff_token

    def test_every_url_has_a_case_and_each_viewer_sees_only_what_it_may(self) -> None:
        keys = sorted(set(url_keys()))
        missing = [k for k in keys if not hasattr(self, f"case_{k}")]
        self.assertEqual(missing, [], "URLs without a visibility case in this test")
        for name, s in self.scenes.items():
            for key in keys:
                for viewer in VIEWERS:
                    with self.subTest(contest=name, url=key, viewer=viewer):
                        getattr(self, f"case_{key}")(s, viewer, s.clients[viewer])

    def test_a_hidden_contests_results_show_to_everyone_once_it_is_closed(self) -> None:
        s = self.scenes["hidden"]
        Contest.objects.filter(pk=s.contest.pk).update(state=Contest.CLOSED)
        anon = Client()
        self.assertIn(s.scores[0], self.page(anon, f"/p/{s.member.name}/"))
        self.assertIn(s.scores[1], self.page(anon, f"/games/{s.game.pk}/"))
        self.assertIn(s.mu, self.page(anon, f"/c/{s.contest.slug}/"))
        self.page(anon, f"/games/{s.game.pk}/log/0", 404)  # a log stays private

    def test_a_finals_games_show_as_a_hidden_contests_until_it_is_closed(self) -> None:
        s = self.scenes["open"]  # a public contest: its ladder's games show to everyone
        Game.objects.filter(pk=s.game.pk).update(kind=Game.FINAL)
        Contest.objects.filter(pk=s.contest.pk).update(state=Contest.FINAL)
        for viewer, sees in (("anon", False), ("other", False), ("member", True), ("staff", True)):
            with self.subTest(viewer=viewer):
                body = self.page(s.clients[viewer], f"/games/{s.game.pk}/", 200 if sees else 404)
                self.shows(body, s.scores[1], sees, "a final's game before its results")
                self.shows(body, "final tournament", sees, "it says what game it is")
        Contest.objects.filter(pk=s.contest.pk).update(state=Contest.CLOSED)
        self.assertIn(s.scores[1], self.page(Client(), f"/games/{s.game.pk}/"))

    # -- helpers ---------------------------------------------------------------------------
    def page(self, client: Client, url: str, status: int = 200, **kw: Any) -> str:
        reply = client.get(url, **kw)
        self.assertEqual(reply.status_code, status, url)
        return reply.content.decode(errors="replace") if not reply.streaming else ""

    def shows(self, body: str, what: str, expected: bool, why: str) -> None:
        (self.assertIn if expected else self.assertNotIn)(what, body, why)

    def api(self, s: Scene, viewer: str) -> dict[str, str]:
        token = s.tokens.get(viewer)
        return {"Authorization": f"Bearer {token}"} if token else {}

    # -- the leaderboards --------------------------------------------------------------------
    def case_leaderboard(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, "/")  # the default contest's: the public one
        for score in s.scores:
            self.shows(body, score, not s.hidden, "the default contest's recent games only")

    def case_contest(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, f"/c/{s.contest.slug}/")
        self.shows(body, s.scores[0], s.ratings(viewer), "recent games with the standings")
        self.shows(body, s.mu, s.ratings(viewer), "the standings")
        self.page(client, "/c/nope/", 404)

    # -- a participant's pages ---------------------------------------------------------------
    def case_participant(self, s: Scene, viewer: str, client: Client) -> None:
        for name, score in zip((s.member.name, s.opponent.name), s.scores, strict=True):
            body = self.page(client, f"/p/{name}/")
            self.shows(body, score, s.results(viewer), f"{name}'s score in its game")
            self.shows(body, f"/games/{s.game.pk}/", s.results(viewer), "its recent games")
            self.shows(body, 'id="against"', s.results(viewer), "results against each")
            self.shows(body, 'id="rating-chart"', False, "one game draws no chart")
        body = self.page(client, f"/p/{s.member.name}/")
        self.shows(body, s.mu, s.ratings(viewer), "its rating")
        start = body.index('id="versions"')
        versions = body[start : body.index("</table>", start)]
        self.shows(versions, '<td class="num">1</td>', s.ratings(viewer), "its game count")
        self.shows(body, f"/games/{s.game.pk}/log/0", s.private(viewer), "its log's link")
        self.page(client, "/p/nobody/", 404)

    def case_version(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, f"/p/{s.member.name}/v/1/")
        self.shows(body, f"validation tail of {s.member.name}", s.private(viewer), "log tail")
        self.shows(body, f"/p/{s.member.name}/v/1/archive", s.private(viewer), "archive link")
        for score in s.scores:
            self.shows(body, score, False, "no results on a version's page")

    def case_archive(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, f"/p/{s.member.name}/v/1/archive", 200 if s.private(viewer) else 404)
        self.page(client, f"/p/{s.opponent.name}/v/1/archive", 200 if viewer == "staff" else 404)
        self.page(client, f"/p/{s.member.name}/v/9/archive", 404)

    # -- games ------------------------------------------------------------------------------
    def case_game(self, s: Scene, viewer: str, client: Client) -> None:
        seen = s.results(viewer)
        body = self.page(client, f"/games/{s.game.pk}/", 200 if seen else 404)
        self.shows(body, s.scores[0], seen, "the game's scores")
        self.shows(body, f"/games/{s.game.pk}/log/0", s.private(viewer), "its own log link")
        self.shows(body, f"/games/{s.game.pk}/log/1", viewer == "staff", "another's log link")

    def case_viewer(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, f"/games/{s.game.pk}/viewer", 200 if s.results(viewer) else 404)
        self.shows(body, "game-data", s.results(viewer), "the replay")

    def case_game_analyse(self, s: Scene, viewer: str, client: Client) -> None:
        """Only a player of the game (and staff) may have it analysed; a game not visible to
        the viewer answers 404; a visitor is sent to log in. Nothing else is queued."""
        from tournaments.server.analyses.models import Analysis

        url = f"/games/{s.game.pk}/analyse"
        before = Analysis.objects.filter(game=s.game).count()
        reply = client.post(url, follow=False)
        if viewer == "anon":
            self.assertEqual(reply.status_code, 302, url)
            self.assertIn("login", reply["Location"])
        elif not s.results(viewer):
            self.assertEqual(reply.status_code, 404, url)
        else:
            self.assertEqual(reply.status_code, 302, url)
        queued = Analysis.objects.filter(game=s.game).count() - before
        self.assertEqual(queued, 1 if s.private(viewer) and before == 0 else 0, viewer)

    def case_seat_log(self, s: Scene, viewer: str, client: Client) -> None:
        own = self.page(client, f"/games/{s.game.pk}/log/0", 200 if s.private(viewer) else 404)
        self.shows(own, f"thoughts of {s.member.name}", s.private(viewer), "its own log")
        theirs = self.page(client, f"/games/{s.game.pk}/log/1", 200 if viewer == "staff" else 404)
        self.shows(theirs, f"thoughts of {s.opponent.name}", viewer == "staff", "another's")
        self.page(client, f"/games/{s.game.pk}/log/7", 404)

    # -- a person's games against a bot in the browser (tables.play) ----------------------
    def table_of(self, s: Scene) -> Any:
        """The member's finished browser game against the opponent's version (made once)."""
        from tournaments.server.tables.models import TableGame

        if not hasattr(s, "table"):
            opponent = Version.objects.get(participant=s.opponent)
            s.table = TableGame.objects.create(  # type: ignore[attr-defined]
                contest=s.contest,
                participant=s.member,
                name=s.member.name,
                opponent=opponent,
                seed=5,
                status=TableGame.DONE,
                state={"ply": 3, "your_turn": False, "legal": [], "note": "the table's state"},
                record=played_record([s.member.name, opponent.entry_name]),
            )
        return s.table  # type: ignore[attr-defined]

    def case_play(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, "/play/")  # the default contest's: the open one
        self.shows(body, "Play a bot", True, "the page")

    def case_contest_play(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, f"/c/{s.contest.slug}/play/")
        # A participant's version is offered only where the standings are public.
        self.shows(body, f'id="op-{s.version.pk}"', s.ratings(viewer), "its version offered")
        table = self.table_of(s)
        self.shows(body, f"/tables/{table.pk}/", viewer == "member", "one's own games")

    def case_table(self, s: Scene, viewer: str, client: Client) -> None:
        table = self.table_of(s)
        self.page(client, f"/tables/{table.pk}/", 200 if viewer == "member" else 404)

    def case_table_state(self, s: Scene, viewer: str, client: Client) -> None:
        table = self.table_of(s)
        body = self.page(client, f"/tables/{table.pk}/state", 200 if viewer == "member" else 404)
        self.shows(body, "the table's state", viewer == "member", "the table's state")

    def case_table_viewer(self, s: Scene, viewer: str, client: Client) -> None:
        table = self.table_of(s)
        body = self.page(client, f"/tables/{table.pk}/viewer", 200 if viewer == "member" else 404)
        self.shows(body, "game-data", viewer == "member", "the replay")

    def case_table_move(self, s: Scene, viewer: str, client: Client) -> None:
        table = self.table_of(s)
        reply = client.post(
            f"/tables/{table.pk}/move", '{"move": "1B1"}', content_type="application/json"
        )
        # Only its player may answer (and the game is over): nobody else learns it exists.
        self.assertEqual(reply.status_code, 400 if viewer == "member" else 404)

    # -- accounts ---------------------------------------------------------------------------
    def case_home(self, s: Scene, viewer: str, client: Client) -> None:
        reply = client.get("/me/")
        self.assertEqual(reply.status_code, 302)
        if viewer == "member":
            self.assertEqual(reply["Location"], f"/p/{s.member.name}/")
        elif viewer == "anon":
            self.assertIn("/login/", reply["Location"])

    def case_signup(self, s: Scene, viewer: str, client: Client) -> None:
        self.shows(self.page(client, "/signup/"), s.scores[0], False, "no results")

    def case_login(self, s: Scene, viewer: str, client: Client) -> None:
        self.shows(self.page(client, "/login/"), s.scores[0], False, "no results")

    def case_welcome(self, s: Scene, viewer: str, client: Client) -> None:
        body = self.page(client, "/welcome/MQ/made-up-token/")
        self.assertIn("This link no longer works", body)

    def case_logout(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/logout/", 405)  # a POST only (the header's button)

    def case_tokens(self, s: Scene, viewer: str, client: Client) -> None:
        if viewer == "anon":
            self.page(client, "/tokens/", 302)
            return
        body = self.page(client, "/tokens/")
        for who, token in s.tokens.items():
            self.shows(body, token[:10], who == viewer, "only one's own tokens")

    def case_admin(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/admin/", 200 if viewer == "staff" else 302)

    def case_static(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/static/admin/css/base.css")

    def case_favicon(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/favicon.ico")  # the same picture for everyone

    # -- the CLI's API ----------------------------------------------------------------------
    def case_api_token(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/api/token", 405)
        reply = Client().post("/api/token", {"username": s.member.name, "password": "wrong"})
        self.assertEqual(reply.status_code, 401)

    def case_api_submit(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/api/submit", 405)
        answer = client.post(
            "/api/submit", {"participant": s.member.name}, headers=self.api(s, viewer)
        )
        expected = {"anon": 401, "other": 403, "staff": 403, "member": 400}[viewer]
        self.assertEqual(answer.status_code, expected, answer.content)  # member: no archive

    def case_api_challenge(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/api/challenge", 405)
        answer = client.post(
            "/api/challenge",
            {"participant": s.member.name, "opponents": s.member.name},
            headers=self.api(s, viewer),
        )
        expected = {"anon": 401, "other": 403, "staff": 403, "member": 400}[viewer]
        self.assertEqual(answer.status_code, expected, answer.content)  # member: not oneself

    def case_api_compare(self, s: Scene, viewer: str, client: Client) -> None:
        self.page(client, "/api/compare", 405)
        base = f"{s.opponent.name} v1"
        answer = client.post(
            "/api/compare",
            {"participant": s.member.name, "base": base},
            headers=self.api(s, viewer),
        )
        if viewer != "member":
            expected = {"anon": 401, "other": 403, "staff": 403}[viewer]
            self.assertEqual(answer.status_code, expected, answer.content)
            return
        # Against another team's version: its results, open only where the standings are.
        self.assertEqual(answer.status_code, 400 if s.hidden else 201, answer.content)
        if s.hidden:
            self.assertIn("standings are hidden", answer.json()["error"])
        else:
            self.assertEqual(answer.json()["base"], base)

    def case_api_versions(self, s: Scene, viewer: str, client: Client) -> None:
        reply = client.get("/api/versions", headers=self.api(s, viewer))
        if viewer == "anon":
            self.assertEqual(reply.status_code, 401)
            return
        self.assertEqual(reply.status_code, 200)
        self.assertEqual(reply.json()["participant"] == s.member.name, viewer == "member")
        self.assertNotIn(f"validation tail of {s.member.name}", reply.content.decode())

    def case_api_logs(self, s: Scene, viewer: str, client: Client) -> None:
        reply = client.get(f"/api/games/{s.game.pk}/logs", headers=self.api(s, viewer))
        expected = {"anon": 401, "other": 404, "member": 200, "staff": 200}[viewer]
        self.assertEqual(reply.status_code, expected)
        if expected == 200:
            seats = [seat["seat"] for seat in reply.json()["seats"]]
            self.assertEqual(seats, [0, 1] if viewer == "staff" else [0])


class BadValues(TestCase):
    """Every URL that takes a POST answers bad values with 400 and a message (the others answer
    405 to a POST); a new URL without a case here fails."""

    def setUp(self) -> None:
        self.user, self.who = participant("alice", PASSWORD)
        self.version = submit(self.who, [zip_bytes({"bot.py": RANDOM_BOT})])
        self.client = Client(raise_request_exception=False)
        self.client.force_login(self.user)
        self.token = ApiToken.issue(self.user)[1]

    def bad_posts(self) -> dict[str, list[tuple[str, dict[str, Any], str]]]:
        """URL name: (url, bad values, what the message says)."""
        long = "x" * 65
        from tournaments.server.tables.models import TableGame

        table = TableGame.objects.create(
            contest=Contest.current(),
            participant=self.who,
            name="alice",
            opponent=self.version,
            seed=1,
            state={"ply": 0, "your_turn": True, "legal": [{"move": "1B1"}]},
        )
        return {
            "play": [
                ("/play/", {"opponent": "x"}, "pick a bot and a seat"),
                ("/play/", {"opponent": "999999"}, "playing a game already"),
            ],
            "contest_play": [("/c/default/play/", {"seat": "<b>"}, "pick a bot and a seat")],
            "table_move": [(f"/tables/{table.pk}/move", {"move": "1B1"}, "send JSON")],
            "participant": [
                ("/p/alice/", {"pin": "abc"}, "neither a version number nor"),
                ("/p/alice/", {"pin": ""}, "This field is required"),
                ("/p/alice/", {"pin": "-3"}, "neither a version number nor"),
                ("/p/alice/", {"pin": "1"}, "no version 1 that passed"),  # still pending
                ("/p/alice/", {"challenge": ""}, "This field is required"),
                ("/p/alice/", {"challenge": "bob, <b>"}, "is not a participant"),
                ("/p/alice/", {"challenge": "alice"}, "not yourself"),
                ("/p/alice/", {}, "This field is required"),  # an upload without its file
            ],
            "tokens": [
                ("/tokens/", {"revoke": "abc"}, "not a token"),
                ("/tokens/", {"revoke": "0"}, "greater than or equal to 1"),
                ("/tokens/", {"name": long}, "at most 64 characters"),
            ],
            "signup": [("/signup/", {"username": "x", "participant": "no spaces"}, "valid")],
            "login": [("/login/", {"username": "alice", "password": "wrong"}, "correct")],
            "api_token": [
                ("/api/token", {}, "username: This field is required"),
                ("/api/token", {"username": "a", "password": "b", "name": long}, "name:"),
            ],
            "api_submit": [("/api/submit", {"participant": "not a name!"}, "participant:")],
            "api_compare": [
                ("/api/compare", {"version": "x"}, "version: Enter a whole number"),
                ("/api/compare", {"base": "v1"}, "alice has no version that passed"),
                ("/api/compare", {"participant": "../x"}, "participant:"),
            ],
            "api_challenge": [
                ("/api/challenge", {}, "opponents: This field is required"),
                ("/api/challenge", {"opponents": "a b"}, "is not a participant"),
                ("/api/challenge", {"participant": "../x", "opponents": "bob"}, "participant:"),
            ],
        }

    def test_bad_values_answer_400_with_a_message_and_get_only_urls_refuse_a_post(self) -> None:
        bad = self.bad_posts()
        # Below, Django's own admin, and a POST without values (game_analyse).
        no_values = {"logout", "welcome", "admin", "game_analyse"}
        auth = {"Authorization": f"Bearer {self.token}"}
        for key in sorted(set(url_keys())):
            with self.subTest(url=key):
                if key in bad:
                    for url, data, message in bad[key]:
                        reply = self.client.post(url, data, headers=auth)
                        self.assertEqual(reply.status_code, 400, (url, data))
                        text = reply.content.decode()
                        if url.startswith("/api/"):
                            text = reply.json()["error"]
                        self.assertIn(message, text.replace("&#x27;", "'"), (url, data))
                elif key not in no_values:
                    self.assertEqual(self.post_to(key).status_code, 405, key)
        self.assertEqual(self.client.post("/logout/", {"x": "y"}).status_code, 302)

    def post_to(self, key: str) -> Any:
        """A POST to the GET-only URL `key`, with values."""
        urls = {
            "leaderboard": "/",
            "contest": "/c/default/",
            "home": "/me/",
            "version": "/p/alice/v/1/",
            "archive": "/p/alice/v/1/archive",
            "game": "/games/1/",
            "viewer": "/games/1/viewer",
            "seat_log": "/games/1/log/0",
            "api_versions": "/api/versions",
            "api_logs": "/api/games/1/logs",
            "table": "/tables/1/",
            "table_state": "/tables/1/state",
            "table_viewer": "/tables/1/viewer",
            "static": "/static/admin/css/base.css",
            "favicon": "/favicon.ico",
        }
        self.assertIn(key, urls, f"no bad-values case for the URL {key!r}")
        return self.client.post(urls[key], {"pin": "abc"})

    def test_the_welcome_link_refuses_passwords_that_differ_with_400(self) -> None:
        uid = urlsafe_base64_encode(force_bytes(self.user.pk))
        link = f"/welcome/{uid}/{default_token_generator.make_token(self.user)}/"
        anon = Client(raise_request_exception=False)
        form_url = anon.get(link)["Location"]  # Django moves the token into the session
        reply = anon.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD + "x"})
        self.assertEqual(reply.status_code, 400)
        self.assertIn("didn’t match", reply.content.decode())
        self.assertIn("errorlist", reply.content.decode())
