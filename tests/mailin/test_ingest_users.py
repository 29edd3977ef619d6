"""The mail spool's permissions when the MTA and the worker run as different users (the setup
deploy/README.md describes): the spool belongs to the worker's user and group, mode 2770, and
the MTA's pipe runs as another user with the worker's group. The pipe, under a strict umask,
leaves messages the worker can read and remove; a pipe without the group cannot write there
(the MTA keeps the message: exit 75).

Real users need root: each side is a forked child that drops to its own uid and gid (numbers
no account uses), then runs pbem's own functions.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.mailin.pipe import EX_TEMPFAIL, ingest
from pbem.mailin.receive import store_spooled
from pbem.mailin.spool import waiting
from pbem.store.db import make_engine, transaction
from pbem.store.models import InboundMail
from pbem.store.testing import create_tables

MTA, WORKER, SPOOL_GROUP, OTHER_GROUP = 4242, 4243, 4244, 4245  # SPOOL_GROUP: the worker's
MESSAGE = b"From: ann@example.org\r\nMessage-ID: <users-1@example.org>\r\n\r\nQS\r\n"

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="needs root to act as two other users")


def as_user(uid: int, gid: int, action: Callable[[], int]) -> int:
    """Run `action` in a forked child with only this uid and gid and umask 077 (as Postfix's
    pipe and the hardened systemd unit run); its return value is the child's exit code."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            os.setgroups([])
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            os.umask(0o077)
            code = action()
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stderr.flush()
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.fixture
def spool() -> Iterator[Path]:
    """A spool as deploy/README.md sets it up, in a folder every user may pass through."""
    with tempfile.TemporaryDirectory(dir="/tmp") as top:
        os.chmod(top, 0o711)
        folder = Path(top) / "spool"
        folder.mkdir()
        os.chown(folder, WORKER, SPOOL_GROUP)
        os.chmod(folder, 0o2770)
        yield folder


def _pipe_run(spool: Path) -> Callable[[], int]:
    def run() -> int:
        with tempfile.TemporaryFile() as stdin:
            stdin.write(MESSAGE)
            stdin.seek(0)
            return ingest(stdin, ["play+x@pbem.test"], spool)  # type: ignore[arg-type]

    return run


def _workers_database(top: Path) -> str:
    """A SQLite database in its own folder, both the worker's; its URL."""
    database = top / "db"
    database.mkdir()
    url = f"sqlite:///{database / 'pbem.sqlite3'}"
    create_tables(url)
    for path in (database, *database.iterdir()):
        os.chown(path, WORKER, SPOOL_GROUP)
    return url


def test_the_worker_takes_in_what_an_mta_running_as_another_user_spooled(spool: Path) -> None:
    assert as_user(MTA, SPOOL_GROUP, _pipe_run(spool)) == 0
    [spooled] = waiting(spool)
    info = spooled.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (MTA, SPOOL_GROUP, 0o640)
    assert stat.S_IMODE((spool / "new").stat().st_mode) == 0o2770  # umask 077 or not
    url = _workers_database(spool.parent)

    def take_in() -> int:
        engine = make_engine(url)
        return 0 if store_spooled(engine, spool) == 1 else 1

    assert as_user(WORKER, SPOOL_GROUP, take_in) == 0  # reads as the group, removes: folder's
    assert list(waiting(spool)) == []
    engine = make_engine(url)
    with transaction(engine, read_only=True) as session:
        assert [r.raw for r in session.exec(select(InboundMail))] == [
            b"Delivered-To: play+x@pbem.test\r\n" + MESSAGE]
    engine.dispose()


def test_an_mta_without_the_spools_group_cannot_spool_and_is_told_to_retry(
        spool: Path) -> None:
    assert as_user(MTA, OTHER_GROUP, _pipe_run(spool)) == EX_TEMPFAIL
    assert sorted(p.name for p in spool.iterdir()) == []


def test_a_message_the_worker_cannot_read_is_set_aside_and_the_others_are_taken_in(
        spool: Path) -> None:
    """A file some other program left in new/ unreadable to the worker (0600, another owner):
    moved to failed/ (the worker may rename in its folder), logged, the next file stored."""
    assert as_user(MTA, SPOOL_GROUP, _pipe_run(spool)) == 0
    stray = spool / "new" / "0-stray"
    stray.write_bytes(MESSAGE.replace(b"users-1", b"users-2"))
    os.chown(stray, MTA, OTHER_GROUP)
    os.chmod(stray, 0o600)
    url = _workers_database(spool.parent)

    def take_in() -> int:
        return 0 if store_spooled(make_engine(url), spool) == 1 else 1

    assert as_user(WORKER, SPOOL_GROUP, take_in) == 0
    assert list(waiting(spool)) == [] and [p.name for p in (spool / "failed").iterdir()] == [
        "0-stray"]
