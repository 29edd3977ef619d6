"""Issue 38.3: strangers receive none of an attacker's words, and few emails, whoever sends.
Through the pages only, with real concurrency: four throwaway organisers (four clients) set up
games inviting one stranger, with advertising for a game name and an organiser name, and
confirm them all at once; two accounts ask to add the stranger's address. The stranger gets
at most the daily share of unasked-for mail, none of it holding the typed text or a name;
each client is limited on the forms that email someone."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from pbem.mail.strangers import STRANGER_PER_DAY, UNASKED
from pbem.store.models import OutboxEmail
from tests.service.test_lobby import race
from tests.web.support import csrf_of, links, newest, outbox
from tests.web.test_create import form_data

STRANGER = "victim@example.net"
SPAM = "FREE PRIZE http://spam.example"


def client_at(app: Flask, n: int) -> FlaskClient:
    """A browser at its own address (the limits count per client address)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"198.51.100.{n}"
    return client


def mail_to(app: Flask, address: str) -> list[OutboxEmail]:
    return [m for m in outbox(app) if m.to_addr == address and m.kind in UNASKED]


def words_in(mail: OutboxEmail) -> str:
    return " ".join([mail.subject, mail.body_text, mail.body_html or "", str(mail.headers)])


def set_up(client: FlaskClient, organiser: str) -> int:
    data = form_data(client, name=SPAM, p1_name=SPAM, p1_email=organiser,
                     p2_name=SPAM, p2_email=STRANGER)
    return client.post("/new", data=data).status_code


def confirm(app: Flask, client: FlaskClient, organiser: str) -> Callable[[], int]:
    mail = [m for m in outbox(app, "invite") if m.to_addr == organiser][-1]
    path = next(p for p in links(mail.body_text) if p.endswith("a=accept"))
    page = client.get(path).get_data(as_text=True)
    return lambda: client.post(path, data={"csrf_token": csrf_of(page),
                                           "answer": "accept"}).status_code


def test_throwaway_organisers_reach_a_stranger_a_few_times_without_their_words(
        app: Flask) -> None:
    organisers = [f"throwaway{n}@example.org" for n in range(4)]
    clients = [client_at(app, n) for n in range(4)]
    pairs = list(zip(clients, organisers, strict=True))
    for _round in range(2):  # eight games, each inviting the stranger
        assert race(*(lambda c=c, o=o: set_up(c, o) for c, o in pairs)) == [303] * 4
        confirms = [confirm(app, c, o) for c, o in pairs]
        assert race(*confirms) == [200] * 4
    got = mail_to(app, STRANGER)
    assert len(got) == STRANGER_PER_DAY  # of eight
    for mail in got:
        text = words_in(mail)
        assert "FREE PRIZE" not in text and "spam.example" not in text and "http://s" not in text
        assert re.search(r"To': '<?victim@example\.net>?'", text), mail.headers


def signed_in(app: Flask, n: int) -> FlaskClient:
    client = client_at(app, 10 + n)
    page = client.get("/signin").get_data(as_text=True)
    client.post("/signin", data={"csrf_token": csrf_of(page),
                                 "address": f"account{n}@example.org"})
    link = re.search(r"(/signin/[\w-]+)", newest(app, "signin").body_text)
    assert link is not None
    page = client.get(link.group(1)).get_data(as_text=True)
    client.post(link.group(1), data={"csrf_token": csrf_of(page), "name": SPAM})
    return client


def test_two_accounts_adding_a_stranger_s_address_reach_it_a_few_times_without_a_name(
        app: Flask) -> None:
    accounts = [signed_in(app, n) for n in range(2)]
    forms = [csrf_of(c.get("/me").get_data(as_text=True)) for c in accounts]
    asks = [lambda c=c, f=f: c.post("/me/address", data={"csrf_token": f,
                                                         "address": STRANGER}).status_code
            for c, f in zip(accounts, forms, strict=True) for _ in range(5)]
    assert race(*asks) == [303] * 10
    got = mail_to(app, STRANGER)
    assert len(got) == STRANGER_PER_DAY  # of ten asked for
    assert all("FREE PRIZE" not in words_in(m) for m in got)


def test_each_client_is_limited_on_the_forms_that_email_someone(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url, RATELIMIT_ENABLED=True)
    client = client_at(app, 77)
    answers = [set_up(client, f"org{n}@example.org") for n in range(6)]
    assert answers == [303] * 5 + [429]
    other = client_at(app, 78)  # another client is not held back
    assert set_up(other, "org9@example.org") == 303
