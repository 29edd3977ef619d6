"""Routing after a move: which emails the new events call for, and to whom.

The service layer calls `notify(...)` after appending events (same transaction), and, through
its mail hooks, `resend_turns`, `send_invites`, `send_declined`, `send_invite_closed`,
`send_invite_reminder` and `send_invites_unanswered` from here; the emails themselves are
built in pbem.mail.asks (asking a move), pbem.mail.results (what happened), pbem.mail.invites,
pbem.mail.digest and pbem.mail.errors, and queued by pbem.mail.sending.
A draw from the stock is named only in the drawer's email; the others learn how many cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from pbem.engine import (
    Ask,
    Card,
    CardsDrawn,
    Event,
    GameCreated,
    GameState,
    Phase,
    apply,
    asked,
    drawn_cards,
    start,
)
from pbem.mail.asks import ask, ask_bid, ask_moon, ask_name_suit, ask_pass, ask_turn
from pbem.mail.compose import MailSettings
from pbem.mail.gamemail import GameMail
from pbem.mail.invites import (
    send_declined,
    send_invite_closed,
    send_invite_reminder,
    send_invites,
    send_invites_unanswered,
)
from pbem.mail.render import Renderer
from pbem.mail.results import (
    HandEnd,
    confirmation,
    echo_words,
    game_started_mail,
    hand_mail,
    summary_mail,
    trick_mail,
)
from pbem.mail.votes import only_votes, vote_mails
from pbem.roster import Roster
from pbem.store.models import Game, OutboxEmail


def notify(
    session: Session,
    game: Game,
    state_before: GameState | None,
    state_after: GameState,
    events: Sequence[Event],
    *,
    actor: int | None = None,
    echo: bool = False,
    deadline: datetime | None = None,
    settings: MailSettings | None = None,
    now: datetime | None = None,
    renderer: Renderer | None = None,
    roster: Roster | None = None,
    moved_on: frozenset[int] = frozenset(),
    carried: dict[int, str] | None = None,
    confirm: bool = True,
) -> list[OutboxEmail]:
    """Queue every email the new `events` call for (`roster`: the game's, if the caller has
    it loaded already; `moved_on`: seats that have acted since, when the emails are worked
    out late (pbem.mail.jobs): they are not asked again). Call after appending them and moving
    `game.last_seq` (it is the turn_seq of the new tokens). `actor`: the seat whose command
    made the events; by default the seat of the first play or pass. `echo`: the command came
    by email, so the actor's move is said in the first email they get from here (a short
    confirmation if none); a move made on a page gets no email for itself.

    `carried`: the echoes of the game's earlier jobs, worked out with this one, that no
    email said yet (pbem.mail.jobs): said in this job's emails, before its own. `confirm`
    False (a later job of the game follows in the same batch): an echo no email said is put
    back in `carried` for it, where it goes with the player's next email (the robots'
    moves bring them their turn), or in a confirmation that says what the game waits for
    then, instead of one sent now and out of date a second later."""
    unsaid = dict(carried or {})
    if carried is not None:
        carried.clear()
    if not events and not unsaid:
        return []
    mail = GameMail.load(session, game, settings, now, renderer, roster)
    mail.echo = _joined(unsaid, echo_words(state_after, events, actor, state_before)
                        if echo else {})
    rows: list[OutboxEmail | None] = []
    if events:
        rows += _emails(mail, state_before, state_after, events, deadline, moved_on)
    if confirm or carried is None:
        rows += confirmation(mail, state_after)  # only if no email above carried the echo
    else:
        carried.update(mail.echo)  # for the next job's emails
    return [row for row in rows if row is not None]


def _joined(first: dict[int, str], then: dict[int, str]) -> dict[int, str]:
    """Two jobs' echoes, by seat: a seat in both gets the earlier's words, then the later's."""
    return {seat: " ".join(said for said in (first.get(seat), then.get(seat)) if said)
            for seat in first | then}


def _emails(mail: GameMail, state_before: GameState | None, state_after: GameState,
            events: Sequence[Event], deadline: datetime | None,
            moved_on: frozenset[int]) -> list[OutboxEmail | None]:
    """The emails the events call for (results, the game's start or end, votes, asks)."""
    mail.draws = _draws(state_before, events)
    rows: list[OutboxEmail | None] = []
    done = _finished(state_before, events)
    rows += _results(mail, done)
    if _game_started(state_before, state_after):
        rows += [game_started_mail(mail, state_after, seat) for seat in mail.players]
    if state_after.game_over:
        last = done.hands[-1] if done.hands else None
        rows += [summary_mail(mail, state_after, seat, last) for seat in mail.players]
    elif only_votes(events):  # nobody moved: the questions asked stand as they were
        rows += vote_mails(mail, state_before, state_after, events)
    else:
        rows += _asks(mail, state_before, state_after, deadline, moved_on)
    return rows


