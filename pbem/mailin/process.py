"""Process: a pending InboundMail → processed, ignored or failed, with the reason.

One message at a time: claim the row (a lease, so two processes never work on one message),
read and route it, carry out the move through the service (its own transaction; a move that
was already made comes back as a duplicate, which is how a message whose processing crashed
is safely processed again), then queue any answer and record the status in one transaction.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from email.message import Message
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import ColumnElement, Engine, bindparam, func, or_, update
from sqlmodel import Session, col, select

from pbem import service
from pbem.engine import (
    Ask,
    Bid,
    ChooseMoon,
    Claim,
    GameState,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    VoteEnd,
    asked,
    seat_view,
)
from pbem.engine import Command as EngineCommand
from pbem.mail.addresses import AddressRefused, request_address
from pbem.mail.compose import MailSettings, answered_id
from pbem.mail.errors import send_error
from pbem.mail.outbox import (
    emails_bounced,
    mark_bounced,
    recipient_refused,
    reset_player,
    verp_row_of,
)
from pbem.mail.votes import AGREE_WORD, PLAY_ON_WORD
from pbem.mailin import replies
from pbem.mailin.commands import (
    AWAY_OFF,
    Command,
    Reading,
    away_dates,
    needs_phase,
    pass_example,
    read_commands,
    subject_words,
)
from pbem.mailin.crash import crash_point
from pbem.mailin.language import language_of
from pbem.mailin.loops import Bounce, automatic_reason_raw, bounce_of, sender_address
from pbem.mailin.parse import parse_message, reply_text
from pbem.mailin.receive import Stored, store_raw, store_spooled, with_recipients
from pbem.mailin.route import (
    Route,
    decoded_header,
    find_route,
    recipients_of,
    without_plus,
)
from pbem.mailin.unroutable import unroutable
from pbem.present import service_words, views
from pbem.present.i18n import DEFAULT, _, current, format_date, lazy, using
from pbem.present.presenters import presenter
from pbem.present.refusals import mistake_words, no_command_while_waiting
from pbem.present.words import list_words
from pbem.roster import load_roster
from pbem.store.db import read_alone, transaction
from pbem.store.events import load_state
from pbem.store.models import Game, InboundMail, OutboxEmail, Player, Seat
from pbem.store.types import utcnow
from pbem.zones import day_text

log = logging.getLogger(__name__)
Answer = Callable[[Session], None]  # queues mail in the final transaction


@dataclass
class Inbox:
    """What processing needs, wired once per process (or per test)."""

    engine: Engine
    settings: MailSettings
    app: Flask | None = None  # notify's links use the app's config (its app context)
    clock: Callable[[], datetime] = utcnow
    lease: timedelta = timedelta(minutes=2)  # a claimed row is taken over after this long
    rng: random.Random | None = None  # deals the next hands (None: the service's, unseeded)

    @classmethod
    def from_app(cls, app: Flask) -> Inbox:
        from pbem.store.app_engine import db_engine

        return cls(db_engine(app), MailSettings.from_config(app.config), app)

    def context(self) -> service.Context:
        if self.rng is None:
            return service.Context(engine=self.engine, clock=self.clock)
        return service.Context(engine=self.engine, clock=self.clock, rng=self.rng)


@dataclass
class Decision:
    status: str  # processed, ignored or failed
    reason: str
    answers: list[Answer] = field(default_factory=list)
    ok: bool = True  # False: the player's command was not carried out (an error email)
    marked: bool = False  # the status was recorded already, in the move's own transaction


class StillProcessing(Exception):
    """A copy of a message that another process claimed moments ago and has not finished:
    the way in answers "try again later" (the MTA retries; the claim's lease runs out)."""


def deliver(inbox: Inbox, raw: bytes, recipients: list[str] | None = None) -> Stored:
    """Store a message (with its envelope recipients), claimed, then process it: one write
    transaction before the move's. A copy of a message already stored is processed too while
    it is still pending and unclaimed (or its claim ran out: the process that stored it died);
    if another process holds it right now, StillProcessing. No way in calls it any more (each
    stores, then plays afterwards; `POST /inbound` and `pbem ingest` leave that to the
    worker): tests and benchmarks/mailin_speed.py do, to store and play a message at once."""
    raw = with_recipients(raw, recipients or [])
    stored = store_raw(inbox.engine, raw, now=inbox.clock(), claim=True)
    crash_point("stored")
    if stored.created:
        _process_claimed(inbox, stored.id, raw)
        return replace(stored, processed=True)
    claimed = _claim(inbox, stored.id)
    if claimed is not None:
        _process_claimed(inbox, stored.id, claimed)
        return replace(stored, processed=True)
    if _is_pending(inbox, stored.id):
        raise StillProcessing(f"message #{stored.id} is being processed; try again later")
    return stored


def _is_pending(inbox: Inbox, mail_id: int) -> bool:
    with transaction(inbox.engine, read_only=True) as session:
        row = session.get(InboundMail, mail_id)
        return row is not None and row.status == "pending"


def process_pending(inbox: Inbox, limit: int = 1000,
                    min_age: timedelta = timedelta(0), unclaimed_only: bool = False) -> int:
    """Process every pending message not claimed by a live process (on start and by the
    worker every minute: crash recovery). `min_age`: leave messages stored less than this
    long ago to the process that stored them. `unclaimed_only`: only those nobody ever
    claimed (what `pbem ingest` stored)."""
    now = inbox.clock()
    statement = _UNCLAIMED if unclaimed_only else _UNCLAIMED_OR_LAPSED
    ids = [row[0] for row in read_alone(inbox.engine, statement, {
        "stored_before": now - min_age, "lapsed_before": now - inbox.lease, "limit": limit})]
    return sum(process(inbox, mail_id) is not None for mail_id in ids)


def _pending_statement(free: ColumnElement[bool]) -> Any:
    return (select(InboundMail.id)
            .where(col(InboundMail.status) == "pending",
                   col(InboundMail.received_at) <= bindparam("stored_before"), free)
            .order_by(col(InboundMail.id)).limit(bindparam("limit")))


# The pending messages' ids (indexed by status), built once: the worker polls every second.
_NEVER_CLAIMED = col(InboundMail.processed_at).is_(None)
_UNCLAIMED = _pending_statement(_NEVER_CLAIMED)
_UNCLAIMED_OR_LAPSED = _pending_statement(
    or_(_NEVER_CLAIMED, col(InboundMail.processed_at) < bindparam("lapsed_before")))


def process_new(app: Flask) -> int:
    """The worker's job, every second (and `pbem dev`'s): take in what `pbem ingest` left in
    the mail spool (an MTA pipe's process only spools it, pbem.mailin.pipe; store_spooled),
    then play the stored messages nobody claimed yet, oldest first. A look at the spool folder
    and a poll of the few pending rows (indexed by status); each message is claimed before it
    is processed, so several workers, or a receiver processing its own message, never process
    one twice."""
    inbox = Inbox.from_app(app)
    store_spooled(inbox.engine, Path(app.config["SPOOL_DIR"]))
    return process_pending(inbox, unclaimed_only=True)


STALE_MIN_AGE = timedelta(seconds=30)


def process_stale(app: Flask) -> int:
    """The worker's job, every minute: finish what a crashed way in left pending (stored but
    never claimed for half a minute, or claimed by a process whose lease ran out)."""
    return process_pending(Inbox.from_app(app), min_age=STALE_MIN_AGE)


def process(inbox: Inbox, mail_id: int) -> Decision | None:
    """Process one message; None if it isn't pending or another worker holds it."""
    raw = _claim(inbox, mail_id)
    if raw is None:
        return None
    return _process_claimed(inbox, mail_id, raw)


def _process_claimed(inbox: Inbox, mail_id: int, raw: bytes) -> Decision:
    crash_point("claimed")
    with inbox.app.app_context() if inbox.app is not None else nullcontext():
        try:
            decision = decide(inbox, raw, mail_id)
        except Exception as exc:  # a system failure: logged and recorded, never mailed
            log.exception("inbound mail %s failed", mail_id)
            decision = Decision("failed", f"{type(exc).__name__}: {exc}"[:2000])
        if not (decision.marked and not decision.answers):
            _finish(inbox, mail_id, decision)
    return decision


def _claim(inbox: Inbox, mail_id: int) -> bytes | None:
    now = inbox.clock()
    with transaction(inbox.engine) as session:
        claimed = session.exec(
            update(InboundMail)
            .where(col(InboundMail.id) == mail_id, col(InboundMail.status) == "pending",
                   or_(col(InboundMail.processed_at).is_(None),
                       col(InboundMail.processed_at) < now - inbox.lease))
            .values(processed_at=now)
            .execution_options(synchronize_session=False))
        if claimed.rowcount != 1:
            return None
        row = session.get(InboundMail, mail_id)
        return row.raw if row is not None else None


def _finish(inbox: Inbox, mail_id: int, decision: Decision) -> None:
    """Queue the answers and record the outcome in one transaction; an answer withheld (the
    per-address limit, a failing address) is said in the stored reason and logged once."""
    withheld: list[str] = []
    try:
        with transaction(inbox.engine) as session:
            replies.withheld(session)  # nothing left over from an earlier use of the session
            for answer in decision.answers:
                answer(session)
            withheld = replies.withheld(session)
            told = replace(decision, reason="; ".join([decision.reason, *withheld]))
            _mark(session, mail_id, told, inbox.clock())
        if withheld:
            log.info("inbound mail %s (%s): %s", mail_id, decision.reason[:200],
                     "; ".join(withheld))
    except Exception as exc:
        log.exception("inbound mail %s: answering failed", mail_id)
        with transaction(inbox.engine) as session:
            _mark(session, mail_id, Decision("failed", f"answer failed: {exc}"[:2000]),
                  inbox.clock())


_INBOUND = InboundMail.__table__  # type: ignore[attr-defined]
_MARK = (update(_INBOUND).where(_INBOUND.c.id == bindparam("mail_id"))
         .values(status=bindparam("status"), reason=bindparam("reason"),
                 processed_at=bindparam("processed_at")))


def _mark(session: Session, mail_id: int, decision: Decision, now: datetime) -> None:
    if session.autoflush:
        session.flush()  # what the answers added, before this plain UPDATE
    session.connection().execute(_MARK, {"mail_id": mail_id, "status": decision.status,
                                         "reason": printable(decision.reason),
                                         "processed_at": now})


_CONTROL = dict.fromkeys(c for c in range(32) if chr(c) not in "\t\n")


def printable(text: str) -> str:
    """`text` without control characters (a NUL can't even be stored in PostgreSQL text): what
    a hostile message quoted back, in a reason or an answer, is kept readable and storable."""
    return text.translate(_CONTROL)


# --- deciding -------------------------------------------------------------------------------

def decide(inbox: Inbox, raw: bytes, mail_id: int | None = None) -> Decision:
    """What to do with a message. `mail_id`: its stored row, which a move that is carried
    out marks processed in its own transaction (no answer left to queue: nothing more to do)."""
    try:
        message = parse_message(raw)
        bounce = bounce_of(message)
    except READ_ERRORS as exc:  # too broken to read at all: recorded, never answered
        machine = automatic_reason_raw(raw)
        return Decision("ignored", f"automatic mail ({machine}): no answer" if machine
                        else f"malformed message ({_why(exc)}): no answer")
    bounce_row = verp_row_in(inbox.settings, message)
    if bounce_row is not None:
        return _verp_bounce(inbox, bounce_row, bounce)
    if bounce is not None:
        return _bounce(inbox, bounce)
    machine = automatic_reason_raw(raw, message)
    if machine:
        return Decision("ignored", f"automatic mail ({machine}): no answer")
    with transaction(inbox.engine, read_only=True) as session:
        sender = sender_address(message)
        route = find_route(session, message, inbox.settings, inbox.clock(), sender)
        if route is None:
            reason, answers = unroutable(inbox.settings, inbox.clock(), message, sender)
            return Decision("ignored", reason, answers)
        route = replace(route, answered=answered_id(message.get("Message-ID")))
        if not route.from_player:
            return _not_the_player(inbox, route, sender)
        failing = _failing_mark(session, route.player_id, sender)
        try:
            text: str | BaseException = reply_text(message)
        except READ_ERRORS as exc:
            text = exc
        route = replace(route, heard=language_of(text) if isinstance(text, str) else None)
        with using(route.answer_language):
            reading = _read(inbox, session, route, message, text)
    if failing:
        _reachable_again(inbox, route.player_id, sender, failing)
    route = _learnt_first(inbox, route)
    if isinstance(reading, Decision):
        return _learning(route, reading)
    # Staleness ("this reply was for an earlier turn") is the move command's, checked inside
    # its locked transaction. Its words (and the echo of the move) are in the reply's
    # language, as are the answers (`route.answer_language`).
    with using(route.answer_language):
        return _learning(route, _carry_out(inbox, route, reading, message, mail_id))


def _learnt_first(inbox: Inbox, route: Route) -> Route:
    """A reply in a language the player's emails aren't in yet (and they chose none): store
    it before anything is carried out, so a move's emails and their echo are in one language."""
    if not route.learns_language:
        return route
    with transaction(inbox.engine) as session:
        learn_language(route, session)
    return replace(route, language=route.heard)


def _learning(route: Route, decision: Decision) -> Decision:
    """`decision`, storing the reply's language as the player's when they never chose one
    (in the answers' transaction; a move that marked its message did it in its own)."""
    if route.learns_language and not decision.marked:
        decision.answers.append(partial(learn_language, route))
    return decision


_PLAYER = Player.__table__  # type: ignore[attr-defined]
_LEARN = (update(_PLAYER).where(_PLAYER.c.id == bindparam("player_id"),
                                _PLAYER.c.language_chosen.is_(False))
          .values(language=bindparam("language")))


def learn_language(route: Route, session: Session) -> None:
    """The player writes in `route.heard`: their emails are in it from now on (one plain
    UPDATE, and only when they have not chosen a language themselves)."""
    if route.learns_language:
        session.connection().execute(_LEARN, {"player_id": route.player_id,
                                              "language": route.heard})


def _read(inbox: Inbox, session: Session, route: Route, message: Message,
          written: str | BaseException) -> Reading | Decision:
    """The commands in the player's reply (`written`: its text, or why it couldn't be read:
    then an error answer)."""
    if isinstance(written, BaseException):
        exc = written
        return _error(inbox, route, "", _("We couldn't read your email: its format is broken "
                                          "(%(why)s). Please send your reply again as plain "
                                          "text.", why=_why(exc)),
                      "malformed")
    text = written or subject_words(decoded_header(message.get("Subject", "")))
    now = None
    if needs_phase(text):
        now = asked(load_state(session, route.game_id).state, route.seat_no)
    return read_commands(text, now)


def _failing_mark(session: Session, player_id: int, sender: str) -> str:
    """Why the player's address is marked failing, when their reply came from that very
    address (or a plus variant of it: the same mailbox); "" otherwise."""
    player = session.get(Player, player_id)
    if player is None or player.email_status != "failing" \
            or without_plus(sender) != without_plus(player.email):
        return ""
    return player.email_status_reason or "failing"


def _reachable_again(inbox: Inbox, player_id: int, sender: str, why: str) -> None:
    """The player wrote from the address marked failing, through their own seat's reply
    token: it evidently works. Mail them again (as the "my address works" button does),
    before their reply is carried out, so its answer and their next turn emails go out."""
    reset_player(inbox.engine, player_id)
    log.info("player %s wrote from %s, marked failing (%s): their mail goes out again",
             player_id, sender, printable(why)[:200])


# What reading a hostile message may raise (the stdlib email package and our parsing):
# recorded as the message's reason, with no traceback (it is the input, not a bug).
READ_ERRORS = (LookupError, UnicodeError, ValueError, TypeError, RecursionError, IndexError,
               KeyError, AttributeError)


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:300]


