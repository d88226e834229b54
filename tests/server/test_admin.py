"""The organisers' console (Django's admin) as the organisers meet it: named for the site, its
sections named in words, the contest's ruleset chosen from a list and its options drawn from
the families' option schemas and checked by them; and the site's icon, which every page asks
for."""

from __future__ import annotations

from typing import Any

from django.forms.models import model_to_dict
from django.test import Client, TestCase

from tests.server.helpers import participant, passed_version
from tournaments.server.contests.models import Contest


class OrganisersConsole(TestCase):
    def setUp(self) -> None:
        user, _ = participant("org", staff=True)
        self.client = Client()
        self.client.force_login(user)
        self.contest = Contest.current()
        self.url = f"/admin/arena_contests/contest/{self.contest.pk}/change/"

    def test_the_console_is_named_for_the_site_and_its_sections_in_words(self) -> None:
        page = self.client.get("/admin/").content.decode()
        assert "Django administration" not in page and "Django site admin" not in page
        assert "Azul Arena" in page
        for section in ("Contests and their teams", "Accounts: API tokens", "Submitted versions"):
            assert section in page, section
        assert "Arena_contests" not in page and "Api tokens" not in page
        assert "API tokens" in page

    def form_data(self, **changes: Any) -> dict[str, Any]:
        """The contest's change form as the admin's page sends it, with `changes`."""
        data = {
            k: v
            for k, v in model_to_dict(self.contest).items()
            if v is not None and not isinstance(v, bool) and k != "ruleset_options"
        }
        data.update(
            {k: "on" for k, v in model_to_dict(self.contest).items() if v is True},
            _save="Save",
        )
        data.update(changes)
        return data

    def test_the_ruleset_is_a_list_and_its_options_a_form_checked_by_their_schema(self) -> None:
        page = self.client.get(self.url).content.decode()
        assert '<select name="ruleset"' in page and '<option value="pavilion"' in page
        assert 'name="option_wild_order"' in page and 'name="ruleset_options"' not in page
        refused = self.client.post(
            self.url, self.form_data(ruleset="pavilion", option_wild_order="GOPYBX")
        )
        assert refused.status_code == 200, "the form again, with why"
        assert "option wild_order=GOPYBX" in refused.content.decode()
        wrong_family = self.client.post(
            self.url, self.form_data(ruleset="azul", option_wild_order="GOPYBR")
        )
        assert "azul has no option wild_order" in wrong_family.content.decode()
        self.contest.refresh_from_db()
        assert self.contest.ruleset == "azul" and self.contest.ruleset_options == {}
        saved = self.client.post(
            self.url, self.form_data(ruleset="pavilion", option_wild_order="GOPYBR")
        )
        assert saved.status_code == 302, saved.content.decode()[-3000:]
        self.contest.refresh_from_db()
        assert self.contest.ruleset == "pavilion"
        assert self.contest.ruleset_options == {"wild_order": "GOPYBR"}
        assert 'value="GOPYBR"' in self.client.get(self.url).content.decode()

    def test_every_page_has_the_sites_icon(self) -> None:
        from tests.web.browser import png_pixels

        icon = Client().get("/favicon.ico")
        assert icon.status_code == 200 and icon["Content-Type"] == "image/png"
        width, height, pixels = png_pixels(icon.content)
        assert (width, height) == (32, 32) and len(set(pixels)) > 3
        assert 'rel="icon" href="/favicon.ico"' in Client().get("/").content.decode()


class GamesInTheConsole(TestCase):
    def test_a_games_page_names_its_seats_and_its_duration_in_words(self) -> None:
        from tournaments.server.ladder.models import Game, Seat

        user, _ = participant("org", staff=True)
        _, ann = participant("ann")
        _, ben = participant("ben")
        game = Game.objects.create(
            contest=Contest.current(),
            status=Game.DONE,
            ruleset="azul",
            time_per_move=1.0,
            seed=7,
            duration=12.3456789,
        )
        for seat, who in enumerate((ann, ben)):
            Seat.objects.create(game=game, seat=seat, version=passed_version(who), score=10)
        client = Client()
        client.force_login(user)
        page = client.get(f"/admin/arena_ladder/game/{game.pk}/change/").content.decode()
        assert "Seat object" not in page
        assert f"seat 1 of game {game.pk}" in page
        assert "12.3 s" in page and "12.3456789" not in page
