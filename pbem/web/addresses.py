"""Adding another address: the form on the private view (POST /s/<token>/address mails a
confirmation link to the new address) and the link's page (/a/<signed>: GET only shows a
button, since mail scanners open links; the POST adds the address)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from pbem.mail.addresses import AddressRefused, confirm_address, request_address, unsign
from pbem.mail.compose import MailSettings
from pbem.present.i18n import _
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Player
from pbem.web.play import check_csrf, load_seat
from pbem.web.seat_actions import back

bp = Blueprint("addresses", __name__)
TEMPLATE = "web/address.html"


@bp.post("/s/<token>/address")
def add(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    with transaction(db_engine()) as session:
        player = session.get(Player, page.token.player_id)
        if player is None:
            return back(token, _("This seat has no player."))
        try:
            said = request_address(session, MailSettings.from_config(current_app.config),
                                   current_app.config["SECRET_KEY"], player,
                                   request.form.get("address", ""))
        except AddressRefused as exc:
            return back(token, str(exc))
    return back(token, said)


@bp.get("/a/<signed>")
def confirm_page(signed: str) -> ResponseReturnValue:
    found = unsign(current_app.config["SECRET_KEY"], signed)
    if found is None:
        return render_template(TEMPLATE, state="unknown"), 404
    return render_template(TEMPLATE, state="ask", address=found[1], csrf=generate_csrf())


@bp.post("/a/<signed>")
def confirm(signed: str) -> ResponseReturnValue:
    check_csrf()
    found = unsign(current_app.config["SECRET_KEY"], signed)
    if found is None:
        return render_template(TEMPLATE, state="unknown"), 404
    try:
        with transaction(db_engine()) as session:
            said = confirm_address(session, *found)
    except AddressRefused as exc:
        return render_template(TEMPLATE, state="refused", message=str(exc)), 409
    return render_template(TEMPLATE, state="done", message=said)
