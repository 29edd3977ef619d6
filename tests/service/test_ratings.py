"""Ratings (issue 19): a standard four-player game with at least two people who made their own
moves rates them by finishing order, once, when it ends; robot-only games, other rule sets and
seats played mostly by robots don't count (the rule: pbem.service.ratings). Rating a finished game
again, even from several threads at once, changes nothing."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, delete
from sqlmodel import col, select

from pbem.bots import choose_event
from pbem.engine import CardPlayed, CardsPassed, GameState, MoonChosen
from pbem.service import (
    Context,
    Invitee,
    choose_moon,
    create_game,
    make_rng,
    pass_cards,
    play_card,
    ratings,
    timeout_move,
)
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Deadline, RatedGame, Rating, RatingChange

ANN = Invitee("ann@example.org", "Ann", accepted=True)
BOB = Invitee("bob@example.org", "Bob", accepted=True)


@dataclass
class Clock:
    now: datetime = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def new_game(engine: Engine, players: list[Invitee], preset: str = "standard",
             seed: int = 3) -> tuple[Context, int]:
    ctx = Context(engine=engine, rng=make_rng(seed=seed), clock=Clock())
    out = create_game(ctx, name="Rated?", preset=preset, players=players,
                      bot_seats=range(len(players), 4), options={"target": 26},
                      deadline_policy={"bot_after_timeouts": 10_000}, robot_strength="easy")
    return ctx, out.game_id


def state_of(engine: Engine, game_id: int) -> GameState:
    with transaction(engine, read_only=True) as session:
        return load_state(session, game_id).state


def play_out(ctx: Context, game_id: int, timing_out: frozenset[int] = frozenset()) -> GameState:
    """Every person's move as the heuristic robot would choose it; the seats in `timing_out`
    let their deadline pass each time, so the robot moves for them."""
    for _ in range(2000):
        state = state_of(ctx.engine, game_id)
        if state.game_over:
            return state
        seat = min(state.to_move)
        if seat in timing_out:
            _time_out(ctx, game_id, seat)
            continue
        event = choose_event(state, seat)
        if isinstance(event, CardPlayed):
            play_card(ctx, game_id, seat, event.card)
        elif isinstance(event, CardsPassed):
            pass_cards(ctx, game_id, seat, event.cards)
        else:
            assert isinstance(event, MoonChosen)
            choose_moon(ctx, game_id, seat, event.down)
    raise AssertionError("the game did not end")


def _time_out(ctx: Context, game_id: int, seat: int) -> None:
    with transaction(ctx.engine, read_only=True) as session:
        row = session.exec(select(Deadline).where(
            Deadline.game_id == game_id, Deadline.seat_no == seat,
            Deadline.status == "pending")).one()
    assert isinstance(ctx.clock, Clock)
    ctx.clock.now = row.grace_until
    timeout_move(ctx, game_id, seat, row.turn_seq)


def decision(engine: Engine, game_id: int) -> RatedGame | None:
    with transaction(engine, read_only=True) as session:
        return session.get(RatedGame, game_id)


def changes(engine: Engine, game_id: int) -> list[RatingChange]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(RatingChange).where(RatingChange.game_id == game_id)
                                 .order_by(col(RatingChange.player_id))))


def test_a_standard_game_between_two_people_rates_them_by_their_order_once(
        engine: Engine) -> None:
    ctx, game_id = new_game(engine, [ANN, BOB])
    state = play_out(ctx, game_id)
    rated = decision(engine, game_id)
    assert rated is not None and rated.counted
    ann, bob = changes(engine, game_id)
    ann_ahead = state.totals[0] < state.totals[1]
    assert (ann.mu_after > ann.mu_before) == ann_ahead
    assert (bob.mu_after > bob.mu_before) == (state.totals[1] < state.totals[0])
    assert ann.sigma_after < ann.sigma_before and bob.sigma_after < bob.sigma_before
    assert ratings.rate_finished(engine, game_id) is False  # once only
    assert len(changes(engine, game_id)) == 2
    with transaction(engine, read_only=True) as session:
        assert [r.games for r in session.exec(select(Rating))] == [1, 1]
    shown = ratings.player_rating(engine, ann.player_id)
    assert shown is not None and shown.rating == ratings.shown(ann.mu_after, ann.sigma_after)


def test_a_game_against_robots_only_is_not_rated(engine: Engine) -> None:
    ctx, game_id = new_game(engine, [ANN])
    play_out(ctx, game_id)
    rated = decision(engine, game_id)
    assert rated is not None and not rated.counted and rated.reason == "too_few_people"
    assert changes(engine, game_id) == [] and ratings.leaderboard(engine) == []


def test_a_seat_whose_moves_robots_made_does_not_count(engine: Engine) -> None:
    """Bob lets every deadline pass: the robot made all his moves (more than 25%)."""
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id, timing_out=frozenset({1}))
    with transaction(engine, read_only=True) as session:
        shares = ratings.robot_shares(session, game_id)
    assert shares[1] == 1.0 and shares[0] == 0.0
    rated = decision(engine, game_id)
    assert rated is not None and not rated.counted and changes(engine, game_id) == []


def test_other_rule_sets_are_not_rated(engine: Engine) -> None:
    ctx, game_id = new_game(engine, [ANN, BOB], preset="club")
    play_out(ctx, game_id)
    rated = decision(engine, game_id)
    assert rated is not None and not rated.counted and rated.reason == "not_standard"


def test_rating_a_finished_game_from_many_threads_at_once_rates_it_once(
        engine: Engine) -> None:
    """A game that ended before ratings existed (its rows removed here) is rated by whichever
    of four racing calls comes first; the others find it rated."""
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id)
    with transaction(engine) as session:
        for table in (RatingChange, RatedGame, Rating):
            session.execute(delete(table))
    results: list[bool] = []
    barrier = threading.Barrier(4)

    def rate() -> None:
        barrier.wait()
        results.append(ratings.rate_finished(engine, game_id))

    threads = [threading.Thread(target=rate) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, False, True]
    assert len(changes(engine, game_id)) == 2
    with transaction(engine, read_only=True) as session:
        assert [r.games for r in session.exec(select(Rating))] == [1, 1]


def test_the_leaderboard_lists_display_names_and_a_player_may_leave_it(
        engine: Engine) -> None:
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id)
    board = ratings.leaderboard(engine)
    assert sorted(s.name for s in board) == ["Ann", "Bob"]
    assert board[0].rating >= board[1].rating
    ann_id = changes(engine, game_id)[0].player_id
    ratings.set_on_leaderboard(engine, ann_id, False)
    assert [s.name for s in ratings.leaderboard(engine)] == ["Bob"]
    assert ratings.player_rating(engine, ann_id) is not None  # still kept for her
