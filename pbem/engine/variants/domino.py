"""Domino Hearts: 2-7 players, six cards each, the rest a stock to draw from.

A player who cannot follow suit draws from the top of the stock until they can (the phase is
DRAW; `forced_events` makes the CardsDrawn event, whose count follows from the stock order in
HandDealt). Once the stock is gone a void player discards. Players drop out as their hands empty;
a trick is complete when every player still in at its lead has played; a winner who is out
passes the lead to the next active player on the left. When one player is left they take the
cards still in their hand and the stock; when nobody is left the last trick's winner takes the
stock (see docs/engine.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Self

from pbem.engine.cards import SUIT_MASKS, Card
from pbem.engine.errors import IllegalMove, NotYourTurn
from pbem.engine.events import CardsDrawn, Event, GameCreated
from pbem.engine.state import (
    DRAW,
    PLAY,
    GameState,
    Trick,
)
from pbem.engine.table import Table, trick_plays, trick_winner


class DominoTable(Table):
    __slots__ = ("stock", "drawn")
    stock: list[int]
    drawn: list[tuple[int, int, int]]  # this hand's draws: (seat, count, cards played before)

    def __init__(self, created: GameCreated | None = None) -> None:
        super().__init__(created)
        if created is None:  # an empty table for `thaw` and `clone` to load
            return
        self.stock = []
        self.drawn = []

    def load(self, source: GameState | Self) -> None:
        super().load(source)
        self.stock, self.drawn = list(source.stock), list(source.drawn)

    def variant_fields(self) -> dict[str, object]:
        return {"stock": tuple(self.stock), "drawn": tuple(self.drawn)}

    def apply_trusted(self, events: Iterable[Event]) -> None:
        """A play here also decides who draws: every event takes the checked path."""
        for event in events:
            self.apply(event)

    def play_trusted(self, seat: int, index: int) -> None:
        """A play here also decides who draws: the checked path."""
        self.play(seat, index)
        self.turns[seat] += 1

    def apply_variant(self, event: Event) -> None:
        if type(event) is CardsDrawn:
            self.draw(event.seat, event.count)
        else:
            super().apply_variant(event)

    def deal(self, cards: tuple[Card, ...]) -> None:
        super().deal(cards)
        self.stock = [c.index for c in cards[self.rules.hand_size * self.seats:]]
        self.kitty = 0
        self.drawn = []

    def claim(self, seat: int) -> None:
        raise IllegalMove("no_claims", variant="domino")

    def needed_draws(self) -> int:
        """How many cards the player to move must draw: up to the first of the suit led."""
        led = SUIT_MASKS[self.trick[0][1] // 13]
        for k, index in enumerate(self.stock):
            if led >> index & 1:
                return k + 1
        return len(self.stock)

    def draw(self, seat: int, count: int) -> None:
        self._require(DRAW, "no_draw_now")
        if seat != self.turn:
            raise NotYourTurn("not_your_turn_draw", waiting=self.turn)
        needed = self.needed_draws()
        if count != needed:
            raise IllegalMove("wrong_draw_count", needed=needed, count=count)
        for index in self.stock[:count]:
            self.hands[seat] |= 1 << index
        del self.stock[:count]
        played = sum(len(t.plays) for t in self.tricks) + len(self.trick)
        self.drawn = [*self.drawn, (seat, count, played)]  # a new list: clones share the old
        self.phase = PLAY

    def play(self, seat: int, index: int) -> None:
        self._lay(seat, index)
        played = {s for s, _ in self.trick}
        n = self.seats
        for k in range(1, n):
            nxt = (seat + k) % n
            if self.hands[nxt] and nxt not in played:
                self.turn = nxt
                led = SUIT_MASKS[self.trick[0][1] // 13]
                if self.stock and not self.hands[nxt] & led:
                    self.phase = DRAW
                return
        self._finish_trick()

    def _finish_trick(self) -> None:
        winner, mask, _ = trick_winner(self.trick)
        self.won[winner] |= mask
        self.tricks += (Trick(self.leader, trick_plays(self.trick), winner),)
        self.trick = []
        active = [s for s in range(self.seats) if self.hands[s]]
        if len(active) <= 1:
            taker = active[0] if active else winner
            rest = self.hands[taker]
            for index in self.stock:
                rest |= 1 << index
            self.won[taker] |= rest
            self.hands[taker], self.stock = 0, []
            self.leader = self.turn = taker
            self._end_hand()
            return
        lead = winner
        while not self.hands[lead]:
            lead = (lead + 1) % self.seats
        self.leader = self.turn = lead

    def _end_hand(self) -> None:
        self.stock = []
        super()._end_hand()
