"""`pbem mail send`: drains the outbox once with the app's SMTP settings, says what happened."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from flask import Flask
from sqlalchemy import Engine

from pbem.mail.compose import MailSettings
from tests.mail.mailtest_support import SmtpServer, free_port
from tests.mail.test_outbox import add_player, queue, received_ids, rows


def app_for(make_app: Callable[..., Flask], db_url: str, port: int) -> Flask:
    return make_app(DATABASE_URL=db_url, SMTP_HOST="127.0.0.1", SMTP_PORT=port)


def test_mail_send_drains_the_outbox_and_reports(
        make_app: Callable[..., Flask], db_url: str, engine: Engine,
        smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    good = add_player(engine, "alice@example.org")
    gone = add_player(engine, "gone@example.org")
    smtp_server.recorder.reject["gone@example.org"] = "550 5.1.1 No such user"
    ids = queue(engine, mail_settings, good, 3)
    queue(engine, mail_settings, gone, 1, to_addr="gone@example.org")

    app = app_for(make_app, db_url, smtp_server.port)
    result = app.test_cli_runner().invoke(args=["mail", "send", "--batch", "2"])
    assert result.exit_code == 0, result.output
    assert f"3 sent, 0 to retry later, 1 failed (SMTP 127.0.0.1:{smtp_server.port})" \
        in result.output
    assert received_ids(smtp_server) == Counter(ids)
    assert sorted(r.status for r in rows(engine)) == ["failed", "sent", "sent", "sent"]

    again = app.test_cli_runner().invoke(args=["mail", "send"])
    assert "0 sent, 0 to retry later, 0 failed" in again.output
    assert len(smtp_server.messages) == 3


def test_mail_send_with_the_server_down_keeps_rows_for_later(
        make_app: Callable[..., Flask], db_url: str, engine: Engine,
        mail_settings: MailSettings) -> None:
    player = add_player(engine)
    queue(engine, mail_settings, player, 2)
    app = app_for(make_app, db_url, free_port())  # nobody listens there
    result = app.test_cli_runner().invoke(args=["mail", "send"])
    assert result.exit_code == 0, result.output
    assert "0 sent, 2 to retry later, 0 failed" in result.output
    assert [(r.status, r.attempts) for r in rows(engine)] == [("pending", 1)] * 2


def test_mail_send_works_out_the_moves_waiting_emails_first(
        make_app: Callable[..., Flask], db_url: str, smtp_server: SmtpServer) -> None:
    from pbem.app import db_engine
    from pbem.mail.jobs import jobs_waiting
    from pbem.service import Context, Invitee, create_game

    app = app_for(make_app, db_url, smtp_server.port)
    with app.app_context():
        create_game(Context(engine=db_engine(app), mail_now=False), name="Later", players=[
            Invitee(f"p{n}@example.org", f"P{n}", accepted=True) for n in range(4)])
    assert jobs_waiting(db_engine(app)) == 1
    result = app.test_cli_runner().invoke(args=["mail", "send"])
    assert "8 sent, 0 to retry later, 0 failed" in result.output  # game started + pass, x4
    assert jobs_waiting(db_engine(app)) == 0


def test_mail_send_is_listed_under_pbem_mail(make_app: Callable[..., Flask]) -> None:
    result = make_app().test_cli_runner().invoke(args=["mail", "--help"])
    assert result.exit_code == 0 and "send" in result.output
