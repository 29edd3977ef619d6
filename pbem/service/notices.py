"""What the service says happened, for whoever tells the people concerned: typed notices.

A command that makes something worth telling (a game moved on, an invitation went out, a seat
timed out...) hands a notice to the `Notifier` of its `Context` (`ctx.notifier.notify(session,
notice)`), inside its own transaction: whatever the notifier writes (the mail layer's outbox
rows, pbem.mail.notifier) commits or rolls back with the command. The service says *what*
happened, in data; the notifier decides who hears of it and in which words. A second channel
is a second `Notifier`, not edits across the mail code.

`GameMoved` is a command's events (the job of its emails, pbem.store.mailjobs), handed over
when the context says to work them out at once (`Context.mail_now`); else the job waits for the
worker, which works it out through the same mail routing. `game_notices` says, for such a
change, what happened at the table: who is asked what, which tricks and hands ended, the
game's start and end.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from sqlmodel import Session

from pbem.engine import (
    Ask,
    EndVoted,
    Event,
    GameCreated,
    GameState,
    Phase,
    Rules,
    apply,
    asked,
    start,
)
from pbem.roster import Roster
from pbem.store.mailjobs import Job, Rebuilt
from pbem.store.models import Game, Player

# --- what a command says happened --------------------------------------------------------


@dataclass(frozen=True)
class GameMoved:
    """A command appended `rebuilt.events` to `game` (its job: who acted, the echo, the next
    deadline). The table's news in it: `game_notices(rebuilt.before, rebuilt.after, ...)`."""

    job: Job
    game: Game
    rebuilt: Rebuilt
    roster: Roster | None = None  # the game's, when the command had it loaded


@dataclass(frozen=True)
class SigninRequested:
    """Someone asked for a sign-in link to `address` (`player`: its player, None if nobody
    played from it yet), valid for `ttl`, leading back to `next_path`."""

    player: Player | None
    address: str
    ttl: timedelta
    now: datetime
    next_path: str | None = None


@dataclass(frozen=True)
class InvitationsSent:
    """The people of `seats` are invited to `game` (`organiser`: the organiser alone, asked
    to confirm the game they set up first)."""

    game: Game
    seats: tuple[int, ...]
    rules: Rules
    now: datetime
    organiser: bool = False


@dataclass(frozen=True)
class InvitationDeclined:
    """`seat` declined its invitation; `unaware`: seats not invited yet (not told)."""

    game: Game
    seat: int
    now: datetime
    unaware: tuple[int, ...] = ()


@dataclass(frozen=True)
class InvitationsClosed:
    """The organiser started without them: `invited` (seat -> player id) had not answered."""

    game: Game
    invited: Mapping[int, int]
    now: datetime


@dataclass(frozen=True)
class InvitationReminderDue:
    """`seat`'s person has not answered their invitation: their one reminder."""

    game: Game
    seat: int
    now: datetime


@dataclass(frozen=True)
class InvitationsUnanswered:
    """The organiser (in `seat`) should hear who still has not answered (`waiting`)."""

    game: Game
    seat: int
    waiting: tuple[int, ...]
    now: datetime


@dataclass(frozen=True)
class TurnsAskedAgain:
    """A paused game goes on: everyone it waits for is asked afresh (new `deadline`)."""

    game: Game
    state: GameState
    now: datetime
    deadline: datetime | None = None


@dataclass(frozen=True)
class Nudged:
    """`from_seat` nudges `seat`, whom the game waits for (`waiting_for`, until `deadline`)."""

    game: Game
    seat: int
    from_seat: int
    waiting_for: str
    deadline: datetime | None
    now: datetime


@dataclass(frozen=True)
class TimedOut:
    """`seat` ran out of time: `outcome` "bot" (the robot moved: `event`), "away" (the player
    is away, the robot covers), "pause" (the game is paused), "open_seat" (the robot moved and
    the seat is open to anyone: the others get a link to take it). `holding`: the robot keeps
    the seat from now on."""

    game: Game
    seat: int
    outcome: str
    event: Event | None
    holding: bool
    now: datetime


@dataclass(frozen=True)
class PlayerLeft:
    """The player of `seat` left `game` (told while the seat still bears their name)."""

    game: Game
    seat: int
    now: datetime


@dataclass(frozen=True)
class SeatTakenOver:
    """Someone else (or a robot) now plays `seat`, which `player_id` had (`held`: a robot was
    keeping it for them)."""

    game: Game
    seat: int
    player_id: int
    held: bool
    now: datetime


Notice = (GameMoved | SigninRequested | InvitationsSent | InvitationDeclined
          | InvitationsClosed | InvitationReminderDue | InvitationsUnanswered | TurnsAskedAgain
          | Nudged | TimedOut | PlayerLeft | SeatTakenOver)
