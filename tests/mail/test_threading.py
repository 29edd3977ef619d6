"""Subjects, previews and threading, read from the emails a real SMTP server received.

What each client threads by (docs/presentation.md, "Subjects, previews and threading"): Gmail
by the subject (Re:/Fwd: aside) and References/In-Reply-To, starting a new thread when the
subject changes; Outlook and Exchange by Thread-Index (its GUID) and Thread-Topic; Apple Mail by
References/In-Reply-To. So a game's emails to one player keep one subject, Thread-Topic,
Thread-Index and root Message-ID, and what each email wants ("Your turn", "Result", "Answer")
leads its preview, which inbox lists show beside the subject."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from email.message import EmailMessage

import pytest
from flask import Flask
from sqlalchemy import Engine

from pbem.app import db_engine
from pbem.mail.compose import MailSettings, answered_id, build_headers
from pbem.mail.errors import send_error
from pbem.mail.outbox import drain_all
from pbem.mail.sending import subject_for
from pbem.mailin.process import Inbox
from pbem.mailin.process import deliver as deliver_reply
from pbem.store.db import transaction
from pbem.store.models import Game
from tests.mail.game_support import PlayedGame
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_notify import deliver, html, kinds, run, to_first_play
from tests.mailin.support import latest_token, reply, to_play, two_human_game

PEOPLE = ("ann@example.org", "bob@example.org")

PREVIEW = re.compile(r'<div class="preheader"[^>]*>([^<]*)</div>')
TURN, RESULT, ANSWER = "turn", "result", "answer"
# The kind of each email (its Message-ID says it) and what a player must see it is.
WANTS = {"pass": TURN, "turn": TURN, "trick_result": RESULT, "hand_result": RESULT,
         "error": ANSWER}


def preview(msg: EmailMessage) -> str:
    found = PREVIEW.search(html(msg))
    assert found, "no preview text"
    return found.group(1).strip()


def what_it_wants(subject: str, shown: str) -> str:
    """What the inbox list alone tells: the subject and the preview, nothing else."""
    for label, wants in (("Your turn", TURN), ("Result", RESULT), ("Answer", ANSWER)):
        if shown.startswith(label) or subject.startswith(label):
            return wants
    return "unknown"


def a_hand_with_an_answer(engine: Engine, server: SmtpServer, game: PlayedGame,
                          settings: MailSettings) -> list[EmailMessage]:
    """Ann's emails over a whole hand (the deal, the pass, every trick) and an answer to a
    reply of hers that could not be played, in the order the server received them."""
    to_first_play(engine, server, game, settings)
    with transaction(engine) as session:
        send_error(session, game.game(session), game.state, 0, what_was_read="ZZ",
                   reason="We couldn't read a card in “ZZ”.", settings=settings)
    hand = game.state.hand_number
    while game.state.hand_number == hand and not game.state.game_over:
        run(engine, game, settings, game.play_legal())
    deliver(engine, server)
    return received_by(server, "ann@example.org")


def received_by(server: SmtpServer, address: str) -> list[EmailMessage]:
    return [r.message for r in server.messages if r.rcpt_tos == [address]]


def test_every_email_of_a_game_threads_as_one_conversation_in_each_client(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    emails = a_hand_with_an_answer(engine, smtp_server, game, mail_settings)
    assert {"pass", "turn", "trick_result", "hand_result", "error"} <= set(kinds(emails))
    root = f"<pbem.game-{game.game_id}.player-{game.player_ids[0]}@hearts.test>"
    subject = "Hearts: Friday night"
    index = base64.b64decode(emails[0]["Thread-Index"])
    assert len(index) == 22 and index[0] == 1  # Outlook's header block: reserved byte, time, GUID
    for msg in emails:
        assert msg["Subject"] == subject  # Gmail: one subject, or a new thread
        assert msg["Thread-Topic"] == subject  # Outlook/Exchange: the conversation topic
        assert base64.b64decode(msg["Thread-Index"]) == index  # Outlook: one GUID
        assert msg["In-Reply-To"] == root  # Apple Mail, Gmail: one root...
        assert msg["References"].split()[0] == root  # ...first in References
    ids = [msg["Message-ID"] for msg in emails]
    assert len(set(ids)) == len(ids)


def test_subject_and_preview_alone_tell_a_turn_a_result_and_an_answer(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    emails = a_hand_with_an_answer(engine, smtp_server, game, mail_settings)
    seen = set()
    for kind, msg in zip(kinds(emails), emails, strict=True):
        if kind in WANTS:
            assert what_it_wants(msg["Subject"], preview(msg)) == WANTS[kind], (kind, preview(msg))
            seen.add(WANTS[kind])
    assert seen == {TURN, RESULT, ANSWER}


def test_each_player_has_a_conversation_of_their_own(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    """Two players of one game (or one mailbox holding both) never share a thread: each
    player's emails hold their own reply links."""
    to_first_play(engine, smtp_server, game, mail_settings)
    ann = received_by(smtp_server, "ann@example.org")[0]
    bob = received_by(smtp_server, "bob@example.org")[0]
    assert ann["Thread-Index"] != bob["Thread-Index"]
    assert ann["In-Reply-To"] != bob["In-Reply-To"]
    assert ann["Thread-Topic"] == bob["Thread-Topic"] == "Hearts: Friday night"


