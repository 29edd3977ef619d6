"""Issue 13.4: unauthenticated memory exhaustion through mail in.

`POST /inbound` with `Transfer-Encoding: chunked` (no Content-Length, as gunicorn hands it on
with `wsgi.input_terminated`) and a bad signature used to be read whole before the HMAC check;
`pbem ingest` read standard input whole. Both now read at most the cap."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.mailin.receive import MAX_MESSAGE_BYTES
from pbem.mailin.spool import waiting
from pbem.mailin.webhook import sign
from pbem.store.db import transaction
from pbem.store.models import InboundMail
from tests.security.support import pbem_env, pbem_process

SECRET = "webhook-secret"


class EndlessBody:
    """A request body of `size` bytes made as it is read, counting what the server read."""

    def __init__(self, size: int) -> None:
        self.size, self.read_bytes = size, 0

    def read(self, n: int = -1) -> bytes:
        left = self.size - self.read_bytes
        n = left if n is None or n < 0 else min(n, left)
        self.read_bytes += n
        return b"x" * n

    def readline(self, n: int = -1) -> bytes:
        return self.read(n)


def _post_chunked(app: Flask, body: EndlessBody, signature: str, stamp: str) -> int:
    response = app.test_client().post("/inbound", headers={
        "X-PBEM-Timestamp": stamp, "X-PBEM-Signature": signature,
        "Transfer-Encoding": "chunked", "Content-Type": "message/rfc822",
    }, environ_overrides={"wsgi.input": body, "wsgi.input_terminated": True})
    return response.status_code


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url, INBOUND_SECRET=SECRET)


def test_a_chunked_post_with_a_bad_signature_is_refused_before_its_body_is_read(
        app: Flask) -> None:
    body = EndlessBody(40 * 1024 * 1024)
    assert _post_chunked(app, body, "not-a-signature", str(int(time.time()))) == 401
    assert body.read_bytes == 0
    stale = EndlessBody(40 * 1024 * 1024)
    assert _post_chunked(app, stale, "0" * 64, str(int(time.time()) - 3600)) == 401
    assert stale.read_bytes == 0


def test_a_chunked_post_larger_than_the_cap_is_refused_having_read_no_more_than_the_cap(
        app: Flask) -> None:
    body = EndlessBody(40 * 1024 * 1024)
    # A well-formed signature (of other bytes): only reading the body can tell it is wrong.
    stamp = str(int(time.time()))
    assert _post_chunked(app, body, sign(SECRET, stamp, b"other"), stamp) == 413
    assert body.read_bytes <= MAX_MESSAGE_BYTES + 128 * 1024
    with transaction(db_engine(app), read_only=True) as session:
        assert session.exec(select(InboundMail)).first() is None


def test_every_request_body_is_capped(app: Flask) -> None:
    """MAX_CONTENT_LENGTH is set: a form post of 5 MB is refused without being read."""
    assert app.config["MAX_CONTENT_LENGTH"] <= 1024 * 1024
    response = app.test_client().post("/new", data=b"x" * (5 * 1024 * 1024),
                                      content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413


def test_pbem_ingest_refuses_an_oversize_message_in_bounded_memory(
        tmp_path: Path, db_url: str) -> None:
    """A 60 MB message on standard input: `pbem ingest`, a real process as an MTA pipe runs
    it, reads no more than the cap, spools nothing and exits EX_DATAERR (65) with a sentence
    the MTA puts in its bounce to the sender."""
    head = b"From: ann@example.org\r\nTo: play+abc@pbem.test\r\nSubject: big\r\n\r\n"
    small_kb, _ = _ingest_peak(head + b"y" * 1024, db_url, tmp_path / "small")
    peak_kb, (returncode, stderr) = _ingest_peak(head + b"y" * (60 * 1024 * 1024), db_url,
                                                 tmp_path / "big")
    assert returncode == 65, stderr
    assert b"larger than 10 MB" in stderr
    # Beside the same command given a 1 KB message (Python with pbem imported), reading up to
    # the cap may cost ~10 MB more; reading all of it would cost 60 MB or more.
    assert (peak_kb - small_kb) * 1024 < 3 * MAX_MESSAGE_BYTES, (small_kb, peak_kb)
    assert [len(p.read_bytes()) < 2048 for p in waiting(tmp_path / "small" / "mail-spool")] \
        == [True]  # the 1 KB one, spooled
    assert list(waiting(tmp_path / "big" / "mail-spool")) == []  # nothing kept


def _ingest_peak(message: bytes, db_url: str, home: Path) -> tuple[int, tuple[int, bytes]]:
    """Run `pbem ingest` on `message`; its peak memory in KB, exit code and standard error."""
    home.mkdir()
    proc = pbem_process(["ingest"], pbem_env(db_url, home), peak=True)
    with contextlib.suppress(BrokenPipeError):  # it stopped reading at the cap: as it should
        proc.stdin.write(message)  # type: ignore[union-attr]
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()  # type: ignore[union-attr]
    stderr = proc.stderr.read()  # type: ignore[union-attr]
    proc.wait(60)
    return int(stderr.split()[-1].decode()), (proc.returncode, stderr)