def blames_address(status: str) -> bool:
    """Does a permanent failure's status say the address is bad (5.1.x addressing, 5.2.1
    disabled), not the message, a policy or a full mailbox? The outbox's rule for a relay's
    refusal (pbem.mail.outbox.recipient_refused), read as a refused RCPT."""
    return recipient_refused(550, status, at_rcpt=True)


def _bounce(inbox: Inbox, bounce: Bounce) -> Decision:
    """A DSN to our From address (no VERP). Anyone can write one, so it counts only when it
    names an email we sent to an address it says failed (its returned copy's Message-ID, an
    Original-Message-ID, In-Reply-To or References: emails_bounced); then it is read as a
    bounce to that email's VERP address would be (`_verp_bounce`). Otherwise it is kept
    (raw, with the reason) and nothing else happens. Never answered."""
    if not bounce.permanent:
        return Decision("ignored", "delivery status notification without a permanent failure"
                                   f" ({bounce.status or 'no status'}): nothing marked")
    failed, status = ", ".join(bounce.recipients), bounce.status or "failed"
    with transaction(inbox.engine, read_only=True) as session:
        rows = emails_bounced(session, bounce.named, bounce.recipients)
    if not rows:
        log.info("a delivery report for %s (%s) names no email we sent there: nothing marked",
                 failed, status)
        return Decision("ignored", f"bounce: {failed} ({status}) names no email we sent to "
                                   "that address: nothing marked")
    blame = blames_address(status)

    def mark(session: Session) -> None:
        for row_id in rows:
            mark_bounced(session, row_id, status, blame=blame)

    emails = ", ".join(f"#{row_id}" for row_id in rows)
    result = f"{failed} marked failing" if blame else "the email failed, not the address"
    return Decision("processed", f"bounce of email {emails}: {result} ({status})", [mark])


