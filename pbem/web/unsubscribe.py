"""One-click unsubscribe (RFC 8058): /u/<token> from every email's List-Unsubscribe header.

Mail software and link scanners fetch URLs in headers and bodies, so GET and HEAD only show
the page. A POST to /u/<token> unsubscribes: mail clients send it with the body
`List-Unsubscribe=One-Click` and no cookie, so it is authenticated by the token alone (it is
not CSRF-checked; the app has no global CSRFProtect, play pages check CSRF per view). The page
offers to resubscribe, and to choose how much mail to get instead (each trick, each hand or
only turns; a daily digest; the time zone deadlines are shown in; the review of each finished
game): those POSTs come only from
the page, so they check the CSRF token.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlmodel import Session
from wtforms import ValidationError

from pbem.present.tokens import find_token
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import NOTIFY_CHOICES, Player
from pbem.zones import known_zone, zone_names

bp = Blueprint("unsubscribe", __name__)
PURPOSES = frozenset({"unsubscribe"})
TEMPLATE = "web/unsubscribe.html"


@dataclass(frozen=True)
class Who:
    """The player an unsubscribe token belongs to, as the page shows them."""

    token: str
    name: str
    email: str
    unsubscribed: bool
    notify: str = "each_hand"
    digest: bool = False
    time_zone: str = "UTC"
    review_games: bool = True


def load(raw: str) -> Who | None:
    """The token's player (read only), or None for an unknown, expired or orphaned token."""
    with transaction(db_engine(), read_only=True) as session:
        player = _player(session, raw)
        return _who(raw, player) if player else None


def set_unsubscribed(raw: str, value: bool) -> Who | None:
    with transaction(db_engine()) as session:
        player = _player(session, raw)
        if player is None:
            return None
        player.unsubscribed = value
        session.add(player)
        return _who(raw, player)


def _player(session: Session, raw: str) -> Player | None:
    token = find_token(session, raw, PURPOSES)
    if token is None or token.player_id is None:
        return None
    return session.get(Player, token.player_id)


def _who(raw: str, player: Player) -> Who:
    return Who(raw, player.name, player.email, player.unsubscribed, player.notify,
               player.digest, player.time_zone, player.review_games)


def page(who: Who | None, *, done: str = "", code: int = 200) -> ResponseReturnValue:
    if who is None:
        return render_template(TEMPLATE, who=None, state="unknown"), 404
    return render_template(TEMPLATE, who=who, state=done or "ask", csrf=generate_csrf(),
                           time_zones=zone_names(),
                           choices=NOTIFY_CHOICES), code


@bp.get("/u/<token>")
def show(token: str) -> ResponseReturnValue:
    """Who and which address, and a button. GET and HEAD change nothing."""
    return page(load(token))


@bp.post("/u/<token>")
def unsubscribe(token: str) -> ResponseReturnValue:
    """RFC 8058 one-click (or the page's button): the token is the authentication."""
    return page(set_unsubscribed(token, True), done="unsubscribed")


@bp.post("/u/<token>/resubscribe")
def resubscribe(token: str) -> ResponseReturnValue:
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return page(load(token), done="expired", code=400)
    return page(set_unsubscribed(token, False), done="resubscribed")


@bp.post("/u/<token>/preferences")
def preferences(token: str) -> ResponseReturnValue:
    """How much mail: results per trick, per hand or none; a daily digest; the time zone;
    the review of each finished game (off: none of the player's decisions is weighed)."""
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return page(load(token), done="expired", code=400)
    notify = request.form.get("notify", "")
    zone = known_zone(request.form.get("time_zone", ""))
    if notify not in NOTIFY_CHOICES or zone is None:
        return page(load(token), done="bad_preferences", code=400)
    with transaction(db_engine()) as session:
        player = _player(session, token)
        if player is None:
            return page(None)
        player.notify, player.time_zone = notify, zone
        player.digest = request.form.get("digest") == "on"
        player.review_games = request.form.get("review_games") == "on"
        session.add(player)
        who = _who(token, player)
    return page(who, done="preferences_saved")
