"""Every word a person reads, in the reader's language (issue 34).

The catalogs are gettext files, one per language: pbem/translations/<lang>/LC_MESSAGES/
messages.po (made and kept by `pybabel extract / update`, see docs/translating.md; compiled
to .mo by the package build, or read from the .po when no up-to-date .mo is beside it).

The language being written in is a context variable: a web request sets it from the viewer
(pbem.web.i18n: signed-in choice, the footer switch, Accept-Language); a mail is rendered
inside `using(recipient's language)`. Code marks words with `_` / `ngettext` (and `lazy` for
module-level words read later); templates with `{% trans %}` and `_()` (the same functions
are installed in both Jinja environments). A message missing from a catalog falls back to its
English, message by message; an unknown or malformed language tag falls back to English.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta, tzinfo
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel import dates as babel_dates
from babel import numbers as babel_numbers
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import LazyProxy
from jinja2 import Undefined, pass_context
from markupsafe import Markup, escape

from pbem.roster import SeatLabel

DEFAULT = "en"
# The languages people can choose, in the order the switch lists them, each in its own name.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "it": "Italiano",
    "nl": "Nederlands",
}
CATALOG_DIR = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "messages"
_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$")

_current: ContextVar[str] = ContextVar("pbem_language", default=DEFAULT)
# Catalogs installed by code rather than read from files: the pseudo-locale of the tests.
_installed: dict[str, _gettext.NullTranslations] = {}


def normalise(tag: str | None) -> str:
    """A language we write in for `tag` ("de-AT" -> "de", "FR" -> "fr"); English for an
    unknown, empty or malformed tag, never an error."""
    if not tag or len(tag) > 35 or not _TAG.match(tag.strip()):
        return DEFAULT
    primary = re.split(r"[-_]", tag.strip())[0].lower()
    if primary in LANGUAGES or primary in _installed:
        return primary
    return DEFAULT


def known(tag: str | None) -> str | None:
    """`normalise` without the fallback: None when we do not write in `tag`'s language."""
    if not tag:
        return None
    language = normalise(tag)
    return language if language != DEFAULT or tag.strip().lower().startswith("en") else None


def current() -> str:
    """The language being written in now."""
    return _current.get()


@contextmanager
def using(language: str | None) -> Iterator[str]:
    """Write in `language` (normalised) inside the block: a mail for its recipient."""
    chosen = normalise(language)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def set_current(language: str | None) -> str:
    """Write in `language` from now on in this context (a web request sets it once)."""
    chosen = normalise(language)
    _current.set(chosen)
    return chosen


def install(language: str, catalog: _gettext.NullTranslations) -> None:
    """Add a catalog made in code (the tests' pseudo-locale) under `language`."""
    _installed[language] = catalog


def uninstall(language: str) -> None:
    _installed.pop(language, None)


# The messages as written (English): one catalog for every call, which has no state to change.
_AS_WRITTEN = _gettext.NullTranslations()

# A .mo at most this much older than its .po was installed with it (installing a wheel gives
# each file the time it was written, the .mo just before the .po), not outdated by an edit.
_INSTALLED_TOGETHER = 2.0


@cache
def _file_catalog(language: str) -> _gettext.NullTranslations:
    folder = CATALOG_DIR / language / "LC_MESSAGES"
    po_file, mo_file = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo_file.is_file() and (not po_file.is_file() or mo_file.stat().st_mtime
                              >= po_file.stat().st_mtime - _INSTALLED_TOGETHER):
        with mo_file.open("rb") as handle:
            return _gettext.GNUTranslations(handle)
    if po_file.is_file():
        return _compiled(po_file)
    return _gettext.NullTranslations()