def verp_row_in(settings: MailSettings, message: Message) -> int | None:
    """The outbox row whose VERP bounce address received this message (None: none did)."""
    for address in recipients_of(message):
        row_id = verp_row_of(settings, address)
        if row_id is not None:
            return row_id
    return None


def _verp_bounce(inbox: Inbox, row_id: int, bounce: Bounce | None) -> Decision:
    """Mail to the bounce address of outbox row `row_id`: it names the email, so the player,
    without guessing from the report's addresses. Never answered (no backscatter); the raw
    message stays with its reason. A permanent failure fails the email and, when its status
    says the address is bad, marks the address failing; a delay marks nothing."""
    with transaction(inbox.engine, read_only=True) as session:
        row = session.get(OutboxEmail, row_id)
        to = f"email #{row_id} to player {row.player_id}" if row is not None \
            else f"email #{row_id} (no longer in the outbox)"
    if bounce is None:
        return Decision("ignored", f"mail to the bounce address of {to} is not a delivery "
                                   "status notification: nothing marked, no answer")
    if not bounce.permanent:
        return Decision("ignored", f"delivery delayed for {to} ({bounce.status or 'no status'})"
                                   ": nothing marked, the relay retries")
    status = bounce.status or "failed"
    blame = blames_address(status)

    def mark(session: Session) -> None:
        mark_bounced(session, row_id, status, blame=blame)

    result = "the address marked failing" if blame else "the email failed, not the address"
    return Decision("processed", f"bounce of {to} ({status}): {result}", [mark])


