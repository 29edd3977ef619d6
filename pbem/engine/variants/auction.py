"""Auction Hearts: Hearts Without Black Lady where the deal's best bid names the suit to avoid.

After the deal each player, starting left of the dealer, bids once: more chips than the last bid,
or pass. The highest bidder pays the bid into the pot, names the suit (the NAME_SUIT phase) and
leads any card. The named suit scores like hearts (one point and one chip into the pot per card
taken) and must be broken before it is led. A sole player with none of the suit takes the pot;
two split it, an odd chip staying; otherwise (more than two with none, nobody with none, or one
player with the whole suit) the pot carries over and the same bidder names the suit for the next
deal without bidding. When everyone passes the dealer names the suit for nothing."""

from __future__ import annotations

from typing import Self

from pbem.engine.cards import SUIT_MASKS, Card, Suit
from pbem.engine.errors import IllegalMove, NotYourTurn
from pbem.engine.events import BidMade, Event, GameCreated, SuitNamed
from pbem.engine.state import (
    BID,
    DEAL,
    NAME_SUIT,
    PLAY,
    GameState,
)
from pbem.engine.table import Table


class AuctionTable(Table):
    __slots__ = ("bids", "bidder", "avoid", "pot", "chips")
    bids: list[int]
    chips: list[int]

    def __init__(self, created: GameCreated | None = None) -> None:
        super().__init__(created)
        if created is None:  # an empty table for `thaw` and `clone` to load
            return
        self.bids = [-1] * self.seats
        self.bidder = self.avoid = -1
        self.pot = 0
        self.chips = [0] * self.seats
        self.penalty = 0

    def load(self, source: GameState | Self) -> None:
        """(A state built by hand may have no bids or chips yet; the penalty cards are the
        named suit's.)"""
        super().load(source)
        self.bids = list(source.bids) or [-1] * self.seats
        self.bidder, self.avoid, self.pot = source.bidder, source.avoid, source.pot
        self.chips = list(source.chips) or [0] * self.seats
        self.penalty = SUIT_MASKS[source.avoid] if source.avoid >= 0 else 0

    def variant_fields(self) -> dict[str, object]:
        return {"bids": tuple(self.bids), "bidder": self.bidder, "avoid": self.avoid,
                "pot": self.pot, "chips": tuple(self.chips)}

    def apply_variant(self, event: Event) -> None:
        kind = type(event)
        if kind is BidMade:
            self.bid(event.seat, event.chips)  # type: ignore[union-attr]
        elif kind is SuitNamed:
            self.name_suit(event.seat, event.suit)  # type: ignore[union-attr]
        else:
            super().apply_variant(event)

    # --- the auction ---------------------------------------------------------------------
    def deal(self, cards: tuple[Card, ...]) -> None:
        super().deal(cards)
        self.avoid, self.penalty = -1, 0
        self.bids = [-1] * self.seats
        if self.bidder >= 0:  # the pot carried over: the same bidder names the suit
            self.phase, self.turn = NAME_SUIT, self.bidder
        else:
            self.phase = BID
            self.turn = (self.dealer + 1) % self.seats

    @property
    def high_bid(self) -> int:
        return max(0, *self.bids)

    def bid(self, seat: int, chips: int | None) -> None:
        self._require(BID, "bidding_over")
        if seat != self.turn:
            raise NotYourTurn("not_your_turn_bid", waiting=self.turn)
        if chips is not None and chips <= self.high_bid:
            raise IllegalMove("bid_too_low", high=self.high_bid)
        self.bids[seat] = chips or 0
        nxt = (seat + 1) % self.seats
        if nxt != (self.dealer + 1) % self.seats:
            self.turn = nxt
            return
        high = self.high_bid
        winner = self.bids.index(high) if high else self.dealer  # all passed: the dealer
        self.chips[winner] -= high
        self.pot += high
        self.bidder = winner
        self.phase, self.turn = NAME_SUIT, winner

    def name_suit(self, seat: int, suit: Suit) -> None:
        self._require(NAME_SUIT, "no_suit_to_name_now")
        if seat != self.bidder:
            raise NotYourTurn("not_bidder")
        self.avoid = int(suit)
        self.penalty = SUIT_MASKS[suit]
        self.phase = PLAY
        self.leader = self.turn = seat

    # --- play: the named suit takes the place of hearts ------------------------------------
    def _heart_breakers(self) -> int:
        return self.penalty

    def _breaks_hearts(self, bit: int) -> bool:
        return bool(bit & self.penalty)  # the named suit is broken once played

    def _lead_mask(self, hand: int, first: bool) -> int:
        mask = self._no_points(hand) if first and not self.rules.points_on_first_trick else hand
        if self.rules.hearts_must_be_broken and not self.hearts_broken:
            others = mask & ~self.penalty
            if others:
                return others
        return mask

    def _no_points(self, hand: int) -> int:
        return hand & ~self.penalty or hand

    def _end_hand(self) -> None:
        if self.simulating:
            self.phase = DEAL
            return
        suit = SUIT_MASKS[self.avoid]
        counts = [(m & suit).bit_count() for m in self.won]
        for seat, count in enumerate(counts):
            self.chips[seat] -= count
            self.pot += count
        clean = [s for s, c in enumerate(counts) if c == 0]
        whole = max(counts) == (self.in_play & suit).bit_count()
        if not whole and len(clean) in (1, 2):
            share = self.pot // len(clean)
            for seat in clean:
                self.chips[seat] += share
            self.pot -= share * len(clean)
            self.bidder = -1  # the pot was won: bid afresh next deal
        self._record(counts, None, None, False)
