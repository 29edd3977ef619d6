"""DKIM signatures (dkimpy) over what RFC 8058 requires, checked with the public key; VERP
envelope senders that map a bounce to its email and player, and refuse forged ones."""

from __future__ import annotations

import base64
import re
import subprocess
from dataclasses import replace
from pathlib import Path

import dkim
import pytest
from sqlalchemy import Engine

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import SmtpSettings, drain_outbox, enqueue, record_bounce, verp_row_id
from pbem.store.db import transaction
from pbem.store.models import Player
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_outbox import add_player, queue, rows


@pytest.fixture(scope="module")
def dkim_keys(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """A fresh RSA key pair: (PEM private key, the DNS TXT record's value)."""
    folder = tmp_path_factory.mktemp("dkim")
    key = folder / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(key), "2048"], check=True,
                   capture_output=True)
    public = subprocess.run(["openssl", "rsa", "-in", str(key), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return key.read_bytes(), b"v=DKIM1; k=rsa; p=" + base64.b64encode(public)


def test_sent_mail_is_dkim_signed_over_the_unsubscribe_headers(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        dkim_keys: tuple[bytes, bytes]) -> None:
    private, txt = dkim_keys
    settings = replace(smtp_server.settings, dkim_key=private, dkim_domain="hearts.test",
                       dkim_selector="pbem")
    player = add_player(sqlite_engine)
    with transaction(sqlite_engine) as session:
        headers = build_headers(mail_settings, kind="turn", to_name="Alice",
                                to_addr="alice@example.org", player_id=player,
                                unsubscribe_token="u-token")
        enqueue(session, kind="turn", to_addr="alice@example.org", subject="mail 0",
                body_text="body 0", body_html="<p>body 0</p>", headers=headers,
                player_id=player)
    assert len(drain_outbox(sqlite_engine, settings).sent) == 1
    data = smtp_server.messages[0].data

    def dns(name: bytes, timeout: int = 5) -> bytes:
        assert name == b"pbem._domainkey.hearts.test."
        return txt

    assert dkim.verify(data, dnsfunc=dns)
    message = smtp_server.messages[0].message
    assert message["List-Unsubscribe"] and message["List-Unsubscribe-Post"]
    signed = re.search(r"\bh=([^;]+)", str(message["DKIM-Signature"]).replace(" ", ""))
    assert signed is not None
    names = {n.lower() for n in signed.group(1).replace("\r\n", "").split(":")}
    assert {"list-unsubscribe", "list-unsubscribe-post", "from", "subject"} <= names
    tampered = data.replace(b"body 0", b"body X")
    assert not dkim.verify(tampered, dnsfunc=dns)


def test_without_a_key_nothing_is_signed(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    queue(sqlite_engine, mail_settings, add_player(sqlite_engine), 1)
    drain_outbox(sqlite_engine, smtp_server.settings)
    assert smtp_server.messages[0].message["DKIM-Signature"] is None


def test_a_bounce_to_the_verp_sender_marks_its_player(
        sqlite_engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings) -> None:
    settings = replace(smtp_server.settings, bounce_localpart="bounces",
                       bounce_domain="hearts.test", bounce_secret=b"s" * 32)
    player = add_player(sqlite_engine)
    queue(sqlite_engine, mail_settings, player, 1)
    drain_outbox(sqlite_engine, settings)
    sender = smtp_server.messages[0].mail_from
    [row] = rows(sqlite_engine)
    assert re.fullmatch(rf"bounces\+{row.id}-[0-9a-f]{{10}}@hearts\.test", sender)
    assert verp_row_id(settings.bounce_secret, f"<{sender}>") == row.id
    forged = sender.replace(f"+{row.id}-", f"+{row.id + 1}-")
    assert verp_row_id(settings.bounce_secret, forged) is None
    assert verp_row_id(b"another secret" * 3, sender) is None
    assert record_bounce(sqlite_engine, row.id, "550 5.1.1 user unknown") == player
    with transaction(sqlite_engine, read_only=True) as session:
        assert session.get(Player, player).email_status == "failing"  # type: ignore[union-attr]
    assert rows(sqlite_engine)[0].status == "failed"


def test_settings_read_the_key_file(tmp_path: Path, dkim_keys: tuple[bytes, bytes]) -> None:
    (tmp_path / "k.pem").write_bytes(dkim_keys[0])
    settings = SmtpSettings.from_config({"DKIM_KEY_FILE": str(tmp_path / "k.pem"),
                                         "MAIL_DOMAIN": "hearts.test"})
    assert settings.dkim_key == dkim_keys[0] and settings.dkim_domain == "hearts.test"
