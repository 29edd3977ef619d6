"""Several worker processes on one database add up instead of racing (issue 32): every kind of
claimed work (a game's robot turns, a game's mail jobs, timeouts and reminders, invitation
reminders, reviews, digests) raced by two and three real processes (not threads) started
together, on PostgreSQL and on a SQLite file. Each unit is worked once, by one process, no
plan is thrown away, and a worker killed with SIGKILL in the middle of a robot's search
loses nothing: another takes the game at once and plays it, once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.service import ROBOT, Context, Invitee, create_game, lobby, make_rng
from pbem.store.claims import GAME, claim
from pbem.store.db import transaction
from pbem.store.models import Event, GameReview, MailJob, OutboxEmail, Player
from tests.scheduler.conftest import START, MakeTable

REPO = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 6.0  # the children import and connect before the common start


def _race(db_url: str, job: str, workers: int, now: str | None = None) -> list[dict[str, Any]]:
    """Run `job` in `workers` child processes that start it at the same instant; what each
    did."""
    start_at = time.time() + STARTUP_SECONDS
    args = [db_url, job, str(start_at)] + ([now] if now else [])
    children = [_spawn(args) for _ in range(workers)]
    return [_result(child) for child in children]


def _spawn(args: list[str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.Popen([sys.executable, "-m", "tests.scheduler.worker_child", *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _result(child: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = child.communicate(timeout=600)
    assert child.returncode == 0, err[-3000:]
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def _done_once(results: list[dict[str, Any]]) -> list[int]:
    """Every unit any process did, each by one process only; none threw a plan away."""
    done = [unit for result in results for unit in result["done"]]
    assert len(done) == len(set(done)), f"units worked twice: {results}"
    assert [r["plans_discarded"] for r in results] == [0] * len(results)
    return done


def _robot_moves(engine: Engine, game_id: int) -> list[tuple[int, str]]:
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(Event.seq, Event.type, Event.actor).where(
            Event.game_id == game_id).order_by(col(Event.seq))).all()
    assert [seq for seq, _type, _actor in rows] == list(range(1, len(rows) + 1))  # gapless
    return [(seq, kind) for seq, kind, actor in rows if actor == ROBOT]


def _games_awaiting_robots(engine: Engine, count: int) -> list[int]:
    """Games of one person and three strong robots, just dealt: the robots' passes are the
    worker's (as a command leaves them in production)."""
    ctx = Context(engine=engine, rng=make_rng(seed=21), robots_now=False, mail_now=False)
    return [create_game(ctx, name=f"Race {n}", players=[
        Invitee(f"p{n}@example.org", f"P{n}", accepted=True)], bot_seats=(1, 2, 3)).game_id
        for n in range(count)]


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_share_the_robots_turns_and_play_each_once(
        engine: Engine, db_url: str, workers: int) -> None:
    games = _games_awaiting_robots(engine, 6)
    results = _race(db_url, "robots", workers)
    assert sorted(_done_once(results)) == sorted(games)  # each game's chunk: one process
    for game_id in games:
        passes = [kind for _seq, kind in _robot_moves(engine, game_id)]
        assert passes == ["cards_passed"] * 3  # each robot passed once


@pytest.mark.parametrize("workers", [3])
def test_workers_share_the_mail_jobs_and_send_each_email_once(
        engine: Engine, db_url: str, workers: int) -> None:
    ctx = Context(engine=engine, rng=make_rng(seed=22), mail_now=False)
    games = [create_game(ctx, name=f"Mail {n}", robot_strength="easy", players=[
        Invitee(f"g{n}s{s}@example.org", f"S{s}", accepted=True) for s in range(4)]).game_id
        for n in range(8)]
    with transaction(engine, read_only=True) as session:
        jobs = set(session.exec(select(MailJob.id)).all())
    assert len(jobs) >= len(games)
    results = _race(db_url, "mail", workers)
    assert set(_done_once(results)) == jobs
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail.game_id, OutboxEmail.to_addr,
                                   OutboxEmail.kind)).all()
        assert session.exec(select(MailJob.id)).all() == []
    assert rows and max(Counter(rows).values()) == 1  # nobody got an email twice
    assert {game_id for game_id, _to, _kind in rows} == set(games)


@pytest.mark.parametrize("workers", [2])
def test_workers_share_timeouts_and_reminders_and_do_each_once(
        make_table: MakeTable, engine: Engine, db_url: str, workers: int) -> None:
    tables = [make_table(humans=3) for _ in range(3)]
    reminded = _race(db_url, "deadlines", workers, (START + timedelta(hours=24)).isoformat())
    assert len(_done_once(reminded)) == 9  # three seats a game, each reminded once
    assert sum(len(t.mail("reminder")) for t in tables[:1]) == 9  # (the outbox is shared)
    timed_out = _race(db_url, "deadlines", workers, (START + timedelta(hours=48)).isoformat())
    assert len(_done_once(timed_out)) == 9  # each expired deadline acted on once
    for t in tables:
        assert t.event_types().count("cards_passed") == 4  # the robot and three timeouts
        assert len(t.deadlines("expired")) == 3
    with transaction(engine, read_only=True) as session:
        told = session.exec(select(OutboxEmail.game_id, OutboxEmail.to_addr).where(
            OutboxEmail.kind == "timeout")).all()
    assert len(told) == 27 and max(Counter(told).values()) == 3  # three timeouts told to each


