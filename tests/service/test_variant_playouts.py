"""Whole games of every whole variant through the service, on SQLite and PostgreSQL: one
player against the computers, moving as the bot would, half of it by timeouts (the robot moving
for them in every phase: bids, the named suit, plays); the stored log replays to the live state."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.bots import choose_event
from pbem.engine import (
    VARIANT_PRESETS,
    BidMade,
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    MoonChosen,
    Phase,
    SuitNamed,
    Variant,
    replay,
)
from pbem.service import (
    Context,
    Invitee,
    bid,
    choose_moon,
    create_game,
    make_rng,
    name_suit,
    pass_cards,
    play_card,
    timeout_move,
)
from pbem.store.db import transaction
from pbem.store.events import load_events, load_state
from pbem.store.models import Deadline, Game

ANN = Invitee("ann@example.org", "Ann", accepted=True)
# Small targets keep each game to a few hands.
TARGETS = {Variant.CANCELLATION: 20, Variant.DOMINO: 8, Variant.AUCTION: 8}
MAX_MOVES = 400


@dataclass
class Clock:
    now: datetime = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Playout:
    ctx: Context
    clock: Clock
    game_id: int
    timed_out: set[Phase] = field(default_factory=set)

    def state(self) -> GameState:
        with transaction(self.ctx.engine, read_only=True) as s:
            return load_state(s, self.game_id).state

    def move(self, state: GameState, by_timeout: bool) -> None:
        """Ann's move: the bot's choice, sent as her command or made by her timeout."""
        if by_timeout:
            self.time_out(state.phase)
        else:
            send(self.ctx, self.game_id, choose_event(state, 0))

    def time_out(self, phase: Phase) -> None:
        with transaction(self.ctx.engine, read_only=True) as s:
            (row,) = s.exec(select(Deadline).where(
                Deadline.game_id == self.game_id, Deadline.seat_no == 0,
                Deadline.status == "pending")).all()
        self.clock.now = row.grace_until
        out = timeout_move(self.ctx, self.game_id, 0, row.turn_seq)
        assert not out.duplicate
        self.timed_out.add(phase)


def send(ctx: Context, game_id: int, event: Event) -> None:
    """The service command a player would send for `event`."""
    if isinstance(event, CardPlayed):
        play_card(ctx, game_id, 0, event.card)
    elif isinstance(event, BidMade):
        bid(ctx, game_id, 0, event.chips)
    elif isinstance(event, SuitNamed):
        name_suit(ctx, game_id, 0, event.suit)
    elif isinstance(event, CardsPassed):
        pass_cards(ctx, game_id, 0, event.cards)
    else:
        assert isinstance(event, MoonChosen)
        choose_moon(ctx, game_id, 0, event.down)


def start(engine: Engine, name: str, seed: int = 5) -> Playout:
    clock = Clock()
    ctx = Context(engine=engine, rng=make_rng(seed=seed), clock=clock)
    rules = VARIANT_PRESETS[name].rules
    out = create_game(ctx, name=name, preset=name, players=[ANN],
                      bot_seats=range(1, rules.players),
                      options={"target": TARGETS[rules.variant]},
                      deadline_policy={"bot_after_timeouts": 10_000},
                      robot_strength="easy")  # the service flow, not the robot, is tested
    return Playout(ctx, clock, out.game_id)


def play_to_the_end(playout: Playout) -> GameState:
    state = playout.state()
    for moves in range(MAX_MOVES):
        if state.game_over:
            return state
        assert state.to_move == (0,), "the robots moved until Ann's turn"
        playout.move(state, by_timeout=state.phase is not Phase.PLAY or moves % 2 == 1)
        state = playout.state()
    raise AssertionError(f"no end after {MAX_MOVES} of Ann's moves")


@pytest.mark.parametrize("name", sorted(VARIANT_PRESETS))
def test_a_whole_variant_game_plays_to_the_end_and_replays(engine: Engine, name: str) -> None:
    playout = start(engine, name)
    state = play_to_the_end(playout)
    with transaction(engine, read_only=True) as s:
        game = s.get(Game, playout.game_id)
        assert game is not None and game.status == "finished"
        assert replay(load_events(s, playout.game_id)) == state
    assert max(state.totals) >= TARGETS[state.rules.variant]
    assert sum(state.chips) + state.pot == 0  # Auction's chips: nothing made or lost
    expected = {Phase.PLAY} | ({Phase.BID} if state.rules.variant is Variant.AUCTION else set())
    assert expected <= playout.timed_out
