"""The card table's most repeated pieces of HTML, built in Python.

A page shows a card up to twenty times (the hand, the trick, the previous trick) and four to
ten seats, each once a Jinja macro call (~30 µs with its escaping and its words looked up). A
card's HTML depends on nothing but the card, whether it is the reader's choice and the
reader's language: it is built once per process for each and then looked up. A seat's is
built here with one escape for each value a player typed (issue 33: a click's CPU). The
templates call these as globals (`card_face`, `hand_grid`, `felt`); their words are marked
for translation here (`markup`: the template's `_()` for HTML built in Python).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from pbem.present.i18n import current, label, markup
from pbem.present.views import CardView, PlayView, ScoreRow, SuitRow, TrickView

# Cards (104 with Cancellation's copies) x chosen or not x twice or not x languages.
_KEPT = 4096

UNSCORED = ("inviting", "cancelled")  # a seat's points are not shown while the game is


def card_face(card: CardView, chosen: bool = False) -> Markup:
    """A card as it shows on a page: its symbol, its code for screen readers and copying, a
    mark when both copies are held (Cancellation Hearts), "(your choice)" when chosen."""
    return _card_face(current(), card.code, card.symbol, card.red, card.count, bool(chosen))


@lru_cache(maxsize=_KEPT)
def _card_face(language: str, code: str, symbol: str, red: bool, count: int,
               chosen: bool) -> Markup:
    twice = f'<span class="twice" aria-hidden="true">×{count}</span>' if count > 1 else ""
    both = markup(" (both copies)") if count > 1 else ""
    mine = markup(" (your choice)") if chosen else ""
    look = ("red" if red else "black") + (" chosen" if chosen else "")
    code, symbol = escape(code), escape(symbol)
    return Markup(f'<span class="card {look}" aria-label="{code}{both}{mine}">{symbol}{twice}'
                  f'<span class="code" aria-hidden="true">{code}</span></span>')


def hand_grid(rows: Sequence[SuitRow], chosen: str | None = None) -> Markup:
    """A hand as a table, one row per suit (its symbol, its name for screen readers, its
    cards); `chosen`: the code of the card the page asks about."""
    if not rows:
        none = markup("No cards.")
        return Markup(f'<p class="note">{none}</p>')
    lines = ['<table class="grid">\n']
    for row in rows:
        faces = "".join([card_face(c, chosen is not None and c.code == chosen)
                         for c in row.distinct])
        lines.append(f'<tr><th scope="row" class="{"red" if row.red else "black"}">'
                     f'{escape(row.symbol)} <span class="sr-only">{escape(row.name)}</span>'
                     f'</th><td>{faces}</td></tr>\n')
    lines.append("</table>")
    return Markup("".join(lines))


def felt(ctx: Mapping[str, Any], status: str, middle: Markup | str,
         time_left: Sequence[Mapping[str, Any]] = ()) -> Markup:
    """The seats around the felt, `middle` (the trick, HTML) inside: the reader at the
    bottom (an observer sees seat 1 there), the others from the reader's left: up the left
    side, along the top, down the right side (play order)."""
    rows = sorted(ctx["seat_rows"], key=lambda r: r["number"])
    n = len(rows)
    me = next((r for r in rows if r["is_you"]), rows[0])["number"] - 1
    others, side = rows[me + 1:] + rows[:me], (n - 1) // 3
    scores: Sequence[ScoreRow] = ctx["scores"] or ()

    def seats(where: str, shown: Sequence[Mapping[str, Any]]) -> str:
        boxes = "".join([seat_box(r, scores, status, time_left) for r in shown])
        return f'<ul class="side {where}">{boxes}</ul>'

    top = others[side:n - 1 - side]
    table, seats_heading = markup("The table"), markup("Seats")
    return Markup(
        f'<section class="felt" aria-label="{table}">\n'
        f'<h2 class="sr-only">{seats_heading}</h2>\n'
        f'{seats("top", top) if top else ""}\n{seats("left", others[:side]) if side else ""}\n'
        f'<div class="mid">{escape(middle)}</div>\n'
        f'{seats("right", others[n - 1 - side:]) if side else ""}\n'
        f'{seats("me", [rows[me]])}\n</section>')


def seat_box(r: Mapping[str, Any], scores: Sequence[ScoreRow], status: str,
             time_left: Sequence[Mapping[str, Any]]) -> str:
    """One seat on the felt: who, their notes, their points, the time they have left."""
    number = r["number"]
    score = scores[number - 1] if len(scores) >= number else None
    due = next((d for d in time_left if d["seat"] == number - 1), None)
    look = (" you" if r["is_you"] else "") + (" to-move" if r["to_move"] else "")
    parts = [f'<li class="seat{look}"><bdi class="who">{escape(label(r["name"]))}</bdi>'
             f'{seat_notes(r, status)}\n']
    if score and status not in UNSCORED:
        points = markup("%(game)s points, %(hand)s this hand", game=score.total,
                        hand=score.hand)
        parts.append(f'<span class="pts">{points}</span>')
        if score.chips is not None:
            chips = f"{score.chips:+d}" if score.chips else "0"
            heading = markup("Chips")
            parts.append(f'<span class="pts">{heading} {chips}</span>')
        if score.winner:
            parts.append(_tag(markup("winner")))
    parts.append("\n")
    if due:
        parts.append(f' <time class="due" datetime="{escape(due["iso"])}">'
                     f'{escape(due["text"])}</time>')
    parts.append("</li>")
    return "".join(parts)


def seat_notes(r: Mapping[str, Any], status: str) -> str:
    """What a seat's name is followed by: you, a robot, held by a robot, the dealer, its
    invitation, out of this hand, to move, bouncing mail."""
    notes: list[str] = []
    if r["is_you"]:
        notes.append(" " + str(markup("(you)")))
    if r["is_bot"]:
        notes.append(_note(markup("(computer)")))
    if r["held"]:
        notes.append(_note(markup("(a robot is playing for you)") if r["is_you"] else
                           markup("(a robot is playing for %(name)s)", name=r["name"])))
    if r["dealer"] and status == "active":
        notes.append(_note(markup("(dealer)")))
    if status == "inviting":
        notes.append(_note(f"({_invite_words(r['invite'])})"))
    elif status == "unconfirmed" and not r["is_bot"]:
        notes.append(_note(f"({_unconfirmed_words(r)})"))
    if r["out"]:
        notes.append(_note(markup("(out of this hand)")))
    if r["to_move"]:
        notes.append(_tag(markup("to move")))
    if r["failing"]:
        notes.append(_note(markup(
            "(our emails to them bounce: they may not know it is their move)")))
    return "".join(notes)


def _note(words: str) -> str:
    return f' <span class="note">{words}</span>'


def _tag(words: str) -> str:
    return f' <strong class="tag">{words}</strong>'


def _in(element: str, attributes: str, words: str) -> str:
    return f"<{element}{attributes}>{words}</{element}>"


def _invite_words(invite: str) -> Markup:
    if invite == "invited":
        return markup("invited, no answer yet")
    if invite == "accepted":
        return markup("playing")
    if invite == "declined":
        return markup("declined: the seat is open")
    return escape(invite)


def _unconfirmed_words(r: Mapping[str, Any]) -> Markup:
    if r["organiser"]:
        return markup("organiser, to confirm the game")
    if r["invite"] == "open":
        return markup("open seat")
    return markup("to be invited once the game is confirmed")


def trick_faces(trick: TrickView | None, empty: Markup | str) -> Markup:
    """A trick as cards, each with who played it (cancelled ones marked), who took it and
    what else happened; `empty` when nothing is played yet."""
    if not trick or not trick.plays:
        return Markup(f'<p class="note">{escape(empty)}</p>')
    plays = "".join([_play_face(p) for p in trick.plays])
    taken = ""
    if trick.winner:
        words = markup("Taken by you.") if trick.winner_is_you else \
            markup("Taken by <bdi>%(name)s</bdi>.", name=trick.winner)
        taken = f'<p class="note">{words}</p>'
    notes = "".join([f'<p class="note">{escape(label(n))}</p>\n' for n in trick.notes])
    return Markup(f'\n<ol class="trick-cards">{plays}</ol>\n{taken}\n{notes}\n')


def _play_face(play: PlayView) -> str:
    look = ("you" if play.is_you else "") + (" cancelled" if play.cancelled else "")
    who = markup("You") if play.is_you else escape(label(play.name))
    gone = _in("span", ' class="sr-only"', markup("(cancelled)")) if play.cancelled else ""
    return f'<li class="{look}">{card_face(play.card)}<bdi>{who}</bdi>{gone}</li>'


def score_table(rows: Sequence[ScoreRow]) -> Markup:
    """The points: this hand's and the game's for each player (and the chips, in games
    played for chips), the reader's row marked."""
    chips = bool(rows) and rows[0].chips is not None
    chips_head = _in("th", ' scope="col" class="num"', markup("Chips")) if chips else ""
    player, this_hand, game = markup("Player"), markup("This hand"), markup("Game")
    lines = ['<table class="grid">\n\n<thead><tr>'
             f'<th scope="col">{player}</th><th scope="col" class="num">{this_hand}</th>'
             f'<th scope="col" class="num">{game}</th>{chips_head}</tr></thead>\n'
             '<tbody>\n']
    for r in rows:
        name = label(r.name)
        you = " " + str(markup("(you)")) if r.is_you and str(name).lower() != "you" else ""
        won = _tag(markup("winner")) if r.winner else ""
        chips_cell = (f'<td class="num">{f"{r.chips:+d}" if r.chips else 0}</td>'
                      if chips else "")
        lines.append(f'<tr class="{"you" if r.is_you else ""}"><td><bdi>{escape(name)}</bdi>'
                     f'{you}{won}</td><td class="num">{r.hand}</td>'
                     f'<td class="num">{r.total}</td>{chips_cell}</tr>\n')
    lines.append("</tbody>\n</table>")
    return Markup("".join(lines))


def install_faces(app: Flask) -> None:
    """Give the page templates these pieces as globals."""
    app.jinja_env.globals.update(card_face=card_face, hand_grid=hand_grid, felt=felt,
                                 trick_faces=trick_faces, score_table=score_table)
