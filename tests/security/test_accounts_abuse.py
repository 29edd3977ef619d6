"""Issue 38.5-38.7, through the web pages only: signing out signs out (a copied cookie opens
nothing after it; "sign out everywhere"; deleting the account; the stated lifetime), asking
for a sign-in link makes no account (using it does, once, even when two links race), and
/signin does the same work for an address that plays here and one that doesn't."""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, update
from sqlmodel import select

from pbem.app import db_engine
from pbem.service import sessions
from pbem.store.db import transaction
from pbem.store.models import Player, WebSession
from pbem.store.types import utcnow
from tests.service.test_lobby import race
from tests.web.support import csrf_of, newest, outbox

_LINK = re.compile(r"https?://\S+?(/signin/[A-Za-z0-9_-]+)")


def ask(client: FlaskClient, address: str) -> None:
    form = client.get("/signin").get_data(as_text=True)
    answer = client.post("/signin", data={"csrf_token": csrf_of(form), "address": address})
    assert answer.status_code == 200


def use_link(client: FlaskClient, link: str, name: str = "") -> int:
    page = client.get(link).get_data(as_text=True)
    return client.post(link, data={"csrf_token": csrf_of(page), "name": name}).status_code


def signed_in(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    ask(client, address)
    link = _LINK.search(newest(app, "signin").body_text)
    assert link is not None
    assert use_link(client, link.group(1), "Ann") == 303
    return client


def copy_of(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of `client`'s session cookie."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def opens_me(client: FlaskClient) -> bool:
    answer = client.get("/me")
    return answer.status_code == 200 and "ann@example.org" in answer.get_data(as_text=True)


def players(app: Flask) -> list[Player]:
    with transaction(db_engine(app), read_only=True) as db:
        return list(db.exec(select(Player)))


def test_a_cookie_copied_before_signing_out_opens_nothing_after(app: Flask) -> None:
    you = signed_in(app, "ann@example.org")
    thief = copy_of(app, you)
    assert opens_me(thief)  # the copy works while the session lasts...
    you.post("/signout", data={"csrf_token": csrf_of(you.get("/me").get_data(as_text=True))})
    assert not opens_me(thief) and not opens_me(you)  # ...and not after signing out
    assert thief.get("/me").status_code == 303


def test_sign_out_everywhere_ends_the_other_browsers_sessions(app: Flask) -> None:
    phone, laptop = signed_in(app, "ann@example.org"), signed_in(app, "ann@example.org")
    copied = copy_of(app, phone)
    me = unescape(laptop.get("/me").get_data(as_text=True))
    assert "Sign out everywhere" in me and "lasts 30 days" in me
    out = laptop.post("/me/signout-everywhere", data={"csrf_token": csrf_of(me)})
    assert "signed out everywhere" in out.get_data(as_text=True)
    assert not any(opens_me(c) for c in (phone, laptop, copied))
    assert signed_in(app, "ann@example.org") is not None  # signing in again works


def test_deleting_the_account_ends_its_sessions(app: Flask) -> None:
    you = signed_in(app, "ann@example.org")
    elsewhere = signed_in(app, "ann@example.org")
    page = you.get("/me/delete").get_data(as_text=True)
    assert you.post("/me/delete", data={"csrf_token": csrf_of(page), "sure": "yes"}
                    ).status_code == 200
    assert elsewhere.get("/me").status_code == 303
    with transaction(db_engine(app), read_only=True) as db:
        assert db.exec(select(WebSession)).all() == []


def test_a_session_ends_after_its_stated_lifetime(app: Flask) -> None:
    you = signed_in(app, "ann@example.org")
    assert opens_me(you) and app.permanent_session_lifetime == sessions.LIFETIME
    with transaction(db_engine(app)) as db:  # the lifetime passes
        db.execute(update(WebSession).values(
            expires_at=utcnow() - timedelta(seconds=1)))
    assert not opens_me(you)


def test_asking_for_a_link_makes_no_account_and_racing_links_make_one(app: Flask) -> None:
    asker = app.test_client()
    for _ in range(3):
        ask(asker, "Stranger@Example.net")
    assert players(app) == []  # nobody clicked: no account for the typed address
    links = [_LINK.search(m.body_text).group(1) for m in outbox(app, "signin")]  # type: ignore[union-attr]
    clients = [app.test_client() for _ in links]
    pages = [c.get(link).get_data(as_text=True) for c, link in zip(clients, links, strict=True)]
    results = race(*(lambda c=c, link=link, page=page: c.post(
        link, data={"csrf_token": csrf_of(page)}).status_code
        for c, link, page in zip(clients, links, pages, strict=True)))
    assert results == [303, 303, 303]
    (account,) = players(app)
    assert account.email == "stranger@example.net" and account.name == f"Player {account.id}"
    assert all(c.get("/me").status_code == 200 for c in clients)


@contextmanager
def counted_statements(app: Flask) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        seen.append(statement.split()[0].upper())

    engine = db_engine(app)
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def timed_ask(client: FlaskClient, form: str, address: str) -> float:
    started = time.perf_counter()
    answer = client.post("/signin", data={"csrf_token": csrf_of(form), "address": address})
    assert answer.status_code == 200
    return time.perf_counter() - started


def test_signin_does_the_same_work_for_known_and_unknown_addresses(app: Flask) -> None:
    """The same statements for both (so the same time, whatever the machine), and medians
    of interleaved requests close (the attack measured 38.8 against 14.6 ms)."""
    rounds = 25
    with transaction(db_engine(app)) as db:
        for n in range(rounds + 1):
            db.add(Player(email=f"known{n}@example.org", name=f"Known {n}"))
    client = app.test_client()
    form = client.get("/signin").get_data(as_text=True)
    statements = {}
    for kind in ("known", "unknown"):
        with counted_statements(app) as seen:
            timed_ask(client, form, f"{kind}{rounds}@example.org")
        statements[kind] = seen
    assert statements["known"] == statements["unknown"]
    known, unknown = [], []
    for n in range(rounds):
        known.append(timed_ask(client, form, f"known{n}@example.org"))
        unknown.append(timed_ask(client, form, f"unknown{n}@example.org"))
    ratio = statistics.median(unknown) / statistics.median(known)
    assert 0.67 < ratio < 1.5, (statistics.median(known), statistics.median(unknown))
    assert len(players(app)) == rounds + 1 and len(outbox(app, "signin")) == 2 * rounds + 2
