"""One hand of a finished game on its own page (/games/<id>/hands/<n>): the deal, the passes
and every trick, which the summary no longer carries for every hand at once (a 67-hand game's
was over a megabyte of HTML, most of its first view's time). Only once the game is over: the
deal shows every card. Rendered once per process and kept (pbem.web.play.kept)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from pbem.engine import decode_event
from pbem.present import history, review
from pbem.service.reviews import Review, stored_review
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.events import load_payloads
from pbem.web.play.common import Table, load_table
from pbem.web.play.kept import kept

bp = Blueprint("hands", __name__)


@bp.get("/games/<int:game_id>/hands/<int:number>")
def hand_page(game_id: int, number: int) -> ResponseReturnValue:
    with transaction(db_engine(), read_only=True) as session:
        table = load_table(session, game_id, None)
        if table is None:
            abort(404)
        if not table.state.game_over:  # the deal shows every card: not while it is played
            return redirect(url_for("play.game_page", game_id=game_id))
        reviewed = stored_review(session, game_id)
    if not 1 <= number <= len(history.hand_index(table.state, table.names)):
        abort(404)  # no such hand: answered without reading the log
    game = table.game
    key = ("hand", game.id, game.last_seq, number, game.name, tuple(table.names),
           repr(reviewed))
    return kept(current_app, key, lambda: _render_hand(table, number, reviewed))


def _render_hand(table: Table, number: int, reviewed: Review | None) -> str:
    """The hand replayed from the log (the hands before it folded, not recorded)."""
    game_id, names, state = table.game.id, table.names, table.state
    assert game_id is not None
    with transaction(db_engine(), read_only=True) as session:
        payloads = load_payloads(session, game_id)
    # decoded as the replay reaches them: it stops at the next hand's deal
    events = (decode_event(payload) for seq, payload in payloads if seq <= table.game.last_seq)
    (hand,) = history.replay_hands(events, names, only=number)
    return render_template(
        "web/hand.html", game=table.game, names=names, h=hand,
        last=len(history.hand_index(state, names)),
        review=review.by_hand(reviewed.verdicts, state.rules, names) if reviewed else {})
