"""Signing in without a password: /signin mails a one-time link; the link's page (GET) only
shows a button, since mail scanners open links; its POST signs the player in (a fresh Flask
session: the old one is cleared, so nothing from before signing in carries over). /signout
ends it. A private seat link (/s/<token>) still opens its one game only and signs nobody in.

A page that sends people to sign in says where they were (`/signin?next=/games/12`): the form
keeps it, the emailed link carries it in its query string, and the link's POST redirects there
instead of to /me. Only a path of this site is kept (`links.local_path`); anything else is
dropped without a word, so no link of ours can send anyone to another site."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf
from sqlmodel import col, select

from pbem import service
from pbem.mail.addresses import AddressRefused, request_address
from pbem.mail.compose import MailSettings
from pbem.present import signin as links
from pbem.present.i18n import _
from pbem.present.links import live_seat_link, seat_link
from pbem.present.service_words import explain
from pbem.service import accounts, ratings, sessions
from pbem.service.games import awaits_confirmation
from pbem.service.names import MAX_NAME, one_line
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import NOTIFY_CHOICES, Game, Player, Seat
from pbem.web.i18n import first_language, format_day, format_deadline
from pbem.web.play import check_csrf
from pbem.web.play.public import time_left
from pbem.web.signedin import PLAYER_KEY, SESSION_KEY, signed_in_player, signin_url
from pbem.zones import zone_names

bp = Blueprint("accounts", __name__)
LINK_TEMPLATE = "web/signin_link.html"
LINK_CODES = {links.UNKNOWN: 404, links.USED: 410, links.EXPIRED: 410}


def sign_in(player_id: int) -> None:
    """A new session for the player, kept on the server (pbem.service.sessions): the old
    one's contents (and CSRF token) are dropped."""
    _end_session()
    session[PLAYER_KEY] = player_id
    session[SESSION_KEY] = sessions.start(db_engine(), player_id)
    session.permanent = True


def _end_session() -> None:
    """This browser's session is over, on the server too: a copy of its cookie is no use."""
    raw = session.get(SESSION_KEY)
    if isinstance(raw, str):
        sessions.end(db_engine(), raw)
    session.clear()


def _next_path(values: Mapping[str, str]) -> str | None:
    """The `next` field or query parameter, if it is a path of ours."""
    return links.local_path(values.get("next"))


@bp.get("/signin")
def signin_form() -> ResponseReturnValue:
    return render_template("web/signin.html", state="ask", csrf=generate_csrf(),
                           player=signed_in_player(), address="", next=_next_path(request.args))


