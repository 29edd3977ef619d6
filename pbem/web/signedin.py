"""Who is signed in (the Flask session's player), and the way to sign in that comes back to a
page, for any page: apart from the accounts pages (pbem.web.accounts), which import the play
pages, so that those may ask it too."""

from __future__ import annotations

from flask import flash, redirect, session, url_for
from flask.typing import ResponseReturnValue

from pbem.present.i18n import _
from pbem.present.signin import local_path
from pbem.service import accounts, sessions
from pbem.store.app_engine import db_engine
from pbem.store.models import Player
from pbem.web.i18n import player_language

PLAYER_KEY = "player_id"
SESSION_KEY = "sid"  # the random id of the session's row (pbem.service.sessions)


def signed_in_player() -> Player | None:
    """The signed-in player, or None (not signed in, signed out since, possibly from another
    browser, the session's lifetime over, or the player gone)."""
    player_id, raw = session.get(PLAYER_KEY), session.get(SESSION_KEY)
    if not isinstance(player_id, int) or not isinstance(raw, str):
        return None
    player = sessions.player_of(db_engine(), raw, player_id)
    if player is None or accounts.is_former(player):
        return None
    player_language(player)  # their pages in their language (no query: the player is loaded)
    return player


def signin_url(next_path: str) -> str:
    """/signin, bringing the player back to `next_path` (a path of ours) once signed in;
    anything else is left out, as /signin would drop it."""
    return url_for("accounts.signin_form", next=local_path(next_path))


def sign_in_again(page: str, to_do: str) -> ResponseReturnValue:
    """The answer to a form's POST that needs a signed-in player when there is none (their
    session expired while the form was open): /signin, coming back to the form's `page`,
    with a sentence saying why ("Sign in again to `to_do`"). Nothing is done, so this may
    come before the CSRF check: a stale form's token fails with the session it belonged to."""
    flash(_("Sign in again to %(to_do)s: the link we email you brings you back to where you "
            "were.", to_do=to_do))
    return redirect(signin_url(page), code=303)
