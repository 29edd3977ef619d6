"""The lobby (/lobby): tables looking for players, in plain words (the rules, the pace, the
seats free, who sits there and their ratings); a signed-in player joins one with one button,
or asks for quick play ("find me a table") with a preset, a pace and how long to wait for
people before robots take the empty seats."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import generate_csrf

from pbem import service
from pbem.engine import ALL_PRESETS, PRESETS, Rules
from pbem.present.i18n import _, ngettext
from pbem.present.rules_words import preset_summary, preset_title, rules_sentences
from pbem.present.service_words import explain, explain_outcome
from pbem.service import lobby, ratings
from pbem.service.rematch import ask_rematch, may_ask, rematch_of
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Game
from pbem.web.i18n import first_language
from pbem.web.play import check_csrf
from pbem.web.play.public import game_page_with
from pbem.web.signedin import sign_in_again, signed_in_player, signin_url

bp = Blueprint("lobby", __name__)
DEFAULT_PACE, DEFAULT_WAIT = 24, 15


@dataclass(frozen=True)
class Listed:
    table: lobby.OpenTable
    title: str
    summary: str
    rules: list[str]
    players: list[tuple[str, int | None]]  # name, rating
    seated: bool  # the signed-in player sits here


def _listed(table: lobby.OpenTable, me: int | None) -> Listed:
    preset = ALL_PRESETS.get(table.preset)
    rules = Rules.from_dict(table.rules)
    players = []
    for player_id, name in table.players:
        rating = ratings.shown_rating(db_engine(), player_id, me)
        players.append((name, rating.rating if rating else None))
    return Listed(table, preset_title(preset) if preset else table.preset,
                  preset_summary(preset) if preset else "", rules_sentences(rules), players,
                  any(p == me for p, _rating in table.players))


def pace_words(hours: int) -> str:
    if hours % 24 == 0:
        return ngettext("%(num)d day per move", "%(num)d days per move", hours // 24)
    return ngettext("%(num)d hour per move", "%(num)d hours per move", hours)


def wait_words(minutes: int) -> str:
    if minutes == 0:
        return _("no wait: robots at once")
    if minutes % 60 == 0:
        return ngettext("%(num)d hour", "%(num)d hours", minutes // 60)
    return ngettext("%(num)d minute", "%(num)d minutes", minutes)


@bp.get("/lobby")
def lobby_page() -> ResponseReturnValue:
    player = signed_in_player()
    me = player.id if player else None
    tables = [_listed(t, me) for t in lobby.open_tables(service.Context(engine=db_engine()))
              if t.players]  # a table is listed once someone sits at it
    return render_template(
        "web/lobby.html", tables=tables, player=player, csrf=generate_csrf(),
        presets=[(p.name, preset_title(p)) for p in PRESETS.values() if p.rules.players == 4],
        paces=[(h, pace_words(h)) for h in lobby.PACES],
        waits=[(m, wait_words(m)) for m in lobby.WAITS], pace_words=pace_words,
        default_pace=DEFAULT_PACE, default_wait=DEFAULT_WAIT)


def _player_id() -> int | None:
    """The signed-in player's id, or None (the caller sends them to sign in again); then the
    form's CSRF token is checked."""
    player = signed_in_player()
    if player is None or player.id is None:
        return None
    check_csrf()
    return player.id


@bp.post("/lobby/<int:game_id>/join")
def join(game_id: int) -> ResponseReturnValue:
    player_id = _player_id()
    if player_id is None:
        return sign_in_again(url_for("lobby.lobby_page"), _("take a seat at a table"))
    try:
        out = lobby.join_table(service.Context(engine=db_engine()), game_id, player_id)
    except service.PlayerMistake as exc:
        flash(explain(exc))
        return redirect(url_for("lobby.lobby_page"), code=303)
    first_language(player_id)
    flash(explain_outcome(out) if out.duplicate else _joined(game_id))
    return redirect(url_for("accounts.me"), code=303)


