"""Commands and the decision function: a command in, new events out, or an error to email back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pbem.engine.cards import (
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
    list_in_words,
    mask_of,
    sort_cards,
)
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
from pbem.engine.rules import OpeningLead, Variant, describe_offset
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
    """The events a command produces, or an EngineError whose message can be mailed as it is.

    `names` are the seats' display names, used only to word the messages."""
    if isinstance(command, PlayCard):  # most commands: names are only needed for an error
        return _decide_play(state, command, names)
    speaker = _Namer(names)
    if isinstance(command, PassCards):
        return _decide_pass(state, command, speaker)
    if isinstance(command, Claim):
        return _decide_claim(state, command)
    if isinstance(command, Bid):
        return _decide_bid(state, command, speaker)
    if isinstance(command, NameSuit):
        return _decide_name_suit(state, command, speaker)
    if isinstance(command, VoteEnd):
        return _decide_vote_end(state, command, speaker)
    return _decide_moon(state, command)


class _Namer:
    def __init__(self, names: Sequence[str]) -> None:
        self.names = names

    def __call__(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"

    def waiting(self, seats: Sequence[int]) -> str:
        return list_in_words([self(s) for s in seats])


def _cards_text(cards: Sequence[Card]) -> str:
    return list_in_words([str(c) for c in cards])


# --- play --------------------------------------------------------------------------------

def _decide_play(state: GameState, command: PlayCard,
                 names: Sequence[str]) -> tuple[Event, ...]:
    seat, card = command.seat, command.card
    kept = state._table
    if (type(kept) is Table and state.phase is _PLAY and seat == state.turn
            and kept._legal(kept.hands[seat]) >> card.index & 1):
        return (_checked_play(kept, seat, card),)  # most plays: legal, a standard game
    if state.phase is not PLAY:
        _require_phase(state, seat, PLAY, _Namer(names))
    if seat != state.turn:
        raise NotYourTurn(f"It's not your turn: we're waiting for {_Namer(names)(state.turn)} "
                          "to play.")
    table = reader(state)
    if state.rules.variant is Variant.CANCELLATION:  # two decks: "QS" means a QS you hold,
        card = held_copy(table.hands[seat], card)      # whichever deck it came from
    bit = 1 << card.index
    if not table.hands[seat] & bit:
        raise IllegalMove(f"You don't hold {card}. Your hand: {_cards_text(state.hand(seat))}.")
    legal = table.legal_mask(seat)
    if not legal & bit:
        reason = _why_illegal(table, seat, card, legal)
        raise IllegalMove(f"{reason} You can play {_cards_text(cards_of(legal))}.")
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


def _why_illegal(table: Table, seat: int, card: Card, legal: int) -> str:
    """The sentence an illegal play gets: the first rule it breaks, in the order a player
    checks them (the suit, the opening lead, the queen, the points)."""
    first = not table.tricks
    if table.rules.variant is Variant.AUCTION:
        return _why_illegal_auction(table, card, legal, first)
    return (_why_not_this_suit(table, seat, card, legal, first)
            or _why_not_now(table, card, legal, first)
            or f"{card} can't be played now.")


def _why_not_this_suit(table: Table, seat: int, card: Card, legal: int,
                       first: bool) -> str | None:
    """Following suit, or the first trick's opening lead; None if neither is the reason."""
    hand, rules = table.hands[seat], table.rules
    if table.trick:
        led = Suit(table.trick[0][1] % 52 // 13)
        follow = hand & FOLLOW_MASKS[led]
        if follow and card.suit is not led:
            return (f"You must follow suit: {led.plural} were led and you hold "
                    f"{_cards_text(cards_of(follow))}.")
    elif first and rules.opening_lead is OpeningLead.LOWEST_CLUB and legal.bit_count() == 1:
        return f"The first trick opens with {cards_of(legal)[0]}."
    elif first and rules.opening_lead is OpeningLead.ANY_CLUB and not legal & ~SUIT_MASKS[0]:
        return "The first trick opens with a club."
    return None


def _why_not_now(table: Table, card: Card, legal: int, first: bool) -> str | None:
    """The queen that must go now, the points that must wait; None if neither is the reason."""
    rules = table.rules
    if legal == QS_BIT and rules.forced_queen:
        return ("The forced-queen rule applies: the queen of spades can't win this trick, "
                "so you must play it now.")
    if legal == QS_BIT and rules.forced_queen_discard:
        return ("The forced-queen rule applies: you can't follow suit, so you must discard "
                "the queen of spades now.")
    if first and not rules.points_on_first_trick and card.bit & table.penalty:
        return "No points on the first trick: hearts and the queen of spades must wait."
    if not table.trick and card.bit & ALL_HEARTS and not table.hearts_broken:
        if legal == QS_BIT:
            return ("Hearts aren't broken and you hold only hearts and the queen of spades, "
                    "so you must lead the queen.")
        return "Hearts haven't been broken yet, so you can't lead a heart."
    return None


def _why_illegal_auction(table: Table, card: Card, legal: int, first: bool) -> str:
    suit = Suit(table.penalty.bit_length() // 13 - 1) if table.penalty else card.suit
    if table.trick:
        led = Suit(table.trick[0][1] // 13)
        follow = table.hands[table.turn] & SUIT_MASKS[led]
        if follow and card.suit is not led:
            return (f"You must follow suit: {led.plural} were led and you hold "
                    f"{_cards_text(cards_of(follow))}.")
    if first and not table.rules.points_on_first_trick and card.bit & table.penalty:
        return f"No points on the first trick: {suit.plural}, the suit to avoid, must wait."
    if not table.trick and card.bit & table.penalty and not table.hearts_broken:
        return (f"{suit.plural.capitalize()}, the suit to avoid, haven't been broken yet, "
                "so you can't lead them.")
    return f"{card} can't be played now."


def _require_phase(state: GameState, seat: int, phase: Phase, name: _Namer) -> None:
    if state.phase is phase:
        return
    if state.phase is PASS:
        if state.has_passed(seat):
            raise WrongPhase("You've passed your cards; we're waiting for "
                             f"{name.waiting(state.to_move)} to pass.")
        raise WrongPhase(f"First pass {state.rules.pass_count} cards to "
                         f"{name(state.pass_target(seat))}, e.g. “pass 2C 3D AH”.")
    raise WrongPhase(_phase_sentence(state, name))


def phase_sentence(state: GameState, names: Sequence[str] = ()) -> str:
    """What the game is at, for a seat that has nothing to decide now (or chose wrongly)."""
    if state.phase is PASS:
        return f"We're waiting for {_Namer(names).waiting(state.to_move)} to pass."
    if state.phase is PLAY:
        return f"We're waiting for {_Namer(names)(state.turn)} to play."
    return _phase_sentence(state, _Namer(names))


def _phase_sentence(state: GameState, name: _Namer) -> str:
    if state.phase is GAME_OVER:
        return "This game is over."
    if state.phase is MOON_CHOICE:
        return f"We're waiting for {name(state.moon_shooter)} to choose how to score the moon."
    if state.phase is DEAL:
        return "The next hand hasn't been dealt yet."
    if state.phase is BID:
        return (f"We're bidding for the suit to avoid: it's {name(state.turn)}'s turn to bid "
                "(a number of chips, or pass).")
    if state.phase is NAME_SUIT:
        return f"We're waiting for {name(state.bidder)} to name the suit to avoid."
    if state.phase is DRAW:
        return (f"{name(state.turn)} can't follow suit and is drawing from the stock; "
                "play goes on after the draw.")
    if state.phase is PLAY:
        return "The bidding is over: it's time to play."
    return "Passing is over for this hand: it's time to play."


# --- pass --------------------------------------------------------------------------------

def _decide_pass(state: GameState, command: PassCards, name: _Namer) -> tuple[Event, ...]:
    seat, cards, rules = command.seat, command.cards, state.rules
    if state.phase is not PASS:
        if rules.pass_count == 0:
            game = "this game" if rules.variant is Variant.STANDARD \
                else f"{rules.variant.value.capitalize()} Hearts"
            raise WrongPhase(f"Nobody passes cards in {game}.")
        if state.phase is PLAY and not state.pass_offset:
            raise WrongPhase("There's no pass this hand (a hold hand): play your cards.")
        raise WrongPhase(_phase_sentence(state, name))
    if state.has_passed(seat):
        raise IllegalMove(f"You already passed {_cards_text(state.passed_cards(seat))} "
                          f"to {name(state.pass_target(seat))}.")
    if len(set(cards)) != len(cards):
        doubles = sorted({c for c in cards if cards.count(c) > 1})
        raise IllegalMove(f"You named {_cards_text(doubles)} more than once.")
    if len(cards) != rules.pass_count:
        named = f": {_cards_text(cards)}" if cards else ""
        raise IllegalMove(f"Pass exactly {_count_word(rules.pass_count)} cards; you named "
                          f"{len(cards)}{named}.")
    if mask_of(cards) & ~state.hands[seat]:
        missing = [c for c in cards if not state.hands[seat] & c.bit]
        raise IllegalMove(f"You don't hold {_cards_text(missing)}. Your hand: "
                          f"{_cards_text(state.hand(seat))}.")
    return (CardsPassed(seat, sort_cards(cards)),)


def _count_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


def pass_direction_words(state: GameState) -> str:
    return describe_offset(state.pass_offset, state.seats)


# --- claim and moon ----------------------------------------------------------------------

def _decide_claim(state: GameState, command: Claim) -> tuple[Event, ...]:
    if state.rules.variant in NO_CLAIMS:
        variant = state.rules.variant.value.capitalize()
        raise IllegalMove(f"Claims aren't part of {variant} Hearts here: please play on.")
    if state.phase is not PLAY:
        raise WrongPhase("You can only claim the rest of the tricks during play.")
    holds = claim_holds(state, command.seat)
    if holds is None:
        raise IllegalMove("Your claim can't be checked quickly this early in the hand; "
                          "please play on and claim again later.")
    if not holds and state.rules.claim_penalty:
        return (ClaimFailed(command.seat),)  # seed 003 §6: the claim stands, and costs
    if not holds:
        raise IllegalMove("Your claim was refused: another player could still win a trick "
                          "against your cards, so play goes on.")
    return (ClaimAccepted(command.seat),)


def _decide_moon(state: GameState, command: ChooseMoon) -> tuple[Event, ...]:
    if state.phase is not MOON_CHOICE:
        raise WrongPhase("There's no moon shot to score right now.")
    if command.seat != state.moon_shooter:
        raise NotYourTurn("Only the player who shot the moon chooses how it scores.")
    return (MoonChosen(command.seat, command.down),)


# --- ending the game by agreement (seed 003) --------------------------------------------

def _decide_vote_end(state: GameState, command: VoteEnd, name: _Namer) -> tuple[Event, ...]:
    if not 0 <= command.seat < state.seats:
        raise NotYourTurn(f"There is no seat {command.seat + 1} at this table.")
    if state.game_over:
        raise WrongPhase("This game is over.")
    voters = state.end_voters
    if not command.agree and not voters:
        raise IllegalMove("No vote to end the game is open: play goes on.")
    if command.agree and command.seat in voters:
        waiting = [s for s in range(state.seats) if s not in voters]
        raise IllegalMove("You have already agreed to end the game; we're waiting for "
                          f"{name.waiting(waiting)} to agree.")
    return (EndVoted(command.seat, command.agree),)


# --- Auction: bids and the named suit ---------------------------------------------------

def _decide_bid(state: GameState, command: Bid, name: _Namer) -> tuple[Event, ...]:
    seat, chips = command.seat, command.chips
    if state.rules.variant is not Variant.AUCTION:
        raise WrongPhase("There's no bidding in this game.")
    if state.phase is not BID:
        if state.phase is NAME_SUIT and not any(b >= 0 for b in state.bids):
            raise WrongPhase(f"There's no bidding this deal: the pot carried over, so "
                             f"{name(state.bidder)} names the suit again.")
        if state.phase in (NAME_SUIT, PLAY):
            raise WrongPhase("The bidding is over for this deal.")
        raise WrongPhase(_phase_sentence(state, name))
    if seat != state.turn:
        if 0 <= seat < state.seats and state.bids[seat] >= 0:
            raise NotYourTurn("You've already bid this deal: everyone bids once.")
        raise NotYourTurn(f"It's not your turn to bid: we're waiting for {name(state.turn)}.")
    high = max(0, *state.bids)
    if chips is not None and chips < 1:
        raise IllegalMove("A bid is a whole number of chips, at least 1; or pass.")
    if chips is not None and chips <= high:
        leader = name(state.bids.index(high))
        chips_word = "chip" if high == 1 else "chips"
        raise IllegalMove(f"{leader} already bid {high}: bid more than {high} {chips_word}, "
                          "or pass.")
    return (BidMade(seat, chips),)


def _decide_name_suit(state: GameState, command: NameSuit, name: _Namer) -> tuple[Event, ...]:
    if state.rules.variant is not Variant.AUCTION:
        raise WrongPhase("Nobody names a suit in this game: hearts are the suit to avoid.")
    if state.phase is not NAME_SUIT:
        if state.phase is PLAY and state.named_suit is not None:
            raise WrongPhase(f"The suit to avoid is already named: {state.named_suit.plural}.")
        raise WrongPhase(_phase_sentence(state, name))
    if command.seat != state.bidder:
        raise NotYourTurn(f"Only {name(state.bidder)}, who won the bidding, names the suit.")
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