def _not_the_player(inbox: Inbox, route: Route, sender: str) -> Decision:
    def tell(session: Session) -> None:
        player, game = session.get(Player, route.player_id), session.get(Game, route.game_id)
        if player is None or game is None or not replies.may_answer(session, player, inbox.clock()):
            return
        replies.queue_reply(session, inbox.settings, "not_your_seat", player, game=game,
                            seat=route.seat_no, now=inbox.clock(), in_reply_to=route.answered,
                            context={"sender": sender or lazy("an unknown address"),
                                     "own_address": player.email})

    return Decision("ignored", f"sender {sender!r} is not the player of seat {route.seat_no} "
                               f"in game {route.game_id}: the player was told", [tell])


def _carry_out(inbox: Inbox, route: Route, reading: Reading, message: Message,
               mail_id: int | None = None) -> Decision:
    if not reading.ok:
        over = _game_over(inbox, route, reading)
        waiting = no_command_while_waiting(printable(reading.read)) \
            if reading.code == "no_command" and reading.read else ""
        return over or _error(inbox, route, reading.read, reading.problem, "unreadable",
                              waiting=waiting)
    answers: list[Answer] = []
    reasons: list[str] = []
    action = reading.action
    if action is not None and action.is_move:
        decision = _move(inbox, route, action, reading.read,
                         mail_id if reading.say is None else None)
        if not decision.ok:
            return decision
        if decision.marked:
            return decision
        answers += decision.answers
        reasons.append(decision.reason)
    elif action is not None:
        answers.append(_info(inbox, route, action))
        reasons.append(action.verb)
    if reading.say is not None:
        answers.append(_relay(inbox, route, reading.say.text))
        reasons.append(said_by(route.player_id))
    return Decision("processed", "; ".join(reasons), answers)


