"""Leaving a game (`resign`) and losing a seat to someone else (`replace_seat`): who is told
by email, and the private links of the seat's old player close with the time they closed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.present.links import closed_seat, seat_link
from pbem.service import (
    Context,
    Invitee,
    NotAllowed,
    create_game,
    make_rng,
    replace_seat,
    resign,
)
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Seat, Token

NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
SECRET = "k"


@pytest.fixture
def ctx(engine: Engine) -> Context:
    return Context(engine=engine, rng=make_rng(seed=7), clock=lambda: NOW)


def _game(ctx: Context, *, accepted: bool = True) -> int:
    players = [Invitee("ann@example.org", "Ann", accepted=True),
               Invitee("bob@example.org", "Bob", accepted=accepted),
               Invitee("cy@example.org", "Cy", accepted=accepted)]
    return create_game(ctx, name="Friday", players=players, bot_seats=(3,)).game_id


def _mails(ctx: Context, kind: str) -> list[OutboxEmail]:
    with transaction(ctx.engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).where(OutboxEmail.kind == kind)
                                 .order_by(col(OutboxEmail.id))))


def _link(ctx: Context, game_id: int, seat_no: int) -> str:
    with transaction(ctx.engine) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == seat_no)).one()
        assert seat.player_id is not None
        return seat_link(session, game_id, seat_no, seat.player_id, secret=SECRET, now=NOW)


def test_leaving_tells_the_other_people_and_closes_the_links(ctx: Context) -> None:
    game_id = _game(ctx)
    raw = _link(ctx, game_id, 0)
    resign(ctx, game_id, 0, player_id=1)
    told = _mails(ctx, "player_left")
    assert sorted(m.to_addr for m in told) == ["bob@example.org", "cy@example.org"]
    assert all("Ann left \"Friday\"" in m.body_text for m in told)
    with transaction(ctx.engine, read_only=True) as session:
        (token,) = session.exec(select(Token).where(Token.purpose == "seat")).all()
        assert token.used_at is not None
        closed = closed_seat(session, raw, now=NOW)
    assert closed is not None and closed.why == "left" and closed.when == NOW
    again = resign(ctx, game_id, 0, player_id=1)  # a second press: nothing more happens
    assert again.duplicate and len(_mails(ctx, "player_left")) == 2


def test_only_the_seats_player_may_leave_it(ctx: Context) -> None:
    game_id = _game(ctx)
    with pytest.raises(NotAllowed):
        resign(ctx, game_id, 0, player_id=2)
    assert not _mails(ctx, "player_left")


def test_leaving_a_game_not_started_mails_nobody(ctx: Context) -> None:
    game_id = _game(ctx, accepted=False)
    resign(ctx, game_id, 0, player_id=1)
    assert not _mails(ctx, "player_left")


def test_the_player_whose_seat_is_taken_over_is_told(ctx: Context) -> None:
    game_id = _game(ctx)
    raw = _link(ctx, game_id, 1)
    replace_seat(ctx, game_id, 1, Invitee("dee@example.org", "Dee", accepted=True))
    (told,) = _mails(ctx, "seat_taken_over")
    assert told.to_addr == "bob@example.org"
    assert "a new player, Dee, took over seat 2" in told.body_text
    assert "no longer in this game" in told.body_text and "/me" in told.body_text
    with transaction(ctx.engine, read_only=True) as session:
        closed = closed_seat(session, raw, now=NOW)
    assert closed is not None and closed.why == "taken" and closed.when == NOW
    assert not _mails(ctx, "player_left")
