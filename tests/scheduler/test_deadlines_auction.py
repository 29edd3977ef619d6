"""Deadlines in Auction Hearts: each bid and the named suit is waited for, reminded of and,
when its time runs out, made by the robot like any other move."""

from __future__ import annotations

from pbem.engine import Phase
from pbem.service import bid, name_suit
from tests.scheduler.conftest import MakeTable


def test_auction_each_bidder_in_turn_gets_a_bid_deadline(make_table: MakeTable) -> None:
    t = make_table(humans=4, preset="auction")
    first = t.state().to_move[0]
    (row,) = t.deadlines()
    assert (row.kind, row.seat_no) == ("bid", first)
    bid(t.ctx, t.game_id, first, 2)
    (row,) = t.deadlines()
    assert (row.kind, row.seat_no) == ("bid", (first + 1) % 4)
    assert [d.seat_no for d in t.deadlines("done")] == [first]


def test_auction_the_winning_bidder_gets_a_deadline_to_name_the_suit(
        make_table: MakeTable) -> None:
    t = make_table(humans=4, preset="auction")
    first = t.state().to_move[0]
    for k in range(4):
        bid(t.ctx, t.game_id, (first + k) % 4, 3 if k == 1 else None)
    winner = (first + 1) % 4
    (row,) = t.deadlines()
    assert (row.kind, row.seat_no) == ("suit", winner)
    name_suit(t.ctx, t.game_id, winner, "clubs")
    (row,) = t.deadlines()
    assert (row.kind, row.seat_no) == ("play", winner)


def test_auction_a_bid_reminder_says_a_bid_is_awaited(make_table: MakeTable) -> None:
    t = make_table(humans=4, preset="auction")
    first = t.state().to_move[0]
    t.tick(25)
    (reminder,) = t.mail_to("reminder", first)
    assert "is still waiting for you" in reminder.body_text
    assert "your turn to bid" in reminder.body_text  # the bid email again, with its links
    assert "/t/" in reminder.body_text


def test_auction_a_bidder_out_of_time_has_the_robot_bid_and_everyone_is_told(
        make_table: MakeTable) -> None:
    t = make_table(humans=4, preset="auction")
    first = t.state().to_move[0]
    assert len(t.tick(48).timeouts) == 1
    state = t.state()
    assert state.bids[first] >= 0  # the robot bid or passed for them
    assert state.phase is Phase.BID and state.to_move == ((first + 1) % 4,)
    other = (first + 2) % 4
    (told,) = t.mail_to("timeout", other)
    assert "bid" in told.body_text