def test_an_answer_to_a_players_reply_is_a_reply_to_it_in_the_games_thread(
        make_app: Callable[..., Flask], db_url: str, smtp_server: SmtpServer) -> None:
    """A reply that can't be played, through the real mail-in path, is answered by an email
    whose In-Reply-To is the player's own Message-ID, which References has after the game's
    root: it sits under the player's reply, in the same conversation."""
    app = make_app(DATABASE_URL=db_url, BASE_URL="http://pbem.test", MAIL_DOMAIN="pbem.test")
    engine = db_engine(app)
    with app.app_context():  # the game's emails are the app's, as in production
        game = two_human_game(engine)
        seat, _state = to_play(engine, game)
        me = PEOPLE[seat]
        deliver_reply(Inbox.from_app(app), reply(latest_token(engine, me, "turn"), "ZZ",
                                                 sender=me, message_id="<r1.ann@mail.example>"))
    drain_all(engine, smtp_server.settings)
    got = received_by(smtp_server, me)
    (answer,) = [m for m, kind in zip(got, kinds(got), strict=True) if kind == "error"]
    turn = next(m for m, kind in zip(got, kinds(got), strict=True) if kind == "turn")
    root = turn["In-Reply-To"]
    assert answer["In-Reply-To"] == "<r1.ann@mail.example>"
    assert answer["References"].split()[:2] == [root, "<r1.ann@mail.example>"]
    for name in ("Subject", "Thread-Topic", "Thread-Index"):
        assert answer[name] == turn[name], name
    assert preview(answer).startswith("Answer: ")


@pytest.mark.parametrize("message_id", [
    "<r1 ann@mail.example>", "<a@b> <c@d>", "r1.ann@mail.example", "<r1@ann@mail.example>",
    "<r1.änn@mail.example>", f"<{'x' * 200}@mail.example>", "<>"])
def test_an_unfit_message_id_is_not_copied_into_our_headers(message_id: str) -> None:
    """The player's Message-ID is their text: only a plain, short msg-id is answered."""
    assert answered_id(message_id) == ""
    headers = build_headers(MailSettings(domain="pbem.test", base_url="http://pbem.test"),
                            kind="error", to_name="Ann", to_addr="ann@example.org", game_id=1,
                            player_id=2, in_reply_to=message_id)
    assert headers["In-Reply-To"] == "<pbem.game-1.player-2@pbem.test>"
    assert headers["References"] == "<pbem.game-1.player-2@pbem.test>"
    assert answered_id(" <r1.ann@mail.example> ") == "<r1.ann@mail.example>"


@pytest.mark.parametrize(("name", "subject"), [
    ("Friday night", "Hearts: Friday night"),
    ("Hearts", "Hearts"),
    ("Friday Hearts", "Friday Hearts"),
    ("Standard Hearts (Black Lady)", "Standard Hearts (Black Lady)"),
    ("Sweethearts", "Hearts: Sweethearts"),
])
def test_a_game_named_hearts_is_not_subjected_hearts_twice(name: str, subject: str) -> None:
    assert subject_for(Game(name=name)) == subject
