"""Taking over an open seat: /join/<token>, the link players get when a seat's player timed out
under the "open_seat" policy, to pass on to someone who would play it.

Whoever has that link may only ask: the POST (CSRF) takes an email address and mails it a
confirmation link (/join/confirm/<token>, a "join" token bound to that address's player). The
page answers the same whatever the address, never shows a private link, and seats nobody, so
a player holding the join link can't take over another player's seat or seat someone without
asking them. The seat is given when the owner of the address opens the confirmation link and
posts its form: then the join link is used up and they land on their own private view.
GET and HEAD change nothing anywhere."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import Blueprint, current_app, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlalchemy import func
from sqlmodel import Session, col, select
from wtforms import ValidationError

from pbem import service
from pbem.mail.compose import MailSettings
from pbem.mail.render import default_renderer
from pbem.mail.sending import queue_mail
from pbem.mail.strangers import known_address, may_send
from pbem.present.i18n import _
from pbem.present.links import seat_link
from pbem.present.refusals import mistake_words
from pbem.present.service_words import address_problem, name_problem
from pbem.present.tokens import consume_token, find_token, new_token
from pbem.service.addresses import checked_address
from pbem.service.games import player_for
from pbem.service.names import MAX_NAME, one_line
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Player, Seat, Token
from pbem.web.i18n import browser_language

bp = Blueprint("takeover", __name__)
PURPOSES = frozenset({"seat"})
TEMPLATE = "web/takeover.html"
JOIN_TTL = timedelta(days=2)
MAILS_PER_ADDRESS = 3  # confirmation emails one address gets in an hour
MAILS_PER_SEAT = 10  # confirmation emails one open seat's link sends in a day


@dataclass(frozen=True)
class OpenSeat:
    token: str
    game_id: int
    game_name: str
    seat_no: int


def _live_open_seat(session: Session, token: Token | None, raw: str) -> OpenSeat | None:
    if token is None or token.player_id is not None or token.used_at is not None \
            or token.game_id is None or token.seat_no is None:
        return None
    game = session.get(Game, token.game_id)
    if game is None or game.status == "finished" or not _still_open(session, token):
        return None
    return OpenSeat(raw, token.game_id, game.name, token.seat_no)


def _still_open(session: Session, token: Token) -> bool:
    """The seat is still kept by a robot: its player has not come back (taking it back
    closes the links that were passed on)."""
    seat = session.exec(select(Seat).where(Seat.game_id == token.game_id,
                                           Seat.seat_no == token.seat_no)).first()
    return seat is not None and (seat.is_bot or seat.bot_holding)


def _open_seat(session: Session, raw: str) -> tuple[OpenSeat, Token] | None:
    """The open-seat link for `raw` (a "seat" token bound to no player), or None."""
    token = find_token(session, raw, PURPOSES)
    seat = _live_open_seat(session, token, raw)
    return (seat, token) if seat is not None and token is not None else None


def _page(seat: OpenSeat | None, *, state: str = "ask", code: int = 200,
          **shown: object) -> ResponseReturnValue:
    if seat is None:
        return render_template(TEMPLATE, seat=None, state="unknown"), 404
    return render_template(TEMPLATE, seat=seat, state=state, csrf=generate_csrf(),
                           **shown), code


@bp.get("/join/<token>")
def show(token: str) -> ResponseReturnValue:
    with transaction(db_engine(), read_only=True) as session:
        found = _open_seat(session, token)
    return _page(found[0] if found else None)


@bp.post("/join/<token>")
def join(token: str) -> ResponseReturnValue:
    """Mail a confirmation link to the address given; nothing else changes."""
    with transaction(db_engine(), read_only=True) as session:
        found = _open_seat(session, token)
    if found is None:
        return _page(None)
    seat = found[0]
    email = request.form.get("email", "").strip()
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return _page(seat, state="expired", email=email, code=400)
    problem = address_problem(email)
    if problem:
        return _page(seat, email=email, problem=problem, code=400)
    with transaction(db_engine()) as session:
        _mail_confirmation(session, seat, checked_address(email))
    return _page(seat, state="sent")


def _mail_confirmation(session: Session, seat: OpenSeat, address: str) -> None:
    """A join token for the address's player and the email with its link, within the limits
    (over them nothing is sent, and the page says the same: it tells nobody anything)."""
    now = datetime.now(UTC)
    if _mails_since(session, address, now - timedelta(hours=1)) >= MAILS_PER_ADDRESS or \
            _joins_since(session, seat, now - timedelta(days=1)) >= MAILS_PER_SEAT or \
            not may_send(session, address, known=known_address(session, address), now=now):
        return
    player = player_for(session, service.Invitee(email=address, name=""))
    game = session.get(Game, seat.game_id)
    assert game is not None
    raw = new_token(session, "join", game_id=seat.game_id, seat_no=seat.seat_no,
                    player_id=player.id, ttl=JOIN_TTL, now=now)
    settings = MailSettings.from_config(current_app.config)
    session.flush()
    queue_mail(session, settings, default_renderer(), "join_confirm", player, game=game,
               now=now, stranger_text=True,
               context={"confirm_url": settings.url(f"join/confirm/{raw}"),
                        "preheader": "Confirm it was you."})


def _mails_since(session: Session, address: str, since: datetime) -> int:
    return int(session.exec(select(func.count()).select_from(OutboxEmail).where(
        OutboxEmail.to_addr == address.lower(), OutboxEmail.kind == "join_confirm",
        col(OutboxEmail.created_at) >= since)).one())


def _joins_since(session: Session, seat: OpenSeat, since: datetime) -> int:
    return int(session.exec(select(func.count()).select_from(Token).where(
        Token.purpose == "join", Token.game_id == seat.game_id, Token.seat_no == seat.seat_no,
        col(Token.created_at) >= since)).one())


# --- the confirmation link -------------------------------------------------------------------

@dataclass(frozen=True)
class Confirmation:
    seat: OpenSeat
    join: Token  # the confirmation's own token
    open_seat: Token  # the join link's token, used up when the seat is taken
    player: Player


def _confirmation(session: Session, raw: str) -> Confirmation | None:
    join = find_token(session, raw, frozenset({"join"}))
    if join is None or join.used_at is not None or join.player_id is None:
        return None
    open_token = session.exec(select(Token).where(
        Token.purpose == "seat", Token.game_id == join.game_id, Token.seat_no == join.seat_no,
        col(Token.player_id).is_(None), col(Token.used_at).is_(None),
        col(Token.expires_at) > datetime.now(UTC)).order_by(col(Token.id).desc())).first()
    seat = _live_open_seat(session, open_token, "")
    player = session.get(Player, join.player_id)
    if seat is None or open_token is None or player is None:
        return None
    return Confirmation(seat, join, open_token, player)


def _why_not(session: Session, raw: str) -> str | None:
    """Why a confirmation link that is live itself opens nothing: its seat was "taken" (the
    join link was used: someone confirmed first), or its player came "back"; None if neither
    (the link is unknown, used or expired)."""
    join = find_token(session, raw, frozenset({"join"}))
    if join is None or join.used_at is not None or join.game_id is None:
        return None
    game = session.get(Game, join.game_id)
    if game is None or game.status == "finished":
        return None
    links = session.exec(select(Token).where(
        Token.purpose == "seat", Token.game_id == join.game_id, Token.seat_no == join.seat_no,
        col(Token.player_id).is_(None))).all()
    if any(t.used_at is not None for t in links):
        return "taken"
    if links and not _still_open(session, links[0]):
        return "back"
    return None


def _confirm_page(found: Confirmation | None, raw: str, code: int = 200,
                  **shown: object) -> ResponseReturnValue:
    if found is None:
        with transaction(db_engine(), read_only=True) as session:
            why = _why_not(session, raw)
        if why is not None:
            return render_template(TEMPLATE, seat=None, state=why), 409
        return _page(None)
    player = found.player
    unnamed = player.name == f"Player {player.id}"  # a new account: they choose a name here
    shown.setdefault("name", "" if unnamed else player.name)
    shown.setdefault("max_name", MAX_NAME)
    return _page(found.seat, state="confirm", confirm=raw, code=code, **shown)


@bp.get("/join/confirm/<token>")
def show_confirmation(token: str) -> ResponseReturnValue:
    with transaction(db_engine(), read_only=True) as session:
        return _confirm_page(_confirmation(session, token), token)


@bp.post("/join/confirm/<token>")
def confirm(token: str) -> ResponseReturnValue:
    """The address's owner takes the seat: both links are used up, first come first served."""
    with transaction(db_engine(), read_only=True) as session:
        found = _confirmation(session, token)
    if found is None:
        return _confirm_page(None, token)
    name = one_line(request.form.get("name", "")[:1000])
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return _confirm_page(found, token, 400, name=name, expired=True)
    problem = name_problem(name, _("That name")) if name else (
        _("Please give your name: the other players will see it."))
    if problem:
        return _confirm_page(found, token, 400, name=name, problem=problem)
    return _take(found, name, token)


