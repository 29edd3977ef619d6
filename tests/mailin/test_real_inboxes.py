"""Replies as real inboxes send them, through every real way in (the SMTP and LMTP receivers,
IMAP against Dovecot, `pbem ingest`) on SQLite and PostgreSQL; each plays exactly once:
- Exchange / Outlook: no plus address, only In-Reply-To naming the turn email itself;
- reply-all: the sender's own token and another player's, copies delivered to both;
- no Message-ID (a client or gateway that leaves it out): a copy delivered twice is still one
  message, but two different replies with the same body ("QS" to two games) are two;
- an unroutable reply from a player is answered (why, their games, links); from a stranger or
  a machine it is not (no backscatter), and the raw mail is kept with its reason.
"""

from __future__ import annotations

import smtplib
import uuid
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.policy import SMTP

import pytest
from flask import Flask
from imap_tools import MailBoxUnencrypted
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.engine import CardPlayed
from pbem.mailin.imap import poll_imap
from pbem.mailin.process import Inbox
from pbem.mailin.smtp_receiver import ReplyController
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail, PlayerAddress
from tests.mail.mailtest_support import free_port
from tests.mailin.dovecot import DOVECOT, PASSWORD, USER, Dovecot
from tests.mailin.support import (
    emails,
    ingest_and_work,
    latest_token,
    legal,
    player,
    to_play,
    two_human_game,
)
from tests.mailin.test_imap import dovecot  # noqa: F401 (fixture)

Send = Callable[[bytes, list[str]], None]  # raw message, envelope recipients
WAYS = ["smtp", "lmtp", "imap", "ingest"]
PEOPLE = ("ann@example.org", "bob@example.org")


@pytest.fixture(params=WAYS)
def way(request: pytest.FixtureRequest, make_app: Callable[..., Flask],
        db_url: str) -> Iterator[tuple[Flask, Send]]:
    """An app and a way to send a message in (and wait until it is processed)."""
    if request.param == "imap":
        if DOVECOT is None:
            pytest.skip("dovecot is not installed (apt-get install dovecot-imapd)")
        server: Dovecot = request.getfixturevalue("dovecot")
        app = make_app(DATABASE_URL=db_url, IMAP_HOST="127.0.0.1", IMAP_PORT=str(server.port),
                       IMAP_USER=USER, IMAP_PASSWORD=PASSWORD, IMAP_DONE_FOLDER="Handled")

        def by_imap(raw: bytes, _rcpts: list[str]) -> None:
            with MailBoxUnencrypted("127.0.0.1", server.port).login(USER, PASSWORD) as box:
                box.append(raw, "INBOX")
            poll_imap(app)

        yield app, by_imap
        return
    app = make_app(DATABASE_URL=db_url, BASE_URL="http://pbem.test")
    if request.param == "ingest":
        yield app, lambda raw, rcpts: ingest_and_work(app, raw, rcpts)
        return
    lmtp = request.param == "lmtp"
    controller = ReplyController(Inbox.from_app(app), port=free_port(), lmtp=lmtp)
    controller.start()

    def by_receiver(raw: bytes, rcpts: list[str]) -> None:
        with (smtplib.LMTP if lmtp else smtplib.SMTP)("127.0.0.1", controller.port) as client:
            client.sendmail("someone@example.org", rcpts, raw)
        controller.reply_handler.drain()

    try:
        yield app, by_receiver
    finally:
        controller.stop()


def message(sender: str, body: str, *, to: str, cc: str | None = None,
            in_reply_to: str | None = None, references: str | None = None,
            headers: dict[str, str] | None = None, message_id: bool = True) -> bytes:
    """A reply as Outlook writes it (`message_id=False`: one a client or gateway sent
    without a Message-ID, and no MTA on the way added one)."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    if cc:
        msg["Cc"] = cc
    msg["Subject"] = "RE: Hearts: Friday night"
    msg["Date"] = "Sat, 21 Nov 2026 09:48:02 +0100"
    if message_id:
        msg["Message-ID"] = f"<{uuid.uuid4().hex}@client.example>"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = references
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(f"{body}\n\n________________________________\nFrom: Hearts\n"
                    "Sent: Saturday\n\n--- Reply above this line ---\n")
    return msg.as_bytes(policy=SMTP)


def plays(engine: Engine, game: int) -> list[CardPlayed]:
    with transaction(engine, read_only=True) as session:
        return [e for e in load_events(session, game) if isinstance(e, CardPlayed)]


def reasons(engine: Engine) -> list[tuple[str, str | None, bool]]:
    """(status, reason, raw kept) of every stored message, oldest first."""
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(InboundMail).order_by(col(InboundMail.id)))
        return [(r.status, r.reason, bool(r.raw)) for r in rows]


@pytest.mark.parametrize("message_id", [True, False], ids=["message-id", "no-message-id"])
def test_outlook_reply_with_only_in_reply_to_plays_once(way: tuple[Flask, Send],
                                                        message_id: bool) -> None:
    """Exchange dropped the plus address and the client kept only In-Reply-To: the turn
    email's own Message-ID leads to its reply token. Delivered twice, it is stored once."""
    app, send = way
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = PEOPLE[seat]
    turn = emails(engine, me, "turn")[-1]
    assert turn.message_id is not None and "pbem.reply." not in turn.message_id
    card = legal(state, seat)
    raw = message(me, str(card), to="Hearts <play@pbem.test>", in_reply_to=turn.message_id,
                  message_id=message_id)
    before = len(plays(engine, game))
    send(raw, ["play@pbem.test"])
    send(raw, ["play@pbem.test"])  # delivered twice
    after = plays(engine, game)
    assert after[before] == CardPlayed(seat, card)
    assert after.count(CardPlayed(seat, card)) == 1
    assert not emails(engine, me, "unroutable")
    assert len(reasons(engine)) == 1  # one message stored


