"""The bytes the outbox sends (`to_bytes`): same message as the EmailMessage path, checked
headers, no injection, correct MIME as the standard library parses it."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import EmailMessage

import pytest

from pbem.mail.compose import (
    MailSettings,
    build_headers,
    check_header_block,
    serialize,
    to_bytes,
    to_message,
)
from pbem.mail.headers import HeaderInjectionError, verify_headers
from pbem.mail.render import Renderer
from tests.mail.test_compose import INJECTIONS

WHEN = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
ADDRESS_HEADERS = {"From", "To", "Reply-To"}
TEXT = "--- Reply above this line ---\nHi Zoë, 2♣ to play.\n\n. a dot line\nend\n"
HTML = "<p>Hi Zoë</p>\n<p>" + "x" * 2000 + "</p>"


def headers_for(settings: MailSettings, name: str = "Alice") -> dict[str, str]:
    return build_headers(settings, kind="turn", to_name=name, to_addr="alice@example.org",
                         game_id=7, player_id=3, reply_token="abc234",
                         unsubscribe_token="UNSUB")


def parse(data: bytes) -> EmailMessage:
    return message_from_bytes(data, policy=policy.default)


def both(settings: MailSettings, *, name: str = "Alice", subject: str = "Hearts: Friday",
         text: str = TEXT, html: str | None = HTML) -> tuple[bytes, EmailMessage]:
    """The fast bytes, and the EmailMessage path's message (the reference)."""
    headers = headers_for(settings, name)
    fast = to_bytes(subject=subject, body_text=text, body_html=html, headers=headers,
                    date=WHEN)
    slow = to_message(subject=subject, body_text=text, body_html=html, headers=headers,
                      date=WHEN)
    return fast, parse(serialize(slow))


@pytest.mark.parametrize("name", ["Alice", "Zoë O'Brien, Jr.", "李小龍 " * 10,
                                  '"Quoted" \\ Name <x@y>', "a" * 120])
@pytest.mark.parametrize("html", [HTML, None], ids=["alternative", "text-only"])
def test_same_message_as_the_email_package_builds(
        mail_settings: MailSettings, name: str, html: str | None) -> None:
    fast, reference = both(mail_settings, name=name, subject=f"Hearts: {name}", html=html)
    msg = parse(fast)
    assert not msg.defects and all(not part.defects for part in msg.walk())
    wanted = sorted(k for k in reference if k.lower() != "content-transfer-encoding")
    assert sorted(k for k in msg if k.lower() != "content-transfer-encoding") == wanted
    for key in wanted:
        if key in ADDRESS_HEADERS:  # see test_non_ascii_display_names_decode_exactly
            assert "".join(str(msg[key]).split()) == "".join(str(reference[key]).split())
        elif key != "Content-Type":  # the boundary differs
            assert str(msg[key]) == str(reference[key]), key
    assert msg["To"].addresses[0].addr_spec == "alice@example.org"
    assert msg.get_content_type() == reference.get_content_type()
    assert msg.get_body(("plain",)).get_content() == TEXT.replace("\n", "\r\n")  # type: ignore[union-attr]
    if html:
        assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]
        assert msg.get_body(("html",)).get_content() == html  # type: ignore[union-attr]


def test_non_ascii_display_names_decode_exactly(mail_settings: MailSettings) -> None:
    """RFC 2047 decoders ignore the space between encoded words (email.header does; the
    newer headerregistry parser keeps it, for both build paths, hence .split() above)."""
    name = "李小龍 Zoë " * 8
    fast, _ = both(mail_settings, name=name)
    raw = message_from_bytes(fast)["To"]  # compat32: the raw (folded) value
    decoded = str(make_header(decode_header(raw.replace("\r\n", ""))))
    assert decoded == f"{name.strip()} <alice@example.org>"


def test_lines_are_crlf_folded_and_short(mail_settings: MailSettings) -> None:
    fast, _ = both(mail_settings, name="Zoë " * 20, subject="Hearts: " + "ü" * 150)
    head = fast.partition(b"\r\n\r\n")[0]
    assert b"\n" not in fast.replace(b"\r\n", b"")
    assert b"\r" not in fast.replace(b"\r\n", b"")
    assert all(len(line) <= 78 for line in head.split(b"\r\n"))
    assert all(len(line) <= 998 for line in fast.split(b"\r\n"))
    verify_headers(parse(fast), parse(fast).keys(), fast)  # the stdlib parser agrees


