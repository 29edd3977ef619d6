"""Cards of the emails made in Python, and in HTML inlined once (issue 33).

A turn email shows thirty-odd cards (the hand, the trick, the links to play), each a small
table or span whose HTML has no words in it: only the card's symbol and code. Made by Jinja
macros, and then parsed, styled and written out again by the CSS inliner in every email, they
were most of a turn email's CPU. Here each is made by string formatting (`face_html`,
`card_html`, `link_html`, `links_html`, `hand_html`, `trick_row_html`: globals of the mail
Jinja environment) and, while `Renderer.render` collects slots (`Slots`), goes into the HTML
given to the inliner as a token; the token is replaced in the inliner's output by the card's
HTML inlined once, in a document with the same stylesheet and the same ancestors (`WHERE`),
and kept. A link's URL differs in every email: its inlined HTML is kept as the parts before
and after the URL, which is written between them as the inliner would write it. The hand's
table is kept as each suit's row (per number of cards) around its faces; the preheader's
padding (base.html) as one slot. A token stands where text may (in a td, p, div or span),
never right inside a table or tr, where the HTML parser would move it.

The bytes are those of inlining the whole email (tests/mail/test_faces.py renders both ways);
outside `Renderer.render` (a template rendered by itself, a test of one macro) the functions
give the plain HTML, which the caller's inlining, if any, styles as before. Every word stays
in the templates: the functions that write one are given it (`you`, `cancelled`).

The plain-text helpers at the end (`labels_text`, `hand_text`, `play_line`, `score_line`)
write what _macros.txt's loops wrote, a call per list or line rather than Jinja expressions
per value.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from markupsafe import Markup, escape

from pbem.present.i18n import label
from pbem.present.views import CardView, SuitRow

# Where a slot's card stands in the email, as the HTML around it (the CSS rules that apply to
# a card depend on its ancestors: `.hand-table td`, `.cancelled .card`). SLOT marks the card.
WHERE: dict[str, str] = {
    "p": "<p>SLOT</p>",
    "grid": '<table class="grid" role="presentation"><tr><td>SLOT</td></tr></table>',
    "cancelled": ('<table class="grid" role="presentation"><tr><td><span class="cancelled">'
                  "SLOT</span></td></tr></table>"),
    "felt": ('<table role="presentation" class="felt" width="100%" cellpadding="0" '
             'cellspacing="0"><tr><td class="felt-cell"><table role="presentation" '
             'class="felt-row" align="center" cellpadding="0" cellspacing="4"><tr>'
             '<td class="felt-play" align="center" valign="top">SLOT</td></tr></table>'
             "</td></tr></table>"),
    "sheet": "SLOT",
    "hand": ('<table role="presentation" class="hand-table" cellpadding="0" cellspacing="0">'
             '<tr><td class="suit-name black">x</td><td><table role="presentation" '
             'cellpadding="0" cellspacing="3"><tr><td>SLOT</td></tr></table></td></tr>'
             "</table>"),
}
# The ancestors every card of an email has (base.html).
_SHEET = ('<table class="wrap" role="presentation" width="100%" cellpadding="0" cellspacing="0">'
          '<tr><td><div class="sheet" role="main">{}</div></td></tr></table>')
_ROWS = 1024
_URL = "pbemurl0"  # stands for the URL in a link inlined once
# A URL the inliner writes out as `_attribute` does (printable ASCII); any other goes whole
# into the inlined document.
_PLAIN_URL = re.compile(r"[\x20-\x7e]*")


def _colour(red: bool) -> str:
    return "red" if red else "black"


def _count(card: CardView) -> str:
    return f'<span class="count"> ×{escape(card.count)}</span>' if card.count > 1 else ""


def plain_face(card: CardView) -> str:
    """_macros.html's card face: a one-cell table with the symbol, the count and the code."""
    return ('<table role="presentation" class="face" cellpadding="0" cellspacing="0"><tr>'
            f'<td class="face-cell {_colour(card.red)}" align="center">{escape(card.symbol)}'
            f'{_count(card)}<br><span class="code">{escape(card.code)}</span></td></tr></table>')


