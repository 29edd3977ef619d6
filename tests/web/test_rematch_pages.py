"""Rematch on the pages and in mail (issue 19): the summary email links to the summary's
"Play again" button; a signed-in player of the game presses it and the rematch is set up; the
summary then links to it; a visitor who isn't signed in is sent to sign in first."""

from __future__ import annotations

from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from pbem import service
from pbem.app import db_engine
from pbem.service import Invitee
from pbem.service.rematch import rematch_of
from tests.service.test_ratings import ANN, BOB, new_game, play_out
from tests.web.support import csrf_of, newest
from tests.web.test_signin import sign_in

CY = Invitee("cy@example.org", "Cy", accepted=True)


def test_the_summary_offers_a_rematch_and_sets_it_up(app: Flask, client: FlaskClient) -> None:
    ctx, game_id = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, game_id)
    mail = newest(app, "summary")
    assert f"Play again with the same players: http://127.0.0.1:5000/games/{game_id}/summary" \
        "#rematch" in mail.body_text
    summary = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert f'href="/games/{game_id}/rematch">Play again with the same players</a>' in summary
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    assert "Sign in first" in page
    page = client.get("/signin").get_data(as_text=True)  # a form of this site's, signed out
    outsider = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)})
    assert outsider.status_code == 303  # to sign in, and back to the rematch button
    assert outsider.headers["Location"] == f"/signin?next=/games/{game_id}/rematch"
    cookieless = app.test_client().post(f"/games/{game_id}/rematch")  # no session, no token
    assert cookieless.status_code == 303
    assert cookieless.headers["Location"] == f"/signin?next=/games/{game_id}/rematch"
    assert rematch_of(service.Context(engine=db_engine(app)), game_id) is None
    sign_in(app, client, "ann@example.org")
    stale = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)})
    assert stale.status_code == 400 and "This form has expired" in stale.get_data(as_text=True)
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)  # a new session
    assert "Play again with the same players</button>" in page
    done = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)})
    new = rematch_of(service.Context(engine=db_engine(app)), game_id)
    assert new is not None and newest(app, "invite").to_addr == "bob@example.org"
    assert done.status_code == 303 and done.headers["Location"] == f"/games/{new}"
    landed = unescape(client.get(done.headers["Location"]).get_data(as_text=True))
    assert "Rematch set up, and this is its page: the other players are invited by email; " \
           "it starts when everyone has accepted, or when you start it now from here" in landed
    assert f'<form method="post" action="/games/{new}/start-now">' in landed
    again = unescape(client.get(f"/games/{game_id}/summary").get_data(as_text=True))
    assert f'A rematch with the same players is set up: <a href="/games/{new}">' in again


def test_the_rematch_asker_starts_it_from_its_page_and_nobody_else_can(
        app: Flask, client: FlaskClient) -> None:
    """Bob, in seat 2, asks; Ann (seat 1) has not answered. Bob's page of the rematch offers
    to start it now; Ann's does not, and her POST is refused in words."""
    ctx, game_id = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, game_id)
    sign_in(app, client, "bob@example.org")
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    done = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)},
                       follow_redirects=True)
    new = rematch_of(service.Context(engine=db_engine(app)), game_id)
    assert new is not None and done.request.path == f"/games/{new}"  # the rematch's page
    assert "or when you start it now from here" in unescape(done.get_data(as_text=True))
    ann = app.test_client()
    sign_in(app, ann, "ann@example.org")
    theirs = unescape(ann.get(f"/games/{new}").get_data(as_text=True))
    assert "Start now" not in theirs and "The organiser, signed in, can start" in theirs
    refused = ann.post(f"/games/{new}/start-now", data={"csrf_token": csrf_of(
        ann.get("/me").get_data(as_text=True))})
    assert refused.status_code == 403
    assert "Only the organiser of this game" in unescape(refused.get_data(as_text=True))
    signed_out = app.test_client().post(f"/games/{new}/start-now")
    assert signed_out.status_code == 303
    assert signed_out.headers["Location"] == f"/signin?next=/games/{new}"
    assert "Start now" in unescape(client.get(f"/games/{new}").get_data(as_text=True))
    mine = unescape(client.get(f"/games/{new}").get_data(as_text=True))
    assert f'<form method="post" action="/games/{new}/start-now">' in mine
    assert "Start now with robots in the seats not taken" in mine
    started = client.post(f"/games/{new}/start-now", data={"csrf_token": csrf_of(mine)},
                          follow_redirects=True)
    assert "The game has started: robots took the seats not taken" in unescape(
        started.get_data(as_text=True))
    assert newest(app, "invite_closed").to_addr == "ann@example.org"
    assert "Bob has started" in " ".join(newest(app, "invite_closed").body_text.split())


def test_a_second_asker_accepts_the_rematch_and_is_told_who_starts_it(
        app: Flask, client: FlaskClient) -> None:
    """Bob asks first and organises the rematch; Ann, pressing "Play again" after him, has
    accepted it (Cy has not yet): her page of it says so and offers no start-now button."""
    ctx, game_id = new_game(db_engine(app), [ANN, BOB, CY])
    play_out(ctx, game_id)
    bob = app.test_client()
    sign_in(app, bob, "bob@example.org")
    bob.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(
        bob.get(f"/games/{game_id}/rematch").get_data(as_text=True))})
    new = rematch_of(service.Context(engine=db_engine(app)), game_id)
    sign_in(app, client, "ann@example.org")
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    done = client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)},
                       follow_redirects=True)
    assert done.request.path == f"/games/{new}"
    landed = unescape(done.get_data(as_text=True))
    assert "You're in: someone asked for this rematch just before you" in landed
    assert "Rematch set up" not in landed and "start-now" not in landed


def test_a_signed_in_non_player_gets_no_button_and_a_refusal(app: Flask,
                                                              client: FlaskClient) -> None:
    ctx, game_id = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, game_id)
    sign_in(app, client, "ann@example.org")
    page = client.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    client.post(f"/games/{game_id}/rematch", data={"csrf_token": csrf_of(page)})
    new = rematch_of(service.Context(engine=db_engine(app)), game_id)
    other = app.test_client()
    sign_in(app, other, "gina@example.org")
    page = other.get(f"/games/{game_id}/rematch").get_data(as_text=True)
    assert "you did not play in it" in page
    assert "Play again with the same players</button>" not in page
    assert "Join the rematch" not in page
    token = csrf_of(other.get("/me").get_data(as_text=True))  # a form of this site's
    refused = other.post(f"/games/{game_id}/rematch", data={"csrf_token": token})
    text = unescape(refused.get_data(as_text=True))
    assert refused.status_code == 403 and "Only the people who played" in text
    assert "You're in" not in text
    bob = app.test_client()
    sign_in(app, bob, "bob@example.org")
    page = unescape(bob.get(f"/games/{game_id}/rematch").get_data(as_text=True))
    assert f'already set up: <a href="/games/{new}">' in page and "Join the rematch" in page
