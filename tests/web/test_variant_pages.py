"""Domino and Cancellation Hearts on the pages, and every whole variant's end summary: the stock
and who is out, a player's own draws (on their view only), both copies of a card in a hand,
cancelled cards, tricks nobody won and the cards they carry, the widow; all escaped."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import (
    Card,
    CardsDrawn,
    GameCreated,
    GameState,
    apply,
    drawn_cards,
    legal_cards,
    start,
)
from tests.web.support import events, state
from tests.web.variant_support import (
    play_first_legal,
    play_to_the_end,
    seat_page,
    variant_game,
)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def text_of(html: str) -> str:
    """The page's words, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def draws(app: Flask, game_id: int) -> list[tuple[int, list[str]]]:
    """Each CardsDrawn of the game so far: (seat, the codes drawn), worked out by the engine."""
    found, now = [], None
    for event in events(app, game_id):
        if isinstance(event, GameCreated):
            now = start(event)
            continue
        assert isinstance(now, GameState)
        if isinstance(event, CardsDrawn):
            found.append((event.seat, [str(c) for c in drawn_cards(now, event)]))
        now = apply(now, event)
    return found


# --- Domino Hearts ----------------------------------------------------------------------------

def test_domino_seat_view_shows_what_you_drew_only_to_you(app: Flask,
                                                          client: FlaskClient) -> None:
    game_id = variant_game(app, "domino", seed=1)
    while not draws(app, game_id):
        play_first_legal(app, game_id)
    ((drawer, cards),) = draws(app, game_id)
    mine = client.get(seat_page(app, game_id, drawer)).get_data(as_text=True)
    shown = re.search(r"This hand you drew (.*?) from the stock", mine, re.S)
    assert shown and re.findall(r'aria-hidden="true">(\w\w)</span>', shown.group(1)) == cards
    other = client.get(seat_page(app, game_id, (drawer + 1) % 4)).get_data(as_text=True)
    public = client.get(f"/games/{game_id}").get_data(as_text=True)
    for page in (other, public):
        assert "you drew" not in page
    left = state(app, game_id).stock_size
    for page in (mine, other, public):
        assert f"The stock has {left} cards." in text_of(page)


def test_domino_pages_mark_the_players_who_are_out(app: Flask, client: FlaskClient) -> None:
    game_id = variant_game(app, "domino", seed=1)
    while all(state(app, game_id).hands):
        play_first_legal(app, game_id)
    now = state(app, game_id)
    out = [s for s in range(4) if not now.hands[s]]
    public = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    for s in out:
        assert f"{NAMES[s]} (out of this hand)" in public
    assert f"Out of this hand (no cards left): {NAMES[out[0]]}" in public
    own = text_of(client.get(seat_page(app, game_id, out[0])).get_data(as_text=True))
    assert "Out of this hand (no cards left): you" in own


# --- Cancellation Hearts ------------------------------------------------------------------------

def test_cancellation_seat_view_shows_both_copies(app: Flask, client: FlaskClient) -> None:
    game_id = variant_game(app, "cancellation", seed=4, options={"players": 7})
    now = state(app, game_id)
    seat = next(s for s in range(7) if len({str(c) for c in now.hand(s)}) < 14)
    codes = [str(c) for c in now.hand(seat)]
    twice = sorted({c for c in codes if codes.count(c) == 2})
    html = client.get(seat_page(app, game_id, seat)).get_data(as_text=True)
    for code in twice:  # one card face marked ×2, named by its code or, playable, as it shows
        symbol = re.escape(Card.parse(code).symbol)
        faces = re.findall(rf'aria-label="({code}|Play {symbol} ×2) \(both copies\)[^"]*">'
                           rf'<span class="rk">[^<]+</span><span class="pip">[^<]+</span>'
                           r'<span class="twice" aria-hidden="true">×2</span>', html)
        assert len(faces) == 1, code  # shown once
    assert "The widow (6 cards) goes with the first trick." in html


