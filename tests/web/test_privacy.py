"""Privacy (issue 19): public pages show display names, never addresses; deleting an account
removes the player's addresses and name from every later page and email, robots take their
seats in games still going, and finished games keep a neutral seat name."""

from __future__ import annotations

from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.service import lobby
from pbem.service.accounts import FORMER_PLAYER, request_signin
from pbem.service.rematch import ask_rematch
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Player, PlayerAddress, Seat
from tests.service.test_ratings import ANN, BOB, new_game, play_out
from tests.web.support import csrf_of, outbox, seat_path
from tests.web.test_signin import sign_in


def public_pages(client: FlaskClient, game_ids: list[int]) -> str:
    paths = ["/", "/lobby", "/leaderboard", "/signin"]
    for game_id in game_ids:
        paths += [f"/games/{game_id}", f"/games/{game_id}/summary", f"/games/{game_id}/created"]
    return "\n".join(unescape(client.get(p, follow_redirects=True).get_data(as_text=True))
                     for p in paths)


def test_public_pages_show_display_names_never_addresses(app: Flask,
                                                         client: FlaskClient) -> None:
    ctx, finished = new_game(db_engine(app), [ANN, BOB])
    play_out(ctx, finished)
    with transaction(db_engine(app), read_only=True) as session:
        ann = session.exec(select(Player).where(Player.email == "ann@example.org")).one()
    table = lobby.open_table(ctx, ann.id or 0, name="Open", preset="standard")
    pages = public_pages(client, [finished, table])
    assert "Ann" in pages and "Bob" in pages
    assert "@example.org" not in pages


def test_deleting_an_account_leaves_a_former_player_and_no_address(
        app: Flask, client: FlaskClient) -> None:
    engine = db_engine(app)
    ctx, finished = new_game(engine, [ANN, BOB])
    play_out(ctx, finished)
    with app.app_context():  # its emails carry private links (signed with the app's key)
        _, going = new_game(engine, [ANN, BOB], seed=11)
    with transaction(engine) as session:
        ann = session.exec(select(Player).where(Player.email == "ann@example.org")).one()
        session.add(PlayerAddress(player_id=ann.id or 0, email="ann@work.example"))
    with transaction(engine, read_only=True) as session:
        pass_mail = session.exec(select(OutboxEmail).where(
            OutboxEmail.game_id == going, OutboxEmail.kind == "pass",
            OutboxEmail.to_addr == "ann@example.org")).one()
    old_link = seat_path(pass_mail.body_text)
    assert client.get(old_link).status_code == 200
    sign_in(app, client, "ann@example.org")
    page = client.get("/me/delete").get_data(as_text=True)
    assert "Delete my account?" in page
    unsure = client.post("/me/delete", data={"csrf_token": csrf_of(page)})
    assert unsure.status_code == 422 and client.get("/me").status_code == 200
    done = client.post("/me/delete", data={"csrf_token": csrf_of(page), "sure": "yes"})
    assert done.status_code == 200 and "Your account is deleted" in done.get_data(as_text=True)
    assert client.get("/me").status_code == 303  # signed out
    with transaction(engine, read_only=True) as session:
        former = session.get(Player, ann.id)
        assert former is not None and former.name == FORMER_PLAYER
        assert "example" not in former.email and former.unsubscribed
        assert session.exec(select(PlayerAddress)).all() == []
        going_seat = session.exec(select(Seat).where(Seat.game_id == going,
                                                     Seat.player_id == ann.id)).one()
        assert going_seat.is_bot
        addresses = {m.to_addr for m in session.exec(select(OutboxEmail))}
        assert not {"ann@example.org", "ann@work.example"} & addresses
        (left,) = session.exec(select(OutboxEmail).where(OutboxEmail.kind == "player_left"))
        assert left.to_addr == "bob@example.org"  # Bob is told, without Ann's name
        assert f"{FORMER_PLAYER} left" in left.body_text and "Ann" not in left.body_text
    pages = public_pages(client, [finished, going])
    assert FORMER_PLAYER in pages and "Ann" not in pages and "ann@" not in pages
    request_signin(service.Context(engine=engine), "ann@example.org")
    fresh = outbox(app, "signin")[-1]  # the address is nobody's now: a new, empty account
    assert fresh.to_addr == "ann@example.org" and fresh.player_id != ann.id
    assert client.get(old_link).status_code == 404
    # Bob's rematch of the finished game: a robot takes the former player's seat.
    with transaction(engine, read_only=True) as session:
        bob = session.exec(select(Player).where(Player.email == "bob@example.org")).one()
    rematch = ask_rematch(service.Context(engine=engine), finished, bob.id or 0)
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, rematch)
        seats = session.exec(select(Seat).where(Seat.game_id == rematch)).all()
    assert game is not None and game.status == "active"
    assert ann.id not in {s.player_id for s in seats}
