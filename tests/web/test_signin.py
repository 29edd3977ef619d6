"""Signing in without a password (issue 19): /signin mails a one-time link, the same answer
whether the address is known or not; the link's GET only shows a button (mail scanners open
links), its POST signs in once; reused, expired and forged links get a clear page; /me lists
the player's games and settings; a private seat link opens its one game and signs nobody in."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.present import signin as links
from pbem.service import accounts
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player, PlayerAddress, Token
from tests.web.support import csrf_of, newest, outbox, seat_path, start_game

_LINK = re.compile(r"https?://\S+?(/signin/[A-Za-z0-9_-]+)")


def ask(client: FlaskClient, address: str) -> str:
    form = client.get("/signin").get_data(as_text=True)
    answer = client.post("/signin", data={"csrf_token": csrf_of(form), "address": address})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return unescape(answer.get_data(as_text=True))


def signin_mails(app: Flask) -> list[OutboxEmail]:
    return outbox(app, "signin")


def link_of(mail: OutboxEmail) -> str:
    found = _LINK.search(mail.body_text)
    assert found, mail.body_text
    return found.group(1)


def sign_in(app: Flask, client: FlaskClient, address: str = "you@example.com") -> None:
    ask(client, address)
    link = link_of(newest(app, "signin"))
    page = client.get(link).get_data(as_text=True)
    done = client.post(link, data={"csrf_token": csrf_of(page)})
    assert done.status_code == 303 and done.headers["Location"].endswith("/me")


def test_the_answer_is_the_same_for_known_and_unknown_addresses(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    known = ask(client, "you@example.com")
    unknown = ask(client, "nobody@example.com")
    assert known.replace("you@example.com", "X") == unknown.replace("nobody@example.com", "X")
    assert "A sign-in link is on its way to you@example.com" in known
    mails = signin_mails(app)
    assert [m.to_addr for m in mails] == ["you@example.com", "nobody@example.com"]
    texts = [re.sub(r"Hi [^,\n]+,", "Hi X,", m.body_text).replace(link_of(m), "LINK")
             for m in mails]
    assert texts[0] == texts[1] and mails[0].subject == mails[1].subject  # but name and link


def test_a_new_visitor_gets_an_account_and_chooses_their_name(
        app: Flask, client: FlaskClient) -> None:
    ask(client, "new.visitor@example.net")
    link = link_of(newest(app, "signin"))
    page = client.get(link).get_data(as_text=True)
    assert 'name="name" value=""' in page  # no name made from the address
    assert "new.visitor" not in page and accounts_of(app, "new.visitor@example.net") == 0
    bad = client.post(link, data={"csrf_token": csrf_of(page), "name": "x" * 201})
    assert bad.status_code == 422 and "too long" in bad.get_data(as_text=True)
    done = client.post(link, data={"csrf_token": csrf_of(page), "name": " Nova\r\nBcc: x "})
    assert done.status_code == 303
    me = unescape(client.get("/me").get_data(as_text=True))
    assert "<h1>Your games</h1>" in me and "Signed in as Nova Bcc: x." in me
    assert "No games going on" in me
    assert accounts_of(app, "new.visitor@example.net") == 1


def accounts_of(app: Flask, address: str) -> int:
    with transaction(db_engine(app), read_only=True) as db:
        return len(db.exec(select(Player).where(Player.email == address)).all())


def test_text_that_is_not_an_address_is_answered_in_words_and_kept(
        app: Flask, client: FlaskClient) -> None:
    form = client.get("/signin").get_data(as_text=True)
    answer = client.post("/signin", data={"csrf_token": csrf_of(form), "address": "you at home"})
    html = unescape(answer.get_data(as_text=True))
    assert answer.status_code == 422 and "doesn't look like an email address" in html
    assert 'value="you at home"' in html and signin_mails(app) == []


def test_the_form_needs_its_csrf_token(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    assert client.post("/signin", data={"address": "you@example.com"}).status_code == 400
    assert signin_mails(app) == []


def test_opening_the_link_changes_nothing_and_the_button_signs_in_once(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    ask(client, "you@example.com")
    link = link_of(newest(app, "signin"))
    for _ in range(3):  # a mail scanner, then the player
        page = client.get(link)
        assert page.status_code == 200
        assert "Sign in as <bdi>You</bdi>?" in page.get_data(as_text=True)
    assert client.get("/me").status_code == 303  # not signed in yet
    done = client.post(link, data={"csrf_token": csrf_of(page.get_data(as_text=True))})
    assert done.status_code == 303
    me = client.get("/me").get_data(as_text=True)
    assert "Signed in as You." in unescape(me) and "Demo" in me
    assert "You's games" not in unescape(me)  # issue 37: no possessive made of a name
    again = client.get(link)
    assert again.status_code == 410 and "has been used already" in again.get_data(as_text=True)
    used = client.post(link, data={"csrf_token": csrf_of(me)})
    assert used.status_code == 410 and "Nobody was signed in" in used.get_data(as_text=True)


def test_expired_and_forged_links_get_a_clear_page(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    ask(client, "you@example.com")
    link = link_of(newest(app, "signin"))
    later = datetime.now(UTC) + accounts.SIGNIN_TTL + timedelta(seconds=1)
    assert links.check_signin(db_engine(app), link.rsplit("/", 1)[1], now=later).state == \
        links.EXPIRED
    with transaction(db_engine(app)) as session:
        for token in session.exec(select(Token).where(Token.purpose == "signin")):
            token.expires_at = datetime.now(UTC) - timedelta(seconds=1)
            session.add(token)
    expired = client.get(link)
    assert expired.status_code == 410 and "too old" in expired.get_data(as_text=True)
    forged = client.get("/signin/AAAAAAAAAAAAAAAAAAAAAAAA")
    assert forged.status_code == 404 and "not one of ours" in forged.get_data(as_text=True)
    page = client.get("/signin").get_data(as_text=True)
    refused = client.post(link, data={"csrf_token": csrf_of(page)})
    assert refused.status_code == 410 and client.get("/me").status_code == 303


def test_the_link_is_stored_hashed_and_short_lived(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    ask(client, "you@example.com")
    raw = link_of(newest(app, "signin")).rsplit("/", 1)[1]
    with transaction(db_engine(app), read_only=True) as session:
        token = session.exec(select(Token).where(Token.purpose == "signin")).one()
    assert raw not in token.token_hash and len(token.token_hash) == 64
    assert token.expires_at is not None and token.created_at is not None
    assert token.expires_at - token.created_at == accounts.SIGNIN_TTL


def test_an_extra_address_and_a_plus_variant_sign_the_player_in(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    with transaction(db_engine(app)) as session:
        session.add(PlayerAddress(player_id=1, email="you@work.example"))
    ask(client, "You@Work.Example")
    ask(client, "you+hearts@example.com")
    assert [m.to_addr for m in signin_mails(app)] == ["you@work.example",
                                                      "you+hearts@example.com"]
    for mail in signin_mails(app):  # the email names nobody; the link's page does
        assert "Hello," in mail.body_text and "You," not in mail.body_text
        assert "Sign in as <bdi>You</bdi>?" in client.get(link_of(mail)).get_data(as_text=True)


def test_one_address_gets_a_bounded_number_of_links(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    for _ in range(accounts.SIGNIN_PER_HOUR + 3):
        answer = ask(client, "you@example.com")
        assert "A sign-in link is on its way" in answer  # the same answer: nothing told
        assert "at most 5 sign-in links an hour" in answer  # but the page says the limit
    assert len(signin_mails(app)) == accounts.SIGNIN_PER_HOUR


def test_two_posts_of_one_link_sign_in_exactly_once(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    ask(client, "you@example.com")
    raw = link_of(newest(app, "signin")).rsplit("/", 1)[1]
    results: list[str] = []
    barrier = threading.Barrier(4)

    def use() -> None:
        barrier.wait()
        results.append(links.use_signin(db_engine(app), raw).state)

    threads = [threading.Thread(target=use) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [links.LIVE] + [links.USED] * 3


def test_signing_in_starts_a_fresh_session_and_signing_out_ends_it(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    client.get("/signin")
    with client.session_transaction() as before:
        before["planted"] = "by someone else"
    sign_in(app, client)
    with client.session_transaction() as after:
        assert "planted" not in after and after["player_id"] == 1 and after.permanent
    me = client.get("/me").get_data(as_text=True)
    out = client.post("/signout", data={"csrf_token": csrf_of(me)})
    assert out.status_code == 200 and "You are signed out" in out.get_data(as_text=True)
    assert client.get("/me").status_code == 303


def test_the_session_cookie_is_httponly_lax_and_secure_in_production(
        make_app, db_url: str) -> None:  # type: ignore[no-untyped-def]
    dev = make_app(DATABASE_URL=db_url)
    assert dev.config["SESSION_COOKIE_HTTPONLY"] and dev.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    start_game(dev)
    client = dev.test_client()
    sign_in(dev, client)
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"


def test_a_private_seat_link_opens_its_game_and_signs_nobody_in(
        app: Flask, client: FlaskClient) -> None:
    start_game(app)
    path = seat_path(newest(app, "pass").body_text)
    assert client.get(path).status_code == 200
    assert client.get("/me").status_code == 303


def test_my_games_lists_every_game_with_whose_turn_and_links_to_the_seat(
        app: Flask, client: FlaskClient) -> None:
    first = start_game(app, name="First game")
    second = start_game(app, name="Second game", seed=8)
    sign_in(app, client)
    html = unescape(client.get("/me").get_data(as_text=True))
    assert "First game" in html and "Second game" in html
    assert html.count("your move") == 2 and "<bdi>Robot 2</bdi>\xa00" in html
    seat_links = re.findall(r'href="(/s/[A-Za-z0-9_-]+)"', html)
    assert len(seat_links) == 2
    assert all(client.get(p).status_code == 200 for p in seat_links)
    # A game without a live link yet gets a button that makes one (GET made none).
    with transaction(db_engine(app)) as session:
        for token in session.exec(select(Token).where(Token.purpose == "seat",
                                                      col(Token.game_id) == first)):
            session.delete(token)
    html = client.get("/me").get_data(as_text=True)
    assert f'action="/me/seat/{first}"' in html and f'action="/me/seat/{second}"' not in html
    opened = client.post(f"/me/seat/{first}", data={"csrf_token": csrf_of(html)})
    assert opened.status_code == 303 and "/s/" in opened.headers["Location"]


def test_settings_are_changed_from_my_games(app: Flask, client: FlaskClient) -> None:
    start_game(app)
    sign_in(app, client)
    html = client.get("/me").get_data(as_text=True)
    token = csrf_of(html)
    saved = client.post("/me/preferences", data={"csrf_token": token, "notify": "turn_only",
                                                 "digest": "on", "time_zone": "Europe/Paris"})
    assert saved.status_code == 303
    prefs = accounts.preferences(service.Context(engine=db_engine(app)), 1)
    assert (prefs.notify, prefs.digest, prefs.time_zone) == ("turn_only", True, "Europe/Paris")
    assert not prefs.review_games  # its box left unticked: the review of games is off
    assert 'name="review_games">' in client.get("/me").get_data(as_text=True)
    client.post("/me/preferences", data={"csrf_token": token, "notify": "turn_only",
                                         "time_zone": "Europe/Paris", "review_games": "on"})
    assert accounts.preferences(service.Context(engine=db_engine(app)), 1).review_games
    bad = client.post("/me/preferences", data={"csrf_token": token, "notify": "turn_only",
                                               "time_zone": "Mars/Olympus"}, follow_redirects=True)
    assert "Mars/Olympus" in unescape(bad.get_data(as_text=True))
    assert accounts.preferences(service.Context(engine=db_engine(app)), 1).time_zone == \
        "Europe/Paris"
    typed = client.post("/me/preferences", data={"csrf_token": token, "notify": "turn_only",
                                                 "time_zone": " america/new york "})
    assert typed.status_code == 303  # any case, spaces for underscores: the zone's own name
    assert accounts.preferences(service.Context(engine=db_engine(app)), 1).time_zone == \
        "America/New_York"
    assert 'list="time-zones"' in client.get("/me").get_data(as_text=True)
    away = client.post("/me/away", data={"csrf_token": token, "start": "2030-01-02",
                                         "end": "2030-01-05"}, follow_redirects=True)
    assert "you are away from 2 January 2030" in away.get_data(as_text=True)
    client.post("/me/address", data={"csrf_token": token, "address": "you@phone.example"})
    assert newest(app, "address_confirm").to_addr == "you@phone.example"
    assert client.post("/me/away/clear", data={"csrf_token": token},
                       follow_redirects=True).status_code == 200
    assert service.away_dates(service.Context(engine=db_engine(app)), 1) == []


@pytest.mark.parametrize("path", ["/me/preferences", "/me/away", "/me/away/clear",
                                  "/me/address", "/me/seat/1"])
def test_settings_need_a_signed_in_player(app: Flask, client: FlaskClient, path: str) -> None:
    start_game(app)
    token = csrf_of(client.get("/signin").get_data(as_text=True))
    assert client.post(path, data={"csrf_token": token}).status_code == 403


def test_a_client_asking_for_many_links_is_rate_limited(make_app, db_url: str) -> None:  # type: ignore[no-untyped-def]
    limited = make_app(DATABASE_URL=db_url, RATELIMIT_ENABLED=True)
    client = limited.test_client()
    token = csrf_of(client.get("/signin").get_data(as_text=True))
    answers = [client.post("/signin", data={"csrf_token": token,
                                            "address": f"p{n}@example.com"}).status_code
               for n in range(6)]
    assert answers == [200] * 5 + [429]
    assert client.get("/signin").status_code == 200  # the page itself is not limited


def test_three_first_requests_for_one_new_address_make_no_account(app: Flask) -> None:
    """The account is made when a link is used (tests/security/test_accounts_abuse.py races
    the links' use); asking makes none."""
    from tests.service.test_lobby import race

    ctx = service.Context(engine=db_engine(app))
    results = race(*(lambda: accounts.request_signin(ctx, "twice@example.net")
                     for _ in range(3)))
    assert results == [None, None, None]
    assert accounts_of(app, "twice@example.net") == 0
    assert {m.player_id for m in signin_mails(app)} == {None}
    assert len(signin_mails(app)) == 3
