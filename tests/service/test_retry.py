"""A lost race inside a command is retried once on a fresh state, then reported."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from sqlalchemy import Engine

from pbem.engine import CardsPassed, Event
from pbem.service import Context, SomeoneMovedFirst, make_rng
from pbem.service.core import Duplicate, Loaded, run
from pbem.store.models import Event as EventRow
from tests.helpers import service_game


def sneak_in_an_event(g: Loaded) -> None:
    """What a rival writer would do: take the next seq without moving game.last_seq."""
    g.session.add(EventRow(game_id=g.game_id, seq=g.loaded.seq + 1, type="rival",
                           payload={"type": "rival"}))


@pytest.fixture
def game(engine: Engine) -> tuple[Context, int]:
    ctx = Context(engine=engine, rng=make_rng(seed=1))
    return ctx, service_game(ctx)


def test_a_lost_race_is_retried_on_a_fresh_state(game: tuple[Context, int]) -> None:
    ctx, game_id = game
    calls: list[int] = []

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        calls.append(g.loaded.seq)
        if len(calls) == 1:
            sneak_in_an_event(g)
        return [CardsPassed(0, g.state.hand(0)[:3])]

    out = run(ctx, game_id, step)
    assert calls == [2, 2]  # the rival's row was rolled back with the first attempt
    assert out.seq == 3


def test_losing_twice_is_reported_as_someone_moved_first(game: tuple[Context, int]) -> None:
    ctx, game_id = game

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        sneak_in_an_event(g)
        return [CardsPassed(0, g.state.hand(0)[:3])]

    with pytest.raises(SomeoneMovedFirst, match="someone_moved_first"):
        run(ctx, game_id, step)