def _move(inbox: Inbox, route: Route, command: Command, read: str,
          mail_id: int | None = None) -> Decision:
    """Carry out a move through the one move command. With `mail_id`, a move that is made
    marks that message processed in its own transaction."""
    ctx = inbox.context()
    ctx.echo = True  # the player hears back by email what their reply did
    if mail_id is not None:
        def mark(session: Session, outcome: service.Outcome) -> None:
            _mark(session, mail_id, _made(command, outcome), inbox.clock())
            learn_language(route, session)

        ctx.on_applied = mark
    try:
        outcome = service.move(ctx, route.game_id, engine_command(command, route.seat_no),
                               issued_seq=route.turn_seq, player_id=route.player_id,
                               ask_before_ending=True)
    except service.EndsAtOnce:
        note = _note(inbox, route, ENDS_AT_ONCE)
        return Decision("processed", "end vote not made: it would end the game at once; "
                                     "the player is asked to confirm on their page", [note])
    except service.Stale as exc:
        return _error(inbox, route, read, stale_words(exc), "stale")
    except service.PlayerMistake as exc:
        return _error(inbox, route, read, mistake_words(exc), "refused", command)
    if outcome.duplicate:
        note = _note(inbox, route, service_words.explain_outcome(outcome))
        return Decision("processed", f"duplicate: {service_words.explain_outcome(outcome)}", [note])
    return _made(command, outcome, marked=mail_id is not None)


def stale_words(exc: service.Stale) -> str:
    """Why a reply to an earlier email was not played: what happened since, said by who did
    it (the deadline's robot, in the player's stead, named with its move)."""
    moved = views.move_words(exc.made) if exc.made is not None else None
    if moved and exc.by == service.TIMEOUT:
        return _("The deadline of that email passed before your reply came, and the robot "
                 "%(move)s for you, so your move was not made. Nothing changed.", move=moved)
    if moved and exc.by == service.HOLDING:
        return _("While you were away the robot holding your seat %(move)s for you, so your "
                 "move was not made. Nothing changed.", move=moved)
    return _("You answered an earlier email, and the game has moved on: %(why)s, so that "
             "move was not made. Nothing changed; please answer the newest email.",
             why=service_words.since_words(exc.why))


# A one-word reply must not end a game irrevocably: when "end" would end it at once (every
# other seat is a robot, agreeing straight away), nothing is done and the player is asked to
# confirm with their page's button (the private page, linked below the note as in every email:
# GET shows it, its POST ends the game). Where other people are asked to agree, the vote is
# made as before: it ends the game only once they have.
ENDS_AT_ONCE = lazy("Nothing has changed yet. Your reply “end” would end this game at once, "
                    "for good: the other seats are computer players, who agree straight away, "
                    "and the scores of the hands completed would be final. To end it, open "
                    "your page (the Game page link below) and press “End the game now”. To "
                    "play on, just answer your turn as usual.")


def engine_command(command: Command, seat: int) -> EngineCommand:
    """The engine's command for a move read from a reply."""
    if command.verb == "play":
        return PlayCard(seat, command.cards[0])
    if command.verb == "pass":
        return PassCards(seat, tuple(command.cards))
    if command.verb == "claim":
        return Claim(seat)
    if command.verb == "bid":
        return Bid(seat, command.chips)
    if command.verb == "avoid":
        assert command.suit is not None
        return NameSuit(seat, command.suit)
    if command.verb == "end":
        return VoteEnd(seat, command.agree)
    return ChooseMoon(seat, command.down)


def _made(command: Command, outcome: service.Outcome, marked: bool = False) -> Decision:
    return Decision("processed", f"{command.describe()} (seq {outcome.seq})", marked=marked)


# --- answers --------------------------------------------------------------------------------

GAME_OVER_NOTE = lazy("This game is over, so there is nothing more to play in it. Thanks for "
                      "playing! To write to the other players, reply “say” and your message "
                      "(e.g. “say good game!”).")
UNSUBSCRIBE_NOTE = lazy("A reply can't unsubscribe you, so nothing changed. For no more "
                        "emails from us, open the “Unsubscribe” link at the end of this one: "
                        "it takes effect at once, and the same page lets you get fewer "
                        "instead (only your turns, or one email a day). To end this game "
                        "early, reply “end” (everyone has to agree).")


