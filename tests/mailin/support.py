"""Helpers for mail-in tests: a two-human game made by the service, its reply tokens, and
replies as mail clients write them."""

from __future__ import annotations

import re
import time
import uuid
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select
from werkzeug.test import TestResponse

from pbem import service
from pbem.engine import Card, CardPlayed, GameState, Phase, legal_cards
from pbem.mail.compose import MailSettings
from pbem.mailin.process import Inbox
from pbem.mailin.webhook import sign
from pbem.scheduler.worker import play_new_inbound_mail
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import OutboxEmail, Player

ANN = service.Invitee(email="ann@example.org", name="Ann", accepted=True)
BOB = service.Invitee(email="bob@example.org", name="Bob", accepted=True)
SETTINGS = MailSettings(domain="pbem.test", base_url="http://pbem.test")
_REPLY_TO = re.compile(r"play\+([a-z0-9]+)@", re.IGNORECASE)
WEBHOOK_SECRET = "webhook-secret"  # the apps' PBEM_INBOUND_SECRET in webhook tests


def inbox(engine: Engine) -> Inbox:
    return Inbox(engine, SETTINGS)


def ingest_and_work(app: Flask, raw: bytes, recipients: list[str]) -> None:
    """`pbem ingest -r ...` (the command in this process: it only spools the message), then
    the worker's step that stores and plays what it spooled."""
    args = ["ingest"] + [a for r in recipients for a in ("-r", r)]
    Path(app.config["SPOOL_DIR"]).parent.mkdir(parents=True, exist_ok=True)  # the instance
    result = app.test_cli_runner().invoke(args=args, input=raw)
    assert result.exit_code == 0 and result.output.startswith("spooled "), result.output
    play_new_inbound_mail(app)


def post_to_webhook(app: Flask, raw: bytes, rcpt: str) -> TestResponse:
    """A mail provider's `POST /inbound` of `raw` for `rcpt`, signed with WEBHOOK_SECRET
    (the app's PBEM_INBOUND_SECRET)."""
    stamp = str(int(time.time()))
    return app.test_client().post("/inbound", data=raw, headers={
        "X-PBEM-Timestamp": stamp, "X-PBEM-Signature": sign(WEBHOOK_SECRET, stamp, raw),
        "X-PBEM-Recipient": rcpt, "Content-Type": "message/rfc822"})


def two_human_game(engine: Engine, seed: int = 7) -> int:
    """Ann (seat 0) and Bob (seat 1) against two robots; dealt, in the pass phase."""
    ctx = service.Context(engine=engine, rng=service.make_rng(seed))
    return service.create_game(ctx, name="Friday night", players=[ANN, BOB],
                               bot_seats=(2, 3), robot_strength="easy").game_id


def state_of(engine: Engine, game_id: int) -> GameState:
    with transaction(engine, read_only=True) as session:
        return load_state(session, game_id).state


def seq_of(engine: Engine, game_id: int) -> int:
    with transaction(engine, read_only=True) as session:
        return load_state(session, game_id).seq


def to_play(engine: Engine, game_id: int) -> tuple[int, GameState]:
    """Both humans pass their three highest cards (through the service); then the seat of the
    human whose turn it is, and the state."""
    ctx = service.Context(engine=engine, rng=service.make_rng(1))
    for seat in (0, 1):
        state = state_of(engine, game_id)
        if state.phase is Phase.PASS and seat in state.to_move:
            service.pass_cards(ctx, game_id, seat, state.hand(seat)[-3:])
    state = state_of(engine, game_id)
    assert state.phase is Phase.PLAY and state.turn in (0, 1)
    return state.turn, state


def a_card_reply(engine: Engine) -> tuple[int, CardPlayed, bytes, str]:
    """A two-human game waiting for a human's card, and their reply playing a legal one: the
    game, the move it makes, the message and its envelope recipient."""
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    token = latest_token(engine, me, "turn")
    card = legal(state, seat)
    return game, CardPlayed(seat, card), reply(token, str(card), sender=me), \
        f"play+{token}@pbem.test"


def emails(engine: Engine, to: str, kind: str | None = None) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        query = select(OutboxEmail).where(OutboxEmail.to_addr == to)
        if kind:
            query = query.where(OutboxEmail.kind == kind)
        return list(session.exec(query.order_by(col(OutboxEmail.id))))


def latest_token(engine: Engine, to: str, kind: str | None = None) -> str:
    """The reply token of the newest email to `to` (of `kind`)."""
    found = [e for e in emails(engine, to, kind) if "Reply-To" in e.headers]
    match = _REPLY_TO.search(found[-1].headers["Reply-To"])
    assert match
    return match.group(1)


def player(engine: Engine, email: str) -> Player:
    with transaction(engine, read_only=True) as session:
        found = session.exec(select(Player).where(Player.email == email)).one()
        return found


def reply(token: str | None, body: str, *, sender: str = "Ann <ann@example.org>",
          to: str | None = None, references: bool = True, message_id: str | None = None,
          headers: dict[str, str] | None = None) -> bytes:
    """A Gmail-like top-posted reply with the original quoted under it."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to or f"Hearts <play+{token}@pbem.test>"
    message["Subject"] = "Re: Hearts: Friday night"
    message["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@mail.example>"
    if references and token:
        message["References"] = f"<pbem.game-1.player-1@pbem.test> <pbem.reply.{token}@pbem.test>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(f"{body}\n\nOn Sat, Nov 21, 2026 at 9:47 AM Hearts wrote:\n"
                        "> --- Reply above this line ---\n> Reply with the card, e.g. 2C\n")
    return message.as_bytes(policy=SMTP)


def legal(state: GameState, seat: int) -> Card:
    return legal_cards(state, seat)[0]


def illegal(state: GameState, seat: int) -> Card:
    allowed = set(legal_cards(state, seat))
    return next(c for c in state.hand(seat) if c not in allowed)
