"""A game made on /new never waits forever for people, on SQLite and PostgreSQL: its open seats
wait as long as its organiser chose, counted from the organiser's confirmation (not from the
form), then the worker's top-up gives them to robots, and the declined seats too, in a game
with open seats or without (unanswered invitations still wait, and answering one clears its
reminder); "as long as it takes" never does. The organiser (only) may start it
at once with robots in every seat not taken, open or invited
and not accepted; that races safely with someone taking the last seat from the lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine

from pbem.service import (
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
from tests.service.test_lobby import context, people, race, seats_of, status
from tests.service.test_ratings import Clock

ANN = Invitee("ann@example.org", "Ann", accepted=True)  # the organiser, seat 1
BOB = Invitee("bob@example.org", "Bob")
CY = Invitee("cy@example.org", "Cy")
DI = Invitee("di@example.org", "Di")


def new_game(ctx: Context, *, wait: int | None, guests: tuple[Invitee, ...] = (),
             open_seats: tuple[int, ...] = (1, 2)) -> int:
    """As /new makes it: Ann organises (she confirms by email first), `guests` are invited
    once she has, `open_seats` wait `wait` minutes for people, the other seats are robots."""
    human = {0, *open_seats, *range(len(open_seats) + 1, len(open_seats) + 1 + len(guests))}
    return create_game(ctx, name="Friday", players=[ANN, *guests], confirm_first=True,
                       bot_seats=[s for s in range(4) if s not in human],
                       table=Table(open_seats=open_seats, fill_wait_minutes=wait)).game_id


def later(ctx: Context, minutes: int) -> None:
    assert isinstance(ctx.clock, Clock)
    ctx.clock.now += timedelta(minutes=minutes)


def test_open_seats_go_to_robots_when_the_wait_after_the_confirmation_is_over(
        engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=60)
    later(ctx, 600)  # the form was sent long ago: the wait has not started yet
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    accept_invite(ctx, game_id, 0)  # Ann confirms: now the open seats wait an hour
    later(ctx, 59)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    later(ctx, 1)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "active"
    assert [(s.is_bot, s.invite_status) for s in seats_of(engine, game_id)] == [
        (False, "accepted"), (True, "accepted"), (True, "accepted"), (True, "accepted")]


def test_at_the_wait_robots_take_the_declined_seats_and_unanswered_ones_still_wait(
        engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=60, guests=(BOB, CY), open_seats=(1,))  # Bob 3, Cy 4
    accept_invite(ctx, game_id, 0)
    decline_invite(ctx, game_id, 2)
    later(ctx, 60)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "inviting"
    cy = seats_of(engine, game_id)[3].player_id
    assert [(s.is_bot, s.invite_status) for s in seats_of(engine, game_id)] == [
        (False, "accepted"), (True, "accepted"), (True, "accepted"), (False, "invited")]
    assert lobby.due_tables(ctx) == []  # Cy's invitation waits for her answer: no write a tick
    assert lobby.top_up_tables(ctx) == []
    accept_invite(ctx, game_id, 3)
    assert status(engine, game_id) == "active" and seats_of(engine, game_id)[3].player_id == cy


def test_a_seat_declined_after_the_wait_goes_to_a_robot_at_the_next_top_up(
        engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=60, guests=(BOB,), open_seats=(1,))  # Bob in seat 3
    accept_invite(ctx, game_id, 0)
    later(ctx, 60)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "inviting"
    assert lobby.due_tables(ctx) == []  # only Bob's unanswered invitation is left
    decline_invite(ctx, game_id, 2)
    assert lobby.due_tables(ctx) == [game_id]
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "active"
    assert lobby.due_tables(ctx) == []


def test_a_declined_seat_alone_goes_to_a_robot_at_the_wait_and_the_game_starts(
        engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=240, guests=(BOB,), open_seats=(1,))  # Bob 3, seat 4 a robot
    (cid,) = people(engine, "Cid")
    accept_invite(ctx, game_id, 0)
    lobby.join_table(ctx, game_id, cid)  # the open seat is taken: only Bob's is left
    decline_invite(ctx, game_id, 2)
    later(ctx, 239)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    later(ctx, 1)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "active"
    assert [(s.player_id == cid, s.is_bot) for s in seats_of(engine, game_id)][1:3] == [
        (True, False), (False, True)]


def test_in_a_game_of_invitations_only_a_declined_seat_goes_to_a_robot_at_the_wait(
        engine: Engine) -> None:
    """No open seat: every seat but Ann's is invited. The wait she chose still counts from
    her confirmation; the seat Bob declined waits for it, then a robot takes it, and the game
    starts once Cy and Di have accepted (an unanswered invitation still waits)."""
    ctx = context(engine)
    game_id = new_game(ctx, wait=60, guests=(BOB, CY, DI), open_seats=())  # Bob 2, Cy 3, Di 4
    accept_invite(ctx, game_id, 0)
    decline_invite(ctx, game_id, 1)
    later(ctx, 59)
    assert lobby.due_tables(ctx) == [] and lobby.top_up_tables(ctx) == []
    assert [s.invite_status for s in seats_of(engine, game_id)] == [
        "accepted", "declined", "invited", "invited"]
    later(ctx, 1)
    assert lobby.top_up_tables(ctx) == [game_id] and status(engine, game_id) == "inviting"
    assert [(s.is_bot, s.invite_status) for s in seats_of(engine, game_id)] == [
        (False, "accepted"), (True, "accepted"), (False, "invited"), (False, "invited")]
    assert lobby.due_tables(ctx) == []  # only unanswered invitations left: not picked again
    later(ctx, 7 * 24 * 60)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"
    accept_invite(ctx, game_id, 2)
    assert status(engine, game_id) == "inviting"
    accept_invite(ctx, game_id, 3)
    assert status(engine, game_id) == "active"


def test_answering_an_invitation_clears_its_reminder_in_the_same_command(
        engine: Engine) -> None:
    """Bob accepts and Cy declines: neither is due a reminder any more, without waiting for
    the worker's look; the organiser's own word on who has not answered stays due."""
    ctx = context(engine)
    game_id = new_game(ctx, wait=60, guests=(BOB, CY, DI), open_seats=())
    accept_invite(ctx, game_id, 0)
    due = [s.invite_reminder_at is not None for s in seats_of(engine, game_id)]
    assert due == [True, True, True, True]  # Ann's word, and the three reminders
    accept_invite(ctx, game_id, 1)
    decline_invite(ctx, game_id, 2)
    due = [s.invite_reminder_at is not None for s in seats_of(engine, game_id)]
    assert due == [True, False, False, True]


def test_a_person_may_take_an_open_seat_before_the_wait_is_over(engine: Engine) -> None:
    (cid,) = people(engine, "Cid")
    ctx = context(engine)
    game_id = new_game(ctx, wait=240)
    with pytest.raises(NotAllowed, match="table_unconfirmed"):
        lobby.join_table(ctx, game_id, cid)  # not open before its organiser confirms it
    accept_invite(ctx, game_id, 0)
    lobby.join_table(ctx, game_id, cid)
    later(ctx, 240)
    assert lobby.top_up_tables(ctx) == [game_id]
    assert [(s.player_id, s.is_bot) for s in seats_of(engine, game_id)][1:3] == [
        (cid, False), (None, True)]


def test_waiting_as_long_as_it_takes_never_gives_the_seats_to_robots(engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=None)
    accept_invite(ctx, game_id, 0)
    later(ctx, 365 * 24 * 60)
    assert lobby.top_up_tables(ctx) == [] and status(engine, game_id) == "inviting"


def test_the_organiser_starts_now_with_robots_in_the_open_and_unanswered_seats(
        engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=None, guests=(BOB,), open_seats=(1,))
    (ann, bob) = (s.player_id for s in seats_of(engine, game_id)[::2][:2])
    assert ann is not None and bob is not None
    with pytest.raises(NotOrganiser):  # not before she has confirmed the game
        lobby.start_now(ctx, game_id, ann)
    accept_invite(ctx, game_id, 0)
    out = lobby.start_now(ctx, game_id, ann)
    assert not out.duplicate and status(engine, game_id) == "active"
    assert [(s.player_id, s.is_bot, s.invite_status) for s in seats_of(engine, game_id)] == [
        (ann, False, "accepted"), (None, True, "accepted"), (None, True, "accepted"),
        (None, True, "accepted")]  # Bob never answered: a robot has his seat
    with pytest.raises(NotAllowed, match="game_active"):
        lobby.start_now(ctx, game_id, ann)


def test_a_declined_seat_goes_to_a_robot_when_the_organiser_starts(engine: Engine) -> None:
    ctx = context(engine)
    game_id = new_game(ctx, wait=None, guests=(BOB,), open_seats=())
    accept_invite(ctx, game_id, 0)
    decline_invite(ctx, game_id, 1)
    ann = seats_of(engine, game_id)[0].player_id
    assert ann is not None
    lobby.start_now(ctx, game_id, ann)
    assert status(engine, game_id) == "active"
    assert [s.is_bot for s in seats_of(engine, game_id)] == [False, True, True, True]


def test_nobody_but_the_organiser_may_start_the_game_now(engine: Engine) -> None:
    (cid,) = people(engine, "Cid")
    ctx = context(engine)
    game_id = new_game(ctx, wait=60, guests=(BOB,))  # Bob in seat 4, seats 2 and 3 open
    accept_invite(ctx, game_id, 0)
    lobby.join_table(ctx, game_id, cid)
    accept_invite(ctx, game_id, 3)
    bob = seats_of(engine, game_id)[3].player_id
    assert bob is not None
    for someone in (cid, bob):  # players at the table, not its organiser
        with pytest.raises(NotOrganiser, match="start_with_robots"):
            lobby.start_now(ctx, game_id, someone)
    assert status(engine, game_id) == "inviting"
    assert [(s.is_bot, s.invite_status) for s in seats_of(engine, game_id)] == [
        (False, "accepted"), (False, "accepted"), (False, "open"), (False, "accepted")]


def test_starting_now_racing_a_join_for_the_last_open_seat(engine: Engine) -> None:
    """The organiser presses "start now" as Cid takes the last open seat: one of them is
    first, in the game's locked transaction. Either Cid sits and the organiser hears the
    game has started, or the robot sits and Cid hears the table is full; never both."""
    (cid,) = people(engine, "Cid")
    ctx = context(engine)
    for _round in range(3):
        race_for_the_last_seat(engine, ctx, cid)


def race_for_the_last_seat(engine: Engine, ctx: Context, cid: int) -> None:
    game_id = new_game(ctx, wait=60, open_seats=(1,))
    accept_invite(ctx, game_id, 0)
    ann = seats_of(engine, game_id)[0].player_id
    assert ann is not None
    started, joined = race(lambda: lobby.start_now(ctx, game_id, ann),
                           lambda: lobby.join_table(ctx, game_id, cid))
    seat = seats_of(engine, game_id)[1]
    assert status(engine, game_id) == "active"
    if isinstance(joined, Exception):
        assert str(joined) == lobby.TABLE_FULL and (seat.player_id, seat.is_bot) == (None, True)
        assert not isinstance(started, Exception)
    else:
        assert (seat.player_id, seat.is_bot) == (cid, False)
        assert isinstance(started, NotAllowed) and started.code == "game_active"
