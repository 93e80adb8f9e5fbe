"""`/api/docs` works offline and within the site's Content-Security-Policy (issue 33 part 4,
issue 34 item 8: Swagger UI was loaded from a CDN, so the page was blank without the internet
and the app's own CSP blocked it anyway).

Headless Chromium on a real `arbiter serve`, every request that leaves the server refused:
Swagger UI draws the API's operations, nothing was asked of another host, and the browser
reports no CSP violation.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Route

from tests.browser import page_at
from tests.web.serving import Served, new_event, serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder: Path = tmp_path_factory.mktemp("docs")
    store = str(folder / "store.duckdb")
    new_event(store, ["Berg, Anna", "Dahl, Ola"])
    server = serve(store, folder)
    try:
        yield server
    finally:
        server.stop()


def test_swagger_ui_from_the_package(served: Served, browser: Browser) -> None:
    page = page_at(browser, 1280, 800)
    outside: list[str] = []
    problems: list[str] = []

    def only_ours(route: Route) -> None:
        if route.request.url.startswith(served.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(message.text)

    page.route("**/*", only_ours)
    page.on("console", console)
    page.goto(served.url + "/api/docs")
    page.wait_for_selector(".opblock", timeout=30_000)
    operations = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/tournaments" in [o.strip() for o in operations]
    assert len(operations) >= 10
    assert outside == []
    assert [p for p in problems if "Content Security Policy" in p] == []
    page.context.close()
