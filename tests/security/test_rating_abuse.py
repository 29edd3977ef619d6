"""Issue 38.1 and 38.2, played through the private seat pages only: ratings can't be pumped
without playing (two accounts ending their games by agreement before a card), nor by two
people meeting only each other again and again; leaving a losing game counts as finishing
last, and the other person's game still counts. The rule is on the leaderboard page."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.present.service_words import rating_reason
from pbem.service import ratings
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, RatedGame, Rating, RatingChange
from tests.web.support import csrf_of, seat_path, state

ANN, BOB = "ann@example.org", "bob@example.org"


def new_game(app: Flask, target: int, seed: int = 5) -> int:
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(seed))
        players = [service.Invitee(ANN, "Ann", accepted=True),
                   service.Invitee(BOB, "Bob", accepted=True)]
        return service.create_game(ctx, name="Rated?", players=players, bot_seats=(2, 3),
                                   options={"target": target}, robot_strength="easy").game_id


def page_of(app: Flask, game_id: int, address: str) -> str:
    """The player's private page, from the newest email of the game that links it."""
    with transaction(db_engine(app), read_only=True) as db:
        mails = db.exec(select(OutboxEmail).where(
            OutboxEmail.game_id == game_id, OutboxEmail.to_addr == address)
            .order_by(col(OutboxEmail.id).desc())).all()
    return seat_path(next(m.body_text for m in mails if "/s/" in m.body_text))


def act(client: FlaskClient, path: str) -> bool:
    """Make the seat's move on its page, as a person pressing the first button would."""
    html = client.get(path).get_data(as_text=True)
    turn = re.search(r'name="turn" value="(\d+)"', html)
    data = {"csrf_token": csrf_of(html), "turn": turn.group(1) if turn else ""}
    cards = re.findall(r'name="cards" value="(\w+)"', html)
    card = re.search(r'name="card" value="(\w+)"', html)
    choice = re.search(r'name="choice" value="(\w+)"', html)
    if cards:
        answer = client.post(f"{path}/pass", data={**data, "cards": cards[:3]})
    elif card:
        answer = client.post(f"{path}/play", data={**data, "card": card.group(1)})
    elif choice:
        answer = client.post(f"{path}/moon", data={**data, "choice": choice.group(1)})
    else:
        return False
    assert answer.status_code == 303, answer.get_data(as_text=True)[-500:]
    return True


def play(app: Flask, client: FlaskClient, game_id: int, paths: list[str],
         until_hand: int | None = None) -> None:
    """The people's moves on their pages until the game ends (or hand `until_hand` starts)."""
    for _ in range(3000):
        now = state(app, game_id)
        if now.game_over or (until_hand is not None and now.hand_number >= until_hand):
            return
        assert any(act(client, path) for path in paths)
    raise AssertionError("the game did not end")


def decision(app: Flask, game_id: int) -> RatedGame:
    with transaction(db_engine(app), read_only=True) as db:
        found = db.get(RatedGame, game_id)
    assert found is not None
    return found


def ratings_now(app: Flask) -> dict[int, tuple[float, int]]:
    with transaction(db_engine(app), read_only=True) as db:
        return {r.player_id: (r.mu, r.games) for r in db.exec(select(Rating))}


def test_ending_by_agreement_before_real_play_rates_nobody(app: Flask, client: FlaskClient
                                                          ) -> None:
    for seed in range(3):  # the attack: three games ended at once, by both accounts
        game = new_game(app, target=26, seed=seed)
        for address in (ANN, BOB):
            path = page_of(app, game, address)
            html = client.get(path).get_data(as_text=True)
            client.post(f"{path}/end", data={"csrf_token": csrf_of(html), "vote": "end"})
        assert state(app, game).ended_by_agreement
        rated = decision(app, game)
        assert not rated.counted and "No whole hand" in rating_reason(rated.reason)
    assert ratings_now(app) == {}
    board = unescape(client.get("/leaderboard").get_data(as_text=True))
    assert "Nobody is rated yet" in board and "at least one whole hand was played" in board


def test_leaving_a_losing_game_counts_as_finishing_last(app: Flask, client: FlaskClient
                                                        ) -> None:
    game = new_game(app, target=60)
    paths = [page_of(app, game, a) for a in (ANN, BOB)]
    play(app, client, game, paths, until_hand=2)  # one whole hand, by both
    totals = state(app, game).totals
    loser = 0 if totals[0] >= totals[1] else 1
    leave = f"{paths[loser]}/leave"
    html = client.get(leave).get_data(as_text=True)
    assert client.post(leave, data={"csrf_token": csrf_of(html)}).status_code == 303
    play(app, client, game, [paths[1 - loser]])  # the other plays on to the end
    rated = decision(app, game)
    assert rated.counted, rated.reason
    with transaction(db_engine(app), read_only=True) as db:
        moved = {c.player_id: c.mu_after - c.mu_before
                 for c in db.exec(select(RatingChange).where(RatingChange.game_id == game))}
    leaver, stayer = (1, 2) if loser == 0 else (2, 1)  # player ids: Ann 1, Bob 2
    assert moved[leaver] < 0 < moved[stayer]
    board = unescape(client.get("/leaderboard").get_data(as_text=True))
    assert "Leaving a game counts as finishing it last" in board
    assert board.index(("Ann", "Bob")[stayer - 1]) < board.index(("Ann", "Bob")[leaver - 1])


def test_two_people_meeting_only_each_other_stop_counting(app: Flask, client: FlaskClient
                                                          ) -> None:
    """One-hand games (target 1), really played, between the same two people: the first
    MAX_TOGETHER count, the next doesn't."""
    counted = []
    for seed in range(ratings.MAX_TOGETHER + 1):
        game = new_game(app, target=1, seed=seed)
        play(app, client, game, [page_of(app, game, a) for a in (ANN, BOB)])
        counted.append(decision(app, game).counted)
    assert counted == [True] * ratings.MAX_TOGETHER + [False]
    assert "already rated together" in rating_reason(decision(app, game).reason)
    assert {games for _mu, games in ratings_now(app).values()} == {ratings.MAX_TOGETHER}
