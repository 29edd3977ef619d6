"""What a player can do from their private view besides moving: nudge the player everyone
waits for, set or clear away dates (vacation), resume a paused game, take their seat back
from the robot holding it, and leave the game (asked first on its own page). Each is a CSRF-
protected POST under /s/<token>/, authenticated by the private link; each answers by going
back to the view with a sentence (after leaving, the link says they left). Ending the game
early is asked first too, on its own page (its POST is the private page's vote)."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from pbem import service
from pbem.present.i18n import _
from pbem.present.refusals import mistake_words
from pbem.present.service_words import explain_outcome
from pbem.store.app_engine import db_engine
from pbem.web.i18n import format_day, names_in_words
from pbem.web.play import check_csrf, load_seat
from pbem.web.play.seat import SeatPage, end_vote_context

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
        return back(token, mistake_words(exc))
    names = names_in_words([page.table.names[s] for s in nudged])
    return back(token, _("We sent %(names)s a friendly nudge.", names=names) if nudged
                 else _("Nobody needed a nudge just now."))


@bp.post("/s/<token>/away")
def away(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    try:
        start = date.fromisoformat(request.form.get("start", ""))
        end = date.fromisoformat(request.form.get("end", ""))
    except ValueError:
        return back(token, _("Give both away dates, like 2026-12-20 and 2026-12-28."))
    try:
        service.set_away(service.Context(engine=db_engine()), page.token.player_id or 0,
                         start, end)
    except service.PlayerMistake as exc:
        return back(token, mistake_words(exc))
    return back(token, _("Noted: you are away from %(start)s to %(end)s. Your deadlines in "
                         "every game follow each game's holiday rule.",
                         start=format_day(start), end=format_day(end)))


@bp.post("/s/<token>/away/clear")
def back_again(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    removed = service.clear_away(service.Context(engine=db_engine()), page.token.player_id or 0)
    return back(token, _("Welcome back: your away dates are cleared.") if removed
                 else _("You had no away dates."))


@bp.post("/s/<token>/mail-ok")
def mail_again(token: str) -> ResponseReturnValue:
    """The player says their address works again (after a bounce marked it failing)."""
    check_csrf()
    page = load_seat(token)
    from pbem.mail.outbox import reset_player

    reset_player(db_engine(), page.token.player_id or 0)
    return back(token, _("Thanks: we will email you again."))


@bp.post("/s/<token>/resume")
def resume(token: str) -> ResponseReturnValue:
    check_csrf()
    page = load_seat(token)
    try:
        outcome = service.resume_game(service.Context(engine=db_engine()),
                                      page.token.game_id or 0)
    except service.PlayerMistake as exc:
        return back(token, mistake_words(exc))
    if outcome.duplicate:
        return back(token, explain_outcome(outcome))
    return back(token, _("The game goes on: everyone waited for has a fresh deadline."))


@bp.post("/s/<token>/back")
def take_back(token: str) -> ResponseReturnValue:
    """The "Take my seat back" button of a seat the robot holds (the player timed out)."""
    check_csrf()
    page = load_seat(token)
    t = page.token
    back_now = service.take_seat_back(service.Context(engine=db_engine()), t.game_id or 0,
                                      t.seat_no or 0)
    return back(token, _("Welcome back: your seat is yours again, and we email you when it "
                         "is your turn.") if back_now else _("Your seat is yours already."))


LEAVE_TEMPLATE = "web/leave.html"


def _may_leave(page: SeatPage) -> bool:
    return page.table.game.status in service.UNDER_WAY and not page.table.state.game_over


@bp.get("/s/<token>/leave")
def leave_page(token: str) -> ResponseReturnValue:
    """Leaving a game, asked first: GET only shows what it means and the button."""
    page = load_seat(token)
    return render_template(LEAVE_TEMPLATE, game=page.table.game, raw_token=token,
                           name=page.table.names[page.token.seat_no or 0],
                           may_leave=_may_leave(page), csrf=generate_csrf())


@bp.post("/s/<token>/leave")
def leave(token: str) -> ResponseReturnValue:
    """The player leaves: a robot plays their seat from now on (pbem.service `resign`); their
    private link then says they left."""
    check_csrf()
    page = load_seat(token)
    if not _may_leave(page):
        return back(token, _("This game is over: there is nothing to leave."))
    t = page.token
    try:
        service.resign(service.Context(engine=db_engine()), t.game_id or 0, t.seat_no or 0,
                       player_id=t.player_id)
    except service.PlayerMistake as exc:
        return back(token, mistake_words(exc))
    return redirect(url_for("play.seat_page", token=token), code=303)


END_TEMPLATE = "web/end_confirm.html"


@bp.get("/s/<token>/end/confirm")
def end_page(token: str) -> ResponseReturnValue:
    """Ending the game early, asked first (its own address: a form refused on /s/<token>/end
    goes back to the private page): GET only shows what pressing the button does (at
    once and for good when every other seat is a robot, who agree straight away; else a
    proposal the others are asked about) and the button, whose POST votes (`play.seat_end`)."""
    page = load_seat(token)
    seat = page.token.seat_no or 0
    return render_template(END_TEMPLATE, game=page.table.game, raw_token=token,
                           name=page.table.names[seat], csrf=generate_csrf(),
                           end_vote=end_vote_context(page.table, seat))
