"""asked(state, seat): what each seat is asked, in every phase and whole variant.

The rules quoted come from the seed texts in /work/shared/seeds/ (001 for the variants)."""

from __future__ import annotations

import random

import pytest

from pbem.engine import (
    ALL_CARDS,
    PRESETS,
    VARIANT_PRESETS,
    Ask,
    Bid,
    BidMade,
    CardPlayed,
    CardsPassed,
    ChooseMoon,
    Claim,
    ClaimAccepted,
    EngineError,
    GameCreated,
    GameState,
    HandDealt,
    MoonRule,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Suit,
    apply,
    asked,
    decide,
    decision_seat,
    forced_events,
    legal_cards,
    replay,
    restore,
    snapshot,
    turn_before,
)
from pbem.playout import random_event
from pbem.present.refusals import asked_words, awaited_words, explain, why_not

STANDARD = PRESETS["standard"].rules


def dealt(rules=STANDARD, dealer: int = 3) -> GameState:  # type: ignore[no-untyped-def]
    return replay([GameCreated(rules, rules.players, dealer), HandDealt(ALL_CARDS)])


def passed_all(state: GameState) -> GameState:
    for seat in range(state.seats):
        state = apply(state, CardsPassed(seat, state.hand(seat)[:state.rules.pass_count]))
    return state


def test_every_seat_is_asked_to_pass_three_cards_to_the_left_at_once() -> None:
    # Seed 001: "a player selects any three cards and passes them face down to the player on
    # the left."
    state = dealt()
    for seat in range(4):
        question = asked(state, seat)
        assert question.kind is Ask.PASS and question.must_act
        assert question.pass_count == 3 and question.pass_to == (seat + 1) % 4
        assert question.cards == state.hand(seat)
        assert question.turn == 1  # the deal was its first turn
        assert awaited_words(question.awaited) == "your pass"
    assert asked_words(asked(state, 0), ["Ann", "Bob", "Cy", "Di"]) == \
        "Pass 3 cards to Bob (left)."


def test_a_seat_that_has_passed_is_asked_nothing_and_its_turn_moves_on() -> None:
    state = apply(dealt(), CardsPassed(0, dealt().hand(0)[:3]))
    question = asked(state, 0)
    assert question.kind is Ask.NOTHING and not question.must_act
    assert question.turn == 2 and asked(state, 1).turn == 1
    assert question.waiting_for == (1, 2, 3)
    assert asked_words(question, ["Ann", "Bob", "Cy", "Di"]) == \
        "We're waiting for Bob, Cy and Di to pass."


def test_the_player_to_move_is_asked_to_play_one_of_the_legal_cards() -> None:
    # Seed 001: "Each player must follow suit if possible."
    state = passed_all(dealt())
    seat = state.turn
    question = asked(state, seat)
    assert question.kind is Ask.PLAY and question.cards == legal_cards(state, seat)
    assert question.can_claim and awaited_words(question.awaited) == "your card"
    assert asked_words(question).startswith("It's your turn to play: you can play ")
    other = asked(state, (seat + 1) % 4)
    assert other.kind is Ask.NOTHING and other.cards == ()


def test_why_not_gives_the_engines_own_sentence_for_an_illegal_card() -> None:
    state = passed_all(dealt())
    seat = state.turn
    question = asked(state, seat)
    illegal = next(c for c in state.hand(seat) if c not in question.cards)
    with pytest.raises(Exception) as refused:
        decide(state, PlayCard(seat, illegal))
    error = question.why_not(PlayCard(seat, illegal))
    assert isinstance(refused.value, EngineError) and error is not None
    assert (error.code, error.data) == (refused.value.code, refused.value.data)
    assert why_not(question, PlayCard(seat, illegal)) == explain(refused.value)
    assert question.why_not(PlayCard(seat, question.cards[0])) is None
    assert question.allows(PlayCard(seat, question.cards[0]))


def test_turn_numbers_count_each_seats_decisions_and_the_deals_and_replay_gives_them() -> None:
    rng = random.Random(7)
    events = [GameCreated(STANDARD, 4, 3)]
    state = replay(events)
    made = [0, 0, 0, 0]
    while state.sheet == ():  # one hand, every event through the fold
        event = random_event(state, rng)
        state = apply(state, event)
        events.append(event)
        seat = decision_seat(event)
        if seat is not None:
            made[seat] += 1
        if isinstance(event, HandDealt):
            made = [n + 1 for n in made]
    # the deal, a pass, 13 cards
    assert [asked(state, s).turn for s in range(4)] == made == [15, 15, 15, 15]
    assert replay(events).turns == state.turns
    assert restore(snapshot(state)).turns == state.turns


def test_moon_choice_is_asked_of_the_shooter_only() -> None:
    # Seed 001: taking all 13 hearts and the queen is "Shooting the Moon"; with the shooter's
    # choice rule the shooter (and nobody else) chooses how it scores.
    rules = STANDARD.replace(moon=MoonRule.SHOOTER_CHOICE)
    state = passed_all(dealt(rules))
    shooter = state.turn
    state = apply(state, ClaimAccepted(shooter))  # every card left: all the points
    assert state.phase is Phase.MOON_CHOICE
    question = asked(state, shooter)
    assert question.kind is Ask.MOON and question.moon_options == (True, False)
    assert awaited_words(question.awaited) == "your moon choice"
    assert asked(state, (shooter + 1) % 4).kind is Ask.NOTHING
    assert why_not(question, ChooseMoon((shooter + 1) % 4, True)) == \
        "Only the player who shot the moon chooses how it scores."


