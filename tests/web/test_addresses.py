"""Another address for a player, from the private view and by a reply command: a
confirmation link goes to the new address; opening it (GET: mail scanners do) changes
nothing, confirming it (POST with CSRF) adds the address once, and replies from it then play.
Forged links and bad addresses are refused in words; another player's address is
answered like any other, and only its mailbox learns that it is in use."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem.app import db_engine
from pbem.mailin.process import Inbox, deliver
from pbem.store.db import transaction
from pbem.store.models import PlayerAddress
from tests.mailin.support import latest_token, reply
from tests.web.support import csrf_of, newest, outbox
from tests.web.test_seat_actions import _ann_path, _two_people

_LINK = re.compile(r"https?://\S+/a/(\S+)")


def added(app: Flask) -> list[tuple[int, str]]:
    with transaction(db_engine(app), read_only=True) as session:
        return [(a.player_id, a.email) for a in session.exec(select(PlayerAddress))]


def confirm_link(app: Flask, address: str) -> str:
    mail = newest(app, "address_confirm")
    assert mail.to_addr == address
    found = _LINK.search(mail.body_text)
    assert found, mail.body_text
    return f"/a/{found.group(1)}"


def test_an_address_added_from_the_private_view_counts_once_confirmed(
        app: Flask, client: FlaskClient) -> None:
    _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    sent = client.post(f"{path}/address", data={"csrf_token": csrf_of(html),
                                                "address": "Ann.Work@Example.NET"})
    assert sent.status_code == 303
    assert "confirmation link to ann.work@example.net" in client.get(path).get_data(
        as_text=True)
    link = confirm_link(app, "ann.work@example.net")
    page = client.get(link)
    assert page.status_code == 200 and "Yes, add ann.work@example.net" in page.get_data(
        as_text=True)
    assert added(app) == []  # GET changes nothing
    assert client.post(link).status_code == 400  # no CSRF token
    form = page.get_data(as_text=True)
    for _ in range(2):
        done = client.post(link, data={"csrf_token": csrf_of(form)})
        assert done.status_code == 200 and "is now one of Ann's addresses" in unescape(
            done.get_data(as_text=True))
    assert [a for _, a in added(app)] == ["ann.work@example.net"]
    # A reply from the new address is Ann's.
    engine = db_engine(app)
    with app.app_context():
        deliver(Inbox.from_app(app), reply(latest_token(engine, "ann@example.org"), "status",
                                           sender="ann.work@example.net"))
    assert newest(app, "status").to_addr == "ann@example.org"


def test_a_reply_command_mails_the_confirmation_link(app: Flask) -> None:
    _two_people(app)
    engine = db_engine(app)
    with app.app_context():
        deliver(Inbox.from_app(app), reply(latest_token(engine, "ann@example.org"),
                                           "address ann@phone.example", sender="ann@example.org"))
    assert confirm_link(app, "ann@phone.example").startswith("/a/")
    note = newest(app, "note")
    assert note.to_addr == "ann@example.org" and "ann@phone.example" in note.body_text


def test_forged_links_and_bad_addresses_are_refused(app: Flask, client: FlaskClient) -> None:
    _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    before = len(outbox(app))
    client.post(f"{path}/address", data={"csrf_token": csrf_of(html),
                                         "address": "not an address"})
    assert "isn't an email address" in unescape(client.get(path).get_data(as_text=True))
    assert not [m for m in outbox(app)[before:] if m.kind == "address_confirm"]
    client.post(f"{path}/address", data={"csrf_token": csrf_of(html),
                                         "address": "ann2@example.org"})
    link = confirm_link(app, "ann2@example.org")
    forged = link[:-3] + ("abc" if not link.endswith("abc") else "xyz")
    assert client.get(forged).status_code == 404
    assert client.post(forged, data={"csrf_token": csrf_of(html)}).status_code == 404
    assert added(app) == []


def test_another_players_address_gets_the_same_answer_and_only_its_mailbox_hears_why(
        app: Flask, client: FlaskClient) -> None:
    """The form must not tell who plays here: Bob's address is answered and mailed like any
    unknown one; following the link (which only Bob's mailbox has) says it is in use, and
    nothing is added."""
    _two_people(app)
    path = _ann_path(app)
    html = client.get(path).get_data(as_text=True)
    for address in ("nobody.yet@example.org", "bob@example.org"):
        client.post(f"{path}/address", data={"csrf_token": csrf_of(html), "address": address})
        page = unescape(client.get(path).get_data(as_text=True))
        assert "another player" not in page
        assert f"We sent a confirmation link to {address}: follow it within 3 days" in page
        assert confirm_link(app, address).startswith("/a/")
    link = confirm_link(app, "bob@example.org")
    page = client.get(link).get_data(as_text=True)
    refused = client.post(link, data={"csrf_token": csrf_of(page)})
    assert refused.status_code == 409
    assert "already the address of another Hearts account" in unescape(
        refused.get_data(as_text=True))
    assert added(app) == []
