"""Issue 13.5: /new as a spam cannon. The per-address limit is atomic (simultaneous posts for
one address really raced, on SQLite and PostgreSQL), and the text a stranger types into the
form (the game's and the players' names, links in them) never reaches an address that did not
ask for it: the organiser's confirmation email carries none of it."""

from __future__ import annotations

import threading

from flask import Flask

from pbem.service.games import ORGANISER_QUOTA
from tests.web.support import outbox
from tests.web.test_create import form_data

SPAM = "WIN A PRIZE http://evil.example/claim"



def test_twenty_simultaneous_posts_for_one_address_set_up_exactly_the_limit(app: Flask) -> None:
    clients = [app.test_client() for _ in range(20)]
    forms = [form_data(c, p1_email="victim@example.org", p2_email=f"guest{n}@example.org")
             for n, c in enumerate(clients)]
    start = threading.Barrier(len(clients))
    codes: list[int] = []

    def post(n: int) -> None:
        start.wait()
        codes.append(clients[n].post("/new", data=forms[n]).status_code)

    threads = [threading.Thread(target=post, args=(n,)) for n in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert sorted(codes) == [303] * ORGANISER_QUOTA + [422] * (20 - ORGANISER_QUOTA)
    invites = [e for e in outbox(app, "invite") if e.to_addr == "victim@example.org"]
    assert len(invites) == ORGANISER_QUOTA
    assert not [e for e in outbox(app) if e.to_addr != "victim@example.org"]


def test_the_confirmation_email_carries_nothing_the_stranger_typed(app: Flask) -> None:
    client = app.test_client()
    data = form_data(client, name=SPAM, p1_name="Claim it at http://evil.example/now",
                     p1_email="victim@example.org", p2_name="Go to evil.example",
                     p2_email="other@example.org")
    assert client.post("/new", data=data).status_code == 303
    (email,) = outbox(app)  # only the organiser's address hears of it, and only this
    assert email.to_addr == "victim@example.org" and email.kind == "invite"
    everything = " ".join([email.subject, email.body_text, email.body_html or "",
                           *map(str, email.headers.values())])
    assert "evil.example" not in everything and "WIN A PRIZE" not in everything
    assert "Confirm" in email.body_text and "/t/" in email.body_text