def plain_card(card: CardView) -> str:
    """A card as a span (the lists and the tricks of the grid tables)."""
    return f'<span class="card {_colour(card.red)}">{escape(card.symbol)}{_count(card)}</span>'


def _plain_link(card: CardView, url: str) -> str:
    return (f'<a class="card {_colour(card.red)}" href="{url}">{escape(card.symbol)}<br>'
            f'<span class="code">{escape(card.code)}</span></a>')


def plain_link(card: CardView) -> str:
    """A card linked to its one-time URL (as a span without one)."""
    if not card.url:
        return plain_card(card)
    return _plain_link(card, str(escape(card.url)))


# The preheader's padding (base.html): characters that show nothing, so that a mail client's
# preview shows the preheader and not the start of the email after it.
PADDING = "&#847;&zwnj;&nbsp;" * 40
_HAND_TABLE = '<table role="presentation" class="hand-table" cellpadding="0" cellspacing="0">\n'
_HAND_ROW = ('<tr><td class="suit-name {}">{}</td><td><table role="presentation" cellpadding="0" '
             'cellspacing="3"><tr>{}</tr></table></td></tr>\n')


def plain_hand(rows: Iterable[tuple[SuitRow, Sequence[str]]]) -> str:
    """_macros.html's hand as card faces: a row per suit, each face in a cell (`rows`: each
    suit with the HTML of its faces)."""
    return _HAND_TABLE + "".join(
        _HAND_ROW.format(_colour(row.red), escape(row.symbol),
                         "".join(f"<td>{face}</td>" for face in faces))
        for row, faces in rows) + "</table>"


def _attribute(value: str) -> str:
    """A plain URL (`_PLAIN_URL`) as the inliner writes an attribute's value."""
    return value.replace("&", "&amp;").replace('"', "&quot;")


class Slots:
    """The cards of one email's HTML, as tokens to replace after the inlining."""

    def __init__(self, owner: Faces) -> None:
        self.owner = owner
        self.parts: list[str] = []

    def token(self, inlined: str) -> Markup:
        self.parts.append(inlined)
        return Markup(f"{self.owner.nonce}{len(self.parts) - 1}x")

    def fill(self, html: str) -> str:
        """`html` from the inliner with its tokens replaced by the cards' inlined HTML."""
        if not self.parts:
            return html
        parts = self.parts
        return self.owner.tokens.sub(lambda m: parts[int(m[1])], html)


