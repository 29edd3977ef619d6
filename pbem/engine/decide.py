"""Commands and the decision function: a command in, new events out, or an error to email back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine.cards import (
    HEARTS_MASK,
    SUIT_MASKS,
    Card,
    Suit,
    cards_of,
    list_in_words,
    sort_cards,
)
from pbem.engine.claims import claim_holds, forced_rest
from pbem.engine.errors import IllegalMove, NotYourTurn, WrongPhase
from pbem.engine.events import CardPlayed, CardsPassed, ClaimAccepted, Event, MoonChosen
from pbem.engine.rules import OpeningLead, describe_offset
from pbem.engine.scoring import QS_BIT
from pbem.engine.state import GameState, Phase
from pbem.engine.table import Table


@dataclass(frozen=True, slots=True)
class PassCards:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Claim:
    seat: int


@dataclass(frozen=True, slots=True)
class ChooseMoon:
    seat: int
    down: bool


Command = PassCards | PlayCard | Claim | ChooseMoon


def decide(state: GameState, command: Command, names: Sequence[str] = ()) -> tuple[Event, ...]:
    """The events a command produces, or an EngineError whose message can be mailed as it is.

    `names` are the seats' display names, used only to word the messages."""
    speaker = _Namer(names)
    if isinstance(command, PlayCard):
        return _decide_play(state, command, speaker)
    if isinstance(command, PassCards):
        return _decide_pass(state, command, speaker)
    if isinstance(command, Claim):
        return _decide_claim(state, command)
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

def _decide_play(state: GameState, command: PlayCard, name: _Namer) -> tuple[Event, ...]:
    seat, card = command.seat, command.card
    _require_phase(state, seat, Phase.PLAY, name)
    if seat != state.turn:
        raise NotYourTurn(f"It's not your turn: we're waiting for {name(state.turn)} to play.")
    table = Table.thaw(state)
    if not table.hands[seat] & card.bit:
        raise IllegalMove(f"You don't hold {card}. Your hand: {_cards_text(state.hand(seat))}.")
    legal = table.legal_mask(seat)
    if not legal & card.bit:
        reason = _why_illegal(table, seat, card, legal)
        raise IllegalMove(f"{reason} You can play {_cards_text(cards_of(legal))}.")
    return (CardPlayed(seat, card),)


def _why_illegal(table: Table, seat: int, card: Card, legal: int) -> str:
    hand, rules = table.hands[seat], table.rules
    first = not table.tricks
    if table.trick:
        led = Suit(table.trick[0][1] // 13)
        follow = hand & SUIT_MASKS[led]
        if follow and card.suit is not led:
            return (f"You must follow suit: {led.plural} were led and you hold "
                    f"{_cards_text(cards_of(follow))}.")
    elif first and rules.opening_lead is OpeningLead.LOWEST_CLUB and legal.bit_count() == 1:
        return f"The first trick opens with {cards_of(legal)[0]}."
    elif first and rules.opening_lead is OpeningLead.ANY_CLUB and not legal & ~SUIT_MASKS[0]:
        return "The first trick opens with a club."
    if legal == QS_BIT and rules.forced_queen:
        return ("The forced-queen rule applies: the queen of spades can't win this trick, "
                "so you must play it now.")
    if first and not rules.points_on_first_trick and card.bit & table.penalty:
        return "No points on the first trick: hearts and the queen of spades must wait."
    if not table.trick and card.bit & HEARTS_MASK and not table.hearts_broken:
        if legal == QS_BIT:
            return ("Hearts aren't broken and you hold only hearts and the queen of spades, "
                    "so you must lead the queen.")
        return "Hearts haven't been broken yet, so you can't lead a heart."
    return f"{card} can't be played now."


def _require_phase(state: GameState, seat: int, phase: Phase, name: _Namer) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.PASS:
        if state.has_passed(seat):
            raise WrongPhase("You've passed your cards; we're waiting for "
                             f"{name.waiting(state.to_move)} to pass.")
        raise WrongPhase(f"First pass {state.rules.pass_count} cards to "
                         f"{name(state.pass_target(seat))}, e.g. “pass 2C 3D AH”.")
    raise WrongPhase(_phase_sentence(state, name))


def _phase_sentence(state: GameState, name: _Namer) -> str:
    if state.phase is Phase.GAME_OVER:
        return "This game is over."
    if state.phase is Phase.MOON_CHOICE:
        return f"We're waiting for {name(state.moon_shooter)} to choose how to score the moon."
    if state.phase is Phase.DEAL:
        return "The next hand hasn't been dealt yet."
    return "Passing is over for this hand: it's time to play."


# --- pass --------------------------------------------------------------------------------

def _decide_pass(state: GameState, command: PassCards, name: _Namer) -> tuple[Event, ...]:
    seat, cards, rules = command.seat, command.cards, state.rules
    if state.phase is not Phase.PASS:
        if state.phase is Phase.PLAY and not state.pass_offset:
            raise WrongPhase("There's no pass this hand (a hold hand): play your cards.")
        raise WrongPhase(_phase_sentence(state, name))
    if state.has_passed(seat):
        raise IllegalMove(f"You already passed {_cards_text(state.passed_cards(seat))} "
                          f"to {name(state.pass_target(seat))}.")
    doubles = sorted({c for c in cards if cards.count(c) > 1})
    if doubles:
        raise IllegalMove(f"You named {_cards_text(doubles)} more than once.")
    if len(cards) != rules.pass_count:
        named = f": {_cards_text(cards)}" if cards else ""
        raise IllegalMove(f"Pass exactly {_count_word(rules.pass_count)} cards; you named "
                          f"{len(cards)}{named}.")
    missing = [c for c in cards if not state.hands[seat] & c.bit]
    if missing:
        raise IllegalMove(f"You don't hold {_cards_text(missing)}. Your hand: "
                          f"{_cards_text(state.hand(seat))}.")
    return (CardsPassed(seat, sort_cards(cards)),)


def _count_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


def pass_direction_words(state: GameState) -> str:
    return describe_offset(state.pass_offset, state.seats)


# --- claim and moon ----------------------------------------------------------------------

def _decide_claim(state: GameState, command: Claim) -> tuple[Event, ...]:
    if state.phase is not Phase.PLAY:
        raise WrongPhase("You can only claim the rest of the tricks during play.")
    holds = claim_holds(state, command.seat)
    if holds is None:
        raise IllegalMove("Your claim can't be checked quickly this early in the hand; "
                          "please play on and claim again later.")
    if not holds:
        raise IllegalMove("Your claim was refused: another player could still win a trick "
                          "against your cards, so play goes on.")
    return (ClaimAccepted(command.seat),)


def _decide_moon(state: GameState, command: ChooseMoon) -> tuple[Event, ...]:
    if state.phase is not Phase.MOON_CHOICE:
        raise WrongPhase("There's no moon shot to score right now.")
    if command.seat != state.moon_shooter:
        raise NotYourTurn("Only the player who shot the moon chooses how it scores.")
    return (MoonChosen(command.seat, command.down),)


def forced_events(state: GameState) -> tuple[Event, ...]:
    """Plays that finish the hand when every remaining move is forced; empty otherwise."""
    plays = forced_rest(state)
    if not plays:
        return ()
    return tuple(CardPlayed(seat, Card.from_index(index)) for seat, index in plays)
