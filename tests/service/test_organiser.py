"""Who organises a game is stored with it (game.organiser_id), on SQLite and PostgreSQL: /new's
first player, the quick-play or table asker, the rematch asker wherever they sit; nobody for a
game made with no organiser (the CLI, the demo). The organiser, not whoever sits in seat 1,
may start the game now; the lobby seats nobody until the organiser's own seat is accepted."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.service import (
    BadRequest,
    Context,
    Invitee,
    NotAllowed,
    NotOrganiser,
    accept_invite,
    create_game,
    decline_invite,
    lobby,
)
from pbem.service.games import Table
from pbem.service.rematch import ask_rematch
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail
from tests.service.test_lobby import context, people, seats_of, status
from tests.service.test_ratings import new_game, play_out

ANN, BOB = Invitee("ann@example.org", "Ann"), Invitee("bob@example.org", "Bob")
CY = Invitee("cy@example.org", "Cy")


def organiser_of(engine: Engine, game_id: int) -> int | None:
    with transaction(engine, read_only=True) as session:
        game = session.get(Game, game_id)
        assert game is not None
        return game.organiser_id


def player_ids(engine: Engine, game_id: int) -> list[int | None]:
    return [s.player_id for s in seats_of(engine, game_id)]


def test_a_new_game_is_organised_by_its_first_player(engine: Engine) -> None:
    """As /new makes it (confirm_first): the first player, asked to confirm it."""
    ctx = context(engine)
    game_id = create_game(ctx, name="Friday", players=[ANN, BOB], confirm_first=True,
                          bot_seats=[3], table=Table(open_seats=(2,))).game_id
    assert organiser_of(engine, game_id) == player_ids(engine, game_id)[0]


def test_a_game_made_without_an_organiser_has_none(engine: Engine) -> None:
    ctx = context(engine)
    game_id = create_game(ctx, name="Demo", players=[Invitee(ANN.email, "Ann", True)],
                          bot_seats=[1, 2, 3]).game_id
    assert organiser_of(engine, game_id) is None


def test_the_quick_play_asker_organises_the_table_and_a_joiner_does_not(
        engine: Engine) -> None:
    ann, bob = people(engine, "Ann", "Bob")
    ctx = context(engine)
    game_id = lobby.quick_play(ctx, ann, "standard", 24, 60)
    assert lobby.quick_play(ctx, bob, "standard", 24, 60) == game_id  # Bob joins Ann's table
    assert organiser_of(engine, game_id) == ann
    table = lobby.open_table(ctx, bob, name="Bob's", preset="standard")
    assert organiser_of(engine, table) == bob


def finished_game_of_three(engine: Engine) -> tuple[Context, int, list[int]]:
    """Ann, Bob and Cy in seats 1 to 3 (a robot in 4) played a game to its end."""
    ctx, game_id = new_game(engine, [Invitee(p.email, p.name, True) for p in (ANN, BOB, CY)])
    play_out(ctx, game_id)
    ids = player_ids(engine, game_id)[:3]
    assert None not in ids
    return ctx, game_id, [i or 0 for i in ids]


def test_the_rematch_asker_organises_it_wherever_they_sit(engine: Engine) -> None:
    ctx, old, (ann, bob, cy) = finished_game_of_three(engine)
    new = ask_rematch(ctx, old, bob)  # Bob sits in seat 2: seat 1 is Ann's
    assert player_ids(engine, new)[:3] == [ann, bob, cy]
    assert organiser_of(engine, new) == bob
    assert ask_rematch(ctx, old, ann) == new  # Ann asking too accepts it, nothing more
    assert organiser_of(engine, new) == bob


def test_the_rematch_asker_starts_it_now_and_the_one_who_has_not_answered_is_told(
        engine: Engine) -> None:
    ctx, old, (ann, bob, cy) = finished_game_of_three(engine)
    new = ask_rematch(ctx, old, bob)
    accept_invite(ctx, new, 0, player_id=ann)  # seat 1 accepted: that no longer makes Ann
    for other in (ann, cy):                    # the organiser, nor Cy (unanswered)
        with pytest.raises(NotOrganiser, match="start_with_robots"):
            lobby.start_now(ctx, new, other)
    assert status(engine, new) == "inviting"
    lobby.start_now(ctx, new, bob)
    assert status(engine, new) == "active"
    assert [(s.player_id, s.is_bot) for s in seats_of(engine, new)] == [
        (ann, False), (bob, False), (None, True), (None, True)]
    with transaction(engine, read_only=True) as session:
        closed = session.exec(select(OutboxEmail).where(
            OutboxEmail.game_id == new, OutboxEmail.kind == "invite_closed")).all()
    assert [m.to_addr for m in closed] == [CY.email]
    assert "Bob has started" in " ".join(closed[0].body_text.split())


def test_a_rematch_without_answers_waits_until_its_asker_starts_it(engine: Engine) -> None:
    """Nobody answers (one declines, one never does): the asker starts it; the decliner gets
    no more mail of the game."""
    ctx, old, (ann, bob, cy) = finished_game_of_three(engine)
    new = ask_rematch(ctx, old, cy)
    decline_invite(ctx, new, 0, player_id=ann)
    with pytest.raises(NotOrganiser):
        lobby.start_now(ctx, new, ann)
    lobby.start_now(ctx, new, cy)
    assert status(engine, new) == "active"
    assert [(s.player_id, s.is_bot) for s in seats_of(engine, new)] == [
        (None, True), (None, True), (cy, False), (None, True)]
    with transaction(engine, read_only=True) as session:
        closed = session.exec(select(OutboxEmail.to_addr).where(
            OutboxEmail.game_id == new, OutboxEmail.kind == "invite_closed")
            .order_by(col(OutboxEmail.id))).all()
    assert closed == [BOB.email]


def test_the_lobby_waits_for_the_organisers_own_seat_not_seat_one(engine: Engine) -> None:
    """A table whose organiser sits in seat 2: seat 1 unanswered does not keep people out,
    the organiser's own seat not yet accepted does."""
    (dee,) = people(engine, "Dee")
    ctx = context(engine)
    confirmed = create_game(ctx, name="Seat two", players=[BOB, Invitee(ANN.email, "Ann", True)],
                            organiser=1, table=Table(open_seats=(2, 3))).game_id
    assert organiser_of(engine, confirmed) == player_ids(engine, confirmed)[1]
    lobby.join_table(ctx, confirmed, dee)
    assert player_ids(engine, confirmed)[2] == dee
    waiting = create_game(ctx, name="Not yet", players=[Invitee(CY.email, "Cy", True), BOB],
                          organiser=1, table=Table(open_seats=(2, 3))).game_id
    with pytest.raises(NotAllowed, match="table_unconfirmed"):
        lobby.join_table(ctx, waiting, dee)