def test_a_rendered_turn_email_roundtrips(mail_settings: MailSettings) -> None:
    from benchmarks.mail_render import turn_context

    rendered = Renderer().render("turn", **turn_context())
    data = to_bytes(subject="Hearts: Friday", body_text=rendered.text,
                    body_html=rendered.html, headers=headers_for(mail_settings), date=WHEN)
    msg = parse(data)
    assert msg.get_body(("html",)).get_content() == rendered.html  # type: ignore[union-attr]
    text = msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert text.replace("\r\n", "\n").rstrip("\n") == rendered.text.rstrip("\n")


@pytest.mark.parametrize("evil", INJECTIONS)
def test_names_and_subjects_cannot_inject_headers(mail_settings: MailSettings,
                                                  evil: str) -> None:
    fast, _ = both(mail_settings, name=evil, subject=evil)
    msg = parse(fast)
    assert msg["Bcc"] is None
    assert b"\nBcc:" not in fast.replace(b"\r\n", b"\n")
    assert [a.addr_spec for a in msg["To"].addresses] == ["alice@example.org"]
    assert "\n" not in msg["Subject"]


def test_a_body_line_like_the_boundary_cannot_end_the_part(
        mail_settings: MailSettings) -> None:
    text = "--=_pbem_\n--\n" + "\n".join(f"--=_pbem_{i:024x}--" for i in range(50))
    msg = parse(both(mail_settings, text=text)[0])
    assert len(list(msg.iter_parts())) == 2
    assert msg.get_body(("plain",)).get_content().replace("\r\n", "\n") == text + "\n"  # type: ignore[union-attr]


@pytest.mark.parametrize("header,value", [
    ("Message-ID", "<pbem.turn.é@hearts.test>"),
    ("Bad Name", "x"),
    ("Bad:Name", "x"),
    ("To", "Zoë <zoé@example.org>"),
    ("X-Long", "x" * 1500),
])
def test_unsendable_headers_are_refused(mail_settings: MailSettings, header: str,
                                        value: str) -> None:
    headers = {**headers_for(mail_settings), header: value}
    with pytest.raises(ValueError):
        to_bytes(subject="s", body_text="t", body_html=None, headers=headers, date=WHEN)


GOOD = b"From: a@b\r\nTo: c@d\r\n  folded\r\nSubject: x\r\n\r\nbody\r\n"


def test_check_header_block_accepts_exactly_the_expected_headers() -> None:
    check_header_block(GOOD, ["From", "to", "SUBJECT"])
    with pytest.raises(HeaderInjectionError):
        check_header_block(GOOD, ["From", "To"])
    with pytest.raises(HeaderInjectionError):
        check_header_block(GOOD, ["From", "To", "Subject", "Bcc"])


@pytest.mark.parametrize("bad", [
    b"From: a@b\r\nTo: c@d\nBcc: e@f\r\nSubject: x\r\n\r\nbody",  # bare LF
    b"From: a@b\r\nTo: c@d\rBcc: e@f\r\nSubject: x\r\n\r\nbody",  # bare CR
    b"From: a@b\r\nTo: c@d\r\nBcc: e@f\r\nSubject: x\r\n\r\nbody",  # an extra header
    b"From: a@b\r\nTo: c\xc3\xa9@d\r\nSubject: x\r\n\r\nbody",  # raw 8-bit
    b"From: a@b\r\nTo: c@d\r\nnot a header\r\nSubject: x\r\n\r\nbody",
    b"  From: a@b\r\nTo: c@d\r\nSubject: x\r\n\r\nbody",  # continuation first
    b"From: a@b\r\nTo: c@d\r\nSubject: x\r\nbody",  # no end of headers
])
def test_check_header_block_refuses_malformed_bytes(bad: bytes) -> None:
    with pytest.raises(HeaderInjectionError):
        check_header_block(bad, ["From", "To", "Subject"])
