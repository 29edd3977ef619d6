"""Planted blunders (issue 36): a player who otherwise plays as the heuristic robot makes two
plain mistakes a game in three games (the Q♠ led while a higher spade is out, a trick with the
Q♠ or two hearts on it taken when a lower card would have ducked it); the worker reviews each
game, and every planted blunder is on the summary page, under its hand, and in the player's
review email, in one line saying what was better and why. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import select

from pbem.app import db_engine
from pbem.bots import choose_event
from pbem.engine import Card, CardPlayed, Event, GameState, Phase, Suit, legal_cards
from pbem.scheduler.worker import review_finished_games
from pbem.service import Context, Invitee, create_game, make_rng
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import OutboxEmail, Player
from tests.scheduler.test_review import LINE, send

QUEEN = Card(12, Suit.SPADES)
PLAYERS = [Invitee("ann@example.org", "Ann", accepted=True),
           Invitee("bob@example.org", "Bob", accepted=True)]
Blunder = tuple[int, int, str]  # hand, trick, the card's symbol


def queen_led(state: GameState) -> Card | None:
    """Ann may lead the Q♠ while another hand holds a higher spade."""
    legal = legal_cards(state, 0)
    higher = any(c.suit is Suit.SPADES and c.rank > 12 for s in range(1, state.seats)
                 for c in state.hand(s))
    return QUEEN if not state.trick and QUEEN in legal and len(legal) > 1 and higher else None


def points_taken(state: GameState) -> Card | None:
    """Ann plays last to a trick with the Q♠ or two hearts on it and may take it or duck it."""
    cards = [Card.from_index(i) for _, i in state.trick]
    hearts = sum(c.suit is Suit.HEARTS for c in cards)
    if len(cards) != state.seats - 1 or (QUEEN not in cards and hearts < 2):
        return None
    led = cards[0].suit
    top = max(c.rank for c in cards if c.suit is led)
    mine = [c for c in legal_cards(state, 0) if c.suit is led]
    over, under = [c for c in mine if c.rank > top], [c for c in mine if c.rank < top]
    return max(over, key=lambda c: c.rank) if over and under else None


def ann_moves(state: GameState, planted: list[Blunder]) -> Event:
    """The heuristic's move, or a blunder (one a hand, two a game) when one is at hand."""
    hands = {hand for hand, _, _ in planted}
    if state.phase is Phase.PLAY and len(planted) < 2 and state.hand_number not in hands:
        card = queen_led(state) or points_taken(state)
        if card is not None and choose_event(state, 0) != CardPlayed(0, card):
            planted.append((state.hand_number, state.trick_number, card.symbol))
            return CardPlayed(0, card)
    return choose_event(state, 0)


def play_with_blunders(engine: Engine, seed: int) -> tuple[int, list[Blunder]]:
    ctx = Context(engine=engine, rng=make_rng(seed=seed))
    game_id = create_game(ctx, name=f"Blunders {seed}", players=PLAYERS, bot_seats=(2, 3),
                          options={"target": 40}, robot_strength="easy").game_id
    planted: list[Blunder] = []
    for _ in range(800):
        with transaction(engine, read_only=True) as session:
            state = load_state(session, game_id).state
        if state.game_over:
            return game_id, planted
        seat = state.to_move[0]
        event = ann_moves(state, planted) if seat == 0 else choose_event(state, seat)
        send(ctx, game_id, seat, event)
    raise AssertionError("the game did not end")


def hand_section(page: str, hand: int) -> str:
    start = page.index(f'aria-labelledby="hand-{hand}"')
    end = page.find("</section>", start)
    return page[start:end]


def test_every_planted_blunder_is_in_the_summary_and_the_email(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    with transaction(engine) as session:
        session.add(Player(email="bob@example.org", name="Bob", review_games=False))
    games = [play_with_blunders(engine, seed) for seed in (14, 22, 24)]
    assert [len(planted) for _, planted in games] == [2, 2, 2]
    assert sorted(review_finished_games(app)) == sorted(g for g, _ in games)
    client = app.test_client()
    for game_id, planted in games:
        page = client.get(f"/games/{game_id}/summary").get_data(as_text=True)
        with transaction(engine, read_only=True) as session:
            (mail,) = session.exec(select(OutboxEmail).where(
                OutboxEmail.kind == "review", OutboxEmail.game_id == game_id)).all()
        for hand, trick, card in planted:
            said = f"Trick {trick}: {card} "
            lines = [x for x in hand_section(page, hand).split("<li>") if said in x]
            assert len(lines) == 1 and LINE.search(lines[0]), (game_id, hand, said)
            assert "was better" in lines[0] and ("still out" in lines[0] or "took a trick of"
                                                 in lines[0])
            assert any(said in x and x.strip().startswith(f"- Hand {hand}.")
                       for x in mail.body_text.splitlines()), mail.body_text
