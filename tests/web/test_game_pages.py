"""The public game page (/g/<id>, /games/<id>) and the end-of-game summary: seats, scores, the
trick and the tricks so far; never anyone's hand while the game is on; every card once over."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import Phase
from pbem.web import compile_page_templates
from tests.web.support import count_tokens, finish_game, human_move, snapshot, state


def test_the_observer_page_never_shows_a_hand(app: Flask, client: FlaskClient,
                                              game_id: int) -> None:
    for _ in range(12):  # through the pass and into the play, checking at every step
        now = state(app, game_id)
        html = client.get(f"/games/{game_id}").get_data(as_text=True)
        for seat in range(now.seats):
            for card in now.hand(seat):
                assert f'aria-label="{card}' not in html, (seat, card)
        assert "/s/" not in html and "Your hand" not in html
        human_move(app, game_id)


def test_the_game_page_lists_the_tricks_of_the_hand_so_far(app: Flask, client: FlaskClient,
                                                           game_id: int) -> None:
    while state(app, game_id).phase is not Phase.PLAY or len(state(app, game_id).tricks) < 2:
        human_move(app, game_id)
    now = state(app, game_id)
    html = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Tricks so far this hand" in html
    for number, trick in enumerate(now.tricks, start=1):
        assert f"Trick {number}</span>" in html
        for _seat, card in trick.plays:
            assert f'aria-label="{card}"' in html
    assert "Seats" in html and "You" in html and "(computer)" in html


def test_get_and_head_of_the_pages_change_nothing(app: Flask, client: FlaskClient,
                                                  game_id: int) -> None:
    before = snapshot(app, game_id), count_tokens(app)
    for path in (f"/games/{game_id}", f"/g/{game_id}", f"/games/{game_id}/summary", "/new",
                 "/new?preset=club", f"/games/{game_id}/created"):
        client.get(path)
        client.head(path)
    assert (snapshot(app, game_id), count_tokens(app)) == before


def test_unknown_games_are_not_found(client: FlaskClient) -> None:
    for path in ("/games/999", "/g/999", "/games/999/summary", "/games/999/created"):
        assert client.get(path).status_code == 404


def test_the_summary_of_an_unfinished_game_sends_you_to_the_table(client: FlaskClient,
                                                                  game_id: int) -> None:
    response = client.get(f"/games/{game_id}/summary")
    assert response.status_code == 302
    assert response.location.endswith(f"/games/{game_id}")


def test_a_finished_game_shows_standings_chart_sheet_and_every_trick(
        app: Flask, client: FlaskClient, game_id: int) -> None:
    over = finish_game(app, game_id)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert html == client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "Final standings" in html and "<svg" in html and "<polyline" in html
    for result in over.sheet:
        assert f'id="hand-{result.hand_number}"' in html
        assert f'href="/games/{game_id}/hands/{result.hand_number}"' in html
    assert html.count("dealt.") == len(over.sheet)
    assert "The deal" not in html and "Trick 1" not in html  # the cards: on each hand's page
    for total in over.totals:
        assert f'<td class="num">{total}</td>' in html
    for result in over.sheet:
        hand = client.get(f"/games/{game_id}/hands/{result.hand_number}")
        page = hand.get_data(as_text=True)
        assert hand.status_code == 200 and f"hand {result.hand_number}</h1>" in page
        assert len(re.findall(r'<span class="tn">Trick \d+</span>', page)) == 13
        assert "The deal" in page and page.count("dealt.") == 1
        passed = over.rules.pass_offset(result.hand_number) != 0  # a hold hand passes none
        assert ("<h3>Passes</h3>" in page) == passed
        said = "Points: " + ", ".join(rf"[^,<>]+ {p}" for p in result.points) + r"\."
        assert re.search(said, re.sub(r"</?bdi>", "", page))
    for number in (0, len(over.sheet) + 1, 10**9):
        assert client.get(f"/games/{game_id}/hands/{number}").status_code == 404


def test_a_hand_page_waits_for_the_end_of_the_game(client: FlaskClient, game_id: int) -> None:
    """A hand's page shows every card of its deal: not while the game is played."""
    response = client.get(f"/games/{game_id}/hands/1")
    assert response.status_code == 302 and response.location.endswith(f"/games/{game_id}")
    assert client.get("/games/999/hands/1").status_code == 404


def test_page_templates_are_compiled_before_the_first_request(
        app: Flask, client: FlaskClient, game_id: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """pbem.wsgi compiles them in gunicorn's master: a worker's first summary view does not
    read and compile a template (~80 ms of a 67-hand game's first view otherwise)."""
    finish_game(app, game_id)
    assert compile_page_templates(app) >= 30

    def no_reading(*_args: object) -> None:
        raise AssertionError("a template read after the start")

    monkeypatch.setattr(app.jinja_env.loader, "get_source", no_reading)
    for path in (f"/games/{game_id}/summary", f"/games/{game_id}/hands/1"):
        assert client.get(path).status_code == 200
