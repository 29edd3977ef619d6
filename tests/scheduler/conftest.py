"""Games with deadlines on a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.engine import GameState
from pbem.mail.compose import MailSettings
from pbem.scheduler.worker import DeadlineReport, process_deadlines
from pbem.service import Context, Invitee, create_game, make_rng
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Deadline, Event, Game, OutboxEmail, Player, Seat

SETTINGS = MailSettings(domain="hearts.test", base_url="https://hearts.test")
START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)  # a Wednesday
NAMES = ["Ann", "Bob", "Cy", "Di"]


@dataclass
class Clock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now

    def at(self, hours: float) -> datetime:
        """Set the time to START + `hours`."""
        self.now = START + timedelta(hours=hours)
        return self.now


@dataclass
class Table:
    """One game on a test clock, with helpers to look at what happened."""

    ctx: Context
    clock: Clock
    game_id: int

    @property
    def engine(self) -> Engine:
        return self.ctx.engine

    def tick(self, hours: float) -> DeadlineReport:
        """Move the clock to START + hours and run the worker's deadline scan once."""
        now = self.clock.at(hours)
        return process_deadlines(self.ctx, SETTINGS, now)

    def state(self) -> GameState:
        with transaction(self.engine, read_only=True) as s:
            return load_state(s, self.game_id).state

    def deadlines(self, status: str | None = "pending") -> list[Deadline]:
        with transaction(self.engine, read_only=True) as s:
            query = select(Deadline).where(Deadline.game_id == self.game_id)
            if status:
                query = query.where(Deadline.status == status)
            return list(s.exec(query.order_by(col(Deadline.id))))

    def deadline(self, seat: int) -> Deadline:
        (row,) = [d for d in self.deadlines() if d.seat_no == seat]
        return row

    def mail(self, kind: str) -> list[OutboxEmail]:
        with transaction(self.engine, read_only=True) as s:
            return list(s.exec(select(OutboxEmail).where(
                OutboxEmail.kind == kind).order_by(col(OutboxEmail.id))))

    def mail_to(self, kind: str, seat: int) -> list[OutboxEmail]:
        return [m for m in self.mail(kind) if m.to_addr == email(seat)]

    def event_types(self) -> list[str]:
        with transaction(self.engine, read_only=True) as s:
            return list(s.exec(select(Event.type).where(Event.game_id == self.game_id)
                               .order_by(col(Event.seq))))

    def seat(self, seat_no: int) -> Seat:
        with transaction(self.engine, read_only=True) as s:
            return s.exec(select(Seat).where(Seat.game_id == self.game_id,
                                             Seat.seat_no == seat_no)).one()

    def game(self) -> Game:
        with transaction(self.engine, read_only=True) as s:
            game = s.get(Game, self.game_id)
            assert game is not None
            return game

    def player_id(self, seat: int) -> int:
        pid = self.seat(seat).player_id
        assert pid is not None
        return pid


def email(seat: int) -> str:
    return f"{NAMES[seat].lower()}@example.org"


MakeTable = Callable[..., Table]


@pytest.fixture
def make_table(engine: Engine) -> MakeTable:
    """`make_table(humans=2, policy={...}, zones={0: "Europe/Paris"})`: a started game whose
    first `humans` seats are people (the rest robots), created at START."""

    def build(humans: int = 1, policy: Mapping[str, Any] | None = None,
              zones: Mapping[int, str] | None = None, preset: str = "standard") -> Table:
        clock = Clock()
        ctx = Context(engine=engine, rng=make_rng(seed=11), clock=clock)
        if zones:  # the players exist before the game, so their deadlines use their zone
            with transaction(engine) as s:
                for seat, zone in zones.items():
                    s.add(Player(email=email(seat), name=NAMES[seat], time_zone=zone))
        out = create_game(ctx, name="Timed", preset=preset, players=[
            Invitee(email(n), NAMES[n], accepted=True) for n in range(humans)
        ], bot_seats=range(humans, 4), deadline_policy=dict(policy or {}),
                          robot_strength="easy")  # fast robots: the timing is tested
        return Table(ctx, clock, out.game_id)

    return build
