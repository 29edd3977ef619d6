"""Commands and the decision function: a command in, new events out, or an error (a code and
its data) to answer with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from pbem.engine.cards import SUIT_MASKS, Card, Suit, cards_of, mask_of, sort_cards
from pbem.engine.claims import NO_CLAIMS, claim_holds, forced_rest
from pbem.engine.errors import IllegalMove, NotYourTurn, WrongPhase
from pbem.engine.events import (
    BidMade,
    CardPlayed,
    CardsDrawn,
    CardsPassed,
    ClaimAccepted,
    ClaimFailed,
    EndVoted,
    Event,
    MoonChosen,
    SuitNamed,
)
from pbem.engine.rules import OpeningLead, Variant
from pbem.engine.scoring import ALL_HEARTS, QS_BIT
from pbem.engine.state import (
    BID,
    DEAL,
    DRAW,
    GAME_OVER,
    MOON_CHOICE,
    NAME_SUIT,
    PASS,
    PLAY,
    GameState,
    Phase,
)
from pbem.engine.table import FOLLOW_MASKS, Table
from pbem.engine.values import constructed_fast
from pbem.engine.variants import reader
from pbem.engine.variants.domino import DominoTable


# The commands but PlayCard are built by `constructed_fast` (values.py): a fraction of the cost
# of the frozen dataclass's own `__init__`.
@constructed_fast
@dataclass(frozen=True, slots=True)
class PassCards:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayCard:
    """The command of every card: a native class where mypyc compiles this module (built and
    read natively: its `object.__setattr__` compile to plain stores), the frozen dataclass
    its decorator makes of it either way."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: Card) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)

    def __reduce__(self) -> tuple[type[PlayCard], tuple[int, Card]]:
        return PlayCard, (self.seat, self.card)  # (a frozen native value has no setstate)


@constructed_fast
@dataclass(frozen=True, slots=True)
class Claim:
    seat: int


@constructed_fast
@dataclass(frozen=True, slots=True)
class ChooseMoon:
    seat: int
    down: bool


@constructed_fast
@dataclass(frozen=True, slots=True)
class Bid:
    """Auction Hearts: bid `chips` for naming the suit to avoid, or pass (None)."""

    seat: int
    chips: int | None


@constructed_fast
@dataclass(frozen=True, slots=True)
class NameSuit:
    """Auction Hearts: the winning bidder names the suit to avoid."""

    seat: int
    suit: Suit


@constructed_fast
@dataclass(frozen=True, slots=True)
class VoteEnd:
    """Seed 003's end by agreement: `agree` votes to end the game now with the current scores
    (the first such vote proposes it), else to play on (closing the vote). Any seat, at any
    time before the game is over: it is nobody's turn."""

    seat: int
    agree: bool = True


# Read from statics by the compiled code (see table.py).
_PLAY: Final = PLAY

Command = PassCards | PlayCard | Claim | ChooseMoon | Bid | NameSuit | VoteEnd


def decide(state: GameState, command: Command, names: Sequence[str] = ()) -> tuple[Event, ...]:
    """The events a command produces, or an EngineError saying why not, as a code and data
    (pbem.present.refusals words it).

    `names` is accepted for the callers that still pass the seats' names; the engine no
    longer words anything, so it is unused."""
    if isinstance(command, PlayCard):
        return _decide_play(state, command)
    if isinstance(command, PassCards):
        return _decide_pass(state, command)
    if isinstance(command, Claim):
        return _decide_claim(state, command)
    if isinstance(command, Bid):
        return _decide_bid(state, command)
    if isinstance(command, NameSuit):
        return _decide_name_suit(state, command)
    if isinstance(command, VoteEnd):
        return _decide_vote_end(state, command)
    return _decide_moon(state, command)


# --- play --------------------------------------------------------------------------------

