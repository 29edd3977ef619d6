"""The moon choice under rules that ask the shooter: the email, its two links, the pages."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import MoonChosen, MoonRule, Phase, preset
from tests.web.support import (
    csrf_of,
    events,
    links,
    moon_game,
    newest,
    outbox,
    post_link,
    shoot_the_moon,
    snapshot,
    state,
)


@pytest.fixture
def moon(app: Flask) -> tuple[int, int]:
    """A club game whose human has just shot the moon: (game id, their seat)."""
    assert preset("club").moon is MoonRule.SHOOTER_CHOICE
    game_id, seat = moon_game(app)
    shoot_the_moon(app, game_id, seat)
    now = state(app, game_id)
    assert now.phase is Phase.MOON_CHOICE and now.moon_shooter == seat
    return game_id, seat


def _moon_links(app: Flask) -> tuple[str, str]:
    down, up = links(newest(app, "moon_choice").body_text)
    return down, up


def test_the_shooter_gets_one_email_with_both_choices(app: Flask, moon: tuple[int, int]) -> None:
    (mail,) = outbox(app, "moon_choice")
    assert mail.to_addr == "you@example.com"
    text = mail.body_text
    assert "Congratulations You, you shot the moon in hand 1" in text
    assert "Go down 26: you'd have -26 (the others stay at 0, 0 and 0)." in text
    others = [f"Robot {s + 1}: 26" for s in range(4) if s != moon[1]]
    assert (f"Everyone else up 26: they'd have {others[0]}, {others[1]} and {others[2]} "
            "(you stay at 0).") in text
    assert text.count("The game goes on.") == 2
    assert "Reply “moon down” or “moon up”." in text
    assert "--- Reply above this line ---" in text
    assert len(links(text)) == 2
    html = mail.body_html or ""
    assert "You shot the moon" in html and html.count('class="action"') == 2
    assert "“moon down” or “moon up”" in html


def test_get_shows_a_confirmation_and_changes_nothing(app: Flask, client: FlaskClient,
                                                      moon: tuple[int, int]) -> None:
    game_id, _seat = moon
    down, up = _moon_links(app)
    before = snapshot(app, game_id)
    page = client.get(down)
    client.head(up)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Go down 26?" in html and "have -26" in html
    assert "Everyone else up 26?" in client.get(up).get_data(as_text=True)
    assert snapshot(app, game_id) == before
    assert state(app, game_id).phase is Phase.MOON_CHOICE


def test_post_down_scores_the_moon_and_deals_the_next_hand(app: Flask, client: FlaskClient,
                                                           moon: tuple[int, int]) -> None:
    game_id, seat = moon
    down, up = _moon_links(app)
    passes = len(outbox(app, "pass"))
    csrf = csrf_of(client.get(up).get_data(as_text=True))  # the other page, opened now
    response = post_link(client, down)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "you went down 26" in html
    now = state(app, game_id)
    assert now.totals[seat] == -26 and sum(now.totals) == -26
    assert now.sheet[-1].moon == seat and now.sheet[-1].moon_down is True
    assert now.hand_number == 2 and now.phase is Phase.PASS
    assert len(outbox(app, "pass")) == passes + 1  # the next hand is dealt: pass email
    assert not outbox(app, "move_confirmed")  # the page said it: no email for the move
    assert [e for e in events(app, game_id) if isinstance(e, MoonChosen)] == [
        MoonChosen(seat, True)]

    # The other link, pressed later from a page opened before the choice, changes nothing.
    before = snapshot(app, game_id)
    page = client.get(up).get_data(as_text=True)
    assert "Already chosen" in page and "you went down 26" in page
    again = client.post(up, data={"csrf_token": csrf})
    assert again.status_code == 200 and "Already chosen" in again.get_data(as_text=True)
    assert client.post(down, data={"csrf_token": csrf}).status_code == 200
    assert snapshot(app, game_id) == before
    assert state(app, game_id).totals == now.totals
