"""Issue 38.4 and 38.8: no log line keeps a live secret or an address. A real gunicorn (with
deploy/gunicorn.conf.py and pbem's logs at DEBUG) serves a whole run: signing in by the
emailed link, adding an address by its signed link, a game's private, card, pass and
unsubscribe links; then every token of every email sent, and
every address used, is looked for in everything the server wrote."""

from __future__ import annotations

import http.cookiejar
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from sqlmodel import col, select

from pbem.logs import address_hash
from pbem.store.db import make_engine, transaction
from pbem.store.models import OutboxEmail
from pbem.store.testing import create_tables
from tests.ops.support import wait_until_serving
from tests.web.support import csrf_of, free_port

REPO = Path(__file__).resolve().parents[2]
_URL = re.compile(r"https?://pbem\.test(/[^\s\"'<>)\]]+)")
ADDRESSES = ("ann.lee@example.org", "second.box@example.net", "bob.stranger@example.com")


class Browser:
    """urllib with a cookie jar: what one person's browser sends."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        try:
            with self.opener.open(self.base + path, timeout=30) as answer:
                return str(answer.read().decode())
        except urllib.error.HTTPError as exc:
            return str(exc.read().decode())

    def post(self, path: str, form: dict[str, str], page: str) -> str:
        data = urllib.parse.urlencode({"csrf_token": csrf_of(page), **form}).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=30) as answer:
                return str(answer.read().decode())
        except urllib.error.HTTPError as exc:
            return str(exc.read().decode())


def _mail_paths(url: str, kind: str | None = None) -> list[str]:
    engine = make_engine(url)
    try:
        with transaction(engine, read_only=True) as db:
            query = select(OutboxEmail).order_by(col(OutboxEmail.id))
            rows = db.exec(query if kind is None else query.where(OutboxEmail.kind == kind)).all()
            return [p for row in rows for p in _URL.findall(row.body_text)]
    finally:
        engine.dispose()


def _secrets(paths: list[str]) -> set[str]:
    """Each secret path segment of the emails' links (tokens, signed values)."""
    found = set()
    for path in paths:
        for segment in urllib.parse.urlsplit(path).path.split("/"):
            if len(segment) >= 16:
                found.add(segment)
    return found


def _new_game(html: str) -> dict[str, str]:
    """/new's own values (as tests/web/test_create.py's form_data reads them), two people."""
    data = dict(re.findall(r'<input type="(?:text|email|number)" id="\w+" name="(\w+)" '
                           r'value="([^"]*)"', html))
    for name, body in re.findall(r'<select id="\w+" name="(\w+)"[^>]*>(.*?)</select>', html,
                                 re.S):
        data[name] = re.findall(r'<option value="([^"]+)" selected', body)[0]
    for name in ("on_timeout", "robot_strength"):
        data[name] = re.findall(rf'name="{name}" value="(\w+)" checked', html)[0]
    data.pop("preset-choice", None)
    data.update(preset="standard", name="Logged", p1_name="Ann", p1_email=ADDRESSES[0],
                p2_name="Bob", p2_email=ADDRESSES[2])
    return data


def _whole_run(url: str, port: int) -> None:
    you = Browser(port)
    page = you.get("/signin")
    you.post("/signin", {"address": ADDRESSES[0]}, page)
    (link,) = _mail_paths(url, "signin")[:1]
    page = you.get(link)
    me = you.post(urllib.parse.urlsplit(link).path, {"name": "Ann"}, page)
    assert "Ann" in me
    you.post("/me/address", {"address": ADDRESSES[1]}, me)
    confirm = next(p for p in _mail_paths(url, "address_confirm"))
    you.post(confirm, {}, you.get(confirm))
    you.post("/new", _new_game(you.get("/new?preset=standard")), me)
    for path in _mail_paths(url):  # every link of every email, opened once
        you.get(path)


def test_a_whole_run_leaves_no_secret_and_no_address_in_the_logs(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    create_tables(url)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PYTHONPATH=str(REPO), PBEM_DATABASE_URL=url, PBEM_BIND=f"127.0.0.1:{port}",
               PBEM_WEB_WORKERS="1", PBEM_INSTANCE_PATH=str(tmp_path / "instance"),
               PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_DOMAIN="pbem.test",
               PBEM_LOG_LEVEL="DEBUG")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", str(REPO / "deploy/gunicorn.conf.py"),
         "pbem.wsgi:app"], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        wait_until_serving(server, port)
        _whole_run(url, port)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    paths = _mail_paths(url)
    kinds = {p.split("/")[1] for p in paths}
    assert {"signin", "a", "t", "u"} <= kinds, kinds
    secrets = _secrets(paths)
    assert len(secrets) >= 4 and "GET /signin/*** HTTP/1.1" in output, output[-3000:]
    leaked = sorted(s for s in secrets if s in output)
    assert leaked == [], output[-3000:]
    for address in ADDRESSES:
        assert address not in output.lower()
    assert address_hash(ADDRESSES[0]) != address_hash(ADDRESSES[1])