LEAVE_NOTE = lazy("A reply can't take you out of a game, so nothing changed. To leave it, "
                  "open your page of the game (the Game page link below) and press “Leave "
                  "this game”: it asks first. A robot then plays your seat; your points so "
                  "far stay on the record, and the game no longer counts for your rating.")


def _in(language: str | None, words: Any) -> str:
    with using(language):
        return str(words)


def _game_over(inbox: Inbox, route: Route, reading: Reading) -> Decision | None:
    """A reply with no command to a finished game ("Thanks, good game!"): one short note that
    the game is over (not the card error), and silence after it. None: the game goes on."""
    with transaction(inbox.engine, read_only=True) as session:
        game = session.get(Game, route.game_id)
        if game is None or game.status != "finished":
            return None
        told = session.exec(select(func.count()).select_from(OutboxEmail).where(
            OutboxEmail.game_id == route.game_id, OutboxEmail.player_id == route.player_id,
            OutboxEmail.kind == "note",
            or_(*(col(OutboxEmail.body_text).contains(said[:40])
                  for said in {_in(None, GAME_OVER_NOTE), str(GAME_OVER_NOTE)})))).one()
    if told:
        return Decision("ignored", f"game over, no command ({reading.problem}): told "
                                   "before, no answer", ok=False)
    return Decision("processed", f"game over, no command ({reading.problem}): told so",
                    [_note(inbox, route, GAME_OVER_NOTE)], ok=False)


def _error(inbox: Inbox, route: Route, read: str, reason: str, label: str,
           command: Command | None = None, waiting: str = "") -> Decision:
    """The error email; `waiting`: the reason instead when nothing is asked of the seat now
    (a reply with no command while someone else is to move)."""
    def answer(session: Session) -> None:
        player, game = session.get(Player, route.player_id), session.get(Game, route.game_id)
        if player is None or game is None or not replies.may_answer(session, player, inbox.clock()):
            return
        state = load_state(session, route.game_id).state
        idle = waiting and not state.game_over and not asked(state, route.seat_no).must_act
        send_error(session, game, state, route.seat_no,
                   what_was_read=printable(read) or _("(nothing)"),
                   reason=waiting if idle else explain(reason, state, route.seat_no, command,
                                                       stale=label == "stale"),
                   settings=inbox.settings, now=inbox.clock(), in_reply_to=route.answered,
                   language=route.answer_language)

    return Decision("processed", f"{label}: {reason}", [answer], ok=False)


def explain(reason: str, state: GameState, seat: int, command: Command | None = None, *,
            stale: bool = False) -> str:
    """The error email's "why not", with what this seat may reply now in the variant's terms
    (the email lists legal cards itself during play); `stale` (a reply to an earlier email),
    that nothing is asked of them now, if so."""
    if stale and not state.game_over and not asked(state, seat).must_act:
        reason = _("%(reason)s Nothing is asked of you now: we'll email you when it's your "
                   "turn.", reason=reason)
    card_move = command is not None and command.verb in {"play", "pass", "claim"}
    if card_move and state.phase is Phase.BID:
        reason = _("The bidding comes first. %(reason)s", reason=reason)
    elif card_move and state.phase is Phase.NAME_SUIT:
        reason = _("The suit to avoid is named first. %(reason)s", reason=reason)
    return f"{reason} {hint}" if (hint := what_now(state, seat)) else reason


def what_now(state: GameState, seat: int) -> str:
    """What this seat may reply now, outside play; "" if nothing (or the email says it)."""
    now = asked(state, seat)
    if now.kind is Ask.BID:
        return _("Reply “bid %(chips)s” or more, or “pass”.", chips=now.min_bid)
    if now.kind is Ask.NAME_SUIT:
        return _("Reply with the suit to avoid, e.g. “avoid spades”.")
    if now.kind is Ask.PASS and now.pass_count:
        return _("Reply “pass” and the %(count)s cards, e.g. “%(example)s”.",
                 count=now.pass_count, example=pass_example(now.cards, now.pass_count))
    if now.kind is Ask.MOON:
        return _("Reply “moon down” or “moon up”.")
    return ""


def _note(inbox: Inbox, route: Route, note: str) -> Answer:
    def answer(session: Session) -> None:
        player, game = session.get(Player, route.player_id), session.get(Game, route.game_id)
        if player is not None and game is not None and replies.may_answer(
                session, player, inbox.clock()):
            replies.queue_reply(session, inbox.settings, "note", player, game=game,
                                seat=route.seat_no, now=inbox.clock(),
                                in_reply_to=route.answered, context={"note": note},
                                language=route.answer_language)

    return answer


