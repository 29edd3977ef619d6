"""The public pages: the front page, a game as anyone may see it, and its summary."""

from __future__ import annotations

from flask import (
    abort,
    current_app,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue

from pbem.present import history, review, views
from pbem.present.rules_words import rules_sentences
from pbem.present.service_words import rating_reason
from pbem.service import Context, ratings
from pbem.service.ratings import Change
from pbem.service.rematch import rematch_of
from pbem.service.reviews import Review, stored_review
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import RatedGame
from pbem.web.play.common import (
    Table,
    bp,
    load_table,
    mail_url,
)
from pbem.web.play.gathering import gathering
from pbem.web.play.kept import kept
from pbem.web.signedin import signed_in_player

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
    return render_template("web/game.html", ctx=context, **context), code


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