def resend_turns(
    session: Session, game: Game, state: GameState, *, deadline: datetime | None = None,
    settings: MailSettings | None = None, now: datetime | None = None,
) -> list[OutboxEmail]:
    """Ask every player the game waits for for their move afresh (a paused game resumed:
    their earlier links still work, but the deadline is new)."""
    if state.game_over:
        return []
    mail = GameMail.load(session, game, settings, now)
    return [row for row in _asks(mail, None, state, deadline) if row is not None]


_ASKS = {Ask.PLAY: ask_turn, Ask.PASS: ask_pass, Ask.BID: ask_bid, Ask.NAME_SUIT: ask_name_suit}


def _asks(mail: GameMail, before: GameState | None, after: GameState,
          deadline: datetime | None,
          moved_on: frozenset[int] = frozenset()) -> list[OutboxEmail | None]:
    """The emails asking for the next moves, one per seat by what the engine asks it
    (`before` None: ask whoever is waited for). The pass and the moon choice are asked once,
    when they begin; a card, a bid or the suit after every move."""
    rows: list[OutboxEmail | None] = []
    for seat in after.to_move:
        if seat in moved_on:  # the game went past this question before its email was made
            continue
        kind = asked(after, seat).kind
        if kind is Ask.MOON and _moon_began(before, after):
            rows.append(ask_moon(mail, after, seat, deadline))
        elif kind in _ASKS and (kind is not Ask.PASS or _pass_began(before, after)):
            rows.append(ask(mail, after, seat, deadline, _ASKS[kind]))
    return rows


def _game_started(before: GameState | None, after: GameState) -> bool:
    fresh = before is None or (before.phase is Phase.DEAL and before.hand_number == 1
                               and not before.sheet)
    return fresh and after.phase is not Phase.DEAL


def _pass_began(before: GameState | None, after: GameState) -> bool:
    return (before is None or before.phase is not Phase.PASS
            or before.hand_number != after.hand_number)


def _moon_began(before: GameState | None, after: GameState) -> bool:
    return (before is None or before.phase is not Phase.MOON_CHOICE
            or before.hand_number != after.hand_number)


def _fold(
    before: GameState | None, events: Iterable[Event]
) -> Iterable[tuple[GameState, GameState, Event]]:
    state = before
    for event in events:
        if state is None:
            if not isinstance(event, GameCreated):
                continue
            state = start(event)
            continue
        after = apply(state, event)
        yield state, after, event
        state = after


def _draws(before: GameState | None,
           events: Sequence[Event]) -> list[tuple[int, tuple[Card, ...]]]:
    """Domino: who drew which cards from the stock in `events`."""
    if not any(isinstance(e, CardsDrawn) for e in events):
        return []
    return [(event.seat, drawn_cards(prev, event)) for prev, _, event in _fold(before, events)
            if isinstance(event, CardsDrawn)]


@dataclass
class Finished:
    """The tricks and hands the new events completed."""

    tricks: list[tuple[GameState, int, bool]]  # state after the trick, its number, last?
    hands: list[HandEnd]


def _finished(before: GameState | None, events: Sequence[Event]) -> Finished:
    done = Finished([], [])
    for prev, after, event in _fold(before, events):
        ended = len(after.sheet) > len(prev.sheet)
        if len(after.tricks) > len(prev.tricks) and prev.hand_number == after.hand_number:
            done.tricks.append((after, len(after.tricks), ended))
        if ended:
            done.hands.append((prev, after, event))
    return done


def _results(mail: GameMail, done: Finished) -> list[OutboxEmail | None]:
    rows: list[OutboxEmail | None] = []
    for seat, player in mail.players.items():
        if player.notify == "each_trick" and done.tricks:
            rows.append(trick_mail(mail, done.tricks, seat))
        if player.notify in {"each_trick", "each_hand"}:
            rows += [hand_mail(mail, *hand, seat) for hand in done.hands]
    return rows


# The service's mail hooks (pbem.service.core.mail_hook) name these functions of this module.
__all__ = ["notify", "resend_turns", "send_declined", "send_invite_closed",
           "send_invite_reminder", "send_invites", "send_invites_unanswered"]
