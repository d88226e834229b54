"""What a newcomer's walk through the site found, in headless chromium on a live server: a bot's
log shows what the bot wrote (no terminal codes, no text turned around by bidirectional
controls), a refused sign-up name says what a name is, a played game's page replays its
record once, not on every view, and the leaderboard fits a phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import LiveServerTestCase

from tests.server.helpers import participant, passed_version, played_record, sign_in
from tests.web.browser import PAGE_WAIT, console_errors, fresh

# What a hostile or merely colourful bot prints: colour codes, a bell, and a right-to-left
# override that would show the rest of its line backwards.
LOG = "thinking \x1b[31mred\x1b[0m \x07 bell \u202etxet\nnext line\n"


@pytest.mark.usefixtures("browser_for_class")
class NewcomerPages(LiveServerTestCase):
    browser: Any

    def login(self, user: Any) -> None:
        sign_in(self.browser, self.live_server_url, user)

    def test_a_logs_control_characters_show_as_escapes(self) -> None:
        from selenium.webdriver.common.by import By

        from tournaments.server.submissions.models import Version

        user, who = participant("ann")
        version = passed_version(who)
        Version.objects.filter(pk=version.pk).update(log_tail=LOG)
        self.login(user)
        self.browser.get(f"{self.live_server_url}/p/ann/v/{version.number}/")
        text = self.browser.find_element(By.ID, "log-tail").get_attribute("textContent")
        assert text.splitlines()[0] == "thinking red \\x07 bell \\u202etxet", text
        assert not any(c in text for c in "\x1b\x07\u202e"), repr(text)
        assert console_errors(self.browser) == []

    def test_a_refused_participant_name_says_what_a_name_is(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.expected_conditions import staleness_of
        from selenium.webdriver.support.ui import WebDriverWait

        self.browser.get(f"{self.live_server_url}/signup/")
        form = {
            "username": "zoe",
            "participant": "zoe's bots",
            "password1": "a long password 4242",
            "password2": "a long password 4242",
        }
        for name, value in form.items():
            self.browser.find_element(By.NAME, name).send_keys(value)
        button = self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]")
        button.click()
        WebDriverWait(self.browser, PAGE_WAIT).until(staleness_of(button))  # the answer's page
        page = self.browser.find_element(By.TAG_NAME, "main").text
        assert "letters, digits, - and _ only (no spaces or other signs)" in page, page
        assert "slug" not in page.lower(), page

    def test_a_games_page_replays_its_record_once(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        from tournaments.domain.store import GameOutcome, SeatOutcome
        from tournaments.server.contests.models import Contest
        from tournaments.server.ladder import results
        from tournaments.web import replay_page

        ann_user, ann = participant("ann")
        bob_user, bob = participant("bob")
        versions = [passed_version(ann), passed_version(bob)]
        game = results.schedule(Contest.current(), versions)
        record = played_record([v.entry_name for v in versions])
        scores = record["final_scores"]
        ranks = [1, 2] if scores[0] >= scores[1] else [2, 1]
        seats = [SeatOutcome(v.entry_name, scores[i], ranks[i]) for i, v in enumerate(versions)]
        results.record(game.pk, GameOutcome(seats=seats, record=record, duration=1.0))

        replayed = []
        real = replay_page.game_data

        def counted(record: dict[str, Any]) -> dict[str, Any]:
            replayed.append(record["players"])
            return real(record)

        replay_page.game_data = counted  # type: ignore[assignment]
        try:
            for user in (ann_user, ann_user, bob_user, bob_user):
                self.login(user)
                self.browser.get(f"{self.live_server_url}/games/{game.pk}/")
                WebDriverWait(self.browser, PAGE_WAIT).until(
                    lambda b: b.find_elements(By.CSS_SELECTOR, "#app .drawing .board")
                )
                assert console_errors(self.browser) == []
        finally:
            replay_page.game_data = real  # type: ignore[assignment]
        # Each team is shown its own seat's details: one replay for each, then none.
        assert len(replayed) == 2, replayed

    def test_the_leaderboard_fits_a_phone_without_scrolling_sideways(self) -> None:
        from selenium.webdriver.common.by import By

        for name in ("ann-bots", "bob-bots", "cat-bots"):
            passed_version(participant(name)[1])

        def phone_view(b: Any) -> tuple[list[str], int, int, list[tuple[str, int]]]:
            table = b.find_element(By.ID, "leaderboard")
            heads = [h.text for h in table.find_elements(By.TAG_NAME, "th") if h.is_displayed()]
            box = table.find_element(By.XPATH, "..")  # its scrolling box
            wide, shown = b.execute_script(
                "return [arguments[0].scrollWidth, arguments[0].clientWidth]", box
            )
            cells = [(c.text, c.size["width"]) for c in table.find_elements(By.TAG_NAME, "td")]
            return heads, wide, shown, cells

        def wide_heads(b: Any) -> list[str]:
            table = b.find_element(By.ID, "leaderboard")
            return [h.text for h in table.find_elements(By.TAG_NAME, "th")]

        self.browser.set_window_size(390, 844)
        try:
            # The standings are in the part of the page that refreshes itself every 10 s.
            self.browser.get(f"{self.live_server_url}/")
            heads, wide, shown, cells = fresh(self.browser, phone_view)
            assert heads == ["#", "participant", "version", "mu - 3 sigma", "games", "win rate"]
            assert wide <= shown, f"a {wide} px table in a {shown} px box: {cells[:9]}"
            self.browser.set_window_size(1400, 900)
            self.browser.get(f"{self.live_server_url}/")
            assert "last game" in fresh(self.browser, wide_heads)
        finally:
            self.browser.set_window_size(1400, 900)
