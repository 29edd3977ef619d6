"""Creating a game on /new: preset defaults, validation with precise sentences (typed values
kept, escaped), CSRF, and the game made through the service with its invitations mailed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.engine import ALL_PRESETS, PRESETS, VARIANT_PRESETS
from pbem.present.refusals import mistake_words
from pbem.present.rules_words import preset_title
from pbem.service.policy import DeadlinePolicy
from pbem.store.db import transaction
from pbem.store.models import Game, Seat
from tests.web.support import count_tokens, csrf_of, outbox


def form_data(client: FlaskClient, preset: str = "standard", **changes: Any) -> dict[str, Any]:
    """The form's own values for `preset` (as a browser would send them), plus `changes`."""
    html = client.get(f"/new?preset={preset}").get_data(as_text=True)
    data: dict[str, Any] = {"csrf_token": csrf_of(html), "preset": preset}
    for name, value in re.findall(r'<input type="(?:text|email|number)" id="\w+" name="(\w+)" '
                                  r'value="([^"]*)"', html):
        data[name] = value
    for name in re.findall(r'<input type="checkbox" id="\w+" name="(\w+)" checked', html):
        data[name] = "on"
    for select_name, body in re.findall(r'<select id="\w+" name="(\w+)"[^>]*>(.*?)</select>',
                                        html, re.S):
        data[select_name] = re.search(r'<option value="([^"]+)" selected', body).group(1)
    data["on_timeout"] = re.search(r'name="on_timeout" value="(\w+)" checked', html).group(1)
    data["robot_strength"] = re.search(r'name="robot_strength" value="(\w+)" checked',
                                       html).group(1)
    data.pop("preset-choice", None)
    data.update(p1_name="Ann", p1_email="ann@example.com", p2_name="Bob",
                p2_email="bob@example.com")
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def games(app: Flask) -> list[Game]:
    with transaction(db_engine(app), read_only=True) as session:
        return list(session.exec(select(Game)))


def test_the_form_lists_every_preset_with_its_title(client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    for preset in ALL_PRESETS.values():
        assert f'<option value="{preset.name}"' in html
        assert preset_title(preset).replace("'", "&#39;") in html
    assert html.count('class="player-row"') == 4


def test_each_whole_variant_is_a_group_of_its_own(client: FlaskClient) -> None:
    """Issue 37: the menu is grouped by what players know (Cancellation, Domino, Auction), and
    no title carries the sources' seeds (they are in docs/engine.md)."""
    html = client.get("/new").get_data(as_text=True)
    found = []
    for label in ("Cancellation Hearts (two decks)", "Domino Hearts", "Auction Hearts"):
        group = html.split(f'<optgroup label="{label}">')[1].split("</optgroup>")[0]
        found += re.findall(r'<option value="([\w-]+)"', group)
    assert found == list(VARIANT_PRESETS)
    assert "Domino Hearts, 2 players — no pass; QS not scored; game to 50" in html


def variant_data(client: FlaskClient, name: str, **changes: Any) -> dict[str, Any]:
    """The form for `name`, everyone but Ann and Bob a computer."""
    seats = VARIANT_PRESETS[name].rules.players
    computers = {f"p{n}_computer": "on" for n in range(3, seats + 1)}
    if seats == 2:
        changes = {"p2_email": None, "p2_name": None, "p2_computer": "on", **changes}
    return form_data(client, name, **computers, **changes)


@pytest.mark.parametrize("name", sorted(VARIANT_PRESETS))
def test_every_whole_variant_can_be_created_with_its_players(
        app: Flask, client: FlaskClient, name: str) -> None:
    rules = VARIANT_PRESETS[name].rules
    html = client.get(f"/new?preset={name}").get_data(as_text=True)
    assert html.count('class="player-row"') == rules.players
    response = client.post("/new", data=variant_data(client, name, target="30"))
    assert response.status_code == 303, response.get_data(as_text=True)
    (game,) = games(app)
    assert game.preset == name and game.rules["variant"] == rules.variant.value
    assert game.rules["players"] == rules.players and game.rules["target"] == 30
    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)
    (game,) = games(app)
    assert game.status == ("active" if rules.players == 2 else "inviting")


@pytest.mark.parametrize(("name", "absent"), [
    ("cancellation", ["pass_count", "bonus_card", "forced_queen", "opening_lead"]),
    ("domino-three", ["pass_count", "bonus_card", "forced_queen", "opening_lead", "cancels"]),
    ("auction-five", ["pass_count", "bonus_card", "moon", "queen_scores", "settlement",
                      "queen_breaks_hearts", "cancels"]),
    ("standard", ["cancels"]),
])
def test_options_a_variant_has_no_use_for_are_not_offered(
        client: FlaskClient, name: str, absent: list[str]) -> None:
    html = client.get(f"/new?preset={name}").get_data(as_text=True)
    for option in absent:
        assert f'name="{option}"' not in html, option
    assert 'name="target"' in html
    if name != "standard":
        assert "Only the options this variant leaves open are offered" in html


