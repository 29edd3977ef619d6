"""Routing after a move: which emails the new events call for, and to whom.

A command's job (pbem.mail.jobs, or the service's `GameMoved` notice: pbem.mail.notifier)
comes here (`notify(...)`, in the transaction that writes its outbox rows); what happened at
the table is the service's (pbem.service.notices `game_notices`), the emails for each notice
are decided here; `resend_turns` and the invitations' mails are re-exported for the
notifier (pbem.mail.notifier). The emails themselves are
built in pbem.mail.asks (asking a move), pbem.mail.results (what happened), pbem.mail.invites,
pbem.mail.digest and pbem.mail.errors, and queued by pbem.mail.sending.
A draw from the stock is named only in the drawer's email; the others learn how many cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session

from pbem.engine import Ask, Card, CardsDrawn, Event, GameState, drawn_cards
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
    confirmation,
    echo_words,
    game_started_mail,
    hand_mail,
    summary_mail,
    trick_mail,
)
from pbem.mail.votes import only_votes, vote_mails
from pbem.roster import Roster
from pbem.service.notices import (
    GameOver,
    GameStarted,
    HandOver,
    TrickOver,
    TurnAsked,
    fold,
    game_notices,
    turns_asked,
)
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
    """The emails the events call for: what happened at the table (pbem.service.notices
    `game_notices`: tricks and hands ended, the game's start or end, who is asked what),
    each told in its emails, by its type; or the votes, when nobody moved."""
    mail.draws = _draws(state_before, events)
    news = game_notices(state_before, state_after, events, moved_on)
    rows: list[OutboxEmail | None] = []
    rows += _results(mail, [n for n in news if isinstance(n, TrickOver)],
                     [n for n in news if isinstance(n, HandOver)])
    last = next((n for n in reversed(news) if isinstance(n, HandOver)), None)
    for notice in news:
        if isinstance(notice, GameStarted):
            rows += [game_started_mail(mail, notice.state, seat) for seat in mail.players]
        elif isinstance(notice, GameOver):
            hand = (last.before, last.after, last.event) if last is not None else None
            rows += [summary_mail(mail, notice.state, seat, hand) for seat in mail.players]
        elif isinstance(notice, TurnAsked):
            rows.append(_ask(mail, notice, deadline))
    if not state_after.game_over and only_votes(events):  # the questions asked stand
        rows += vote_mails(mail, state_before, state_after, events)
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
    return [row for row in (_ask(mail, turn, deadline) for turn in turns_asked(None, state))
            if row is not None]


_ASKS = {Ask.PLAY: ask_turn, Ask.PASS: ask_pass, Ask.BID: ask_bid, Ask.NAME_SUIT: ask_name_suit}


def _ask(mail: GameMail, turn: TurnAsked, deadline: datetime | None) -> OutboxEmail | None:
    """The email asking `turn.seat` for its move (the pass and the moon choice are asked
    once, when they begin; a card, a bid or the suit after every move: `turns_asked`)."""
    if turn.kind is Ask.MOON:
        return ask_moon(mail, turn.state, turn.seat, deadline)
    return ask(mail, turn.state, turn.seat, deadline, _ASKS[turn.kind])


def _draws(before: GameState | None,
           events: Sequence[Event]) -> list[tuple[int, tuple[Card, ...]]]:
    """Domino: who drew which cards from the stock in `events`."""
    if not any(isinstance(e, CardsDrawn) for e in events):
        return []
    return [(event.seat, drawn_cards(prev, event)) for prev, _, event in fold(before, events)
            if isinstance(event, CardsDrawn)]


def _results(mail: GameMail, tricks: Sequence[TrickOver],
             hands: Sequence[HandOver]) -> list[OutboxEmail | None]:
    """The tricks and hands that ended, to those who want to hear of each."""
    done = [(t.state, t.number, t.last) for t in tricks]
    rows: list[OutboxEmail | None] = []
    for seat, player in mail.players.items():
        if player.notify == "each_trick" and done:
            rows.append(trick_mail(mail, done, seat))
        if player.notify in {"each_trick", "each_hand"}:
            rows += [hand_mail(mail, h.before, h.after, h.event, seat) for h in hands]
    return rows


__all__ = ["notify", "resend_turns", "send_declined", "send_invite_closed",
           "send_invite_reminder", "send_invites", "send_invites_unanswered"]
