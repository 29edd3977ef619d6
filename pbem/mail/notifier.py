"""The mail layer as the service's `Notifier` (pbem.service.notices): each notice's emails,
decided and queued in the command's transaction. Wired in by the app factory (pbem.app), so
the dependency points mail -> service and the service imports no mail.

The modules that build the emails are imported when a notice first comes: making the notifier
costs nothing (`pbem ingest` wires one and may never notify)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from pbem.service.notices import (
    GameMoved,
    InvitationDeclined,
    InvitationReminderDue,
    InvitationsClosed,
    InvitationsSent,
    InvitationsUnanswered,
    Notice,
    Nudged,
    PlayerLeft,
    SeatTakenOver,
    SigninRequested,
    TimedOut,
    TurnsAskedAgain,
)


class MailNotifier:
    """Emails for every notice; True when at least one was queued."""

    def notify(self, session: Session, notice: Notice) -> bool:
        return _told(_emails(session, notice))


def _told(sent: Any) -> bool:
    return bool(sent) if isinstance(sent, list) else sent is not None


def _emails(session: Session, notice: Notice) -> Any:  # noqa: C901 - one branch a notice
    """The emails `notice` calls for (a list of outbox rows, or one row or None)."""
    from pbem.mail import accounts, invites, jobs, notify, seats, timemails

    match notice:
        case GameMoved(job=job, game=game, rebuilt=rebuilt, roster=roster):
            if roster is None:
                return jobs.fan_out(session, job, game=game, rebuilt=rebuilt)
            return jobs.fan_out(session, job, game=game, rebuilt=rebuilt, roster=roster)
        case SigninRequested():
            return accounts.send_signin(session, notice.player, notice.address,
                                        ttl=notice.ttl, now=notice.now,
                                        next_path=notice.next_path)
        case InvitationsSent():
            return invites.send_invites(session, notice.game, list(notice.seats),
                                        rules=notice.rules, now=notice.now,
                                        organiser=notice.organiser)
        case InvitationDeclined():
            return invites.send_declined(session, notice.game, notice.seat, now=notice.now,
                                         unaware=notice.unaware)
        case InvitationsClosed():
            return invites.send_invite_closed(session, notice.game, dict(notice.invited),
                                              now=notice.now)
        case InvitationReminderDue():
            return invites.send_invite_reminder(session, notice.game, notice.seat,
                                                now=notice.now)
        case InvitationsUnanswered():
            return invites.send_invites_unanswered(session, notice.game, notice.seat,
                                                   list(notice.waiting), now=notice.now)
        case TurnsAskedAgain():
            return notify.resend_turns(session, notice.game, notice.state, now=notice.now,
                                       deadline=notice.deadline)
        case Nudged():
            return timemails.send_nudge(session, notice.game, notice.seat, notice.from_seat,
                                        waiting_for=notice.waiting_for,
                                        deadline=notice.deadline, now=notice.now)
        case TimedOut():
            seat_url = (timemails.seat_link(session, notice.game, notice.seat, notice.now)
                        if notice.outcome == "open_seat" else None)
            return timemails.send_timeout(session, notice.game, notice.seat,
                                          outcome=notice.outcome, event=notice.event,
                                          holding=notice.holding, seat_url=seat_url,
                                          now=notice.now)
        case PlayerLeft():
            return seats.send_left(session, notice.game, notice.seat, now=notice.now)
        case SeatTakenOver():
            return seats.send_replaced(session, notice.game, notice.seat, notice.player_id,
                                       held=notice.held, now=notice.now)
    raise TypeError(f"no emails for {type(notice).__name__}")  # pragma: no cover
