"""Issue 13.1: the /join/ link of an open seat handed a seat's private link to whoever held it.
Another player could post the timed-out player's own address, land on that player's private
page and play for them (using the link up); posting another player's address seated them
without asking. Now the page only mails a confirmation link to the address given."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.support import _CSRF as CSRF
from tests.web.support import outbox
from tests.web.test_takeover import _ask, _confirmation_link, _open_seat_link, _seat


def test_posting_the_timed_out_players_address_reveals_nothing_and_seats_nobody(
        app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)  # seat 0 was Ann's; Bob holds the join link
    before = _seat(app, game_id)
    page = _ask(client, raw, "ann@example.org")
    assert "/s/" not in page and "Check your email" in page
    after = _seat(app, game_id)
    assert (after.is_bot, after.player_id) == (before.is_bot, before.player_id)
    assert client.get(f"/join/{raw}").status_code == 200  # not used up: the real newcomer can
    # Only Ann's own mailbox gets the way in; with it, Ann (and only Ann) can come back.
    (mail,) = outbox(app, "join_confirm")
    assert mail.to_addr == "ann@example.org"


def test_posting_another_players_address_does_not_seat_them(
        app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)
    before = _seat(app, game_id)
    page = _ask(client, raw, "bob@example.org")
    assert "/s/" not in page and _seat(app, game_id) == before
    # Bob is asked; if he confirms he is told he already plays, and nothing changes.
    link = _confirmation_link(app, "bob@example.org")
    csrf = CSRF.search(client.get(link).get_data(as_text=True))
    assert csrf
    answer = client.post(link, data={"csrf_token": csrf.group(1), "name": "Bob"})
    assert answer.status_code == 400 and "already plays in this game" in \
        answer.get_data(as_text=True)
    assert _seat(app, game_id) == before
    assert client.get(f"/join/{raw}").status_code == 200


def test_the_page_answers_alike_for_any_address_and_mails_within_limits(
        app: Flask, client: FlaskClient) -> None:
    _, raw = _open_seat_link(app)
    pages = {_ask(client, raw, address).split("<main")[-1].split("</main>")[0]
             for address in ("ann@example.org", "nobody@example.org")}  # (the footer's form
    # carries a CSRF token of its second)
    assert len(pages) == 1
    for _ in range(5):
        _ask(client, raw, "victim@example.org")
    assert len([e for e in outbox(app, "join_confirm") if e.to_addr == "victim@example.org"]) == 3
    mail = outbox(app, "join_confirm")[0]
    assert "Open" not in mail.subject  # the game's name (typed by its organiser) stays out
