"""Invitations: creating a game mails each invited human; the last acceptance starts the game;
a refusal is told to the others and leaves the seat open."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.engine import Phase
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from tests.web.support import csrf_of, links, outbox, played_before, state


def _create(app: Flask, players: list[service.Invitee], bots: tuple[int, ...]) -> int:
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(11))
        return service.create_game(ctx, name="Invited", players=players, bot_seats=bots,
                                   robot_strength="easy").game_id


def _answer_links(app: Flask, to: str) -> dict[str, str]:
    """{"accept": path, "decline": path} from the newest invitation to `to`."""
    (mail,) = [m for m in outbox(app, "invite") if m.to_addr == to]
    paths = links(mail.body_text)
    return {answer: next(p for p in paths if p.endswith(f"a={answer}"))
            for answer in ("accept", "decline")}


def _answer(client: FlaskClient, path: str, answer: str) -> str:
    page = client.get(path)
    assert page.status_code == 200
    response = client.post(path, data={"csrf_token": csrf_of(page.get_data(as_text=True)),
                                       "answer": answer})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _statuses(app: Flask, game_id: int) -> tuple[str, list[str]]:
    with transaction(db_engine(app), read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        seats = session.exec(select(Seat).where(Seat.game_id == game_id)
                             .order_by(col(Seat.seat_no)))
        return game.status, [s.invite_status for s in seats]


ANN = service.Invitee("ann@example.com", "Ann")
BOB = service.Invitee("bob@example.com", "Bob")


def test_creating_a_game_invites_each_invited_human(app: Flask) -> None:
    played_before(app, ANN.email, BOB.email)
    game_id = _create(app, [ANN, BOB], (2, 3))
    invites = outbox(app, "invite")
    assert sorted(m.to_addr for m in invites) == ["ann@example.com", "bob@example.com"]
    assert all(m.game_id == game_id for m in invites)
    for mail in invites:
        assert "Players: Ann, Bob, Robot 3, Robot 4" in mail.body_text
        assert {p.rsplit("=", 1)[1] for p in links(mail.body_text)} == {"accept", "decline"}
    assert outbox(app) == invites  # nothing else yet: the game waits
    assert _statuses(app, game_id) == ("inviting", ["invited", "invited", "accepted",
                                                    "accepted"])


def test_invitations_to_an_address_that_never_took_part_carry_nobody_s_words(
        app: Flask) -> None:
    """Issue 38.3: the game's name and the people's names were typed by whoever made it."""
    game_id = _create(app, [service.Invitee("org@example.com", "FREE PRIZE http://x.test",
                                            accepted=True), BOB], (2, 3))
    (mail,) = outbox(app, "invite")
    assert mail.subject == "Hearts: an invitation to a game"
    for text in (mail.body_text, mail.body_html or "", str(mail.headers)):
        assert "FREE PRIZE" not in text and "x.test" not in text and "Invited" not in text
    assert "Bob" not in mail.headers["To"]
    assert f"/games/{game_id}" not in mail.body_text


def test_the_organiser_gets_no_invitation_and_is_named_as_inviter(app: Flask) -> None:
    played_before(app, BOB.email)
    _create(app, [service.Invitee("org@example.com", "Olga", accepted=True), BOB], (2, 3))
    (mail,) = outbox(app, "invite")
    assert mail.to_addr == "bob@example.com" and "Olga invites you" in mail.body_text


def test_the_last_acceptance_starts_the_game(app: Flask, client: FlaskClient) -> None:
    game_id = _create(app, [ANN, BOB], (2, 3))
    ann, bob = _answer_links(app, ANN.email), _answer_links(app, BOB.email)
    assert "Thanks, your answer is recorded" in _answer(client, ann["accept"], "accept")
    assert _statuses(app, game_id)[0] == "inviting"
    assert not outbox(app, "pass") and not outbox(app, "game_started")

    _answer(client, bob["accept"], "accept")
    assert _statuses(app, game_id) == ("active", ["accepted"] * 4)
    assert state(app, game_id).phase is Phase.PASS
    for kind in ("game_started", "pass"):
        assert sorted(m.to_addr for m in outbox(app, kind)) == [ANN.email, BOB.email]
    # The used link now says so, and the decline link of the same invitation is closed.
    assert "already answered" in client.get(ann["decline"]).get_data(as_text=True)


def test_a_refusal_is_told_to_the_others_and_leaves_the_seat_open(
        app: Flask, client: FlaskClient) -> None:
    cy = service.Invitee("cy@example.com", "Cy")
    played_before(app, cy.email, "dan@example.com")
    game_id = _create(app, [service.Invitee("org@example.com", "Olga", accepted=True), ANN,
                            cy], (3,))
    _answer(client, _answer_links(app, ANN.email)["decline"], "decline")
    assert _statuses(app, game_id) == ("inviting", ["accepted", "declined", "invited",
                                                    "accepted"])
    told = outbox(app, "invite_declined")
    assert sorted(m.to_addr for m in told) == ["cy@example.com", "org@example.com"]
    text = told[0].body_text
    assert "Ann declined the invitation" in text and "Seat 2 is open" in text
    assert "waiting for an answer from Cy" in text
    # Accepting the others does not start the game: the open seat must be filled first.
    _answer(client, _answer_links(app, cy.email)["accept"], "accept")
    assert _statuses(app, game_id)[0] == "inviting" and not outbox(app, "pass")
    # The organiser gives the seat to someone else: they are invited, and their yes starts it.
    dan = service.Invitee("dan@example.com", "Dan")
    with app.app_context():
        service.replace_seat(service.Context(engine=db_engine(app)), game_id, 1, dan)
    assert "Olga invites you" in [m for m in outbox(app, "invite")
                                  if m.to_addr == dan.email][0].body_text
    _answer(client, _answer_links(app, dan.email)["accept"], "accept")
    assert _statuses(app, game_id) == ("active", ["accepted"] * 4)
    assert sorted(m.to_addr for m in outbox(app, "pass")) == [
        "cy@example.com", "dan@example.com", "org@example.com"]