class Faces:
    """The card functions of one mail Jinja environment, with its inlined cards kept."""

    def __init__(self, stylesheet: str, inline: Callable[[str], str]) -> None:
        self.stylesheet = stylesheet
        self.inline = inline
        # A token no player can type into a name: a new random one each process.
        self.nonce = f"pbem{secrets.token_hex(8)}n"
        self.tokens = re.compile(self.nonce + r"(\d+)x")
        self._current: ContextVar[Slots | None] = ContextVar("pbem_mail_slots", default=None)
        self._inlined: dict[tuple[Any, ...], str] = {}
        self._links: dict[tuple[Any, ...], tuple[str, str]] = {}
        # A suit's row of the hand's table inlined once per suit and number of cards, as the
        # parts between its faces, with the table's start and end (at most _ROWS kept).
        self._rows: dict[tuple[Any, ...], tuple[str, list[str], str]] = {}

    def install(self, env: Any) -> None:
        env.globals.update(face_html=self.face, card_html=self.card, link_html=self.link,
                           links_html=self.links, hand_html=self.hand, padding_html=self.padding,
                           labels_text=labels_text, score_line=score_line, around=around,
                           hand_text=hand_text, play_line=play_line,
                           trick_row_html=self.trick_row)

    @contextmanager
    def collecting(self) -> Iterator[Slots]:
        """Inside the block the functions give tokens, filled by the Slots yielded."""
        slots = Slots(self)
        reset = self._current.set(slots)
        try:
            yield slots
        finally:
            self._current.reset(reset)

    def _inlined_once(self, where: str, html: str) -> str:
        """`html` inlined where it stands (`WHERE[where]`), as in a whole email."""
        start, end = "pbemstart0", "pbemend0"
        body = _SHEET.format(WHERE[where].replace("SLOT", f"{start}{html}{end}"))
        document = (f"<!doctype html><html><head><style>{self.stylesheet}</style></head>"
                    f"<body>{body}</body></html>")
        out = self.inline(document)
        return out[out.index(start) + len(start):out.index(end)]

    def _slot(self, where: str | None, key: tuple[Any, ...], plain: Callable[[], str]) -> Markup:
        slots = self._current.get()
        if slots is None or where is None:
            return Markup(plain())
        return slots.token(self._kept(where, key, plain))

    def _kept(self, where: str, key: tuple[Any, ...], plain: Callable[[], str]) -> str:
        full = (where, *key)
        inlined = self._inlined.get(full)
        if inlined is None:
            inlined = self._inlined[full] = self._inlined_once(where, plain())
        return inlined

    def _face_inlined(self, card: CardView) -> str:
        """A face in the hand, inlined (`_kept`, without its function made per card)."""
        key = ("hand", "face", card.code, card.symbol, card.red, card.count)
        inlined = self._inlined.get(key)
        if inlined is None:
            inlined = self._inlined[key] = self._inlined_once("hand", plain_face(card))
        return inlined

    def face(self, card: CardView, where: str | None = None) -> Markup:
        """A card face (`where`: its place in WHERE, for a slot; None: always the plain HTML)."""
        return self._slot(where, ("face", card.code, card.symbol, card.red, card.count),
                          lambda: plain_face(card))

    def card(self, card: CardView, where: str | None = None) -> Markup:
        return self._slot(where, ("card", card.code, card.symbol, card.red, card.count),
                          lambda: plain_card(card))

    def link(self, card: CardView, where: str | None = None) -> Markup:
        url = card.url
        if not url:
            return self.card(card, where)
        slots = self._current.get()
        if (slots is None or where is None or not isinstance(url, str)
                or not _PLAIN_URL.fullmatch(url)):
            return Markup(plain_link(card))
        key = (where, card.code, card.symbol, card.red)
        halves = self._links.get(key)
        if halves is None:
            before, _, after = self._inlined_once(where, _plain_link(card, _URL)).partition(_URL)
            halves = self._links[key] = (before, after)
        return slots.token(f"{halves[0]}{_attribute(url)}{halves[1]}")

    def trick_row(self, play: Any, you: str, cancelled: str) -> Markup:
        """A card played to a trick, a row of its table: who (`you`: the word "You" in the
        reader's language, as HTML), the card and its code, and `cancelled` ("cancelled")
        after a card cancelled."""
        who = you if play.is_you else escape(label(play.name))
        card = play.card
        code = escape(label(card.code))
        if play.cancelled:
            cell = (f'<span class="cancelled">{self.card(card, "cancelled")}</span> '
                    f'<span class="code">{code}</span> <span class="note">{cancelled}</span>')
        else:
            cell = f'{self.card(card, "grid")} <span class="code">{code}</span>'
        return Markup(f'<tr><td class="{"you" if play.is_you else ""}">{who}</td>'
                      f"<td>{cell}</td></tr>")

    def links(self, cards: Iterable[CardView], where: str = "p") -> Markup:
        """Cards linked to their URLs (`link`), each followed by a space."""
        return Markup("".join(f"{self.link(card, where)} " for card in cards))

    def padding(self) -> Markup:
        """The preheader's padding (PADDING)."""
        return self._slot("p", ("padding",), lambda: PADDING)

    def hand(self, rows: Sequence[SuitRow]) -> Markup:
        """The hand as card faces (`plain_hand`)."""
        slots = self._current.get()
        suits = [(row, row.distinct) for row in rows]
        if slots is None or not suits:
            return self._slot(None if slots is None else "sheet", ("hand",),
                              lambda: plain_hand((row, [plain_face(c) for c in cards])
                                                 for row, cards in suits))
        out: list[str] = []
        tail = ""
        for row, cards in suits:
            head, parts, tail = self._row(row, len(cards))
            if not out:
                out.append(head)
            out.append(parts[0])
            for card, part in zip(cards, parts[1:], strict=True):
                out += (self._face_inlined(card), part)
        out.append(tail)
        return slots.token("".join(out))

    def _row(self, row: SuitRow, count: int) -> tuple[str, list[str], str]:
        """A suit's row of the hand inlined (in a table of its own: the table's start up to
        its <tbody>, the row's parts around its `count` faces, the table's end)."""
        key = (row.symbol, row.red, count)
        kept = self._rows.get(key)
        if kept is None:
            if len(self._rows) >= _ROWS:
                self._rows.clear()
            skeleton = plain_hand([(row, [f"pbemface{n}z" for n in range(count)])])
            table = self._inlined_once("sheet", skeleton)
            start = table.index("<tbody>") + len("<tbody>")
            end = table.rindex("</tbody>")
            kept = self._rows[key] = (table[:start], re.split(r"pbemface\d+z", table[start:end]),
                                      table[end:])
        return kept


