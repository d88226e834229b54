"""Play a whole game on the play page (tournaments/web/play.js) with real clicks: for each of
the person's turns, click a tile of the first listed move's source and colour, then the line of
the person's board (or its floor) the move names. Shared by the offline and the server tests."""

from __future__ import annotations

import time
from typing import Any


def click_move(driver: Any, move: str, seat: int) -> None:
    from selenium.webdriver.common.by import By

    source, colour, dest = move[0], move[1], move[2]
    where = "[data-centre]" if source == "C" else f'[data-factory="{source}"]'
    driver.find_element(By.CSS_SELECTOR, f"{where} .t{colour}").click()
    board = f'.board[data-seat="{seat}"]'
    if dest == "F":
        driver.find_element(By.CSS_SELECTOR, f"{board} .floor").click()
    else:
        driver.find_elements(By.CSS_SELECTOR, f"{board} .pl")[int(dest) - 1].click()


def play_to_the_end(driver: Any, timeout: float = 240) -> tuple[int, str]:
    """Click moves until the page says the game is over: how many moves were clicked, and the
    status line at the end."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    clicked, last_ply = 0, -1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = driver.execute_script("return window.azulPlay && window.azulPlay.snapshot();")
        if snap and snap["result"]:
            error = driver.find_element(By.CSS_SELECTOR, ".error").text
            assert not error, f"the page's error: {error}"
            return clicked, driver.find_element(By.CSS_SELECTOR, ".status").text
        if snap and snap["your_turn"] and snap["ply"] != last_ply:
            # The move the page lists first, made with the board's clicks (not the list).
            try:
                first = driver.find_element(By.CSS_SELECTOR, ".legal button.move")
                move = first.get_attribute("data-move")
                assert move == snap["legal"][0]["move"]
                click_move(driver, move, snap["seat"])
            except StaleElementReferenceException:
                continue  # the page redrew meanwhile (a poll): look again
            last_ply = snap["ply"]
            clicked += 1
        time.sleep(0.05)
    raise AssertionError(f"the game did not end in {timeout} s ({clicked} moves clicked)")
