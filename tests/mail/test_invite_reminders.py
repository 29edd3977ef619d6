"""An invitation nobody answers is mentioned again, once: 48 hours after it went out its invitee
gets one reminder (the invitation again, with working links and a reminder line), and 72 hours
after the organiser confirmed the game they get one email naming who has not answered, pointing
to the game page (where they may start now with robots; nothing in the email acts). Never
before the organiser confirmed, never to whoever answered, unsubscribed or bounces, never once
the game started; each once, even when two worker passes race. Received by a real SMTP server,
on SQLite and PostgreSQL, with the clock moved."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage

from flask import Flask
from sqlalchemy import Engine, update
from sqlmodel import col, select

from pbem.present.tokens import find_token
from pbem.scheduler.worker import check_deadlines
from pbem.service import (
    Context,
    Invitee,
    accept_invite,
    create_game,
    decline_invite,
    lobby,
    replace_seat,
)
from pbem.service.games import Table
from pbem.service.invitations import due_reminders, remind_unanswered
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player, Token
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_notify import deliver, html, kinds, text
from tests.service.test_lobby import context, race, seats_of
from tests.service.test_new_game_waits import later
from tests.web.support import took_part_before

ANN = Invitee("ann@example.org", "Ann", accepted=True)  # the organiser, seat 1
BOB = Invitee("bob@example.org", "Bob <i>& Sons")  # seat 3
CY = Invitee("cy@example.org", "Cy")  # seat 4
GAME_PAGE = re.compile(r"https?://[^\s\"<>]+/games/(\d+)")
INVITE_LINKS = re.compile(r"https?://[^\s\"<>]+/t/[A-Za-z0-9_-]+\?a=(accept|decline)")
ACTING = re.compile(r"/(?:t|p|s)/[A-Za-z0-9_-]+")  # one-time links, a private seat view
HOUR = 60


def new_game(ctx: Context) -> int:
    """As /new makes it: Ann organises (she confirms by email first), seat 2 open (waiting as
    long as it takes), Bob and Cy invited once she has confirmed."""
    return create_game(ctx, name="Friday", players=[ANN, BOB, CY], confirm_first=True,
                       table=Table(open_seats=(1,))).game_id


def confirmed_game(ctx: Context, engine: Engine, smtp_server: SmtpServer) -> int:
    game_id = new_game(ctx)
    accept_invite(ctx, game_id, 0)
    deliver(engine, smtp_server)  # the confirmation request, the invitations
    return game_id


def one_pass(ctx: Context, engine: Engine, smtp_server: SmtpServer) -> dict[str, list[str]]:
    """A worker pass over the due reminders, then the outbox: the kinds each address got."""
    return {to: kinds(got) for to, got in pass_and_mail(ctx, engine, smtp_server).items()}


def pass_and_mail(ctx: Context, engine: Engine,
                  smtp_server: SmtpServer) -> dict[str, list[EmailMessage]]:
    """A worker pass over the due reminders, then the outbox: what each address got."""
    remind_unanswered(ctx)
    return deliver(engine, smtp_server)


def test_an_unanswered_invitee_is_reminded_once_48_hours_after_the_invitation(
        engine: Engine, smtp_server: SmtpServer) -> None:
    took_part_before(engine, BOB.email, CY.email)  # named in the reminder
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    later(ctx, 48 * HOUR - 1)
    assert one_pass(ctx, engine, smtp_server) == {}
    later(ctx, 1)
    inbox = pass_and_mail(ctx, engine, smtp_server)
    assert {to: kinds(got) for to, got in inbox.items()} == {
        BOB.email: ["invite_reminder"], CY.email: ["invite_reminder"]}
    (reminder,) = inbox[BOB.email]
    body = " ".join(text(reminder).split())
    assert 'Ann invites you to play Hearts by email: "Friday".' in body
    assert "A reminder: this invitation has not been answered yet." in body
    assert "we won't remind you again" in body
    assert sorted(INVITE_LINKS.findall(text(reminder))) == ["accept", "decline"]
    assert "Bob &lt;i&gt;&amp; Sons" in html(reminder) and "<i>&" not in html(reminder)
    assert "A reminder: this invitation has not been answered yet." in html(reminder)
    assert GAME_PAGE.findall(text(reminder)) == [str(game_id)]
    later(ctx, 7 * 24 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {ANN.email: ["invite_unanswered"]}
    assert one_pass(ctx, engine, smtp_server) == {}  # never a second reminder


def test_the_reminders_links_are_the_seats_invitation_links(
        engine: Engine, smtp_server: SmtpServer) -> None:
    """The reminder's links are invitation links of the seat, like the first email's (the web
    acts on them by POST); the first invitation's links still work too."""
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    later(ctx, 48 * HOUR)
    (reminder,) = pass_and_mail(ctx, engine, smtp_server)[CY.email]
    raws = {m.group(0).split("/t/")[1].split("?")[0] for m in INVITE_LINKS.finditer(
        text(reminder))}
    (raw,) = raws
    with transaction(engine, read_only=True) as session:
        token = find_token(session, raw, {"invite"}, now=ctx.clock())
        assert token is not None and (token.game_id, token.seat_no) == (game_id, 3)
        live = session.exec(select(Token).where(Token.game_id == game_id,
                                                Token.seat_no == 3)).all()
    assert len(live) == 2 and all(t.used_at is None for t in live)