def around(rows: Sequence[Any]) -> tuple[Any, list[Any]]:
    """The reader's row of the scores (the first that `is_you`, else the first) and the
    others in play order from the reader's left: where the card table seats them."""
    me = next((row for row in rows if _field(row, "is_you")), rows[0])
    at = rows.index(me)
    return me, [*rows[at + 1:], *rows[:at]]


# ---- Plain text (the .txt emails): the same values, as the macros of _macros.txt wrote them.

def labels_text(cards: Iterable[CardView]) -> str:
    """Cards by their plain-text labels (`Q♠ (QS)`), two spaces apart."""
    return "  ".join(str(card.label) for card in cards)


def hand_text(rows: Iterable[Any]) -> str:
    """The hand in plain text: a line per suit, its name and its cards' labels."""
    return "".join(f"  {f'{row.symbol} {row.name}:'.ljust(11)} {labels_text(row.distinct)}\n"
                   for row in rows)


def play_line(play: Any, you: str, cancelled: str) -> str:
    """A card played to a trick, in plain text: who (`you`: the word "You" in the reader's
    language), the card, and `cancelled` ("(cancelled)") after a card cancelled."""
    who = you if play.is_you else str(label(play.name))[:16]
    line = f"{str(who).ljust(16)} {play.card.label}"
    return f"{line}  {cancelled}" if play.cancelled else line


def _field(row: Any, name: str) -> Any:
    """`row.name` as a template reads it: an attribute, else an item (a dict's rows)."""
    try:
        return getattr(row, name)
    except AttributeError:
        return row[name]


def score_line(row: Any, you: str, chips: bool) -> str:
    """A player's line of the plain-text scores (`row`: a pbem.present.views.ScoreRow or a
    dict of its fields): name (with `you`, the words "(you)" in the reader's language, on the
    reader's line), hand and game points, chips if `chips`."""
    who = _field(row, "name")
    name = str(label(who))[:16]
    if _field(row, "is_you") and str(who).lower() != "you":
        name = f"{name} {you}"
    line = (f"{name.ljust(22)} {str(_field(row, 'hand')).rjust(9)} "
            f"{str(_field(row, 'total')).rjust(6)}")
    return line + str(_field(row, "chips")).rjust(7) if chips else line
