"""In real Chromium: the pages, the caught mail and a private page load under pbem's
Content-Security-Policy without a single violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import LiveSite
from tests.browser.test_play_in_chromium import open_newest_mail
from tests.web.support import start_game

pytestmark = pytest.mark.browser


def test_chromium_reports_no_csp_violation_on_the_pages(
    live_site: LiveSite, browser_page: Any
) -> None:
    page = browser_page
    violations: list[str] = []
    failed: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    for path in ("/", "/new"):
        page.goto(live_site.url + path)
    icon = page.goto(live_site.url + "/favicon.ico")  # browsers ask on every page
    assert icon is not None and icon.status == 200
    assert icon.headers["content-type"] == "image/x-icon"
    page.goto(live_site.url + "/new")
    with live_site.app.app_context():
        start_game(live_site.app)
    frame = open_newest_mail(page, live_site, "Pick the cards")
    frame.get_by_role("link", name="Pick the cards").click()
    page.get_by_role("checkbox").first.wait_for()
    assert violations == [] and failed == []  # no /favicon.ico 404 either
