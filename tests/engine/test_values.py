"""The fold's fast constructors build the same frozen values as the dataclasses' own __init__,
and the working table a state keeps for its questions never leaks into its value."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from pbem.engine import (
    Card,
    GameState,
    PassCards,
    PlayCard,
    Trick,
    VoteEnd,
    apply,
    legal_cards,
    preset,
    replay,
    snapshot,
)
from pbem.engine.state import new_state, new_trick
from pbem.engine.values import fast_constructor
from pbem.playout import random_game


def test_a_fast_trick_equals_and_hashes_like_one_made_by_its_class() -> None:
    plays = ((0, Card.parse("2C")), (1, Card.parse("AC")))
    fast, slow = new_trick(0, plays, 1), Trick(0, plays, 1)
    assert type(fast) is Trick
    assert fast == slow and hash(fast) == hash(slow) and repr(fast) == repr(slow)


def test_a_fast_value_is_frozen_like_the_others() -> None:
    trick = new_trick(0, (), None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trick.leader = 1  # type: ignore[misc]


def test_a_fast_state_equals_the_dataclass_built_from_the_same_fields() -> None:
    _, state = random_game(preset("standard"), 5, max_hands=2)
    values = [getattr(state, f.name) for f in dataclasses.fields(GameState) if f.init]
    assert new_state(*values) == GameState(*values) == state


def test_only_frozen_slotted_dataclasses_get_a_fast_constructor() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    with pytest.raises(TypeError):
        fast_constructor(NoSlots)


def test_the_kept_working_table_is_not_part_of_a_states_value() -> None:
    events, _ = random_game(preset("standard"), 7, max_hands=1)
    state = replay(events[:30])
    legal_cards(state, state.turn)  # a question: the state keeps (or gets) its working table
    rebuilt = dataclasses.replace(state)
    assert rebuilt == state and hash(rebuilt) == hash(state)
    assert "_table" not in repr(state) and "_table" not in snapshot(state)
    assert pickle.loads(pickle.dumps(state)) == state


def test_apply_never_changes_the_state_it_was_given_nor_its_answers() -> None:
    events, _ = random_game(preset("standard"), 8, max_hands=1)
    state = replay(events[:30])
    before, legal = snapshot(state), legal_cards(state, state.turn)
    apply(state, events[30])
    assert snapshot(state) == before and legal_cards(state, state.turn) == legal


# --- kept states: the value their table freezes to, keeping the table for its questions ---

@pytest.mark.parametrize("name", ["standard", "cancellation", "domino", "auction", "three-kitty"])
def test_a_kept_state_is_the_value_its_table_freezes_to(name: str) -> None:
    events, _ = random_game(preset(name), 4, max_hands=2)
    for cut in range(1, len(events), 5):
        kept = replay(events[:cut])
        frozen = kept._table.freeze()  # type: ignore[attr-defined]
        for f in dataclasses.fields(GameState):
            if f.compare:
                assert getattr(kept, f.name) == getattr(frozen, f.name), f.name
                assert type(getattr(kept, f.name)) is type(getattr(frozen, f.name)), f.name
        assert kept == frozen and hash(kept) == hash(frozen) and repr(kept) == repr(frozen)


def test_a_kept_state_unread_is_equal_pickled_and_frozen() -> None:
    events, _ = random_game(preset("auction"), 8, max_hands=1)
    fresh = [replay(events) for _ in range(4)]
    assert pickle.loads(pickle.dumps(fresh[0])) == replay(events)
    assert dataclasses.replace(fresh[1], dealer=0).hands == replay(events).hands
    assert snapshot(fresh[2]) == snapshot(replay(events))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fresh[3].hands = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        fresh[3].no_such_field  # type: ignore[attr-defined]  # noqa: B018


def test_a_state_pickles_as_every_field_its_class_takes() -> None:
    from pbem.engine.state import _INIT_FIELDS
    assert tuple(f.name for f in dataclasses.fields(GameState) if f.init) == _INIT_FIELDS


# --- commands: built through their class's own fast constructor (`constructed_fast`), and
# PlayCard a native class when compiled: the same frozen dataclass values either way --------

def test_a_command_is_built_by_its_class_as_the_dataclass_would_build_it() -> None:
    card = Card.parse("QS")
    command = PlayCard(1, card)
    assert type(command) is PlayCard and command.seat == 1 and command.card is card
    assert command == PlayCard(seat=1, card=card) == PlayCard(1, card=card)
    assert hash(command) == hash(PlayCard(1, card)) and command != PlayCard(2, card)
    assert repr(command) == "PlayCard(seat=1, card=Card('QS'))"
    assert VoteEnd(2) == VoteEnd(2, True) and VoteEnd(seat=2, agree=False).agree is False


def test_a_fast_command_is_frozen_pickles_copies_and_matches() -> None:
    command = PassCards(3, (Card.parse("2C"), Card.parse("AH"), Card.parse("QS")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        command.seat = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(command)) == command == copy.deepcopy(command)
    assert dataclasses.replace(command, seat=1) == PassCards(1, command.cards)
    match PlayCard(0, Card.parse("2C")):
        case PlayCard(seat, card):
            assert (seat, str(card)) == (0, "2C")


def test_a_fast_commands_arguments_are_checked_as_the_dataclasss() -> None:
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'cards'"):
        PassCards(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'suit'"):
        VoteEnd(1, suit=0)  # type: ignore[call-arg]
    with pytest.raises(TypeError):  # (compiled, PlayCard is a native class: mypyc's words)
        PlayCard(1)  # type: ignore[call-arg]


def test_a_subclass_of_a_fast_command_is_still_built_with_its_fields() -> None:
    class Louder(PassCards):
        pass

    louder = Louder(2, (Card.parse("AS"),))
    assert type(louder) is Louder and (louder.seat, louder.cards) == (2, (Card.parse("AS"),))
