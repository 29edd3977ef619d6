"""The service path's shortcuts: `apply` trusts only the card play `decide` checked against that
very state, and a deal is still checked to hold every card once. Whatever the shortcut, the
states are the ones the checked fold makes."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pbem.engine import (
    ALL_CARDS,
    CardsPassed,
    GameState,
    HandDealt,
    IllegalMove,
    NotYourTurn,
    PassCards,
    Phase,
    PlayCard,
    apply,
    decide,
    legal_cards,
    preset,
    replay,
    restore,
    snapshot,
)
from pbem.engine.cards import cards_of, indices, iter_indices
from pbem.engine.table import Table
from pbem.playout import random_game


def _same_state(fast: GameState, checked: GameState) -> None:
    assert fast == checked
    for f in fields(GameState):
        if f.compare:
            assert getattr(fast, f.name) == getattr(checked, f.name), f.name


@pytest.mark.parametrize("name", ["standard", "cancellation", "domino", "auction", "three-kitty",
                                  "hoyle-forced-queen"])
def test_a_decided_play_applied_is_the_checked_fold_of_it(name: str) -> None:
    events, _ = random_game(preset(name), 6, max_hands=2)
    state = replay(events[:1])
    for cut, event in enumerate(events[1:], start=2):
        if state.phase is Phase.PLAY and type(event).__name__ == "CardPlayed":
            (decided,) = decide(state, PlayCard(event.seat, event.card))  # type: ignore[union-attr]
            assert decided == event
            checked = apply(state, event)  # an equal event, not the one decided: checked
            fast = apply(state, decided)
            _same_state(fast, checked)
            _same_state(fast, replay(events[:cut]))
            state = fast
        else:
            state = apply(state, event)


def test_a_play_decided_on_one_state_is_checked_on_another() -> None:
    events, _ = random_game(preset("standard"), 2, max_hands=1)
    first = next(i for i, e in enumerate(events) if type(e).__name__ == "CardPlayed")
    state = replay(events[:first])
    card = legal_cards(state, state.turn)[0]
    (played,) = decide(state, PlayCard(state.turn, card))
    after = apply(state, played)
    with pytest.raises(NotYourTurn):
        apply(after, played)  # the same seat again, out of turn: refused, not trusted


def test_a_later_decision_does_not_let_an_earlier_event_skip_its_check() -> None:
    events, _ = random_game(preset("standard"), 4, max_hands=1)
    first = next(i for i, e in enumerate(events) if type(e).__name__ == "CardPlayed")
    state = replay(events[:first])
    legal = legal_cards(state, state.turn)
    (earlier,) = decide(state, PlayCard(state.turn, legal[0]))
    if len(legal) > 1:
        decide(state, PlayCard(state.turn, legal[-1]))
    _same_state(apply(state, earlier), replay([*events[:first], earlier]))


def test_a_deal_with_a_card_twice_is_refused_even_when_the_bits_add_up() -> None:
    """2C twice in one seat's cards and no 3C: the two 2C bits add up to the 3C bit, so the
    cards add up to the whole deck."""
    events, _ = random_game(preset("standard"), 3, max_hands=1)
    state = replay(events[:1])
    two, three = ALL_CARDS[0], ALL_CARDS[1]
    rest = [c for c in ALL_CARDS if c not in (two, three)]
    for cards in ([two, *rest[:3], two, *rest[3:]], [two, two, *rest]):
        with pytest.raises(IllegalMove):
            apply(state, HandDealt(tuple(cards)))
    with pytest.raises(IllegalMove):
        apply(state, HandDealt(ALL_CARDS[:-1]))
    assert apply(state, HandDealt(ALL_CARDS)).phase is Phase.PASS


@pytest.mark.parametrize("mask", [0, 1, 0b1011 << 20, (1 << 52) - 1, 1 << 51, 1 << 26,
                                  (1 << 26) - 1, 0x5A5A5A5A5A5A5, 1 << 60 | 3, (1 << 104) - 1])
def test_cards_and_indices_of_a_mask_are_its_bits_lowest_first(mask: int) -> None:
    found = list(iter_indices(mask))
    assert indices(mask) == found
    if mask < 1 << 52:
        assert cards_of(mask) == tuple(ALL_CARDS[i] for i in found)


# Every field of a Table (a native class where the engine is compiled: no `__slots__` to read).
TABLE_FIELDS = (
    "rules", "seats", "first_dealer", "hand_number", "dealer", "phase", "hands", "passed",
    "trick", "leader", "turn", "tricks", "won", "hearts_broken", "kitty", "in_play", "totals",
    "sheet", "moon_shooter", "winners", "claimed_by", "turns", "end_votes", "penalty",
    "simulating")


def test_a_standard_tables_clone_has_every_field_and_lists_of_its_own() -> None:
    events, _ = random_game(preset("standard"), 3, max_hands=2)
    table = replay(events[:28])._table  # mid-hand: cards on the trick, tricks taken
    assert isinstance(table, Table) and table.trick and table.tricks
    copy = table.clone()
    assert type(copy) is Table and copy.decided is None
    for name in TABLE_FIELDS:
        assert getattr(copy, name) == getattr(table, name), name
        if isinstance(getattr(table, name), list):  # what the fold changes in place
            assert getattr(copy, name) is not getattr(table, name), name
    copy.play(copy.turn, indices(copy.legal_mask(copy.turn))[0])
    assert copy.hands != table.hands and replay(events[:28])._table.hands == table.hands


@pytest.mark.parametrize(("cards", "code"), [
    ("first3", None), ("twice", "named_twice"), ("two", "pass_count"), ("not_held", "not_held")])
def test_a_pass_decided_on_the_kept_table_is_the_checked_decision(cards: str,
                                                                   code: str | None) -> None:
    events, _ = random_game(preset("standard"), 4, max_hands=1)
    state = replay(events[:2])  # dealt, nobody has passed
    assert state.phase is Phase.PASS
    hand = state.hand(1)
    chosen = {"first3": hand[:3], "twice": (hand[0], hand[0], hand[1]), "two": hand[:2],
              "not_held": (*hand[:2], next(c for c in ALL_CARDS if c not in hand))}[cards]
    def checked() -> GameState:  # a restored state keeps no table: the checked path
        restored = restore(snapshot(state))
        assert restored == state and restored._table is None
        return restored

    if code is None:
        fast, slow = decide(state, PassCards(1, chosen)), decide(checked(), PassCards(1, chosen))
        assert fast == slow == (CardsPassed(1, tuple(sorted(chosen))),)
        return
    for asked in (state, checked()):
        with pytest.raises(IllegalMove) as refused:
            decide(asked, PassCards(1, chosen))
        assert refused.value.code == code
