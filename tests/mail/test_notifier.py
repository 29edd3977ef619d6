"""The service's typed notices (pbem.service.notices) and the mail layer's Notifier: every
notice type is told by email (a real render through the mail layer), and a second Notifier,
plugged into the context, hears the same notices of a played game with no mail code at all."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.engine import GameState
from pbem.mail.jobs import rebuild
from pbem.mail.notifier import MailNotifier
from pbem.service import Context, Invitee, create_game, make_rng
from pbem.service.notices import (
    NOTICES,
    GameMoved,
    GameOver,
    GameStarted,
    HandOver,
    InvitationDeclined,
    InvitationReminderDue,
    InvitationsClosed,
    InvitationsSent,
    InvitationsUnanswered,
    Notice,
    Nudged,
    PlayerLeft,
    RecordingNotifier,
    SeatTakenOver,
    SigninRequested,
    TimedOut,
    TurnAsked,
    TurnsAskedAgain,
    game_notices,
)
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.mailjobs import Job
from pbem.store.models import Game, OutboxEmail, Seat
from pbem.store.types import utcnow
from tests.service.test_ratings import Clock, play_out

PEOPLE = [Invitee(f"p{n}@example.org", f"P{n}", accepted=True) for n in range(4)]


class Tables:
    """A game under way (four people) and one inviting (P0 organiser, P1 invited)."""

    def __init__(self, engine: Engine) -> None:
        ctx = Context(engine=engine, rng=make_rng(seed=4))
        self.active = create_game(ctx, name="Under way", players=PEOPLE).game_id
        self.inviting = create_game(ctx, name="Inviting", players=[
            PEOPLE[0], Invitee(PEOPLE[1].email, "P1")], bot_seats=(2, 3)).game_id


def _notice(kind: type, session: Any, t: Tables) -> Notice:  # noqa: C901 - one a type
    now = utcnow()
    active, inviting = session.get(Game, t.active), session.get(Game, t.inviting)
    state = load_state(session, t.active).state
    player_1 = session.exec(select(Seat.player_id).where(
        Seat.game_id == t.active, Seat.seat_no == 1)).one()
    if kind is GameMoved:
        job = Job(t.active, 0, active.last_seq, None, False, None, now, fresh=True)
        return GameMoved(job, active, rebuild(session, job))
    if kind is SigninRequested:
        return SigninRequested(None, "new@example.org", timedelta(minutes=30), now)
    if kind is InvitationsSent:
        return InvitationsSent(inviting, (1,), load_state(session, t.inviting).state.rules, now)
    if kind is InvitationDeclined:
        return InvitationDeclined(inviting, 1, now)
    if kind is InvitationsClosed:
        return InvitationsClosed(inviting, {1: player_1}, now)
    if kind is InvitationReminderDue:
        return InvitationReminderDue(inviting, 1, now)
    if kind is InvitationsUnanswered:
        return InvitationsUnanswered(inviting, 0, (1,), now)
    if kind is TurnsAskedAgain:
        return TurnsAskedAgain(active, state, now, now + timedelta(days=2))
    if kind is Nudged:
        waited = state.to_move[0]
        return Nudged(active, waited, (waited + 1) % 4, "your pass", None, now)
    if kind is TimedOut:
        return TimedOut(active, state.to_move[0], "open_seat", None, True, now)
    if kind is PlayerLeft:
        return PlayerLeft(active, 1, now)
    assert kind is SeatTakenOver
    return SeatTakenOver(active, 1, player_1, False, now)


@pytest.mark.parametrize("kind", NOTICES, ids=lambda kind: kind.__name__)
def test_every_notice_is_told_by_email(engine: Engine, kind: type) -> None:
    """Each notice, handed to the mail layer's notifier in a transaction, queues its emails
    (rendered from the real templates) in it."""
    tables = Tables(engine)
    with transaction(engine, read_only=True) as session:
        before = session.exec(select(col(OutboxEmail.id))).all()
    with transaction(engine) as session:
        notice = _notice(kind, session, tables)
        assert MailNotifier().notify(session, notice) is True
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail).where(
            col(OutboxEmail.id).not_in(before))).all()
    assert rows and all(row.subject and row.body_text for row in rows)


def test_the_notices_cover_the_union() -> None:
    assert set(NOTICES) == set(Notice.__args__)  # type: ignore[attr-defined]


def _play(engine: Engine, notifier: RecordingNotifier) -> tuple[int, GameState]:
    ctx = Context(engine=engine, rng=make_rng(seed=3), clock=Clock(), notifier=notifier,
                  mail_now=True)
    game_id = create_game(ctx, name="Heard", players=PEOPLE[:2], bot_seats=(2, 3),
                          options={"target": 26}, robot_strength="easy").game_id
    return game_id, play_out(ctx, game_id)


def _heard(notices: list[Notice]) -> list[tuple[Any, ...]]:
    """What the notices said, without the rows they carry."""
    out: list[tuple[Any, ...]] = []
    for notice in notices:
        if isinstance(notice, GameMoved):
            r = notice.rebuilt
            news = game_notices(r.before, r.after, r.events)
            out.append(("moved", notice.job.seq_before, notice.job.seq_after, notice.job.actor,
                        tuple((type(n).__name__, getattr(n, "seat", None)) for n in news)))
        else:
            out.append((type(notice).__name__,))
    return out


def _outbox(engine: Engine, game_id: int) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).where(OutboxEmail.game_id == game_id)))


def test_a_second_notifier_hears_the_same_game_without_mail(
        make_engine_for: Callable[[], Engine]) -> None:
    """The same game, played once with the mail layer listening (a recording notifier that
    hands on to it) and once with a recording notifier alone: the same notices, in the same
    order; the second game wrote no email (no mail code ran)."""
    mailed, alone = RecordingNotifier(then=MailNotifier()), RecordingNotifier()
    first, second = make_engine_for(), make_engine_for()
    game_a, end_a = _play(first, mailed)
    game_b, end_b = _play(second, alone)
    assert end_a.game_over and end_a.totals == end_b.totals
    assert _heard(mailed.notices) == _heard(alone.notices)
    heard = Counter(kind for entry in _heard(alone.notices) if entry[0] == "moved"
                    for kind, _seat in entry[4])
    assert heard[GameStarted.__name__] == 1 and heard[GameOver.__name__] == 1
    assert heard[HandOver.__name__] >= 1 and heard[TurnAsked.__name__] > 10
    assert _outbox(first, game_a) and _outbox(second, game_b) == []


@pytest.fixture
def make_engine_for(tmp_path: Any) -> Any:
    """Fresh SQLite databases, one an engine (the same ids in each)."""
    from pbem.store.db import make_engine
    from pbem.store.testing import create_tables

    made: list[Engine] = []

    def make() -> Engine:
        url = f"sqlite:///{tmp_path}/notices-{len(made)}.sqlite3"
        create_tables(url)
        made.append(make_engine(url))
        return made[-1]

    yield make
    for engine in made:
        engine.dispose()