@pytest.mark.parametrize("message_id", [True, False], ids=["message-id", "no-message-id"])
def test_reply_all_is_routed_to_the_senders_own_seat_once(way: tuple[Flask, Send],
                                                          message_id: bool) -> None:
    """The reply also went to the other player's reply address, and that copy arrives first:
    it is still the sender's move, made once; the other player is told nothing. The copies
    differ only in what the way in added (the envelope recipient): one message stored."""
    app, send = way
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me, other = PEOPLE[seat], PEOPLE[1 - seat]
    mine, theirs = latest_token(engine, me, "turn"), latest_token(engine, other)
    card = legal(state, seat)
    raw = message(me, f"{card}", to=f"Hearts <play+{theirs}@pbem.test>",
                  cc=f"Hearts <play+{mine}@pbem.test>", message_id=message_id)
    before = len(plays(engine, game))
    send(raw, [f"play+{theirs}@pbem.test"])  # the other player's copy first
    send(raw, [f"play+{mine}@pbem.test"])
    after = plays(engine, game)
    assert after[before] == CardPlayed(seat, card)
    assert after.count(CardPlayed(seat, card)) == 1
    assert not emails(engine, other, "not_your_seat")
    assert len(reasons(engine)) == 1


def test_two_replies_without_a_message_id_with_the_same_body_both_play(
        way: tuple[Flask, Send]) -> None:
    """QA finding 2: the same card to two games (dealt alike), from a client that sends no
    Message-ID. The same body, but not the same message (its To, its In-Reply-To): both are
    stored and both played."""
    app, send = way
    engine = db_engine(app)
    games = [two_human_game(engine), two_human_game(engine)]
    (seat, state), (other_seat, other_state) = [to_play(engine, game) for game in games]
    assert (seat, state.hand(seat)) == (other_seat, other_state.hand(seat))
    me, card = PEOPLE[seat], legal(state, seat)
    for game in games:
        turn = next(e for e in reversed(emails(engine, me, "turn")) if e.game_id == game)
        token = turn.headers["Reply-To"].split("play+")[1].split("@")[0]
        send(message(me, str(card), to=f"Hearts <play+{token}@pbem.test>",
                     in_reply_to=turn.message_id, message_id=False),
             [f"play+{token}@pbem.test"])
    assert [plays(engine, game).count(CardPlayed(seat, card)) for game in games] == [1, 1]
    assert [status for status, _, _ in reasons(engine)] == ["processed", "processed"]


def test_an_unroutable_reply_from_a_player_is_answered_with_their_games(
        way: tuple[Flask, Send]) -> None:
    app, send = way
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = PEOPLE[seat]
    raw = message(me, str(legal(state, seat)), to="Hearts <play@pbem.test>")
    send(raw, ["play@pbem.test"])
    assert len(plays(engine, game)) == 0
    answers = emails(engine, me, "unroutable")
    assert len(answers) == 1
    text = answers[0].body_text
    assert "couldn't tell which game" in text and "Friday night" in text
    assert "http://pbem.test/s/" in text  # their private link
    assert answers[0].headers["Auto-Submitted"] == "auto-replied"  # RFC 3834
    status, reason, kept = reasons(engine)[-1]
    assert (status, kept) == ("ignored", True) and reason and "no reply token" in reason


@pytest.mark.parametrize("who", ["stranger", "machine"])
def test_unroutable_mail_from_strangers_and_machines_gets_no_answer(
        way: tuple[Flask, Send], who: str) -> None:
    app, send = way
    engine = db_engine(app)
    two_human_game(engine)
    sender = "eve@example.net" if who == "stranger" else PEOPLE[0]
    headers = {"Auto-Submitted": "auto-replied"} if who == "machine" else None
    outbox = len(emails(engine, sender))
    send(message(sender, "QS", to="Hearts <play@pbem.test>", headers=headers),
         ["play@pbem.test"])
    assert len(emails(engine, sender)) == outbox
    status, reason, kept = reasons(engine)[-1]
    assert (status, kept) == ("ignored", True) and reason


def test_a_plus_variant_of_the_players_address_is_the_player(way: tuple[Flask, Send]) -> None:
    app, send = way
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = PEOPLE[seat]
    token = latest_token(engine, me, "turn")
    card = legal(state, seat)
    send(message(me.replace("@", "+games@"), str(card), to=f"Hearts <play+{token}@pbem.test>"),
         [f"play+{token}@pbem.test"])
    assert plays(engine, game).count(CardPlayed(seat, card)) == 1
    assert not emails(engine, me, "not_your_seat")


def test_a_confirmed_second_address_of_the_player_is_the_player(
        way: tuple[Flask, Send]) -> None:
    """Another address the player added (and confirmed: tests/web/test_addresses.py) plays as
    the player, once, whatever the way in."""
    app, send = way
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = PEOPLE[seat]
    with transaction(engine) as session:
        session.add(PlayerAddress(player_id=player(engine, me).id, email="work@office.example"))
    token = latest_token(engine, me, "turn")
    card = legal(state, seat)
    send(message("Me at work <work@office.example>", str(card),
                 to=f"Hearts <play+{token}@pbem.test>"), [f"play+{token}@pbem.test"])
    assert plays(engine, game).count(CardPlayed(seat, card)) == 1
    assert not emails(engine, me, "not_your_seat")
