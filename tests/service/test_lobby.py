"""Open tables, the lobby and quick play (issue 19), on SQLite and PostgreSQL: joining takes one
open seat; the game starts when none is left; two people racing for the last seat get one
seat and one "full"; quick play joins a matching table or opens one; robots fill the seats
still open when the wait is over, and a join racing that top-up gets a clear answer."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.present.service_words import explain_outcome
from pbem.service import Context, NotAllowed, NotFound, lobby, make_rng
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Player, Seat
from tests.service.test_ratings import Clock


def people(engine: Engine, *names: str) -> list[int]:
    with transaction(engine) as session:
        players = [Player(email=f"{n.lower()}@example.org", name=n) for n in names]
        session.add_all(players)
        session.flush()
        return [p.id or 0 for p in players]


def context(engine: Engine) -> Context:
    return Context(engine=engine, rng=make_rng(seed=4), clock=Clock())


def seats_of(engine: Engine, game_id: int) -> list[Seat]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(Seat).where(Seat.game_id == game_id)
                                 .order_by(col(Seat.seat_no))))


def status(engine: Engine, game_id: int) -> str:
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.status


def race(*calls: Callable[[], object]) -> list[object]:
    """Run the calls at once (a barrier releases them together); their results or errors."""
    results: list[object] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the race's loser is asserted on
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_an_open_table_is_listed_and_starts_when_its_last_seat_is_taken(
        engine: Engine) -> None:
    ann, bob, cid, dee = people(engine, "Ann", "Bob", "Cid", "Dee")
    ctx = context(engine)
    game_id = lobby.open_table(ctx, ann, name="Friday", preset="standard", move_hours=24)
    (listed,) = lobby.open_tables(ctx)
    assert (listed.free, listed.seats, listed.move_hours) == (3, 4, 24)
    assert listed.players == ((ann, "Ann"),)
    lobby.join_table(ctx, game_id, bob)
    lobby.join_table(ctx, game_id, cid)
    assert status(engine, game_id) == "inviting" and lobby.open_tables(ctx)[0].free == 1
    lobby.join_table(ctx, game_id, dee)
    assert status(engine, game_id) == "active" and lobby.open_tables(ctx) == []
    assert [s.player_id for s in seats_of(engine, game_id)] == [ann, bob, cid, dee]
    with transaction(engine, read_only=True) as session:
        started = session.exec(select(OutboxEmail.to_addr).where(
            OutboxEmail.game_id == game_id, OutboxEmail.kind == "game_started")).all()
    assert sorted(started) == sorted(f"{n}@example.org" for n in ("ann", "bob", "cid", "dee"))


def test_joining_a_table_twice_changes_nothing(engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    game_id = lobby.open_table(ctx, ann, name="T", preset="standard")
    lobby.join_table(ctx, game_id, bob)
    again = lobby.join_table(ctx, game_id, bob)
    assert again.duplicate and "already have a seat" in explain_outcome(again)
    assert [s.player_id for s in seats_of(engine, game_id)].count(bob) == 1


def test_two_people_racing_for_the_last_seat_get_one_seat_and_one_full(
        engine: Engine) -> None:
    ann, bob, cid, dee, eve = people(engine, "Ann", "Bob", "Cid", "Dee", "Eve")
    ctx = context(engine)
    game_id = lobby.open_table(ctx, ann, name="T", preset="standard", open_seats=2)
    lobby.join_table(ctx, game_id, bob)
    results = race(*(lambda p=p: lobby.join_table(ctx, game_id, p) for p in (cid, dee, eve)))
    refused = [r for r in results if isinstance(r, NotAllowed)]
    assert len(refused) == 2 and all(str(r) == lobby.TABLE_FULL for r in refused)
    seated = {s.player_id for s in seats_of(engine, game_id)}
    assert len(seated & {cid, dee, eve}) == 1 and status(engine, game_id) == "active"


def test_quick_play_joins_a_table_of_the_same_rules_and_pace_or_opens_one(
        engine: Engine) -> None:
    ann, bob, cid = people(engine, "Ann", "Bob", "Cid")
    ctx = context(engine)
    first = lobby.quick_play(ctx, ann, "standard", 24, 15)
    assert lobby.quick_play(ctx, bob, "standard", 24, 15) == first
    assert lobby.quick_play(ctx, cid, "standard", 48, 15) != first  # another pace
    assert lobby.quick_play(ctx, ann, "standard", 24, 15) == first  # already seated there
    with pytest.raises(Exception, match="choose_pace"):
        lobby.quick_play(ctx, ann, "standard", 25, 15)


def test_robots_take_the_open_seats_when_the_wait_is_over(engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    assert isinstance(ctx.clock, Clock)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 15)
    lobby.join_table(ctx, game_id, bob, fill_by=ctx.clock() + timedelta(minutes=60))
    ctx.clock.now += timedelta(minutes=14)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    ctx.clock.now += timedelta(minutes=1)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "active"
    assert [(s.player_id, s.is_bot) for s in seats_of(engine, game_id)] == [
        (ann, False), (bob, False), (None, True), (None, True)]
    assert lobby.top_up_tables(ctx) == []


def test_a_sooner_wait_brings_the_top_up_forward(engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    assert isinstance(ctx.clock, Clock)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 60)
    assert lobby.quick_play(ctx, bob, "standard", 24, 0) == game_id
    assert lobby.top_up_tables(ctx) == [game_id]


def test_quick_play_racing_a_manual_join_for_the_last_seat(engine: Engine) -> None:
    """Both want the last seat of a quick table: one sits there; the quick player who lost
    gets a new table of their own, the manual joiner who lost hears the table is full."""
    ann, bob, cid, dee, eve = people(engine, "Ann", "Bob", "Cid", "Dee", "Eve")
    ctx = context(engine)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 15)
    for p in (bob, cid):
        lobby.join_table(ctx, game_id, p)
    quick, manual = race(lambda: lobby.quick_play(ctx, dee, "standard", 24, 15),
                         lambda: lobby.join_table(ctx, game_id, eve))
    last = seats_of(engine, game_id)[3].player_id
    assert last in (dee, eve) and status(engine, game_id) == "active"
    if last == dee:
        assert quick == game_id and isinstance(manual, NotAllowed)
    else:
        assert isinstance(quick, int) and quick != game_id
        assert [s.player_id for s in seats_of(engine, quick)][0] == dee


def test_a_join_racing_the_robots_top_up_gets_a_seat_or_a_clear_full(engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    assert isinstance(ctx.clock, Clock)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 5)
    ctx.clock.now += timedelta(minutes=5)
    joined, topped = race(lambda: lobby.join_table(ctx, game_id, bob),
                          lambda: lobby.top_up_tables(ctx))
    seats = seats_of(engine, game_id)
    assert status(engine, game_id) == "active" and topped == [game_id]
    assert all(s.is_bot or s.player_id is not None for s in seats)
    if isinstance(joined, NotAllowed):
        assert str(joined) == lobby.TABLE_FULL and bob not in {s.player_id for s in seats}
    else:
        assert [s.player_id for s in seats][:2] == [ann, bob]


def test_a_started_or_unknown_table_cannot_be_joined(engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    game_id = lobby.open_table(ctx, ann, name="T", preset="standard", open_seats=1)
    lobby.join_table(ctx, game_id, bob)
    (cid,) = people(engine, "Cid")
    with pytest.raises(NotAllowed, match="table_full"):
        lobby.join_table(ctx, game_id, cid)
    with pytest.raises(NotFound):
        lobby.join_table(ctx, 999_999, cid)


def test_the_workers_deadline_scan_fills_tables_whose_wait_is_over(
        make_app: Callable[..., Flask], db_url: str) -> None:
    """The worker does the top-up: its every-minute job (check_deadlines, claimed run)."""
    from pbem.app import db_engine
    from pbem.scheduler.worker import check_deadlines

    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    (ann,) = people(engine, "Ann")
    ctx = context(engine)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 15)
    check_deadlines(app, now=ctx.clock() + timedelta(minutes=14))
    assert status(engine, game_id) == "inviting"
    check_deadlines(app, now=ctx.clock() + timedelta(minutes=15))
    assert status(engine, game_id) == "active"
    assert [s.is_bot for s in seats_of(engine, game_id)] == [False, True, True, True]


def quick_tables(engine: Engine) -> list[list[int | None]]:
    """Who sits where at each quick table still gathering players."""
    with transaction(engine, read_only=True) as session:
        games = session.exec(select(Game.id).where(
            col(Game.quick).is_(True), Game.status == "inviting").order_by(col(Game.id))).all()
    return [[s.player_id for s in seats_of(engine, g) if s.player_id] for g in games
            if g is not None]


@pytest.mark.parametrize("rounds", range(3))
def test_one_player_asking_for_quick_play_twice_at_once_gets_one_seat(
        engine: Engine, rounds: int) -> None:
    """A double submit (two tabs, a slow link): one table, the player in it once; each call
    answers with that table (finding 6 of the browser QA pass: two tables with Bob in both)."""
    (bob,) = people(engine, "Bob")
    ctx = context(engine)
    results = race(*(lambda: lobby.quick_play(ctx, bob, "club", 4, 60) for _ in range(3)))
    tables = quick_tables(engine)
    assert len(tables) == 1 and tables[0].count(bob) == 1
    assert set(results) == {lobby.open_tables(ctx)[0].game_id}


@pytest.mark.parametrize("rounds", range(3))
def test_people_asking_for_quick_play_at_once_end_up_at_one_table(
        engine: Engine, rounds: int) -> None:
    """Quick play joins a matching table: three people asking together find each other (one
    opens the table, the others join it), however their requests interleave."""
    players = people(engine, "Ann", "Bob", "Cid")
    ctx = context(engine)
    results = race(*(lambda p=p: lobby.quick_play(ctx, p, "standard", 24, 15)
                     for p in players))
    tables = quick_tables(engine)
    assert len(tables) == 1 and sorted(tables[0], key=str) == sorted(players, key=str)
    assert len(set(results)) == 1 and all(isinstance(r, int) for r in results)


def test_a_double_submit_racing_other_players_seats_everyone_once(engine: Engine) -> None:
    """Four asking at once, one of them twice: the four fill one table, which starts, and
    nobody sits twice at it. (Ann's second request, if it comes after the table started,
    finds her waiting nowhere and opens a table of its own: a waiting table, hers alone.)"""
    ann, bob, cid, dee = people(engine, "Ann", "Bob", "Cid", "Dee")
    ctx = context(engine)
    race(*(lambda p=p: lobby.quick_play(ctx, p, "standard", 24, 15)
           for p in (ann, ann, bob, cid, dee)))
    with transaction(engine, read_only=True) as session:
        games = {g.id: g.status for g in session.exec(select(Game))}
    seated = {g: [s.player_id for s in seats_of(engine, g) if s.player_id] for g in games}
    started = [g for g, status in games.items() if status == "active"]
    assert len(started) == 1 and sorted(seated[started[0]]) == sorted([ann, bob, cid, dee])
    assert [seated[g] for g in games if g not in started] in ([], [[ann]])


def test_a_player_waits_at_one_quick_table_at_a_time(engine: Engine) -> None:
    """Another preset or pace, or joining another quick table from the lobby, while a quick
    table of theirs is still gathering players: refused, with where they wait; once that one
    has started, they may ask again."""
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    mine = lobby.quick_play(ctx, ann, "standard", 24, 15)
    assert lobby.quick_play(ctx, ann, "standard", 24, 60) == mine  # the same: sent back there
    for preset, pace in (("club", 24), ("standard", 48)):
        with pytest.raises(NotAllowed, match="one_quick_table"):
            lobby.quick_play(ctx, ann, preset, pace, 15)
    other = lobby.quick_play(ctx, bob, "standard", 48, 15)
    with pytest.raises(NotAllowed, match="one_quick_table"):
        lobby.join_table(ctx, other, ann)
    assert quick_tables(engine) == [[ann], [bob]]
    lobby.start_now(ctx, mine, ann)
    lobby.join_table(ctx, other, ann)  # started: Ann no longer waits anywhere
    assert quick_tables(engine) == [[bob, ann]]
