"""When an invitee declines, the others are told what happens next, in text and HTML: when a
robot takes the seat (the organiser's wait, in each reader's time zone), or, when the organiser
chose to wait as long as it takes, that the game waits until they start it; the organiser is
told they may start it now with robots, signed in on the game page the email links. A game
whose every seat is invited (no open seat) is no exception. Received by a real SMTP server, on
SQLite and PostgreSQL, with the clock moved."""

from __future__ import annotations

from email.message import EmailMessage

from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.service import Context, accept_invite, decline_invite, lobby
from pbem.store.db import transaction
from pbem.store.models import Game, Player
from pbem.zones import deadline_text
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_invite_reminders import GAME_PAGE
from tests.mail.test_notify import deliver, html, kinds, text
from tests.service.test_lobby import context, seats_of, status
from tests.service.test_new_game_waits import ANN, BOB, CY, DI, later, new_game
from tests.web.support import took_part_before

ZONES = {ANN.email: "Europe/Paris", CY.email: "Asia/Tokyo"}


def invited_everywhere(ctx: Context, engine: Engine, smtp_server: SmtpServer,
                       wait: int | None) -> int:
    """Ann's game, confirmed: Bob, Cy and Di invited to seats 2-4, no open seat, the seats
    nobody takes waiting `wait` minutes; Ann and Cy in time zones of their own."""
    took_part_before(engine, BOB.email, CY.email, DI.email)  # named in what they are told
    game_id = new_game(ctx, wait=wait, guests=(BOB, CY, DI), open_seats=())
    with transaction(engine) as session:
        for player in session.exec(select(Player).where(col(Player.email).in_(ZONES))):
            player.time_zone = ZONES[player.email]
    accept_invite(ctx, game_id, 0)
    deliver(engine, smtp_server)  # the confirmation request, the invitations
    return game_id


def told(engine: Engine, smtp_server: SmtpServer) -> dict[str, EmailMessage]:
    """The "declined" emails, by address (one each, nothing else sent)."""
    inbox = deliver(engine, smtp_server)
    assert all(kinds(got) == ["invite_declined"] for got in inbox.values())
    return {to: got[0] for to, got in inbox.items()}


def words(message: EmailMessage) -> tuple[str, str]:
    """The text part and the HTML part, each with its white space made single spaces."""
    return " ".join(text(message).split()), " ".join(html(message).split())


def fill_by(engine: Engine, game_id: int, address: str) -> str:
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        when = deadline_text(game.fill_by, ZONES.get(address))
    assert when is not None
    return when


def test_the_organiser_is_told_when_a_robot_takes_the_seat_and_how_to_start_now(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = invited_everywhere(ctx, engine, smtp_server, 60)
    decline_invite(ctx, game_id, 1)
    mail = told(engine, smtp_server)
    assert sorted(mail) == [ANN.email, CY.email, DI.email]
    paris = fill_by(engine, game_id, ANN.email)
    assert "(Europe/Paris)" in paris
    body, page = words(mail[ANN.email])
    for part in (body, page):
        assert (f"Seat 2 is free now: a robot takes it on {paris}, when the wait for people "
                "is over; still waiting for an answer from Cy and Di.") in part
        assert "You can also start the game now, with robots in every seat nobody has taken " \
               "(an invitation not answered then closes)" in part
    assert 'sign in on the game page below and press "Start now".' in body
    assert GAME_PAGE.findall(body) == [str(game_id)]
    assert f'/games/{game_id}">the game page</a> and press “Start now”' in page

    cy_body, cy_page = words(mail[CY.email])  # not the organiser: her time, nothing to press
    tokyo = fill_by(engine, game_id, CY.email)
    assert "(Asia/Tokyo)" in tokyo
    assert f"a robot takes it on {tokyo}" in cy_body and f"a robot takes it on {tokyo}" in cy_page
    assert "Start now" not in cy_body + cy_page
    for part in (cy_body, cy_page):  # she has not answered either: "you", not her own name
        assert "still waiting for an answer from you and Di." in part
        assert "answer from Cy" not in part

    later(ctx, 60)  # the wait is over: Di declines, and the next top-up seats her robot too
    decline_invite(ctx, game_id, 3)
    body, page = words(told(engine, smtp_server)[ANN.email])
    for part in (body, page):
        assert ("Seat 4 is free now, and the wait for people is over: a robot takes it within "
                "a few minutes; still waiting for an answer from Cy.") in part
    assert lobby.top_up_tables(ctx) == [game_id]
    assert [s.is_bot for s in seats_of(engine, game_id)] == [False, True, False, True]


def test_waiting_as_long_as_it_takes_the_declined_seat_waits_for_the_organiser(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = invited_everywhere(ctx, engine, smtp_server, None)
    decline_invite(ctx, game_id, 1)
    mail = told(engine, smtp_server)
    body, page = words(mail[ANN.email])
    for part in (body, page):
        assert ("Seat 2 is free now. No robot takes it by time: the game waits until you start "
                "it; still waiting for an answer from Cy and Di.") in part
        assert "You can also start the game now, with robots in every seat nobody has taken" \
            in part
    assert GAME_PAGE.findall(body) == [str(game_id)]
    assert f'/games/{game_id}">the game page</a>' in page
    for part in words(mail[DI.email]):
        assert "the game waits until Ann starts it" in part and "Start now" not in part
    later(ctx, 365 * 24 * 60)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    assert seats_of(engine, game_id)[1].invite_status == "declined"
