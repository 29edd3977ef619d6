"""End to end: the outbox goes over real SMTP into the catcher; the player follows the links
in the caught mail, and the game goes on (to the very end)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient

from pbem.app import db_engine
from pbem.devmail.server import start_catcher
from pbem.devmail.store import CaughtMail, MailStore, body_parts
from pbem.mail.outbox import SmtpSettings, drain_all
from tests.web.support import card_links, csrf_of, free_port, links, start_game, state


@dataclass
class Inbox:
    """The app, its catcher and a way to send the outbox and read what arrived."""

    app: Flask
    store: MailStore
    client: FlaskClient

    def deliver(self) -> None:
        drain_all(db_engine(self.app), SmtpSettings.from_config(self.app.config))

    def newest(self, first_line: str) -> tuple[CaughtMail, str]:
        """The newest caught mail whose text contains `first_line`, with its text part."""
        for mail in self.store.entries():
            msg = self.store.message(mail.id)
            assert msg is not None
            text, _html = body_parts(msg)
            if text and first_line in text:
                return mail, text
        raise AssertionError(f"no caught mail with {first_line!r}")

    def count(self) -> int:
        return len(self.store.entries())


@pytest.fixture
def inbox(make_app: Callable[..., Flask], tmp_path: Path) -> Iterator[Inbox]:
    port = free_port()
    folder = tmp_path / "caught-mail"
    app = make_app(SMTP_PORT=port, DEVMAIL_FOLDER=str(folder))
    catcher: Controller = start_catcher(folder, port=port)
    yield Inbox(app, MailStore(folder), app.test_client())
    catcher.stop()


def press(client: FlaskClient, path: str, **form: object) -> str:
    """GET a link's page (as a scanner or the player would), then press its button."""
    page = client.get(path)
    assert page.status_code == 200
    response = client.post(path, data={"csrf_token": csrf_of(page.get_data(as_text=True)),
                                       **form})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def test_turn_email_link_plays_and_the_next_turn_email_arrives(inbox: Inbox) -> None:
    start_game(inbox.app)
    inbox.deliver()
    _mail, text = inbox.newest("Choose 3 cards to pass")
    (pass_path,) = links(text)
    page = inbox.client.get(pass_path).get_data(as_text=True)
    assert "Pass 3 cards" in page
    press(inbox.client, pass_path, cards=_first_cards(page, 3))
    inbox.deliver()
    turn_mail, text = inbox.newest("it's your turn")
    code, path = next(iter(card_links(text).items()))
    html = press(inbox.client, path)
    assert "you played" in html.lower() and code in html
    before = inbox.count()
    inbox.deliver()
    assert inbox.count() > before
    next_mail, next_text = inbox.newest("it's your turn")
    assert next_mail.id != turn_mail.id and card_links(next_text)


def test_demo_game_can_be_played_to_the_end_from_the_caught_mail(inbox: Inbox) -> None:
    game_id = start_game(inbox.app, seed=3)
    seen: set[str] = set()
    for _step in range(400):
        inbox.deliver()
        mail, text = _newest_actionable(inbox, seen)
        if mail is None:
            break
        seen.add(mail.id)
        if "Choose 3 cards to pass" in text:
            (path,) = links(text)
            page = inbox.client.get(path).get_data(as_text=True)
            press(inbox.client, path, cards=_first_cards(page, 3))
        else:
            press(inbox.client, next(iter(card_links(text).values())))
    assert state(inbox.app, game_id).game_over
    _summary, text = inbox.newest("win")
    page = inbox.client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "The game is over" in page


def _newest_actionable(inbox: Inbox, seen: set[str]) -> tuple[CaughtMail | None, str]:
    """The newest pass or turn email not acted on yet; None once the game sends no more."""
    for mail in inbox.store.entries():
        if mail.id in seen:
            continue
        msg = inbox.store.message(mail.id)
        assert msg is not None
        text, _html = body_parts(msg)
        if text and ("Choose 3 cards to pass" in text or card_links(text)):
            return mail, text
    return None, ""


def _first_cards(page: str, count: int) -> list[str]:
    return re.findall(r'name="cards" value="(\w+)"', page)[:count]
