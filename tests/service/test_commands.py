"""Service commands on real databases: create, invite, pass, play, duplicates, robots."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.engine import (
    CardPlayed,
    CardsPassed,
    GameCreated,
    GameState,
    HandDealt,
    Phase,
    legal_cards,
    replay,
    snapshot,
)
from pbem.mail import notify as mail_notify
from pbem.present.refusals import mistake_words
from pbem.present.service_words import explain_outcome
from pbem.service import (
    ROBOT,
    CommandRejected,
    Context,
    Invitee,
    NotAllowed,
    Outcome,
    accept_invite,
    create_game,
    decline_invite,
    make_rng,
    pass_cards,
    play_card,
    play_robot_turns,
    replace_seat,
    resign,
)
from pbem.service.core import robot_budget
from pbem.store.db import transaction
from pbem.store.events import load_events, load_state
from pbem.store.models import Event as EventRow
from pbem.store.models import Game, Player, Seat

PLAYERS = [Invitee(f"P{n}@Example.org", f"Player {n}") for n in range(4)]


@pytest.fixture
def ctx(engine: Engine) -> Context:
    return Context(engine=engine, rng=make_rng(seed=7))


@pytest.fixture
def recorded() -> Iterator[list[tuple[Any, ...]]]:
    """Calls of the notification hook (the hook is the mail layer's; here we only listen)."""
    calls: list[tuple[Any, ...]] = []
    saved = mail_notify.notify
    mail_notify.notify = lambda *args, **kwargs: calls.append((*args, kwargs))  # type: ignore
    yield calls
    mail_notify.notify = saved


def started_game(ctx: Context) -> Outcome:
    return create_game(ctx, name="Friday", players=[
        Invitee(p.email, p.name, accepted=True) for p in PLAYERS
    ])


def state_of(ctx: Context, game_id: int) -> GameState:
    with transaction(ctx.engine, read_only=True) as s:
        return load_state(s, game_id).state


def pass_all(ctx: Context, game_id: int) -> GameState:
    state = state_of(ctx, game_id)
    for seat in range(4):
        pass_cards(ctx, game_id, seat, state.hand(seat)[:3])
    return state_of(ctx, game_id)


def test_a_game_whose_players_all_accepted_is_dealt_at_once(ctx: Context) -> None:
    out = started_game(ctx)
    assert [type(e) for e in out.events] == [GameCreated, HandDealt]
    assert out.seq == 2 and out.state is not None and out.state.phase is Phase.PASS
    with transaction(ctx.engine) as s:
        game = s.get(Game, out.game_id)
        assert game is not None and game.status == "active" and game.last_seq == 2
        emails = s.exec(select(Player.email).order_by(col(Player.id))).all()
        assert emails == [f"p{n}@example.org" for n in range(4)]


def test_a_game_starts_when_the_last_invitation_is_accepted(ctx: Context) -> None:
    out = create_game(ctx, name="g", players=PLAYERS[:3], bot_seats=[3], robot_strength="easy")
    assert [type(e) for e in out.events] == [GameCreated]
    for seat in (0, 1):
        assert accept_invite(ctx, out.game_id, seat).events == ()
    last = accept_invite(ctx, out.game_id, 2)
    assert [type(e) for e in last.events] == [HandDealt, CardsPassed]  # the robot passed
    assert last.events[1].seat == 3  # type: ignore[union-attr]
    assert accept_invite(ctx, out.game_id, 2).duplicate


def test_moves_are_refused_before_the_game_starts(ctx: Context) -> None:
    out = create_game(ctx, name="g", players=PLAYERS)
    with pytest.raises(NotAllowed, match="game_inviting"):
        pass_cards(ctx, out.game_id, 0, "2C 3C 4C")


def test_declining_keeps_the_game_waiting_until_the_seat_is_replaced(ctx: Context) -> None:
    out = create_game(ctx, name="g", players=PLAYERS)
    for seat in (0, 1, 2):
        accept_invite(ctx, out.game_id, seat)
    assert decline_invite(ctx, out.game_id, 3).events == ()
    assert decline_invite(ctx, out.game_id, 3).duplicate
    started = replace_seat(ctx, out.game_id, 3, Invitee("new@example.org", "New", accepted=True))
    assert [type(e) for e in started.events] == [HandDealt]
    with pytest.raises(NotAllowed):
        accept_invite(ctx, out.game_id, 3, player_id=999)


def test_passing_the_same_cards_twice_is_answered_already_done(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    cards = state_of(ctx, game_id).hand(0)[:3]
    first = pass_cards(ctx, game_id, 0, cards)
    assert first.events == (CardsPassed(0, tuple(cards)),)
    again = pass_cards(ctx, game_id, 0, " ".join(str(c) for c in reversed(cards)))
    assert again.duplicate and again.seq == first.seq


def test_a_wrong_pass_is_rejected_with_a_sentence_and_changes_nothing(ctx: Context) -> None:
    out = started_game(ctx)
    with pytest.raises(CommandRejected) as err:
        pass_cards(ctx, out.game_id, 0, out.state.hand(0)[:2])  # type: ignore[union-attr]
    assert mistake_words(err.value).endswith(".")  # worded by the presentation
    assert state_of(ctx, out.game_id).has_passed(0) is False


def test_playing_the_same_card_twice_is_answered_already_played(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    state = pass_all(ctx, game_id)
    assert state.phase is Phase.PLAY
    seat = state.to_move[0]
    card = legal_cards(state, seat)[0]
    first = play_card(ctx, game_id, seat, card, turn_seq=state_seq(ctx, game_id))
    assert first.events[0] == CardPlayed(seat, card)
    again = play_card(ctx, game_id, seat, str(card), turn_seq=first.seq - len(first.events))
    assert again.duplicate and "already played" in explain_outcome(again)
    assert again.seq == first.seq


def state_seq(ctx: Context, game_id: int) -> int:
    with transaction(ctx.engine, read_only=True) as s:
        return load_state(s, game_id).seq


def test_out_of_turn_and_illegal_cards_are_rejected(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    state = pass_all(ctx, game_id)
    mover = state.to_move[0]
    other = (mover + 1) % 4
    with pytest.raises(CommandRejected):
        play_card(ctx, game_id, other, state.hand(other)[0])
    illegal = [c for c in state.hand(mover) if c not in legal_cards(state, mover)]
    with pytest.raises(CommandRejected):
        play_card(ctx, game_id, mover, illegal[0])
    with pytest.raises(CommandRejected):
        play_card(ctx, game_id, mover, "the joker")
    assert state_seq(ctx, game_id) == 2 + 4


def test_a_robot_game_plays_itself_to_the_end(ctx: Context) -> None:
    out = create_game(ctx, name="robots", bot_seats=range(4), robot_strength="easy")
    assert out.state is not None and not out.state.game_over  # one bounded chunk
    with transaction(ctx.engine) as s:
        actors = s.exec(select(EventRow.actor).where(EventRow.game_id == out.game_id)).all()
    assert actors.count(ROBOT) == robot_budget(4)
    while out.state is not None and not out.state.game_over:  # the worker's chunks
        out = play_robot_turns(ctx, out.game_id)
        assert not out.duplicate
    with transaction(ctx.engine) as s:
        game = s.get(Game, out.game_id)
        assert game is not None and game.status == "finished" and game.last_seq == out.seq
        loaded = load_state(s, out.game_id)
        assert loaded.snapshot_seq > 0  # the long log was cached
        full = replay(load_events(s, out.game_id))
    assert snapshot(loaded.state) == snapshot(full) == snapshot(out.state)


def test_a_resigned_player_is_replaced_by_a_robot_that_moves_at_once(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    state = state_of(ctx, game_id)
    for seat in (1, 2, 3):
        pass_cards(ctx, game_id, seat, state.hand(seat)[:3])
    out = resign(ctx, game_id, 0)
    assert isinstance(out.events[0], CardsPassed) and out.events[0].seat == 0
    assert resign(ctx, game_id, 0).duplicate
    with transaction(ctx.engine) as s:
        seat = s.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat_no == 0)).one()
        assert seat.is_bot and seat.player_id is not None


def test_the_seat_must_belong_to_the_player_who_asks(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    state = state_of(ctx, game_id)
    with pytest.raises(NotAllowed):
        pass_cards(ctx, game_id, 0, state.hand(0)[:3], player_id=12345)


def test_notify_hears_every_change_with_states_before_and_after(
    ctx: Context, recorded: list[tuple[Any, ...]]
) -> None:
    out = started_game(ctx)
    state = out.state
    assert state is not None
    pass_cards(ctx, out.game_id, 0, state.hand(0)[:3])
    (_s, game, before, after, events, kw), (_s2, _g2, before2, after2, events2, kw2) = recorded
    assert game.id == out.game_id and before is None and after.phase is Phase.PASS
    assert [type(e) for e in events] == [GameCreated, HandDealt]
    assert kw["actor"] is None and kw["now"].tzinfo is not None
    assert not before2.has_passed(0) and after2.has_passed(0) and len(events2) == 1
    assert kw2["actor"] == 0


def test_simultaneous_passes_all_succeed(ctx: Context) -> None:
    game_id = started_game(ctx).game_id
    state = state_of(ctx, game_id)
    errors: list[Exception] = []
    barrier = threading.Barrier(4)

    def pass_for(seat: int) -> None:
        barrier.wait()
        try:
            pass_cards(ctx, game_id, seat, state.hand(seat)[:3])
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=pass_for, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert state_of(ctx, game_id).phase is Phase.PLAY
