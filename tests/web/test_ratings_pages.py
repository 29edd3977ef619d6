"""Ratings on the pages (issue 19): the summary shows what the game did to each rated
player's rating (or why it wasn't rated), /me shows the player's rating, /leaderboard shows
display names only with the rule in words, and a player may leave it and come back."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from pbem.app import db_engine
from pbem.service import ratings
from tests.service.test_ratings import ANN, BOB, changes, new_game, play_out
from tests.web.support import csrf_of
from tests.web.test_signin import sign_in


def test_the_summary_my_games_and_the_leaderboard_show_ratings(
        app: Flask, client: FlaskClient) -> None:
    ctx, game_id = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, game_id)
    ann, bob = changes(db_engine(app), game_id)
    summary = unescape(client.get(f"/games/{game_id}/summary").get_data(as_text=True))
    assert "<h2>Ratings</h2>" in summary
    for change in (ann, bob):
        before = ratings.shown(change.mu_before, change.sigma_before)
        after = ratings.shown(change.mu_after, change.sigma_after)
        assert f"<td class=\"num\">{before}</td><td class=\"num\">{after}</td>" in summary
    board = unescape(client.get("/leaderboard").get_data(as_text=True))
    shown = re.sub(r"<style>.*?</style>", "", board, flags=re.S)  # the CSS has its @media
    assert "Ann" in board and "Bob" in board and "@" not in shown
    assert "at least one whole hand was played" in board
    assert "Leaving a game counts as finishing it last" in board
    assert f"rated together in {ratings.MAX_TOGETHER} games" in board
    sign_in(app, client, "ann@example.org")
    me = unescape(client.get("/me").get_data(as_text=True))
    assert f"Your rating: <strong>{ratings.shown(ann.mu_after, ann.sigma_after)}</strong> " \
           "after 1 rated game." in me
    left = client.post("/me/leaderboard", data={"csrf_token": csrf_of(me), "on": "0"},
                       follow_redirects=True)
    assert "You left the leaderboard" in left.get_data(as_text=True)
    assert "Ann" not in client.get("/leaderboard").get_data(as_text=True)
    client.post("/me/leaderboard", data={"csrf_token": csrf_of(me), "on": "1"})
    assert "Ann" in client.get("/leaderboard").get_data(as_text=True)


def test_a_game_that_does_not_count_says_why_on_its_summary(
        app: Flask, client: FlaskClient) -> None:
    ctx, game_id = new_game(db_engine(app), [ANN])
    play_out(ctx, game_id)
    summary = unescape(client.get(f"/games/{game_id}/summary").get_data(as_text=True))
    assert "Not rated: Fewer than two seats were played by people" in summary


def test_the_leaderboard_choice_posted_after_the_session_ended_goes_to_sign_in_and_back(
        app: Flask, client: FlaskClient) -> None:
    """Not a bare 403: /signin?next=/me (the form's page) with the reason, nothing changed."""
    ctx, game_id = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, game_id)
    sign_in(app, client, "ann@example.org")
    me = client.get("/me").get_data(as_text=True)
    with client.session_transaction() as session:  # the session ends while /me is open
        session.pop("player_id")
    answer = client.post("/me/leaderboard", data={"csrf_token": csrf_of(me), "on": "0"})
    assert answer.status_code == 303 and answer.headers["Location"] == "/signin?next=/me"
    signin = unescape(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert "Sign in again to leave the leaderboard or come back to it: the link we email " \
           "you brings you back to where you were." in signin
    assert '<input type="hidden" name="next" value="/me">' in signin
    gone = app.test_client().post("/me/leaderboard", data={"on": "0"})  # no cookie at all
    assert gone.status_code == 303 and gone.headers["Location"] == "/signin?next=/me"
    assert "Ann" in client.get("/leaderboard").get_data(as_text=True)  # still on it
