"""What a player can do from their private view besides moving: nudge the player everyone
waits for, set or clear away dates (vacation), and resume a paused game. Each is a CSRF-
protected POST under /s/<token>/, authenticated by the private link; each answers by going
back to the view with a sentence."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, flash, redirect, request, url_for
from flask.typing import ResponseReturnValue

from pbem import service
from pbem.engine import list_in_words
from pbem.store.app_engine import db_engine
from pbem.web.play import check_csrf, load_seat
from pbem.zones import day_text

bp = Blueprint("seat_actions", __name__)


def back(token: str, message: str) -> ResponseReturnValue:
    """Back to the private view, with a sentence."""
    flash(message)
    return redirect(url_for("play.seat_page", token=token), code=303)


@bp.post("/s/<token>/nudge")
def nudge(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    t = page.token
    try:
        nudged = service.nudge(service.Context(engine=db_engine()), t.game_id or 0,
                               t.seat_no or 0, player_id=t.player_id)
    except service.PlayerMistake as exc:
        return back(token, str(exc))
    names = list_in_words([page.table.names[s] for s in nudged])
    return back(token, f"We sent {names} a friendly nudge." if nudged
                 else "Nobody needed a nudge just now.")


@bp.post("/s/<token>/away")
def away(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    try:
        start = date.fromisoformat(request.form.get("start", ""))
        end = date.fromisoformat(request.form.get("end", ""))
    except ValueError:
        return back(token, "Give both away dates, like 2026-12-20 and 2026-12-28.")
    try:
        service.set_away(service.Context(engine=db_engine()), page.token.player_id or 0,
                         start, end)
    except service.PlayerMistake as exc:
        return back(token, str(exc))
    return back(token, f"Noted: you are away from {day_text(start)} to {day_text(end)}. "
                        "Your deadlines in every game follow each game's holiday rule.")


@bp.post("/s/<token>/away/clear")
def back_again(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    removed = service.clear_away(service.Context(engine=db_engine()), page.token.player_id or 0)
    return back(token, "Welcome back: your away dates are cleared." if removed
                 else "You had no away dates.")


@bp.post("/s/<token>/mail-ok")
def mail_again(token: str) -> ResponseReturnValue:
    """The player says their address works again (after a bounce marked it failing)."""
    check_csrf()
    page = load_seat(token)
    from pbem.mail.outbox import reset_player

    reset_player(db_engine(), page.token.player_id or 0)
    return back(token, "Thanks: we will email you again.")


@bp.post("/s/<token>/resume")
def resume(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    try:
        outcome = service.resume_game(service.Context(engine=db_engine()),
                                      page.token.game_id or 0)
    except service.PlayerMistake as exc:
        return back(token, str(exc))
    if outcome.duplicate:
        return back(token, outcome.message)
    return back(token, "The game goes on: everyone waited for has a fresh deadline.")
