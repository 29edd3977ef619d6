"""GET /me/data: "Download my data" (issue 35). The signed-in player's data as one JSON file
(pbem.service.export), each game with a readable record (templates/web/record.txt). Reading
only: a GET that changes nothing; sent only to a signed-in player (signing in proves their
address), and the `export` reply mails a sign-in link that comes here (pbem.mail.export)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, redirect, render_template
from flask.typing import ResponseReturnValue

from pbem.engine import Card
from pbem.present import history
from pbem.present.rules_words import rules_sentences
from pbem.service import Context
from pbem.service.export import GameData, player_data
from pbem.store.app_engine import db_engine
from pbem.web.signedin import signed_in_player, signin_url

bp = Blueprint("export", __name__)
PATH = "/me/data"


@bp.get(PATH)
def my_data() -> ResponseReturnValue:
    player = signed_in_player()
    if player is None or player.id is None:
        return redirect(signin_url(PATH), code=303)
    exported = player_data(Context(engine=db_engine()), player.id)
    for game in exported.games:
        game.data["record"] = record(game)
    body = json.dumps(exported.data, ensure_ascii=False, indent=2, default=str)
    response = Response(body + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="hearts-data-{player.id}.json"')
    response.headers["Cache-Control"] = "no-store"
    return response


def record(game: GameData) -> str:
    """The game in words: its rules, players, the player's moves, the scores, and for a
    finished game every hand trick by trick (as its public summary shows them)."""
    return render_template(
        "web/record.txt", game=game.data, names=game.names, seat=game.seat_no,
        rules=rules_sentences(game.state.rules), moves=[_move(m) for m in game.data["moves"]],
        hands=history.replay_hands(game.log, game.names) if game.log else [],
        totals=list(game.state.totals)).strip() + "\n"


def _move(move: dict[str, Any]) -> dict[str, Any]:
    """A move's fields with its cards as symbols (Q♠) for the record."""
    cards = move.get("cards") or ([move["card"]] if move.get("card") else [])
    return {**move, "symbols": [Card.from_code(c).symbol for c in cards]}
