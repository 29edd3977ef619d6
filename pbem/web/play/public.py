"""The public pages: the front page, a game as anyone may see it, and its summary."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from flask import (
    abort,
    current_app,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlalchemy import func
from sqlmodel import col, select

from pbem.present import history, i18n, review, views
from pbem.present.i18n import _
from pbem.present.rules_words import rules_sentences
from pbem.present.service_words import rating_reason
from pbem.service import Context, ratings
from pbem.service.ratings import Change
from pbem.service.rematch import rematch_of
from pbem.service.reviews import Review, stored_review
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Deadline, RatedGame
from pbem.web.play.common import (
    Table,
    bp,
    load_table,
    mail_url,
)
from pbem.web.play.gathering import gathering
from pbem.web.play.kept import kept
from pbem.web.signedin import signed_in_player
from pbem.zones import player_zone

GameChanges = tuple[RatedGame | None, list[Change]]  # ratings.game_changes


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("web/index.html", mail_url=mail_url())


@bp.get("/g/<int:game_id>")
@bp.get("/games/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    """The table as an observer sees it: seats, scores, the current trick and the tricks of
    the hand so far; never a hand. A finished game shows its summary."""
    table, reviewed = _load_public(game_id)
    if table.state.game_over:
        return _summary(table, reviewed)
    return render_game(table)


def render_game(table: Table, message: str = "", code: int = 200) -> ResponseReturnValue:
    context = {**table.context, **gathering(table, signed_in_player), "mail_url": mail_url(),
               "message": message}
    context["time_left"] = seats_due(table, _signed_in_zone)
    return render_template("web/game.html", ctx=context, **context), code


def _signed_in_zone() -> str | None:
    reader = signed_in_player()
    return reader.time_zone if reader is not None else None


def game_page_with(game_id: int, message: str, code: int) -> ResponseReturnValue:
    """The game's page with a sentence on why what was asked was refused."""
    return render_game(_load_public(game_id)[0], message, code)


@bp.get("/games/<int:game_id>/summary")
def summary_page(game_id: int) -> ResponseReturnValue:
    table, reviewed = _load_public(game_id)
    if not table.state.game_over:
        return redirect(url_for("play.game_page", game_id=game_id))
    return _summary(table, reviewed)


def _load_public(game_id: int) -> tuple[Table, Review | None]:
    with transaction(db_engine(), read_only=True) as session:
        table = load_table(session, game_id, None)
        if table is None:
            abort(404)
        reviewed = stored_review(session, game_id) if table.state.game_over else None
    return table, reviewed


def _summary(table: Table, reviewed: Review | None) -> str:
    """The end of the game, rendered once per process (see kept.py): the review (done a few
    minutes after the game), the ratings and the rematch are part of what keys it."""
    game = table.game
    rating = ratings.game_changes(db_engine(), game.id or 0)
    rematch = rematch_of(Context(engine=db_engine()), game.id or 0)
    key = ("summary", game.id, game.last_seq, game.name, game.status, tuple(table.names),
           table.failing, tuple((s.seat_no, s.is_bot, s.invite_status) for s in table.seats),
           mail_url(), repr(reviewed), repr(rating), rematch)
    return kept(current_app, key, lambda: _render_summary(table, reviewed, rating, rematch))


def _worded(rating: GameChanges) -> GameChanges:
    """The rating decision with its reason (a code: pbem.service.ratings) in words."""
    decision, changes = rating
    if decision is None:
        return rating
    return decision.model_copy(update={"reason": rating_reason(decision.reason)}), changes


def _render_summary(table: Table, reviewed: Review | None, rating: GameChanges,
                    rematch: int | None) -> str:
    """Standings, the score sheet, a chart, each hand as the sheet tells it with a link to
    its own page, trick by trick (pbem.web.hands): from the state alone, not the log."""
    state, names = table.state, table.names
    rows = views.score_rows(state.totals, state.totals, names, None, state.winners,
                            table.failing)
    context = {
        **table.context, "mail_url": mail_url(),
        "standings": sorted(rows, key=lambda r: r.total),
        "chart": history.score_chart(state.score_sheet, names, state.rules.target),
        "hands": history.hand_index(state, names),
        "settlement": views.settlement_lines(state, names),
        "rules": rules_sentences(state.rules),
        "review": review.by_hand(reviewed.verdicts, state.rules, names) if reviewed else {},
        "review_status": reviewed.status if reviewed else "pending",
        "review_off": [names[s] for s in sorted(reviewed.opted_out)] if reviewed else [],
        "review_samples": review.samples(reviewed.verdicts) if reviewed else 0,
        "rating": _worded(rating),
        "rematch": rematch,
        "ended_by_agreement": state.ended_by_agreement, "hands_played": len(state.sheet),
    }
    return render_template("web/summary.html", ctx=context, **context)


# --- time left to move ----------------------------------------------------------------------

WEEK = timedelta(days=6)


def pending_deadlines(game_id: int) -> dict[int, datetime]:
    """Each seat's pending deadline in the game (the earliest, if it has more than one)."""
    with transaction(db_engine(), read_only=True) as session:
        rows = session.exec(select(Deadline.seat_no, func.min(Deadline.due_at)).where(
            Deadline.game_id == game_id, Deadline.status == "pending")
            .group_by(col(Deadline.seat_no))).all()
    return {seat: due for seat, due in rows if due is not None}


def time_left(due: datetime, time_zone: str | None,
              now: datetime | None = None) -> dict[str, str]:
    """A deadline as the pages show it beside a name: "due in 3 hours, Tuesday 18:00" in the
    reader's language and time zone (written by the server: right without JavaScript), with
    the moment itself for a `<time datetime>`."""
    now = now or datetime.now(UTC)
    due = due if due.tzinfo else due.replace(tzinfo=UTC)
    zone = player_zone(time_zone)
    pattern = "EEEE HH:mm" if due - now < WEEK else "EEEE d MMMM HH:mm"
    when = i18n.format_datetime(due, zone, format=pattern)
    if due <= now:
        text = _("overdue since %(when)s", when=when)
    else:
        text = _("due in %(left)s, %(when)s",
                 left=i18n.format_timedelta((due - now).total_seconds()), when=when)
    return {"iso": due.astimezone(UTC).isoformat(timespec="seconds"), "text": text}


def seats_due(table: Table, reader_zone: Callable[[], str | None]) -> list[dict[str, object]]:
    """Whoever is to move in an active game, each with their time left in the reader's zone
    (`reader_zone`, asked only when someone has a deadline); [] when nobody is."""
    if table.game.status != "active" or not table.state.to_move or table.game.id is None:
        return []
    due = pending_deadlines(table.game.id)
    moving = [s for s in table.state.to_move if s in due]
    if not moving:
        return []
    time_zone = reader_zone()
    return [{"seat": s, "name": table.names[s], "is_you": s == table.seat,
             **time_left(due[s], time_zone)} for s in moving]
