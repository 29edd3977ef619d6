"""The game state: the frozen value the fold produces, and the questions asked of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from types import MemberDescriptorType
from typing import Any

from pbem.engine.cards import SUIT_MASKS, Card, Suit, cards_of
from pbem.engine.rules import Rules
from pbem.engine.values import constructed_fast, fast_constructor, mypyc_attr, python_class


class Phase(StrEnum):
    DEAL = "deal"                # waiting for the next HandDealt (the service deals)
    PASS = "pass"                # seats choose the cards to pass, in any order
    PLAY = "play"
    MOON_CHOICE = "moon_choice"  # the shooter chooses down 26 or everyone else up 26
    DRAW = "draw"                # Domino: the player to move can't follow and draws (forced)
    BID = "bid"                  # Auction: seats bid chips in turn, once each
    NAME_SUIT = "name_suit"      # Auction: the winning bidder names the suit to avoid
    GAME_OVER = "game_over"


# The phases as module constants, for the code that asks at every card: in Python 3.11 every
# read of `Phase.PLAY` goes through the enum class's `__getattr__` hook (about 50 ns, where a
# global is read in a few).
DEAL, PASS, PLAY, MOON_CHOICE = Phase.DEAL, Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE
DRAW, BID, NAME_SUIT, GAME_OVER = Phase.DRAW, Phase.BID, Phase.NAME_SUIT, Phase.GAME_OVER


@mypyc_attr(acyclic=True)  # (see GameState)
@dataclass(frozen=True, slots=True)
class Trick:
    """A trick: native when compiled, made at the end of every trick, as GameState is."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None = None

    def __init__(self, leader: int, plays: tuple[tuple[int, Card], ...],
                 winner: int | None = None) -> None:
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "plays", plays)
        object.__setattr__(self, "winner", winner)

    def __reduce__(self) -> tuple[type[Trick], tuple[Any, ...]]:
        return Trick, (self.leader, self.plays, self.winner)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def card_of(self, seat: int) -> Card | None:
        return next((card for s, card in self.plays if s == seat), None)


@python_class  # built by `new_result` (values.py)
@dataclass(frozen=True, slots=True)
class HandResult:
    """One line of the score sheet."""

    hand_number: int
    dealer: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    moon: int | None = None          # the seat that shot the moon (or made the slam)
    moon_down: bool | None = None    # True: the shooter went down; False: the others went up
    slam: bool = False               # Omnibus: all counting cards including the TD
    hearts: tuple[int, ...] = ()     # hearts taken per seat (chips, Howell)
    claimed_by: int | None = None
    false_claim: bool = False        # seed 003 §6: the claimer was charged for a false claim


