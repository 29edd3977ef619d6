"""The fold's fast constructors build the same frozen values as the dataclasses' own __init__,
and the working table a state keeps for its questions never leaks into its value."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from pbem.engine import Card, GameState, Trick, apply, legal_cards, preset, replay, snapshot
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
