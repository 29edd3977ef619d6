"""Seed 003 (../shared/seeds/003), "a game can be terminated earlier by agreement", from the
private seat page: buttons POST with CSRF to /s/<token>/end, through the one move command; GET
only shows them. On SQLite and PostgreSQL."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from pbem import service
from pbem.app import db_engine
from tests.web.support import csrf_of, newest, outbox, seat_path, snapshot, state
from tests.web.test_seat_actions import _ann_path, _two_people


def test_a_vote_made_on_the_page_asks_the_other_player_who_agrees_on_theirs_seed_003(
        app: Flask, client: FlaskClient) -> None:
    game = _two_people(app)
    ann = _ann_path(app)
    html = client.get(ann).get_data(as_text=True)
    assert "Propose to end the game now" in html
    before = snapshot(app, game)
    assert client.get(ann).status_code == 200 and snapshot(app, game) == before  # GET: nothing
    assert client.post(f"{ann}/end", data={"vote": "end"}).status_code == 400  # no CSRF
    assert client.post(f"{ann}/end", data={"csrf_token": csrf_of(html),
                                           "vote": "maybe"}).status_code == 400
    assert state(app, game).end_voters == ()
    done = client.post(f"{ann}/end", data={"csrf_token": csrf_of(html), "vote": "end"})
    assert done.status_code == 303
    assert state(app, game).end_voters == (0, 2, 3)
    page = client.get(ann).get_data(as_text=True)
    assert "You agreed to end the game now; waiting for Bob to agree." in page
    asking = newest(app, "end_vote")
    assert asking.to_addr == "bob@example.org" and not outbox(app, "move_confirmed")
    bob = seat_path(asking.body_text)  # the email links Bob's own page
    bobs = client.get(bob).get_data(as_text=True)
    assert "Agree to end the game" in bobs and "Play on" in bobs
    agreed = client.post(f"{bob}/end", data={"csrf_token": csrf_of(bobs), "vote": "end"})
    assert agreed.status_code == 303
    assert state(app, game).ended_by_agreement
    assert "ended by agreement" in client.get(bob).get_data(as_text=True)
    summary = client.get(f"/games/{game}/summary").get_data(as_text=True)
    assert "Ended by agreement" in summary
    again = client.post(f"{bob}/end", data={"csrf_token": csrf_of(bobs), "vote": "end"})
    assert again.status_code in (303, 409) and state(app, game).ended_by_agreement


def test_play_on_from_the_page_closes_the_vote_seed_003(
        app: Flask, client: FlaskClient) -> None:
    game = _two_people(app)
    ann = _ann_path(app)
    html = client.get(ann).get_data(as_text=True)
    client.post(f"{ann}/end", data={"csrf_token": csrf_of(html), "vote": "end"})
    bob = seat_path(newest(app, "end_vote").body_text)
    bobs = client.get(bob).get_data(as_text=True)
    response = client.post(f"{bob}/end", data={"csrf_token": csrf_of(bobs), "vote": "play-on"})
    assert response.status_code == 303
    assert state(app, game).end_voters == () and not state(app, game).game_over
    assert "vote to end the game is closed" in client.get(bob).get_data(as_text=True)
    assert "Bob wants to play on" in newest(app, "end_vote").body_text


def test_against_robots_the_button_says_it_ends_the_game_now_and_no_one_wins(
        app: Flask, client: FlaskClient) -> None:
    """Ended in the first hand: no scores, no winner, no empty "hand by hand"; as the
    summary email says it."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(5))
        game = service.create_game(ctx, name="Solo", bot_seats=(1, 2, 3),
                                   players=[service.Invitee("ann@example.org", "Ann", True)],
                                   robot_strength="easy").game_id
    ann = _ann_path(app)
    html = client.get(ann).get_data(as_text=True)
    assert "End the game now" in html and "Propose to end" not in html
    assert "there will be no scores and no winner" in html
    done = client.post(f"{ann}/end", data={"csrf_token": csrf_of(html), "vote": "end"})
    assert done.status_code == 303 and state(app, game).ended_by_agreement
    page = client.get(ann).get_data(as_text=True)
    assert "No hand was finished, so there are no scores and no winner." in page
    assert "before the first hand was finished: no scores, no winner" in page
    summary = client.get(f"/games/{game}/summary").get_data(as_text=True)
    assert "no scores and no winner" in summary and "winner</strong>" not in summary
    assert "Scores hand by hand" not in summary and " win!" not in summary
    mail = newest(app, "summary").body_text
    assert "no scores and no winner" in " ".join(mail.split()) and "Final standings" not in mail