@bp.post("/signin")
def signin_ask() -> ResponseReturnValue:
    """Mail a link if the address is a player's; the same answer either way."""
    check_csrf()
    address = request.form.get("address", "")[:400]
    next_path = _next_path(request.form)
    try:
        accounts.request_signin(service.Context(engine=db_engine()), address, next_path)
    except service.BadRequest as exc:
        return render_template("web/signin.html", state="ask", csrf=generate_csrf(),
                               problem=explain(exc), address=address.strip(), player=None,
                               next=next_path), 422
    return render_template("web/signin.html", state="sent", address=address.strip(),
                           minutes=int(accounts.SIGNIN_TTL.total_seconds() // 60),
                           per_hour=accounts.SIGNIN_PER_HOUR)


def _link_refused(state: str, next_path: str | None) -> ResponseReturnValue:
    """Why the link can't be used, and the way to a new one (which still comes back)."""
    return render_template(LINK_TEMPLATE, state=state, next=next_path), LINK_CODES[state]


@bp.get("/signin/<token>")
def signin_link(token: str) -> ResponseReturnValue:
    """The link from the email: a button (GET and HEAD change nothing)."""
    link = links.check_signin(db_engine(), token)
    next_path = _next_path(request.args)
    if link.state != links.LIVE:
        return _link_refused(link.state, next_path)
    return render_template(LINK_TEMPLATE, state="ask", name=link.name, csrf=generate_csrf(),
                           next=next_path, max_name=MAX_NAME)


@bp.post("/signin/<token>")
def signin_confirm(token: str) -> ResponseReturnValue:
    """Use the link up and sign in, taking the name typed (checked first: a bad name leaves
    the link unused)."""
    check_csrf()
    typed = request.form.get("name", "")[:1000]
    next_path = _next_path(request.form)
    kept = links.check_signin(db_engine(), token).name  # an old name, however long, stays
    try:  # none (nothing typed, or the name kept): keep it
        name = accounts.checked_name(typed) if typed.strip() and \
            one_line(typed) != kept else None
    except service.BadRequest as exc:
        return render_template(LINK_TEMPLATE, state="ask", name=typed, csrf=generate_csrf(),
                               problem=explain(exc), next=next_path, max_name=MAX_NAME), 422
    link = links.use_signin(db_engine(), token)
    if link.state != links.LIVE or link.player_id is None:
        return _link_refused(link.state, next_path)
    if name is not None and name != link.name:
        accounts.set_name(_ctx(), link.player_id, name)
    sign_in(link.player_id)
    first_language(link.player_id)
    return redirect(next_path or url_for("accounts.me"), code=303)


@bp.post("/signout")
def signout() -> ResponseReturnValue:
    check_csrf()
    _end_session()
    return render_template("web/signin.html", state="out", csrf=generate_csrf(), player=None,
                           address="")


@bp.post("/me/signout-everywhere")
def signout_everywhere() -> ResponseReturnValue:
    """End every session of the player's, in every browser (this one too)."""
    player = _player_or_signin()
    sessions.end_all(db_engine(), player.id or 0)
    session.clear()
    return render_template("web/signin.html", state="out", everywhere=True,
                           csrf=generate_csrf(), player=None, address="")


# --- my games and settings ------------------------------------------------------------------

def _ctx() -> service.Context:
    return service.Context(engine=db_engine())


def _back(message: str) -> ResponseReturnValue:
    flash(message)
    return redirect(url_for("accounts.me"), code=303)


def _signed_in_or_none() -> Player | None:
    player = signed_in_player()
    if player is None:
        session.pop(PLAYER_KEY, None)
    return player


@bp.get("/me")
def me() -> ResponseReturnValue:
    """The signed-in player's games and settings (GET changes nothing: a game without a live
    private link gets a button that makes one)."""
    player = _signed_in_or_none()
    if player is None or player.id is None:
        return redirect(url_for("accounts.signin_form"), code=303)
    games = accounts.player_games(_ctx(), player.id)
    with transaction(db_engine(), read_only=True) as db:
        seat_links = {g.game_id: live_seat_link(db, g.game_id, g.seat_no, player.id)
                      for g in games if g.status != "finished"}
    return render_template(
        "web/me.html", player=player, games=games, seat_links=seat_links,
        prefs=accounts.preferences(_ctx(), player.id), away=service.away_dates(_ctx(), player.id),
        choices=NOTIFY_CHOICES, csrf=generate_csrf(), time_zones=zone_names(),
        rating=ratings.player_rating(db_engine(), player.id),
        session_days=sessions.LIFETIME.days,
        deadline=lambda when: format_deadline(when, player.time_zone),
        time_left=lambda when: time_left(when, player.time_zone))


def _player_or_signin() -> Player:
    check_csrf()
    player = _signed_in_or_none()
    if player is None or player.id is None:
        abort(403)
    return player


@bp.post("/me/seat/<int:game_id>")
def my_seat(game_id: int) -> ResponseReturnValue:
    """Open the private page of the player's seat in a game (making its link if needed)."""
    player = _player_or_signin()
    with transaction(db_engine()) as db:
        seat = db.exec(select(Seat).where(Seat.game_id == game_id,
                                          Seat.player_id == player.id,
                                          col(Seat.is_bot).is_(False))).first()
        game = db.get(Game, game_id)
        seats = db.exec(select(Seat).where(Seat.game_id == game_id)).all()
        if seat is None or game is None or game.status == "cancelled" \
                or seat.invite_status == "declined" or awaits_confirmation(game, seats):
            return _back(_("You don't play in that game."))
        raw = seat_link(db, game_id, seat.seat_no, player.id or 0)
    return redirect(url_for("play.seat_page", token=raw), code=303)


@bp.post("/me/preferences")
def my_preferences() -> ResponseReturnValue:
    player = _player_or_signin()
    try:
        accounts.set_preferences(_ctx(), player.id or 0, notify=request.form.get("notify", ""),
                                 digest=request.form.get("digest") == "on",
                                 time_zone=request.form.get("time_zone", "").strip(),
                                 review_games=request.form.get("review_games") == "on")
    except service.BadRequest as exc:
        return _back(_("Nothing was saved: %(problem)s", problem=explain(exc)))
    return _back(_("Saved: your email preferences are updated."))


@bp.post("/me/away")
def my_away() -> ResponseReturnValue:
    player = _player_or_signin()
    try:
        start = date.fromisoformat(request.form.get("start", ""))
        end = date.fromisoformat(request.form.get("end", ""))
    except ValueError:
        return _back(_("Give both away dates, like 2026-12-20 and 2026-12-28."))
    try:
        service.set_away(_ctx(), player.id or 0, start, end)
    except service.PlayerMistake as exc:
        return _back(explain(exc))
    return _back(_("Noted: you are away from %(start)s to %(end)s.", start=format_day(start),
                   end=format_day(end)))


@bp.post("/me/away/clear")
def my_away_clear() -> ResponseReturnValue:
    player = _player_or_signin()
    removed = service.clear_away(_ctx(), player.id or 0)
    return _back(_("Welcome back: your away dates are cleared.") if removed
                 else _("You had no away dates."))


@bp.post("/me/address")
def my_address() -> ResponseReturnValue:
    player = _player_or_signin()
    with transaction(db_engine()) as db:
        fresh = db.get(Player, player.id)
        if fresh is None:
            abort(403)
        try:
            said = request_address(db, MailSettings.from_config(current_app.config),
                                   current_app.config["SECRET_KEY"], fresh,
                                   request.form.get("address", ""))
        except AddressRefused as exc:
            return _back(str(exc))
    return _back(said)


@bp.get("/me/delete")
def delete_page() -> ResponseReturnValue:
    """What deleting the account does, and the button (GET only shows it)."""
    player = _signed_in_or_none()
    if player is None:
        return redirect(signin_url(url_for("accounts.delete_page")), code=303)
    return render_template("web/delete.html", state="ask", player=player, csrf=generate_csrf())


@bp.post("/me/delete")
def delete_account() -> ResponseReturnValue:
    player = _player_or_signin()
    if request.form.get("sure") != "yes":
        return render_template("web/delete.html", state="ask", player=player,
                               csrf=generate_csrf(), problem=True), 422
    accounts.delete_account(_ctx(), player.id or 0)  # its sessions too
    session.clear()
    return render_template("web/delete.html", state="done", player=None)
