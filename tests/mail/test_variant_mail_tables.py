"""Domino Hearts (draws, the stock, players out) and Cancellation Hearts (both copies of a
card, cancelled cards, tricks nobody won, the widow) as the queued emails show them."""

from __future__ import annotations

import re

from sqlalchemy import Engine

from pbem.engine import Cancels, Card, Phase, Trick, preset
from pbem.present import views
from tests.mail.variant_mail_support import (
    NAMES,
    VariantGame,
    play,
    play_first_legal,
    variant_game,
)

# --- Domino Hearts -------------------------------------------------------------------------

# Left of the dealer leads 2C; the next player has no club and draws 8D 9D KC from the stock.
DOMINO_HANDS = {1: "2C 2D 3D 4D 5D 6D", 2: "2S 3S 4S 5S 6S 7S", 3: "3C 4C 5C 6C 7C 8C",
                4: "9C TC JC QC 8S 9S"}
DRAWN = "8D 9D KC"


def domino(engine: Engine, bots: tuple[int, ...] = ()) -> VariantGame:
    return variant_game(engine, "domino", hands=DOMINO_HANDS, rest=DRAWN, bots=bots)


def test_domino_draw_email_names_the_drawn_cards_only_to_the_drawer(engine: Engine) -> None:
    game = domino(engine)
    game.each_trick(game.seat(3))
    play(game, 1, "2C")
    drawer = game.seat(2)
    mail = game.last("turn", drawer)
    assert "You drew 8♦ (8D), 9♦ (9D) and K♣ (KC) from the stock." in mail.body_text
    assert "You drew 8♦ (8D), 9♦ (9D) and K♣ (KC) from the stock." in (mail.body_html or "")
    assert "The stock has 25 cards." in mail.body_text
    assert "K♣ (KC)    http" in mail.body_text  # the only legal card: the one drawn last
    play(game, 2, "KC")
    for seat in (game.seat(1), game.seat(3), game.seat(4)):
        for sent in game.mails(seat=seat):
            assert "8♦" not in sent.body_text and "9♦" not in sent.body_text
    nxt = game.last("turn", game.seat(3)).body_text
    assert "You drew" not in nxt and "The stock has 25 cards." in nxt
    assert f"{NAMES[game.seat(2)]} 8" in nxt.split("Cards in hand:")[1].splitlines()[0]


def test_domino_others_learn_only_how_many_cards_a_player_drew(engine: Engine) -> None:
    drawer = variant_game(engine, "domino", hands=DOMINO_HANDS, rest=DRAWN).seat(2)
    game = variant_game(engine, "domino", hands=DOMINO_HANDS, rest=DRAWN, bots=(drawer,))
    play(game, 1, "2C")  # the robot draws three and plays KC; the next human is asked
    text = game.last("turn", game.seat(3)).body_text
    assert re.search(r"\S+ drew 3 cards from the stock\.", text)
    assert "8♦" not in text and "9♦" not in text
    assert "You drew" not in text


def test_domino_email_shows_the_stock_and_who_is_out(engine: Engine) -> None:
    game = variant_game(engine, "domino")
    first = game.mails("turn")[0].body_text
    assert "The stock has 28 cards." in first
    assert re.search(r"Cards in hand: (\S+ 6, ){1,3}you 6", first)
    state = game.state
    while not (state.phase is Phase.PLAY and not all(state.hands)):
        assert state.hand_number == 1
        state = play_first_legal(game)
    out = [NAMES[s] for s in range(4) if not state.hands[s]]
    text = game.last("turn", state.turn).body_text
    assert f"Out of this hand (no cards left): {out[0]}" in text
    assert f"{out[0]} out" in text.split("Cards in hand:")[1].splitlines()[0]
    if not state.stock:
        assert "The stock is empty: if you can't follow suit, you may play any card." in text


def test_domino_hand_result_says_the_last_player_takes_the_cards_in_hand(
        engine: Engine) -> None:
    game = variant_game(engine, "domino")
    while game.state.hand_number == 1:
        play_first_legal(game)
    results = [m.body_text for m in game.mails("hand_result")]
    assert len(results) == 4
    taken = [line for text in results for line in text.splitlines()
             if "last player left" in line or "emptied every hand" in line]
    assert len(taken) == 4, results
    if "last player left" in taken[0]:
        cards = r"\(([^()]+)\)"
        assert sum(bool(re.search(r"\S+ was the last player left and takes the cards still "
                                  rf"in hand {cards}", line)) for line in taken) == 3
        assert sum("You were the last player left and take the cards still in hand (" in line
                   for line in taken) == 1


# --- Cancellation Hearts -------------------------------------------------------------------

# Eight players, left of the dealer first: trick 1 is four pairs of clubs (every card
# cancelled, nobody wins it), trick 2 eight different diamonds (the dealer's 9D wins it and the
# cards waiting). The first player also holds both jacks of spades.
CANCEL_HANDS = {1: "5C 2D JS JS'", 2: "5C' 3D", 3: "9C 4D", 4: "9C' 5D", 5: "KC 6D",
                6: "KC' 7D", 7: "3C 8D", 8: "3C' 9D"}