def test_nobody_is_reminded_before_the_organiser_confirms(
        engine: Engine, smtp_server: SmtpServer) -> None:
    """A confirm-first game's guests have not been invited yet: no reminder to them (nor to
    the organiser about their own confirmation); after it, 48 hours from the confirmation."""
    ctx = context(engine)
    game_id = new_game(ctx)
    deliver(engine, smtp_server)
    later(ctx, 10 * 24 * HOUR)
    assert due_reminders(ctx) == []
    assert one_pass(ctx, engine, smtp_server) == {}
    accept_invite(ctx, game_id, 0)
    deliver(engine, smtp_server)
    later(ctx, 47 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}
    later(ctx, HOUR)
    assert one_pass(ctx, engine, smtp_server) == {
        BOB.email: ["invite_reminder"], CY.email: ["invite_reminder"]}


def test_whoever_answered_or_unsubscribed_is_not_reminded(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    decline_invite(ctx, game_id, 3)  # Cy answers
    with transaction(engine) as session:  # Bob unsubscribes
        session.execute(update(Player).where(col(Player.email) == BOB.email)
                        .values(unsubscribed=True))
    deliver(engine, smtp_server)
    later(ctx, 48 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}
    assert due_reminders(ctx) == []  # each seat was looked at once, then never again


def test_a_bouncing_address_is_not_reminded(engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    confirmed_game(ctx, engine, smtp_server)
    with transaction(engine) as session:
        session.execute(update(Player).where(col(Player.email) == BOB.email)
                        .values(email_status="failing"))
    later(ctx, 48 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {CY.email: ["invite_reminder"]}


def test_the_organiser_is_told_once_who_has_not_answered_72_hours_after_confirming(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    later(ctx, 5 * HOUR)  # the form was sent before she confirmed: 72 h from the confirmation
    game_id = new_game(ctx)
    later(ctx, 10 * HOUR)
    accept_invite(ctx, game_id, 0)
    deliver(engine, smtp_server)
    later(ctx, 24 * HOUR)
    accept_invite(ctx, game_id, 3)  # Cy answers; Bob never does
    deliver(engine, smtp_server)
    later(ctx, 24 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {BOB.email: ["invite_reminder"]}
    later(ctx, 24 * HOUR - 1)
    assert one_pass(ctx, engine, smtp_server) == {}
    later(ctx, 1)
    inbox = pass_and_mail(ctx, engine, smtp_server)
    assert list(inbox) == [ANN.email]
    (told,) = inbox[ANN.email]
    assert kinds([told]) == ["invite_unanswered"]
    body = " ".join(text(told).split())
    assert ('Hi Ann, "Friday" is still waiting: Bob <i>& Sons has not answered their '
            "invitation yet.") in body
    assert 'sign in on the game page below and press "Start now"' in body
    assert "Bob &lt;i&gt;&amp; Sons has not answered" in html(told)
    assert "<i>&" not in html(told)
    assert GAME_PAGE.findall(body) == [str(game_id)]
    assert GAME_PAGE.findall(html(told)) == [str(game_id)] * 2  # the text's link, the footer's
    assert ACTING.search(text(told)) is None and ACTING.search(html(told)) is None
    later(ctx, 30 * 24 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}  # once


def test_the_organiser_hears_nothing_when_everyone_answered(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    accept_invite(ctx, game_id, 2)
    decline_invite(ctx, game_id, 3)
    deliver(engine, smtp_server)
    later(ctx, 72 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}


def test_nothing_is_sent_once_the_game_started(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    organiser = seats_of(engine, game_id)[0].player_id
    assert organiser is not None
    lobby.start_now(ctx, game_id, organiser)
    deliver(engine, smtp_server)
    later(ctx, 72 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}
    assert due_reminders(ctx) == []


def test_two_racing_passes_send_each_email_once(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = confirmed_game(ctx, engine, smtp_server)
    later(ctx, 72 * HOUR)  # both reminders and the organiser's word are due together
    results = race(*[lambda: remind_unanswered(ctx)] * 3)
    assert not [r for r in results if isinstance(r, Exception)]
    done = sorted(seat_id for r in results if isinstance(r, list) for seat_id in r)
    assert done == sorted(s.id for s in seats_of(engine, game_id) if s.seat_no in (0, 2, 3))
    inbox = {to: kinds(got) for to, got in deliver(engine, smtp_server).items()}
    assert inbox == {ANN.email: ["invite_unanswered"], BOB.email: ["invite_reminder"],
                     CY.email: ["invite_reminder"]}


def test_two_workers_minute_scans_at_once_queue_each_email_once(
        engine: Engine, make_app: Callable[..., Flask], db_url: str) -> None:
    """The worker's minute scan sends them (two racing workers: each reminder claimed by one)."""
    app = make_app(DATABASE_URL=db_url)
    ctx = context(engine)
    game_id = new_game(ctx)
    accept_invite(ctx, game_id, 0)
    now = ctx.clock() + timedelta(hours=72)
    race(lambda: check_deadlines(app, now=now), lambda: check_deadlines(app, now=now))
    with transaction(engine, read_only=True) as session:
        queued = sorted(session.exec(select(OutboxEmail.kind, OutboxEmail.to_addr).where(
            col(OutboxEmail.kind).in_(("invite_reminder", "invite_unanswered")))).all())
    assert queued == [("invite_reminder", BOB.email), ("invite_reminder", CY.email),
                      ("invite_unanswered", ANN.email)]


def test_a_game_made_confirmed_counts_from_its_making_and_a_new_invitee_has_their_own(
        engine: Engine, smtp_server: SmtpServer) -> None:
    """A game whose organiser needs no confirmation (as a rematch): the organiser's 72 hours
    count from its making. Someone invited to a seat later gets their own one reminder 48
    hours after their invitation; the one it replaced gets none."""
    ctx = context(engine)
    game_id = create_game(ctx, name="Friday", players=[ANN, BOB], bot_seats=[2, 3],
                          organiser=0).game_id
    deliver(engine, smtp_server)
    later(ctx, 24 * HOUR)
    replace_seat(ctx, game_id, 1, CY)  # Bob's seat goes to Cy before his reminder
    deliver(engine, smtp_server)
    later(ctx, 48 * HOUR - 1)
    assert one_pass(ctx, engine, smtp_server) == {}
    later(ctx, 1)
    inbox = pass_and_mail(ctx, engine, smtp_server)
    assert {to: kinds(got) for to, got in inbox.items()} == {
        ANN.email: ["invite_unanswered"], CY.email: ["invite_reminder"]}
    told = " ".join(text(inbox[ANN.email][0]).split())  # Cy was invited 48 hours ago, not 72
    assert "Cy has not answered their invitation yet." in told and "three days" not in told
    assert "Cy has not answered their invitation yet." in html(inbox[ANN.email][0])
    later(ctx, 7 * 24 * HOUR)
    assert one_pass(ctx, engine, smtp_server) == {}