def _joined(game_id: int) -> str:
    tables = {t.game_id for t in lobby.open_tables(service.Context(engine=db_engine()))}
    if game_id in tables:
        return _("You have a seat. The game starts when every seat is taken; we email you then.")
    return _("You took the last seat: the game has started, and your cards are on their way.")


@bp.post("/lobby/quick")
def quick() -> ResponseReturnValue:
    player_id = _player_id()
    if player_id is None:
        return sign_in_again(url_for("lobby.lobby_page"), _("find a table"))
    try:
        game_id = lobby.quick_play(service.Context(engine=db_engine()), player_id,
                                   request.form.get("preset", ""),
                                   _int(request.form.get("pace")), _int(request.form.get("wait")))
    except service.PlayerMistake as exc:
        flash(explain(exc))
        return redirect(url_for("lobby.lobby_page"), code=303)
    first_language(player_id)
    flash(_joined(game_id))
    return redirect(url_for("accounts.me"), code=303)


def _int(text: str | None) -> int:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 8 else -1


@bp.post("/games/<int:game_id>/start-now")
def start_now(game_id: int) -> ResponseReturnValue:
    """The organiser, signed in, starts their game with robots in the seats not taken."""
    player = signed_in_player()
    if player is None or player.id is None:  # signed out while the game's page was open
        return sign_in_again(url_for("play.game_page", game_id=game_id), _("start the game now"))
    check_csrf()
    try:
        lobby.start_now(service.Context(engine=db_engine()), game_id, player.id)
    except service.NotFound:
        abort(404)
    except service.NotOrganiser as exc:
        return game_page_with(game_id, explain(exc), 403)
    except service.PlayerMistake as exc:  # it started meanwhile (the last seat was taken)
        return game_page_with(game_id, explain(exc), 409)
    flash(_("The game has started: robots took the seats not taken, and the cards are dealt."))
    return redirect(url_for("play.game_page", game_id=game_id), code=303)


@bp.get("/games/<int:game_id>/rematch")
def rematch_page(game_id: int) -> ResponseReturnValue:
    """The rematch button (GET only shows it), to the game's players only; the rematch
    already asked for, if there is one."""
    player, ctx = signed_in_player(), service.Context(engine=db_engine())
    played = player is not None and player.id is not None and may_ask(ctx, game_id, player.id)
    return render_template("web/rematch.html", game_id=game_id, player=player,
                           played=played, rematch=rematch_of(ctx, game_id) if played else None,
                           csrf=generate_csrf())


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> ResponseReturnValue:
    """A player of a finished game asks to play again with the same players. Signed out
    (nothing done), to sign in and back first, before the CSRF check as the other forms."""
    player = signed_in_player()
    if player is None or player.id is None:
        flash(_("Sign in first: the link brings you back here, to press “Play again” once "
                "more."))
        return redirect(signin_url(url_for("lobby.rematch_page", game_id=game_id)), code=303)
    check_csrf()
    try:
        new_id = ask_rematch(service.Context(engine=db_engine()), game_id, player.id)
    except service.PlayerMistake as exc:
        return render_template("web/rematch.html", game_id=game_id, player=player,
                               played=False, refused=explain(exc), csrf=generate_csrf()), 403
    flash(_rematch_news(new_id, player.id))
    return redirect(url_for("play.game_page", game_id=new_id), code=303)


def _rematch_news(game_id: int, player_id: int) -> str:
    """What the player who pressed "Play again" is told on the rematch's page: whoever asked
    first organises it (and may start it now); a later asker has only accepted it."""
    with transaction(db_engine(), read_only=True) as session:
        game = session.get(Game, game_id)
    if game is None or game.status != "inviting":
        return _("The rematch has started, and this is its page.")
    if game.organiser_id == player_id:
        return _("Rematch set up, and this is its page: the other players are invited by "
                 "email; it starts when everyone has accepted, or when you start it now from "
                 "here, with robots in the seats not taken.")
    return _("You're in: someone asked for this rematch just before you, and this is its page. "
             "It starts when everyone has accepted, or when they start it now.")