def _compiled(po_file: Path) -> _gettext.NullTranslations:
    """A .po read as a catalog (no .mo built yet: a checkout before `pip install`)."""
    with po_file.open("rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def catalog(language: str | None = None) -> _gettext.NullTranslations:
    """The catalog of `language` (default: the current one); English is the messages as
    written."""
    language = language or current()
    if language in _installed:
        return _installed[language]
    if language == DEFAULT or language not in LANGUAGES:
        return _AS_WRITTEN
    return _file_catalog(language)


def label(value: Any) -> Any:
    """A seat's own label ("Robot 2", pbem.roster.SeatLabel) in the current language; any
    other value as it is."""
    if isinstance(value, SeatLabel):
        if value.kind == "robot":
            return gettext("Robot %(number)s", number=value.number)
        return gettext("Open seat %(number)s", number=value.number)
    return value


def _fill(text: str, values: dict[str, Any]) -> str:
    return text % {key: label(value) for key, value in values.items()} if values else text


def gettext(message: str, **values: Any) -> str:
    """`message` in the current language, with `%(name)s` filled from `values`."""
    return _fill(catalog().gettext(message), values)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form for `n` in the current language; `%(num)d` is `n`."""
    values.setdefault("num", n)
    return _fill(catalog().ngettext(singular, plural, n), values)


def pgettext(context: str, message: str, **values: Any) -> str:
    """`message` in `context` (a word with two meanings in English: "pass" the cards, "pass"
    a bid)."""
    return _fill(catalog().pgettext(context, message), values)


_ = gettext


def markup(message: str, **values: Any) -> Markup:
    """`message` in the current language for HTML built in Python, as a template's `_()`
    gives it: the words trusted (they are ours, as in the templates), each value (a name a
    player typed, a seat's label) escaped."""
    return Markup(_fill(catalog().gettext(message),
                        {key: escape(label(value)) for key, value in values.items()}))


def lazy(message: str, **values: Any) -> Any:
    """`message` translated when it is read as text (module-level words: labels, menus)."""
    return LazyProxy(gettext, message, enable_cache=False, **values)


def direction(language: str | None = None) -> str:
    """"rtl" for a right-to-left language, else "ltr": the `dir` of a page or email."""
    try:
        locale = Locale.parse(language or current())
    except (UnknownLocaleError, ValueError):
        return "ltr"
    return "rtl" if locale.character_order == "right-to-left" else "ltr"


def _locale() -> str:
    language = current()
    return language if language in LANGUAGES else DEFAULT


def format_datetime(moment: datetime, zone: tzinfo | str | None = None,
                    format: str = "medium") -> str:
    """A date and time as the reader's language writes it, in the reader's time zone."""
    return babel_dates.format_datetime(moment, format=format, tzinfo=_zone(zone),
                                       locale=_locale())


def format_date(moment: datetime, zone: tzinfo | str | None = None,
                format: str = "medium") -> str:
    local = moment.astimezone(_zone(zone)) if moment.tzinfo else moment
    return babel_dates.format_date(local, format=format, locale=_locale())


def format_time(moment: datetime, zone: tzinfo | str | None = None,
                format: str = "short") -> str:
    return babel_dates.format_time(moment, format=format, tzinfo=_zone(zone), locale=_locale())


def format_timedelta(seconds: float) -> str:
    """"3 hours", "2 Tage": a span in words, to the minute."""
    return babel_dates.format_timedelta(timedelta(seconds=seconds), granularity="minute",
                                        threshold=1.0,
                                        locale=_locale())


def format_number(n: float) -> str:
    return babel_numbers.format_decimal(n, locale=_locale())


def _zone(zone: tzinfo | str | None) -> tzinfo | None:
    if zone is None or isinstance(zone, tzinfo):
        return zone
    return babel_dates.get_timezone(zone)


def language_names() -> dict[str, str]:
    """Each language we write in, named in itself (the footer switch, /me)."""
    return dict(LANGUAGES)


def _filled_in_template(context: Any, form: str, variables: dict[str, Any]) -> Any:
    """What Jinja's new-style gettext does (escape the values in HTML, then fill), with a
    seat's label in the reader's language."""
    if context.eval_ctx.autoescape:
        form = Markup(form)
    if not variables and "%" not in form:  # most messages: `%` would only copy them
        return form
    return form % {key: label(value) for key, value in variables.items()}


def _shown(value: Any) -> Any:
    """What a template's `{{ value }}` writes: a seat's label in the reader's language; a
    page's plain Undefined (`{{ ' you' if is_you }}` when not) as nothing, as Jinja would
    write it, without the escaping's probe of it for `__html__` (an AttributeError raised and
    caught, ~5 µs, a dozen times a page). The emails' StrictUndefined still fails."""
    if type(value) is Undefined:
        return ""
    return label(value)


@pass_context
def _template_gettext(context: Any, message: str, **variables: Any) -> Any:
    return _filled_in_template(context, catalog().gettext(message), variables)


@pass_context
def _template_ngettext(context: Any, singular: str, plural: str, n: int,
                       **variables: Any) -> Any:
    variables.setdefault("num", n)
    return _filled_in_template(context, catalog().ngettext(singular, plural, n), variables)


@pass_context
def _template_pgettext(context: Any, where: str, message: str, **variables: Any) -> Any:
    return _filled_in_template(context, catalog().pgettext(where, message), variables)


def install_words(env: Any) -> None:
    """Give a Jinja environment (with jinja2.ext.i18n) these functions: `{% trans %}`, `_()`,
    `ngettext()` and `pgettext()` in templates write in the current language, autoescaped in
    HTML (new-style gettext), and `page_language()` / `text_direction()` for `<html lang dir>`."""
    # Jinja's new-style callables fill (and escape) the placeholders themselves: the functions
    # they wrap return the message unfilled.
    env.newstyle_gettext = True  # {% trans %} passes its values to the functions below
    env.globals.update(gettext=_template_gettext, _=_template_gettext,
                       ngettext=_template_ngettext, pgettext=_template_pgettext,
                       seat_label=label)
    env.finalize = _shown  # every {{ value }}: a seat's label in the reader's language
    env.globals.update(page_language=current, text_direction=direction,
                       format_datetime=format_datetime, format_date=format_date,
                       format_time=format_time, format_number=format_number,
                       language_names=language_names)