TRICK_1 = ("5C", "5C", "9C", "9C", "KC", "KC", "3C", "3C")
TRICK_2 = ("2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D")


def cancellation(engine: Engine) -> VariantGame:
    return variant_game(engine, "cancellation", hands=CANCEL_HANDS)


def test_cancellation_hand_shows_both_copies(engine: Engine) -> None:
    game = cancellation(engine)
    mail = game.last("turn", game.seat(1))
    spades = next(line for line in mail.body_text.splitlines() if "♠ Spades:" in line)
    assert "J♠ (JS) ×2" in spades and spades.count("J♠") == 1
    assert '<span class="count"' in (mail.body_html or "") and "×2" in (mail.body_html or "")
    assert game.link_codes(game.seat(1)).count("JS") == 1  # one link plays a JS you hold
    legal = mail.body_text.split("You may play:")[1].split("Your hand:")[0]
    assert legal.count("J♠ (JS) ") == 1 and "×2" not in legal


def test_cancellation_trick_nobody_won_is_carried_in_the_email(engine: Engine) -> None:
    game = cancellation(engine)
    game.each_trick(game.seat(2))
    for offset, card in enumerate(TRICK_1, start=1):
        play(game, offset, card)
    assert game.state.tricks[0].winner is None
    mail = game.last("turn", game.seat(1))  # the same player leads again
    text, html = mail.body_text, mail.body_html or ""
    previous = text.split("Previous trick:")[1].split("Hearts are")[0]
    assert previous.count("(cancelled)") == 8 and "Taken by" not in previous
    assert ("Nobody won this trick (no card of the suit led stands uncancelled): its cards "
            "wait for the winner of the next trick, 8 cards in all.") in previous
    assert "8 cards from tricks nobody won wait for the winner of the next trick." in text
    assert html.count('class="cancelled"') == 8
    first = game.mails("trick_result", game.seat(2))[0]
    assert "Trick 1:" in first.body_text and "Nobody won this trick" in first.body_text
    assert "Nobody won trick 1." in (first.body_html or "")  # the preheader
    for offset, card in enumerate(TRICK_2, start=1):
        play(game, offset, card)
    winner = NAMES[game.seat(8)]
    second = game.mails("trick_result", game.seat(2))[-1].body_text
    assert "Trick 2:" in second and f"Taken by {winner}." in second
    assert f"{winner} also takes the 8 cards waiting from tricks nobody won." in second
    assert "(cancelled)" not in second.split("Trick 2:")[1]


def test_cancellation_widow_goes_with_the_first_trick(engine: Engine) -> None:
    game = variant_game(engine, "cancellation", options={"players": 9})
    first = game.mails("turn")[0].body_text
    assert "The widow (5 cards) goes with the first trick." in first
    for _ in range(9):
        state = play_first_legal(game)
    winner = state.tricks[0].winner
    assert winner is not None and state.phase is Phase.PLAY
    text = game.last("turn", state.turn).body_text
    who = "You also take" if winner == state.turn else f"{NAMES[winner]} also takes"
    assert f"{who} the widow (5 cards)." in text
    assert "The widow (5 cards) goes with the first trick." not in text


def test_cancellation_widow_and_tricks_nobody_won_go_to_the_next_winner_in_words() -> None:
    rules = preset("cancellation").replace(players=9)  # a widow of 5
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida"]
    paired = "5C 5C' 9C 9C' KC KC' 3C 3C' 2D"  # every club cancelled: nobody wins

    def trick(text: str, winner: int | None) -> Trick:
        return Trick(0, tuple(enumerate(Card.from_code(c) for c in text.split())), winner)

    tricks = [trick(paired, None), trick("4C 5C 6C 7C 8C TC JC QC AC", 8),
              trick(paired, 0)]
    views_ = views.hand_tricks(tricks, names, 1, rules, hand_over=True)
    assert [sum(p.cancelled for p in v.plays) for v in views_] == [8, 0, 8]
    assert views_[0].notes == (
        "Nobody won this trick (no card of the suit led stands uncancelled): its cards wait "
        "for the winner of the next trick, 14 cards in all (the widow's 5 included).",)
    assert views_[1].notes == ("Ida also takes the 14 cards waiting from tricks nobody won "
                               "(the widow's 5 included).",)
    assert views_[2].notes == ("Nobody could win this last trick, so it goes to its leader, "
                               "Ann.",)
    same_rank = rules.replace(cancels=Cancels.SAME_RANK)
    ranks = views.trick_view(trick("9C 9D KC 2C", 2), names, None, rules=same_rank)
    assert ranks is not None and [p.cancelled for p in ranks.plays] == [True, True, False, False]
