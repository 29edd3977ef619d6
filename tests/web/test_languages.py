"""Each viewer's language (issue 34): the footer switch and /me set it (cookie, and the
signed-in player's stored language), the browser's Accept-Language otherwise, English for
anything unknown; the organiser chooses an invited seat's language on /new; the web's
fragments translate the pages."""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.present import i18n
from pbem.store.db import transaction
from pbem.store.models import Player, Seat
from pbem.web.i18n import LANGUAGE_COOKIE
from tests.web.support import csrf_of, start_game
from tests.web.test_create import form_data
from tests.web.test_signin import sign_in

FRAGMENTS = Path(__file__).resolve().parents[2] / "tools" / "i18n" / "fragments" / "web"


def _catalog(language: str) -> gettext.NullTranslations:
    with (FRAGMENTS / f"{language}.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@pytest.fixture
def german() -> Iterator[None]:
    """The web's German fragment as the installed German catalog."""
    i18n.install("de", _catalog("de"))
    try:
        yield
    finally:
        i18n.uninstall("de")


def player(app: Flask, email: str = "you@example.com") -> Player:
    with transaction(db_engine(app), read_only=True) as session:
        found = session.exec(select(Player).where(Player.email == email)).one()
        session.expunge(found)
        return found


def switch(client: FlaskClient, language: str, back: str = "/lobby",
           csrf: str | None = None):  # type: ignore[no-untyped-def]
    token = csrf if csrf is not None else csrf_of(client.get(back).get_data(as_text=True))
    return client.post("/language", data={"csrf_token": token, "language": language,
                                          "back": back})


def test_the_footer_offers_every_language_named_in_itself(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    footer = page.split("<footer", 1)[1]
    assert 'action="/language"' in footer and 'name="csrf_token"' in footer
    for name in ("English", "Deutsch", "Français", "Español", "Italiano", "Nederlands"):
        assert name in footer
    assert '<html lang="en" dir="ltr">' in page


def test_the_switch_sets_the_cookie_and_goes_back(client: FlaskClient) -> None:
    done = switch(client, "de", back="/lobby")
    assert done.status_code == 303 and done.headers["Location"] == "/lobby"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "de"
    assert '<html lang="de" dir="ltr">' in client.get("/lobby").get_data(as_text=True)


def test_the_switch_sets_the_signed_in_players_language(app: Flask,
                                                        client: FlaskClient) -> None:
    start_game(app)
    sign_in(app, client)
    assert switch(client, "fr", back="/me").status_code == 303
    chosen = player(app)
    assert chosen.language == "fr" and chosen.language_chosen
    # another browser, signed in, writes in the stored language whatever its own
    other = app.test_client()
    sign_in(app, other)
    page = other.get("/me", headers={"Accept-Language": "nl"}).get_data(as_text=True)
    assert '<html lang="fr"' in page
    assert '<html lang="fr"' in other.get("/lobby").get_data(as_text=True)


def test_get_changes_nothing(client: FlaskClient) -> None:
    assert client.get("/language?language=de").status_code == 405
    assert client.get_cookie(LANGUAGE_COOKIE) is None


def test_a_bad_csrf_token_changes_nothing(client: FlaskClient) -> None:
    client.get("/lobby")
    refused = switch(client, "de", csrf="forged")
    assert refused.status_code == 400
    assert client.get_cookie(LANGUAGE_COOKIE) is None


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/x", "javascript:x",
                                  "/\\evil.example", ""])
def test_the_switch_never_leaves_the_site(client: FlaskClient, back: str) -> None:
    token = csrf_of(client.get("/lobby").get_data(as_text=True))
    done = client.post("/language", data={"csrf_token": token, "language": "it",
                                          "back": back})
    assert done.status_code == 303 and done.headers["Location"] == "/"


@pytest.mark.parametrize("tag", ["xx", "q-<script>", "zz<script>", "'\"><b>", "e" * 500,
                                 "zz-ZZ", ""])
def test_a_bad_tag_is_english_never_an_error(client: FlaskClient, tag: str) -> None:
    client.set_cookie(LANGUAGE_COOKIE, tag)
    page = client.get("/lobby", headers={"Accept-Language": tag})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and '<html lang="en" dir="ltr">' in html
    assert "<script>" not in html and "<b>" not in html
    done = switch(client, tag)
    assert done.status_code == 303
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "en"


def test_a_malformed_accept_language_is_english(client: FlaskClient) -> None:
    for header in (";;;q=x,,", "de;q=abc", "*"):
        page = client.get("/", headers={"Accept-Language": header})
        assert page.status_code == 200


