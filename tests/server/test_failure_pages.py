"""A student finds why a crashing bot failed without opening a log by hand: the version's reason
names the exception and the bot's line, the page marks the exception in the log box and opens
it at its end (headless chromium on a live server), and the page refreshes itself from
"waiting for validation" to the verdict."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, LiveServerTestCase, TransactionTestCase

from tests.server.helpers import participant, sign_in, zip_bytes
from tests.tournaments.test_failure_reasons import CRASH_WORDS, CRASHES_IN_A_HELPER
from tests.web.browser import PAGE_WAIT, fresh
from tournaments.server.contests.models import Contest
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version
from tournaments.server.submissions.validation import claim_next, validate

# Enough of its own lines before the crash that the log box has to scroll to show it.
NOISY_CRASH = CRASHES_IN_A_HELPER.replace(
    "    def choose_move(self, state):\n",
    "    def choose_move(self, state):\n"
    "        for i in range(60):\n"
    "            print('thinking hard', i, file=__import__('sys').stderr)\n",
).encode()


def crashed_version(name: str = "kit") -> tuple[Any, Version]:
    contest = Contest.current()
    contest.time_per_move = 0.5
    contest.save()
    user, who = participant(name)
    version = submit(who, [zip_bytes({"bot.py": NOISY_CRASH})])
    claimed = claim_next()
    assert claimed is not None
    validate(claimed, isolation="process")
    version.refresh_from_db()
    return user, version


class ReasonTests(TransactionTestCase):
    def test_the_reason_names_the_exception_and_the_page_marks_it(self) -> None:
        user, version = crashed_version()
        self.assertEqual(version.state, Version.FAILED)
        self.assertTrue(version.reason.startswith("only legal moves: no move of its own ("))
        self.assertIn(f"crash: {CRASH_WORDS}", version.reason)
        client = Client()
        client.force_login(user)
        page = client.get(f"/p/kit/v/{version.number}/").content.decode()
        self.assertIn("ValueError: oops 3 (bot.py line 5, in helper)", page)
        self.assertIn('<mark class="exc">ValueError: oops 3</mark>', page)
        self.assertIn('<pre id="log-tail" class="log">', page)
        # The API (`contest submissions`) says the same words.
        from tournaments.server.accounts.models import ApiToken

        _, key = ApiToken.issue(user, "test")
        reply = client.get("/api/versions", HTTP_AUTHORIZATION=f"Bearer {key}").json()
        self.assertIn(CRASH_WORDS, reply["versions"][0]["reason"])


@pytest.mark.usefixtures("browser_for_class")
class LivePageTests(LiveServerTestCase):
    browser: Any

    def login(self, user: Any) -> None:
        sign_in(self.browser, self.live_server_url, user)

    def test_the_log_box_opens_at_the_exception(self) -> None:
        from selenium.webdriver.common.by import By

        user, version = crashed_version("lou")
        self.login(user)
        self.browser.get(f"{self.live_server_url}/p/lou/v/{version.number}/")
        box = self.browser.find_element(By.ID, "log-tail")
        top, height, shown = (
            self.browser.execute_script(f"return arguments[0].{k}", box)
            for k in ("scrollTop", "scrollHeight", "clientHeight")
        )
        assert height > shown, "the log is longer than its box"
        assert top + shown >= height - 2, "the box is scrolled to its end"
        mark = box.find_element(By.CSS_SELECTOR, "mark.exc:last-of-type")
        assert "ValueError: oops 3" in mark.text

    def test_the_version_page_refreshes_itself_until_validated(self) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        contest = Contest.current()
        contest.time_per_move = 0.5
        contest.save()
        user, who = participant("mia")
        version = submit(who, [zip_bytes({"bot.py": NOISY_CRASH})])
        self.login(user)
        self.browser.get(f"{self.live_server_url}/p/mia/v/{version.number}/")
        assert "pending" in self.browser.find_element(By.ID, "state").get_attribute("class")
        claimed = claim_next()
        assert claimed is not None
        validate(claimed, isolation="process")
        # The page polls every 3 s; no reload by hand here. htmx may swap the element between
        # finding it and reading it: then look again.
        WebDriverWait(
            self.browser,
            PAGE_WAIT,
            poll_frequency=0.3,
            ignored_exceptions=(StaleElementReferenceException,),
        ).until(
            lambda b: "failed" in (b.find_element(By.ID, "state").get_attribute("class") or ""),
            "the page did not show the failed validation without a reload",
        )
        assert CRASH_WORDS in fresh(self.browser, lambda b: b.find_element(By.ID, "state").text)

    def test_the_participant_page_shows_new_games_without_a_reload(self) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait

        from tests.server.helpers import RANDOM_BOT
        from tournaments.domain.store import GameOutcome, SeatOutcome
        from tournaments.server.ladder import results
        from tournaments.server.ladder.standings import enter

        versions = []
        for name in ("nia", "oda"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            versions.append(v)
        self.browser.get(f"{self.live_server_url}/p/nia/")
        assert "No games yet" in self.browser.page_source
        game = results.schedule(Contest.current(), versions)
        seats = [SeatOutcome(v.entry_name, 40 - 10 * i, 1 + i) for i, v in enumerate(versions)]
        results.record(game.pk, GameOutcome(seats=seats, record={"ruleset": "azul"}, duration=1))
        # The page polls every 5 s; no reload by hand here.
        WebDriverWait(self.browser, PAGE_WAIT, poll_frequency=0.3).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, f"#live a[href='/games/{game.pk}/']"),
            "the new game did not appear without a reload",
        )
