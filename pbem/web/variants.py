"""What the pages show of the whole variants (Auction, Domino, Cancellation), as plain values.

Built from the engine's state and views plus the seat names; the templates never touch the
engine. A standard game gets `None` for each part and its pages are unchanged. Public pages get
only what everyone may see: the bids, the pot, the chips, the named suit, the stock's size, who is
out, the cancelled cards and the carried ones; the cards a player drew are shown on their own
private view only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from pbem.engine import (
    Cancels,
    Card,
    CardsDrawn,
    GameState,
    HandDealt,
    Phase,
    Suit,
    Trick,
    Variant,
    event_type,
    list_in_words,
)
from pbem.engine.variants.cancellation import cancelled as cancelled_mask
from pbem.mail import views
from pbem.store.events import load_events
from pbem.store.models import Event as EventRow

PLAYING = (Phase.PLAY, Phase.DRAW, Phase.MOON_CHOICE)


def chips_words(chips: int) -> str:
    return "1 chip" if chips == 1 else f"{chips} chips"


# --- cards held twice, cancelled plays, tricks nobody won -----------------------------------

@dataclass(frozen=True)
class HeldCard(views.CardView):
    """A card in a Cancellation hand: `copies` is 2 when the player holds both copies."""

    copies: int = 1


@dataclass(frozen=True)
class MarkedPlay(views.PlayView):
    cancelled: bool = False  # Cancellation: a card another card in the trick cancels


@dataclass(frozen=True)
class MarkedTrick(views.TrickView):
    nobody: bool = False  # Cancellation: a complete trick nobody won (its cards carried on)


def hand_rows(state: GameState, cards: Sequence[Card]) -> list[views.SuitRow]:
    """The hand grouped by suit; in Cancellation a card held twice shows once, marked ×2
    (playing "QS" plays a QS you hold, so one button stands for both)."""
    if state.rules.variant is not Variant.CANCELLATION:
        return views.hand_rows(cards)
    copies = Counter(str(c) for c in cards)
    first = [c for c in cards if c.copy == 0 or copies[str(c)] == 1]
    return [replace(row, cards=tuple(HeldCard(**_fields(c), copies=copies[c.code])
                                     for c in row.cards))
            for row in views.hand_rows(first)]


def _fields(card: views.CardView) -> dict[str, Any]:
    return {"code": card.code, "symbol": card.symbol, "red": card.red, "url": card.url}


def trick_view(state: GameState, trick: Trick | None, names: Sequence[str], seat: int | None,
               complete: bool = False) -> views.TrickView | None:
    """A trick for the pages; in Cancellation its cancelled cards are marked, and a complete
    trick without a winner says nobody won it."""
    shown = views.trick_view(trick, names, seat)
    if trick is None or shown is None or state.rules.variant is not Variant.CANCELLATION:
        return shown
    same_rank = state.rules.cancels is Cancels.SAME_RANK
    gone = cancelled_mask([(s, c.index) for s, c in trick.plays], same_rank)
    plays = tuple(MarkedPlay(p.name, p.card, p.is_you, bool(gone >> c.index & 1))
                  for p, (_s, c) in zip(shown.plays, trick.plays, strict=True))
    return MarkedTrick(plays, shown.winner, shown.winner_is_you,
                       nobody=complete and trick.winner is None)


# --- Auction Hearts ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SuitView:
    name: str     # "spades"
    symbol: str   # "♠"
    red: bool
    letter: str   # "S"

    @property
    def title(self) -> str:
        return f"{self.symbol} {self.name}"


def suit_view(suit: Suit) -> SuitView:
    return SuitView(suit.plural, suit.symbol, suit.is_red, suit.letter)


SUITS = tuple(suit_view(s) for s in Suit)


@dataclass(frozen=True)
class BidRow:
    name: str
    is_you: bool
    words: str       # "3 chips", "passed", "to bid", "not yet"
    high: bool       # the highest bid so far


@dataclass(frozen=True)
class ChipRow:
    name: str
    is_you: bool
    chips: int       # net: paid in negative, won positive

    @property
    def words(self) -> str:
        return f"+{self.chips}" if self.chips > 0 else str(self.chips)


@dataclass(frozen=True)
class AuctionView:
    phase: str
    bids: tuple[BidRow, ...]
    high_bid: int
    min_bid: int
    high_bidder: str | None
    bidder: str | None           # who names (or named) the suit
    bidder_is_you: bool
    suit: SuitView | None        # the suit to avoid, once named
    pot: int
    chips: tuple[ChipRow, ...]
    carried_over: bool           # the pot carried over: the same bidder names without bidding

    @property
    def any_chips(self) -> bool:
        return self.pot > 0 or any(r.chips for r in self.chips)

    @property
    def bidding(self) -> bool:
        return self.phase == Phase.BID.value

    @property
    def naming(self) -> bool:
        return self.phase == Phase.NAME_SUIT.value

    @property
    def pot_words(self) -> str:
        return chips_words(self.pot)

    @property
    def summary(self) -> str:
        """One sentence on where the auction stands."""
        you = "you" if self.bidder_is_you else self.bidder
        names = "name" if self.bidder_is_you else "names"
        if self.bidding:
            if self.high_bidder is None:
                return "Nobody has bid yet."
            return f"The highest bid is {chips_words(self.high_bid)}, by {self.high_bidder}."
        if self.carried_over and self.naming:
            return f"The pot carried over, so {you} {names} the suit again without bidding."
        if self.high_bid == 0 and self.naming:
            return f"Everyone passed, so {you} (the dealer) {names} the suit for nothing."
        if self.naming:
            you = "You" if self.bidder_is_you else self.bidder
            return (f"{you} won the bidding with {chips_words(self.high_bid)} and {names} the "
                    "suit to avoid.")
        return ""


def auction_view(state: GameState, names: Sequence[str], seat: int | None) -> AuctionView | None:
    if state.rules.variant is not Variant.AUCTION:
        return None
    bids = state.bids or (-1,) * state.seats
    high = max(0, *bids)
    high_seat = bids.index(high) if high else None
    rows = []
    for k in range(1, state.seats + 1):  # in bidding order, from the dealer's left
        s = (state.dealer + k) % state.seats
        b = bids[s]
        words = ("passed" if b == 0 else chips_words(b) if b > 0
                 else "to bid" if state.phase is Phase.BID and s in state.to_move
                 else "not yet" if state.phase is Phase.BID else "")
        rows.append(BidRow(names[s], s == seat, words, s == high_seat))
    bidder = state.bidder if state.bidder >= 0 else None
    chips = state.chips or (0,) * state.seats
    carried = state.phase is Phase.NAME_SUIT and all(b < 0 for b in bids)
    return AuctionView(
        phase=state.phase.value, bids=tuple(rows) if not carried else (), high_bid=high,
        min_bid=high + 1, high_bidder=names[high_seat] if high_seat is not None else None,
        bidder=names[bidder] if bidder is not None else None,
        bidder_is_you=bidder is not None and bidder == seat,
        suit=suit_view(state.named_suit) if state.named_suit is not None else None,
        pot=state.pot, chips=tuple(ChipRow(names[s], s == seat, chips[s])
                                   for s in range(state.seats)),
        carried_over=carried)


def chip_lines(state: GameState, names: Sequence[str]) -> list[str]:
    """The Auction chips settlement in words: who collects, who pays, what stays in the pot."""
    if state.rules.variant is not Variant.AUCTION:
        return []
    chips = state.chips or (0,) * state.seats
    lines = [f"{names[s]} collects {chips_words(a)}" if a > 0 else
             f"{names[s]} pays {chips_words(-a)}" if a < 0 else f"{names[s]} is square"
             for s, a in sorted(enumerate(chips), key=lambda p: -p[1])]
    if state.pot:
        lines.append(f"{chips_words(state.pot)} stay in the pot")
    return lines


# --- Domino Hearts ----------------------------------------------------------------------------

@dataclass(frozen=True)
class DominoView:
    stock: int
    out: str                      # the players out of this hand, in words ("" if none)
    drawn: tuple[views.CardView, ...] = ()  # the player's own draws this hand (private view)

    @property
    def stock_words(self) -> str:
        return "The stock is empty" if not self.stock else \
            f"{self.stock} card{'s' if self.stock != 1 else ''} left in the stock"


def domino_view(state: GameState, names: Sequence[str], seat: int | None,
                drawn: Sequence[Card] = ()) -> DominoView | None:
    if state.rules.variant is not Variant.DOMINO:
        return None
    out = [("you" if s == seat else names[s]) for s in range(state.seats)
           if state.phase in PLAYING and not state.hands[s]]
    return DominoView(state.stock_size, list_in_words(out), tuple(views.card_view(c)
                                                                   for c in drawn))


def drawn_this_hand(session: Session, game_id: int, state: GameState, seat: int) -> list[Card]:
    """The cards `seat` drew from the stock this hand, in the order drawn.

    The stock is the rest of the deal after the hands, drawn from the top, so each draw's cards
    follow from the deal and the counts of the draws before it."""
    if state.rules.variant is not Variant.DOMINO or state.phase not in PLAYING:
        return []
    dealt_at = session.exec(select(func.max(EventRow.seq)).where(
        EventRow.game_id == game_id, EventRow.type == event_type(HandDealt(())))).one()
    if dealt_at is None:
        return []
    events = load_events(session, game_id, dealt_at - 1)
    deal = events[0]
    assert isinstance(deal, HandDealt)
    top, mine = state.rules.hand_size * state.seats, []
    for draw in (e for e in events if isinstance(e, CardsDrawn)):
        if draw.seat == seat:
            mine.extend(deal.cards[top:top + draw.count])
        top += draw.count
    return mine


# --- Cancellation Hearts ------------------------------------------------------------------------

@dataclass(frozen=True)
class CancellationView:
    widow: int                              # cards waiting to go with the first trick
    carried: tuple[views.CardView, ...]     # cards of unwon tricks, for the next winner
    unwon: tuple[int, ...]                  # numbers of this hand's tricks nobody won
    same_rank: bool                         # any two cards of one rank cancel

    @property
    def rule(self) -> str:
        return ("Two cards of the same rank in a trick cancel each other" if self.same_rank
                else "Two identical cards in a trick cancel each other")


def cancellation_view(state: GameState) -> CancellationView | None:
    if state.rules.variant is not Variant.CANCELLATION:
        return None
    unwon = tuple(n for n, t in enumerate(state.tricks, start=1) if t.winner is None) \
        if state.phase in PLAYING else ()
    return CancellationView(len(state.kitty_cards) if state.phase in PLAYING else 0,
                            tuple(views.card_views(state.carried_cards)), unwon,
                            state.rules.cancels is Cancels.SAME_RANK)


def variant_context(state: GameState, names: Sequence[str], seat: int | None,
                    drawn: Sequence[Card] = ()) -> dict[str, Any]:
    """The template values of the game's variant (each None in other games)."""
    return {"variant": state.rules.variant.value,
            "auction": auction_view(state, names, seat),
            "domino": domino_view(state, names, seat, drawn),
            "cancellation": cancellation_view(state)}
