"""One email per thing to do: a move made on a page (or link) sends its player no email of its
own; a reply's move is said in the next email its player gets from the same transaction, and
only when none goes to them in a short confirmation; the first play email of a hand names the
cards received in the pass; over a whole hand played by links a player gets at most one email
per card they play, plus the pass and the hand's result (benchmarks/emails_per_hand.py prints
the same figure)."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import Engine
from sqlmodel import select

from pbem import service
from pbem.engine import Phase, legal_cards
from pbem.present import views
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import OutboxEmail

NAMES = ("Ann", "Bob", "Cat", "Dan")


def four_people(engine: Engine) -> tuple[service.Context, int]:
    ctx = service.Context(engine=engine, rng=service.make_rng(7))
    players = [service.Invitee(f"{n.lower()}@example.org", n, accepted=True) for n in NAMES]
    return ctx, service.create_game(ctx, name="Four", players=players).game_id


def state(engine: Engine, game: int):  # type: ignore[no-untyped-def]
    with transaction(engine, read_only=True) as session:
        return load_state(session, game).state


def mails(engine: Engine) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).order_by(OutboxEmail.id)))  # type: ignore[arg-type]


def move(ctx: service.Context, engine: Engine, game: int) -> None:
    now = state(engine, game)
    seat = sorted(now.to_move)[0]
    if now.phase is Phase.PASS:
        service.pass_cards(ctx, game, seat, now.hand(seat)[:now.rules.pass_count])
    else:
        service.play_card(ctx, game, seat, legal_cards(now, seat)[0])


def test_a_whole_hand_played_by_links_sends_one_email_per_card_plus_pass_and_result(
        engine: Engine) -> None:
    ctx, game = four_people(engine)
    while state(engine, game).hand_number == 1:
        move(ctx, engine, game)
    counted = Counter((m.to_addr, m.kind) for m in mails(engine))
    for name in NAMES:
        mine = {kind: n for (addr, kind), n in counted.items()
                if addr == f"{name.lower()}@example.org"}
        assert "move_confirmed" not in mine, mine
        # the next hand's pass email and the one game_started email are not this hand's
        this_hand = sum(mine.values()) - mine.get("game_started", 0) - 1
        assert this_hand <= 13 + 1 + 1, mine


def test_a_replys_move_is_said_in_the_next_email_else_confirmed_alone(engine: Engine) -> None:
    ctx, game = four_people(engine)
    for _ in range(4):  # everyone passes: play begins
        move(ctx, engine, game)
    ctx.echo = True  # as mail-in's replies do
    before = len(mails(engine))
    now = state(engine, game)
    seat = now.turn
    service.play_card(ctx, game, seat, legal_cards(now, seat)[0])
    mine = [m for m in mails(engine)[before:]
            if m.to_addr == f"{NAMES[seat].lower()}@example.org"]
    assert [m.kind for m in mine] == ["move_confirmed"]  # nothing else went to them
    assert "you played 2♣" in mine[0].body_text


def test_the_first_play_email_of_a_hand_names_the_cards_received(engine: Engine) -> None:
    ctx, game = four_people(engine)
    for _ in range(4):
        move(ctx, engine, game)
    now = state(engine, game)
    first = [m for m in mails(engine) if m.kind == "turn"][0]
    seat = NAMES.index(first.to_addr.split("@")[0].capitalize())
    received = sorted(now.received_cards(seat))
    assert received and "You received " in first.body_text
    source = NAMES[now.pass_source(seat)]
    assert f"from {source}." in first.body_text
    for card in received:
        assert views.card_view(card).label in first.body_text
