"""The pseudo-language "xx": every marked message comes out wrapped in ⟦ ⟧ with its vowels
accented ("⟦Yóúr túrn ín Demo⟧"), placeholders, tags and entities left as they are. What a
page or email shows outside the brackets was never marked: `leaks` finds the English words
left there, once names, codes, numbers, URLs and the markup are taken away."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable
from html import unescape
from html.parser import HTMLParser

import pytest
from babel import Locale, localedata

from pbem.present.i18n import LANGUAGES

PSEUDO = "xx"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans("aeiouAEIOUyY", "áéíóúÁÉÍÓÚýÝ")
# Not to be touched inside a message: placeholders, `%%`, tags, entities, {braces}.
_KEEP = re.compile(r"(%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[sd%]|<[^>]*>|&#?\w+;|\{[^}]*\})")


def decorate(message: str) -> str:
    """A message as the pseudo-language writes it."""
    if not message:
        return message
    parts = _KEEP.split(message)
    accented = [part if index % 2 else part.translate(_ACCENTS)
                for index, part in enumerate(parts)]
    return f"{OPEN}{''.join(accented)}{CLOSE}"


class PseudoCatalog(gettext.NullTranslations):
    """Every message decorated; plural forms chosen as in English."""

    def gettext(self, message: str) -> str:
        return decorate(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return decorate(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return decorate(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return decorate(msgid1 if n == 1 else msgid2)


# Babel's own words for the pseudo-language (a date, "A, B and C") come from this locale's
# data: Greek, an alphabet the detector never takes for English, where English data would
# leave "and" or "Monday" behind as if they were leaks.
BABEL_STAND_IN = "el"


def teach_babel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel knows "xx" (as it knows each language we write in): code formatting with
    `locale=i18n.current()` works in the pseudo-language too."""
    exists, data = localedata.exists, localedata.get_locale_data
    monkeypatch.setattr(localedata, "exists", lambda name: name == PSEUDO or exists(name))
    monkeypatch.setattr(localedata, "get_locale_data",
                        lambda name: data(BABEL_STAND_IN if name == PSEUDO else name))


# -- finding what was not decorated --------------------------------------------------------

_SKIPPED_TAGS = {"script", "style", "template", "svg", "head"}
_SHOWN_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label"}
_BUTTON_TYPES = {"submit", "button", "reset"}


class _Visible(HTMLParser):
    """The text a reader sees in a page or an HTML email: text nodes (not in script, style,
    head but its title) and the attributes shown (title, alt, placeholder, aria-label, a
    button's value)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self.skipping.append(tag)
        if tag == "title":
            self.skipping.append("(shown)")
        values = dict(attrs)
        for name, value in attrs:
            if value and name in _SHOWN_ATTRIBUTES:
                self.parts.append(value)
        if tag == "input" and values.get("type") in _BUTTON_TYPES and values.get("value"):
            self.parts.append(values["value"] or "")
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] in (tag, "(shown)") and tag in (
                *_SKIPPED_TAGS, "title"):
            self.skipping.pop()
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skipping or self.skipping[-1] == "(shown)":
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


_BRACKETED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_URL = re.compile(r"(?:https?|mailto):\S+|www\.\S+|\S+@\S+|(?<!\w)/[\w/<>.?=&%+-]*")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_DOMAIN = re.compile(r"[A-Za-z]\.[A-Za-z]")
# Written in English by Babel where the language has no locale data (the pseudo-language
# formats dates as English does); in a real language Babel writes them in it.
_DATE_WORDS = frozenset(
    word.lower() for kind in ("months", "days") for context in ("format", "stand-alone")
    for width in ("wide", "abbreviated") for word in getattr(Locale("en"), kind)[context][
        width].values()
) | {"am", "pm", "utc", "gmt", "at"} | {
    f"{unit}{plural}" for unit in ("second", "minute", "hour", "day", "week", "month", "year")
    for plural in ("", "s")} | {"sec", "min", "hr", "hrs"}
# Not English words: the name of the software, the stand-in value of
# tests/i18n/test_pseudo_locale.py, each language's name in itself (the language switch).
ALLOWED = frozenset({"pbem", "thing", "things"}) | {
    word.lower() for name in LANGUAGES.values() for word in name.split()}


# Lines machines read, left in English on purpose: the cut line above which the reply reader
# takes a reply (pbem.mail.sending.MARKER, pbem.mailin.parse.MARKER).
MACHINE_LINES = ("--- Reply above this line ---",)


def strip_decorated(text: str) -> str:
    """The text with every decorated message (nested ones too) taken out."""
    while True:
        shorter = _BRACKETED.sub(" ", text)
        if shorter == text:
            return shorter
        text = shorter


def _without_names(text: str, names: Iterable[str]) -> str:
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", text)
    return text


def leaks(text: str, *, html: bool = False, names: Iterable[str] = ()) -> list[str]:
    """The English words left undecorated in `text` (an email's text part, or a page / an
    HTML part when `html`), in order, each once."""
    shown = unescape(visible_text(text)) if html else text
    for line in MACHINE_LINES:
        shown = shown.replace(line, " ")
    shown = _without_names(strip_decorated(shown), names)
    shown = _URL.sub(" ", shown)
    found: dict[str, None] = {}
    for chunk in shown.split():
        if any(ch.isdigit() or ch in "_@=" for ch in chunk) or _DOMAIN.search(chunk):
            continue  # codes, tokens, times, card codes (QS, 10H, 2C), host names
        for word in _WORD.findall(chunk):
            if _is_word(word):
                found.setdefault(word, None)
    return list(found)


_CARD_CODE = re.compile(r"^(?:[2-9TJQKA]|10)[CDHS]$")
_STAND_IN = re.compile(r"(?:thing)+s?")  # the stand-in value, upper-cased and joined too


def _is_word(word: str) -> bool:
    """An English word: ASCII letters (a word with other letters is not English: "Español"),
    two or more, not a card code, a date word or an allowed name."""
    bare = word.strip("'’")
    if len(bare) < 2 or not bare.isascii() or _CARD_CODE.match(bare):
        return False
    lower = bare.lower()
    return (lower not in _DATE_WORDS and lower not in ALLOWED
            and not _STAND_IN.fullmatch(lower))


def report(found: dict[str, list[str]], first: int = 12) -> str:
    """"where: N words: a, b, c ..." per page or email, the biggest first."""
    lines = [f"{where}: {len(words)} word(s): {', '.join(words[:first])}"
             f"{' ...' if len(words) > first else ''}"
             for where, words in sorted(found.items(), key=lambda item: -len(item[1]))
             if words]
    total = sum(len(words) for words in found.values())
    return f"{len(lines)} with English left, {total} words in all:\n" + "\n".join(lines)
