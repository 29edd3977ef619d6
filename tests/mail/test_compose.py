"""Headers of outgoing mail: threading, reply tokens, unsubscribe, and no header injection."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest

from pbem.mail.compose import MailSettings, build_headers, serialize, to_message
from pbem.mail.headers import HeaderInjectionError, clean_header_text, verify_headers

WHEN = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
INJECTIONS = [
    "=?UTF-8?Q?=0A?=Bcc: evil@x",
    "Bob\r\nBcc: evil@x",
    "Bob\nBcc: evil@x",
    "Bob\rBcc: evil@x",
    "x" * 70 + " =?UTF-8?Q?=0A?=Bcc: evil@x",
    "=?UTF-8?B?Cg==?=Bcc: evil@x",
    "Bob\u2028Bcc: evil@x",
    "Bob\x85Bcc: evil@x",
    "=?utf-8?q?=3D=3FUTF-8=3FQ=3F=3D0A=3F=3D?=Bcc: evil@x",  # encoded encoded word
]


def roundtrip(msg: EmailMessage) -> EmailMessage:
    """What a receiver sees: the checked bytes the sender sends, parsed."""
    return message_from_bytes(serialize(msg), policy=policy.default)  # type: ignore[return-value]


def make(settings: MailSettings, name: str = "Alice", subject: str = "Hearts: Friday") -> (
        EmailMessage):
    headers = build_headers(settings, kind="turn", to_name=name, to_addr="alice@example.org",
                            game_id=7, player_id=3, reply_token="abc234",
                            unsubscribe_token="UNSUB")
    return roundtrip(to_message(subject=subject, body_text="text ♠", body_html="<p>html</p>",
                                headers=headers, date=WHEN))


def test_message_id_is_unique_per_email_and_names_kind_and_domain(
        mail_settings: MailSettings) -> None:
    first, second = make(mail_settings), make(mail_settings)
    assert first["Message-ID"].startswith("<pbem.turn.")
    assert first["Message-ID"].endswith("@hearts.test>")
    assert first["Message-ID"] != second["Message-ID"]


def test_all_emails_of_one_player_in_one_game_share_a_thread_root(
        mail_settings: MailSettings) -> None:
    msg = make(mail_settings)
    root = "<pbem.game-7.player-3@hearts.test>"
    assert msg["In-Reply-To"] == root
    assert msg["References"].split() == [root, "<pbem.reply.abc234@hearts.test>"]


def test_reply_token_is_in_the_reply_address(mail_settings: MailSettings) -> None:
    msg = make(mail_settings)
    assert msg["Reply-To"].addresses[0].addr_spec == "play+abc234@hearts.test"
    assert msg["From"].addresses[0].addr_spec == "hearts@hearts.test"


def test_loop_and_auto_submitted_headers(mail_settings: MailSettings) -> None:
    msg = make(mail_settings)
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-PBEM-Loop"] == "hearts.test"


def test_one_click_unsubscribe_has_the_https_url_only(mail_settings: MailSettings) -> None:
    msg = make(mail_settings)
    assert msg["List-Unsubscribe"] == "<https://hearts.test/u/UNSUB>"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_multipart_alternative_with_text_first(mail_settings: MailSettings) -> None:
    msg = make(mail_settings)
    assert msg.get_content_type() == "multipart/alternative"
    parts = [p.get_content_type() for p in msg.iter_parts()]
    assert parts == ["text/plain", "text/html"]
    assert msg.get_body(("plain",)).get_content().strip() == "text ♠"


@pytest.mark.parametrize("evil", INJECTIONS)
def test_player_name_cannot_inject_headers(mail_settings: MailSettings, evil: str) -> None:
    raw = make(mail_settings, name=evil).as_bytes()
    assert b"evil" in raw or "evil" not in evil  # the name is kept, only made harmless
    msg = message_from_bytes(raw, policy=policy.default)
    assert msg["Bcc"] is None
    assert b"\nBcc:" not in raw.replace(b"\r\n", b"\n")
    assert len(msg["To"].addresses) == 1
    assert msg["To"].addresses[0].addr_spec == "alice@example.org"


@pytest.mark.parametrize("evil", INJECTIONS)
def test_subject_cannot_inject_headers(mail_settings: MailSettings, evil: str) -> None:
    raw = make(mail_settings, subject=evil).as_bytes()
    msg = message_from_bytes(raw, policy=policy.default)
    assert msg["Bcc"] is None
    assert "\n" not in msg["Subject"]


def test_clean_header_text_keeps_ordinary_names() -> None:
    assert clean_header_text("  Zoë   O'Brien, Jr. ") == "Zoë O'Brien, Jr."
    assert clean_header_text("=?UTF-8?Q?Zo=C3=AB?=") == "Zoë"
    assert "\n" not in clean_header_text("a\r\nb") and "=?" not in clean_header_text("=?x")


def test_the_python_here_needs_the_cleaning() -> None:
    """Without clean_header_text an encoded newline becomes a header (CVE-2024-6923)."""
    msg = EmailMessage()
    msg["Subject"] = "=?UTF-8?Q?=0A?=Bcc: evil@x"
    msg.set_content("x")
    serialized = msg.as_bytes()
    if b"\nBcc:" not in serialized:  # this Python quotes encoded newlines (CVE-2024-6923 fixed):
        verify_headers(msg, msg.keys())  # the check lets its safe bytes through
        assert b"\nBcc:" not in msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
        return
    with pytest.raises(HeaderInjectionError):
        verify_headers(msg, msg.keys())
