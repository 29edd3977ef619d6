"""One seat's view of the game: everything that seat may see, and never another seat's cards."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.cards import Card, Suit
from pbem.engine.fold import legal_cards
from pbem.engine.state import GameState, HandResult, Phase, Trick


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int | None              # None: an observer's view (no hand at all)
    seats: int
    phase: Phase
    hand_number: int
    dealer: int
    to_move: tuple[int, ...]
    hand: tuple[Card, ...]
    legal: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    current_trick: Trick
    previous_trick: Trick | None
    tricks: tuple[Trick, ...]
    trick_number: int
    hearts_broken: bool
    hand_points: tuple[int, ...]
    totals: tuple[int, ...]
    score_sheet: tuple[HandResult, ...]
    pass_offset: int
    pass_target: int | None
    has_passed: bool
    passed_cards: tuple[Card, ...]
    received_cards: tuple[Card, ...]
    moon_choice_pending: bool
    game_over: bool
    winners: tuple[int, ...]
    # The whole variants (empty or None in a standard game):
    carried: tuple[Card, ...] = ()   # Cancellation: cards of unwon tricks, for the next winner
    stock_size: int = 0              # Domino: cards left in the stock (never which)
    bids: tuple[int, ...] = ()       # Auction: -1 not yet, 0 passed, else chips bid
    bidder: int | None = None        # Auction: who names (or named) the suit
    named_suit: Suit | None = None   # Auction: the suit to avoid
    pot: int = 0                     # Auction: chips in the pot
    chips: tuple[int, ...] = ()      # Auction: each seat's net chips
    draws: tuple[tuple[int, int, int], ...] = ()  # Domino: (seat, count, played before) a draw

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_move


def seat_view(state: GameState, seat: int | None) -> SeatView:
    """What `seat` may know; `seat=None` gives the public view an observer sees."""
    mine = seat is not None
    return SeatView(
        seat=seat, seats=state.seats, phase=state.phase, hand_number=state.hand_number,
        dealer=state.dealer, to_move=state.to_move,
        hand=state.hand(seat) if seat is not None else (),
        legal=legal_cards(state, seat) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        current_trick=state.current_trick, previous_trick=state.previous_trick,
        tricks=state.tricks, trick_number=state.trick_number,
        hearts_broken=state.hearts_broken, hand_points=state.hand_points,
        totals=state.totals, score_sheet=state.sheet, pass_offset=state.pass_offset,
        pass_target=state.pass_target(seat) if seat is not None else None,
        has_passed=state.has_passed(seat) if seat is not None else False,
        passed_cards=state.passed_cards(seat) if seat is not None else (),
        received_cards=state.received_cards(seat) if seat is not None else (),
        moon_choice_pending=mine and state.phase is Phase.MOON_CHOICE
        and state.moon_shooter == seat,
        game_over=state.game_over, winners=state.winners,
        carried=state.carried_cards, stock_size=state.stock_size, bids=state.bids,
        bidder=state.bidder if state.bidder >= 0 else None, named_suit=state.named_suit,
        pot=state.pot, chips=state.chips, draws=state.drawn,
    )
