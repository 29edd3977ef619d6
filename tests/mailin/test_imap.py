"""IMAP end to end against a real Dovecot: a reply appended to the inbox is played once and
moved to the done folder; the next human gets their turn email."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from imap_tools import MailBoxUnencrypted

from pbem.mailin.imap import poll_imap
from tests.mail.mailtest_support import free_port
from tests.mailin.dovecot import DOVECOT, PASSWORD, USER, Dovecot
from tests.mailin.test_ways_in import play_by_reply

pytestmark = pytest.mark.skipif(DOVECOT is None, reason="dovecot is not installed "
                                "(apt-get install dovecot-imapd)")


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    # Not under pytest's tmp_path: its parent is private to root, and Dovecot's auth process
    # (user dovecot) must read the passwd file.
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)
    server = Dovecot(root, free_port())
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str, dovecot: Dovecot) -> Flask:
    return make_app(DATABASE_URL=db_url, IMAP_HOST="127.0.0.1", IMAP_PORT=str(dovecot.port),
                    IMAP_USER=USER, IMAP_PASSWORD=PASSWORD, IMAP_DONE_FOLDER="Handled")


def test_a_reply_fetched_by_imap_plays_once_and_is_moved(app: Flask, dovecot: Dovecot) -> None:
    def send(raw: bytes, rcpt: str) -> None:
        with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(USER, PASSWORD) as box:
            box.append(raw, "INBOX")
        assert poll_imap(app) == 1

    play_by_reply(app, send)
    with MailBoxUnencrypted("127.0.0.1", dovecot.port).login(USER, PASSWORD) as box:
        assert list(box.uids()) == []
        box.folder.set("Handled")
        assert len(box.uids()) == 2
