"""Issue 37, item 4, in real Chromium at a phone's width (375 px) and a desktop's (1280 px): the
card table look. The seats sit around the felt with their names, points and whose turn; the
trick lies in the middle as cards; the hand is a row of card buttons named as they show
("Play 4♣") that play when pressed; nothing is wider than the window; every card button is a
44 px tap target; the cards that cannot be played are dimmed with text contrast of 4.5:1 or more.
A finished game's pages stay short on a phone. Each page is kept as a screenshot in
$PBEM_ARTEFACTS (default test-artefacts/), named by page and width."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pbem import service
from pbem.engine import CardPlayed, GameState, Phase, legal_cards
from tests.browser.conftest import LiveSite
from tests.browser.test_create_in_chromium import robots_answered
from tests.browser.test_play_in_chromium import open_newest_mail
from tests.web.support import events, finish_game, human_move, start_game, state
from tests.web.variant_support import seat_page, variant_game

pytestmark = pytest.mark.browser
WIDTHS = (375, 1280)
ANN = service.Invitee(email="ann@example.com", name="Ann", accepted=True)
SHORT_ON_A_PHONE = 2750  # px: a finished game's page was 5,502 px tall at 375 px before

# WCAG's contrast ratio of an element's text on its own background (both opaque here).
CONTRAST = """(el) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const style = getComputedStyle(el);
  const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""

# Whether a point 40 px in from the button's leading edge is the button itself (not the next
# card overlapping it): the part of the card a finger can press.
PRESSABLE = """(el) => { const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 40, r.top + r.height / 2);
  return hit !== null && el.contains(hit); }"""


