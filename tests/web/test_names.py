"""Names other players see (QA findings 1, 2, 5, 10, 16, 17): typing an address never reveals
the name of the account behind it nor publishes its local part; names with invisible format
characters or over MAX_NAME are refused in words in every form that takes one, and are
isolated (<bdi>) where pages show them; a name with no email on /new is refused, not turned
into a robot; a player who left the leaderboard has no public rating."""

from __future__ import annotations

from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.present.service_words import explain
from pbem.service import lobby, ratings
from pbem.service.names import MAX_NAME, checked_name, has_invisible
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Player
from tests.service.test_ratings import ANN, BOB, new_game, play_out
from tests.web.support import _CSRF as CSRF
from tests.web.support import csrf_of, newest, outbox
from tests.web.test_create import form_data
from tests.web.test_signin import ask as ask_signin
from tests.web.test_signin import link_of, sign_in
from tests.web.test_takeover import _ask, _confirmation_link, _open_seat_link

CAROL = "Çarol 🂡 עברית"
RLO = "\u202e"


def _player(app: Flask, email: str, name: str) -> int:
    with transaction(db_engine(app)) as session:
        player = Player(email=email, name=name)
        session.add(player)
        session.flush()
        assert player.id is not None
        return player.id


def _game_id(app: Flask) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return max(g.id or 0 for g in session.exec(select(Game)))


