"""Issue 13.2: one address froze a game. `/join` and `/new` took `ünï@example.org` or an address
with a NUL; the next move's emails then raised inside the move's own transaction, so every card
link of the other players answered 500 and the worker failed on the game every minute.

Addresses are now checked where they come in (email-validator; letters outside ASCII before
the @ need SMTPUTF8, which the outbox doesn't use, so they are refused in words; a domain in
any script is kept in its ASCII form), and an unusable address already stored fails its own
email only."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from pbem import service
from pbem.app import db_engine
from pbem.present import service_words
from pbem.scheduler.worker import check_deadlines
from pbem.store.db import transaction
from pbem.store.models import Deadline, Player
from pbem.store.types import utcnow
from tests.mailin.support import state_of, to_play, two_human_game
from tests.web.support import card_links, newest, outbox, post_link
from tests.web.test_create import form_data
from tests.web.test_takeover import _ask, _open_seat_link

NON_ASCII = "ünï@example.org"


@pytest.mark.parametrize("address", [NON_ASCII, "a@example.org\x00x", "bob@@example.org"])
def test_new_refuses_an_unusable_organiser_address_in_words(
        app: Flask, client: FlaskClient, address: str) -> None:
    response = client.post("/new", data=form_data(client, p1_email=address))
    page = response.get_data(as_text=True)
    assert response.status_code == 422 and "Your email address doesn" in page
    assert not outbox(app)


def test_a_non_ascii_local_part_is_refused_with_the_reason(
        app: Flask, client: FlaskClient) -> None:
    page = client.post("/new", data=form_data(client, p1_email=NON_ASCII)).get_data(as_text=True)
    assert "letters like “ü” before the @" in page
    _, raw = _open_seat_link(app)
    response = client.post(f"/join/{raw}", data={
        "csrf_token": _csrf(client, raw), "email": NON_ASCII})
    assert response.status_code == 400 and "letters like “ü”" in response.get_data(as_text=True)


def _csrf(client: FlaskClient, raw: str) -> str:
    from tests.web.support import csrf_of

    return csrf_of(client.get(f"/join/{raw}").get_data(as_text=True))


def test_an_internationalised_domain_is_kept_in_ascii(app: Flask, client: FlaskClient) -> None:
    _, raw = _open_seat_link(app)
    _ask(client, raw, "eve@bücher.example")
    assert [e.to_addr for e in outbox(app, "join_confirm")] == ["eve@xn--bcher-kva.example"]
    with pytest.raises(service.BadRequest) as refused:
        service.create_game(service.Context(engine=db_engine(app)), name="x",
                            players=[service.Invitee(NON_ASCII, "X", accepted=True)],
                            bot_seats=(1, 2, 3))
    assert "before the @" in service_words.explain(refused.value)


def test_an_unusable_address_already_stored_fails_its_own_email_and_the_game_goes_on(
        app: Flask, client: FlaskClient) -> None:
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, _ = to_play(engine, game)
    movers = ("ann@example.org", "bob@example.org")
    other = movers[1 - seat]
    with transaction(engine) as session:  # stored before addresses were checked
        session.execute(update(Player).where(Player.email == other)  # type: ignore[arg-type]
                        .values(email=NON_ASCII))
    turn = [e for e in outbox(app, "turn") if e.to_addr == movers[seat]][-1]
    card, path = next(iter(card_links(turn.body_text).items()))
    assert post_link(client, path).status_code in (200, 303)  # not 500
    assert state_of(engine, game).turn != seat or len(state_of(engine, game).trick) != 1
    failed = [e for e in outbox(app) if e.to_addr == NON_ASCII]
    assert failed and all(e.status == "failed" and "unusable address" in (e.last_error or "")
                          for e in failed)
    # The worker's minute: the reminder for that seat fails its email, not the job.
    with transaction(engine) as session:
        session.execute(update(Deadline).values(next_reminder_at=utcnow() - timedelta(1)))
    report = check_deadlines(app)
    assert report.failed == []
    assert newest(app, "reminder")
