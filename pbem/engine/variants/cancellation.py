"""Cancellation Hearts: 7-10 players, two decks, a widow for the first trick, cancelling cards.

Two cards that cancel (identical cards, or any two of the same rank with `Cancels.SAME_RANK`)
cannot win the trick. The trick goes to the highest card of the suit led that is not cancelled;
when there is none (every card paired, or every card of the suit led cancelled) nobody wins it:
its cards wait in `carry` for the winner of the next trick, and the same player leads again. A last
trick nobody can win goes to the player who led it."""

from __future__ import annotations

from typing import Self

from pbem.engine.cards import DECK_SIZE, Card
from pbem.engine.errors import IllegalMove
from pbem.engine.events import GameCreated
from pbem.engine.rules import Cancels, Rules, Variant
from pbem.engine.scoring import ALL_HEARTS, ALL_QS
from pbem.engine.state import GameState, Trick
from pbem.engine.table import FOLLOW_MASKS, Table, trick_plays


class CancellationTable(Table):
    __slots__ = ("carry",)

    def __init__(self, created: GameCreated | None = None) -> None:
        super().__init__(created)
        if created is None:  # an empty table for `thaw` and `clone` to load
            return
        self.carry = 0

    def load(self, source: GameState | Self) -> None:
        super().load(source)
        self.carry = source.carry

    def variant_fields(self) -> dict[str, object]:
        return {"carry": self.carry}

    def deal(self, cards: tuple[Card, ...]) -> None:
        super().deal(cards)
        self.carry = 0

    def claim(self, seat: int) -> None:
        raise IllegalMove("no_claims", variant="cancellation")

    # --- both decks: every mask holds both copies of its cards ------------------------------
    def _hearts(self) -> int:
        return ALL_HEARTS

    def _queens(self) -> int:
        return ALL_QS

    def _follow_masks(self) -> tuple[int, ...]:
        return FOLLOW_MASKS

    def _finish_trick(self) -> None:
        plays = self.trick
        mask = 0
        for _, index in plays:
            mask |= 1 << index
        if self.kitty and not self.tricks:  # the widow goes with the first trick
            mask |= self.kitty
            self.kitty = 0
        winner = cancellation_winner(plays, self.rules.cancels is Cancels.SAME_RANK)
        last = not self.hands[self.leader]
        if winner < 0 and not last:
            self.carry |= mask
            self.tricks += (Trick(self.leader, trick_plays(plays), None),)
            self.trick = []
            self.turn = self.leader  # nobody won: the same player leads again
            return
        if winner < 0:
            winner = self.leader  # the last trick nobody can win goes to its leader
        self.won[winner] |= mask | self.carry
        self.carry = 0
        self.tricks += (Trick(self.leader, trick_plays(plays), winner),)
        self.trick = []
        self.leader = self.turn = winner
        if last:
            self._end_hand()


def cancelled(plays: list[tuple[int, int]], same_rank: bool) -> int:
    """The mask of the cards in `plays` that cancel each other."""
    seen: dict[int, int] = {}
    for _, index in plays:
        key = index % 13 if same_rank else index % DECK_SIZE
        seen[key] = seen.get(key, 0) | 1 << index
    mask = 0
    for bits in seen.values():
        if bits & (bits - 1):  # two or more cards share the key
            mask |= bits
    return mask


def cancellation_winner(plays: list[tuple[int, int]], same_rank: bool) -> int:
    """The seat of the highest card of the suit led that no other card cancels, or -1."""
    gone = cancelled(plays, same_rank)
    led = plays[0][1] % DECK_SIZE // 13
    best_seat, best = -1, -1
    for seat, index in plays:
        base = index % DECK_SIZE
        if base // 13 == led and base > best and not gone >> index & 1:
            best_seat, best = seat, base
    return best_seat



# --- for the views (pbem.engine exports these: adapters don't reach into this module) --------

def cancelled_in_trick(rules: Rules, trick: Trick) -> int:
    """The mask of the cards of `trick` that cancel each other (0 outside Cancellation)."""
    if rules.variant is not Variant.CANCELLATION or not trick.plays:
        return 0
    return cancelled(_indexes(trick), rules.cancels is Cancels.SAME_RANK)


def nobody_could_win(rules: Rules, trick: Trick) -> bool:
    """Whether no card of `trick` stood uncancelled in the suit led (Cancellation only): such a
    trick is carried, or, the hand's last, goes to its leader."""
    return (rules.variant is Variant.CANCELLATION and bool(trick.plays)
            and cancellation_winner(_indexes(trick), rules.cancels is Cancels.SAME_RANK) < 0)


def _indexes(trick: Trick) -> list[tuple[int, int]]:
    return [(s, c.index) for s, c in trick.plays]
