"""deploy/gunicorn.conf.py serves SQLite with one web worker (one writer at a time for the whole
file: more processes only queue on its writer lock), PostgreSQL with one per core (2 to 8),
and says which when it is ready; PBEM_WEB_WORKERS wins over both. It opens no control
socket, and keeps the workers' heartbeat files in memory (/dev/shm)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.store.testing import create_tables
from tests.ops.support import wait_until_serving
from tests.web.support import free_port

REPO = Path(__file__).resolve().parents[2]
CONF = REPO / "deploy" / "gunicorn.conf.py"
READ_WORKERS = "import runpy, sys; print(runpy.run_path(sys.argv[1])['workers'])"


def _env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return {**env, "PYTHONPATH": str(REPO), **settings}


def _workers(**settings: str) -> int:
    """The `workers` gunicorn reads from the config file in this environment."""
    done = subprocess.run([sys.executable, "-c", READ_WORKERS, str(CONF)], env=_env(**settings),
                          capture_output=True, text=True, timeout=60, check=True)
    return int(done.stdout)


@pytest.mark.parametrize(("settings", "expected"), [
    ({"PBEM_DATABASE_URL": "sqlite:////var/lib/pbem/pbem.sqlite3"}, 1),
    ({"PBEM_INSTANCE_PATH": "/var/lib/pbem"}, 1),  # no URL: the instance folder's SQLite file
    ({"PBEM_DATABASE_URL": "postgresql+psycopg://pbem@127.0.0.1/pbem"},
     min(max(multiprocessing.cpu_count(), 2), 8)),
    ({"PBEM_DATABASE_URL": "sqlite:////var/lib/pbem/pbem.sqlite3", "PBEM_WEB_WORKERS": "3"}, 3),
    ({"PBEM_DATABASE_URL": "postgresql://pbem@db/pbem", "PBEM_WEB_WORKERS": "2"}, 2),
])
def test_the_number_of_web_workers_follows_the_database(settings: dict[str, str],
                                                         expected: int) -> None:
    assert _workers(**settings) == expected


def test_a_real_gunicorn_on_sqlite_boots_one_worker_and_says_why(tmp_path: Path) -> None:
    """...and opens no control socket (gunicorn 27 would, in $HOME/.gunicorn)."""
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    create_tables(url)
    port = free_port()
    home = tmp_path / "home"
    home.mkdir()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(CONF), "pbem.wsgi:app"],
        env=_env(PBEM_DATABASE_URL=url, PBEM_BIND=f"127.0.0.1:{port}", HOME=str(home),
                 PBEM_INSTANCE_PATH=str(tmp_path / "instance")),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_until_serving(server, port)
        heartbeats = _open_files_of_children(server.pid)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    assert output.count("Booting worker") == 1, output
    # the worker's heartbeat file, touched at every request, is in memory (not on /tmp's disk)
    assert any(name.startswith("/dev/shm/wgunicorn-") for name in heartbeats), heartbeats
    assert "pbem: 1 web worker(s), 2 thread(s) each (SQLite: one writer at a time" in output
    assert "Control socket" not in output and list(home.iterdir()) == [], output


def _open_files_of_children(pid: int) -> list[str]:
    """What the child processes of `pid` (gunicorn's workers) have open, by path."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    names = []
    for child in children:
        for fd in Path(f"/proc/{child}/fd").iterdir():
            try:
                names.append(os.readlink(fd))
            except OSError:  # closed meanwhile
                continue
    return names
