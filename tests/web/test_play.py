"""The play pages: a link's GET only shows, its POST acts once; stale, forged and CSRF-less
requests change nothing."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

from pbem import service
from pbem.app import db_engine
from pbem.engine import Card, CardPlayed, legal_cards
from pbem.present.tokens import find_token
from pbem.service import Invitee
from pbem.store.db import transaction
from pbem.web.play import claim_link, release_link
from tests.web.conftest import Turn
from tests.web.support import (
    card_links,
    csrf_of,
    events,
    links,
    newest,
    outbox,
    post_link,
    snapshot,
    start_game,
    state,
)


def test_get_and_head_of_a_card_link_change_nothing(app: Flask, client: FlaskClient,
                                                    turn: Turn) -> None:
    code, path = next(iter(turn.cards.items()))
    before = snapshot(app, turn.game_id)
    page = client.get(path)
    client.head(path)
    client.get(path)
    assert snapshot(app, turn.game_id) == before
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f"Play {code}" in html
    assert 'class="card' in html and " chosen" in html  # the chosen card is highlighted
    assert "Your hand" in html and "This trick" in html


def test_confirmation_shows_the_hand_and_the_trick_so_far(app: Flask, client: FlaskClient,
                                                          turn: Turn) -> None:
    code, path = next(iter(turn.cards.items()))
    html = client.get(path).get_data(as_text=True)
    seen = state(app, turn.game_id)
    for card in seen.hand(0):
        assert f'aria-label="{card}' in html
    for _seat, card in seen.current_trick.plays:
        assert f'aria-label="{card}"' in html


def test_post_plays_the_card_once(app: Flask, client: FlaskClient, turn: Turn) -> None:
    code, path = next(iter(turn.cards.items()))
    played = client.get(path)
    response = client.post(path, data={"csrf_token": csrf_of(played.get_data(as_text=True))})
    assert response.status_code == 200
    assert "you played" in response.get_data(as_text=True).lower()
    mine = [e for e in events(app, turn.game_id) if e == CardPlayed(0, _card(code))]
    assert len(mine) == 1


def test_second_post_says_already_played(app: Flask, client: FlaskClient, turn: Turn) -> None:
    _code, path = next(iter(turn.cards.items()))
    page = client.get(path).get_data(as_text=True)
    client.post(path, data={"csrf_token": csrf_of(page)})
    before = snapshot(app, turn.game_id)
    again = client.post(path, data={"csrf_token": csrf_of(page)})
    assert again.status_code == 200
    assert "already played" in again.get_data(as_text=True)
    assert snapshot(app, turn.game_id) == before
    assert "already played" in client.get(path).get_data(as_text=True)


def test_other_card_of_the_same_turn_is_stale_after_a_play(app: Flask, client: FlaskClient,
                                                           choice: Turn) -> None:
    turn = choice
    (_a, first), (b, second) = list(turn.cards.items())[:2]
    page_b = client.get(second).get_data(as_text=True)
    post_link(client, first)
    before = snapshot(app, turn.game_id)
    late = client.post(second, data={"csrf_token": csrf_of(page_b)})
    assert late.status_code == 409
    html = late.get_data(as_text=True)
    assert "out of date" in html and "Points" in html  # the game as it is now
    assert snapshot(app, turn.game_id) == before
    assert CardPlayed(0, _card(b)) not in events(app, turn.game_id)
    assert "out of date" in client.get(second).get_data(as_text=True)


def test_stale_link_from_an_older_turn_shows_what_to_do_now(app: Flask, client: FlaskClient,
                                                            choice: Turn) -> None:
    turn = choice
    old = list(turn.cards.values())
    post_link(client, old[0])
    assert state(app, turn.game_id).to_move == (0,)  # robots moved; the human again
    html = client.get(old[1]).get_data(as_text=True)
    assert "out of date" in html
    assert "It's your turn" in html and "newest email" in html


def test_forged_token_is_a_clear_404(app: Flask, client: FlaskClient, turn: Turn) -> None:
    before = snapshot(app, turn.game_id)
    for path in ("/t/not-a-real-token", "/p/not-a-real-token", "/t/" + "A" * 24):
        page = client.get(path)
        assert page.status_code == 404
        assert "Link not found" in page.get_data(as_text=True)
    _code, real = next(iter(turn.cards.items()))
    csrf = csrf_of(client.get(real).get_data(as_text=True))
    assert client.post("/t/forged", data={"csrf_token": csrf}).status_code == 404
    assert snapshot(app, turn.game_id) == before


def test_post_without_csrf_token_is_refused(app: Flask, client: FlaskClient, turn: Turn) -> None:
    _code, path = next(iter(turn.cards.items()))
    client.get(path)
    before = snapshot(app, turn.game_id)
    for data in ({}, {"csrf_token": "forged"}):
        response = client.post(path, data=data)
        assert response.status_code == 400
        assert "security check failed" in response.get_data(as_text=True)
    assert snapshot(app, turn.game_id) == before


def test_a_fresh_client_needs_its_own_csrf_token(app: Flask, turn: Turn) -> None:
    _code, path = next(iter(turn.cards.items()))
    token = csrf_of(app.test_client().get(path).get_data(as_text=True))
    other = app.test_client()  # another browser: no session cookie
    assert other.post(path, data={"csrf_token": token}).status_code == 400


def test_the_next_turn_email_follows_a_play(app: Flask, client: FlaskClient, turn: Turn) -> None:
    first_turn = newest(app, "turn").id
    post_link(client, next(iter(turn.cards.values())))
    latest = newest(app, "turn")
    assert latest.id != first_turn
    assert card_links(latest.body_text)


def test_game_page_tells_everyone_when_a_players_email_bounces(
        app: Flask, client: FlaskClient, turn: Turn) -> None:
    from pbem.store.models import Player

    assert "emails to them bounce" not in client.get(f"/g/{turn.game_id}").get_data(as_text=True)
    with transaction(db_engine(app)) as session:
        for player in session.exec(select(Player)):
            player.email_status = "failing"
    html = client.get(f"/g/{turn.game_id}").get_data(as_text=True)
    assert "our emails to them bounce: they may not know it is their move" in html


def test_game_page_shows_seats_and_scores_but_no_hand(app: Flask, client: FlaskClient,
                                                      turn: Turn) -> None:
    before = snapshot(app, turn.game_id)
    for path in (f"/g/{turn.game_id}", f"/games/{turn.game_id}"):
        page = client.get(path)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert "Robot 2" in html and "You" in html and "Points" in html
    on_table = {str(c) for _s, c in state(app, turn.game_id).current_trick.plays}
    for card in state(app, turn.game_id).hand(0):
        if str(card) not in on_table:
            assert f'aria-label="{card}"' not in html
    assert snapshot(app, turn.game_id) == before
    assert client.get("/g/999").status_code == 404


def test_player_text_is_escaped(app: Flask, client: FlaskClient) -> None:
    evil = "<script>alert(1)</script>"
    game_id = start_game(app, name=f"Game {evil}",
                         human=Invitee("x@example.com", f"Eve {evil}", accepted=True))
    pages = [client.get(f"/g/{game_id}").get_data(as_text=True)]
    pages.append(client.get(links(newest(app, "pass").body_text)[0]).get_data(as_text=True))
    for html in pages:
        assert evil not in html
        assert "&lt;script&gt;" in html


def test_index_page_points_to_the_caught_mail(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert 'href="/mail"' in html


def test_no_outbox_rows_from_rendering_pages(app: Flask, client: FlaskClient, turn: Turn) -> None:
    rows = len(outbox(app))
    for path in turn.cards.values():
        client.get(path)
    client.get(f"/g/{turn.game_id}")
    assert len(outbox(app)) == rows


def _card(code: str) -> Card:
    return Card.parse(code)


def test_two_cards_of_one_turn_posted_at_once_play_only_one(app: Flask, choice: Turn) -> None:
    """Two tabs, two different cards, pressed together: one is played, the other is refused."""
    paths = list(choice.cards.values())[:2]
    clients = [app.test_client() for _ in paths]
    forms = [{"csrf_token": csrf_of(c.get(p).get_data(as_text=True))}
             for c, p in zip(clients, paths, strict=True)]
    seq_before = count_events_of_seat(app, choice.game_id)
    barrier = threading.Barrier(len(paths))
    pages: list[tuple[int, str]] = []

    def press(i: int) -> None:
        barrier.wait()
        response = clients[i].post(paths[i], data=forms[i])
        pages.append((response.status_code, response.get_data(as_text=True)))

    threads = [threading.Thread(target=press, args=(i,)) for i in range(len(paths))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    won, lost = sorted(pages)  # 200 before 409
    assert won[0] == 200 and "you played" in won[1].lower()
    assert lost[0] == 409 and "out of date" in lost[1]
    assert count_events_of_seat(app, choice.game_id) == seq_before + 1


def count_events_of_seat(app: Flask, game_id: int, seat: int = 0) -> int:
    return sum(1 for e in events(app, game_id) if isinstance(e, CardPlayed) and e.seat == seat)



def test_one_claim_per_seat_and_turn_and_release_gives_it_back(app: Flask, choice: Turn) -> None:
    with transaction(db_engine(app), read_only=True) as session:
        a, b = (find_token(session, p.removeprefix("/t/")) for p in list(choice.cards.values())[:2])
    assert a is not None and b is not None and a.id and b.id
    engine = db_engine(app)
    assert claim_link(engine, a.id)
    assert not claim_link(engine, b.id)  # the other card of the same turn
    assert not claim_link(engine, a.id)  # the same link twice
    release_link(engine, a.id)
    assert claim_link(engine, b.id)


def test_a_system_failure_leaves_the_link_usable(app: Flask, client: FlaskClient, turn: Turn,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, path = next(iter(turn.cards.items()))
    csrf = csrf_of(client.get(path).get_data(as_text=True))

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(service, "move", broken)
    with pytest.raises(RuntimeError):
        client.post(path, data={"csrf_token": csrf})
    monkeypatch.undo()
    response = client.post(path, data={"csrf_token": csrf})
    assert "you played" in response.get_data(as_text=True).lower()


def test_an_old_link_to_a_card_played_by_reply_says_so_without_claiming_the_link(
        app: Flask, client: FlaskClient, turn: Turn) -> None:
    """Issue 14's small fault: the link said "you already played A♣ with this link" when the
    card was played by reply."""
    import re

    from pbem.mail.compose import MailSettings
    from pbem.mailin.process import Inbox, deliver
    from tests.mailin.support import reply

    code, path = next(iter(turn.cards.items()))
    email = newest(app, "turn")
    token = re.search(r"play\+([a-z0-9]+)@", email.headers["Reply-To"], re.IGNORECASE)
    assert token is not None
    inbox = Inbox(db_engine(app), MailSettings.from_config(app.config), app)
    with app.app_context():
        deliver(inbox, reply(token.group(1), code, sender="You <you@example.com>",
                             to=email.headers["Reply-To"]))
    assert [e for e in events(app, turn.game_id) if e == CardPlayed(0, _card(code))]
    html = client.get(path).get_data(as_text=True)
    assert "already played" in html and "with this link" not in html


def test_a_link_whose_turn_went_to_another_card_stays_stale_once_its_card_is_played_later(
        app: Flask, client: FlaskClient, choice: Turn) -> None:
    """The link's status is the move command's answer: the turn it was sent for ended with
    another card, so it is out of date (its POST is refused as stale), even once its own card
    is played at a later turn of the hand."""
    first, *others = list(choice.cards.items())
    post_link(client, first[1])
    now = state(app, choice.game_id)
    assert now.to_move == (0,)
    later = [(code, path) for code, path in others if _card(code) in legal_cards(now, 0)]
    assert later, "seed 7 gives the human a second of those cards to play now"
    code, path = later[0]
    with app.app_context():
        service.play_card(service.Context(engine=db_engine(app)), choice.game_id, 0, code)
    html = client.get(path).get_data(as_text=True)
    assert "out of date" in html and "already played" not in html
