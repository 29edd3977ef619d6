"""What is this seat asked now: the one answer every email, page, reply reader, reminder and
robot takes its choices and words from.

`asked(state, seat)` is a frozen value: the kind of decision, the legal choices, the seat's
turn number, and why a given choice is refused (the engine's error: a code and data). The
words live in pbem.present.refusals (`asked_words`, `explain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from pbem.engine.cards import Card, Suit
from pbem.engine.claims import claims_allowed
from pbem.engine.decide import (
    Bid,
    ChooseMoon,
    Claim,
    Command,
    NameSuit,
    PassCards,
    PlayCard,
    VoteEnd,
    decide,
)
from pbem.engine.describe import awaited_code
from pbem.engine.errors import EngineError
from pbem.engine.events import EndVoted, Event, HandDealt
from pbem.engine.fold import legal_cards
from pbem.engine.state import GameState, Phase
from pbem.engine.table import DECISION_EVENTS


class Ask(StrEnum):
    """The kinds of decision a seat can be asked for. Domino's draw is never asked: the
    engine makes it (`forced_events`), so a drawing seat is asked NOTHING meanwhile."""

    PASS = "pass"
    PLAY = "play"
    BID = "bid"
    NAME_SUIT = "name_suit"
    MOON = "moon"
    NOTHING = "nothing"


_KIND = {Phase.PASS: Ask.PASS, Phase.PLAY: Ask.PLAY, Phase.BID: Ask.BID,
         Phase.NAME_SUIT: Ask.NAME_SUIT, Phase.MOON_CHOICE: Ask.MOON}
# The moon choice's two options, as ChooseMoon's `down`: the shooter down, or the others up.
MOON_OPTIONS: tuple[bool, ...] = (True, False)


def decision_seat(event: Event) -> int | None:
    """The seat whose decision `event` records, moving its turn number on (None for deals,
    draws and the creation)."""
    return event.seat if isinstance(event, DECISION_EVENTS) else None


def moves_turn(event: Event, seat: int) -> bool:
    """Does `event` move `seat`'s turn number on? Its own decisions, and every deal."""
    return isinstance(event, HandDealt) or decision_seat(event) == seat


def turn_before(state: GameState, seat: int, since: Sequence[Event]) -> int:
    """`seat`'s turn number before `since`, the last events folded into `state` (an email or
    link issued then was for that turn)."""
    return state.turns[seat] - sum(1 for event in since if moves_turn(event, seat))


def acting_seat(event: Event) -> int | None:
    """The seat that chose `event`: its decisions, and its votes to end the game (which are
    nobody's turn, so they leave the turn numbers alone)."""
    return event.seat if isinstance(event, EndVoted) else decision_seat(event)


@dataclass(frozen=True, slots=True)
class Asked:
    """One seat's question now. Empty choices unless `kind` asks for them."""

    seat: int
    kind: Ask
    turn: int  # the seat's turns so far: this question is for its turn `turn`
    cards: tuple[Card, ...] = ()  # PLAY: the legal cards; PASS: the hand to pass from
    pass_count: int = 0  # PASS: how many cards
    pass_to: int = -1  # PASS: the seat that receives them
    min_bid: int = 0  # BID: the lowest bid allowed (passing is always allowed)
    suits: tuple[Suit, ...] = ()  # NAME_SUIT: the suits that may be named
    moon_options: tuple[bool, ...] = ()  # MOON: ChooseMoon.down values on offer
    can_claim: bool = False  # PLAY: whether a claim may be made at all (the rules allow it)
    waiting_for: tuple[int, ...] = ()  # the seats the game waits for now (maybe this one)
    # Seed 003's end by agreement, which any seat may vote on whatever it is asked: the seats
    # that agreed to end the game now (empty: no vote open); `may_vote_end` until it is over.
    end_voters: tuple[int, ...] = ()
    may_vote_end: bool = False
    state: GameState | None = field(default=None, repr=False, compare=False)

    @property
    def must_act(self) -> bool:
        return self.kind is not Ask.NOTHING

    @property
    def awaited(self) -> str:
        """What the game waits for from this seat, as a code (reminders, nudges): "card",
        "pass", "bid", "suit_to_avoid", "moon_choice" (pbem.present.refusals.awaited_words)."""
        return awaited_code(self.state.phase) if self.state is not None else "card"

    def why_not(self, command: Command) -> EngineError | None:
        """None when `command` is legal now; else the engine's error saying why not (a code
        and its data: pbem.present.refusals.explain words it)."""
        assert self.state is not None
        try:
            decide(self.state, command)
        except EngineError as exc:
            return exc
        return None

    def allows(self, command: Command) -> bool:
        return self.why_not(command) is None


def asked(state: GameState, seat: int) -> Asked:
    """What `seat` is asked now: the kind of decision, its legal choices, and its turn."""
    turn = state.turns[seat] if seat < len(state.turns) else 0
    waiting = state.to_move
    kind = _KIND.get(state.phase, Ask.NOTHING) if seat in waiting else Ask.NOTHING
    base = Asked(seat, kind, turn, waiting_for=waiting, state=state,
                 end_voters=state.end_voters, may_vote_end=not state.game_over)
    if kind is Ask.PLAY:
        return replace(base, cards=legal_cards(state, seat),
                       can_claim=claims_allowed(state.rules))
    if kind is Ask.PASS:
        return replace(base, cards=state.hand(seat), pass_count=state.rules.pass_count,
                       pass_to=state.pass_target(seat))
    if kind is Ask.BID:
        return replace(base, min_bid=max(0, *state.bids) + 1)
    if kind is Ask.NAME_SUIT:
        return replace(base, suits=tuple(Suit))
    if kind is Ask.MOON:
        return replace(base, moon_options=MOON_OPTIONS)
    return base


def command_kind(command: Command) -> Ask:
    """The kind of question `command` answers (a claim answers a PLAY question)."""
    if isinstance(command, PassCards):
        return Ask.PASS
    if isinstance(command, PlayCard | Claim):
        return Ask.PLAY
    if isinstance(command, Bid):
        return Ask.BID
    if isinstance(command, NameSuit):
        return Ask.NAME_SUIT
    if isinstance(command, VoteEnd):
        return Ask.NOTHING  # a vote answers no question: any seat may vote at any time
    assert isinstance(command, ChooseMoon)
    return Ask.MOON
