"""Unanswered invitations: the worker's one reminder to an invitee 48 hours after their
invitation, and its one word to the organiser 72 hours after their confirmation naming who has
not answered (they may then start the game now with robots, on its page).

Each seat's `invite_reminder_at` says when it is due (pbem.service.games sets it when the
invitation goes out, or when the organiser confirms). The worker finds the due seats with one
indexed query a minute; each is then handled in its own transaction that locks the game (as
every command changing its seats does), re-reads the seat, clears the time and queues the
email together: two workers racing send it once, and an answer given meanwhile is seen.
Nothing is sent once the game has started, to a seat that answered, before the organiser
confirmed (guests are invited only then), nor to an address that unsubscribed or bounces.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from pbem.service.core import Context
from pbem.service.games import is_organiser, is_unanswered
from pbem.service.notices import InvitationReminderDue, InvitationsUnanswered
from pbem.store.db import transaction
from pbem.store.models import Game, Seat


def remind_unanswered(ctx: Context) -> list[int]:
    """The worker's job: handle every seat whose invitation reminder is due; the ids of the
    seats whose email was queued (a reminder, or the organiser's word)."""
    return [seat_id for seat_id in due_reminders(ctx) if remind(ctx, seat_id)]


def due_reminders(ctx: Context) -> list[int]:
    """The seats whose reminder time has come (one query on an index; none due: no write)."""
    with transaction(ctx.engine, read_only=True) as session:
        due = session.exec(select(Seat.id).where(
            col(Seat.invite_reminder_at) <= ctx.clock())
            .order_by(col(Seat.invite_reminder_at))).all()
    return [seat_id for seat_id in due if seat_id is not None]


def remind(ctx: Context, seat_id: int) -> bool:
    """Queue the seat's reminder if it is still due and still called for, clearing its time
    in the same transaction (so it is sent once); True if an email was queued."""
    now = ctx.clock()
    with transaction(ctx.engine) as session:
        game = _locked_game(session, seat_id)
        seat = session.get(Seat, seat_id, populate_existing=True)
        if game is None or seat is None or seat.invite_reminder_at is None \
                or seat.invite_reminder_at > now:
            return False  # another worker sent it, or it was set again for someone new
        seat.invite_reminder_at = None
        session.add(seat)
        if game.status != "inviting":
            return False
        return _queue(ctx, session, game, seat, now)


def _locked_game(session: Session, seat_id: int) -> Game | None:
    """The seat's game, locked as the commands lock it (FOR UPDATE on PostgreSQL; SQLite's
    write transactions take turns anyway)."""
    game_id = session.exec(select(Seat.game_id).where(Seat.id == seat_id)).first()
    if game_id is None:
        return None
    return session.get(Game, game_id, with_for_update=True, populate_existing=True)


def _queue(ctx: Context, session: Session, game: Game, seat: Seat, now: datetime) -> bool:
    seats = list(session.exec(select(Seat).where(Seat.game_id == game.id)
                              .order_by(col(Seat.seat_no)).execution_options(
                                  populate_existing=True)))
    if is_organiser(game, seats, seat.player_id):
        waiting = [s.seat_no for s in seats if is_unanswered(s)]
        if not waiting:
            return False
        return ctx.notify(session, InvitationsUnanswered(game, seat.seat_no, tuple(waiting),
                                                         now))
    if not is_unanswered(seat):
        return False
    return ctx.notify(session, InvitationReminderDue(game, seat.seat_no, now))
