"""A player's data (issue 35): "Download my data" on /me, and `export` by reply, whose link goes
only to the account's own (confirmed) address. Content checked on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, timedelta
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.mailin.process import deliver
from pbem.present import i18n
from pbem.store.db import transaction
from pbem.store.models import Event as EventRow
from pbem.store.models import PlayerAddress
from tests.mailin.support import emails, inbox, latest_token, player, reply
from tests.web.support import csrf_of, finish_game, start_game
from tests.web.test_signin import sign_in

YOU = "you@example.com"
WORK = "you@work.example"  # confirmed: a second address of the account
_SIGNIN = re.compile(r"https?://\S+?(/signin/[A-Za-z0-9_-]+(?:\?next=\S+)?)")


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url)


def _games(app: Flask) -> tuple[int, int, int]:
    """A finished game and one going on, a second confirmed address, away dates: (finished,
    running, player id)."""
    finished = start_game(app, seed=3, name="Done")
    assert finish_game(app, finished).game_over
    running = start_game(app, seed=4, name="Going")
    you = player(db_engine(app), YOU)
    assert you.id is not None
    with transaction(db_engine(app)) as session:
        session.add(PlayerAddress(player_id=you.id, email=WORK))
    service.set_away(service.Context(engine=db_engine(app)), you.id,
                     date.today() + timedelta(days=10), date.today() + timedelta(days=12))
    return finished, running, you.id


def _own_moves(app: Flask, game_id: int, seat: int = 0) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        rows = session.exec(select(EventRow).where(EventRow.game_id == game_id)).all()
    return sum(1 for r in rows if r.type not in ("game_created", "hand_dealt")
               and r.payload.get("seat") == seat)


def _check(app: Flask, data: dict[str, Any], finished: int, running: int,
           language: str = "en") -> None:
    assert data["format"] == "pbem-export/1"
    assert data["account"]["email"] == YOU and data["account"]["name"] == "You"
    assert set(data["account"]["settings"]) >= {"time_zone", "mail", "daily_digest"}
    assert [a["email"] for a in data["addresses"]] == [YOU, WORK]
    assert len(data["away"]) == 1
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {finished, running}
    done, going = games[finished], games[running]
    assert done["status"] == "finished" and done["scores"] is not None
    assert len(done["moves"]) == _own_moves(app, finished) > 13
    assert {m["type"] for m in done["moves"]} >= {"card_played", "cards_passed"}
    assert all("card" in m or "cards" in m or m["type"] not in ("card_played", "cards_passed")
               for m in done["moves"])
    with i18n.using(language):  # the record is in the player's language
        hand_1, trick_13 = i18n.gettext("Hand %(n)s:", n=1), i18n.gettext("Trick %(n)s:", n=13)
        played = i18n.gettext("you played %(cards)s", cards="{}").split("{}")[0].strip()
        final = i18n.gettext("Final points:")
    assert hand_1 in done["record"] and trick_13 in done["record"]
    assert played in done["record"] and final in done["record"]
    # A game going on shows only what the player could see: no deal, no other seat's move.
    assert going["scores"] is None and hand_1 not in going["record"]
    assert len(going["moves"]) == _own_moves(app, running)
    assert "hand_dealt" not in json.dumps(going)


def test_download_my_data_from_me(app: Flask) -> None:
    finished, running, _ = _games(app)
    client = app.test_client()
    away = client.get("/me/data")
    assert away.status_code == 303 and "/signin?next=/me/data" in away.headers["Location"]
    sign_in(app, client)
    assert "/me/data" in client.get("/me").get_data(as_text=True)  # the link on /me
    got = client.get("/me/data")
    assert got.status_code == 200 and got.mimetype == "application/json"
    assert "attachment" in got.headers["Content-Disposition"]
    _check(app, got.get_json(), finished, running)


def _follow(client: FlaskClient, text: str) -> Any:
    found = _SIGNIN.search(text)
    assert found, text
    link = unescape(found.group(1))
    page = client.get(link).get_data(as_text=True)
    kept = re.search(r'name="next" value="([^"]+)"', page)  # the page's form carries it
    assert kept and kept.group(1) == "/me/data"
    done = client.post(link, data={"csrf_token": csrf_of(page), "next": kept.group(1)})
    assert done.status_code == 303 and done.headers["Location"].endswith("/me/data")
    return client.get("/me/data").get_json()


@pytest.mark.parametrize(("words", "language"), [("export", "en"), ("meine Daten", "de"),
                                               ("exporter mes données", "fr")])
def test_export_by_reply_mails_the_link_to_the_accounts_own_address_only(
        app: Flask, words: str, language: str) -> None:
    finished, running, _ = _games(app)
    engine = db_engine(app)
    token = latest_token(engine, YOU)
    deliver(inbox(engine), reply(token, words, sender=f"You <{WORK}>"))
    sent = emails(engine, YOU, "export")
    assert len(sent) == 1 and emails(engine, WORK) == []
    with i18n.using(language):  # the answer is in the reply's language
        assert sent[0].subject == i18n.gettext("Hearts: your data")
    _check(app, _follow(app.test_client(), sent[0].body_text), finished, running, language)


def test_export_asked_from_an_address_not_confirmed_sends_nothing_there(app: Flask) -> None:
    _games(app)
    engine = db_engine(app)
    token = latest_token(engine, YOU)
    stranger = "not.yet@example.net"  # not an address of the account (never confirmed)
    deliver(inbox(engine), reply(token, "export", sender=f"Someone <{stranger}>"))
    assert emails(engine, stranger) == []
    assert emails(engine, YOU, "export") == []  # and no data link for a stranger's ask
