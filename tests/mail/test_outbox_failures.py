"""A recipient's permanent failure (5.1.x) marks the address; a relay's refusal of one message
(5.7.x policy, 5.3.x system...) fails that email only; operators see, retry and reset."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import select

from pbem.app import db_engine
from pbem.mail.compose import MailSettings
from pbem.mail.outbox import drain_outbox, recipient_refused
from pbem.store.db import transaction
from pbem.store.models import Player
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_outbox import add_player, queue, rows


@pytest.mark.parametrize(("code", "text", "at_rcpt", "recipient"), [
    (550, "5.1.1 <gone@example.org>: Recipient address rejected: User unknown", True, True),
    (550, "5.1.10 Recipient address has null MX", True, True),
    (550, "5.2.1 Mailbox disabled", True, True),
    (550, "5.7.1 Relaying denied", True, False),  # the relay's policy, not the address
    (554, "5.7.1 Message rejected as spam", False, False),
    (552, "5.2.2 Mailbox full", True, False),
    (554, "5.3.0 Internal error", True, False),
    (550, "Mailbox unavailable", True, True),  # no enhanced code: a refused RCPT names them
    (554, "Transaction failed", False, False),  # a refused DATA is about the message
    (451, "4.1.1 Try later", True, False),  # 4xx: never permanent
])
def test_which_replies_blame_the_recipient(code: int, text: str, at_rcpt: bool,
                                           recipient: bool) -> None:
    assert recipient_refused(code, text, at_rcpt=at_rcpt) is recipient


def test_a_relay_wide_refusal_fails_the_email_but_not_the_address(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    player = add_player(sqlite_engine)
    smtp_server.recorder.reject["alice@example.org"] = "550 5.7.1 Relaying denied"
    queue(sqlite_engine, mail_settings, player, 1)
    assert len(drain_outbox(sqlite_engine, smtp_server.settings).failed) == 1
    assert [r.status for r in rows(sqlite_engine)] == ["failed"]
    with transaction(sqlite_engine, read_only=True) as session:
        assert session.get(Player, player).email_status == "ok"  # type: ignore[union-attr]


def test_operator_lists_retries_and_resets(
        make_app: Callable[..., Flask], smtp_server: SmtpServer,
        mail_settings: MailSettings) -> None:
    app = make_app(SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_server.port)
    engine = db_engine(app)
    player = add_player(engine, "gone@example.org")
    smtp_server.recorder.reject["gone@example.org"] = "550 5.1.1 No such user"
    queue(engine, mail_settings, player, 2, to_addr="gone@example.org")
    drain_outbox(engine, smtp_server.settings)
    cli = app.test_cli_runner()
    listed = cli.invoke(args=["mail", "list", "--status", "failed"])
    assert listed.exit_code == 0 and listed.output.count("gone@example.org") == 2
    assert "5.1.1 No such user" in listed.output
    assert "0 shown" in cli.invoke(args=["mail", "inbound"]).output

    reset = cli.invoke(args=["mail", "reset", "Gone@Example.org"])
    assert reset.exit_code == 0, reset.output
    with transaction(engine, read_only=True) as session:
        assert session.get(Player, player).email_status == "ok"  # type: ignore[union-attr]
    assert cli.invoke(args=["mail", "reset", "nobody@example.org"]).exit_code != 0

    smtp_server.recorder.reject.clear()
    first = rows(engine)[0].id
    assert "1 failed emails queued again" in cli.invoke(args=["mail", "retry", str(first)]).output
    assert "1 failed emails queued again" in cli.invoke(args=["mail", "retry"]).output
    assert len(drain_outbox(engine, smtp_server.settings).sent) == 2


def test_a_player_clears_the_bounce_mark_from_their_page(app: Flask) -> None:
    from sqlalchemy import update

    from tests.web.support import csrf_of, outbox, seat_path, start_game

    start_game(app)
    path = seat_path(next(m for m in outbox(app) if m.kind == "pass").body_text)
    with transaction(db_engine(app)) as session:
        session.execute(update(Player).values(email_status="failing",
                                              email_status_reason="550 5.1.1 gone"))
    client = app.test_client()
    html = client.get(path).get_data(as_text=True)
    assert "Email me again" in html
    answer = client.post(f"{path}/mail-ok", data={"csrf_token": csrf_of(html)})
    assert answer.status_code == 303
    with transaction(db_engine(app), read_only=True) as session:
        assert {p.email_status for p in session.exec(select(Player))} == {"ok"}
    assert "Email me again" not in client.get(path).get_data(as_text=True)
    # without the form's CSRF token nothing changes
    with transaction(db_engine(app)) as session:
        session.execute(update(Player).values(email_status="failing"))
    assert client.post(f"{path}/mail-ok").status_code == 400