def _info(inbox: Inbox, route: Route, command: Command) -> Answer:
    if command.verb == "away":
        return _note(inbox, route, _away(inbox, route, command.text))
    if command.verb == "unsubscribe":
        return _note(inbox, route, UNSUBSCRIBE_NOTE)
    if command.verb == "leave":
        return _note(inbox, route, LEAVE_NOTE)
    if command.verb == "nudge":
        return _note(inbox, route, _nudge(inbox, route))
    if command.verb == "address":
        return _add_address(inbox, route, command.text)
    if command.verb == "export":  # a sign-in link to "Download my data" (issue 35)
        from pbem.mailin.export import export_answer

        return export_answer(inbox, route)

    def answer(session: Session) -> None:
        player, game = session.get(Player, route.player_id), session.get(Game, route.game_id)
        if player is None or game is None or not replies.may_answer(
                session, player, inbox.clock()):
            return
        with using(route.answer_language or player.language):
            context = (replies.help_context(_rules_of(game)) if command.verb == "help"
                       else status_context(session, game,
                                           load_state(session, route.game_id).state,
                                           route.seat_no))
            replies.queue_reply(session, inbox.settings, command.verb, player, game=game,
                                seat=route.seat_no, now=inbox.clock(),
                                in_reply_to=route.answered, context=context,
                                language=route.answer_language)

    return answer


def _add_address(inbox: Inbox, route: Route, address: str) -> Answer:
    """`address bob@work.example`: a confirmation link to that address, and a note saying so
    (or why not)."""
    def answer(session: Session) -> None:
        player, game = session.get(Player, route.player_id), session.get(Game, route.game_id)
        if player is None or game is None or not replies.may_answer(
                session, player, inbox.clock()):
            return
        secret = inbox.app.config["SECRET_KEY"] if inbox.app is not None else None
        try:
            if not secret:
                raise AddressRefused(_("Addresses can't be added by email here; use the "
                                       "form on your game page."))
            note = request_address(session, inbox.settings, secret, player, address,
                                   inbox.clock())
        except AddressRefused as exc:
            note = str(exc)
        replies.queue_reply(session, inbox.settings, "note", player, game=game,
                            seat=route.seat_no, now=inbox.clock(),
                            in_reply_to=route.answered, context={"note": note},
                            language=route.answer_language)

    return answer


def _rules_of(game: Game) -> Rules | None:
    try:
        return Rules.from_dict(game.rules)
    except (KeyError, TypeError, ValueError):
        return None


def _away(inbox: Inbox, route: Route, text: str) -> str:
    set_away = getattr(service, "set_away", None)
    if set_away is None:
        return _("Thanks for telling us. Holidays can't be set by email yet, so please ask "
                 "the other players to wait for you.")
    ctx = inbox.context()
    try:
        if text.strip().lower() in AWAY_OFF:
            service.clear_away(ctx, route.player_id)
            return _("Welcome back: your away dates are cleared.")
        if not text.strip():
            return _("Tell us your dates and we'll note them: e.g. “away 2026-08-01 to "
                     "2026-08-14” or “away 1-14 August”; “away off” clears them.")
        dates = away_dates(text, inbox.clock().date())
        if dates is None:
            return _("We couldn't read “%(text)s” as dates. Write e.g. “away 2026-08-01 to "
                     "2026-08-14” or “away 1-14 August”; “away off” clears them.", text=text)
        set_away(ctx, route.player_id, *dates)
    except service.PlayerMistake as exc:
        return mistake_words(exc)
    start, end = dates
    since, until = _day(start), _day(end)
    return _("Noted: you're away from %(since)s to %(until)s. Your games wait for you as "
             "their rules say. Enjoy!", since=since, until=until)


def _day(day: date) -> str:
    """`Tuesday 1 December 2026` as the reader's language writes it."""
    if current() == DEFAULT:
        return day_text(day, weekday=True)
    return format_date(datetime(day.year, day.month, day.day), format="full")


def _nudge(inbox: Inbox, route: Route) -> str:
    """`nudge` by reply, as the page's Nudge button: the players everyone waits for get a
    friendly email (at most one each every 12 hours); the note says who, or why nobody."""
    try:
        nudged = service.nudge(inbox.context(), route.game_id, route.seat_no,
                               player_id=route.player_id)
    except service.PlayerMistake as exc:
        return mistake_words(exc)
    with transaction(inbox.engine, read_only=True) as session:
        seats = list(session.exec(select(Seat).where(Seat.game_id == route.game_id)
                                  .order_by(col(Seat.seat_no))))
        names = load_roster(session, seats).names
    return _("Nudged: %(names)s got a friendly reminder.",
             names=list_words([names[seat] for seat in nudged]))


