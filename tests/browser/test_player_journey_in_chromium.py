"""Issue 19, done when: in real Chromium a new visitor signs in (the link caught by the mail
catcher), finds a table in the lobby and joins it (robots in the other free seats), plays it to
the end on their private page while the other person plays by the service, sees their rating
change on the summary and on My games, and starts a rematch, which begins once the other
person accepts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.bots import choose_event
from pbem.engine import CardPlayed, CardsPassed, MoonChosen, Phase
from pbem.service import lobby
from pbem.service.rematch import rematch_of
from pbem.store.db import transaction
from pbem.store.models import Game, Player
from tests.browser.conftest import LiveSite
from tests.browser.test_play_in_chromium import open_newest_mail
from tests.service.test_ratings import state_of

pytestmark = pytest.mark.browser
BOB_SEAT, NOVA_SEAT = 0, 1


def bob_opens_a_table(site: LiveSite) -> tuple[service.Context, int]:
    engine = db_engine(site.app)
    with transaction(engine) as session:
        bob = Player(email="bob@example.org", name="Bob")
        session.add(bob)
        session.flush()
        bob_id = bob.id or 0
    ctx = service.Context(engine=engine, rng=service.make_rng(seed=21))
    with site.app.app_context():
        game_id = lobby.open_table(ctx, bob_id, name="Evening table", preset="standard",
                                   options={"target": 26}, move_hours=24, open_seats=1,
                                   robot_strength="easy")
    return ctx, game_id


def bob_moves(site: LiveSite, ctx: service.Context, game_id: int) -> None:
    """Bob, the other person, plays his turn through the service (as his email links would)."""
    state = state_of(ctx.engine, game_id)
    event = choose_event(state, BOB_SEAT)
    with site.app.app_context():
        if isinstance(event, CardPlayed):
            service.play_card(ctx, game_id, BOB_SEAT, event.card)
        elif isinstance(event, CardsPassed):
            service.pass_cards(ctx, game_id, BOB_SEAT, event.cards)
        else:
            assert isinstance(event, MoonChosen)
            service.choose_moon(ctx, game_id, BOB_SEAT, event.down)


def nova_moves(page: Any, seat_url: str, phase: Phase) -> None:
    """Nova's turn on her private page: three cards to pass, a moon choice, or a card."""
    from playwright.sync_api import expect

    page.goto(seat_url)
    if phase is Phase.PASS:
        boxes = page.get_by_role("checkbox")
        for i in range(3):
            boxes.nth(i).check()
        page.get_by_role("button", name="Pass these 3 cards").click()
    elif phase is Phase.MOON_CHOICE:
        page.locator("button[name=choice]").first.click()
    else:
        expect(page.locator("#your-turn")).to_be_visible()
        page.locator("button.card").first.click()
    expect(page.get_by_role("status").first).to_be_visible()


def test_a_new_visitor_signs_in_joins_plays_sees_their_rating_and_starts_a_rematch(
        live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    page, site = browser_page, live_site
    ctx, game_id = bob_opens_a_table(site)

    # Sign in: no account yet; the link comes by email (the mail catcher's inbox).
    page.goto(site.url)
    page.locator("main").get_by_role("link", name="My games").click()  # (the header has one too)
    page.get_by_label("Your email address").fill("nova@example.net")
    page.get_by_role("button", name="Email me a sign-in link").click()
    expect(page.get_by_role("status")).to_contain_text("A sign-in link is on its way")
    frame = open_newest_mail(page, site, "Sign in to Hearts")
    frame.get_by_role("link", name="Sign in").click()
    page.get_by_label("Your name, as the other players see it").fill("Nova")
    page.get_by_role("button", name="Sign me in").click()
    expect(page.get_by_role("heading", name="Your games")).to_be_visible()
    expect(page.locator("#signed-in-as")).to_have_text("Signed in as Nova.")
    expect(page.locator("#my-rating")).to_contain_text("No rating yet")

    # The lobby: Bob's table, one seat free; joining it fills it and the game starts.
    page.get_by_role("link", name=re.compile("The lobby")).click()
    table = page.locator(f"#table-{game_id}")
    expect(table).to_contain_text("1 day per move")
    expect(table).to_contain_text("1 of 4 seats free")
    expect(table).to_contain_text("Playing: Bob")
    table.get_by_role("button", name="Join Evening table").click()
    expect(page.get_by_role("status")).to_contain_text("You took the last seat")
    opener = page.locator("#open-games").get_by_role("link", name="Open")
    if opener.count():
        opener.first.click()
    else:
        page.locator("#open-games").get_by_role("button", name="Open").first.click()
    expect(page).to_have_url(re.compile(r"/s/"))
    seat_url = page.url

    # Play to the end: Nova on her page, Bob by the service, the robots by themselves.
    for _ in range(400):
        state = state_of(ctx.engine, game_id)
        if state.game_over:
            break
        if NOVA_SEAT in state.to_move:
            nova_moves(page, seat_url, state.phase)
        else:
            bob_moves(site, ctx, game_id)
    assert state_of(ctx.engine, game_id).game_over

    # The rating changed: on the summary, and on My games.
    page.goto(f"{site.url}/me")
    page.locator("#finished-games").get_by_role("link", name="Evening table").click()
    ratings = page.locator("#rating-changes")
    expect(ratings).to_contain_text("Nova")
    expect(ratings).to_contain_text("Bob")
    page.goto(f"{site.url}/me")
    expect(page.locator("#my-rating")).to_contain_text("after 1 rated game")

    # Rematch: Nova asks on the summary; Bob accepts his invitation; it starts.
    page.goto(f"{site.url}/games/{game_id}/summary")
    page.get_by_role("link", name="Play again with the same players").click()
    page.get_by_role("button", name="Play again with the same players").click()
    expect(page.get_by_role("status")).to_contain_text("Rematch set up")
    new_id = rematch_of(ctx, game_id)
    assert new_id is not None
    expect(page).to_have_url(f"{site.url}/games/{new_id}")  # the rematch's own page
    with site.app.app_context():
        service.accept_invite(ctx, new_id, BOB_SEAT)
    with transaction(ctx.engine, read_only=True) as session:
        rematch = session.exec(select(Game).where(Game.id == new_id)).one()
    assert rematch.status == "active"
    page.goto(f"{site.url}/me")
    expect(page.locator("#open-games")).to_contain_text("Evening table")
