"""The review of a finished game, end to end on SQLite and PostgreSQL: a game played to the end
through the service → the worker's review job → reviewed decisions stored → the summary page
shows each player's largest mistakes → the review email; a player who turned the review off
has none of their decisions weighed, stored, shown or mailed (issue 18)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.app import db_engine
from pbem.bots import choose_event
from pbem.engine import BidMade, CardPlayed, CardsPassed, Event, MoonChosen, SuitNamed
from pbem.scheduler.worker import build_scheduler, review_finished_games
from pbem.service import (
    Context,
    Invitee,
    bid,
    choose_moon,
    create_game,
    make_rng,
    name_suit,
    pass_cards,
    play_card,
)
from pbem.service.reviews import stored_review
from pbem.store.claims import REVIEW, claim
from pbem.store.db import transaction
from pbem.store.events import load_events_by, load_state
from pbem.store.models import GameReview, OutboxEmail, Player, ReviewedDecision

PLAYERS = [Invitee("ann@example.org", "Ann", accepted=True),
           Invitee("bob@example.org", "Bob", accepted=True)]
LINE = re.compile(r"(Trick \d+|The pass|The bidding|The suit to avoid): .+(:| cost) about "
                  r"[\d.]+ (points?|chips?) \([\d.]+ to [\d.]+, (\d+) samples\); .+ was "
                  r"better\.")


def send(ctx: Context, game_id: int, seat: int, event: Event) -> None:
    """The service command the player in `seat` would send for `event`."""
    if isinstance(event, CardPlayed):
        play_card(ctx, game_id, seat, event.card)
    elif isinstance(event, CardsPassed):
        pass_cards(ctx, game_id, seat, event.cards)
    elif isinstance(event, BidMade):
        bid(ctx, game_id, seat, event.chips)
    elif isinstance(event, SuitNamed):
        name_suit(ctx, game_id, seat, event.suit)
    else:
        assert isinstance(event, MoonChosen)
        choose_moon(ctx, game_id, seat, event.down)


def play_a_game(engine: Engine, bob_reviews: bool = True) -> int:
    """Ann and Bob (seats 0 and 1) against two robots, a short game played to its end."""
    with transaction(engine) as session:
        session.add(Player(email="bob@example.org", name="Bob", review_games=bob_reviews))
    ctx = Context(engine=engine, rng=make_rng(seed=4))
    game_id = create_game(ctx, name="Reviewed", players=PLAYERS, bot_seats=(2, 3),
                          options={"target": 30}, robot_strength="easy").game_id
    for _ in range(500):
        with transaction(engine, read_only=True) as session:
            state = load_state(session, game_id).state
        if state.game_over:
            return game_id
        seat = state.to_move[0]
        send(ctx, game_id, seat, choose_event(state, seat))
    raise AssertionError("the game did not end")


def stored(engine: Engine, game_id: int) -> list[ReviewedDecision]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(ReviewedDecision).where(
            ReviewedDecision.game_id == game_id).order_by(col(ReviewedDecision.id))))


def review_mail(engine: Engine, address: str) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).where(
            OutboxEmail.kind == "review", OutboxEmail.to_addr == address)))


def test_a_finished_game_is_reviewed_by_the_worker_and_shown_on_its_summary(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    game_id = play_a_game(engine, bob_reviews=False)
    client = app.test_client()
    waiting = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "being worked out" in waiting and "Largest mistakes" not in waiting

    assert review_finished_games(app) == [game_id]
    assert review_finished_games(app) == []  # a game is reviewed once

    rows = stored(engine, game_id)
    with transaction(engine, read_only=True) as session:
        mark = session.get(GameReview, game_id)
        by = load_events_by(session, game_id)
    assert mark is not None and mark.status == "done" and mark.decisions == len(rows)
    assert rows and {r.seat_no for r in rows} == {0}  # Bob turned it off; robots are not weighed
    own = sum(1 for event, actor in by if actor == "player" and getattr(event, "seat", -1) == 0)
    assert len(rows) <= own  # only Ann's own decisions (forced cards are no decision)
    assert all(r.samples >= 1 and r.cost >= 0 for r in rows)
    assert any(r.cost == 0 for r in rows)
    with transaction(engine, read_only=True) as session:
        review = stored_review(session, game_id)
    assert review is not None
    mistakes = [v for v in review.verdicts if v.shown]
    assert all(v.low >= 0.5 and v.worlds >= 32 for v in mistakes)  # checked on fresh worlds

    page = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "being worked out" not in page and "No review for Bob (turned off)" in page
    assert bool(mistakes) == ("Largest mistakes" in page)
    shown = LINE.findall(page)
    assert len(shown) >= min(1, len(mistakes)) and len(shown) <= len(mistakes)
    if mistakes:
        worst = max(mistakes, key=lambda v: v.cost)
        assert f"{worst.chosen} " in page and f", {worst.worlds} samples)" in page

    (mail,) = review_mail(engine, "ann@example.org") if mistakes else ([None])
    assert review_mail(engine, "bob@example.org") == []
    if mail is not None:
        lines = [line for line in mail.body_text.splitlines() if LINE.search(line)]
        hands = {v.hand_number for v in mistakes}
        assert len(hands) <= len(lines) <= 2 * len(hands)  # the one or two largest a hand
        assert f"/games/{game_id}/summary" in mail.body_text


def test_turning_the_review_off_later_hides_the_stored_verdicts(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    game_id = play_a_game(engine)
    assert review_finished_games(app) == [game_id]
    assert {r.seat_no for r in stored(engine, game_id)} == {0, 1}
    with transaction(engine) as session:
        bob = session.exec(select(Player).where(Player.email == "bob@example.org")).one()
        bob.review_games = False
        session.add(bob)
    page = app.test_client().get(f"/games/{game_id}/summary").get_data(as_text=True)
    assert "No review for Bob (turned off)" in page
    assert "<li>Bob:" not in page


def test_a_game_claimed_by_another_worker_is_left_to_it(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    game_id = play_a_game(db_engine(app))
    holder = threading.Thread  # another thread of the process stands for another worker
    claimed, release = threading.Event(), threading.Event()

    def hold() -> None:
        with claim(db_engine(app), REVIEW, game_id) as mine:
            assert mine
            claimed.set()
            release.wait(10)

    other = holder(target=hold)
    other.start()
    claimed.wait(10)
    try:
        assert review_finished_games(app) == []  # claimed elsewhere: skipped
        assert stored(db_engine(app), game_id) == []
    finally:
        release.set()
        other.join()
    assert review_finished_games(app) == [game_id]


def test_the_worker_schedules_the_review_job(make_app: Callable[..., Flask]) -> None:
    from apscheduler.schedulers.background import BackgroundScheduler

    job = build_scheduler(make_app(), BackgroundScheduler(timezone="UTC")).get_job(
        "review_finished_games")
    assert job is not None and job.max_instances == 1
