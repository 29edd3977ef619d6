"""A live server (werkzeug in a thread), the mail catcher, the outbox pump, and Chromium."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from pbem.app import db_engine
from pbem.devmail.server import start_catcher
from pbem.devserver import OutboxPump
from pbem.mail.outbox import SmtpSettings
from tests.web.support import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@dataclass
class LiveSite:
    app: Flask
    url: str
    pump: OutboxPump | None = None  # sends the mail and plays the robots' moves left to it


@pytest.fixture
def live_site(make_app: Callable[..., Flask], tmp_path: Path,
              monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveSite]:
    """The app served over HTTP, its moves' mail jobs fanned out and its mail sent every
    0.2 s to a catcher on a free port (as `pbem dev` does: the emails are worked out after
    the move, not in its request)."""
    web_port, smtp_port = free_port(), free_port()
    folder = tmp_path / "caught-mail"
    url = f"http://127.0.0.1:{web_port}"
    app = make_app(BASE_URL=url, SMTP_PORT=smtp_port, DEVMAIL_FOLDER=str(folder),
                   MAIL_NOW=False, ROBOTS_NOW=False)  # strong robots answer from the pump
    catcher = start_catcher(folder, port=smtp_port)
    pump = OutboxPump(db_engine(app), SmtpSettings.from_config(app.config), interval=0.2,
                      app=app).start()
    server = make_server("127.0.0.1", web_port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield LiveSite(app, url, pump)
    server.shutdown()
    pump.stop()
    catcher.stop()


@pytest.fixture
def browser_page() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context().new_page()
        page.set_default_timeout(10_000)
        yield page
        browser.close()
