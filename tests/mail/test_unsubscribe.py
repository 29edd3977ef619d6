"""One-click unsubscribe (RFC 8058) from a real email's List-Unsubscribe header: GET and HEAD
change nothing, a cookie-less POST unsubscribes, no more mail after that, forged links 404."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, update
from sqlmodel import col, select

from pbem.engine import Event
from pbem.mail.compose import MailSettings
from pbem.mail.notify import notify
from pbem.present.tokens import hash_token
from pbem.store.db import transaction
from pbem.store.models import Player, Token
from tests.mail.game_support import PlayedGame, deal_event
from tests.mail.mailtest_support import SmtpServer
from tests.mail.test_notify import deliver, text

ANN = "ann@example.org"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def web(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url)


def run(engine: Engine, game: PlayedGame, settings: MailSettings, *events: Event,
        echo: bool = False) -> None:
    """Like the service: apply the events and queue the mail, now (the links must be live).
    `echo`: the moves came by reply."""
    now = datetime.now(UTC)
    with transaction(engine) as session:
        row, before, after = game.step(session, *events)
        notify(session, row, before, after, list(events), settings=settings, now=now,
               deadline=now + timedelta(days=2), echo=echo)


def first_mail_to_ann(engine: Engine, server: SmtpServer, game: PlayedGame,
                      settings: MailSettings) -> EmailMessage:
    run(engine, game, settings, deal_event())
    return deliver(engine, server)[ANN][0]


def one_click_path(msg: EmailMessage) -> str:
    """The https URL of List-Unsubscribe, as a path for the test client."""
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = re.search(r"<(https://[^>]+)>", msg["List-Unsubscribe"])
    assert url, msg["List-Unsubscribe"]
    return urlsplit(url.group(1)).path


def ann(engine: Engine) -> Player:
    with transaction(engine, read_only=True) as session:
        return session.exec(select(Player).where(col(Player.email) == ANN)).one()


def test_get_and_head_only_show_the_page(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    path = one_click_path(first_mail_to_ann(engine, smtp_server, game, mail_settings))
    client = web.test_client()
    page = client.get(path)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "Ann" in body and ANN in body
    assert f'action="{path}"' in body and "<button" in body
    assert client.head(path).status_code == 200
    for _ in range(3):  # a scanner fetching the link again and again
        client.get(path)
    assert not ann(engine).unsubscribed


def test_one_click_post_unsubscribes_and_no_more_mail_arrives(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    path = one_click_path(first_mail_to_ann(engine, smtp_server, game, mail_settings))
    # What a mail client sends: no cookie, no CSRF token, just the RFC 8058 body.
    response = web.test_client().post(path, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert "You are unsubscribed" in response.get_data(as_text=True)
    assert ann(engine).unsubscribed

    for event in game.passes():
        run(engine, game, mail_settings, event, echo=True)  # by reply: each passer hears back
    inbox = deliver(engine, smtp_server)
    assert ANN not in inbox
    assert sorted(inbox) == ["bob@example.org", "cy@example.org", "dee@example.org"]


def test_the_page_offers_to_resubscribe(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    path = one_click_path(first_mail_to_ann(engine, smtp_server, game, mail_settings))
    client = web.test_client()
    page = client.post(path, data={"List-Unsubscribe": "One-Click"}).get_data(as_text=True)
    assert f'action="{path}/resubscribe"' in page
    token = CSRF.search(page)
    assert token

    forged = web.test_client().post(f"{path}/resubscribe")  # no CSRF token: refused
    assert forged.status_code == 400 and ann(engine).unsubscribed

    done = client.post(f"{path}/resubscribe", data={"csrf_token": token.group(1)})
    assert done.status_code == 200 and "back on" in done.get_data(as_text=True)
    assert not ann(engine).unsubscribed
    assert "Already unsubscribed" not in client.get(path).get_data(as_text=True)


def test_the_page_lets_a_player_choose_less_mail_and_a_daily_digest(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    path = one_click_path(first_mail_to_ann(engine, smtp_server, game, mail_settings))
    client = web.test_client()
    page = client.get(path).get_data(as_text=True)
    token = CSRF.search(page)
    assert token and f'action="{path}/preferences"' in page
    choice = {"notify": "turn_only", "digest": "on", "time_zone": "Asia/Tokyo"}

    assert web.test_client().post(f"{path}/preferences", data=choice).status_code == 400
    bad = client.post(f"{path}/preferences", data={**choice, "time_zone": "Mars/Olympus",
                                                    "csrf_token": token.group(1)})
    assert bad.status_code == 400 and ann(engine).time_zone == "Europe/Paris"

    saved = client.post(f"{path}/preferences", data={**choice, "csrf_token": token.group(1)})
    assert saved.status_code == 200 and "preferences are updated" in saved.get_data(as_text=True)
    player = ann(engine)
    assert (player.notify, player.digest, player.time_zone) == ("turn_only", True, "Asia/Tokyo")
    assert not player.unsubscribed
    assert not player.review_games  # the review box was left unticked: reviews off

    page = client.get(path).get_data(as_text=True)
    assert 'name="review_games">' in page  # shown unticked
    again = client.post(f"{path}/preferences", data={**choice, "review_games": "on",
                                                      "csrf_token": token.group(1)})
    assert again.status_code == 200 and ann(engine).review_games
    assert 'name="review_games" checked>' in client.get(path).get_data(as_text=True)


@pytest.mark.parametrize("method", ["get", "head", "post"])
def test_forged_token_is_a_404_with_a_sentence(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask, method: str) -> None:
    first_mail_to_ann(engine, smtp_server, game, mail_settings)
    response = getattr(web.test_client(), method)("/u/not-a-real-token-AAAAAAAAAA")
    assert response.status_code == 404
    if method != "head":
        assert "This unsubscribe link is unknown or has expired" in response.get_data(
            as_text=True)
    assert not ann(engine).unsubscribed


def test_other_tokens_and_expired_tokens_do_not_unsubscribe(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    msg = first_mail_to_ann(engine, smtp_server, game, mail_settings)
    reply = re.search(r"play\+([a-z0-9]+)@", msg["Reply-To"])
    assert reply
    client = web.test_client()
    assert client.post(f"/u/{reply.group(1)}").status_code == 404  # a reply token

    path = one_click_path(msg)
    raw = path.rsplit("/", 1)[1]
    with transaction(engine) as session:
        session.execute(update(Token).where(col(Token.token_hash) == hash_token(raw))
                        .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    assert client.post(path).status_code == 404
    assert not ann(engine).unsubscribed


def test_unsubscribe_twice_is_fine(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame, web: Flask) -> None:
    path = one_click_path(first_mail_to_ann(engine, smtp_server, game, mail_settings))
    client: FlaskClient = web.test_client()
    assert client.post(path).status_code == 200
    assert client.post(path).status_code == 200
    assert "Already unsubscribed" in client.get(path).get_data(as_text=True)
    assert ann(engine).unsubscribed


def footer_lines(body: str) -> list[str]:
    """The lines after the text part's "--" separator (the part as received: CRLF lines)."""
    lines = body.splitlines()
    return lines[lines.index("--") + 1:]


def test_the_text_footer_gives_the_reason_and_the_unsubscribe_link_their_own_lines(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    """A plain-text reader sees "Unsubscribe: <link>" on a line of its own, not glued to the
    end of the sentence saying why the address gets the mail."""
    msg = first_mail_to_ann(engine, smtp_server, game, mail_settings)
    lines = footer_lines(text(msg))
    why = [line for line in lines if line.startswith("You get this because")]
    assert len(why) == 1 and why[0].endswith(".")
    unsubscribe = [line for line in lines if line.startswith("Unsubscribe: https://")]
    assert len(unsubscribe) == 1 and " " not in unsubscribe[0].removeprefix("Unsubscribe: ")
