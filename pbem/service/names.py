"""Names other players see: what a typed name may be, and the neutral names used when a seat
has none.

A name is one line of at most MAX_NAME characters (long enough for any real name, short
enough not to push a phone's page sideways). Invisible format characters (Unicode category
Cf: the bidi embeddings, overrides, isolates and marks, U+202A-202E, U+2066-2069, U+200E/F,
soft hyphens, byte-order marks, tag characters...) are refused: one of them in a name can
reverse or disguise the text around it on every page and email that shows the name. The
zero-width joiner and non-joiner are kept: Persian and Indic names and emoji need them, and
they change no direction.

Names are never made from an email address (its local part is most of the address): a seat
nobody named is "Player N" (its seat number) until its player accepts and shows their own.
"""

from __future__ import annotations

import re
import unicodedata

from pbem.service.errors import BadRequest

MAX_NAME = 60

# Names stored in the database as data (a player's or a game's name until someone chooses one,
# and the neutral name of a deleted account), the same for every reader: not messages. The
# one place the sentence check (tests/i18n) allows English in the service.
NEW_PLAYER = "New player"
FORMER_PLAYER = "Former player"
QUICK_GAME = "Quick game"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_KEPT_FORMAT = frozenset("\u200c\u200d")  # zero-width non-joiner, joiner


def one_line(value: object) -> str:
    """One line of text: control characters (and so header tricks) out, spaces collapsed."""
    return " ".join(_CONTROL.sub(" ", str(value or "")).split())


def has_invisible(text: str) -> bool:
    """Whether `text` holds an invisible format character (category Cf) other than ZWJ/ZWNJ."""
    return any(unicodedata.category(ch) == "Cf" and ch not in _KEPT_FORMAT for ch in text)


def name_fault(name: str) -> str:
    """Why `name` (already one line) can't be shown, a code: "name_too_long" (more than
    MAX_NAME), "name_invisible" (invisible formatting characters, such as right-to-left
    marks, can disguise the text around them); "" if it can. An empty name is the caller's
    to judge. The words: pbem.present.service_words `name_problem`."""
    if len(name) > MAX_NAME:
        return "name_too_long"
    if has_invisible(name):
        return "name_invisible"
    return ""


def checked_name(name: str) -> str:
    """The name other players see: one line, at most MAX_NAME, no invisible format
    characters; BadRequest saying what is wrong."""
    clean = one_line(name)
    if not clean:
        raise BadRequest("name_missing")
    problem = name_fault(clean)
    if problem:
        raise BadRequest(problem, most=MAX_NAME)
    return clean


def seat_name(seat_no: int) -> str:
    """The neutral name of a seat whose organiser typed none."""
    return f"Player {seat_no + 1}"
