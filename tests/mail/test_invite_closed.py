"""When the organiser starts their game with robots in the seats not taken, whoever was invited
and had not answered gets a short, polite email saying so (received by a real SMTP server, on
SQLite and PostgreSQL): no link to act on, the game page's link as in the invitation. Those who
declined get none (as with the news of a refusal, we don't mail them about the game again),
nor does anyone who unsubscribed."""

from __future__ import annotations

import re

from sqlalchemy import Engine, update
from sqlmodel import col

from pbem.service import Context, Invitee, accept_invite, create_game, decline_invite, lobby
from pbem.service.games import Table
from pbem.store.db import transaction
from pbem.store.models import Player
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_notify import deliver, html, kinds, text
from tests.mail.test_unsubscribe import footer_lines
from tests.service.test_lobby import context, seats_of
from tests.web.support import took_part_before

ORGANISER = Invitee("ann@example.org", "Ann <b>& Co", accepted=True)
BOB, CY = Invitee("bob@example.org", "Bob"), Invitee("cy@example.org", "Cy")
GAME_PAGE = re.compile(r"https?://[^\s\"<>]+/games/(\d+)")
ACTING = re.compile(r"/(?:t|p|s)/[A-Za-z0-9_-]+")  # one-time links, a private seat view


def confirmed_game(ctx: Context) -> int:
    """Ann's game, confirmed: seat 2 open (waiting as long as it takes), Bob in seat 3 and Cy
    in seat 4 invited."""
    game_id = create_game(ctx, name="Friday", players=[ORGANISER, BOB, CY], confirm_first=True,
                          table=Table(open_seats=(1,))).game_id
    accept_invite(ctx, game_id, 0)
    return game_id


def start_now(ctx: Context, engine: Engine, game_id: int) -> None:
    organiser = seats_of(engine, game_id)[0].player_id
    assert organiser is not None
    lobby.start_now(ctx, game_id, organiser)


def test_an_unanswered_invitee_is_told_a_robot_has_their_seat(
        engine: Engine, smtp_server: SmtpServer) -> None:
    took_part_before(engine, BOB.email, CY.email)
    ctx = context(engine)
    game_id = confirmed_game(ctx)
    decline_invite(ctx, game_id, 3)  # Cy declines; Bob never answers
    deliver(engine, smtp_server)  # the invitations and the news of Cy's refusal
    start_now(ctx, engine, game_id)
    inbox = deliver(engine, smtp_server)
    (told,) = inbox[BOB.email]
    assert kinds([told]) == ["invite_closed"]
    body = text(told)
    assert ('Ann <b>& Co has started "Friday" without waiting any longer, so a robot plays '
            "seat 3, the seat you were invited to.") in " ".join(body.split())
    assert "Your invitation is closed, and there is nothing you need to do." in body
    assert ACTING.search(body) is None and ACTING.search(html(told)) is None
    assert GAME_PAGE.findall(body) == [str(game_id)]
    assert "Ann &lt;b&gt;&amp; Co has started" in html(told)
    assert ('You get this because Ann <b>& Co invited you to "Friday", a game of Hearts by '
            "email.") in " ".join(body.split())
    assert "because you play" not in body  # Bob never played in it
    assert CY.email not in inbox  # she declined: no more mail of this game
    assert "game_started" in kinds(inbox[ORGANISER.email])


def test_nobody_is_told_when_the_seats_were_open_declined_or_unsubscribed(
        engine: Engine, smtp_server: SmtpServer) -> None:
    ctx = context(engine)
    game_id = confirmed_game(ctx)
    decline_invite(ctx, game_id, 3)
    with transaction(engine) as session:
        session.execute(update(Player).where(col(Player.email) == BOB.email)
                        .values(unsubscribed=True))
    deliver(engine, smtp_server)
    start_now(ctx, engine, game_id)
    inbox = deliver(engine, smtp_server)
    assert set(inbox) == {ORGANISER.email}
    assert "invite_closed" not in kinds(inbox[ORGANISER.email])


def test_invitations_say_why_the_address_gets_them(
        engine: Engine, smtp_server: SmtpServer) -> None:
    """An invitation's footer says who invited the address (or that it was given as the
    organiser's), not "you play Hearts by email": the person has not played yet."""
    took_part_before(engine, BOB.email, CY.email)
    ctx = context(engine)
    game_id = create_game(ctx, name="Friday", players=[ORGANISER, BOB, CY], confirm_first=True,
                          table=Table(open_seats=(1,))).game_id
    (confirm,) = deliver(engine, smtp_server)[ORGANISER.email]
    why = "You get this because this address was given as the organiser of a game of Hearts by "
    assert why + "email on our web page." in " ".join(text(confirm).split())
    assert "Friday" not in text(confirm)  # a name a stranger typed: not mailed unconfirmed
    accept_invite(ctx, game_id, 0)  # she confirms: the others are invited
    (invited,) = deliver(engine, smtp_server)[BOB.email]
    assert ('You get this because Ann <b>& Co invited you to "Friday", a game of Hearts by '
            "email.") in " ".join(text(invited).split())
    assert "Ann &lt;b&gt;&amp; Co invited you to “Friday”" in html(invited)


def test_an_invitation_footer_gives_the_unsubscribe_link_its_own_line(
        engine: Engine, smtp_server: SmtpServer) -> None:
    """The invitation's own reason (its footer block) ends its line: "Unsubscribe: <link>"
    starts the next one in the plain-text part."""
    took_part_before(engine, BOB.email, CY.email)
    ctx = context(engine)
    confirmed_game(ctx)
    body = text(deliver(engine, smtp_server)[BOB.email][0])
    footer = footer_lines(body)
    assert footer[-2].startswith("You get this because") and footer[-2].endswith("email."), footer
    assert footer[-1].startswith("Unsubscribe: http"), footer