def test_cancellation_pages_show_cancelled_cards_and_tricks_nobody_won(
        app: Flask, client: FlaskClient) -> None:
    game_id = variant_game(app, "cancellation", seed=4, options={"players": 7})
    while not any(t.winner is None for t in state(app, game_id).tricks):
        play_first_legal(app, game_id)
    now = state(app, game_id)
    number = next(n for n, t in enumerate(now.tricks, start=1) if t.winner is None)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    line = re.search(rf'<li><span class="tn">Trick {number}</span>(.*?)</li>', html, re.S)
    assert line and "→ nobody" in line.group(1)
    assert "Nobody won this trick" in line.group(1)
    assert '<span class="cancelled">' in line.group(1) and "(cancelled)" in line.group(1)
    waiting = re.search(r"Waiting for the next trick's winner: (.*?)</p>", html, re.S)
    assert waiting
    codes = re.findall(r'aria-hidden="true">(\w\w)</span>', waiting.group(1))
    assert sorted(codes) == sorted({str(c) for c in now.carried_cards})  # copies shown once
    carried = [str(c) for c in now.carried_cards]
    doubled = {c for c in carried if carried.count(c) == 2}
    assert waiting.group(1).count(">×2</span>") == len(doubled)


# --- the end of the game ----------------------------------------------------------------------

def every_hand(client: FlaskClient, game_id: int) -> str:
    """The pages of all the hands of a finished game (the summary links each), one after
    the other."""
    pages = []
    while (hand := client.get(f"/games/{game_id}/hands/{len(pages) + 1}")).status_code == 200:
        pages.append(hand.get_data(as_text=True))
    assert pages and hand.status_code == 404
    return "".join(pages)


def test_auction_summary_shows_the_auctions_and_the_chips_settlement(
        app: Flask, client: FlaskClient) -> None:
    game_id = variant_game(app, "auction", options={"target": 10})
    end = play_to_the_end(app, game_id)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "the game is over" in html
    assert re.search(r"won the bidding with 1 chip \(.*\) and named spades as the suit to "
                     "avoid.", every_hand(client, game_id))
    assert "<h2>Settling up</h2>" in html
    for s, chips in enumerate(end.chips):
        if chips > 0:
            assert f"{NAMES[s]} collects {chips} chip" in html
        elif chips < 0:
            assert f"{NAMES[s]} pays {-chips} chip" in html
    if end.pot:
        assert re.search(rf"{end.pot} chips? stays? in the pot", html)  # 1 chip stays


def test_domino_and_cancellation_summaries(app: Flask, client: FlaskClient) -> None:
    domino = variant_game(app, "domino", seed=1, options={"target": 10})
    play_to_the_end(app, domino)
    html = text_of(every_hand(client, domino))
    seat, cards = draws(app, domino)[0]
    assert re.search(rf"Trick \d+: {NAMES[seat]} drew .*{cards[0]}.* from the stock", html)

    cancellation = variant_game(app, "cancellation", seed=4, options={"players": 7,
                                                                       "target": 20})
    play_to_the_end(app, cancellation)
    html = every_hand(client, cancellation)
    assert "Widow: " in html and "(cancelled)" in html
    assert "→ nobody" in html and "Nobody won this trick" in html
    assert "“cancellation” &lt;test&gt;" in html and "<test>" not in html  # escaped


def test_cancellation_a_card_held_twice_is_one_button_and_plays_one_copy(
        app: Flask, client: FlaskClient) -> None:
    from tests.web.test_seat_view import page_form
    from tests.web.variant_support import to_move

    game_id = variant_game(app, "cancellation", seed=4, options={"players": 7})
    for _ in range(200):
        now = state(app, game_id)
        seat = to_move(app, game_id)
        codes = [str(c) for c in legal_cards(now, seat)]
        twice = [c for c in codes if codes.count(c) == 2]
        if twice:
            break
        play_first_legal(app, game_id)
    else:
        raise AssertionError("nobody could play a card held twice")
    path = seat_page(app, game_id, seat)
    html, form = page_form(client, path)
    code = twice[0]
    assert html.count(f'<button type="submit" name="card" value="{code}"') == 1
    assert client.post(f"{path}/play", data={**form, "card": code}).status_code == 303
    after = [str(c) for c in state(app, game_id).hand(seat)]
    assert after.count(code) == 1
    html = client.get(path).get_data(as_text=True)
    assert f'aria-label="{code}"' in html or f'aria-label="{code} (cannot' in html
    assert f"{code} (both copies)" not in html
