"""Taking over an open seat: /join/<token>, the link players get when a seat's player timed out
under the "open_seat" policy, to pass on to someone who would play it.

GET shows the game and a form (name, email); GET and HEAD change nothing. The POST (CSRF)
gives the seat to that person through the service, uses the link up, and sends them to their
own private view of the game, where they can play at once; their emails follow from then on."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr

from flask import Blueprint, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlmodel import Session
from wtforms import ValidationError

from pbem import service
from pbem.present.links import seat_link
from pbem.present.tokens import consume_token, find_token
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game, Token

bp = Blueprint("takeover", __name__)
PURPOSES = frozenset({"seat"})
TEMPLATE = "web/takeover.html"


@dataclass(frozen=True)
class OpenSeat:
    token: str
    game_id: int
    game_name: str
    seat_no: int


def _open_seat(session: Session, raw: str) -> tuple[OpenSeat, Token] | None:
    """The open-seat link for `raw` (a "seat" token bound to no player), or None."""
    token = find_token(session, raw, PURPOSES)
    if token is None or token.player_id is not None or token.used_at is not None \
            or token.game_id is None or token.seat_no is None:
        return None
    game = session.get(Game, token.game_id)
    if game is None or game.status == "finished":
        return None
    return OpenSeat(raw, token.game_id, game.name, token.seat_no), token


def _page(seat: OpenSeat | None, *, state: str = "ask", name: str = "", email: str = "",
          problem: str = "", code: int = 200) -> ResponseReturnValue:
    if seat is None:
        return render_template(TEMPLATE, seat=None, state="unknown"), 404
    return render_template(TEMPLATE, seat=seat, state=state, name=name, email=email,
                           problem=problem, csrf=generate_csrf()), code


@bp.get("/join/<token>")
def show(token: str) -> ResponseReturnValue:
    with transaction(db_engine(), read_only=True) as session:
        found = _open_seat(session, token)
    return _page(found[0] if found else None)


@bp.post("/join/<token>")
def join(token: str) -> ResponseReturnValue:
    with transaction(db_engine(), read_only=True) as session:
        found = _open_seat(session, token)
    if found is None:
        return _page(None)
    seat = found[0]
    name, email = request.form.get("name", "").strip(), request.form.get("email", "").strip()
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return _page(seat, state="expired", name=name, email=email, code=400)
    problem = _problem(name, email)
    if problem:
        return _page(seat, name=name, email=email, problem=problem, code=400)
    return _take(seat, name, email)


def _problem(name: str, email: str) -> str:
    if not name or len(name) > 80:
        return "Please give your name (up to 80 characters): the other players will see it."
    _, address = parseaddr(email)
    if address != email or "@" not in email or len(email) > 254:
        return f"“{email}” doesn't look like an email address: Hearts emails you your turns."
    return ""


def _take(seat: OpenSeat, name: str, email: str) -> ResponseReturnValue:
    ctx = service.Context(engine=db_engine())
    with transaction(db_engine()) as session:  # the link is used once, whoever comes first
        found = _open_seat(session, seat.token)
        if found is None or not consume_token(session, found[1]):
            return _page(seat, state="taken", code=409)
    try:
        service.replace_seat(ctx, seat.game_id, seat.seat_no,
                             service.Invitee(email=email, name=name, accepted=True))
    except service.PlayerMistake as exc:
        _release(found[1])
        return _page(seat, name=name, email=email, problem=str(exc), code=400)
    with transaction(db_engine()) as session:
        player_id = _player_of(session, seat)
        private = seat_link(session, seat.game_id, seat.seat_no, player_id)
    return redirect(f"/s/{private}", code=303)


def _release(token: Token) -> None:
    with transaction(db_engine()) as session:
        row = session.get(Token, token.id)
        if row is not None:
            row.used_at = None
            session.add(row)


def _player_of(session: Session, seat: OpenSeat) -> int:
    from sqlmodel import select

    from pbem.store.models import Seat

    row = session.exec(select(Seat).where(Seat.game_id == seat.game_id,
                                          Seat.seat_no == seat.seat_no)).one()
    assert row.player_id is not None
    return row.player_id