def _text(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return unescape(response.get_data(as_text=True))


def _mail_bodies(app: Flask) -> str:
    return "\n".join(m.body_text + (m.body_html or "") for m in outbox(app))


# --- finding 1: an address typed on /new reveals nothing ------------------------------------

def test_an_invited_seat_shows_the_typed_name_until_its_player_accepts(
        app: Flask, client: FlaskClient) -> None:
    _player(app, "carol@example.com", CAROL)
    made = client.post("/new", data=form_data(client, p2_name="Whoever",
                                              p2_email="carol@example.com"))
    assert made.status_code == 303
    game_id = _game_id(app)
    for path in (made.location, f"/games/{game_id}"):
        page = _text(client, path)
        assert "Whoever" in page and "Çarol" not in page
    assert "Çarol" not in _mail_bodies(app)  # the organiser's confirmation names nobody else
    ctx = service.Context(engine=db_engine(app))
    service.accept_invite(ctx, game_id, 0)  # Ann confirms: Carol is invited
    assert "Çarol" not in _text(client, f"/games/{game_id}")
    (invite,) = [m for m in outbox(app, "invite") if m.to_addr == "carol@example.com"]
    # She never took part here: her invitation carries nothing anyone typed (issue 38.3)
    assert "Whoever" not in invite.body_text and "Çarol" not in invite.body_text
    service.accept_invite(ctx, game_id, 1)  # she chose to join: her own name from now on
    page = _text(client, f"/games/{game_id}")
    assert CAROL in page and "Whoever" not in page


def test_a_declined_seat_keeps_the_typed_name(app: Flask, client: FlaskClient) -> None:
    _player(app, "carol@example.com", CAROL)
    client.post("/new", data=form_data(client, p2_name="", p2_email="carol@example.com"))
    game_id = _game_id(app)
    ctx = service.Context(engine=db_engine(app))
    service.accept_invite(ctx, game_id, 0)
    service.decline_invite(ctx, game_id, 1)
    page = _text(client, f"/games/{game_id}")
    assert "Player 2" in page and "Çarol" not in page
    assert "Çarol" not in "".join(m.body_text for m in outbox(app, "invite_declined"))


# --- finding 2: never an address's local part -----------------------------------------------

def test_seats_without_a_name_are_player_numbers_never_the_local_part(
        app: Flask, client: FlaskClient) -> None:
    made = client.post("/new", data=form_data(
        client, p1_name="", p1_email="jane.doe.1984@example.com", p2_name="",
        p2_email="secret.handle+tag@example.com"))
    assert made.status_code == 303
    game_id = _game_id(app)
    page = _text(client, made.location)
    assert "Player 1" in page and "Player 2" in page
    ctx = service.Context(engine=db_engine(app))
    service.accept_invite(ctx, game_id, 0)
    service.accept_invite(ctx, game_id, 1)  # both accepted: their accounts' own names
    with transaction(db_engine(app), read_only=True) as session:
        names = {p.name for p in session.exec(select(Player))}
        bodies = [m.body_text for m in session.exec(select(OutboxEmail))]
    assert all(name.startswith("Player ") for name in names), names
    for text in [_text(client, f"/games/{game_id}"), *bodies]:
        assert "jane.doe" not in text.replace("jane.doe.1984@example.com", "")
        assert "secret.handle" not in text.replace("secret.handle+tag@example.com", "")


def test_join_confirm_never_offers_the_local_part_and_checks_the_name(
        app: Flask, client: FlaskClient) -> None:
    game_id, raw = _open_seat_link(app)
    _ask(client, raw, "ivan.secret@example.org")
    link = _confirmation_link(app, "ivan.secret@example.org")
    form = client.get(link).get_data(as_text=True)
    assert "ivan.secret" not in form and 'name="name" value=""' in form
    csrf = CSRF.search(form)
    assert csrf
    for name, words in (("", "Please give your name"),
                        (f"Ivan{RLO}", "invisible formatting characters"),
                        ("I" * (MAX_NAME + 1), f"too long (at most {MAX_NAME} characters)")):
        refused = client.post(link, data={"csrf_token": csrf.group(1), "name": name})
        assert refused.status_code == 400 and words in unescape(refused.get_data(as_text=True))
    done = client.post(link, data={"csrf_token": csrf.group(1), "name": "Ivan"})
    assert done.status_code == 303
    assert "ivan.secret" not in _text(client, f"/games/{game_id}")


# --- findings 5, 16, 17: what a name may be, form by form -----------------------------------

def test_checked_name_refuses_invisible_format_characters_and_long_names() -> None:
    for bad in ("Mallory\u202e", "a\u2066b\u2069", "\u200fDan", "x\u00ady", "\ufeffBo"):
        assert has_invisible(bad)
        try:
            checked_name(bad)
        except service.BadRequest as exc:
            assert "invisible formatting characters" in explain(exc)
        else:
            raise AssertionError(bad)
    assert checked_name("  Çarol 🂡  עברית ") == "Çarol 🂡 עברית"
    assert checked_name("می\u200cخواهم 👨\u200d👩") == "می\u200cخواهم 👨\u200d👩"  # ZWNJ, ZWJ
    assert checked_name("x" * MAX_NAME) == "x" * MAX_NAME
    try:
        checked_name("x" * (MAX_NAME + 1))
    except service.BadRequest as exc:
        assert f"at most {MAX_NAME} characters" in explain(exc)
    else:
        raise AssertionError("too long")


def test_new_refuses_bad_names_in_words_keeping_the_other_values(
        app: Flask, client: FlaskClient) -> None:
    cases = [
        ({"p2_name": f"Mallory{RLO}"}, "Seat 2: the name contains invisible formatting "
         "characters"),
        ({"p1_name": "A" * (MAX_NAME + 1)}, f"Seat 1: the name is too long (at most "
         f"{MAX_NAME} characters)."),
        ({"name": f"Game{RLO}"}, "The game's name contains invisible formatting characters"),
        ({"p3_name": "Zed"}, "Seat 3 has a name but no email: add their email, or clear the "
         "name for a computer player."),
        ({"p3_name": "Zed", "p3_computer": "on"}, "Seat 3 is a computer player with a name"),
        ({"p4_name": "Zed", "p4_open": "on"}, "Seat 4 is an open seat with a name"),
    ]
    for changes, words in cases:
        response = client.post("/new", data=form_data(client, target="77", **changes))
        html = unescape(response.get_data(as_text=True))
        assert response.status_code == 422 and words in html, (changes, words)
        assert 'value="bob@example.com"' in html and 'value="77"' in html
    assert not outbox(app)


def test_seats_start_alike_and_an_empty_seat_is_a_computer(app: Flask,
                                                           client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    assert "_computer\" checked" not in html  # seat 2 as seats 3 and 4: nothing ticked
    assert f'maxlength="{MAX_NAME}"' in html
    made = client.post("/new", data=form_data(client, p3_open="on"))  # no unticking needed
    assert made.status_code == 303
    page = _text(client, made.location)
    assert "Robot 4" in page


def test_the_signin_name_is_checked_and_an_old_long_name_may_stay(
        app: Flask, client: FlaskClient) -> None:
    old = "L" * 150  # stored before names were capped
    player_id = _player(app, "long@example.org", old)
    ask_signin(client, "long@example.org")
    link = link_of(newest(app, "signin"))
    page = client.get(link).get_data(as_text=True)
    for typed, words in ((f"Eve{RLO}", "invisible formatting characters"),
                         ("E" * (MAX_NAME + 1), f"at most {MAX_NAME} characters")):
        refused = client.post(link, data={"csrf_token": csrf_of(page), "name": typed})
        assert refused.status_code == 422 and words in unescape(refused.get_data(as_text=True))
    kept = client.post(link, data={"csrf_token": csrf_of(page), "name": old})
    assert kept.status_code == 303
    with transaction(db_engine(app), read_only=True) as session:
        player = session.get(Player, player_id)
        assert player is not None and player.name == old


def test_names_are_isolated_from_the_text_around_them(app: Flask, client: FlaskClient) -> None:
    game_id = service.create_game(
        service.Context(engine=db_engine(app), rng=service.make_rng(3)), name="Iso",
        players=[service.Invitee("carol@example.com", CAROL, accepted=True)],
        bot_seats=(1, 2, 3), robot_strength="easy").game_id
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"<bdi>{CAROL}</bdi>" in html
    assert f"{CAROL} " not in html.replace(f"<bdi>{CAROL}</bdi>", "")


# --- finding 10: a rating off the leaderboard is shown to its player only ---------------------

def test_a_player_off_the_leaderboard_has_no_public_rating(app: Flask,
                                                           client: FlaskClient) -> None:
    engine = db_engine(app)
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id)
    with transaction(engine, read_only=True) as session:
        bob_id = session.exec(select(Player.id).where(Player.email == BOB.email)).one()
    assert bob_id is not None
    rating = ratings.player_rating(engine, bob_id)
    assert rating is not None
    ratings.set_on_leaderboard(engine, bob_id, False)
    summary = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    table = summary.split('id="rating-changes"')[1].split("</table>")[0]
    assert "<bdi>Ann</bdi>" in table and "<bdi>Bob</bdi>" not in table
    lobby.quick_play(service.Context(engine=engine), bob_id, "standard", 24, 60)
    assert f"<bdi>Bob</bdi> ({rating.rating})" not in _text(client, "/lobby")
    assert "<bdi>Bob</bdi>" in _text(client, "/lobby")
    sign_in(app, client, BOB.email)
    assert f"<bdi>Bob</bdi> ({rating.rating})" in _text(client, "/lobby")  # to Bob himself
    ratings.set_on_leaderboard(engine, bob_id, True)
    assert f"<bdi>Bob</bdi> ({rating.rating})" in _text(app.test_client(), "/lobby")
