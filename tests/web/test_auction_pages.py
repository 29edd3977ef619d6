"""Auction Hearts on the private view (/s/<token>) and the public pages: the bid form, the four
suit buttons, and the bids, pot, chips and suit to avoid for everyone to see."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from pbem import service
from pbem.engine import Phase, Suit
from tests.helpers import bid_in_turn
from tests.web.support import csrf_of, snapshot, state
from tests.web.variant_support import ctx, seat_page, to_move, variant_game

_SEQ = re.compile(r'name="turn" value="(\d+)"')
NAMES = ("Ann", "Bob", "Cy", "Dee")


def form_of(client: FlaskClient, path: str) -> tuple[str, dict[str, str]]:
    html = client.get(path).get_data(as_text=True)
    seq = _SEQ.search(html)
    return html, {"csrf_token": csrf_of(html), "turn": seq.group(1) if seq else ""}


def test_seat_view_shows_the_bid_form_on_your_turn(app: Flask, client: FlaskClient,
                                                   auction: int) -> None:
    bid_in_turn(ctx(app), auction, 3)
    seat = to_move(app, auction)
    html = client.get(seat_page(app, auction, seat)).get_data(as_text=True)
    assert "Your hand" in html and "Your move" in html
    assert re.search(r'<input type="number" id="chips" name="chips" min="4"', html)
    assert '<button type="submit" name="pass" value="1"' in html
    assert "Bidding for the suit to avoid: the highest bid so far is 3 chips." in html
    assert "Bid more than 3 chips (the highest bid so far), or pass." in html
    other = client.get(seat_page(app, auction, (seat + 1) % 4)).get_data(as_text=True)
    assert 'name="chips"' not in other and f"Waiting for {NAMES[seat]}" in other


def test_seat_view_bids_from_the_form(app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = seat_page(app, auction, seat)
    _html, form = form_of(client, path)
    response = client.post(f"{path}/bid", data={**form, "chips": "6"})
    assert response.status_code == 303
    assert "Done: you bid 6 chips." in client.get(path).get_data(as_text=True)
    assert state(app, auction).bids[seat] == 6

    before = snapshot(app, auction)
    again = client.post(f"{path}/bid", data={**form, "chips": "6"})  # pressed twice
    assert again.status_code == 303
    assert "you bid 6 chips already" in client.get(path).get_data(as_text=True)
    assert snapshot(app, auction) == before


def test_seat_view_pass_button_passes(app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = seat_page(app, auction, seat)
    _html, form = form_of(client, path)
    response = client.post(f"{path}/bid", data={**form, "chips": "", "pass": "1"})
    assert response.status_code == 303
    assert "Done: you passed." in client.get(path).get_data(as_text=True)
    assert state(app, auction).bids[seat] == 0


def test_seat_view_bid_form_refuses_a_low_bid_in_words(app: Flask, client: FlaskClient,
                                                       auction: int) -> None:
    bid_in_turn(ctx(app), auction, 3)
    seat = to_move(app, auction)
    path = seat_page(app, auction, seat)
    _html, form = form_of(client, path)
    before = snapshot(app, auction)
    response = client.post(f"{path}/bid", data={**form, "chips": "3"})
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "more than 3 chips" in html  # the service's words
    assert 'name="chips"' in html  # the form again, to bid more
    assert snapshot(app, auction) == before

    # Digits that are no ASCII digits: str.isdigit() says yes to "²" and "①" but int()
    # fails on them (a 500 before); "٥" and "５" are read by int(): refused all the same.
    for typed in ("lots", "-2", "0", "1e9", "²", "①", "٥", "５", "1²"):
        refused = client.post(f"{path}/bid", data={**form, "chips": typed})
        assert refused.status_code == 422
        assert f"Type a whole number of chips to bid, at least 4 (“{typed}” is not one), or " \
            "press Pass." in refused.get_data(as_text=True)
    assert snapshot(app, auction) == before


def test_a_bid_page_left_open_since_an_earlier_turn_bids_nothing(
        app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = seat_page(app, auction, seat)
    _html, form = form_of(client, path)
    stale = {**form, "turn": str(int(form["turn"]) - 1)}
    before = snapshot(app, auction)
    for turn in (stale["turn"], "²", "①", form["turn"] + "²"):  # not ASCII: no 500 either
        response = client.post(f"{path}/bid", data={**form, "turn": turn, "chips": "2"})
        assert response.status_code == 409
        assert "The game moved on since this page was shown, so nothing was done." in \
            response.get_data(as_text=True)
    assert snapshot(app, auction) == before


def test_seat_view_bid_needs_the_csrf_token(app: Flask, client: FlaskClient,
                                            auction: int) -> None:
    path = seat_page(app, auction, to_move(app, auction))
    _html, form = form_of(client, path)
    before = snapshot(app, auction)
    assert client.post(f"{path}/bid", data={"turn": form["turn"], "chips": "2"}
                       ).status_code == 400
    assert client.post(f"{path}/suit", data={"turn": form["turn"], "suit": "S"}
                       ).status_code == 400
    assert snapshot(app, auction) == before


def test_seat_view_names_the_suit_with_four_buttons(app: Flask, client: FlaskClient,
                                                    auction: int) -> None:
    bid_in_turn(ctx(app), auction, 2, None, None, None)
    bidder = state(app, auction).bidder
    path = seat_page(app, auction, bidder)
    html, form = form_of(client, path)
    buttons = re.findall(r'<button type="submit" name="suit" value="suit:(\w)"', html)
    assert buttons == ["C", "D", "H", "S"]
    assert "You won the bidding with 2 chips: they go into the pot" in html
    other = client.get(seat_page(app, auction, (bidder + 1) % 4)).get_data(as_text=True)
    assert 'name="suit"' not in other

    for bad in ("X", "bid:²", "bid:①", "suit:²"):
        assert client.post(f"{path}/suit", data={**form, "suit": bad}).status_code == 400
    response = client.post(f"{path}/suit", data={**form, "suit": "suit:D"})
    assert response.status_code == 303
    now = state(app, auction)
    assert now.phase is Phase.PLAY and now.named_suit is Suit.DIAMONDS
    page = client.get(path).get_data(as_text=True)
    assert "Done: you named diamonds as the suit to avoid." in page
    assert "♦ Diamonds are the suit to avoid this hand, named by you" in page
    assert "The diamonds score instead of the hearts: hearts count nothing this hand." in page
    assert "Your turn: press a card to play it." in page


def test_only_the_winning_bidder_names_the_suit(app: Flask, client: FlaskClient,
                                                auction: int) -> None:
    bid_in_turn(ctx(app), auction, 2, None, None, None)
    bidder = state(app, auction).bidder
    loser = (bidder + 1) % 4
    path = seat_page(app, auction, loser)
    _html, form = form_of(client, path)
    before = snapshot(app, auction)
    response = client.post(f"{path}/suit", data={**form, "suit": "suit:S"})
    assert response.status_code == 409
    assert f"Only {NAMES[bidder]}, who won the bidding, names the suit." in \
        response.get_data(as_text=True)
    assert snapshot(app, auction) == before


def test_the_game_page_shows_bids_pot_chips_and_the_suit_to_avoid(
        app: Flask, client: FlaskClient, auction: int) -> None:
    first = to_move(app, auction)
    bid_in_turn(ctx(app), auction, 2)
    html = client.get(f"/games/{auction}").get_data(as_text=True)
    assert "the players are bidding for the right to name the suit to avoid" in html
    assert "Bidding for the suit to avoid: the highest bid so far is 2 chips." in html
    assert f"<td><bdi>{NAMES[first]}</bdi></td><td>2 chips</td>" in html
    assert "Your hand" not in html

    bid_in_turn(ctx(app), auction, 5, None, None)
    bidder = state(app, auction).bidder
    html = client.get(f"/games/{auction}").get_data(as_text=True)
    assert f"{NAMES[bidder]} to name the suit to avoid." in html
    assert "The pot holds 5 chips." in html
    zero, paid = '<td class="num">0</td>', '<td class="num">-5</td>'
    # the scores' chips column
    assert f"<td><bdi>{NAMES[bidder]}</bdi></td>{zero}{zero}{paid}" in html

    service.name_suit(ctx(app), auction, bidder, Suit.CLUBS)
    html = client.get(f"/games/{auction}").get_data(as_text=True)
    assert f"♣ Clubs are the suit to avoid this hand, named by {NAMES[bidder]}" in html
    assert "The clubs score instead of the hearts: hearts count nothing this hand." in html


def test_auction_pages_get_and_head_change_nothing(app: Flask, client: FlaskClient,
                                                   auction: int) -> None:
    bid_in_turn(ctx(app), auction, 2)
    seat = to_move(app, auction)
    paths = [seat_page(app, auction, s) for s in range(4)] + [f"/games/{auction}"]
    before = snapshot(app, auction)
    for path in paths:
        assert client.get(path).status_code == 200
        assert client.head(path).status_code == 200
    assert snapshot(app, auction) == before
    assert state(app, auction).bids[seat] == -1


def test_player_names_and_the_game_name_are_escaped(app: Flask, client: FlaskClient) -> None:
    names = ("<b>Ann</b>", "Bob & Co", "Cy \"x\"", "<script>alert(1)</script>")
    game_id = variant_game(app, "auction", names=names)
    bid_in_turn(ctx(app), game_id, 3, None)
    for path in (f"/games/{game_id}", seat_page(app, game_id, to_move(app, game_id))):
        html = client.get(path).get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html and "<b>Ann</b>" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "&lt;test&gt;" in html  # the game's name