def test_workers_send_each_invitation_reminder_once(
        make_app: Callable[..., Flask], engine: Engine, db_url: str) -> None:
    from tests.mail.test_invite_reminders import accept_invite, context, new_game

    ctx = context(engine)
    for _ in range(3):
        accept_invite(ctx, new_game(ctx), 0)
    now = ctx.clock() + timedelta(hours=72)
    _done_once(_race(db_url, "deadlines", 3, now.isoformat()))
    with transaction(engine, read_only=True) as session:
        queued = session.exec(select(OutboxEmail.game_id, OutboxEmail.to_addr).where(
            col(OutboxEmail.kind).in_(("invite_reminder", "invite_unanswered")))).all()
    assert len(queued) == 9 and max(Counter(queued).values()) == 1


def test_workers_share_the_reviews_and_weigh_each_game_once(
        make_app: Callable[..., Flask], engine: Engine, db_url: str) -> None:
    from tests.scheduler.test_review import play_a_game

    games = []
    for n in range(3):  # three finished games, each by other people (the helper's names)
        games.append(play_a_game(engine))
        with transaction(engine) as session:
            for player in session.exec(select(Player)).all():
                player.email = player.email.replace("@", f"+{n}@", 1) \
                    if "+" not in player.email else player.email
    results = _race(db_url, "reviews", 2)
    assert sorted(_done_once(results)) == sorted(games)
    with transaction(engine, read_only=True) as session:
        assert sorted(session.exec(select(GameReview.game_id)).all()) == sorted(games)
        mails = session.exec(select(OutboxEmail.game_id, OutboxEmail.to_addr).where(
            OutboxEmail.kind == "review")).all()
    assert mails and max(Counter(mails).values()) == 1


def test_workers_send_each_digest_once(engine: Engine, db_url: str) -> None:
    from tests.scheduler.test_digest import EIGHT_IN_TOKYO, _two_games

    _two_games(engine)
    results = _race(db_url, "digests", 3, EIGHT_IN_TOKYO.isoformat())
    assert sorted(r["done"][0] for r in results) == [0, 0, 1]
    with transaction(engine, read_only=True) as session:
        assert len(session.exec(select(OutboxEmail.id).where(
            OutboxEmail.kind == "digest")).all()) == 1


def test_a_worker_killed_mid_search_loses_nothing_and_another_takes_its_game_at_once(
        engine: Engine, db_url: str) -> None:
    (game_id,) = _games_awaiting_robots(engine, 1)
    first = _spawn([db_url, "robots", str(time.time())])
    _wait_until_held(engine, game_id, first)
    first.send_signal(signal.SIGKILL)
    first.wait(30)
    killed = time.monotonic()
    while not _free(engine, game_id):  # its claim went with it
        assert time.monotonic() - killed < 5, "the dead worker's claim was not released"
        time.sleep(0.01)
    freed_after = time.monotonic() - killed
    assert _robot_moves(engine, game_id) == []  # killed before its write: nothing of it
    (result,) = _race(db_url, "robots", 1)
    assert result["done"] == [game_id] and result["plans_discarded"] == 0
    assert [kind for _seq, kind in _robot_moves(engine, game_id)] == ["cards_passed"] * 3
    assert freed_after < 5


def _wait_until_held(engine: Engine, game_id: int, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while _free(engine, game_id):
        assert child.poll() is None, child.communicate()[1][-3000:]
        assert time.monotonic() < deadline, "the worker never took the game"
        time.sleep(0.005)


def _free(engine: Engine, game_id: int) -> bool:
    with claim(engine, GAME, game_id) as mine:
        return mine


def test_workers_fill_each_open_table_once(engine: Engine, db_url: str) -> None:
    from tests.service.test_lobby import context, people, seats_of, status

    ctx = context(engine)
    games = [lobby.quick_play(ctx, person, preset, 24, 15)
             for person, preset in zip(people(engine, "Ann", "Bob", "Cy"),
                                       ("standard", "omnibus-jd", "omnibus-td"), strict=True)]
    now = ctx.clock() + timedelta(minutes=15)
    _done_once(_race(db_url, "deadlines", 3, now.isoformat()))
    for game_id in games:
        assert status(engine, game_id) == "active"
        assert [s.is_bot for s in seats_of(engine, game_id)] == [False, True, True, True]
        with transaction(engine, read_only=True) as session:
            created = session.exec(select(Event.type).where(Event.game_id == game_id)).all()
        assert created.count("hand_dealt") == 1  # started once