def status_context(session: Session, game: Game, state: GameState, seat: int) -> dict[str, Any]:
    seats = session.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.seat_no)))
    roster = load_roster(session, list(seats))
    view = seat_view(state, seat)
    now = asked(state, seat)
    waiting = [roster.names[s] for s in now.waiting_for if s != seat]
    passing = pass_words(state, seat, roster.names)
    if state.game_over:
        situation = _("The game is over.")
    elif now.must_act:
        situation = {
            Ask.PASS: _("It's your turn to pass %(count)s cards%(where)s.",
                        count=now.pass_count, where=passing),
            Ask.MOON: _("You shot the moon: reply “moon down” or “moon up”."),
            Ask.BID: _("It's your turn to bid for the suit to avoid."),
            Ask.NAME_SUIT: _("You name the suit to avoid."),
        }.get(now.kind) or _("It's your turn.")
        if now.kind in (Ask.BID, Ask.NAME_SUIT):
            situation += f" {what_now(state, seat)}"
    else:
        who = ", ".join(waiting)
        if not waiting:
            situation = _("Waiting for the next hand.")
        elif state.phase is Phase.BID:
            situation = _("Waiting for %(names)s to bid.", names=who)
        elif state.phase is Phase.NAME_SUIT:
            situation = _("Waiting for %(names)s to name the suit to avoid.", names=who)
        else:
            situation = _("Waiting for %(names)s.", names=who)
        if passing and state.has_passed(seat):
            situation = _("You passed your cards%(where)s. %(then)s", where=passing,
                          then=situation)
    if state.phase is Phase.BID:
        bids = presenter(state.rules).bids_so_far(view, roster.names)
        situation += (" " + _("Bids so far: %(bids)s.", bids="; ".join(bids))) if bids else ""
    situation += end_vote_words(state, seat, roster.names)
    legal = view.legal if now.kind is Ask.PLAY else ()
    return {**views.table_context(view, roster.names, seat, roster.failing, rules=state.rules),
            "situation": situation, "legal": views.card_views(legal),
            "passing": state.phase is Phase.PASS and not state.game_over}


def pass_words(state: GameState, seat: int, names: Sequence[str]) -> str:
    """" to Bob, on your left": whom the seat passes to in this hand's pass ("" outside it)."""
    if state.phase is not Phase.PASS or state.game_over:
        return ""
    target = state.pass_target(seat)
    return _(" to %(name)s, %(direction)s", name=names[target],
             direction=views.direction_words(state.pass_offset, state.seats))


def end_vote_words(state: GameState, seat: int, names: Sequence[str]) -> str:
    """Seed 003's open vote to end the game, as the status reply says it to `seat` (who
    agreed, who is waited for, how to agree or play on); "" when no vote is open."""
    voters = state.end_voters
    if not voters or state.game_over:
        return ""
    agreed = list_words([_("you") if s == seat else names[s] for s in voters])
    waiting = list_words([names[s] for s in range(state.seats)
                          if s not in voters and s != seat])
    if seat in voters:
        return " " + _("A vote to end the game now with the current scores is open: %(agreed)s "
                       "agreed; waiting for %(waiting)s. Reply “%(play_on)s” to close it.",
                       agreed=agreed, waiting=waiting, play_on=PLAY_ON_WORD)
    if waiting:
        return " " + _("A vote to end the game now with the current scores is open: %(agreed)s "
                       "agreed; waiting for you (and %(waiting)s). Reply “%(agree)s” to "
                       "agree, or “%(play_on)s” to play on.", agreed=agreed, waiting=waiting,
                       agree=AGREE_WORD, play_on=PLAY_ON_WORD)
    return " " + _("A vote to end the game now with the current scores is open: %(agreed)s "
                   "agreed; waiting for you. Reply “%(agree)s” to agree, or “%(play_on)s” to "
                   "play on.", agreed=agreed, agree=AGREE_WORD, play_on=PLAY_ON_WORD)


SAY_LIMIT = 10  # table talk a player may relay in an hour (each goes to every other player)
SAY_WINDOW = timedelta(hours=1)


def said_by(player_id: int) -> str:
    """The reason recorded on a message with table talk (relayed, or refused over the limit):
    what `_says_recently` counts, so a flood stays refused for the whole window."""
    return f"say from player {player_id}"


def _says_recently(session: Session, player_id: int, now: datetime) -> int:
    """This player's table talk in the last SAY_WINDOW, counted from the messages' recorded
    reasons (the relayed emails themselves don't record who spoke)."""
    return int(session.exec(select(func.count()).select_from(InboundMail).where(
        col(InboundMail.processed_at) >= now - SAY_WINDOW, InboundMail.status == "processed",
        col(InboundMail.reason).contains(said_by(player_id)))).one())


def _relay(inbox: Inbox, route: Route, text: str) -> Answer:
    """Table talk: to every other human player of the game, at most SAY_LIMIT an hour per
    player (beyond it the speaker is told, within the answer limit, and nothing is relayed)."""

    def answer(session: Session) -> None:
        game = session.get(Game, route.game_id)
        if game is None:
            return
        if _says_recently(session, route.player_id, inbox.clock()) >= SAY_LIMIT:
            with using(route.answer_language):
                note = _("Your message was not passed on: table talk is limited to "
                         "%(limit)s messages an hour. Please try again later.", limit=SAY_LIMIT)
            _note(inbox, route, note)(session)
            return
        seats = list(session.exec(select(Seat).where(Seat.game_id == game.id)))
        roster = load_roster(session, seats)
        speaker = roster.names[route.seat_no]
        for seat_no, player in roster.players.items():
            if seat_no != route.seat_no:
                replies.queue_reply(session, inbox.settings, "say", player, game=game,
                                    seat=seat_no, now=inbox.clock(),
                                    context={"speaker": speaker, "said": text[:4000],
                                             "preheader": f"{speaker}: {text[:80]}"})

    return answer
