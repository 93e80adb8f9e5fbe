"""A real headless browser for the tests: Playwright driving Debian's Chromium.

The ``browser`` fixture is registered once, in tests/conftest.py (never import it into a module:
that would make a second session fixture, and a second Playwright instance in one worker fails).
Playwright never downloads a browser here: it starts the system's ``chromium``
(``$ARBITER_CHROMIUM`` or the first on PATH). Without one the tests skip, and fail when
``ARBITER_REQUIRE_CHROMIUM=1`` (as CI sets).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

__all__ = ["CHROMIUM_ARGS", "browser", "chromium_path", "page_at"]

CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Flags for this closed machine: no network chatter at start, no sandbox as root."""


def chromium_path() -> str:
    """The system Chromium; skip (or fail when CI requires it) when there is none."""
    found = (
        os.environ.get("ARBITER_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if found:
        return found
    message = "headless Chromium not installed (apt-get install chromium)"
    if os.environ.get("ARBITER_REQUIRE_CHROMIUM") == "1":
        pytest.fail(message + " (ARBITER_REQUIRE_CHROMIUM=1)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole test session."""
    executable = chromium_path()
    with sync_playwright() as playwright:
        started = playwright.chromium.launch(
            executable_path=executable, args=list(CHROMIUM_ARGS), headless=True
        )
        try:
            yield started
        finally:
            started.close()


def page_at(browser: Browser, width: int, height: int = 844) -> Page:
    """A fresh page (its own context: cookies, storage) with the given viewport in CSS px.

    390 x 844 is a common phone (iPhone 12-15); 1280 x 800 a laptop.
    """
    context = browser.new_context(viewport={"width": width, "height": height})
    return context.new_page()