# Compiled: never tracked by the cycle collector (a state refers to no state, nor does its
# table), and the last state freed is reused for the next one made.
@mypyc_attr(acyclic=True, free_list_len=1)
@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the fold knows. Hands are bitmasks of card indices; use the methods for Cards.

    Compiled by mypyc, a native class: the fold makes one at every event (`kept_state` in
    table.py) and `decide`, `apply` and `legal_cards` read it natively. Its `__init__` stores
    each field with `object.__setattr__`, which mypyc compiles to plain stores (the frozen
    dataclass's own `__init__`, compiled, is some forty times dearer). As pure Python it is
    built by `constructed_fast` (values.py) instead, as the commands are."""

    rules: Rules
    seats: int
    first_dealer: int
    hand_number: int
    dealer: int
    phase: Phase
    hands: tuple[int, ...]
    passed: tuple[int, ...]           # per seat: the mask passed this hand, -1 while not yet passed
    trick: tuple[tuple[int, int], ...]  # the current trick: (seat, card index)
    leader: int
    turn: int
    tricks: tuple[Trick, ...]         # completed tricks of this hand
    won: tuple[int, ...]              # per seat: the cards taken this hand
    hearts_broken: bool
    kitty: int                        # kitty cards not yet taken
    in_play: int                      # every card dealt this hand
    totals: tuple[int, ...]
    sheet: tuple[HandResult, ...]
    moon_shooter: int
    winners: tuple[int, ...]
    claimed_by: int = -1
    # The whole variants (see docs/engine.md); the standard fold leaves these at their defaults.
    carry: int = 0                # Cancellation: cards of tricks nobody won, for the next winner
    stock: tuple[int, ...] = ()   # Domino: the stock's card indices, top first
    bids: tuple[int, ...] = ()    # Auction: per seat -1 not yet, 0 passed, else the chips bid
    bidder: int = -1              # Auction: who names the suit (kept while the pot carries over)
    avoid: int = -1               # Auction: the named suit (a Suit value), -1 before it is named
    pot: int = 0                  # Auction: chips in the pot
    chips: tuple[int, ...] = ()   # Auction: each seat's net chips (paid in negative, won positive)
    # Per seat: its turn number, what a link, page or reply was issued for. It moves on with
    # each of the seat's decisions (pass, play, bid, named suit, moon choice, claim) and with
    # every deal, so nothing issued in an earlier hand can act in a later one.
    turns: tuple[int, ...] = ()
    # Domino: this hand's draws as (seat, count, cards played in the hand before it): public,
    # every player sees who drew how many (never which cards but their own).
    drawn: tuple[tuple[int, int, int], ...] = ()
    # Seed 003's end by agreement: the seats that have voted to end the game now (a bit per
    # seat; 0: no vote open). Every seat's bit set: the game ended by agreement.
    end_votes: int = 0
    # The fold's working table this state was frozen from, kept for questions (legality) so
    # they need not thaw the state again; never part of the value (see variants.reader).
    # (The card play `decide` last checked against this state is kept on that table too:
    # `Table.decided`.)
    # Any, not object: mypyc's dataclass looks each annotation's name up in the module.
    _table: Any = field(default=None, init=False, repr=False, compare=False)

    def __init__(  # noqa: PLR0913 - one per field, in the dataclass's order and defaults
            self, rules: Rules, seats: int, first_dealer: int, hand_number: int, dealer: int,
            phase: Phase, hands: tuple[int, ...], passed: tuple[int, ...],
            trick: tuple[tuple[int, int], ...], leader: int, turn: int,
            tricks: tuple[Trick, ...], won: tuple[int, ...], hearts_broken: bool, kitty: int,
            in_play: int, totals: tuple[int, ...], sheet: tuple[HandResult, ...],
            moon_shooter: int, winners: tuple[int, ...], claimed_by: int = -1, carry: int = 0,
            stock: tuple[int, ...] = (), bids: tuple[int, ...] = (), bidder: int = -1,
            avoid: int = -1, pot: int = 0, chips: tuple[int, ...] = (),
            turns: tuple[int, ...] = (), drawn: tuple[tuple[int, int, int], ...] = (),
            end_votes: int = 0) -> None:
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "first_dealer", first_dealer)
        object.__setattr__(self, "hand_number", hand_number)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "tricks", tricks)
        object.__setattr__(self, "won", won)
        object.__setattr__(self, "hearts_broken", hearts_broken)
        object.__setattr__(self, "kitty", kitty)
        object.__setattr__(self, "in_play", in_play)
        object.__setattr__(self, "totals", totals)
        object.__setattr__(self, "sheet", sheet)
        object.__setattr__(self, "moon_shooter", moon_shooter)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "claimed_by", claimed_by)
        object.__setattr__(self, "carry", carry)
        object.__setattr__(self, "stock", stock)
        object.__setattr__(self, "bids", bids)
        object.__setattr__(self, "bidder", bidder)
        object.__setattr__(self, "avoid", avoid)
        object.__setattr__(self, "pot", pot)
        object.__setattr__(self, "chips", chips)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "end_votes", end_votes)
        object.__setattr__(self, "_table", None)

    def _keep(self, table: object) -> None:
        """Keep the working table this state was frozen from (a cache, not part of the value)."""
        object.__setattr__(self, "_table", table)

    def __reduce__(self) -> tuple[type[GameState], tuple[Any, ...]]:
        return GameState, tuple([getattr(self, name) for name in _INIT_FIELDS])


    # --- questions ---------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase is PASS:
            return tuple([seat for seat, mask in enumerate(self.passed) if mask < 0])
        if self.phase is PLAY:
            return (self.turn,)
        if self.phase is MOON_CHOICE:
            return (self.moon_shooter,)
        if self.phase is BID or self.phase is NAME_SUIT:
            return (self.turn,)
        return ()  # DEAL, GAME_OVER, and Domino's DRAW (forced_events makes the draw)

    @property
    def game_over(self) -> bool:
        return self.phase is GAME_OVER

    @property
    def ended_by_agreement(self) -> bool:
        return self.game_over and self.end_votes == (1 << self.seats) - 1

    @property
    def end_voters(self) -> tuple[int, ...]:
        """The seats that have agreed to end the game now (empty: no vote is open)."""
        return tuple(s for s in range(self.seats) if self.end_votes >> s & 1)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.hands[seat])

    def has_passed(self, seat: int) -> bool:
        return self.passed[seat] >= 0

    @property
    def pass_offset(self) -> int:
        return self.rules.pass_offset(self.hand_number)

    def pass_target(self, seat: int) -> int:
        return (seat + self.pass_offset) % self.seats

    def pass_source(self, seat: int) -> int:
        return (seat - self.pass_offset) % self.seats

    def passed_cards(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.passed[seat]) if self.passed[seat] > 0 else ()

    def received_cards(self, seat: int) -> tuple[Card, ...]:
        """Cards passed to this seat: empty until everyone has passed."""
        if self.phase is PASS or self.pass_offset == 0 or self.phase is DEAL:
            return ()
        return self.passed_cards(self.pass_source(seat))

    @property
    def current_trick(self) -> Trick:
        return Trick(self.leader, tuple((s, Card.from_index(i)) for s, i in self.trick))

    @property
    def previous_trick(self) -> Trick | None:
        return self.tricks[-1] if self.tricks else None

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    @property
    def hand_points(self) -> tuple[int, ...]:
        from pbem.engine.scoring import points_taken

        if self.avoid >= 0:  # Auction: a point (and a chip) per card of the named suit
            suit = SUIT_MASKS[self.avoid]
            return tuple((mask & suit).bit_count() for mask in self.won)
        return tuple(points_taken(self.rules, self.won))

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def named_suit(self) -> Suit | None:
        return Suit(self.avoid) if self.avoid >= 0 else None

    @property
    def carried_cards(self) -> tuple[Card, ...]:
        return cards_of(self.carry)

    def taken(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self.won[seat])

    @property
    def score_sheet(self) -> tuple[HandResult, ...]:
        return self.sheet

    @property
    def kitty_cards(self) -> tuple[Card, ...]:
        return cards_of(self.kitty)


# The fields `GameState(...)` takes, in order (what a state pickles as).
_INIT_FIELDS = ("rules", "seats", "first_dealer", "hand_number", "dealer", "phase", "hands",
                "passed", "trick", "leader", "turn", "tricks", "won", "hearts_broken", "kitty",
                "in_play", "totals", "sheet", "moon_shooter", "winners", "claimed_by", "carry",
                "stock", "bids", "bidder", "avoid", "pot", "chips", "turns", "drawn", "end_votes")

# Compiled, GameState and Trick are native classes whose own `__init__` is the fast one (their
# fields are native attributes, not slots). As pure Python, their classes build their values as
# `fast_constructor` does (values.py): the frozen `__init__` costs several times more.
if type(vars(GameState).get("rules")) is MemberDescriptorType:
    constructed_fast(GameState)
    constructed_fast(Trick)
# The names the fold's constructors had (the same values as GameState(...) and Trick(...)).
new_state: Callable[..., GameState] = GameState  # (also takes a variant's fields as a dict)
new_trick = Trick
new_result = fast_constructor(HandResult)