def _decide_play(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    seat, card = command.seat, command.card
    kept: object = state._table  # the table `state` was frozen from: the same phase, turn, hands
    if (type(kept) is Table and kept.phase is _PLAY and seat == kept.turn
            and kept.asked_legal_mask(seat) >> card.index & 1):
        return (_checked_play(kept, seat, card),)  # most plays: legal, a standard game
    if state.phase is not PLAY:
        _require_phase(state, seat, PLAY)
    if seat != state.turn:
        raise NotYourTurn("not_your_turn_play", waiting=state.turn)
    table = reader(state)
    if state.rules.variant is Variant.CANCELLATION:  # two decks: "QS" means a QS you hold,
        card = held_copy(table.hands[seat], card)      # whichever deck it came from
    bit = 1 << card.index
    if not table.hands[seat] & bit:
        raise IllegalMove("not_held", cards=(card,), hand=state.hand(seat))
    legal = table.legal_mask(seat)
    if not legal & bit:
        code, data = _why_illegal(table, seat, card, legal)
        raise IllegalMove(code, card=card, legal=cards_of(legal), **data)
    return (_checked_play(table, seat, card),)


def _checked_play(table: Table, seat: int, card: Card) -> CardPlayed:
    """The event of a play just checked against the state `table` is kept by (`reader`), which
    remembers it for `apply` (`Table.decided`)."""
    event = CardPlayed(seat, card)
    table.decided = event
    return event


def held_copy(hand: int, card: Card) -> Card:
    """With two decks: the named card if held, else its twin if held (else the card itself)."""
    if hand & card.bit or not hand & card.twin.bit:
        return card
    return card.twin


Reason = tuple[str, dict[str, Any]]


def _why_illegal(table: Table, seat: int, card: Card, legal: int) -> Reason:
    """The code (and its data) an illegal play gets: the first rule it breaks, in the order a
    player checks them (the suit, the opening lead, the queen, the points)."""
    first = not table.tricks
    if table.rules.variant is Variant.AUCTION:
        return _why_illegal_auction(table, card, legal, first)
    return (_why_not_this_suit(table, seat, card, legal, first)
            or _why_not_now(table, card, legal, first)
            or ("cannot_play_now", {}))


def _why_not_this_suit(table: Table, seat: int, card: Card, legal: int,
                       first: bool) -> Reason | None:
    """Following suit, or the first trick's opening lead; None if neither is the reason."""
    hand, rules = table.hands[seat], table.rules
    if table.trick:
        led = Suit(table.trick[0][1] % 52 // 13)
        follow = hand & FOLLOW_MASKS[led]
        if follow and card.suit is not led:
            return "must_follow_suit", {"led": led, "held": cards_of(follow)}
    elif first and rules.opening_lead is OpeningLead.LOWEST_CLUB and legal.bit_count() == 1:
        return "opening_lead_card", {"opening": cards_of(legal)[0]}
    elif first and rules.opening_lead is OpeningLead.ANY_CLUB and not legal & ~SUIT_MASKS[0]:
        return "opening_lead_club", {}
    return None


def _why_not_now(table: Table, card: Card, legal: int, first: bool) -> Reason | None:
    """The queen that must go now, the points that must wait; None if neither is the reason."""
    rules = table.rules
    if legal == QS_BIT and rules.forced_queen:
        return "forced_queen", {}
    if legal == QS_BIT and rules.forced_queen_discard:
        return "forced_queen_discard", {}
    if first and not rules.points_on_first_trick and card.bit & table.penalty:
        return "no_points_first_trick", {}
    if not table.trick and card.bit & ALL_HEARTS and not table.hearts_broken:
        if legal == QS_BIT:
            return "hearts_not_broken_lead_queen", {}
        return "hearts_not_broken", {}
    return None


def _why_illegal_auction(table: Table, card: Card, legal: int, first: bool) -> Reason:
    suit = Suit(table.penalty.bit_length() // 13 - 1) if table.penalty else card.suit
    if table.trick:
        led = Suit(table.trick[0][1] // 13)
        follow = table.hands[table.turn] & SUIT_MASKS[led]
        if follow and card.suit is not led:
            return "must_follow_suit", {"led": led, "held": cards_of(follow)}
    if first and not table.rules.points_on_first_trick and card.bit & table.penalty:
        return "no_points_first_trick_avoid", {"suit": suit}
    if not table.trick and card.bit & table.penalty and not table.hearts_broken:
        return "avoid_not_broken", {"suit": suit}
    return "cannot_play_now", {}


def _require_phase(state: GameState, seat: int, phase: Phase) -> None:
    if state.phase is phase:
        return
    if state.phase is PASS:
        if state.has_passed(seat):
            raise WrongPhase("passed_waiting", waiting=state.to_move)
        raise WrongPhase("pass_first", count=state.rules.pass_count,
                         to=state.pass_target(seat))
    raise _phase_error(state)


def phase_facts(state: GameState) -> Reason:
    """What the game is at, for a seat that has nothing to decide now (or chose wrongly): a
    code and its data (pbem.present.refusals.phase_words words it)."""
    if state.phase is PASS:
        return "waiting_pass", {"waiting": state.to_move}
    if state.phase is PLAY:
        return "waiting_play", {"waiting": state.turn}
    error = _phase_error(state)
    return error.code, error.data


def _phase_error(state: GameState) -> WrongPhase:
    if state.phase is GAME_OVER:
        return WrongPhase("game_over")
    if state.phase is MOON_CHOICE:
        return WrongPhase("waiting_moon", waiting=state.moon_shooter)
    if state.phase is DEAL:
        return WrongPhase("not_dealt")
    if state.phase is BID:
        return WrongPhase("waiting_bid", waiting=state.turn)
    if state.phase is NAME_SUIT:
        return WrongPhase("waiting_name_suit", waiting=state.bidder)
    if state.phase is DRAW:
        return WrongPhase("waiting_draw", waiting=state.turn)
    if state.phase is PLAY:
        return WrongPhase("bidding_over_play")
    return WrongPhase("passing_over")


# --- pass --------------------------------------------------------------------------------

def _decide_pass(state: GameState, command: PassCards) -> tuple[Event, ...]:
    seat, cards = command.seat, command.cards
    kept: object = state._table  # the table `state` was frozen from: the same phase, passes, hands
    if type(kept) is Table and kept.phase is PASS and 0 <= seat < kept.seats:
        mask = mask_of(cards)  # interned cards: a card named twice sets a bit once
        if (kept.passed[seat] < 0 and mask.bit_count() == len(cards) == kept.rules.pass_count
                and not mask & ~kept.hands[seat]):
            return (CardsPassed(seat, sort_cards(cards)),)  # most passes: a legal one
    rules = state.rules
    if state.phase is not PASS:
        if rules.pass_count == 0:
            raise WrongPhase("no_passing", variant=rules.variant.value)
        if state.phase is PLAY and not state.pass_offset:
            raise WrongPhase("hold_hand")
        raise _phase_error(state)
    if state.has_passed(seat):
        raise IllegalMove("already_passed", cards=state.passed_cards(seat),
                          to=state.pass_target(seat))
    if len(set(cards)) != len(cards):
        doubles = tuple(sorted({c for c in cards if cards.count(c) > 1}))
        raise IllegalMove("named_twice", cards=doubles)
    if len(cards) != rules.pass_count:
        raise IllegalMove("pass_count", count=rules.pass_count, cards=tuple(cards))
    if mask_of(cards) & ~state.hands[seat]:
        missing = tuple(c for c in cards if not state.hands[seat] & c.bit)
        raise IllegalMove("not_held", cards=missing, hand=state.hand(seat))
    return (CardsPassed(seat, sort_cards(cards)),)


# --- claim and moon ----------------------------------------------------------------------

def _decide_claim(state: GameState, command: Claim) -> tuple[Event, ...]:
    if state.rules.variant in NO_CLAIMS:
        raise IllegalMove("no_claims", variant=state.rules.variant.value)
    if state.phase is not PLAY:
        raise WrongPhase("claim_not_now")
    holds = claim_holds(state, command.seat)
    if holds is None:
        raise IllegalMove("claim_too_early")
    if not holds and state.rules.claim_penalty:
        return (ClaimFailed(command.seat),)  # seed 003 §6: the claim stands, and costs
    if not holds:
        raise IllegalMove("claim_refused")
    return (ClaimAccepted(command.seat),)


def _decide_moon(state: GameState, command: ChooseMoon) -> tuple[Event, ...]:
    if state.phase is not MOON_CHOICE:
        raise WrongPhase("no_moon_shot")
    if command.seat != state.moon_shooter:
        raise NotYourTurn("not_moon_shooter")
    return (MoonChosen(command.seat, command.down),)


# --- ending the game by agreement (seed 003) --------------------------------------------

def _decide_vote_end(state: GameState, command: VoteEnd) -> tuple[Event, ...]:
    if not 0 <= command.seat < state.seats:
        raise NotYourTurn("no_such_seat", seat=command.seat)
    if state.game_over:
        raise WrongPhase("game_over")
    voters = state.end_voters
    if not command.agree and not voters:
        raise IllegalMove("no_vote_open")
    if command.agree and command.seat in voters:
        waiting = tuple(s for s in range(state.seats) if s not in voters)
        raise IllegalMove("already_voted_end", waiting=waiting)
    return (EndVoted(command.seat, command.agree),)


# --- Auction: bids and the named suit ---------------------------------------------------

def _decide_bid(state: GameState, command: Bid) -> tuple[Event, ...]:
    seat, chips = command.seat, command.chips
    if state.rules.variant is not Variant.AUCTION:
        raise WrongPhase("no_bidding")
    if state.phase is not BID:
        if state.phase is NAME_SUIT and not any(b >= 0 for b in state.bids):
            raise WrongPhase("pot_carried_over", bidder=state.bidder)
        if state.phase in (NAME_SUIT, PLAY):
            raise WrongPhase("bidding_over")
        raise _phase_error(state)
    if seat != state.turn:
        if 0 <= seat < state.seats and state.bids[seat] >= 0:
            raise NotYourTurn("already_bid")
        raise NotYourTurn("not_your_turn_bid", waiting=state.turn)
    high = max(0, *state.bids)
    if chips is not None and chips < 1:
        raise IllegalMove("bid_not_positive")
    if chips is not None and chips <= high:
        raise IllegalMove("bid_too_low", leader=state.bids.index(high), high=high)
    return (BidMade(seat, chips),)


def _decide_name_suit(state: GameState, command: NameSuit) -> tuple[Event, ...]:
    if state.rules.variant is not Variant.AUCTION:
        raise WrongPhase("no_suit_to_name")
    if state.phase is not NAME_SUIT:
        if state.phase is PLAY and state.named_suit is not None:
            raise WrongPhase("suit_already_named", suit=state.named_suit)
        raise _phase_error(state)
    if command.seat != state.bidder:
        raise NotYourTurn("not_bidder", bidder=state.bidder)
    return (SuitNamed(command.seat, command.suit),)


def drawn_cards(state: GameState, event: CardsDrawn) -> tuple[Card, ...]:
    """Domino: the cards a CardsDrawn event takes from the top of `state`'s stock (the state
    before the event), for telling the player what they drew."""
    return tuple(Card.from_index(i) for i in state.stock[:event.count])


def forced_events(state: GameState) -> tuple[Event, ...]:
    """Plays that finish the hand when every remaining move is forced; empty otherwise.
    Domino: the draw of a player who can't follow suit."""
    if state.phase is DRAW:
        table = reader(state)
        assert isinstance(table, DominoTable)
        return (CardsDrawn(state.turn, table.needed_draws()),)
    plays = forced_rest(state)
    if not plays:
        return ()
    return tuple(CardPlayed(seat, Card.from_index(index)) for seat, index in plays)
