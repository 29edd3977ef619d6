"""Whole-variant games for mail tests: played through the service, their outbox read back."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine
from sqlmodel import col, select

from pbem import service
from pbem.dealing import first_dealer
from pbem.engine import Card, GameState, Rules, deck_cards
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Game, OutboxEmail, Player, Seat, Token
from tests import helpers
from tests.web.support import CraftedDeal

NAMES = ("Ann", "Bob", "Cy <b>", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")


def address(seat: int) -> str:
    return f"{NAMES[seat].split()[0].lower()}@example.org"


@dataclass
class VariantGame:
    """A game of humans (but `bots`) that started at once; its commands go through the
    service, so every email is queued as in production."""

    engine: Engine
    game_id: int
    rules: Rules
    dealer: int
    ctx: service.Context = field(repr=False)

    @property
    def state(self) -> GameState:
        with transaction(self.engine, read_only=True) as session:
            return load_state(session, self.game_id).state

    def seat(self, offset: int) -> int:
        """The seat `offset` places left of the first dealer (1: who leads or bids first)."""
        return (self.dealer + offset) % self.rules.players

    def mails(self, kind: str | None = None, seat: int | None = None) -> list[OutboxEmail]:
        """The queued emails of this game, oldest first (of one kind, to one seat)."""
        with transaction(self.engine, read_only=True) as session:
            query = select(OutboxEmail).where(OutboxEmail.game_id == self.game_id)
            if kind is not None:
                query = query.where(OutboxEmail.kind == kind)
            if seat is not None:
                query = query.where(OutboxEmail.to_addr == address(seat))
            rows = list(session.exec(query.order_by(col(OutboxEmail.id))))
            session.expunge_all()
            return rows

    def last(self, kind: str, seat: int) -> OutboxEmail:
        found = self.mails(kind, seat)
        assert found, f"no {kind} email to seat {seat}"
        return found[-1]

    def link_codes(self, seat: int) -> list[str]:
        """The `card` of every one-time link made for `seat` at the game's latest move."""
        with transaction(self.engine, read_only=True) as session:
            game = session.get(Game, self.game_id)
            assert game is not None
            rows = session.exec(select(Token.card).where(
                Token.game_id == self.game_id, Token.seat_no == seat, Token.purpose == "card",
                Token.turn_seq == game.last_seq))
            return sorted(card for card in rows if card)

    def each_trick(self, *seats: int) -> None:
        """These players ask for an email after every trick."""
        with transaction(self.engine) as session:
            for seat in seats:
                row = session.exec(select(Seat).where(Seat.game_id == self.game_id,
                                                      Seat.seat_no == seat)).one()
                player = session.get(Player, row.player_id)
                assert player is not None
                player.notify = "each_trick"
                session.add(player)


def variant_game(engine: Engine, preset: str, *, seed: int = 2,
                 hands: dict[int, str] | None = None, rest: str = "",
                 options: dict[str, Any] | None = None, bots: Sequence[int] = ()
                 ) -> VariantGame:
    """A game of `preset`; `hands` (by offset from the dealer, 1 = the dealer's left) deals
    those cards (`QS'`: the second deck's copy) and `rest` puts those cards first after the
    hands (the Domino stock's top); the other cards fill up in deck order."""
    rules = service.make_rules(preset, options)
    dealer, _ = first_dealer(rules, random.Random(seed))
    rng: random.Random = random.Random(seed)
    if hands is not None:
        rng = CraftedDeal(seed, crafted_deck(rules, dealer, hands, rest))
    ctx = service.Context(engine=engine, rng=rng)
    humans = [s for s in range(rules.players) if s not in bots]
    out = service.create_game(
        ctx, name=f"“{preset}” <test>", preset=preset, options=options, bot_seats=bots,
        robot_strength="easy",
        players=[service.Invitee(address(s), NAMES[s], accepted=True) for s in humans])
    return VariantGame(engine, out.game_id, rules, dealer, ctx)


def crafted_deck(rules: Rules, dealer: int, hands: dict[int, str], rest: str) -> list[Card]:
    n, size = rules.players, rules.hand_size
    wanted = {(dealer + offset) % n: [Card.from_code(c) for c in text.split()]
              for offset, text in hands.items()}
    first = [Card.from_code(c) for c in rest.split()]
    taken = {c for hand in wanted.values() for c in hand} | set(first)
    spare = [c for c in deck_cards(rules) if c not in taken]
    for seat in range(n):
        hand = wanted.setdefault(seat, [])
        while len(hand) < size:
            hand.append(spare.pop(0))
    order = [wanted[(dealer + 1 + k) % n][k // n] for k in range(size * n)]
    return order + first + spare


def play(game: VariantGame, offset: int, card: str) -> None:
    service.play_card(game.ctx, game.game_id, game.seat(offset), card)


def play_first_legal(game: VariantGame) -> GameState:
    return helpers.play_first_legal(game.ctx, game.game_id)
