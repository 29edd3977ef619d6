"""Snapshots are a cache: one of an older form (version 1, before the per-seat turn numbers)
is ignored and the game replayed from its events, giving the same state; on SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from pbem.engine import replay, snapshot
from pbem.service import Context, make_rng, pass_cards
from pbem.store.db import transaction
from pbem.store.events import load_events, load_state
from pbem.store.models import Snapshot
from tests.helpers import play_first_legal, service_game, state_of


def moves(ctx: Context, game_id: int, plays: int) -> None:
    """Everyone passes, then `plays` cards are played."""
    state = state_of(ctx.engine, game_id)
    for seat in range(state.seats):
        pass_cards(ctx, game_id, seat, state.hand(seat)[:state.rules.pass_count])
    for _ in range(plays):
        play_first_legal(ctx, game_id)


def version_one(data: dict[str, Any]) -> dict[str, Any]:
    """`data` as a version-1 snapshot held it: no per-seat turn numbers."""
    old = {key: value for key, value in data.items() if key != "turns"}
    return {**old, "v": 1}


def test_a_version_one_snapshot_is_ignored_and_the_game_replayed(engine: Engine) -> None:
    ctx = Context(engine=engine, rng=make_rng(seed=3), snapshot_every=10_000)
    game_id = service_game(ctx)
    early = state_of(engine, game_id)
    moves(ctx, game_id, 5)
    with transaction(engine) as session:
        seq = load_state(session, game_id).seq
        # A stale picture (the state before nine moves) under the newest seq: were it restored,
        # the game would lose those five moves.
        session.add(Snapshot(game_id=game_id, seq=seq, state=version_one(snapshot(early))))
    with transaction(engine, read_only=True) as session:
        loaded = load_state(session, game_id)
        replayed = replay(load_events(session, game_id))
    assert loaded.snapshot_seq == 0 and loaded.seq == seq
    assert loaded.state == replayed
    assert loaded.state.turns == replayed.turns and sum(loaded.state.turns) > sum(early.turns)


def test_a_current_snapshot_is_used(engine: Engine) -> None:
    """The same stale picture in the current form is taken as it is (the cache is trusted):
    what the test above relies on being refused."""
    ctx = Context(engine=engine, rng=make_rng(seed=3), snapshot_every=10_000)
    game_id = service_game(ctx)
    early = state_of(engine, game_id)
    moves(ctx, game_id, 1)
    with transaction(engine) as session:
        seq = load_state(session, game_id).seq
        session.add(Snapshot(game_id=game_id, seq=seq, state=snapshot(early)))
    with transaction(engine, read_only=True) as session:
        loaded = load_state(session, game_id)
    assert loaded.snapshot_seq == seq and loaded.state == early
