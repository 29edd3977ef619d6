"""In real Chromium, seed 003's "a game can be terminated earlier by agreement": from the
private page reached through the caught email, the one human proposes to end the game; the
robots agree at once, so the button says it ends the game now, asked first; it ends, and the
page, the summary and its email say "ended by agreement" (before any hand was finished: no
winner)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import LiveSite
from tests.browser.test_play_in_chromium import open_newest_mail
from tests.web.support import start_game

pytestmark = pytest.mark.browser


def test_ending_the_game_by_agreement_from_the_page_seed_003(
        live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    with live_site.app.app_context():
        start_game(live_site.app)
    frame = open_newest_mail(page, live_site, "Pick the cards")
    frame.get_by_role("link", name="Open the game page").click()  # the private page, /s/...
    expect(page).to_have_url(re.compile(r"/s/"))
    expect(page.get_by_role("heading", name="End the game early?")).to_be_visible()
    page.get_by_role("link", name="End the game now").click()  # asked first (issue 37)
    page.get_by_role("button", name="End the game now").click()
    expect(page.get_by_role("status").first).to_contain_text("ended by agreement")
    expect(page.get_by_text(re.compile("The game is over, ended by agreement"))).to_be_visible()
    expect(page.get_by_role("link", name="End the game now")).to_have_count(0)
    page.get_by_role("link", name="The final result, hand by hand").click()
    expect(page.locator("#ended-by-agreement")).to_contain_text("no winner")
    summary = open_newest_mail(page, live_site, "is over")
    expect(summary.locator("body")).to_contain_text("Ended by agreement")
