"""Auction Hearts by email (bids, the suit to avoid, the pot and chips), and every whole
variant's rules in words, as the queued emails say them."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import Engine

from pbem import service
from pbem.engine import (
    VARIANT_PRESETS,
    GameCreated,
    Phase,
    Suit,
    apply,
    preset,
    start,
)
from pbem.mail.asks import send_reminder
from pbem.mail.errors import send_error
from pbem.mail.notify import notify
from pbem.mail.outbox import drain_all
from pbem.mail.results import rules_sentences
from pbem.playout import random_event
from pbem.present import views
from pbem.present.presenters import presenter
from pbem.store.db import transaction
from pbem.store.models import Game
from tests.mail.mailtest_support import SmtpServer
from tests.mail.variant_mail_support import (
    NAMES,
    VariantGame,
    address,
    play_first_legal,
    variant_game,
)


def bid(game: VariantGame, offset: int, chips: int | None) -> None:
    service.bid(game.ctx, game.game_id, game.seat(offset), chips)


def test_auction_bid_email_lists_legal_bids_and_links(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    first = game.last("bid", game.seat(1))
    assert "it's your turn to bid" in first.body_text
    assert "Bid 1 chip or more, or pass." in first.body_text
    assert game.link_codes(game.seat(1)) == sorted(
        ["bid:pass", "bid:1", "bid:2", "bid:3", "bid:4", "bid:5"])
    bid(game, 1, 3)
    mail = game.last("bid", game.seat(2))
    text, html = mail.body_text, mail.body_html or ""
    assert "Bid more than 3 chips (the highest bid so far), or pass." in text
    assert "Reply “bid 4” (or any higher number) or “pass”" in text
    assert game.link_codes(game.seat(2)) == sorted(
        ["bid:pass", "bid:4", "bid:5", "bid:6", "bid:7", "bid:8"])
    for label, reply in (("Pass", "pass"), ("Bid 4 chips", "bid 4"), ("Bid 8 chips", "bid 8")):
        assert f"{label.ljust(14)} reply “{reply}”" in text
    assert html.count('class="action choice"') == 6 and "Bid 4 chips</a>" in html
    bids = text.split("Bids so far:")[1].split("Your hand:")[0]
    assert f"{NAMES[game.seat(1)]:<22} 3 chips" in bids
    assert f"{NAMES[game.seat(2)] + ' (you)':<22} to bid now" in bids
    assert "not yet" in bids
    assert "Points and chips:" in text and "Chips" in text
    # only the bidder is asked: nobody else got a bid email for this turn
    assert [m.to_addr for m in game.mails("bid")][-1] == mail.to_addr


def test_auction_emails_escape_player_names(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    cy = NAMES.index("Cy <b>")
    asked = game.seat(1) if game.seat(1) != cy else game.seat(2)
    if asked != game.seat(1):
        bid(game, 1, None)
    html = game.last("bid", asked).body_html or ""
    assert "Cy &lt;b&gt;" in html and "Cy <b>" not in html
    assert "Cy <b>" in game.last("bid", asked).body_text  # plain text stays as typed


def test_auction_name_suit_email_offers_each_suit_and_the_reply_words(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    game.ctx.echo = True  # the bids come by reply: each bidder hears back what they did
    bid(game, 1, 2)
    bid(game, 2, None)
    bid(game, 3, 5)
    bid(game, 4, None)
    winner = game.seat(3)
    mail = game.last("name_suit", winner)
    text, html = mail.body_text, mail.body_html or ""
    assert "You won the bidding with 5 chips: they go into the pot, which now holds 5 chips." \
        in text
    assert "Reply “avoid spades” (or clubs, diamonds, hearts), or use a link:" in text
    assert "♠ Spades       reply “avoid spades”" in text
    assert game.link_codes(winner) == ["suit:C", "suit:D", "suit:H", "suit:S"]
    assert "♥ Hearts</a>" in html and 'class="action choice red"' in html
    assert "you bid 5 chips." in game.mails("move_confirmed", winner)[0].body_text
    assert "you passed in the bidding." in game.last("move_confirmed", game.seat(4)).body_text
    assert not game.mails("name_suit", game.seat(1))


def test_auction_everyone_passing_lets_the_dealer_name_the_suit_for_nothing(
        engine: Engine) -> None:
    game = variant_game(engine, "auction")
    assert "If everyone passes, " in game.last("bid", game.seat(1)).body_text
    for offset in range(1, 5):
        bid(game, offset, None)
    dealer = game.seat(0)
    text = game.last("name_suit", dealer).body_text
    assert "Everyone passed, so you, the dealer, name the suit for nothing" in text


def test_auction_turn_email_shows_the_suit_to_avoid_the_pot_and_chips(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    bid(game, 1, 4)
    for offset in (2, 3, 4):
        bid(game, offset, None)
    game.ctx.echo = True  # named by reply: said in the turn email the namer gets next
    service.name_suit(game.ctx, game.game_id, game.seat(1), "spades")
    assert "Got your reply: You named ♠ Spades as the suit to avoid" in \
        game.last("turn", game.seat(1)).body_text
    assert not game.mails("move_confirmed", game.seat(1))
    game.ctx.echo = False
    play_first_legal(game)
    mail = game.last("turn", game.seat(2))
    text, html = mail.body_text, mail.body_html or ""
    bidder = NAMES[game.seat(1)]
    assert (f"♠ Spades are the suit to avoid this hand, named by {bidder}: each card of it "
            "taken is a point and a chip into the pot.") in text
    assert "The pot holds 4 chips." in text
    assert "Spades, the suit to avoid, are not broken yet." in text
    assert "Hearts are" not in text
    points = text.split("Points:")[1].splitlines()
    row = next(line for line in points if line.strip().startswith(bidder))
    assert row.split()[-1] == "-4"  # the bidder's chips column
    assert ">Chips</th>" in html and "The pot holds 4 chips." in html


def carried_pot(engine: Engine) -> VariantGame:
    """Seed 2: the first bidder buys diamonds for 1 chip; played lowest card first, everyone
    takes some diamonds, so the pot carries over to hand 2."""
    game = variant_game(engine, "auction")
    bid(game, 1, 1)
    for offset in (2, 3, 4):
        bid(game, offset, None)
    service.name_suit(game.ctx, game.game_id, game.seat(1), Suit.DIAMONDS)
    while game.state.hand_number == 1:
        play_first_legal(game)
    assert game.state.phase is Phase.NAME_SUIT and game.state.bidder == game.seat(1)
    return game


def test_auction_carried_pot_email_says_the_bidder_names_the_suit_without_bidding(
        engine: Engine) -> None:
    game = carried_pot(engine)
    bidder, other = game.seat(1), game.seat(2)
    pot = game.state.pot
    result = game.last("hand_result", other).body_text
    assert f"♦ Diamonds were the suit to avoid, named by {NAMES[bidder]}." in result
    assert "Nobody wins the pot (everyone took some)." in result
    assert (f"The pot carries over ({pot} chips): next deal {NAMES[bidder]} names the suit "
            "again without bidding.") in result
    assert "next deal you name the suit again" in game.last("hand_result", bidder).body_text
    mail = game.last("name_suit", bidder)
    assert f"Nobody won the pot last hand, so it carries over ({pot} chips)" in mail.body_text
    assert "name it again without bidding" in mail.body_text
    assert not [m for m in game.mails("bid") if "hand 2" in m.body_text]
    service.name_suit(game.ctx, game.game_id, bidder, "clubs")
    turn = game.last("turn", bidder).body_text
    assert "named by you again without bidding, as the pot carried over" in turn


def test_auction_hand_result_says_who_takes_the_pot() -> None:
    rules = preset("auction")
    rng = random.Random(4)
    state = start(GameCreated(rules, 4, 0))
    while True:  # random legal play until a hand ends with the pot won
        before, last = state, random_event(state, rng)
        state = apply(state, last)
        if len(state.sheet) > len(before.sheet) and before.bidder >= 0 and state.bidder < 0:
            break
    notes = presenter(rules).hand_notes(before, state, last, ["Ann", "Bob", "Cy", "Dee"], 0)
    assert notes[0].endswith("were the suit to avoid, named by "
                             f"{['you', 'Bob', 'Cy', 'Dee'][before.bidder]}.")
    assert "the pot" in notes[1] and ("takes the pot" in notes[1] or "take the pot" in notes[1]
                                      or "split the pot" in notes[1])


def test_auction_summary_tells_the_last_pot_and_settles_in_chips(engine: Engine) -> None:
    # the players and seats; the game itself is played by the engine
    game = variant_game(engine, "auction")
    rng = random.Random(3)
    state = start(GameCreated(game.rules, 4, 0))
    while not state.game_over:
        before, event = state, random_event(state, rng)
        state = apply(state, event)
    with transaction(engine) as session:
        row = session.get(Game, game.game_id)
        assert row is not None
        notify(session, row, before, state, [event])
    names = list(NAMES[:4])
    lines = views.settlement_lines(state, names)
    each = {f"{name} collects {chips} chips" if chips > 0 else f"{name} pays {-chips} chips"
            if chips < 0 else f"{name} is square"
            for name, chips in zip(names, state.chips, strict=True)}
    pot = [f"{state.pot} chips stay in the pot"] if state.pot else []
    assert set(lines[:4]) == each and lines[4:] == pot
    summary = game.last("summary", 0)
    text, html = summary.body_text, summary.body_html or ""
    assert "Settlement:" in text and all(f"  - {line}" in text for line in lines)
    last = text.split("The last hand:")[1].split("Final standings:")[0]
    assert before.named_suit is not None
    assert f"{views.SUIT_NAMES[before.named_suit]} were the suit to avoid" in last
    assert "pot" in last
    assert "The last hand</h2>" in html and "Settlement</h2>" in html


def test_auction_error_and_reminder_offer_the_bid_choices(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    seat = game.seat(1)
    with transaction(engine) as session:
        row = session.get(Game, game.game_id)
        assert row is not None
        send_error(session, row, game.state, seat, what_was_read="bid 0",
                   reason="A bid must be more than 0 chips.")
        send_reminder(session, row, game.state, seat)
    error = game.last("error", seat)
    assert "You may now:" in error.body_text and "reply “bid 1”" in error.body_text
    assert "Pass</a>" in (error.body_html or "")
    reminder = game.last("reminder", seat).body_text
    assert "is still waiting for you" in reminder and "your turn to bid" in reminder


def test_auction_game_started_email_says_who_bids_first(engine: Engine) -> None:
    game = variant_game(engine, "auction")
    text = game.last("game_started", game.seat(2)).body_text
    assert f"{NAMES[game.seat(1)]} bids first, then each player in turn to the left." in text
    assert "You bid first" in game.last("game_started", game.seat(1)).body_text
    assert "The pot holds 0 chips." in text
    assert "By email: when it's your turn to bid, reply “bid 5”" in text


@pytest.mark.parametrize("name,words", [
    ("auction", ["Auction Hearts: after the deal everyone bids once",
                 "reply “avoid spades”"]),
    ("cancellation", ["Cancellation Hearts: two decks shuffled together",
                      "a card you hold twice shows as “Q♠ (QS) ×2”"]),
    ("cancellation-rank", ["Two cards of the same rank in one trick cancel",
                           "5 cards form a widow added to the first trick"]),
    ("domino", ["Domino Hearts: six cards each, the rest is a stock",
                "your next email names them (the others only learn how many)"]),
    ("domino-two", ["2 players, 6 cards each; a stock of 40."]),
])
def test_every_variant_is_described_in_words(name: str, words: list[str]) -> None:
    sentences = " ".join(rules_sentences(VARIANT_PRESETS[name].rules))
    for phrase in words:
        assert phrase in sentences


def test_hearts_without_black_lady_speaks_of_hearts_and_howell_chips(engine: Engine) -> None:
    game = variant_game(engine, "no-black-lady")
    text = game.last("game_started", 0).body_text
    assert "the queen of spades is free." in text and "Howell settlement" in text
    turn = game.mails("turn")[-1].body_text
    assert "Hearts are not broken yet." in turn


def test_bid_links_stop_at_the_largest_link_bid_and_choices_read_back() -> None:
    from pbem.present.codes import bid_codes, choice, read_choice

    assert bid_codes(9997) == ["bid:pass", "bid:9998", "bid:9999"]
    assert [read_choice(code) for code in bid_codes(2)[:2]] == [("bid", None), ("bid", 3)]
    for typed in ("bid:²", "bid:①", "bid:٥", "bid:0", "bid:10000", "bid:" + "9" * 5000):
        assert read_choice(typed) is None  # a form's value: ASCII digits only, in range
    assert choice("bid:pass").reply == "pass" and choice("bid:3").label == "Bid 3 chips"
    assert choice("suit:D").label == "♦ Diamonds" and choice("suit:D").red
    assert choice("suit:S").reply == "avoid spades"
    with pytest.raises(ValueError):
        choice("QS")


def test_auction_bid_email_arrives_over_smtp_with_a_header_safe_subject(
        engine: Engine, smtp_server: SmtpServer) -> None:
    game = variant_game(engine, "auction")
    drain_all(engine, smtp_server.settings)
    first = address(game.seat(1))
    got = [r.message for r in smtp_server.messages if r.rcpt_tos == [first]]
    bid_mail = next(m for m in got if m["Message-ID"].startswith("<pbem.bid."))
    assert bid_mail["Subject"] == "Hearts: “auction” <test>"
    assert bid_mail["Reply-To"].startswith("Hearts <play+")
    plain = bid_mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "it's your turn to bid" in plain and "reply “bid 1”" in plain
    html = bid_mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert "&lt;test&gt;" in html and "Bid 1 chip</a>" in html
