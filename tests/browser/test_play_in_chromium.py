"""In real Chromium: open the caught turn email, tap a card, confirm, see it played; the same
link again says "already played"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import LiveSite
from tests.web.support import start_game

pytestmark = pytest.mark.browser


def open_newest_mail(page: Any, site: LiveSite, first_words: str) -> Any:
    """Reload /mail until the newest email's HTML contains `first_words`; return its frame.

    `first_words` must be particular to one kind of email: the game-started email arrives with
    the pass email and also says "Pass 3 cards" (in the rules), and every asking email's
    preview starts "Your turn:" (the play email's heading is "Your turn, NAME")."""
    from playwright.sync_api import expect

    for _attempt in range(50):
        page.goto(f"{site.url}/mail")
        newest = page.locator("table.grid tbody tr a")
        if newest.count() == 0:
            page.wait_for_timeout(200)
            continue
        newest.first.click()
        frame = page.frame_locator("iframe.mail")
        try:
            expect(frame.locator("body")).to_contain_text(first_words, timeout=1000)
            return frame
        except AssertionError:
            page.wait_for_timeout(200)
    raise AssertionError(f"no email with {first_words!r} arrived")


def test_play_a_card_from_the_caught_email(live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    with live_site.app.app_context():
        start_game(live_site.app)

    frame = open_newest_mail(page, live_site, "Pick the cards")
    frame.get_by_role("link", name="Pick the cards").click()  # opens in the top window
    expect(page.get_by_role("heading", name=re.compile("Pass 3 cards"))).to_be_visible()
    boxes = page.get_by_role("checkbox")
    expect(boxes).to_have_count(13)
    for i in range(3):
        boxes.nth(i).check()
    page.get_by_role("button", name="Pass these 3 cards").click()
    expect(page.get_by_role("status")).to_contain_text("your cards are passed")

    frame = open_newest_mail(page, live_site, "Your turn,")
    card_link = frame.locator("a.card").first
    code = card_link.locator(".code").inner_text().strip()
    card_link.click()
    expect(page).to_have_url(re.compile(r"/t/"))
    link = page.url
    expect(page.get_by_role("heading", name=re.compile("Play"))).to_be_visible()
    expect(page.locator("table .card.chosen")).to_contain_text(code)  # in the hand
    page.get_by_role("button", name=f"Play {code}").click()
    expect(page.get_by_role("status")).to_contain_text("you played")
    expect(page.get_by_role("status")).to_contain_text(code)

    page.go_back()  # the confirmation page again (from the cache or re-rendered)
    page.goto(link)
    expect(page.get_by_role("heading", name="Already played")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Play"))).to_have_count(0)


def test_pressing_play_twice_says_already_played(live_site: LiveSite,
                                                 browser_page: Any) -> None:
    """Two tabs on the same confirmation page: the second press changes nothing."""
    from playwright.sync_api import expect

    page = browser_page
    with live_site.app.app_context():
        start_game(live_site.app)
    frame = open_newest_mail(page, live_site, "Pick the cards")
    frame.get_by_role("link", name="Pick the cards").click()
    for i in range(3):
        page.get_by_role("checkbox").nth(i).check()
    page.get_by_role("button", name="Pass these 3 cards").click()
    frame = open_newest_mail(page, live_site, "Your turn,")
    frame.locator("a.card").first.click()
    link = page.url
    second = page.context.new_page()
    second.goto(link)
    page.get_by_role("button", name=re.compile("^Play")).click()
    expect(page.get_by_role("status")).to_contain_text("you played")
    second.get_by_role("button", name=re.compile("^Play")).click()
    expect(second.get_by_role("heading", name="Already played")).to_be_visible()
