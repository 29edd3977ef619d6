"""In real Chromium: create a game on /new (you, one invited friend, two computers), you
confirm it from your email, the friend accepts from the caught invitation, the game starts,
and both play from their private views."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from sqlmodel import select

from pbem.app import db_engine
from pbem.engine import Card, CardPlayed, GameState, Phase
from pbem.store.db import transaction
from pbem.store.models import Game
from tests.browser.conftest import LiveSite
from tests.web.support import events, human_move, played_before, state

pytestmark = pytest.mark.browser


def open_mail_to(page: Any, site: LiveSite, to: str, words: str) -> Any:
    """Reload /mail until the newest email to `to` contains `words`; return its frame."""
    from playwright.sync_api import expect

    for _attempt in range(50):
        page.goto(f"{site.url}/mail")
        rows = page.locator("table.grid tbody tr").filter(has_text=to)
        if rows.count() == 0:
            page.wait_for_timeout(200)
            continue
        rows.first.locator("a").first.click()
        frame = page.frame_locator("iframe.mail")
        try:
            expect(frame.locator("body")).to_contain_text(words, timeout=1000)
            return frame
        except AssertionError:
            page.wait_for_timeout(200)
    raise AssertionError(f"no email to {to} with {words!r} arrived")


def robots_answered(site: LiveSite, game_id: int) -> GameState:
    """The table once the robots have made the moves left to them (within 30 s)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with transaction(db_engine(site.app), read_only=True) as s:
            game = s.get(Game, game_id)
            if game is not None and game.robots_thinking_since is None:
                return state(site.app, game_id)
        time.sleep(0.1)
    raise AssertionError("the robots did not move within 30 s")


def only_game_id(site: LiveSite) -> int:
    with transaction(db_engine(site.app), read_only=True) as session:
        (game,) = session.exec(select(Game)).all()
        assert game.id is not None
        return game.id


def create_and_confirm(page: Any, site: LiveSite) -> int:
    """Send the filled-in form, then Ann (the organiser) confirms from her email: the id."""
    from playwright.sync_api import expect

    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.get_by_role("heading", name="Game created")).to_be_visible()
    game_id = only_game_id(site)
    frame = open_mail_to(page, site, "ann@example.com", "Confirm your game")
    frame.get_by_role("link", name=re.compile("Confirm the game")).first.click()
    page.get_by_role("button", name="Confirm the game").click()
    expect(page.get_by_role("status")).to_contain_text("your answer is recorded")
    return game_id


def test_create_accept_and_play_from_the_private_view(live_site: LiveSite,
                                                      browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    played_before(live_site.app, "bob@example.com")  # so his invitation names the game
    page.goto(f"{live_site.url}/new")
    page.get_by_label("Name of the game").fill("Browser game")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.com")
    page.locator("#p2_name").fill("Bob")
    page.locator("#p2_email").fill("bob@example.com")
    page.locator("#p3_computer").check()
    page.locator("#p4_computer").check()
    page.get_by_label("Target score").fill("26")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.get_by_role("heading", name="Game created")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("We emailed Ann to confirm it")
    game_id = only_game_id(live_site)

    # Ann, the organiser, confirms first; only then is Bob invited.
    frame = open_mail_to(page, live_site, "ann@example.com", "Confirm your game")
    frame.get_by_role("link", name=re.compile("Confirm the game")).first.click()
    page.get_by_role("button", name="Confirm the game").click()
    expect(page.get_by_role("status")).to_contain_text("your answer is recorded")

    frame = open_mail_to(page, live_site, "bob@example.com", "invites you")
    frame.get_by_role("link", name=re.compile("Accept")).first.click()
    page.get_by_role("button", name="Accept and play").click()
    expect(page.get_by_role("status")).to_contain_text("your answer is recorded")
    page.get_by_role("link", name="The table").click()
    expect(page.get_by_role("heading", name="“Browser game”")).to_be_visible()
    expect(page.locator("body")).not_to_contain_text("Waiting for everyone to accept")

    # Bob's pass email links to his private view: pass from there.
    frame = open_mail_to(page, live_site, "bob@example.com", "Pick the cards")
    frame.get_by_role("link", name="Open the game page").click()
    expect(page).to_have_url(re.compile(r"/s/"))
    bob_view = page.url
    expect(page.get_by_role("heading", name=re.compile("pass 3 cards"))).to_be_visible()
    boxes = page.get_by_role("checkbox")
    expect(boxes).to_have_count(13)
    for i in range(3):
        boxes.nth(i).check()
    page.get_by_role("button", name="Pass these 3 cards").click()
    expect(page.get_by_role("status")).to_contain_text("Your cards are passed")

    # Ann passes and plays through the service until it is Bob's turn (seat 1); the strong
    # robots answer from the pump, as from the worker, a moment later.
    human_move(live_site.app, game_id, 0)
    while 1 not in (now := robots_answered(live_site, game_id)).to_move:
        assert now.phase is Phase.PLAY
        assert human_move(live_site.app, game_id, 0)

    page.goto(bob_view)
    expect(page.locator("#your-turn")).to_be_visible()
    button = page.get_by_role("button", name=re.compile(r"^Play \S+$")).first
    code = button.get_attribute("value")
    button.click()
    expect(page.get_by_role("status")).to_contain_text("You played")
    expect(page.get_by_role("status")).to_contain_text(str(code))
    assert CardPlayed(1, Card.parse(str(code))) in events(live_site.app, game_id)


def test_create_a_whole_variant_for_two_and_confirm_it(live_site: LiveSite,
                                                        browser_page: Any) -> None:
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_site.url}/new")
    page.locator("#preset-choice").select_option("domino-two")
    page.get_by_role("button", name="Use these rules").click()
    expect(page.get_by_role("heading", name=re.compile("Domino Hearts, 2 players"))).to_be_visible()
    expect(page.locator("fieldset.player-row")).to_have_count(2)
    expect(page.locator("body")).to_contain_text("Only the options this variant leaves open")
    expect(page.get_by_label("Cards to pass")).to_have_count(0)
    page.get_by_label("Name of the game").fill("Dominoes")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.com")
    game_id = create_and_confirm(page, live_site)
    game = state(live_site.app, game_id)
    assert game.rules.players == 2 and game.phase is not Phase.DEAL and game.stock