class _Taken(Exception):
    """Someone used the join link (or this confirmation) first."""


def _take(found: Confirmation, name: str, raw: str) -> ResponseReturnValue:
    seat = found.seat
    try:
        with transaction(db_engine()) as session:  # both links used once, whoever comes first
            if not (consume_token(session, found.open_seat)
                    and consume_token(session, found.join)):
                raise _Taken
    except _Taken:
        return _page(seat, state="taken", code=409)
    with transaction(db_engine()) as session:  # named before the seat's emails go out
        player = session.get(Player, found.player.id)
        assert player is not None and player.id is not None
        if player.name != name and _seats_of(session, player.id) == 0:
            player.name = name  # a newcomer names themselves; a known player keeps their name
            session.add(player)
        if player.language is None:  # a newcomer's pages and emails: their browser's language
            player.language = browser_language()
            session.add(player)
    try:
        service.replace_seat(service.Context(engine=db_engine()), seat.game_id, seat.seat_no,
                             service.Invitee(email=found.player.email, name=name, accepted=True))
    except service.PlayerMistake as exc:
        _release(found.open_seat, found.join)
        return _page(seat, state="confirm", confirm=raw, name=name, problem=mistake_words(exc),
                     max_name=MAX_NAME, code=400)
    with transaction(db_engine()) as session:
        private = seat_link(session, seat.game_id, seat.seat_no, player.id)
    return redirect(f"/s/{private}", code=303)


def _seats_of(session: Session, player_id: int) -> int:
    return int(session.exec(select(func.count()).select_from(Seat).where(
        Seat.player_id == player_id)).one())


def _release(*tokens: Token) -> None:
    with transaction(db_engine()) as session:
        for token in tokens:
            row = session.get(Token, token.id)
            if row is not None:
                row.used_at = None
                session.add(row)
