"""The robots' strength is chosen when a game is made, stored on the game, and both the robot
seats and the timeouts play at it (on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.bots import choose_event, robot_event
from pbem.engine import Event, GameCreated, HandDealt, replay
from pbem.service import BadRequest, Context, Invitee, create_game, make_rng, timeout_move
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import Deadline, Game

ANN = Invitee("ann@example.org", "Ann", accepted=True)
ROBOTS = (1, 2, 3)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def new_game(engine: Engine, **strength: str) -> tuple[Context, int]:
    ctx = Context(engine=engine, rng=make_rng(seed=4), clock=Clock())
    out = create_game(ctx, name="Strength", players=[ANN], bot_seats=ROBOTS, **strength)
    return ctx, out.game_id


def events_of(ctx: Context, game_id: int) -> list[Event]:
    with transaction(ctx.engine, read_only=True) as s:
        return list(load_events(s, game_id))


def robot_moves_match(events: list[Event], game_id: int, strength: str, seats: set[int]) -> int:
    """Replay the log; each move of `seats` must be the robot's choice at `strength` from the
    state before it. The number of moves checked."""
    checked = 0
    for k, event in enumerate(events):
        seat = getattr(event, "seat", None)
        if seat in seats and not isinstance(event, (GameCreated, HandDealt)):
            state = replay(events[:k])
            expected = choose_event(state, seat) if strength == "easy" \
                else robot_event(state, seat, "strong", game_id)
            assert event == expected, f"move {k} of seat {seat} is not the {strength} robot's"
            checked += 1
    return checked


def test_a_new_game_has_strong_robots_unless_easy_is_chosen(engine: Engine) -> None:
    _, strong = new_game(engine)
    _, easy = new_game(engine, robot_strength="easy")
    with transaction(engine, read_only=True) as s:
        assert s.get(Game, strong).robot_strength == "strong"  # type: ignore[union-attr]
        assert s.get(Game, easy).robot_strength == "easy"  # type: ignore[union-attr]
    with pytest.raises(BadRequest, match="robot_strength"):
        new_game(engine, robot_strength="grandmaster")


@pytest.mark.parametrize("strength", ["strong", "easy"])
def test_robot_seats_play_at_the_games_strength(engine: Engine, strength: str) -> None:
    ctx, game_id = new_game(engine, robot_strength=strength)
    assert robot_moves_match(events_of(ctx, game_id), game_id, strength, set(ROBOTS)) == 3


@pytest.mark.parametrize("strength", ["strong", "easy"])
def test_a_timeout_is_played_at_the_games_strength(engine: Engine, strength: str) -> None:
    ctx, game_id = new_game(engine, robot_strength=strength)
    with transaction(engine, read_only=True) as s:
        (row,) = s.exec(select(Deadline).where(Deadline.game_id == game_id,
                                               Deadline.status == "pending")).all()
    ctx.clock.now = row.grace_until  # type: ignore[attr-defined]
    assert not timeout_move(ctx, game_id, 0, row.turn_seq).duplicate
    events = events_of(ctx, game_id)
    assert robot_moves_match(events, game_id, strength, {0}) == 1  # Ann's pass, by the robot
