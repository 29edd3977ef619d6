"""The viewer's language on every page: Flask-Babel picks it, pbem.present.i18n writes in it.

Chosen, first to last: what the page asks for (`g.language`, e.g. a private page in its
seat's player's language), the signed-in player's stored language (kept in the Flask session
at sign-in and by the switch, so no page needs a query for it), the `language` cookie set by
the footer switch and /me, then the browser's Accept-Language; English when none of them is a
language we write in. An unknown or malformed tag anywhere is English, never an error.

The switch (POST /language, CSRF-checked; GET changes nothing) sets the cookie and, for a
signed-in player, their stored language (`language_chosen`), then goes back to the page it
came from: a path of this site only, anything else is the home page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from babel import dates as babel_dates
from flask import Blueprint, Flask, Response, g, redirect, request, session, url_for
from flask.typing import ResponseReturnValue
from flask_babel import Babel
from flask_wtf.csrf import generate_csrf

from pbem.present import i18n
from pbem.present.signin import local_path
from pbem.present.words import list_words
from pbem.store.app_engine import db_engine
from pbem.store.db import transaction
from pbem.store.models import Player
from pbem.zones import day_text, deadline_text, player_zone

LANGUAGE_COOKIE = "language"
SESSION_LANGUAGE = "language"  # the signed-in player's stored language, in the Flask session
COOKIE_AGE = 400 * 24 * 3600  # the longest browsers keep a cookie

bp = Blueprint("language", __name__)


def chosen_tag(value: object) -> str | None:
    """A language we write in for a typed or stored tag, else None (never an error)."""
    if not isinstance(value, str):
        return None
    return i18n.known(value[:40])


def browser_language() -> str:
    """The best of our languages for the browser's Accept-Language; English when none."""
    try:
        best = request.accept_languages.best_match(list(i18n.LANGUAGES))
    except (ValueError, TypeError):  # a header werkzeug can't read
        best = None
    return chosen_tag(best) or i18n.DEFAULT


def select_language() -> str:
    for value in (g.get("language"), session.get(SESSION_LANGUAGE),
                  request.cookies.get(LANGUAGE_COOKIE)):
        chosen = chosen_tag(value)
        if chosen:
            return chosen
    return browser_language()


def player_language(player: Player) -> None:
    """A signed-in player's page: in their stored language (no query: the player is loaded
    already), which this browser's session keeps for the pages that load no player."""
    chosen = chosen_tag(player.language)
    if chosen is None:
        return
    if session.get(SESSION_LANGUAGE) != chosen:
        session[SESSION_LANGUAGE] = chosen
    if not g.get("language"):
        i18n.set_current(chosen)


def store_language(player_id: int, language: str, chosen: bool) -> None:
    """The player's language: their own choice (`chosen`: the switch, /me) replaces any;
    someone else's (the organiser's, for an invited seat) replaces only a guess, never the
    player's own choice."""
    with transaction(db_engine()) as db:
        player = db.get(Player, player_id)
        if player is None:
            return
        if chosen:
            player.language, player.language_chosen = language, True
        elif not player.language_chosen:
            player.language = language
        else:
            return
        db.add(player)


def first_language(player_id: int, remember: bool = True) -> None:
    """At sign-in or on joining: a language chosen with the switch before (the cookie)
    becomes the player's choice, unless they chose one already; else a player whose language
    is not known yet gets the browser's (not counted as their choice). The session remembers
    their language (not for a private link's page, which signs nobody in:
    `remember=False`)."""
    with transaction(db_engine()) as db:
        player = db.get(Player, player_id)
        if player is None:
            return
        switched = chosen_tag(request.cookies.get(LANGUAGE_COOKIE))
        if switched and not player.language_chosen and player.language != switched:
            # chosen with the switch before signing in: their choice, for emails too
            player.language, player.language_chosen = switched, True
            db.add(player)
        elif player.language is None and request.headers.get("Accept-Language"):
            player.language = browser_language()
            db.add(player)
        language = chosen_tag(player.language)
    if language and remember:
        session[SESSION_LANGUAGE] = language
        if not g.get("language"):
            i18n.set_current(language)


def format_day(day: date) -> str:
    """A day as the reader's language writes it ("20 December 2026" in English, as before)."""
    if i18n.current() == i18n.DEFAULT:
        return day_text(day)
    return babel_dates.format_date(day, format="long", locale=i18n.current())


def format_deadline(when: datetime | None, time_zone: str | None) -> str | None:
    """A deadline in the reader's zone and language (English as pbem.zones writes it)."""
    if when is None or i18n.current() == i18n.DEFAULT:
        return deadline_text(when, time_zone)
    zone = player_zone(time_zone)
    local = when.astimezone(zone)
    return (f"{babel_dates.format_date(local, format='full', locale=i18n.current())}, "
            f"{babel_dates.format_time(local, format='short', locale=i18n.current())} "
            f"({zone.key})")


def names_in_words(names: Sequence[str]) -> str:
    """"Ann, Bob and Cy" in the reader's language (pbem.present.words.list_words)."""
    return list_words(names)


def _back_to() -> str:
    """Where the switch goes back to: the page it was on, if that is a path of ours."""
    return local_path(request.form.get("back")) or url_for("play.index")


@bp.post("/language")
def choose() -> ResponseReturnValue:
    """The footer switch and /me's choice: the cookie, and the signed-in player's language."""
    from pbem.web.play import check_csrf
    from pbem.web.signedin import signed_in_player

    check_csrf()
    language = chosen_tag(request.form.get("language")) or i18n.DEFAULT
    player = signed_in_player()
    if player is not None and player.id is not None:
        store_language(player.id, language, chosen=True)
        session[SESSION_LANGUAGE] = language
    response: Response = redirect(_back_to(), code=303)  # type: ignore[assignment]
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=COOKIE_AGE, samesite="Lax",
                        secure=request.is_secure, httponly=True)
    return response


def language_form() -> dict[str, object]:
    """What the footer switch needs: the languages, the current one, its CSRF token, and the
    page to come back to (its path: a query string, such as another page's `next`, is not
    carried along)."""
    return {"languages": i18n.language_names(), "current": i18n.current(),
            "csrf": generate_csrf(), "next": local_path(request.path) or ""}


def init_language(app: Flask) -> None:
    Babel(app, locale_selector=select_language,
          default_translation_directories=str(i18n.CATALOG_DIR))
    i18n.install_words(app.jinja_env)  # the same words as the emails, after Flask-Babel's
    app.jinja_env.globals.update(language_form=language_form, format_day=format_day,
                                 names_in_words=names_in_words,
                                 format_deadline=format_deadline)

    @app.before_request
    def write_in_viewers_language() -> None:
        i18n.set_current(select_language())

    @app.teardown_request
    def back_to_default(_error: BaseException | None = None) -> None:
        i18n.set_current(i18n.DEFAULT)
