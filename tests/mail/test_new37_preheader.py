"""Issue 37, item 7: what an email wants comes first, in the inbox preview and a phone's
notification: the preheader is the first text of each ask email's text part (before the
reply marker) and its HTML part's first element (hidden), in the recipient's language; the
subject stays the game's; a reply quoting the preheader still reads as the move."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.mail.asks import send_reminder
from pbem.mail.notify import resend_turns
from pbem.mail.sending import MARKER
from pbem.mail.timemails import send_nudge
from pbem.mailin.parse import trim
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Game, OutboxEmail, Player
from tests.mailin.support import SETTINGS, to_play, two_human_game

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "email"
PREHEADER = re.compile(r'<body[^>]*>\s*<div class="preheader"[^>]*>([^<]*)')
PADDING = re.compile("[\u034f\u200c\u00a0&]")  # after the preheader: keeps the body out
ANN = "ann@example.org"


def set_language(engine: Engine, email: str, language: str) -> None:
    with transaction(engine) as session:
        player = session.exec(select(Player).where(Player.email == email)).one()
        player.language, player.language_chosen = language, True
        session.add(player)


def newest(engine: Engine, to: str, kind: str) -> OutboxEmail:
    with transaction(engine, read_only=True) as session:
        return session.exec(select(OutboxEmail).where(OutboxEmail.to_addr == to,
                                                      OutboxEmail.kind == kind)
                            .order_by(col(OutboxEmail.id).desc())).first()  # type: ignore[return-value]


def resend(engine: Engine, game_id: int) -> None:
    with transaction(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        resend_turns(session, game, load_state(session, game_id).state, settings=SETTINGS)


def preheader_of(row: OutboxEmail) -> str:
    """The preheader, checked to be the first text of both parts; the subject is the game's."""
    first = row.body_text.lstrip().split("\n", 1)[0]
    html = PREHEADER.search(row.body_html or "")
    assert html, "the preheader is not the HTML body's first element"
    assert PADDING.split(html.group(1))[0].strip() == first
    if MARKER in row.body_text:  # the emails a reply answers
        assert row.body_text.index(first) < row.body_text.index(MARKER)
    assert row.subject.endswith("Friday night")  # the game's, one thread
    return first


@pytest.mark.parametrize(("language", "wants"), [
    ("en", "Your turn: Pass 3 cards to Bob."), ("de", "Du bist dran: Gib 3 Karten an Bob.")])
def test_a_pass_email_starts_with_what_it_wants(engine: Engine, language: str,
                                                wants: str) -> None:
    game = two_human_game(engine)
    set_language(engine, ANN, language)
    resend(engine, game)
    assert preheader_of(newest(engine, ANN, "pass")).split(",")[0].startswith(
        wants.split(" 3")[0])


@pytest.mark.parametrize(("language", "label"), [("en", "Your turn: "), ("de", "Du bist dran: "),
                                                 ("fr", "À vous de jouer : ")])
def test_a_turn_email_names_the_card_to_play_to_or_the_lead(engine: Engine, language: str,
                                                            label: str) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    set_language(engine, me, language)
    resend(engine, game)
    first = preheader_of(newest(engine, me, "turn"))
    assert first.startswith(label) and first.count(label.strip()) == 1
    if state.current_trick.plays:
        assert state.current_trick.plays[0][1].symbol in first
    elif language == "en":
        assert first.startswith("Your turn: lead to trick 1 (hand 1)")


def test_reminders_and_nudges_start_with_what_they_want_in_german(engine: Engine) -> None:
    game = two_human_game(engine)
    set_language(engine, ANN, "de")
    now = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
    with transaction(engine) as session:
        row = session.get(Game, game)
        assert row is not None
        state = load_state(session, game).state
        send_reminder(session, row, state, 0, settings=SETTINGS, now=now)
        send_nudge(session, row, 0, 1, waiting_for="pass", deadline=None, now=now,
                   settings=SETTINGS)
    reminder = preheader_of(newest(engine, ANN, "reminder"))
    nudge = preheader_of(newest(engine, ANN, "nudge"))
    assert reminder.startswith("Du bist dran: Erinnerung: ")
    assert nudge.startswith("Du bist dran: ") and "Bob" in nudge


def test_every_email_kind_starts_with_the_base_templates_preheader() -> None:
    """Every email extends base.txt and base.html, whose first output is the preheader (so
    the bid, name-suit and moon emails too)."""
    base_txt = (TEMPLATES / "base.txt").read_text()
    assert base_txt.startswith("{% if preheader is defined and preheader %}{{ preheader }}")
    assert re.search(r"<body>\s*<div class=\"preheader\"", (TEMPLATES / "base.html").read_text())
    for path in TEMPLATES.glob("*.*"):
        if path.name.startswith(("_", "base.")):
            continue
        source = re.sub(r"\{#.*?#\}\s*", "", path.read_text(), flags=re.DOTALL)
        assert source.startswith(('{% extends "base.', "{% extends (asked_template",
                                   '{% include "')), path.name


def quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def test_a_reply_quoting_the_preheader_still_reads_as_the_move(engine: Engine) -> None:
    game = two_human_game(engine)
    seat, _state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    body = newest(engine, me, "turn").body_text
    first = body.lstrip().split("\n", 1)[0]
    assert first.startswith("Your turn: ")
    # quoted with ">" under an attribution line (Gmail, Apple Mail, Thunderbird)
    gmail = f"QS\n\nOn Sun, 29 Nov 2026 at 08:00, Hearts <play@pbem.test> wrote:\n\n{quoted(body)}"
    assert trim(gmail) == "QS"
    # pasted below without quoting (Outlook's header block, or none at all)
    outlook = (f"QS\n\nFrom: Hearts <play@pbem.test>\nSent: Sunday, November 29, 2026 8:00\n"
               f"Subject: Hearts: Friday night\n\n{body}")
    assert trim(outlook) == "QS"
    assert trim(f"QS\n\n{body}") == "QS"
    assert trim(f"QS\n{first}\n{MARKER}") == "QS"
    # a German preview too
    assert trim("7H\n\nDu bist dran: spiel zum Stich 2 aus (Runde 1).\n\n" + MARKER) == "7H"
