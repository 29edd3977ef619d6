"""`pbem ingest`, which an MTA starts once per message, loads only what storing and playing a
message needs: not the other commands (migrations, the worker, the dev server), nor the pages,
security and metrics of a serving app (see pbem.cli.ingest_alone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.security.support import pbem_env

LIST_MODULES = ("import atexit, sys; atexit.register(lambda: sys.stderr.write("
                "'modules ' + ' '.join(sorted(sys.modules)) + '\\n')); "
                "from pbem.cli import main; main()")
MESSAGE = (b"From: ann@example.org\r\nTo: play+nosuchtoken@pbem.test\r\nSubject: Re: Hearts\r\n"
           b"Message-ID: <start-1@example.org>\r\n\r\nQS\r\n")
NOT_NEEDED = ("alembic", "apscheduler", "prometheus_client", "flask_limiter", "aiosmtpd",
              "pbem.web", "pbem.scheduler", "pbem.devserver", "pbem.store.migrate",
              "pbem.metrics", "pbem.security")


def test_pbem_ingest_stores_the_message_without_loading_other_commands(
        sqlite_url: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", LIST_MODULES, "ingest"], input=MESSAGE,
                          capture_output=True, env=pbem_env(sqlite_url, tmp_path), timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().startswith("stored #1")
    listed = done.stderr.decode().split("modules ")[-1].split()
    assert "pbem.mailin.process" in listed and "sqlmodel" in listed  # it did store the message
    loaded = [m for m in listed if any(m == n or m.startswith(n + ".") for n in NOT_NEEDED)]
    assert loaded == []