def test_the_organiser_is_one_of_the_players(engine: Engine) -> None:
    with pytest.raises(BadRequest, match="organiser_not_player"):
        create_game(context(engine), name="Nobody's", players=[ANN], bot_seats=[1, 2, 3],
                    organiser=1)


def test_the_organiser_declining_their_unconfirmed_game_cancels_it(engine: Engine) -> None:
    ctx = context(engine)
    game_id = create_game(ctx, name="Friday", players=[ANN, BOB], confirm_first=True,
                          bot_seats=[3], table=Table(open_seats=(2,))).game_id
    decline_invite(ctx, game_id, 0)
    assert status(engine, game_id) == "cancelled"
    with transaction(engine, read_only=True) as session:  # only the request to confirm
        assert [m.to_addr for m in session.exec(select(OutboxEmail))] == [ANN.email]
    assert lobby.open_tables(ctx) == []
    with pytest.raises(NotAllowed, match="game_cancelled"):
        accept_invite(ctx, game_id, 1)


def test_the_organiser_declining_a_confirmed_game_is_an_ordinary_decline(
        engine: Engine) -> None:
    """Once the organiser confirmed, an invitee's decline leaves the game waiting."""
    ctx = context(engine)
    game_id = create_game(ctx, name="Friday", players=[ANN, BOB], confirm_first=True,
                          bot_seats=[2, 3]).game_id
    accept_invite(ctx, game_id, 0)
    decline_invite(ctx, game_id, 1)
    assert status(engine, game_id) == "inviting"
