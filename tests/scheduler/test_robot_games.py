"""No request plays an unbounded number of robot moves (issue 18): a game left to robots alone
stops after one bounded chunk, and the worker plays it on, a chunk per transaction, to its end
(summary emails included); a human's move still gets the robots' answers at once. On SQLite
and PostgreSQL, with two workers racing on one game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask
from sqlalchemy import Engine, update
from sqlmodel import col, select

from pbem.app import wire_mail
from pbem.engine import Phase, legal_cards, replay
from pbem.scheduler.worker import (
    ROBOTS_AWAITED_POLL_SECONDS,
    RobotPasses,
    build_scheduler,
    carry_on_robot_games,
)
from pbem.service import (
    HOLDING,
    ROBOT,
    Context,
    Invitee,
    PlayerMistake,
    create_game,
    games_left_to_robots,
    games_to_play,
    make_rng,
    pass_cards,
    play_card,
    play_robot_turns,
    resign,
    robotturns,
    take_seat_back,
    timeout_move,
)
from pbem.service.core import robot_budget
from pbem.store.db import make_engine, transaction
from pbem.store.events import load_events, load_state
from pbem.store.models import Deadline, Game, OutboxEmail, Seat
from pbem.store.models import Event as EventRow
from tests.conftest import TEST_SWITCHES
from tests.helpers import state_of

ANN = Invitee("ann@example.org", "Ann", accepted=True)
BOB = Invitee("bob@example.org", "Bob", accepted=True)
BUDGET = robot_budget(4)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def robot_decisions_after(engine: Engine, game_id: int, seq: int) -> int:
    with transaction(engine, read_only=True) as s:
        actors = s.exec(select(EventRow.actor).where(EventRow.game_id == game_id,
                                                     col(EventRow.seq) > seq)).all()
    return sum(actor in (ROBOT, HOLDING) for actor in actors)


def status_of(engine: Engine, game_id: int) -> str:
    with transaction(engine, read_only=True) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return game.status


def summaries(engine: Engine, game_id: int) -> list[str]:
    with transaction(engine, read_only=True) as s:
        return list(s.exec(select(OutboxEmail.to_addr).where(
            OutboxEmail.game_id == game_id, OutboxEmail.kind == "summary")).all())


def left_to_robots(engine: Engine) -> tuple[Context, int]:
    """Ann and Bob with two easy robots; Bob times out once, so the robot holds his seat
    (`bot_after_timeouts` 1), then Ann resigns: no human is waited for any more."""
    clock = Clock()
    ctx = Context(engine=engine, rng=make_rng(seed=5), clock=clock)
    game_id = create_game(ctx, name="Left", players=[ANN, BOB], bot_seats=(2, 3),
                          robot_strength="easy",
                          deadline_policy={"bot_after_timeouts": 1}).game_id
    with transaction(engine, read_only=True) as s:
        bobs = s.exec(select(Deadline).where(Deadline.game_id == game_id,
                                             Deadline.seat_no == 1)).one()
    clock.now = bobs.grace_until + timedelta(minutes=1)
    assert not timeout_move(ctx, game_id, 1, bobs.turn_seq).duplicate
    return ctx, game_id


def test_resigning_leaves_a_robots_game_to_the_worker_a_bounded_chunk_at_a_time(
    engine: Engine,
) -> None:
    ctx, game_id = left_to_robots(engine)
    with transaction(engine, read_only=True) as s:
        before = load_state(s, game_id).seq
    out = resign(ctx, game_id, 0)
    assert 0 < robot_decisions_after(engine, game_id, before) <= BUDGET
    assert out.state is not None and not out.state.game_over
    assert status_of(engine, game_id) == "active"
    assert games_left_to_robots(ctx) == [game_id]  # no deadline pending: the worker's turn
    for _chunk in range(3):  # each chunk of the worker is bounded too
        chunk = play_robot_turns(ctx, game_id)
        assert not chunk.duplicate
        assert 0 < robot_decisions_after(engine, game_id, out.seq) <= BUDGET
        out = chunk
    played = carry_on_robot_games(ctx)
    assert played and set(played) == {game_id}
    with transaction(engine, read_only=True) as s:
        state = replay(list(load_events(s, game_id)))  # the whole log replays cleanly
    assert state.game_over and state.hand_number >= 2
    assert status_of(engine, game_id) == "finished"
    assert summaries(engine, game_id) == [BOB.email]  # the held seat's player hears the end
    assert games_left_to_robots(ctx) == []
    with pytest.raises(PlayerMistake):  # the game is over: nothing more to play
        play_robot_turns(ctx, game_id)
    assert carry_on_robot_games(ctx) == []  # nothing is played twice


def test_a_humans_move_still_gets_the_robots_answers_in_the_same_request(
    engine: Engine,
) -> None:
    ctx = Context(engine=engine, rng=make_rng(seed=8), clock=Clock())
    game_id = create_game(ctx, name="Answered", players=[ANN], bot_seats=(1, 2, 3),
                          robot_strength="easy").game_id
    hands_seen = set()
    for _move in range(20):  # a pass and a hand's cards, into the next hand
        with transaction(engine, read_only=True) as s:
            loaded = load_state(s, game_id)
        state = loaded.state
        hands_seen.add(state.hand_number)
        assert 0 in state.to_move  # the robots answered: Ann is asked again
        assert games_left_to_robots(ctx) == []  # nothing waits for the worker
        if state.phase is Phase.PASS:
            pass_cards(ctx, game_id, 0, state.hand(0)[:3])
        else:
            play_card(ctx, game_id, 0, str(legal_cards(state, 0)[0]))
    assert len(hands_seen) == 2


def test_two_workers_racing_on_a_robots_game_play_each_move_once(engine: Engine) -> None:
    ctx, game_id = left_to_robots(engine)
    resign(ctx, game_id, 0)
    start = threading.Barrier(2)
    played: list[list[int]] = [[], []]

    def worker(n: int) -> None:
        mine = Context(engine=engine, rng=make_rng(seed=n))
        start.wait()
        played[n] = carry_on_robot_games(mine)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with transaction(engine, read_only=True) as s:
        rows = s.exec(select(EventRow.seq).where(EventRow.game_id == game_id)
                      .order_by(col(EventRow.seq))).all()
        events = list(load_events(s, game_id))
    assert list(rows) == list(range(rows[0], rows[0] + len(rows)))  # gapless: nothing written twice
    state = replay(events)  # every card legal where it was played: none played twice
    assert state.game_over and status_of(engine, game_id) == "finished"
    assert summaries(engine, game_id) == [BOB.email]
    assert played[0] or played[1]


def test_the_worker_looks_for_robot_moves_four_times_a_second(
        make_app: Callable[..., Flask]) -> None:
    """The job ticks every quarter second (`RobotPasses`: a pass every second, and at once
    for a player waiting for robots; tests/scheduler/test_robots_later.py)."""
    job = build_scheduler(make_app(), BackgroundScheduler(timezone="UTC")).get_job(
        "play_robot_games")
    assert job is not None and job.max_instances == 2  # a tick during a pass returns at once
    assert isinstance(job.func.__self__, RobotPasses) and job.func.__self__.every == 1
    assert job.trigger.interval.total_seconds() == ROBOTS_AWAITED_POLL_SECONDS == 0.25


def pending_seats(engine: Engine, game_id: int) -> list[int]:
    with transaction(engine, read_only=True) as s:
        return list(s.exec(select(Deadline.seat_no).where(
            Deadline.game_id == game_id, Deadline.status == "pending")).all())


def test_a_player_taking_a_held_seat_back_at_their_turn_gets_a_deadline(
    engine: Engine,
) -> None:
    ctx, game_id = left_to_robots(engine)
    out = resign(ctx, game_id, 0)
    while out.state is not None and 1 not in out.state.to_move:  # a chunk ends at Bob's turn
        assert not out.state.game_over
        out = play_robot_turns(ctx, game_id)
    take_seat_back(ctx, game_id, 1)  # Bob is back (a reply, a click), the game at his turn
    assert games_left_to_robots(ctx) == [game_id] and pending_seats(engine, game_id) == []
    assert not play_robot_turns(ctx, game_id).duplicate  # nothing played; his deadline opened
    assert pending_seats(engine, game_id) == [1] and games_left_to_robots(ctx) == []
    assert state_of(engine, game_id).to_move == out.state.to_move


def test_a_worker_and_a_player_taking_his_seat_back_race_without_harm(engine: Engine) -> None:
    ctx, game_id = left_to_robots(engine)
    resign(ctx, game_id, 0)
    start = threading.Barrier(2)

    def worker() -> None:
        start.wait()
        carry_on_robot_games(Context(engine=engine, rng=make_rng(seed=3)))

    thread = threading.Thread(target=worker)
    thread.start()
    start.wait()
    take_seat_back(ctx, game_id, 1)
    thread.join()
    carry_on_robot_games(ctx)  # the worker's next run
    with transaction(engine, read_only=True) as s:
        seqs = s.exec(select(EventRow.seq).where(EventRow.game_id == game_id)
                      .order_by(col(EventRow.seq))).all()
        state = replay(list(load_events(s, game_id)))
    assert list(seqs) == list(range(seqs[0], seqs[0] + len(seqs)))
    if not state.game_over:  # Bob came back before the end: the game waits for him, timed
        assert state.to_move == (1,) or 1 in state.to_move
        assert pending_seats(engine, game_id) == [1] and games_left_to_robots(ctx) == []


# --- an idle game: left to robots, with nothing for them to play -----------------------------

def idle_game(engine: Engine) -> int:
    """Ann and three robots, at Ann's turn; then her seat is left empty (nobody holds it, as
    an open seat waiting for a newcomer) and her deadline closed: the game is active, no
    deadline is pending, and the robots have nothing to play: it waits for something else."""
    ctx = Context(engine=engine, rng=make_rng(seed=4), clock=Clock())
    game_id = create_game(ctx, name="Idle", players=[ANN], bot_seats=(1, 2, 3),
                          robot_strength="easy").game_id
    assert state_of(engine, game_id).to_move == (0,)
    with transaction(engine) as s:
        s.execute(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat_no) == 0)
                  .values(player_id=None))
        s.execute(update(Deadline).where(col(Deadline.game_id) == game_id)
                  .values(status="cancelled"))
    return game_id


def a_robot_takes_the_empty_seat(engine: Engine, game_id: int) -> None:
    """As the lobby's top-up does for an open seat: a robot takes it (no event appended)."""
    with transaction(engine) as s:
        s.execute(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat_no) == 0)
                  .values(is_bot=True))


