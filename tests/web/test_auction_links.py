"""Auction Hearts by the one-time links of the emails (/t/<token>): a bid, a pass, the suit to
avoid. GET shows what the link does (with the hand and the auction so far) and changes nothing;
the button POSTs (CSRF) through the service; a link acts once; late links say why."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import BidMade, Phase, Suit, SuitNamed
from tests.helpers import bid_in_turn
from tests.web.support import csrf_of, events, post_link, snapshot, state
from tests.web.variant_support import (
    bid_link,
    ctx,
    fresh_csrf,
    suit_link,
    to_move,
)


def test_bid_link_get_changes_nothing(app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = bid_link(app, auction, seat, 5)
    before = snapshot(app, auction)
    page = client.get(path)
    client.head(path)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Bid 5 chips for the right to name the suit to avoid?" in html
    assert '<button type="submit">Bid 5 chips</button>' in html
    assert "Your hand" in html and "Bidding for the suit to avoid: no bids yet." in html
    assert snapshot(app, auction) == before
    assert state(app, auction).bids[seat] == -1


def test_bid_link_post_bids_once(app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = bid_link(app, auction, seat, 5)
    csrf = csrf_of(client.get(path).get_data(as_text=True))
    response = client.post(path, data={"csrf_token": csrf})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Done: you bid 5 chips." in html
    assert state(app, auction).bids[seat] == 5
    assert [e for e in events(app, auction) if isinstance(e, BidMade)] == [BidMade(seat, 5)]

    before = snapshot(app, auction)
    again = client.post(path, data={"csrf_token": csrf})  # pressed again
    assert again.status_code == 200
    text = again.get_data(as_text=True)
    assert "Already done" in text and "you bid 5 chips" in text
    assert "a bid can&#39;t be changed" in text or "a bid can't be changed" in text
    assert snapshot(app, auction) == before


def test_pass_link_passes(app: Flask, client: FlaskClient, auction: int) -> None:
    seat = to_move(app, auction)
    path = bid_link(app, auction, seat, None)
    page = client.get(path).get_data(as_text=True)
    assert "<h1>Pass?</h1>" in page
    html = post_link(client, path).get_data(as_text=True)
    assert "Done: you passed." in html
    assert state(app, auction).bids[seat] == 0


def test_the_other_links_of_the_turn_say_what_was_bid(app: Flask, client: FlaskClient,
                                                      auction: int) -> None:
    seat = to_move(app, auction)
    five, passing = bid_link(app, auction, seat, 5), bid_link(app, auction, seat, None)
    csrf = csrf_of(client.get(passing).get_data(as_text=True))  # both pages open at once
    post_link(client, five)
    before = snapshot(app, auction)
    assert "you bid 5 chips" in client.get(passing).get_data(as_text=True)
    html = client.post(passing, data={"csrf_token": csrf}).get_data(as_text=True)
    assert "you bid 5 chips" in html and "Done: you passed" not in html
    assert snapshot(app, auction) == before
    assert state(app, auction).bids[seat] == 5


def test_stale_bid_link_explains(app: Flask, client: FlaskClient, auction: int) -> None:
    """Someone else's turn, a bid now too low, bidding over: each page says which."""
    first = to_move(app, auction)
    late = bid_link(app, auction, first, 3)
    csrf = csrf_of(client.get(late).get_data(as_text=True))  # pages opened in time
    bid_in_turn(ctx(app), auction, 4)  # the first bidder bid 4 by email
    html = client.get(late).get_data(as_text=True)
    assert "Already done" in html and "you bid 4 chips" in html  # the seat did bid

    second = to_move(app, auction)
    low = bid_link(app, auction, second, 2)
    too_low = client.get(low).get_data(as_text=True)
    assert "The highest bid is now 4 chips, so a bid of 2 chips is too low" in too_low
    assert client.post(low, data={"csrf_token": csrf}).status_code == 409

    third = (second + 1) % 4
    early = bid_link(app, auction, third, 9)
    not_yet = client.get(early).get_data(as_text=True)
    assert f"It&#39;s {['Ann', 'Bob', 'Cy', 'Dee'][second]}&#39;s turn to bid, not yours." \
        in not_yet

    bid_in_turn(ctx(app), auction, None, None, None)
    assert "Already done" in client.get(early).get_data(as_text=True)  # they passed
    late_comer = bid_link(app, auction, third, 9)  # a link made after the bidding
    over = client.get(late_comer).get_data(as_text=True)
    winner = ['Ann', 'Bob', 'Cy', 'Dee'][first]
    assert f"The bidding for this hand is over, and {winner} names the suit to avoid." in over
    before = snapshot(app, auction)
    assert client.post(late_comer, data={"csrf_token": csrf}).status_code == 409
    assert snapshot(app, auction) == before