def test_an_option_a_variant_has_no_use_for_is_never_read(app: Flask,
                                                          client: FlaskClient) -> None:
    data = variant_data(client, "domino", pass_count="3", bonus_card="jack_of_diamonds")
    assert client.post("/new", data=data).status_code == 303
    (game,) = games(app)
    assert game.rules["pass_count"] == 0 and game.rules["bonus_card"] == "none"


def test_cancellation_offers_which_cards_cancel(app: Flask, client: FlaskClient) -> None:
    html = client.get("/new?preset=cancellation-ten").get_data(as_text=True)
    assert "any two cards of the same rank" in html
    data = variant_data(client, "cancellation-ten", cancels="same_rank")
    assert client.post("/new", data=data).status_code == 303
    (game,) = games(app)
    assert game.rules["cancels"] == "same_rank" and game.rules["players"] == 10


def test_auction_words_the_options_for_the_named_suit(client: FlaskClient) -> None:
    html = client.get("/new?preset=auction").get_data(as_text=True)
    assert "The named suit can&#39;t be led until broken" in html
    assert "Hearts can&#39;t be led until broken" not in html


@pytest.mark.parametrize(("name", "players", "sentence"), [
    ("cancellation", 11, "Cancellation Hearts needs 7 to 10 players"),
    ("domino", 8, "Domino Hearts needs 2 to 7 players"),
    ("auction-three", 2, "Auction Hearts needs 3 to 7 players"),
])
def test_the_engine_refuses_variant_options_in_words(name: str, players: int,
                                                     sentence: str) -> None:
    with pytest.raises(service.BadRequest) as refused:
        service.make_rules(name, {"pass_count": 3})
    assert "has no pass" in mistake_words(refused.value)
    with pytest.raises(service.BadRequest) as refused:
        service.make_rules(name, {"players": players})
    assert sentence in mistake_words(refused.value)


@pytest.mark.parametrize("name", ["standard", "club", "five", "omnibus-td", "three-kitty"])
def test_a_preset_fills_in_its_own_values(client: FlaskClient, name: str) -> None:
    rules = PRESETS[name].rules
    data = form_data(client, name)
    assert data["target"] == str(rules.target)
    assert data["pass_count"] == str(rules.pass_count)
    assert data["moon"] == rules.moon.value and data["bonus_card"] == rules.bonus_card.value
    for flag in ("points_on_first_trick", "hearts_must_be_broken", "queen_breaks_hearts",
                 "forced_queen", "sinkhole_99"):
        assert (data.get(flag) == "on") == getattr(rules, flag), flag
    html = client.get(f"/new?preset={name}").get_data(as_text=True)
    assert html.count('class="player-row"') == rules.players


def test_an_unknown_preset_shows_the_standard_form(client: FlaskClient) -> None:
    response = client.get("/new?preset=<nope>")
    assert response.status_code == 404
    assert "&lt;nope&gt;" in response.get_data(as_text=True)


def test_creating_a_game_asks_the_organiser_to_confirm_before_inviting_anyone(
        app: Flask, client: FlaskClient) -> None:
    data = form_data(client, p3_computer="on", p4_computer="on", target="50",
                     move_hours="24", reminders="1", skip_weekends="on", on_timeout="open_seat")
    response = client.post("/new", data=data)
    assert response.status_code == 303
    (game,) = games(app)
    assert response.location.endswith(f"/games/{game.id}/created")
    assert game.status == "inviting" and game.rules["target"] == 50
    assert game.deadline_policy == {"move_hours": 24, "reminders": [0.75],
                                    "skip_weekends": True, "grace_minutes": 0,
                                    "on_timeout": "open_seat"}
    read = DeadlinePolicy.from_dict(game.deadline_policy)  # as the worker reads it
    assert (read.move_hours, read.reminders, read.on_timeout) == (24, (0.75,), "open_seat")
    (confirm,) = outbox(app, "invite")  # only the organiser hears of it
    assert confirm.to_addr == "ann@example.com" and "Confirm it" in confirm.body_text
    with transaction(db_engine(app), read_only=True) as session:
        seats = list(session.exec(select(Seat).where(Seat.game_id == game.id)))
    assert sorted((s.seat_no, s.is_bot, s.invite_status) for s in seats) == [
        (0, False, "invited"), (1, False, "invited"), (2, True, "accepted"),
        (3, True, "accepted")]
    page = client.get(response.location).get_data(as_text=True)
    assert "We emailed <bdi>Ann</bdi> to confirm it" in page and "Bob" in page
    assert f'href="/games/{game.id}"' in page

    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)
    assert [r.to_addr for r in outbox(app, "invite")] == ["ann@example.com", "bob@example.com"]
    # Bob never took part here: nothing typed on /new reaches him (issue 38.3)
    invited = outbox(app, "invite")[-1]
    assert "Ann" not in invited.body_text and "invited to a game" in invited.body_text


def test_an_unconfirmed_game_never_reaches_the_other_players(app: Flask,
                                                             client: FlaskClient) -> None:
    client.post("/new", data=form_data(client))
    (game,) = games(app)
    service.decline_invite(service.Context(engine=db_engine(app)), game.id, 0)
    assert {r.to_addr for r in outbox(app)} == {"ann@example.com"}


