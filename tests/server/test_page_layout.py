"""The pages read right in headless chromium on a live server: each number sits under its own
header, the participant's recent games name the opponents, the sign-up form is styled."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import LiveServerTestCase

from tests.server.helpers import RANDOM_BOT, participant, zip_bytes
from tests.web.browser import fresh
from tournaments.server.contests.models import Contest
from tournaments.server.submissions.intake import submit
from tournaments.server.submissions.models import Version

# For every numeric cell: how far the right edge of its text is from its header's text's right
# edge (numbers and their headers are both right-aligned; a left-aligned header over a
# right-aligned number leaves the number under the next column's header).
MISALIGNED = """
function right(el) { const r = document.createRange(); r.selectNodeContents(el);
                     return r.getBoundingClientRect().right; }
const out = [];
for (const td of document.querySelectorAll("td.num")) {
  if (!td.textContent.trim()) continue;
  const th = td.closest("table").rows[0].cells[td.cellIndex];
  const gap = Math.abs(right(th) - right(td));
  if (gap > 3) out.push(th.textContent + " / " + td.textContent + ": " + gap.toFixed(0) + "px");
}
return out;
"""


@pytest.mark.slow  # a live server measured in chromium: `make test-slow`, run by CI
@pytest.mark.usefixtures("browser_for_class")
class PageLayoutTests(LiveServerTestCase):
    browser: Any

    def test_numbers_sit_under_their_headers_and_games_name_the_opponent(self) -> None:
        from selenium.webdriver.common.by import By

        from tournaments.domain.store import GameOutcome, SeatOutcome
        from tournaments.server.ladder import results
        from tournaments.server.ladder.standings import enter

        versions = []
        for name in ("ann", "bea"):
            _, who = participant(name)
            v = submit(who, [zip_bytes({"bot.py": RANDOM_BOT})])
            Version.objects.filter(pk=v.pk).update(state=Version.PASSED)
            enter(v)
            versions.append(v)
        game = results.schedule(Contest.current(), versions)
        seats = [SeatOutcome(v.entry_name, 40 - 10 * i, 1 + i) for i, v in enumerate(versions)]
        results.record(game.pk, GameOutcome(seats=seats, record={"ruleset": "azul"}, duration=1))
        self.browser.get(f"{self.live_server_url}/p/ann/")

        def recent_games(b: Any) -> tuple[list[str], list[str]]:
            recent = b.find_element(By.ID, "recent")
            headers = [th.text for th in recent.find_elements(By.TAG_NAME, "th")]
            row = [td.text for td in recent.find_elements(By.CSS_SELECTOR, "tr:nth-child(2) td")]
            return headers, row

        # The table is in the part of the page that refreshes itself every 5 s.
        headers, row = fresh(self.browser, recent_games)
        assert row[headers.index("opponents")] == "bea v1 (30)", (headers, row)
        assert row[headers.index("score")] == "40" and row[headers.index("rank")] == "1"
        for page in ("/p/ann/", "/"):
            self.browser.get(f"{self.live_server_url}{page}")
            assert self.browser.find_elements(By.CSS_SELECTOR, "td.num"), page
            assert self.browser.execute_script(MISALIGNED) == [], page

    def test_the_sign_up_form_is_styled(self) -> None:
        from selenium.webdriver.common.by import By

        self.browser.get(f"{self.live_server_url}/signup/")
        field = self.browser.find_element(By.NAME, "username")
        label = self.browser.find_element(By.CSS_SELECTOR, "label[for=id_username]")
        button = self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]")
        assert field.size["width"] >= 240, "a field wide enough to type a name in"
        assert label.location["y"] + label.size["height"] <= field.location["y"] + 1, "label above"
        assert field.value_of_css_property("padding-left") not in ("0px", "1px")
        assert button.value_of_css_property("background-color") == "rgba(31, 60, 136, 1)"