def test_accept_language_shows_german_words(client: FlaskClient, german: None) -> None:
    page = client.get("/lobby", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
    html = page.get_data(as_text=True)
    assert '<html lang="de" dir="ltr">' in html
    assert "Tische, die Mitspieler suchen" in html  # "Tables looking for players"
    assert "Sprache" in html  # the footer's "Language"
    english = client.get("/lobby", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Tables looking for players" in english


def test_the_cookie_beats_the_browser(client: FlaskClient, german: None) -> None:
    switch(client, "de")
    html = client.get("/", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert '<html lang="de"' in html and "Hearts per E-Mail" in html


def test_the_choice_on_me_persists(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    sign_in(app, client)
    me = client.get("/me").get_data(as_text=True)
    assert 'id="my-language"' in me
    done = client.post("/language", data={"csrf_token": csrf_of(me), "language": "es",
                                          "back": "/me"})
    assert done.status_code == 303 and done.headers["Location"] == "/me"
    assert player(app).language == "es" and player(app).language_chosen
    again = client.get("/me").get_data(as_text=True)
    assert '<html lang="es"' in again
    assert '<option value="es" lang="es" selected>' in again.split('id="my-language"')[1]


def test_first_sign_in_stores_the_browsers_language(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "nl-BE,nl;q=0.9"
    sign_in(app, client)
    found = player(app)
    assert found.language == "nl" and not found.language_chosen


def test_sign_in_keeps_a_language_already_known(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    with transaction(db_engine(app)) as session:
        known = session.exec(select(Player).where(Player.email == "you@example.com")).one()
        known.language, known.language_chosen = "it", True
        session.add(known)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    sign_in(app, client)
    assert player(app).language == "it"
    assert '<html lang="it"' in client.get("/lobby").get_data(as_text=True)


def test_the_organisers_choice_for_an_invited_seat(app: Flask, client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    assert 'name="p2_language"' in page and 'name="p1_language"' not in page
    data = form_data(client, p2_language="de", p3_name="Cy", p3_email="cy@example.com",
                     p3_language="'\"><b>", p4_name="Di", p4_email="di@example.com",
                     p4_language="fr")
    assert client.post("/new", data=data).status_code == 303
    assert player(app, "bob@example.com").language == "de"
    assert not player(app, "bob@example.com").language_chosen
    assert player(app, "cy@example.com").language is None  # a bad tag: nothing chosen
    assert player(app, "di@example.com").language == "fr"
    with transaction(db_engine(app), read_only=True) as session:
        assert len(session.exec(select(Seat)).all()) == 4


def test_the_organiser_never_overrides_a_players_own_choice(app: Flask,
                                                             client: FlaskClient) -> None:
    start_game(app)  # you@example.com plays
    with transaction(db_engine(app)) as session:
        known = session.exec(select(Player).where(Player.email == "you@example.com")).one()
        known.language, known.language_chosen = "es", True
        session.add(known)
    data = form_data(client, p2_name="You", p2_email="you@example.com", p2_language="de")
    assert client.post("/new", data=data).status_code == 303
    assert player(app).language == "es"


def test_every_fragment_parses_with_its_plural_forms() -> None:
    for language in ("de", "fr", "es", "it", "nl"):
        with (FRAGMENTS / f"{language}.po").open("rb") as handle:
            catalog = read_po(handle, locale=language)
        assert len(catalog) > 100
        assert catalog.num_plurals == 2
        for message in catalog:
            if message.id and isinstance(message.id, tuple):
                assert all(message.string), message.id
            elif message.id:
                assert message.string, message.id


def test_the_switch_before_signing_in_becomes_the_players_choice(app: Flask,
                                                                  client: FlaskClient) -> None:
    start_game(app)
    switch(client, "it")
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    sign_in(app, client)
    found = player(app)
    assert found.language == "it" and found.language_chosen
    assert '<html lang="it"' in client.get("/me").get_data(as_text=True)


def test_no_accept_language_leaves_the_language_unknown(app: Flask,
                                                        client: FlaskClient) -> None:
    start_game(app)
    sign_in(app, client)
    assert player(app).language is None


def test_quick_play_stores_the_browsers_language(app: Flask, client: FlaskClient) -> None:
    ctx = service.Context(engine=db_engine(app))
    service.create_game(ctx, name="Solo", players=[service.Invitee("ann@example.com", "Ann",
                                                                   True)], bot_seats=[1, 2, 3])
    sign_in(app, client, "ann@example.com")  # no Accept-Language: not known yet
    assert player(app, "ann@example.com").language is None
    html = client.get("/lobby").get_data(as_text=True)
    client.post("/lobby/quick", data={"csrf_token": csrf_of(html), "preset": "standard",
                                      "pace": "24", "wait": "0"},
                headers={"Accept-Language": "fr-CA,fr;q=0.8"})
    found = player(app, "ann@example.com")
    assert found.language == "fr" and not found.language_chosen
