"""The game state: the frozen value the fold produces, and the questions asked of it."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any

from pbem.engine.cards import SUIT_MASKS, Card, Suit, cards_of
from pbem.engine.rules import Rules
from pbem.engine.values import fast_constructor, settable_twin


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


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: int | None = None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def card_of(self, seat: int) -> Card | None:
        return next((card for s, card in self.plays if s == seat), None)


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


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the fold knows. Hands are bitmasks of card indices; use the methods for Cards."""

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
    _table: object = field(default=None, init=False, repr=False, compare=False)

    # --- questions ---------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase is PASS:  # (`passed` read once: a kept state fills it on first read)
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


# Positional constructors for the fold's hot path: the same values as GameState(...) and
# Trick(...), built without the frozen __init__'s cost (see values.py).
new_state = fast_constructor(GameState)
new_trick = fast_constructor(Trick)
new_result = fast_constructor(HandResult)


# --- states that fill their sequence fields on first read ------------------------------------

# GameState's settable twin (values.py): `new_kept_state` builds here, then gives the value
# GameState as its class.
_KeptTwin = settable_twin(GameState)


def new_kept_state(  # noqa: PLR0913 - one per field set at once (SET_AT_ONCE)
        rules: Rules, seats: int, first_dealer: int, hand_number: int, dealer: int,
        phase: Phase, leader: int, turn: int, hearts_broken: bool, kitty: int, in_play: int,
        moon_shooter: int, winners: tuple[int, ...], claimed_by: int, end_votes: int,
        table: object) -> GameState:
    """A state whose sequence fields its `table` fills on first read (`kept_state` in
    table.py, compiled, reads the table's fields and calls this). Python, not compiled: a
    store to a slot here is specialized by the interpreter, where compiled code makes a
    generic attribute store that costs several times more."""
    state: Any = _KeptTwin()
    state.rules, state.seats, state.first_dealer = rules, seats, first_dealer
    state.hand_number, state.dealer, state.phase = hand_number, dealer, phase
    state.leader, state.turn, state.hearts_broken = leader, turn, hearts_broken
    state.kitty, state.in_play, state.moon_shooter = kitty, in_play, moon_shooter
    state.winners, state.claimed_by, state.end_votes = winners, claimed_by, end_votes
    state._table = table
    state.__class__ = GameState
    kept: GameState = state
    return kept



# What `kept_state` sets at once: the fields that are not sequences (cheap to share).
SET_AT_ONCE = ("rules", "seats", "first_dealer", "hand_number", "dealer", "phase", "leader",
               "turn", "hearts_broken", "kitty", "in_play", "moon_shooter", "winners",
               "claimed_by", "end_votes", "_table")
_REQUIRED = object()
# The fields a kept state fills on first read, with the value when its table has no such field
# (a variant's field at a standard table; _REQUIRED: every table has it).
_FILLED_LATER: dict[str, Any] = {
    f.name: (f.default if f.default is not MISSING else _REQUIRED) for f in fields(GameState)
    if f.name not in SET_AT_ONCE}



class _FilledLater:
    """A sequence field of GameState (in place of its slot's descriptor, which it wraps): a
    kept state's slot is filled from its table on the first read. A descriptor per field, not
    a `__getattr__` on the class: with that hook every read of every field, the scalar ones
    read at each card included, went through it."""

    __slots__ = ("_default", "_name", "_slot")

    def __init__(self, slot: Any, name: str, default: Any) -> None:
        self._slot, self._name, self._default = slot, name, default

    def __get__(self, state: GameState | None, owner: type | None = None) -> Any:
        if state is None:
            return self._slot
        try:
            return self._slot.__get__(state, owner)
        except AttributeError:
            return self._fill(state)

    def _fill(self, state: GameState) -> Any:
        table, name, default = state._table, self._name, self._default
        value = getattr(table, name) if default is _REQUIRED else getattr(table, name, default)
        if type(value) is list:
            value = tuple(value)
        self._slot.__set__(state, value)
        return value

    def __set__(self, state: GameState, value: Any) -> None:
        self._slot.__set__(state, value)

    def __delete__(self, state: GameState) -> None:
        self._slot.__delete__(state)


for _name, _default in _FILLED_LATER.items():
    setattr(GameState, _name, _FilledLater(GameState.__dict__[_name], _name, _default))
