"""In real Chromium, Auction Hearts through the pages: a player bids on their private view, wins
the bidding, names the suit to avoid with its button and plays a card; a bid link from the caught
email is confirmed with its button and then says it was used."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pbem import service
from pbem.engine import Card, Phase, Suit
from tests.browser.conftest import LiveSite
from tests.web.support import state
from tests.web.variant_support import ctx, seat_page, to_move, variant_game

pytestmark = pytest.mark.browser


def open_mail(page: Any, site: LiveSite, to: str, words: str) -> Any:
    """Reload the caught mail until an email to `to` containing `words` arrives; return the
    frame showing it."""
    from playwright.sync_api import expect

    for _attempt in range(50):
        page.goto(f"{site.url}/mail")
        rows = page.locator("table.grid tbody tr", has_text=to)
        for n in range(rows.count()):
            rows.nth(n).locator("a").first.click()
            frame = page.frame_locator("iframe.mail")
            try:
                expect(frame.locator("body")).to_contain_text(words, timeout=1000)
                return frame
            except AssertionError:
                page.go_back()
        page.wait_for_timeout(200)
    raise AssertionError(f"no email to {to} with {words!r} arrived")


def test_bid_name_the_suit_and_play_on_the_private_view(live_site: LiveSite,
                                                        browser_page: Any) -> None:
    from playwright.sync_api import expect

    app, page = live_site.app, browser_page
    game_id = variant_game(app, "auction")
    seat = to_move(app, game_id)
    page.goto(live_site.url + seat_page(app, game_id, seat))

    expect(page.get_by_role("heading", name=re.compile("your bid"))).to_be_visible()
    chips = page.get_by_label("Chips to bid for the right to name the suit to avoid")
    chips.fill("0")
    page.get_by_role("button", name="Bid", exact=True).click()
    assert chips.evaluate("e => e.validity.rangeUnderflow")  # the browser won't send it
    assert state(app, game_id).bids[seat] == -1
    chips.fill("4")
    page.get_by_role("button", name="Bid", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Done: you bid 4 chips.")
    assert state(app, game_id).bids[seat] == 4

    for _ in range(3):  # the others pass by email
        service.bid(ctx(app), game_id, to_move(app, game_id), None)
    page.reload()
    expect(page.get_by_text("You won the bidding with 4 chips")).to_be_visible()
    page.get_by_role("button", name="Avoid ♠ Spades").click()
    expect(page.get_by_role("status")).to_contain_text("you named spades as the suit to avoid")
    expect(page.get_by_text("♠ Spades are the suit to avoid this hand, named by you")
           ).to_be_visible()
    expect(page.get_by_text("The pot holds 4 chips.")).to_be_visible()
    assert state(app, game_id).named_suit is Suit.SPADES

    card = page.locator("button.card").first
    code = card.get_attribute("value") or ""  # the card it plays; it shows as a face: "Q♠"
    expect(card).to_have_text(Card.parse(code).symbol)
    card.click()
    expect(page.get_by_role("status")).to_contain_text(f"({code})")
    now = state(app, game_id)
    assert now.phase is Phase.PLAY and now.current_trick.plays[0][0] == seat
    assert str(now.current_trick.plays[0][1]) == code


def test_a_bid_link_from_the_caught_email_is_confirmed_then_used_up(
        live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    app, page = live_site.app, browser_page
    game_id = variant_game(app, "auction")
    seat = to_move(app, game_id)
    frame = open_mail(page, live_site, f"player{seat}@example.com", "Your bid, ")
    frame.get_by_role("link", name="Bid 3 chips").click()  # opens in the top window
    expect(page).to_have_url(re.compile(r"/t/"))
    link = page.url
    expect(page.get_by_role("heading", name=re.compile("Bid 3 chips for the right"))
           ).to_be_visible()
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    page.get_by_role("button", name="Bid 3 chips").click()
    expect(page.get_by_role("status")).to_contain_text("Done: you bid 3 chips.")
    page.goto(link)
    expect(page.get_by_role("heading", name="Already done")).to_be_visible()
    expect(page.get_by_role("button", name="Bid 3 chips")).to_have_count(0)
    assert state(app, game_id).bids[seat] == 3