def test_one_address_may_set_up_only_a_few_games_an_hour(app: Flask, client: FlaskClient) -> None:
    from pbem.service.games import ORGANISER_QUOTA

    for _ in range(ORGANISER_QUOTA):
        assert client.post("/new", data=form_data(client)).status_code == 303
    refused = client.post("/new", data=form_data(client))
    assert refused.status_code == 422
    assert "too many games in the last hour" in refused.get_data(as_text=True)
    assert len(games(app)) == ORGANISER_QUOTA


def test_empty_seats_are_computers_and_the_game_starts_once_confirmed(
        app: Flask, client: FlaskClient) -> None:
    response = client.post("/new", data=form_data(client, p2_email="", p2_name=""))
    assert response.status_code == 303
    (game,) = games(app)
    assert game.status == "inviting" and [r.to_addr for r in outbox(app, "invite")] == [
        "ann@example.com"]
    service.accept_invite(service.Context(engine=db_engine(app)), game.id, 0)
    (game,) = games(app)
    assert game.status == "active" and outbox(app, "pass")


@pytest.mark.parametrize("strength", ["strong", "easy"])
def test_the_organiser_chooses_how_well_the_computers_play_strong_by_default(
        app: Flask, client: FlaskClient, strength: str) -> None:
    html = client.get("/new").get_data(as_text=True)
    assert 'name="robot_strength" value="strong" checked' in html
    assert 'name="robot_strength" value="easy">' in html
    response = client.post("/new", data=form_data(client, p2_email="", p2_name="",
                                                  robot_strength=strength))
    assert response.status_code == 303
    (game,) = games(app)
    assert game.robot_strength == strength


@pytest.mark.parametrize(("changes", "sentence"), [
    ({"name": ""}, "Give the game a name."),
    ({"p1_email": ""}, "Your email address is needed."),
    ({"p2_email": "bob@"}, "Seat 2: the email address doesn&#39;t look right"),
    ({"p2_email": "ANN@example.com"}, "Seat 2 has the same email address as seat 1."),
    ({"p2_computer": "on"}, "Seat 2: tick “computer” or give an email address, not both."),
    ({"target": "ten"}, "“Target score” must be a whole number from 1 to 10000."),
    ({"target": "0"}, "“Target score” must be from 1 to 10000."),
    ({"target": "1²"}, "“Target score” must be a whole number from 1 to 10000."),
    ({"move_hours": "٤٨"}, "“Time per move (hours)” must be a whole number from 1 to 720."),
    ({"moon": "sideways"}, "Choose one of the listed answers for “Shooting the moon”."),
    ({"move_hours": "0"}, "“Time per move (hours)” must be from 1 to 720."),
    ({"on_timeout": "explode"}, "Choose what happens when a player runs out of time."),
    ({"reminders": "4"}, "“Reminders” must be from 0 to 3."),
    ({"robot_strength": "godlike"}, "Choose how well the computer players play."),
])
def test_mistakes_are_named_and_nothing_is_made(app: Flask, client: FlaskClient,
                                                changes: dict[str, str], sentence: str) -> None:
    before = len(outbox(app)), count_tokens(app)
    response = client.post("/new", data=form_data(client, **changes))
    assert response.status_code == 422
    assert sentence in response.get_data(as_text=True)
    assert games(app) == [] and (len(outbox(app)), count_tokens(app)) == before


def test_the_engine_explains_rules_that_do_not_fit(app: Flask, client: FlaskClient) -> None:
    extra = {f"p{n}_computer": "on" for n in range(3, 8)}
    response = client.post("/new", data=form_data(client, "seven", pass_count="4", **extra))
    assert response.status_code == 422
    assert "too many cards passed" in response.get_data(as_text=True)
    assert games(app) == []


def test_typed_values_are_kept_and_escaped(client: FlaskClient) -> None:
    response = client.post("/new", data=form_data(
        client, name='<script>alert("x")</script>', p2_name="<b>Bob</b>", p2_email="bob@",
        target="77"))
    html = response.get_data(as_text=True)
    assert "<script>alert" not in html and "<b>Bob</b>" not in html
    assert 'value="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"' in html
    assert 'value="&lt;b&gt;Bob&lt;/b&gt;"' in html and 'value="bob@"' in html
    assert 'name="target" value="77"' in html


def test_a_post_without_csrf_makes_nothing(app: Flask, client: FlaskClient) -> None:
    data = form_data(client)
    del data["csrf_token"]
    response = client.post("/new", data=data)
    assert response.status_code == 400
    assert "security check failed" in response.get_data(as_text=True)
    assert 'value="Bob"' in response.get_data(as_text=True)
    assert games(app) == [] and outbox(app) == []


def test_an_unknown_preset_in_the_post_is_a_bad_request(app: Flask, client: FlaskClient) -> None:
    assert client.post("/new", data=form_data(client, preset="nope")).status_code == 400
    assert games(app) == []
