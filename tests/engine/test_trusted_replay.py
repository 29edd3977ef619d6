"""The trusted fold of a stored log (`replay_trusted`, `apply_all_trusted`) and the decoder's
fast path for card plays: the same states and events as the checked paths, under every preset."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from pbem.engine import (
    ALL_PRESETS,
    Card,
    CardPlayed,
    CardsPassed,
    EventDecodeError,
    GameState,
    IllegalMove,
    NotYourTurn,
    Phase,
    Suit,
    WrongPhase,
    apply_all,
    apply_all_trusted,
    decode_event,
    encode_event,
    legal_cards,
    preset,
    replay,
    replay_trusted,
)
from pbem.playout import random_game

SEEDS = (3, 11)


def _same_state(trusted: GameState, checked: GameState) -> None:
    assert trusted == checked
    for f in fields(GameState):  # `==` leaves out nothing the fold keeps but the table
        if f.compare:
            assert getattr(trusted, f.name) == getattr(checked, f.name), f.name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(ALL_PRESETS))
def test_trusted_replay_equals_the_checked_replay(name: str, seed: int) -> None:
    events, final = random_game(preset(name), seed, max_hands=6)
    _same_state(replay_trusted(events), final)
    _same_state(replay_trusted(events), replay(events))


@pytest.mark.parametrize("name", ["standard", "cancellation", "domino", "auction", "three-kitty",
                                  "hoyle-forced-queen", "omnibus-td"])
def test_trusted_replay_stopped_anywhere_answers_as_the_checked_one(name: str) -> None:
    events, _ = random_game(preset(name), 5, max_hands=2)
    for cut in range(1, len(events), 7):
        trusted, checked = replay_trusted(events[:cut]), replay(events[:cut])
        _same_state(trusted, checked)
        for seat in range(checked.seats):
            assert legal_cards(trusted, seat) == legal_cards(checked, seat)


@pytest.mark.parametrize("name", ["standard", "cancellation", "domino", "auction"])
def test_apply_all_trusted_equals_apply_all(name: str) -> None:
    events, final = random_game(preset(name), 7, max_hands=4)
    for cut in (1, len(events) // 3, len(events) - 5):
        base = replay(events[:cut])
        _same_state(apply_all_trusted(base, events[cut:]), apply_all(base, events[cut:]))
        _same_state(apply_all_trusted(base, events[cut:]), final)
        _same_state(base, replay(events[:cut]))  # the state it started from is untouched


def test_the_trusted_fold_still_checks_everything_but_card_plays() -> None:
    events, _ = random_game(preset("standard"), 1, max_hands=1)
    dealt = next(i for i, e in enumerate(events) if isinstance(e, CardsPassed))
    state = replay(events[:dealt])
    foreign = next(c for c in state.hand(1) if not state.hands[0] & c.bit)
    wrong_pass = CardsPassed(0, (foreign, *state.hand(0)[:2]))
    with pytest.raises(IllegalMove):
        replay_trusted([*events[:dealt], wrong_pass])
    with pytest.raises(WrongPhase):
        replay_trusted(events[1:])  # no creation first


def test_the_trusted_fold_does_not_check_card_plays() -> None:
    """What makes it fast, and why it is only for a stored log: an illegal play (here a card
    out of turn) is refused by the checked fold and folded by the trusted one."""
    events, _ = random_game(preset("standard"), 2, max_hands=1)
    first_play = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed))
    state = replay(events[:first_play])
    assert state.phase is Phase.PLAY
    other = (state.turn + 1) % state.seats
    out_of_turn = CardPlayed(other, state.hand(other)[0])
    with pytest.raises(NotYourTurn):
        replay([*events[:first_play], out_of_turn])
    replay_trusted([*events[:first_play], out_of_turn])


@pytest.mark.parametrize("name", ["standard", "cancellation", "auction", "domino"])
def test_card_plays_decode_to_the_same_events(name: str) -> None:
    events, _ = random_game(preset(name), 9, max_hands=3)
    decoded = [decode_event(encode_event(e)) for e in events]
    assert decoded == events
    assert all(type(d) is type(e) for d, e in zip(decoded, events, strict=True))


PLAYED: dict[str, Any] = {"type": "card_played", "v": 1, "seat": 2, "card": "QS"}


@pytest.mark.parametrize("change", [
    {"seat": True}, {"seat": -1}, {"seat": 1.0}, {"seat": "2"}, {"v": True}, {"v": 2},
    {"v": 1.0}, {"card": "qs"}, {"card": "10S"}, {"card": ["QS"]}, {"card": 3},
    {"card": None}, {"seat": None}, {"extra": 1},
])
def test_the_fast_path_refuses_what_the_full_decoder_refuses(change: dict[str, Any]) -> None:
    with pytest.raises(EventDecodeError):
        decode_event({**PLAYED, **change})


def test_the_fast_path_with_a_key_missing_is_refused() -> None:
    for key in ("seat", "card", "v"):
        with pytest.raises(EventDecodeError):
            decode_event({k: v for k, v in PLAYED.items() if k != key})
    assert decode_event(PLAYED) == CardPlayed(2, Card(12, Suit.SPADES))
    assert decode_event({**PLAYED, "card": "QS'"}).card.copy == 1
