"""Rematch (issue 19): a person who played a finished game asks to play again with the same
players; the new game has the same rules, pace and seats, robots accept at once, the others
are invited by email, and it starts when everyone has accepted. One rematch per game, even
when two players ask at the same moment; asking for it again accepts it."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.service import Context, Invitee, NotAllowed, accept_invite
from pbem.service.rematch import ask_rematch, rematch_of
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Seat
from tests.service.test_lobby import race
from tests.service.test_ratings import ANN, BOB, new_game, play_out


def seats(engine: Engine, game_id: int) -> list[tuple[int | None, bool, str]]:
    with transaction(engine, read_only=True) as session:
        return [(s.player_id, s.is_bot, s.invite_status) for s in session.exec(
            select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.seat_no)))]


def game(engine: Engine, game_id: int) -> Game:
    with transaction(engine, read_only=True) as session:
        found = session.get(Game, game_id)
        assert found is not None
        return found


def finished(engine: Engine) -> tuple[Context, int, int, int]:
    ctx, game_id = new_game(engine, [ANN, BOB])
    play_out(ctx, game_id)
    ann, bob = (p or 0 for p, _bot, _ in seats(engine, game_id)[:2])
    return ctx, game_id, ann, bob


def test_a_rematch_has_the_same_players_and_starts_when_everyone_accepts(
        engine: Engine) -> None:
    ctx, old, ann, bob = finished(engine)
    new = ask_rematch(ctx, old, ann)
    assert new != old and rematch_of(ctx, old) == new
    made = game(engine, new)
    assert made.status == "inviting" and made.rules == game(engine, old).rules
    assert made.deadline_policy == game(engine, old).deadline_policy
    assert seats(engine, new) == [(ann, False, "accepted"), (bob, False, "invited"),
                                  (None, True, "accepted"), (None, True, "accepted")]
    with transaction(engine, read_only=True) as session:
        invites = session.exec(select(OutboxEmail.to_addr).where(
            OutboxEmail.game_id == new, OutboxEmail.kind == "invite")).all()
    assert invites == ["bob@example.org"]
    assert ask_rematch(ctx, old, ann) == new
    accept_invite(ctx, new, 1, player_id=bob)
    assert game(engine, new).status == "active"


def test_two_players_asking_at_once_get_one_rematch_which_both_accepted(
        engine: Engine) -> None:
    ctx, old, ann, bob = finished(engine)
    results = race(lambda: ask_rematch(ctx, old, ann),
                   lambda: ask_rematch(ctx, old, bob))
    assert results[0] == results[1] and isinstance(results[0], int)
    with transaction(engine, read_only=True) as session:
        assert len(session.exec(select(Game).where(Game.rematch_of == old)).all()) == 1
    assert game(engine, results[0]).status == "active"


def test_only_players_of_a_finished_game_may_ask(engine: Engine) -> None:
    ctx, old, _ann, _bob = finished(engine)
    with pytest.raises(NotAllowed, match="rematch_not_player"):
        ask_rematch(ctx, old, 999)
    ctx2, running = new_game(engine, [Invitee("cid@example.org", "Cid", True)], seed=9)
    (cid, _bot, _) = seats(engine, running)[0]
    with pytest.raises(NotAllowed, match="rematch_not_over"):
        ask_rematch(ctx2, running, cid or 0)


def test_a_non_player_is_refused_even_once_the_rematch_exists(engine: Engine) -> None:
    """Not "you're in" with no seat: asking is the players' alone, before and after."""
    ctx, old, ann, _bob = finished(engine)
    new = ask_rematch(ctx, old, ann)
    outsider = new_game(engine, [Invitee("gina@example.org", "Gina", True)], seed=5)[1]
    (gina, _bot, _) = seats(engine, outsider)[0]
    with pytest.raises(NotAllowed, match="rematch_not_player"):
        ask_rematch(ctx, old, gina or 0)
    assert gina not in [p for p, _b, _s in seats(engine, new)]
