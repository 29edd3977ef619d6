"""Random legal playouts through the public engine API: for tests, benchmarks and a baseline bot."""

from __future__ import annotations

import random

from pbem.dealing import create_game, deal
from pbem.engine import (
    Bid,
    BidMade,
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    MoonChosen,
    Phase,
    Rules,
    Suit,
    SuitNamed,
    apply,
    forced_events,
    legal_cards,
    start,
)


def random_event(state: GameState, rng: random.Random) -> Event:
    """A random legal event for whatever the state waits for, the deal included."""
    if state.phase is Phase.DEAL:
        return deal(state.rules, rng)  # both decks for Cancellation Hearts
    if state.phase is Phase.PASS:
        seat = rng.choice(state.to_move)
        return CardsPassed(seat, tuple(rng.sample(state.hand(seat), state.rules.pass_count)))
    if state.phase is Phase.MOON_CHOICE:
        return MoonChosen(state.moon_shooter, rng.random() < 0.5)
    if state.phase is Phase.DRAW:
        return forced_events(state)[0]
    if state.phase is Phase.BID:
        return BidMade(state.turn, random_bid(state, rng).chips)
    if state.phase is Phase.NAME_SUIT:
        return SuitNamed(state.bidder, rng.choice(list(Suit)))
    return CardPlayed(state.turn, rng.choice(legal_cards(state, state.turn)))


def random_bid(state: GameState, rng: random.Random) -> Bid:
    """Auction Hearts: pass half the time, else raise the high bid by one to three chips."""
    if rng.random() < 0.5:
        return Bid(state.turn, None)
    return Bid(state.turn, max(0, *state.bids) + rng.randint(1, 3))


def random_game(rules: Rules, seed: int, max_hands: int = 100) -> tuple[list[Event], GameState]:
    """A whole seeded game of random legal moves: its log and its final state."""
    rng = random.Random(seed)
    created = create_game(rules, rng)
    events: list[Event] = [created]
    state = start(created)
    while not state.game_over and state.hand_number <= max_hands:
        event = random_event(state, rng)
        state = apply(state, event)
        events.append(event)
    return events, state