def artefact(page: Any, name: str, width: int) -> None:
    folder = Path(os.environ.get("PBEM_ARTEFACTS") or "test-artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)


def picture(page: Any, name: str, width: int, top: str, bottom: str) -> None:
    """The part of the page from `top`'s top to `bottom`'s bottom (README's pictures)."""
    first, last = page.locator(top).bounding_box(), page.locator(bottom).bounding_box()
    left = max(0, first["x"] - 16)
    clip = {"x": left, "y": max(0, first["y"] - 8), "width": min(first["width"] + 32, width - left),
            "height": last["y"] + last["height"] - first["y"] + 16}
    folder = Path(os.environ.get("PBEM_ARTEFACTS") or "test-artefacts")
    page.screenshot(path=str(folder / f"{name}-{width}.png"), clip=clip, full_page=True)


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def seats_around_the_table(page: Any, now: GameState, names: list[str], *,
                           mine: bool = True) -> None:
    """Every seat on the felt with its name and points; whoever is to move highlighted; the
    reader's own seat (seat 1 for an observer) at the bottom."""
    seats = page.locator(".felt .seat")
    expect(seats).to_have_count(now.seats)
    for seat in range(now.seats):
        box = seats.filter(has=page.locator(".who", has_text=re.compile(f"^{names[seat]}$")))
        expect(box).to_have_count(1)
        expect(box).to_contain_text(f"{now.totals[seat]} points, {now.hand_points[seat]} this hand")
        expect(box).to_have_class(re.compile(r"\bto-move\b" if seat in now.to_move
                                             else r"^(?!.*\bto-move\b)"))
    bottom = page.locator(".felt .me .seat")
    expect(bottom.locator(".who")).to_have_text(names[0])
    expect(bottom).to_have_class(re.compile(r"\byou\b" if mine else r"^(?!.*\byou\b)"))
    if now.seats == 4:  # four players: one on each side
        for side in ("top", "left", "right", "me"):
            expect(page.locator(f".felt .{side} .seat")).to_have_count(1)


def to_mid_trick(site: LiveSite, game_id: int) -> GameState:
    """Ann's turn with cards already on the table."""
    for _ in range(60):
        now = robots_answered(site, game_id)
        if now.phase is Phase.PLAY and 0 in now.to_move and now.current_trick.plays:
            return now
        assert human_move(site.app, game_id, 0) or now.to_move
    raise AssertionError("never Ann's turn in the middle of a trick")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_table_look(live_site: LiveSite, browser_page: Any, width: int) -> None:
    page, app = browser_page, live_site.app
    page.set_viewport_size({"width": width, "height": 900})
    game_id = start_game(app, seed=11, name="Table look", human=ANN)
    own = live_site.url + seat_page(app, game_id, 0)

    page.goto(own)  # the pass: the hand as cards to tick, the seats around the table
    now = state(app, game_id)
    names = _names_by_seat(page, now)
    seats_around_the_table(page, now, names)
    boxes = page.locator("label.card")
    expect(boxes).to_have_count(13)
    for i in range(13):
        box = boxes.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    no_sideways_scroll(page)
    artefact(page, "seat-pass", width)

    now = to_mid_trick(live_site, game_id)
    page.goto(own)
    seats_around_the_table(page, now, names)
    plays = page.locator(".felt .mid ol.trick-cards li")
    expect(plays).to_have_count(len(now.current_trick.plays))
    for i, (seat, card) in enumerate(now.current_trick.plays):
        expect(plays.nth(i).locator(f'.card[aria-label="{card}"]')).to_have_count(1)
        expect(plays.nth(i).locator("bdi")).to_have_text(names[seat])
    legal = legal_cards(now, 0)
    buttons = page.locator(".fan button.card")
    expect(buttons).to_have_count(len({str(c) for c in legal}))
    for card in legal:
        button = page.get_by_role("button", name=f"Play {card.symbol}", exact=True)
        expect(button).to_have_text(card.symbol)  # named as it shows
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, card
        button.scroll_into_view_if_needed()
        assert button.evaluate(PRESSABLE), card
    dimmed = page.locator(".fan .card.unplayable")
    expect(dimmed).to_have_count(13 - len(now.tricks) - len(legal))
    for i in range(dimmed.count()):
        assert dimmed.nth(i).evaluate(CONTRAST) >= 4.5
    no_sideways_scroll(page)
    artefact(page, "seat-trick", width)
    picture(page, "table", width, "main h1", ".fan")

    page.goto(f"{live_site.url}/games/{game_id}")  # the public table: no hand, the same felt
    seats_around_the_table(page, now, names, mine=False)
    expect(page.locator(".felt .mid ol.trick-cards li")).to_have_count(
        len(now.current_trick.plays))
    expect(page.locator(".fan")).to_have_count(0)
    no_sideways_scroll(page)
    artefact(page, "game", width)

    page.goto(own)
    played = legal[-1]
    page.get_by_role("button", name=f"Play {played.symbol}", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("You played")
    assert CardPlayed(0, played) in events(app, game_id)
    page.locator(".last-trick summary").click()  # the last trick, on request
    expect(page.locator(".last-trick ol.trick-cards li").first).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_card_link_confirms_then_plays(live_site: LiveSite, browser_page: Any,
                                         width: int) -> None:
    """The email's card link opens a page that asks first; its button plays the card."""
    page, app = browser_page, live_site.app
    page.set_viewport_size({"width": width, "height": 900})
    game_id = start_game(app, seed=11, name="Table look", human=ANN)
    now = to_mid_trick(live_site, game_id)
    frame = open_newest_mail(page, live_site, "Your turn,")
    expect(frame.locator(".felt .felt-play")).to_have_count(len(now.current_trick.plays))
    mail_html = page.locator("iframe.mail").get_attribute("srcdoc") or ""
    link = frame.locator("a.card").first
    code = link.locator(".code").inner_text().strip()
    link.click()
    expect(page).to_have_url(re.compile(r"/t/"))
    artefact(page, "card-confirm", width)
    email = page.context.new_page()  # the turn email alone, as a mail client shows it
    email.set_viewport_size({"width": min(width, 640), "height": 900})
    email.set_content(mail_html)
    artefact(email, "turn-email", width)
    picture(email, "turn-email-top", width, ".sheet", ".hand-table")
    email.close()
    expect(page.locator(".felt .mid ol.trick-cards li")).to_have_count(
        len(now.current_trick.plays))
    no_sideways_scroll(page)
    confirm = page.get_by_role("button", name=re.compile(r"^Play "))
    box = confirm.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    confirm.click()
    expect(page.get_by_role("status")).to_contain_text(code)
    assert any(isinstance(e, CardPlayed) and e.seat == 0 and str(e.card) == code
               for e in events(app, game_id))


@pytest.mark.parametrize("width", WIDTHS)
def test_a_finished_game_is_short_on_a_phone(live_site: LiveSite, browser_page: Any,
                                             width: int) -> None:
    page, app = browser_page, live_site.app
    page.set_viewport_size({"width": width, "height": 900})
    game_id = start_game(app, seed=11, name="Table look", human=ANN, target=100)
    own = live_site.url + seat_page(app, game_id, 0)
    over = finish_game(app, game_id)
    assert over.game_over
    for name, path in (("game-over", f"/games/{game_id}"),  # the summary, once over
                       ("summary", f"/games/{game_id}/summary"),
                       ("hand", f"/games/{game_id}/hands/1")):
        page.goto(live_site.url + path)
        no_sideways_scroll(page)
        artefact(page, name, width)
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"{name} at {width} px: {height} px tall")
        if width == 375 and name != "hand":
            assert height <= SHORT_ON_A_PHONE, (name, height)
    page.goto(own)  # the player's own page: the final points round the table
    seats_around_the_table(page, over, _names_by_seat(page, over))
    winners = page.locator(".felt .seat", has=page.locator(".tag", has_text="winner"))
    expect(winners).to_have_count(len(over.winners))


def _names_by_seat(page: Any, now: GameState) -> list[str]:
    """The seats' names as the page's points table lists them (seat order)."""
    cells = page.locator("details.points tbody tr td:first-child bdi")
    return [(cells.nth(s).text_content() or "").strip() for s in range(now.seats)]


@pytest.mark.parametrize("width", WIDTHS)
def test_ten_seats_round_the_table(live_site: LiveSite, browser_page: Any, width: int) -> None:
    """Cancellation Hearts for ten: the seats go round the felt (three a side and three on
    top), wrapping on a phone rather than widening the page; the hand is still 44 px targets."""
    page, app = browser_page, live_site.app
    page.set_viewport_size({"width": width, "height": 900})
    names = [f"Player {n}" for n in range(1, 11)]
    game_id = variant_game(app, "cancellation", options={"players": 10}, names=names)
    for _ in range(30):  # into the play, a card or two on the table
        now = state(app, game_id)
        if now.phase is Phase.PLAY and now.current_trick.plays:
            break
        (seat,) = now.to_move if now.phase is Phase.PLAY else (now.to_move[0],)
        assert human_move(app, game_id, seat)
    page.goto(f"{live_site.url}/games/{game_id}")
    seats_around_the_table(page, now, names, mine=False)
    for side, count in (("top", 3), ("left", 3), ("right", 3), ("me", 1)):
        expect(page.locator(f".felt .{side} .seat")).to_have_count(count)
    no_sideways_scroll(page)
    artefact(page, "game-ten-seats", width)
    (seat,) = now.to_move
    page.goto(live_site.url + seat_page(app, game_id, seat))
    no_sideways_scroll(page)
    for i in range(page.locator(".fan button.card").count()):
        box = page.locator(".fan button.card").nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    artefact(page, "seat-ten-seats", width)