def test_auction_asks_each_seat_in_turn_to_bid_more_than_the_last_bid_or_pass() -> None:
    # Seed 001: "A player must either bid higher than the preceding bid or pass."
    rules = VARIANT_PRESETS["auction"].rules
    state = dealt(rules)
    assert asked(state, 0).kind is Ask.BID and asked(state, 0).min_bid == 1
    assert asked(state, 1).kind is Ask.NOTHING
    state = apply(state, BidMade(0, 3))
    question = asked(state, 1)
    assert question.kind is Ask.BID and question.min_bid == 4 and question.turn == 1
    assert awaited_words(question.awaited) == "your bid"
    assert why_not(question, Bid(1, 3)) == \
        "seat 1 already bid 3: bid more than 3 chips, or pass."
    assert question.why_not(Bid(1, None)) is None
    assert asked(state, 0).turn == 2


def test_auction_asks_the_highest_bidder_to_name_the_suit() -> None:
    # Seed 001: "The highest bidder puts up his chips and names the suit."
    rules = VARIANT_PRESETS["auction"].rules
    state = dealt(rules)
    for seat, chips in enumerate((2, None, 5, None)):
        state = apply(state, BidMade(seat, chips))
    question = asked(state, 2)
    assert question.kind is Ask.NAME_SUIT and question.suits == tuple(Suit)
    assert awaited_words(question.awaited) == "your choice of the suit to avoid"
    assert question.why_not(NameSuit(2, Suit.CLUBS)) is None
    assert asked(state, 0).kind is Ask.NOTHING
    assert why_not(asked(state, 0), NameSuit(0, Suit.CLUBS)) == \
        "Only seat 3, who won the bidding, names the suit."


def test_domino_asks_nothing_while_a_player_draws_from_the_stock() -> None:
    # Seed 001: "a player who cannot follow suit to the lead must draw cards from the top of
    # the stock until he can play." The engine makes the draw; nobody is asked.
    rules = VARIANT_PRESETS["domino"].rules
    rng = random.Random(3)
    state = dealt(rules)
    for _ in range(400):
        if state.phase is Phase.DRAW:
            break
        state = apply(state, random_event(state, rng))
    assert state.phase is Phase.DRAW
    assert all(asked(state, s).kind is Ask.NOTHING for s in range(state.seats))
    drawer = state.turn
    before = asked(state, drawer).turn
    state = apply(state, forced_events(state)[0])
    assert asked(state, drawer).kind is Ask.PLAY
    assert asked(state, drawer).turn == before  # a draw is no decision of the player's


@pytest.mark.parametrize("name", ["domino", "cancellation"])
def test_no_claims_in_domino_or_cancellation(name: str) -> None:
    rules = VARIANT_PRESETS[name].rules
    state = replay([GameCreated(rules, rules.players, 0)])
    while state.phase is not Phase.PLAY:  # the deal (both decks for Cancellation), a pass
        state = apply(state, random_event(state, random.Random(1)))
    question = asked(state, state.turn)
    assert question.kind is Ask.PLAY and not question.can_claim
    assert why_not(question, Claim(state.turn)) == \
        f"Claims aren't part of {name.capitalize()} Hearts here: please play on."


def test_nothing_is_asked_before_the_deal_or_after_the_game() -> None:
    state = replay([GameCreated(STANDARD, 4, 3)])
    assert state.phase is Phase.DEAL
    question = asked(state, 0)
    assert question.kind is Ask.NOTHING and question.waiting_for == ()
    assert asked_words(question) == "The next hand hasn't been dealt yet."
    assert why_not(question, PassCards(0, ())) == "The next hand hasn't been dealt yet."


@pytest.mark.parametrize("name", sorted(VARIANT_PRESETS) + ["standard", "three", "five"])
def test_random_playouts_every_seat_asked_matches_the_engines_moves(name: str) -> None:
    """In every state of a playout: a seat is asked to act exactly when the engine waits for
    it; the legal cards asked are the engine's; a decision moves only that seat's turn."""
    rules = {**PRESETS, **VARIANT_PRESETS}[name].rules
    rng = random.Random(name)
    state = replay([GameCreated(rules, rules.players, 0)])
    for _ in range(300):
        if state.game_over:
            break
        questions = [asked(state, s) for s in range(state.seats)]
        assert {q.seat for q in questions if q.must_act} == set(state.to_move)
        for q in questions:
            if q.kind is Ask.PLAY:
                assert q.cards == legal_cards(state, q.seat) and q.cards
        event = random_event(state, rng)
        after = apply(state, event)
        mover = decision_seat(event)
        for s in range(state.seats):
            grew = asked(after, s).turn - questions[s].turn
            assert grew == (1 if s == mover or isinstance(event, HandDealt) else 0)
        if isinstance(event, CardPlayed) and state.phase is Phase.PLAY:
            assert mover == state.turn
        state = after


def test_turn_before_counts_back_only_the_seats_own_decisions_and_the_deals() -> None:
    """A link or email issued before `since` was for the seat's turn then: other seats' moves
    don't make it late, the seat's own move and a new deal do."""
    before = dealt()
    passed = CardsPassed(0, before.hand(0)[:3])
    after = apply(before, passed)
    assert turn_before(after, 0, [passed]) == asked(before, 0).turn == asked(after, 0).turn - 1
    assert turn_before(after, 1, [passed]) == asked(before, 1).turn == asked(after, 1).turn