def test_an_open_seat_waits_as_chosen_and_the_organiser_starts_now(live_site: LiveSite,
                                                                  browser_page: Any) -> None:
    """/new with seat 2 open and "as long as it takes": confirmed, the game waits for
    people; Ann signs in from the page she lands on, her sign-in link brings her to her
    game's page, and it starts the game with a robot in the open seat."""
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_site.url}/new")
    page.get_by_label("Name of the game").fill("Open game")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.com")
    page.locator("#p2_open").check()
    page.locator("#p3_computer").check()
    page.locator("#p4_computer").check()
    expect(page.get_by_label("Seats nobody takes wait for people for")).to_have_value("1440")
    page.get_by_label("Seats nobody takes wait for people for").select_option("never")
    game_id = create_and_confirm(page, live_site)

    page.get_by_role("link", name="sign in", exact=True).click()
    page.get_by_label("Your email address").fill("ann@example.com")
    page.get_by_role("button", name="Email me a sign-in link").click()
    frame = open_mail_to(page, live_site, "ann@example.com", "Sign in to Hearts")
    frame.get_by_role("link", name="Sign in").click()
    page.get_by_role("button", name="Sign me in").click()
    expect(page).to_have_url(f"{live_site.url}/games/{game_id}")
    expect(page.locator("body")).to_contain_text("No robots take the open seats by time")
    page.get_by_role("button", name="Start now with robots in the open seats").click()
    expect(page.get_by_role("status")).to_contain_text("The game has started")
    with transaction(db_engine(live_site.app), read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None and game.status == "active"


def test_choosing_other_rules_and_pressing_create_never_makes_the_rules_not_chosen(
        live_site: LiveSite, browser_page: Any) -> None:
    """Issue 37.1: Auction Hearts chosen in the menu, "Create the game" pressed without "Use
    these rules": no Standard game is made; the form comes back with Auction's options, the
    name and players typed kept, saying so; pressed again, the game is Auction Hearts."""
    from playwright.sync_api import expect

    page = browser_page
    page.goto(f"{live_site.url}/new")
    page.get_by_label("Name of the game").fill("Chosen rules")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_label("Your email").fill("ann@example.com")
    page.locator("#preset-choice").select_option("auction")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.get_by_role("alert")).to_contain_text("You chose Auction Hearts")
    expect(page.get_by_role("heading", name="2. The game: Auction Hearts")).to_be_visible()
    with transaction(db_engine(live_site.app), read_only=True) as session:
        assert session.exec(select(Game)).all() == []  # nothing made
    expect(page.get_by_label("Name of the game")).to_have_value("Chosen rules")
    expect(page.get_by_label("Your email")).to_have_value("ann@example.com")
    page.get_by_role("button", name="Create the game and send the invitations").click()
    expect(page.get_by_role("heading", name="Game created")).to_be_visible()
    with transaction(db_engine(live_site.app), read_only=True) as session:
        (game,) = session.exec(select(Game)).all()
    assert game.rules["variant"] == "auction"
