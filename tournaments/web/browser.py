"""The system's headless chromium, driven by selenium: for the page tests and `bench viewer`.

Debian's `chromium` and `chromium-driver` (no browser download works on a closed machine).
Without the networking switches chromium waits for a network that is not there.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver",)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1300,1000",
)


def _first(paths: tuple[str, ...], name: str) -> str | None:
    found = next((p for p in paths if Path(p).exists()), None)
    return found or shutil.which(name)


def missing() -> str | None:
    """Why no browser can be started here (what to install), or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[dev]'"
    if _first(CHROMIUM, "chromium") is None or _first(DRIVER, "chromedriver") is None:
        return "chromium not installed: apt-get install chromium chromium-driver"
    return None


def start(profile: Path) -> Any:
    """A selenium driver on a fresh headless chromium whose profile is the folder `profile`
    (check `missing()` first)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _first(CHROMIUM, "chromium") or "chromium"
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(
        service=Service(_first(DRIVER, "chromedriver") or "chromedriver"), options=options
    )
    driver.set_page_load_timeout(60)
    return driver