def count_plans(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Engine, int]]:
    """Each planning of a robots' chunk (pbem.service.robotturns `run`): (engine, game)."""
    plans: list[tuple[Engine, int]] = []
    real = robotturns.run

    def counted(ctx: Context, game_id: int, *args: Any, **kwargs: Any) -> Any:
        plans.append((ctx.engine, game_id))
        return real(ctx, game_id, *args, **kwargs)

    monkeypatch.setattr(robotturns, "run", counted)
    return plans


def test_an_idle_game_is_planned_once_not_every_pass_and_again_once_a_robot_can_move(
    engine: Engine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = idle_game(engine)
    plans = count_plans(monkeypatch)
    ctx = Context(engine=engine, rng=make_rng(seed=6))
    for _pass in range(5):  # five seconds of the worker's passes
        assert carry_on_robot_games(ctx) == []
    assert plans == [(engine, game_id)]  # planned once: found idle, then left out
    assert games_left_to_robots(ctx) == [game_id] and games_to_play(ctx) == []
    seq = state_of_seq(engine, game_id)
    a_robot_takes_the_empty_seat(engine, game_id)
    assert games_to_play(ctx) == [game_id]  # the very next pass (within a second) plays it
    played = carry_on_robot_games(ctx)
    assert played and set(played) == {game_id} and state_of_seq(engine, game_id) > seq
    assert status_of(engine, game_id) == "finished"  # four robots: played to its end


def test_an_idle_game_that_moves_on_is_planned_again(
    engine: Engine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its seq changes (here a robot's chunk written by another worker, after the seat was
    taken): the game is no longer as found, and is planned again."""
    game_id = idle_game(engine)
    ctx = Context(engine=engine, rng=make_rng(seed=6))
    assert carry_on_robot_games(ctx) == [] and games_to_play(ctx) == []
    other = make_engine(str(engine.url.render_as_string(hide_password=False)))
    wire_mail(other, TEST_SWITCHES)
    try:
        a_robot_takes_the_empty_seat(engine, game_id)
        assert not play_robot_turns(Context(engine=other, rng=make_rng(seed=1)),
                                    game_id).duplicate
    finally:
        other.dispose()
    plans = count_plans(monkeypatch)
    assert game_id in carry_on_robot_games(ctx)
    assert plans[0] == (engine, game_id)


def test_two_workers_each_remember_idle_games_and_play_them_once_when_they_move(
    engine: Engine, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers (two processes: each its own engine and memory) beside each other, not
    behind the lease: each plans the idle game once, then neither again; once a robot can
    move, both race on it and every move is played once."""
    game_id = idle_game(engine)
    plans = count_plans(monkeypatch)
    other = make_engine(str(engine.url.render_as_string(hide_password=False)))
    wire_mail(other, TEST_SWITCHES)
    workers = [Context(engine=engine, rng=make_rng(seed=1)), Context(engine=other,
                                                                     rng=make_rng(seed=2))]
    try:
        for _pass in range(3):
            assert [carry_on_robot_games(ctx) for ctx in workers] == [[], []]
        assert plans == [(engine, game_id), (other, game_id)]
        a_robot_takes_the_empty_seat(engine, game_id)
        start = threading.Barrier(2)
        played: list[list[int]] = [[], []]

        def worker(n: int) -> None:
            start.wait()
            played[n] = carry_on_robot_games(workers[n])

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        other.dispose()
    with transaction(engine, read_only=True) as s:
        seqs = s.exec(select(EventRow.seq).where(EventRow.game_id == game_id)
                      .order_by(col(EventRow.seq))).all()
        state = replay(list(load_events(s, game_id)))
    assert list(seqs) == list(range(seqs[0], seqs[0] + len(seqs)))  # nothing written twice
    assert state.game_over and status_of(engine, game_id) == "finished"
    assert played[0] or played[1]


def state_of_seq(engine: Engine, game_id: int) -> int:
    with transaction(engine, read_only=True) as s:
        return load_state(s, game_id).seq


# --- a game whose robots' chunk keeps failing: tried again after a growing back-off ---------

class RobotBug(Exception):
    pass


def chunks_failing_in(monkeypatch: pytest.MonkeyPatch, broken: set[int]) -> list[int]:
    """Each game a robots' chunk was tried in; in the games in `broken` it raises (a bug)."""
    tried: list[int] = []
    real = robotturns.run

    def failing(ctx: Context, game_id: int, *args: Any, **kwargs: Any) -> Any:
        tried.append(game_id)
        if game_id in broken:
            raise RobotBug(f"no move in game {game_id}")
        return real(ctx, game_id, *args, **kwargs)

    monkeypatch.setattr(robotturns, "run", failing)
    return tried


def a_broken_game(engine: Engine, monkeypatch: pytest.MonkeyPatch,
                  ) -> tuple[int, set[int], list[int], Clock, Context]:
    """A game left to robots whose chunk raises (while its id is in the returned set), the
    games tried, and a worker's context on a clock the test moves."""
    ctx, broken_game = left_to_robots(engine)
    resign(ctx, broken_game, 0)
    broken = {broken_game}
    tried = chunks_failing_in(monkeypatch, broken)
    clock = Clock()
    return broken_game, broken, tried, clock, Context(engine=engine, rng=make_rng(seed=7),
                                                      clock=clock)


def test_a_game_whose_robots_keep_failing_is_tried_again_after_a_growing_back_off(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """Not every pass (every second, forever, a traceback each time): after 5 s, then 10 s,
    20 s... (as a failing mail job, at most 10 min); the other games play on meanwhile, and
    once the bug is gone the game plays to its end."""
    broken_game, broken, tried, clock, worker = a_broken_game(engine, monkeypatch)
    other_ctx, healthy_game = left_to_robots(engine)
    resign(other_ctx, healthy_game, 0)

    def tries_after(seconds: float) -> int:
        clock.now += timedelta(seconds=seconds)
        carry_on_robot_games(worker)
        return tried.count(broken_game)

    assert healthy_game in carry_on_robot_games(worker)  # played on to its end
    assert status_of(engine, healthy_game) == "finished"
    assert tried.count(broken_game) == 1  # once in that pass, though the pass went round again
    assert "failed (1 in a row); next try in 5 s" in caplog.text
    assert [tries_after(s) for s in (4, 1, 9, 1, 19, 1)] == [1, 2, 2, 3, 3, 4]
    assert "failed (3 in a row); next try in 20 s" in caplog.text
    broken.clear()  # the bug is fixed (a new release): the next try plays the game on
    assert tries_after(39) == 4 and status_of(engine, broken_game) == "active"  # 40 s' wait
    assert tries_after(1) > 4  # tried, and played on, chunk after chunk, in that pass
    assert status_of(engine, broken_game) == "finished"
    assert summaries(engine, broken_game) == [BOB.email]


def test_a_game_whose_robots_fail_again_and_again_is_set_aside_with_its_reason(
    make_app: Callable[..., Flask], db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After ROBOTS_SET_ASIDE failures in a row the game leaves every worker's passes (listed
    no more: no worker tries it again), its reason kept on the game; the others play on; an
    operator's `pbem robots retry` puts it back and it plays to its end."""
    from pbem.app import db_engine
    from pbem.scheduler.worker import ROBOTS_SET_ASIDE

    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    broken_game, broken, tried, clock, worker = a_broken_game(engine, monkeypatch)
    for _ in range(ROBOTS_SET_ASIDE):
        carry_on_robot_games(worker)
        clock.now += timedelta(minutes=11)  # past the longest back-off
    assert tried.count(broken_game) == ROBOTS_SET_ASIDE
    assert broken_game not in games_to_play(worker) and not games_left_to_robots(worker)
    carry_on_robot_games(worker)
    assert tried.count(broken_game) == ROBOTS_SET_ASIDE  # not tried again
    runner = app.test_cli_runner()
    listed = runner.invoke(args=["robots", "set-aside"]).output
    assert f"game {broken_game}:" in listed and "RobotBug: no move in game" in listed
    broken.clear()
    assert runner.invoke(args=["robots", "retry", str(broken_game)]).exit_code == 0
    assert runner.invoke(args=["robots", "retry", str(broken_game)]).exit_code == 1  # not aside
    carry_on_robot_games(worker)
    assert status_of(engine, broken_game) == "finished"