NOTICES: tuple[type, ...] = (
    GameMoved, SigninRequested, InvitationsSent, InvitationDeclined, InvitationsClosed,
    InvitationReminderDue, InvitationsUnanswered, TurnsAskedAgain, Nudged, TimedOut,
    PlayerLeft, SeatTakenOver)


class Notifier(Protocol):
    """Tells people what a notice says, inside the command's transaction (`session`). True
    when somebody was told (the service counts nudges and reminders by it)."""

    def notify(self, session: Session, notice: Notice) -> bool: ...


class NullNotifier:
    """Tells nobody (a context without a channel: scripts, a test of the service alone)."""

    def notify(self, session: Session, notice: Notice) -> bool:
        return False


class RecordingNotifier:
    """Keeps every notice, then hands it on to `then` (if any): a listener for tests."""

    def __init__(self, then: Notifier | None = None) -> None:
        self.notices: list[Notice] = []
        self.then = then

    def notify(self, session: Session, notice: Notice) -> bool:
        self.notices.append(notice)
        return self.then.notify(session, notice) if self.then is not None else True


# --- what happened at the table -----------------------------------------------------------


@dataclass(frozen=True)
class GameStarted:
    state: GameState  # the first hand dealt


@dataclass(frozen=True)
class TurnAsked:
    """`seat` is asked `kind` (play a card, pass, bid, name a suit, choose the moon)."""

    seat: int
    kind: Ask
    state: GameState


@dataclass(frozen=True)
class TrickOver:
    number: int  # the trick's number in its hand
    last: bool  # the hand's last trick
    state: GameState  # after it


@dataclass(frozen=True)
class HandOver:
    before: GameState  # the hand's last state before its end
    after: GameState
    event: Event  # the event that ended it


@dataclass(frozen=True)
class GameOver:
    state: GameState


TableNotice = GameStarted | TurnAsked | TrickOver | HandOver | GameOver

# The asks repeated after every move; the pass and the moon choice are asked when they begin.
_ASKED_AGAIN = frozenset({Ask.PLAY, Ask.BID, Ask.NAME_SUIT})


def game_notices(before: GameState | None, after: GameState, events: Sequence[Event],
                 moved_on: frozenset[int] = frozenset()) -> list[TableNotice]:
    """What `events` (from `before`, None for a new game, to `after`) did at the table:
    the tricks and hands they ended, the game's start or end, and who is asked what now
    (not the seats in `moved_on`, which have acted since). Nobody is asked again when the
    events are only votes (the questions asked stand as they were)."""
    out: list[TableNotice] = []
    for prev, now, event in fold(before, events):
        ended = len(now.sheet) > len(prev.sheet)
        if len(now.tricks) > len(prev.tricks) and prev.hand_number == now.hand_number:
            out.append(TrickOver(len(now.tricks), ended, now))
        if ended:
            out.append(HandOver(prev, now, event))
    if game_started(before, after):
        out.append(GameStarted(after))
    if after.game_over:
        out.append(GameOver(after))
    elif not only_votes(events):
        out += turns_asked(before, after, moved_on)
    return out


def turns_asked(before: GameState | None, after: GameState,
                moved_on: frozenset[int] = frozenset()) -> list[TurnAsked]:
    """Who is asked what after `before` -> `after` (`before` None: whoever is waited for)."""
    out = []
    for seat in after.to_move:
        if seat in moved_on:  # the game went past this question before it was told
            continue
        kind = asked(after, seat).kind
        if kind in _ASKED_AGAIN or (kind is Ask.PASS and _began(before, after, Phase.PASS)) \
                or (kind is Ask.MOON and _began(before, after, Phase.MOON_CHOICE)):
            out.append(TurnAsked(seat, kind, after))
    return out


def only_votes(events: Sequence[Event]) -> bool:
    """Nobody moved: the events are votes to end the game (or none)."""
    return all(isinstance(e, EndVoted) for e in events)


def game_started(before: GameState | None, after: GameState) -> bool:
    fresh = before is None or (before.phase is Phase.DEAL and before.hand_number == 1
                               and not before.sheet)
    return fresh and after.phase is not Phase.DEAL


def _began(before: GameState | None, after: GameState, phase: Phase) -> bool:
    return (before is None or before.phase is not phase
            or before.hand_number != after.hand_number)


def fold(before: GameState | None,
         events: Iterable[Event]) -> Iterable[tuple[GameState, GameState, Event]]:
    """Each event with the states around it (a new game's GameCreated starts the fold)."""
    state = before
    for event in events:
        if state is None:
            if isinstance(event, GameCreated):
                state = start(event)
            continue
        after = apply(state, event)
        yield state, after, event
        state = after
