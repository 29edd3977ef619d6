"""Every pair of channels races for one turn, on SQLite and PostgreSQL: exactly one move.

One human (seat 0) against three robots. At each of the human's turns two channels act at the
same moment (threads released by a barrier), each with a different legal card when there is a
choice: the email link (POST /t/ through the real Flask app), the private page (POST /s/.../play),
a reply email (the real mail-in path: store, parse, route, move), the timeout (the service's
command the worker calls, the robot moving for the player) and the worker itself (its
deadline scan, `check_deadlines`, which finds the expired deadline and has the
robot move). Whatever the pair, the human's seat makes exactly
one move for that turn; the loser is told the turn has passed, or that it was done already.
(Before the one move command, link + page played two cards for one turn in 14 of 25 trials.)
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlmodel import select

from pbem.app import db_engine
from pbem.engine import Phase, asked, decision_seat, legal_cards
from pbem.mail.compose import MailSettings
from pbem.mailin.process import Inbox, deliver
from pbem.scheduler.worker import check_deadlines
from pbem.service import Context, PlayerMistake, timeout_move
from pbem.service.core import PLAYER, TIMEOUT
from pbem.store.db import transaction
from pbem.store.events import load_events_by, load_state
from pbem.store.models import Deadline
from pbem.store.types import utcnow
from tests.mailin.support import reply
from tests.web.support import card_links, csrf_of, newest, outbox, seat_path, start_game

CHANNELS = ("link", "page", "reply", "timeout", "worker")
ROBOTS = {"timeout", "worker"}  # both have the robot move for the seat on its timeout
PAIRS = [p for p in itertools.combinations_with_replacement(CHANNELS, 2)
         if p not in {("timeout", "timeout"), ("worker", "worker")}]
ROUNDS = 4  # turns raced per pair
_REPLY_TO = re.compile(r"play\+([a-z0-9]+)@", re.IGNORECASE)
_TURN = re.compile(r'name="turn" value="(\d+)"')
Action = Callable[[], Any]


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url)


def _state(app: Flask, game_id: int) -> tuple[Any, int]:
    with transaction(db_engine(app), read_only=True) as session:
        loaded = load_state(session, game_id)
    return loaded.state, loaded.seq


def _pass_first(app: Flask, game_id: int) -> None:
    from pbem import service

    state, _seq = _state(app, game_id)
    if state.phase is Phase.PASS and 0 in state.to_move:
        service.pass_cards(Context(engine=db_engine(app)), game_id, 0, state.hand(0)[:3])


def _turn_email(app: Flask) -> Any:
    return newest(app, "turn")


def _actions(app: Flask, game_id: int, pair: tuple[str, str]) -> list[Action]:
    """One ready-to-fire action per channel of `pair`, each with its own card when the seat
    has a choice (so a double move would show as two different cards)."""
    state, _seq = _state(app, game_id)
    legal = [str(c) for c in legal_cards(state, 0)]
    email = _turn_email(app)
    links = card_links(email.body_text)
    page = seat_path(newest(app, "game_started").body_text)  # the player's one private link
    token = _REPLY_TO.search(email.headers["Reply-To"])
    assert token is not None
    actions = []
    for n, channel in enumerate(pair):
        card = legal[n % len(legal)]
        actions.append(_action(app, game_id, channel, card, links, page, token.group(1),
                               email.headers["Reply-To"]))
    return actions


def _action(app: Flask, game_id: int, channel: str, card: str, links: dict[str, str],
            page: str, token: str, reply_to: str) -> Action:
    if channel == "link":
        client = app.test_client()
        path = links[card]
        csrf = csrf_of(client.get(path).get_data(as_text=True))
        return lambda: client.post(path, data={"csrf_token": csrf}).status_code
    if channel == "page":
        client = app.test_client()
        html = client.get(page).get_data(as_text=True)
        turn = _TURN.search(html)
        assert turn is not None
        form = {"csrf_token": csrf_of(html), "turn": turn.group(1), "card": card}
        return lambda: client.post(f"{page}/play", data=form).status_code
    if channel == "reply":
        inbox = Inbox(db_engine(app), MailSettings.from_config(app.config), app)
        raw = reply(token, card, sender="You <you@example.com>", to=reply_to)
        return lambda: deliver(inbox, raw)
    with transaction(db_engine(app), read_only=True) as session:
        row = session.exec(select(Deadline).where(
            Deadline.game_id == game_id, Deadline.seat_no == 0,
            Deadline.status == "pending")).first()
    assert row is not None, "the human's turn has no deadline"
    later = max(row.grace_until + timedelta(seconds=1), utcnow())
    if channel == "worker":
        _run_out(app, row)
        return lambda: check_deadlines(app)  # its own clock: the real one
    ctx = Context(engine=db_engine(app), clock=lambda: later)
    turn_seq = row.turn_seq

    def time_out() -> Any:
        try:
            return timeout_move(ctx, game_id, 0, turn_seq)
        except PlayerMistake as exc:  # e.g. the worker handed the seat over and ended the game
            return exc  # as the worker's own call does (`_time_out`): too late, nothing to do

    return time_out


def _run_out(app: Flask, row: Deadline) -> None:
    """The deadline's time (and grace) ran out a moment ago, on the real clock: the worker's
    scan finds it, and not the next turn's deadline that a winning move opens (that one starts
    now). A clock moved days ahead instead would rightly time the next turn out too."""
    with transaction(db_engine(app)) as session:
        fresh = session.get(Deadline, row.id)
        assert fresh is not None
        fresh.due_at = fresh.grace_until = utcnow() - timedelta(seconds=1)
        fresh.next_reminder_at = None
        session.add(fresh)


def _race(actions: list[Action]) -> list[BaseException]:
    start = threading.Barrier(len(actions))
    errors: list[BaseException] = []

    def run(action: Action) -> None:
        start.wait()
        try:
            action()
        except BaseException as exc:  # noqa: BLE001 (reported by the test)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(a,)) for a in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return errors


def _moves_for_turn(app: Flask, game_id: int, after_seq: int) -> list[tuple[Any, str]]:
    """Seat 0's moves since `after_seq` made by a channel (the player, or the robot on a
    timeout); the robot holding the seat afterwards is no channel."""
    with transaction(db_engine(app), read_only=True) as session:
        made = load_events_by(session, game_id, after_seq)
    return [(e, by) for e, by in made if decision_seat(e) == 0 and by in (PLAYER, TIMEOUT)]


@pytest.mark.parametrize("pair", PAIRS, ids=["+".join(p) for p in PAIRS])
def test_two_channels_at_once_make_exactly_one_move_per_turn(
        app: Flask, pair: tuple[str, str]) -> None:
    game_id = start_game(app)
    with app.app_context():
        _pass_first(app, game_id)
    raced = 0
    for _round in range(ROUNDS):
        state, seq = _state(app, game_id)
        if state.game_over or state.phase is not Phase.PLAY or state.turn != 0:
            break
        turn = asked(state, 0).turn
        with app.app_context():
            actions = _actions(app, game_id, pair)
        sent = len(outbox(app))
        errors = _race(actions)
        assert not errors, errors
        moves = _moves_for_turn(app, game_id, seq)
        assert len(moves) == 1, f"round {_round}: {moves}"
        if set(pair) <= ROBOTS:
            assert moves[0][1] == TIMEOUT  # whichever robot path won, the robot moved
        after, _ = _state(app, game_id)
        assert asked(after, 0).turn > turn
        assert len(outbox(app)) > sent  # the loser's answer or the next turn's email
        raced += 1
        with app.app_context():
            _pass_first(app, game_id)  # a new hand may have begun
    assert raced >= 2
