"""A real game for mail tests: players and seats in the database, events from the engine."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine
from sqlmodel import Session

from pbem.engine import (
    ALL_CARDS,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameCreated,
    GameState,
    HandDealt,
    apply,
    legal_cards,
    preset,
    start,
)
from pbem.store.models import Game, Player, Seat

PLAYERS = [
    ("ann@example.org", "Ann", "Europe/Paris", "each_trick"),
    ("bob@example.org", "Bob", "America/New_York", "each_hand"),
    ("cy@example.org", "Cy <script>alert(1)</script>", "Asia/Tokyo", "turn_only"),
    ("dee@example.org", "Dee", "UTC", "each_hand"),
]


@dataclass
class PlayedGame:
    """Holds the game's ids and its engine state; `step` appends events like the service."""

    game_id: int
    player_ids: list[int]
    state: GameState
    events: list[Event] = field(default_factory=list)

    def game(self, session: Session) -> Game:
        game = session.get(Game, self.game_id)
        assert game is not None
        return game

    def step(self, session: Session, *events: Event) -> tuple[Game, GameState, GameState]:
        """Apply events, bump last_seq; return (game, state_before, state_after)."""
        before = self.state
        for event in events:
            self.state = apply(self.state, event)
            self.events.append(event)
        game = self.game(session)
        game.last_seq += len(events)
        session.add(game)
        return game, before, self.state

    def play_legal(self) -> CardPlayed:
        seat = self.state.to_move[0]
        return CardPlayed(seat, legal_cards(self.state, seat)[0])

    def passes(self) -> list[CardsPassed]:
        n = self.state.rules.pass_count
        return [CardsPassed(s, self.state.hand(s)[-n:]) for s in range(self.state.seats)]


def deck() -> tuple[Card, ...]:
    return tuple(ALL_CARDS)


def create_game(engine: Engine, name: str = "Friday night") -> PlayedGame:
    from pbem.store.db import transaction

    rules = preset("standard")
    with transaction(engine) as session:
        players = [Player(email=e, name=n, time_zone=tz, notify=pref)
                   for e, n, tz, pref in PLAYERS]
        session.add_all(players)
        game = Game(name=name, preset="standard", rules=rules.to_dict(), engine_version="1",
                    status="active")
        session.add(game)
        session.flush()
        for seat, player in enumerate(players):
            session.add(Seat(game_id=game.id, seat_no=seat, player_id=player.id,
                             invite_status="accepted"))
        created = GameCreated(rules, 4, 0)
        game.last_seq = 1
        assert game.id is not None
        return PlayedGame(game.id, [p.id for p in players if p.id], start(created), [created])


def deal_event() -> HandDealt:
    return HandDealt(deck())
