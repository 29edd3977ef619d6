"""Helpers for web tests: a demo game made by the service, its emails, links and forms."""

from __future__ import annotations

import random
import re
import socket
from collections.abc import MutableSequence, Sequence
from typing import Any

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.dealing import first_dealer
from pbem.engine import ALL_CARDS, Card, Event, GameState, Rules, Suit
from pbem.store.db import transaction
from pbem.store.events import event_count, load_events, load_state
from pbem.store.models import OutboxEmail, Token

HUMAN = service.Invitee(email="you@example.com", name="You", accepted=True)
BOT_SEATS = (1, 2, 3)
_CARD_LINE = re.compile(r"^[ \t]+\S+ \((\w\w)\)[ \t]+(https?://\S+/t/\S+)\r?$", re.MULTILINE)
_LINK = re.compile(r"https?://[^/\s]+(/(?:t|p)/[A-Za-z0-9_-]+(?:\?a=\w+)?)")
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def start_game(app: Flask, *, seed: int = 7, name: str = "Demo",
               human: service.Invitee = HUMAN, target: int = 26, strength: str = "easy") -> int:
    """A standard game, one human in seat 0 against three robots, dealt at once."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(seed))
        out = service.create_game(ctx, name=name, options={"target": target}, players=[human],
                                  bot_seats=BOT_SEATS, robot_strength=strength)
    return out.game_id


class CraftedDeal(random.Random):
    """A seeded generator whose first shuffle lays out `deck` (later shuffles are random)."""

    def __init__(self, seed: int, deck: Sequence[Card]) -> None:
        super().__init__(seed)
        self.decks = [list(deck)]

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        if self.decks:
            x[:] = self.decks.pop(0)
        else:
            super().shuffle(x)


def moon_game(app: Flask, *, seed: int = 7, options: dict[str, Any] | None = None,
              human: service.Invitee = HUMAN) -> tuple[int, int]:
    """A "club" game (the shooter chooses) of one human against three robots whose first hand
    lets the human shoot the moon: (game id, the human's seat).

    The human, left of the dealer (who leads under club rules), is dealt all 13 hearts; the
    robot passing to them holds AS KS QS and nothing else dangerous, so it passes those. The
    human passes 2H 3H 4H (see `shoot_the_moon`), then wins every trick: spades first, then
    hearts, which only the robot holding 2H 3H 4H can follow.
    """
    rules = service.make_rules("club", options)
    deck, seat = moon_deck(rules, seed)
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=CraftedDeal(seed, deck))
        out = service.create_game(ctx, name="Moon", preset="club", options=options,
                                  players=[human], bot_seats=[s for s in range(4) if s != seat],
                                  robot_strength="easy")  # the heuristic's known moves
    return out.game_id, seat


def moon_deck(rules: Rules, seed: int) -> tuple[list[Card], int]:
    """The first deal of `moon_game` (4 players) and the shooter's seat, for `seed`'s dealer."""
    dealer, _draw = first_dealer(rules, random.Random(seed))
    seat = (dealer + 1) % rules.players
    giver = (seat - rules.pass_offset(1)) % rules.players
    top = [Card.parse(c) for c in ("AS", "KS", "QS")]
    hearts = [c for c in ALL_CARDS if c.suit is Suit.HEARTS]
    minors = [c for c in ALL_CARDS if c.suit in (Suit.CLUBS, Suit.DIAMONDS)]
    rest = [c for c in ALL_CARDS if c.suit is Suit.SPADES and c not in top] + minors[10:]
    hands = {seat: hearts, giver: top + minors[:10]}
    for s in range(rules.players):
        if s not in hands:
            hands[s], rest = rest[:13], rest[13:]
    return [hands[(dealer + 1 + k) % 4][k // 4] for k in range(52)], seat


MOON_PASS = "2H 3H 4H"
MOON_PLAYS = ("AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H")


def shoot_the_moon(app: Flask, game_id: int, seat: int) -> None:
    """Pass 2H 3H 4H, then play AS, KS, QS and the hearts from the top (service commands)."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app))
        service.pass_cards(ctx, game_id, seat, MOON_PASS)
        for code in MOON_PLAYS:
            service.play_card(ctx, game_id, seat, code)


def outbox(app: Flask, kind: str | None = None) -> list[OutboxEmail]:
    with transaction(db_engine(app), read_only=True) as session:
        query = select(OutboxEmail).order_by(col(OutboxEmail.id))
        rows = list(session.exec(query))
    return [r for r in rows if kind is None or r.kind == kind]


def newest(app: Flask, kind: str) -> OutboxEmail:
    rows = outbox(app, kind)
    assert rows, f"no {kind} email in the outbox"
    return rows[-1]


def card_links(text: str) -> dict[str, str]:
    """{card code: link path} from a turn email's text part."""
    return {code: path_of(url) for code, url in _CARD_LINE.findall(text)}


def links(text: str) -> list[str]:
    """Every one-time link path (/t/..., /p/...) in a text."""
    return _LINK.findall(text)


def path_of(url: str) -> str:
    match = _LINK.search(url)
    assert match, url
    return match.group(1)


def csrf_of(html: str) -> str:
    match = _CSRF.search(html)
    assert match, "no CSRF token in the page"
    return match.group(1)


def events(app: Flask, game_id: int) -> list[Event]:
    with transaction(db_engine(app), read_only=True) as session:
        return load_events(session, game_id)


def count_events(app: Flask, game_id: int) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return event_count(session, game_id)


def state(app: Flask, game_id: int) -> GameState:
    with transaction(db_engine(app), read_only=True) as session:
        return load_state(session, game_id).state


def used_tokens(app: Flask) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return len(session.exec(select(Token).where(col(Token.used_at).is_not(None))).all())


def snapshot(app: Flask, game_id: int) -> tuple[int, int, int]:
    """What a request must not change: events, outbox rows, used tokens."""
    return count_events(app, game_id), len(outbox(app)), used_tokens(app)


def pass_cards(client, path: str, cards: Sequence[str] | None = None,  # type: ignore[no-untyped-def]
               count: int = 3):
    """GET the pass page, then POST the first `count` cards (or `cards`)."""
    page = client.get(path).get_data(as_text=True)
    chosen = list(cards) if cards is not None else re.findall(
        r'name="cards" value="(\w+)"', page)[:count]
    return client.post(path, data={"csrf_token": csrf_of(page), "cards": chosen})


def post_link(client, path: str):  # type: ignore[no-untyped-def]
    """GET a link's page, then press its button (POST with the page's CSRF token)."""
    page = client.get(path).get_data(as_text=True)
    return client.post(path, data={"csrf_token": csrf_of(page)})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_SEAT_LINK = re.compile(r"https?://[^/\s\"]+(/s/[A-Za-z0-9_-]+)")


def seat_path(text: str) -> str:
    """The private seat view's path (/s/...) in an email's text."""
    match = _SEAT_LINK.search(text)
    assert match, "no private seat link in the email"
    return match.group(1)


def count_tokens(app: Flask) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return len(session.exec(select(Token)).all())


def human_move(app: Flask, game_id: int, seat: int = 0) -> bool:
    """Make `seat`'s move (pass the first cards, play the first legal card) through the
    service; False when the seat has nothing to do."""
    from pbem.engine import Phase, legal_cards

    now = state(app, game_id)
    if seat not in now.to_move:
        return False
    with app.app_context():
        ctx = service.Context(engine=db_engine(app))
        if now.phase is Phase.PASS:
            service.pass_cards(ctx, game_id, seat, now.hand(seat)[:now.rules.pass_count])
        elif now.phase is Phase.MOON_CHOICE:
            service.choose_moon(ctx, game_id, seat, True)
        else:
            service.play_card(ctx, game_id, seat, legal_cards(now, seat)[0])
    return True


def finish_game(app: Flask, game_id: int, seat: int = 0) -> GameState:
    """Play `seat` (the only human) to the end of the game."""
    for _ in range(2000):
        if state(app, game_id).game_over:
            break
        assert human_move(app, game_id, seat)
    return state(app, game_id)


def played_before(app: Flask, *addresses: str) -> None:
    """People who took part before (signed in once), so invitations to them carry the
    game's and the players' names (pbem.service.recipients `took_part`): to an address that
    never did, nothing anyone typed is sent."""
    took_part_before(db_engine(app), *addresses)


def took_part_before(engine: Engine, *addresses: str) -> None:
    """`played_before`, given the database."""
    from pbem.present.tokens import insert_tokens, token_values
    from pbem.store.models import Player

    with transaction(engine) as session:
        for address in addresses:
            player = Player(email=address, name=address.split("@")[0].title())
            session.add(player)
            session.flush()
            _raw, row = token_values("signin", player_id=player.id)
            insert_tokens(session, [{**row, "used_at": row["created_at"]}])