def test_suit_link_names_the_suit_once(app: Flask, client: FlaskClient, auction: int) -> None:
    bid_in_turn(ctx(app), auction, 3, None, None, None)
    now = state(app, auction)
    assert now.phase is Phase.NAME_SUIT
    bidder = now.bidder
    spades, hearts = suit_link(app, auction, bidder, Suit.SPADES), \
        suit_link(app, auction, bidder, Suit.HEARTS)
    before = snapshot(app, auction)
    page = client.get(spades).get_data(as_text=True)
    assert "<h1>Avoid spades?</h1>" in page and "3 chips" in page
    clubs = client.get(suit_link(app, auction, bidder, Suit.CLUBS)).get_data(as_text=True)
    assert "<h1>Avoid clubs?</h1>" in clubs and "♣ Clubs</strong> as the suit to avoid" in clubs
    assert snapshot(app, auction) == before

    html = post_link(client, spades).get_data(as_text=True)
    assert "Done: you named spades as the suit to avoid." in html
    assert SuitNamed(bidder, Suit.SPADES) in events(app, auction)
    assert state(app, auction).phase is Phase.PLAY
    assert "♠ Spades are the suit to avoid this hand, named by you" in html

    other = client.get(hearts).get_data(as_text=True)
    assert "Already done" in other and "you named spades" in other


def test_suit_link_of_someone_who_lost_the_bidding_explains(
        app: Flask, client: FlaskClient, auction: int) -> None:
    first = to_move(app, auction)
    bid_in_turn(ctx(app), auction, None, 2, None, None)
    winner = state(app, auction).bidder
    assert winner != first
    path = suit_link(app, auction, first, Suit.CLUBS)
    html = client.get(path).get_data(as_text=True)
    name = ["Ann", "Bob", "Cy", "Dee"][winner]
    assert f"{name} won the bidding, so {name} names the suit, not you." in html
    csrf = fresh_csrf(app, client, auction)
    assert client.post(path, data={"csrf_token": csrf}).status_code == 409
    assert state(app, auction).phase is Phase.NAME_SUIT


def test_bid_links_need_the_csrf_token(app: Flask, client: FlaskClient, auction: int) -> None:
    path = bid_link(app, auction, to_move(app, auction), 5)
    before = snapshot(app, auction)
    assert client.post(path, data={}).status_code == 400
    assert snapshot(app, auction) == before


def test_the_emails_bid_and_suit_links_work_end_to_end(app: Flask, client: FlaskClient,
                                                       auction: int) -> None:
    """The links the bid and name-the-suit emails carry: pass, bid, then name the suit."""
    from tests.web.support import links, newest

    first = to_move(app, auction)
    mail = newest(app, "bid")
    assert mail.to_addr == f"player{first}@example.com"
    paths = links(mail.body_text)
    pages = {client.get(p).get_data(as_text=True): p for p in paths}
    bid_one = next(p for html, p in pages.items() if "<h1>Bid 1 chip for the right" in html)
    assert "Done: you bid 1 chip." in post_link(client, bid_one).get_data(as_text=True)

    for _ in range(3):  # everyone else passes with the Pass link of their own email
        seat = to_move(app, auction)
        mail = newest(app, "bid")
        assert mail.to_addr == f"player{seat}@example.com"
        passing = next(p for p in links(mail.body_text)
                       if "<h1>Pass?</h1>" in client.get(p).get_data(as_text=True))
        assert "Done: you passed." in post_link(client, passing).get_data(as_text=True)

    mail = newest(app, "name_suit")
    assert mail.to_addr == f"player{first}@example.com"
    hearts = next(p for p in links(mail.body_text)
                  if "<h1>Avoid hearts?</h1>" in client.get(p).get_data(as_text=True))
    html = post_link(client, hearts).get_data(as_text=True)
    assert "Done: you named hearts as the suit to avoid." in html
    assert "The hearts score instead" not in html  # hearts named: nothing to point out
    assert state(app, auction).named_suit is Suit.HEARTS


def test_a_robot_bid_on_a_timeout_is_not_called_the_players_own(
        app: Flask, client: FlaskClient, auction: int) -> None:
    """Events record who acted: when the deadline passed and the robot bid for the player,
    the player's old bid link says the robot did it, not "you bid" or "you passed"."""
    from datetime import timedelta

    from sqlmodel import select

    from pbem.app import db_engine
    from pbem.service import TIMEOUT, Context, timeout_move
    from pbem.store.db import transaction
    from pbem.store.events import load_events_by
    from pbem.store.models import Deadline

    seat = to_move(app, auction)
    path = bid_link(app, auction, seat, 5)
    with transaction(db_engine(app), read_only=True) as session:
        row = session.exec(select(Deadline).where(
            Deadline.game_id == auction, Deadline.seat_no == seat,
            Deadline.status == "pending")).one()
    late = row.grace_until + timedelta(minutes=1)
    assert not timeout_move(Context(engine=db_engine(app), clock=lambda: late), auction, seat,
                            row.turn_seq).duplicate
    with transaction(db_engine(app), read_only=True) as session:
        made = [(e, by) for e, by in load_events_by(session, auction)
                if isinstance(e, BidMade) and e.seat == seat]
    assert [by for _e, by in made] == [TIMEOUT]
    html = client.get(path).get_data(as_text=True)
    assert "the robot" in html and "for you" in html
    assert "you bid" not in html and "you passed" not in html
