"""Issue 38.8: deleting an account leaves no trace of its address. Ann replies by real SMTP
(the receiver on loopback) from her address and from a +variant of it, a stranger writes to
her game's reply address quoting her address; she signs in and deletes her account through
the pages. Then no received message, no stored reason and no log line holds her address."""

from __future__ import annotations

import io
import logging
import re
import smtplib
from collections.abc import Callable

from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.logs import setup_logging
from pbem.mailin.process import Inbox
from pbem.mailin.smtp_receiver import ReplyController
from pbem.store.db import transaction
from pbem.store.models import InboundMail
from tests.mailin.support import latest_token, reply, two_human_game
from tests.web.support import csrf_of, free_port, newest

ANN = "ann@example.org"


def _send(controller: ReplyController, raw: bytes, sender: str, to: str) -> None:
    with smtplib.SMTP("127.0.0.1", controller.port) as client:
        client.sendmail(sender, [to], raw)
    controller.reply_handler.drain()


def _delete_account(app: Flask) -> None:
    client = app.test_client()
    form = client.get("/signin").get_data(as_text=True)
    client.post("/signin", data={"csrf_token": csrf_of(form), "address": ANN})
    link = re.search(r"(/signin/[\w-]+)", newest(app, "signin").body_text)
    assert link is not None
    page = client.get(link.group(1)).get_data(as_text=True)
    assert client.post(link.group(1), data={"csrf_token": csrf_of(page)}).status_code == 303
    page = client.get("/me/delete").get_data(as_text=True)
    done = client.post("/me/delete", data={"csrf_token": csrf_of(page), "sure": "yes"})
    assert done.status_code == 200


def test_deleting_an_account_empties_its_mail_and_no_log_names_it(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    two_human_game(engine)
    token = latest_token(engine, ANN)
    stream = io.StringIO()
    handler = setup_logging({"LOG_FORMAT": "plain", "LOG_LEVEL": "DEBUG"}, "mailin",
                            stream=stream)
    controller = ReplyController(Inbox.from_app(app), port=free_port())
    controller.start()
    try:
        _send(controller, reply(token, "help", sender="Ann Lee <Ann@Example.ORG>"), ANN,
              f"play+{token}@pbem.test")
        _send(controller, reply(token, "status", sender="ann+cards@example.org"), ANN,
              f"play+{token}@pbem.test")
        _send(controller, reply(token, f"I am {ANN}, deal me in",
                                sender="mallory@example.net"), "mallory@example.net",
              f"play+{token}@pbem.test")
        _delete_account(app)
    finally:
        controller.stop()
        logging.getLogger().removeHandler(handler)
    with transaction(engine, read_only=True) as db:
        rows = db.exec(select(InboundMail)).all()
    assert len(rows) == 3
    for row in rows:
        assert b"ann@example.org" not in row.raw.lower() and b"ann+cards" not in row.raw
        assert ANN not in (row.reason or "").lower()
    assert all(row.raw == b"" for row in rows)
    logged = stream.getvalue().lower()
    assert "ann@example.org" not in logged and "mallory@example.net" not in logged
