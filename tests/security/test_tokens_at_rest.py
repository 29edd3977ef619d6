"""Issue 13.6: live tokens at rest. Tokens are stored hashed, but sent emails stayed whole in
`outbox_email`, holding usable private-page, unsubscribe, reply and card links. Now an email
keeps its body and token headers only until it is sent (or has failed for good)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from flask import Flask
from sqlalchemy import text
from sqlmodel import select

from pbem.app import db_engine
from pbem.mail.outbox import enqueue
from pbem.scheduler.worker import purge_sent_mail, send_outbox
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail
from tests.mail.mailtest_support import SmtpServer, free_port
from tests.web.support import start_game

# Link tokens are token_urlsafe(18) (24 characters), reply tokens 24 base32 letters.
_LINK_TOKEN = re.compile(r"/(?:t|s|u|p|join)/([A-Za-z0-9_-]{20,})")
_REPLY_TOKEN = re.compile(r"play\+([a-z2-7]{20,})@")


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str, smtp: SmtpServer) -> Flask:
    return make_app(DATABASE_URL=db_url, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp.port)


def _whole_table(app: Flask) -> str:
    """Every value of every outbox row, as text: what a copy of the database would show."""
    with transaction(db_engine(app), read_only=True) as session:
        rows = session.execute(text("SELECT * FROM outbox_email")).all()
    return "\n".join(" ".join(map(str, row)) for row in rows)


def test_sent_emails_keep_no_usable_token(app: Flask, smtp: SmtpServer) -> None:
    start_game(app)  # invitations, the deal, a turn email with card links, a private link
    assert send_outbox(app).sent
    sent = b"\n".join(m.data for m in smtp.messages).decode("utf-8", "replace")
    tokens = set(_LINK_TOKEN.findall(sent)) | set(_REPLY_TOKEN.findall(sent))
    assert len(tokens) >= 5  # the mail that went out does carry them
    at_rest = _whole_table(app)
    assert not [t for t in tokens if t in at_rest]
    with transaction(db_engine(app), read_only=True) as session:
        rows = session.exec(select(OutboxEmail)).all()
    assert rows and all(r.status == "sent" and r.body_text == "" and r.body_html is None
                        and set(r.headers) <= {"Message-ID", "From", "To", "In-Reply-To"}
                        for r in rows)
    # The links themselves still work: only the copies at rest are gone.
    private = re.search(r"http://pbem\.test(/s/[A-Za-z0-9_-]+)", sent)
    assert private and app.test_client().get(private.group(1)).status_code == 200


def test_rows_sent_before_are_emptied_by_the_worker(app: Flask) -> None:
    with transaction(db_engine(app)) as session:
        row = enqueue(session, kind="turn", to_addr="ann@example.org", subject="Hearts: x",
                      body_text="Play: http://pbem.test/t/abcdefghijklmnopqrstuvwx",
                      body_html="<a href='http://pbem.test/t/abcdefghijklmnopqrstuvwx'>QS</a>",
                      headers={"Message-ID": "<m@pbem.test>", "To": "ann@example.org",
                               "Reply-To": "play+abcdefghijklmnopqrstuvwx@pbem.test"})
        session.execute(text("UPDATE outbox_email SET status = 'sent' WHERE id = :id"),
                        {"id": row.id})
    assert purge_sent_mail(app) == 1
    assert "abcdefghijklmnopqrstuvwx" not in _whole_table(app)
    assert purge_sent_mail(app) == 0
