"""Deadlines: reminders once at the chosen points, timeouts by the game's policy, weekends,
vacations, the bot holding a seat until its player is back."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from pbem.engine import Phase, legal_cards
from pbem.present.service_words import explain_outcome
from pbem.service import (
    BadRequest,
    CommandRejected,
    Invitee,
    NotAllowed,
    pass_cards,
    play_card,
    replace_seat,
    resume_game,
    set_away,
    timeout_move,
)
from pbem.service.deadlines import add_time, stretch
from pbem.service.policy import DeadlinePolicy
from tests.scheduler.conftest import START, MakeTable, Table, email

PARIS = ZoneInfo("Europe/Paris")


def test_policy_defaults_and_bad_values_fall_back() -> None:
    assert DeadlinePolicy.from_dict({}).to_dict() == {
        "move_hours": 48.0, "reminders": [0.5, 0.8], "skip_weekends": False,
        "grace_minutes": 0, "on_timeout": "bot", "bot_after_timeouts": 3,
        "vacation": "stretch"}
    odd = DeadlinePolicy.from_dict({"move_hours": -1, "on_timeout": "explode",
                                    "reminders": [2, 0.25, "x"], "vacation": "bot"})
    assert (odd.move_hours, odd.on_timeout, odd.reminders, odd.vacation) == (
        48.0, "bot", (0.25,), "bot")


def test_each_pending_pass_gets_a_deadline_and_the_pass_email_shows_it(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, zones={0: "Europe/Paris"})
    rows = t.deadlines()
    assert [(d.seat_no, d.kind, d.due_at) for d in rows] == [
        (0, "pass", START + timedelta(hours=48)), (1, "pass", START + timedelta(hours=48))]
    assert rows[0].next_reminder_at == START + timedelta(hours=24)
    (ann_pass,) = t.mail_to("pass", 0)
    assert "Pass by Friday 4 December 2026, 10:00 CET (Europe/Paris)" in ann_pass.body_text


def test_a_move_closes_its_deadline_and_the_next_turn_gets_one(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    pass_cards(t.ctx, t.game_id, 0, t.state().hand(0)[:3])
    assert [d.status for d in t.deadlines(None)][0] == "done"
    state = t.state()
    if 0 in state.to_move:  # the robots played up to Ann's turn
        assert [(d.seat_no, d.kind) for d in t.deadlines()] == [(0, "play")]
    else:
        assert t.deadlines() == []


def test_reminders_fire_once_at_half_and_four_fifths_of_the_time(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    assert t.tick(23.9).reminders == []
    assert len(t.tick(24).reminders) == 1
    assert t.tick(24.5).reminders == []  # not twice
    assert t.tick(38).reminders == []
    assert len(t.tick(38.4).reminders) == 1
    assert t.tick(47).reminders == []
    (first, second) = t.mail_to("reminder", 0)
    assert "please move by Friday 4 December 2026, 09:00 UTC" in first.body_text
    assert t.deadline(0).reminders_sent == 2 and t.deadline(0).next_reminder_at is None


def test_a_reminder_is_the_turn_email_again_with_the_hand_and_working_links(
        make_table: MakeTable) -> None:
    """Issue 37.9: not "your last turn email has the cards", but the cards: the hand, the
    pass page's one-time link (or each legal card's), and the reply line; its link works."""
    t = make_table(humans=1)
    t.tick(24)
    (reminder,) = t.mail_to("reminder", 0)
    text = reminder.body_text
    assert text.index("Reminder: \"Timed\" is still waiting for you") < text.index("Choose 3 cards")
    assert "Your hand:" in text and "pass " in text  # the hand, and how to reply
    assert "Reminder: Pass 3 cards to" in (reminder.body_html or "")  # its preheader
    link = re.search(r"https://hearts\.test/t/(\S+)", text)
    assert link is not None
    assert "Your last turn email has the cards" not in text


def test_reminder_points_passed_together_give_one_reminder(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    assert len(t.tick(40).reminders) == 1  # the worker was down at 24 h and 38.4 h
    assert t.tick(41).reminders == []
    assert len(t.mail("reminder")) == 1


def test_a_passed_deadline_plays_the_bots_move_once_and_everyone_is_told(
        make_table: MakeTable) -> None:
    t = make_table(humans=2)
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])  # Bob passes in time
    before = t.event_types().count("cards_passed")
    assert t.tick(47.9).timeouts == []
    assert len(t.tick(48).timeouts) == 1
    assert t.tick(49).timeouts == []  # once only
    assert t.event_types().count("cards_passed") == before + 1
    assert t.state().phase is not Phase.PASS
    (to_ann,) = t.mail_to("timeout", 0)
    (to_bob,) = t.mail_to("timeout", 1)
    assert "the robot passed" in to_ann.body_text and "for you" in to_ann.body_text
    assert "Ann's move" in to_bob.body_text and "passed 3 cards" in to_bob.body_text
    assert [m.body_text for m in t.mail_to("move_confirmed", 0)] == []  # no "Got it"
    assert t.seat(0).timeouts_in_row == 1 and not t.seat(0).bot_holding
    assert t.deadlines("expired")[0].seat_no == 0


def test_a_grace_period_delays_the_timeout(make_table: MakeTable) -> None:
    t = make_table(humans=1, policy={"grace_minutes": 30})
    assert t.tick(48.4).timeouts == []
    assert len(t.tick(48.5).timeouts) == 1


def test_a_move_racing_the_timeout_wins_cleanly(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    row = t.deadline(0)
    t.clock.at(48)
    pass_cards(t.ctx, t.game_id, 0, t.state().hand(0)[:3])  # just in time
    seq = t.state()
    out = timeout_move(t.ctx, t.game_id, 0, row.turn_seq)
    assert out.duplicate and t.state() == seq
    assert t.mail("timeout") == []
    assert t.seat(0).timeouts_in_row == 0


def test_the_pause_policy_pauses_the_game_until_it_is_resumed(make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"on_timeout": "pause"})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(48)
    assert t.game().status == "paused" and t.deadlines() == []
    assert len(t.mail("timeout")) == 2
    paused = t.mail_to("timeout", 1)[0].body_text
    assert "the game is paused" in paused and 'press "Resume the game"' in paused
    with pytest.raises(NotAllowed):
        pass_cards(t.ctx, t.game_id, 0, t.state().hand(0)[:3])
    t.clock.at(60)
    resume_game(t.ctx, t.game_id)
    assert t.game().status == "active"
    assert t.deadline(0).due_at == START + timedelta(hours=60 + 48)


def test_the_open_seat_policy_offers_the_seat_and_the_robot_plays_meanwhile(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"on_timeout": "open_seat"})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(48)
    assert t.seat(0).bot_holding
    (to_bob,) = t.mail_to("timeout", 1)
    assert "Seat 1 is open for a new player" in to_bob.body_text
    assert "/join/" in to_bob.body_text
    assert "Your seat is open" in t.mail_to("timeout", 0)[0].body_text


def _bob_plays_until_ann_must_move(t: Table) -> None:
    for _ in range(60):
        state = t.state()
        if 0 in state.to_move or state.phase is not Phase.PLAY:
            return
        play_card(t.ctx, t.game_id, 1, legal_cards(state, 1)[0])


def test_after_n_timeouts_the_bot_holds_the_seat_until_the_player_moves(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"move_hours": 1, "bot_after_timeouts": 2})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(1)  # Ann's pass times out: 1
    assert t.seat(0).timeouts_in_row == 1 and not t.seat(0).bot_holding
    _bob_plays_until_ann_must_move(t)
    row = t.deadline(0)
    t.tick((row.due_at - START).total_seconds() / 3600)  # Ann's card times out: 2
    assert t.seat(0).bot_holding
    assert "until you come back" in t.mail_to("timeout", 0)[-1].body_text
    _bob_plays_until_ann_must_move(t)
    assert 0 not in t.state().to_move  # the robot plays Ann's turns at once
    assert t.deadlines() == [] or all(d.seat_no == 1 for d in t.deadlines())
    with pytest.raises(CommandRejected):  # Ann is back: her card is refused, her seat is hers
        play_card(t.ctx, t.game_id, 0, "2C")
    assert not t.seat(0).bot_holding and t.seat(0).timeouts_in_row == 0
    _bob_plays_until_ann_must_move(t)
    if t.state().phase is Phase.PLAY:
        assert 0 in t.state().to_move and t.deadline(0).kind == "play"


def test_moving_in_time_resets_the_count_of_timeouts(make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"move_hours": 1})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(1)
    assert t.seat(0).timeouts_in_row == 1
    _bob_plays_until_ann_must_move(t)
    state = t.state()
    play_card(t.ctx, t.game_id, 0, legal_cards(state, 0)[0])
    assert t.seat(0).timeouts_in_row == 0


def test_weekends_do_not_count_when_the_policy_skips_them() -> None:
    friday_noon = datetime(2026, 12, 4, 11, 0, tzinfo=UTC)  # 12:00 in Paris
    due = add_time(friday_noon, 24, PARIS, skip_weekends=True)
    assert due.astimezone(PARIS) == datetime(2026, 12, 7, 12, 0, tzinfo=PARIS)  # Monday
    assert add_time(friday_noon, 24, PARIS, skip_weekends=False) == friday_noon + timedelta(1)
    saturday = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
    assert add_time(saturday, 2, PARIS, True).astimezone(PARIS) == datetime(
        2026, 12, 7, 2, 0, tzinfo=PARIS)


def test_a_game_that_skips_weekends_gives_more_time_over_one(make_table: MakeTable) -> None:
    t = make_table(humans=1, policy={"skip_weekends": True, "move_hours": 72},
                   zones={0: "Europe/Paris"})
    # Wednesday 10:00 in Paris + 72 weekday hours: Thursday, Friday, (weekend), Monday 10:00
    assert t.deadline(0).due_at.astimezone(PARIS) == datetime(2026, 12, 7, 10, 0, tzinfo=PARIS)


def test_away_days_stretch_a_deadline() -> None:
    start = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    due = start + timedelta(hours=48)
    away = [(date(2026, 12, 3), date(2026, 12, 4))]  # Thursday and Friday, in Paris
    stretched = stretch(start, due, away, PARIS)
    # Wednesday 10:00 -> midnight (14 h), away two days, then the 34 h left from Saturday 0:00
    assert stretched.astimezone(PARIS) == datetime(2026, 12, 6, 10, 0, tzinfo=PARIS)
    assert stretch(start, due, [], PARIS) == due


def test_setting_away_dates_stretches_pending_deadlines(make_table: MakeTable) -> None:
    t = make_table(humans=1, zones={0: "Europe/Paris"})
    set_away(t.ctx, t.player_id(0), date(2026, 12, 3), date(2026, 12, 4))
    assert t.deadline(0).due_at.astimezone(PARIS) == datetime(2026, 12, 6, 10, 0, tzinfo=PARIS)
    assert t.tick(48).timeouts == []


def test_a_deadline_a_move_opens_is_stretched_by_the_players_away_dates(
        make_table: MakeTable) -> None:
    """The command reads whether its players have away dates with the game: a player with
    some gets the stretched due time on the deadline the move opens."""
    t = make_table(humans=1, zones={0: "Europe/Paris"})
    set_away(t.ctx, t.player_id(0), date(2026, 12, 3), date(2026, 12, 4))
    pass_cards(t.ctx, t.game_id, 0, t.state().hand(0)[:3])
    assert 0 in t.state().to_move  # the robots passed and played up to Ann's card
    assert t.deadline(0).kind == "play"
    assert t.deadline(0).due_at.astimezone(PARIS) == datetime(2026, 12, 6, 10, 0, tzinfo=PARIS)


def test_with_the_vacation_bot_policy_the_bot_covers_an_away_player_at_once(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"vacation": "bot"})
    set_away(t.ctx, t.player_id(0), date(2026, 12, 2), date(2026, 12, 9))
    assert t.deadline(0).due_at == START
    assert len(t.tick(0.1).timeouts) == 1
    assert t.seat(0).timeouts_in_row == 0  # covering a holiday is no timeout
    assert "Ann is away" in t.mail_to("timeout", 1)[0].body_text
    assert t.state().has_passed(0)


def test_away_dates_must_make_sense(make_table: MakeTable) -> None:
    t = make_table(humans=1)
    with pytest.raises(BadRequest):
        set_away(t.ctx, t.player_id(0), date(2026, 12, 9), date(2026, 12, 2))
    with pytest.raises(BadRequest):
        set_away(t.ctx, t.player_id(0), date(2026, 11, 1), date(2026, 11, 2))


def test_deadline_mail_goes_to_each_players_address(make_table: MakeTable) -> None:
    t = make_table(humans=2)
    t.tick(24)
    assert sorted(m.to_addr for m in t.mail("reminder")) == [email(0), email(1)]


def test_a_newcomer_in_an_open_seat_plays_it_themself(make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"on_timeout": "open_seat"})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(48)
    assert t.seat(0).bot_holding
    replace_seat(t.ctx, t.game_id, 0, Invitee("eve@example.org", "Eve"))
    assert not t.seat(0).bot_holding and t.seat(0).timeouts_in_row == 0


def test_a_resumed_game_asks_the_waited_for_player_again_with_the_new_deadline(
        make_table: MakeTable) -> None:
    t = make_table(humans=2, policy={"on_timeout": "pause"})
    pass_cards(t.ctx, t.game_id, 1, t.state().hand(1)[:3])
    t.tick(48)
    asked_before = len(t.mail_to("pass", 0))
    assert t.mail_to("pass", 1) and len(t.mail_to("pass", 1)) == 1
    t.clock.at(60)
    resume_game(t.ctx, t.game_id)
    again = t.mail_to("pass", 0)
    assert len(again) == asked_before + 1  # Ann, who owes her pass, is asked again
    assert len(t.mail_to("pass", 1)) == 1  # Bob passed already: nothing new for him
    assert t.deadline(0).due_at == START + timedelta(hours=60 + 48)
    assert "Sunday 6 December" in again[-1].body_text  # the new deadline (+60 h, +48 h)
    twice = resume_game(t.ctx, t.game_id)  # not paused any more: a second does nothing
    assert twice.duplicate
    assert explain_outcome(twice) == "This game is not paused: it goes on already."
    assert len(t.mail_to("pass", 0)) == asked_before + 1
