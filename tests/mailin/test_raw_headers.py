"""Headers as mail clients really send them (raw 8-bit, encoded words, folded lines): the
loop checks, the sender and the routing read them without failing and without being fooled."""

from __future__ import annotations

from pbem.mail.compose import MailSettings
from pbem.mailin.loops import automatic_reason, sender_address
from pbem.mailin.parse import parse_message, reply_text
from pbem.mailin.route import candidate_tokens

SETTINGS = MailSettings(domain="hearts.test", base_url="https://hearts.test")


def raw_message(*headers: bytes, body: bytes = b"QS\r\n") -> bytes:
    return b"\r\n".join([*headers, b"Content-Type: text/plain; charset=utf-8", b"", body])


def test_a_from_with_raw_utf8_bytes_still_gives_the_address() -> None:
    message = parse_message(raw_message(
        "From: Zoë Ünal <zoe@example.org>".encode(),
        b"To: play+abcdefghijklmnopqrstuvwx@hearts.test", b"Subject: Re: your turn"))
    assert sender_address(message) == "zoe@example.org"
    assert automatic_reason(message) is None
    assert reply_text(message).strip() == "QS"


def test_an_encoded_word_name_and_a_folded_references_header_route_by_token() -> None:
    message = parse_message(raw_message(
        b"From: =?utf-8?q?Zo=C3=AB?= <zoe@example.org>",
        b"To: =?utf-8?q?Hearts_=E2=99=A5?= <hearts@hearts.test>",
        b"References: <a1@hearts.test>\r\n <pbem.reply.abcdefghijklmnop@hearts.test>\r\n"
        b" <b2@elsewhere.test>"))
    assert sender_address(message) == "zoe@example.org"
    assert candidate_tokens(message, SETTINGS) == [("abcdefghijklmnop", "references")]


def test_a_folded_auto_submitted_header_is_still_an_autoresponder() -> None:
    message = parse_message(raw_message(
        b"From: zoe@example.org", b"Auto-Submitted:\r\n auto-replied"))
    assert automatic_reason(message) == "Auto-Submitted: auto-replied"


def test_an_attachment_named_in_raw_utf8_is_skipped() -> None:
    raw = b"\r\n".join([
        b"From: zoe@example.org", b"MIME-Version: 1.0",
        b'Content-Type: multipart/mixed; boundary="b"', b"", b"--b",
        b"Content-Type: text/plain; charset=utf-8", b"", b"QS", b"--b",
        b"Content-Type: text/plain; charset=utf-8",
        'Content-Disposition: attachment; filename="Zoë.txt"'.encode(), b"", b"KH", b"--b--", b""])
    assert reply_text(parse_message(raw)).strip() == "QS"
