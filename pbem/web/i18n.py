"""The viewer's language on every page: Flask-Babel picks it, pbem.present.i18n writes in it.

Chosen, first to last: what the page asks for (`g.language`, e.g. a private page in its
seat's player's language), the signed-in player's choice (a `language` cookie set by the
footer switch and /me), then the browser's Accept-Language; English when none of them is a
language we write in."""

from __future__ import annotations

from flask import Flask, g, request
from flask_babel import Babel

from pbem.present import i18n

LANGUAGE_COOKIE = "language"


def select_language() -> str:
    chosen = g.get("language") or request.cookies.get(LANGUAGE_COOKIE)
    if chosen and i18n.known(chosen):
        return i18n.normalise(chosen)
    best = request.accept_languages.best_match(list(i18n.LANGUAGES))
    return best or i18n.DEFAULT


def init_language(app: Flask) -> None:
    Babel(app, locale_selector=select_language,
          default_translation_directories=str(i18n.CATALOG_DIR))
    i18n.install_words(app.jinja_env)  # the same words as the emails, after Flask-Babel's

    @app.before_request
    def write_in_viewers_language() -> None:
        i18n.set_current(select_language())

    @app.teardown_request
    def back_to_default(_error: BaseException | None = None) -> None:
        i18n.set_current(i18n.DEFAULT)
