"""Replay 25 hands recorded from the xinxin Hearts program (published with OpenSpiel).

Every play must be legal under the standard rules, the seat order must follow the tricks, and the
engine's points must match points computed here from the tricks alone. The data lives beside this
file, in data/xinxin-hands (see its README.md for the format and where it comes from).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine import (
    Card,
    CardsPassed,
    GameCreated,
    HandDealt,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Suit,
    apply,
    decide,
    legal_cards,
    start,
)

DATA = Path(__file__).resolve().parent / "data" / "xinxin-hands"
SEATS = 4
# README: "a card passed by seat p goes to seat (p + direction) mod 4"; the engine's offsets.
DIRECTION_OFFSETS = {0: 0, 1: 1, 2: 2, 3: -1}
QS = Card(12, Suit.SPADES)
TWO_OF_CLUBS = Card(2, Suit.CLUBS)


def card_from_number(number: int) -> Card:
    """rank * 4 + suit, suits C D H S, rank 0 = "2"."""
    assert 0 <= number < 52
    return Card(number // 4 + 2, Suit(number % 4))


def load_hands() -> list[tuple[str, list[int]]]:
    hands: list[tuple[str, list[int]]] = []
    for split in ("train", "test"):
        path = DATA / f"{split}.txt"
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        for number, line in enumerate(lines, start=1):
            hands.append((f"{split}-{number:02d}", [int(v) for v in line.split()]))
    return hands


HANDS = load_hands()


def rules_for(direction: int) -> Rules:
    """The README's rules: the standard preset's options, one fixed pass direction."""
    offset = DIRECTION_OFFSETS[direction]
    return Rules(pass_count=3 if offset else 0, pass_cycle=(offset,))


def test_the_rules_are_the_stated_ones() -> None:
    rules = rules_for(1)
    assert not rules.points_on_first_trick
    assert rules.hearts_must_be_broken and rules.queen_breaks_hearts
    assert rules.only_hearts_and_queen_lead.value == "must_lead_queen"
    assert rules.moon.value == "others_plus"
    assert rules.queen_scores and rules.bonus_card.value == "none"


def test_all_hands_found() -> None:
    assert len(HANDS) == 25
    assert sum(name.startswith("train") for name, _ in HANDS) == 20


def winner_of(plays: list[tuple[int, Card]]) -> int:
    led = plays[0][1].suit
    return max((p for p in plays if p[1].suit is led), key=lambda p: p[1].rank)[0]


def points_of(cards: set[Card]) -> int:
    return sum(1 for c in cards if c.suit is Suit.HEARTS) + (13 if QS in cards else 0)


@pytest.mark.parametrize("numbers", [h for _, h in HANDS], ids=[name for name, _ in HANDS])
def test_recorded_hand_replays(numbers: list[int]) -> None:
    direction, rest = numbers[0], numbers[1:]
    assert direction in DIRECTION_OFFSETS
    deal = [card_from_number(n) for n in rest[:52]]
    passes = [card_from_number(n) for n in rest[52:64]] if direction else []
    plays = [card_from_number(n) for n in rest[64 if direction else 52:]]
    assert len(set(deal)) == 52 and len(plays) == 52 and set(plays) == set(deal)

    rules = rules_for(direction)
    offset = DIRECTION_OFFSETS[direction]
    state = start(GameCreated(rules, SEATS, first_dealer=3))
    state = apply(state, HandDealt(tuple(deal)))

    # Our own bookkeeping of who holds what, from the README's description only.
    held = {s: {deal[k] for k in range(52) if k % SEATS == s} for s in range(SEATS)}
    for seat in range(SEATS):
        assert set(state.hand(seat)) == held[seat]

    if direction:
        assert state.phase is Phase.PASS
        assert state.pass_target(0) == (0 + direction) % SEATS
        given = {s: set(passes[3 * s:3 * s + 3]) for s in range(SEATS)}
        for seat in range(SEATS):
            assert given[seat] <= held[seat]
            events = decide(state, PassCards(seat, tuple(passes[3 * seat:3 * seat + 3])))
            assert events == (CardsPassed(seat, tuple(sorted(given[seat]))),)
            state = apply(state, events[0])
        held = {s: (held[s] - given[s]) | given[(s - direction) % SEATS] for s in range(SEATS)}
        for seat in range(SEATS):
            assert set(state.hand(seat)) == held[seat]
    assert state.phase is Phase.PLAY

    leader = next(s for s in range(SEATS) if TWO_OF_CLUBS in held[s])
    taken: dict[int, set[Card]] = {s: set() for s in range(SEATS)}
    trick: list[tuple[int, Card]] = []
    for number, card in enumerate(plays):
        seat = (leader + len(trick)) % SEATS
        assert card in held[seat], f"play {number}: {card} is not held by seat {seat}"
        assert state.turn == seat, f"play {number}: engine waits for {state.turn}, not {seat}"
        assert card in legal_cards(state, seat)
        events = decide(state, PlayCard(seat, card))  # raises if the engine thinks it illegal
        assert len(events) == 1
        state = apply(state, events[0])
        held[seat].discard(card)
        trick.append((seat, card))
        if len(trick) == SEATS:
            leader = winner_of(trick)
            taken[leader] |= {c for _, c in trick}
            trick = []

    raw = [points_of(taken[s]) for s in range(SEATS)]
    assert sum(raw) == 26
    assert list(state.hand_points) == raw
    shooter = next((s for s in range(SEATS) if raw[s] == 26), None)
    expected = [0 if s == shooter else 26 for s in range(SEATS)] if shooter is not None else raw
    assert state.phase is Phase.DEAL
    assert len(state.tricks) == 13
    (result,) = state.score_sheet
    assert list(result.points) == expected
    assert result.moon == shooter
    assert list(state.totals) == expected
    assert result.hearts == tuple(sum(c.suit is Suit.HEARTS for c in taken[s])
                                  for s in range(SEATS))
    assert offset == state.pass_offset
