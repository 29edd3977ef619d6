"""The public pages: the front page, a game as anyone may see it, and its summary."""

from __future__ import annotations

from flask import (
    abort,
    redirect,
    render_template,
    url_for,
)
from flask.typing import ResponseReturnValue

from pbem.engine import (
    Event,
)
from pbem.present import history, review, views
from pbem.service import Context, ratings
from pbem.service.rematch import rematch_of
from pbem.service.reviews import Review, stored_review
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.web.play.common import (
    Table,
    bp,
    load_table,
    mail_url,
)


@bp.get("/")
def index() -> ResponseReturnValue:
    return render_template("web/index.html", mail_url=mail_url())


@bp.get("/g/<int:game_id>")
@bp.get("/games/<int:game_id>")
def game_page(game_id: int) -> ResponseReturnValue:
    """The table as an observer sees it: seats, scores, the current trick and the tricks of
    the hand so far; never a hand. A finished game shows its summary."""
    table, events, reviewed = _load_public(game_id)
    if table.state.game_over:
        return _summary(table, events, reviewed)
    context = {**table.context, "mail_url": mail_url()}
    return render_template("web/game.html", ctx=context, **context)


@bp.get("/games/<int:game_id>/summary")
def summary_page(game_id: int) -> ResponseReturnValue:
    table, events, reviewed = _load_public(game_id)
    if not table.state.game_over:
        return redirect(url_for("play.game_page", game_id=game_id))
    return _summary(table, events, reviewed)


def _load_public(game_id: int) -> tuple[Table, list[Event], Review | None]:
    with transaction(db_engine(), read_only=True) as session:
        table = load_table(session, game_id, None)
        if table is None:
            abort(404)
        over = table.state.game_over
        events = load_events(session, game_id) if over else []
        reviewed = stored_review(session, game_id) if over else None
    return table, events, reviewed


def _summary(table: Table, events: list[Event], reviewed: Review | None) -> ResponseReturnValue:
    """The end of the game: standings, the score sheet, a chart, every hand trick by trick."""
    state, names = table.state, table.names
    rows = views.score_rows(state.totals, state.totals, names, None, state.winners,
                            table.failing)
    context = {
        **table.context, "mail_url": mail_url(),
        "standings": sorted(rows, key=lambda r: r.total),
        "chart": history.score_chart(state.score_sheet, names, state.rules.target),
        "hands": history.replay_hands(events, names),
        "settlement": views.settlement_lines(state, names),
        "rules": state.rules.describe(),
        "review": review.by_hand(reviewed.verdicts, state.rules, names) if reviewed else {},
        "review_status": reviewed.status if reviewed else "pending",
        "review_off": [names[s] for s in sorted(reviewed.opted_out)] if reviewed else [],
        "review_samples": review.samples(reviewed.verdicts) if reviewed else 0,
        "rating": ratings.game_changes(db_engine(), table.game.id or 0),
        "rematch": rematch_of(Context(engine=db_engine()), table.game.id or 0),
    }
    return render_template("web/summary.html", ctx=context, **context)
