"""The mail catcher: SMTP in, .eml files and an index on disk, /mail pages in development only."""

from __future__ import annotations

import smtplib
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from flask import Flask

from pbem.devmail.server import start_catcher
from pbem.devmail.store import MailStore
from pbem.devmail.web import with_base_target
from tests.settings import PRODUCTION_SAFE
from tests.web.support import free_port


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "caught-mail"


@pytest.fixture
def catcher(folder: Path) -> Iterator[Controller]:
    controller = start_catcher(folder, port=free_port())
    yield controller
    controller.stop()


@pytest.fixture
def mail_app(make_app: Callable[..., Flask], folder: Path) -> Flask:
    return make_app(DEVMAIL_FOLDER=str(folder))


def send(controller: Controller, subject: str, *, html: str | None = None,
         to: str = "You <you@example.com>") -> None:
    msg = EmailMessage()
    msg["From"] = "Hearts <hearts@pbem.test>"
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(f"text of {subject}\n")
    if html is not None:
        msg.add_alternative(html, subtype="html")
    with smtplib.SMTP(controller.hostname, controller.port) as smtp:
        smtp.send_message(msg)


def test_each_message_is_kept_as_an_eml_file_with_an_index(catcher: Controller,
                                                          folder: Path) -> None:
    send(catcher, "first")
    send(catcher, "second")
    assert len(list(folder.glob("*.eml"))) == 2
    assert (folder / "index.jsonl").exists()
    listed = MailStore(folder).entries()
    assert [m.subject for m in listed] == ["second", "first"]  # newest first
    assert listed[0].rcpt_tos == ["you@example.com"]


def test_caught_mail_survives_a_restart(folder: Path) -> None:
    first = start_catcher(folder, port=free_port())
    send(first, "before restart")
    first.stop()
    second = start_catcher(folder, port=free_port())
    send(second, "after restart")
    second.stop()
    assert [m.subject for m in MailStore(folder).entries()] == ["after restart", "before restart"]


def test_inbox_lists_to_subject_and_time_newest_first(catcher: Controller,
                                                      mail_app: Flask) -> None:
    send(catcher, "older one")
    send(catcher, "newer one", to="Ann <ann@example.com>")
    page = mail_app.test_client().get("/mail")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert html.index("newer one") < html.index("older one")
    assert "Ann &lt;ann@example.com&gt;" in html


def test_show_puts_the_html_in_a_sandboxed_srcdoc_iframe(catcher: Controller,
                                                         mail_app: Flask) -> None:
    send(catcher, "turn", html='<html><head></head><body><a href="http://x/t/1">QS</a>'
                              "<script>alert(1)</script></body></html>")
    client = mail_app.test_client()
    (mail,) = MailStore(Path(mail_app.config["DEVMAIL_FOLDER"])).entries()
    html = client.get(f"/mail/{mail.id}").get_data(as_text=True)
    assert '<iframe class="mail"' in html and 'sandbox="' in html
    assert "allow-scripts" not in html
    assert 'srcdoc="&lt;html&gt;&lt;head&gt;&lt;base target=&#34;_top&#34;&gt;' in html
    assert "<script>alert(1)</script>" not in html  # escaped into the attribute only
    assert f'href="/mail/{mail.id}/text"' in html
    text = client.get(f"/mail/{mail.id}/text")
    assert text.mimetype == "text/plain" and "text of turn" in text.get_data(as_text=True)
    assert b"Subject: turn" in client.get(f"/mail/{mail.id}/raw").data


def test_unknown_or_crafted_ids_are_404(catcher: Controller, mail_app: Flask) -> None:
    client = mail_app.test_client()
    for mail_id in ("nope", "20250101T000000000000-deadbeef", "..%2Findex.jsonl"):
        assert client.get(f"/mail/{mail_id}").status_code == 404
        assert client.get(f"/mail/{mail_id}/raw").status_code == 404


def test_base_target_goes_into_the_head_or_in_front() -> None:
    assert with_base_target("<HTML><Head lang=en><title>") == (
        '<HTML><Head lang=en><base target="_top"><title>')
    assert with_base_target("<p>hi</p>") == '<base target="_top"><p>hi</p>'


def test_no_mail_pages_in_production(make_app: Callable[..., Flask]) -> None:
    app = make_app(**PRODUCTION_SAFE)
    assert "devmail" not in app.blueprints
    assert app.test_client().get("/mail").status_code == 404


def test_mail_pages_in_development(app: Flask) -> None:
    assert "devmail" in app.blueprints
    assert app.test_client().get("/mail").status_code == 200
