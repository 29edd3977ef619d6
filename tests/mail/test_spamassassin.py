"""No outgoing email scores above 0.5 with SpamAssassin run offline (`spamassassin -t -L`,
network tests off). One email of each kind a game sends most — turns, trick and hand results,
answers to replies (help, status, errors, notes, an unroutable reply, a reply's
confirmation), table talk, the sign-in link — serialized exactly as the
outbox sends it. Skipped only when SpamAssassin is not installed (apt-get install spamassassin).
"""

from __future__ import annotations

import mailbox
import re
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.mail.compose import to_bytes
from pbem.mailin.process import Inbox, deliver
from pbem.service import Context
from pbem.service.accounts import request_signin
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player
from tests.helpers import play_first_legal, state_of
from tests.mailin.support import illegal, latest_token, legal, reply, to_play, two_human_game

SPAMASSASSIN = shutil.which("spamassassin")
LIMIT = 0.5
_STATUS = re.compile(r"^X-Spam-Status: \w+, score=(-?[\d.]+) .*?tests=([^\n]*(?:\n\t[^\n]*)*)",
                     re.MULTILINE)

pytestmark = pytest.mark.skipif(SPAMASSASSIN is None, reason="spamassassin is not installed "
                                "(apt-get install spamassassin)")


def scores(messages: list[bytes]) -> list[tuple[float, str]]:
    """SpamAssassin's score and rules for each message, offline, in one run (`--mbox`: its
    start-up is most of the time), with its own HOME."""
    assert SPAMASSASSIN is not None
    with tempfile.TemporaryDirectory() as home:
        box = mailbox.mbox(f"{home}/out.mbox")
        for raw in messages:
            box.add(mailbox.mboxMessage(raw))
        box.flush()
        with open(f"{home}/out.mbox", "rb") as data:
            out = subprocess.run([SPAMASSASSIN, "--mbox", "-t", "-L"], stdin=data,
                                 capture_output=True, env={"HOME": home, "PATH": "/usr/bin:/bin"},
                                 timeout=600, check=True).stdout.decode("utf-8", "replace")
    found = [(float(m.group(1)), " ".join(m.group(2).split())) for m in _STATUS.finditer(out)]
    assert len(found) == len(messages), out[:2000]
    return found


def one_of_each_kind(app: Flask) -> dict[str, bytes]:
    engine = db_engine(app)
    inbox = Inbox.from_app(app)
    with app.app_context():
        game = two_human_game(engine)
        seat, state = to_play(engine, game)
        me = ("ann@example.org", "bob@example.org")[seat]
        token = latest_token(engine, me, "turn")
        for text in ("help", "status", str(illegal(state, seat)), str(legal(state, seat))):
            deliver(inbox, reply(token, text, sender=me))
        deliver(inbox, reply(None, "QS", sender=me, to="Hearts <play@pbem.test>"))
        token = latest_token(engine, me, "turn")
        for text in ("say good game, all", "away 1-14 August"):  # table talk, a note
            deliver(inbox, reply(token, text, sender=me))
        request_signin(Context(engine=engine), me)  # the sign-in link (issue 19)
        play_out_the_hand(engine, game)  # trick and hand results
        other = ("ann@example.org", "bob@example.org")[1 - seat]
        deliver(inbox, reply(latest_token(engine, other), "end", sender=other))  # a vote
        deliver(inbox, reply(latest_token(engine, me, "end_vote"), "play on", sender=me))
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail).order_by(col(OutboxEmail.id)))
        found: dict[str, bytes] = {}
        for row in rows:
            found.setdefault(row.kind, to_bytes(
                subject=row.subject, body_text=row.body_text, body_html=row.body_html,
                headers=row.headers, date=datetime(2026, 11, 21, 9, 47, tzinfo=UTC)))
    return found


def play_out_the_hand(engine: Engine, game: int) -> None:
    """Ann asks for each trick's result; the hand is played to its end."""
    with transaction(engine) as session:
        ann = session.exec(select(Player).where(Player.email == "ann@example.org")).one()
        ann.notify = "each_trick"
        session.add(ann)
    ctx = Context(engine=engine)
    hand = state_of(engine, game).hand_number
    while state_of(engine, game).hand_number == hand:
        play_first_legal(ctx, game)


def test_no_outgoing_email_scores_above_half_a_point(make_app: object) -> None:
    app = make_app(BASE_URL="https://hearts.example.org")  # type: ignore[operator]
    kinds = one_of_each_kind(app)
    assert {"turn", "help", "status", "error", "unroutable", "signin", "say", "note",
            "trick_result", "hand_result", "move_confirmed", "end_vote"} <= set(kinds)
    scored = dict(zip(kinds, scores(list(kinds.values())), strict=True))
    high = {kind: found for kind, found in scored.items() if found[0] > LIMIT}
    assert not high, high
    # the hidden preview line once had the background's colour: HTML_FONT_LOW_CONTRAST
    contrast = [kind for kind, (_score, rules) in scored.items()
                if "HTML_FONT_LOW_CONTRAST" in rules]
    assert not contrast, contrast
