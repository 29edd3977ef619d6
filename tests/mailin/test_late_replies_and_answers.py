"""Answers that say what happened (QA findings 10 and 11): a reply that comes after its
deadline's robot moved for the player says so, naming the move, and what is asked now; status
in the pass phase says to whom the player passes; the pass example uses the player's cards;
an answer the per-address limit holds back is said in the message's stored reason and logged
once. On SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from sqlalchemy import Engine

from pbem.engine import CardsPassed, Phase, sort_cards
from pbem.mailin import replies
from pbem.mailin.process import deliver
from pbem.present import views
from pbem.scheduler.worker import process_deadlines
from pbem.service import Context, make_rng
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.types import utcnow
from tests.mailin import support
from tests.mailin.support import SETTINGS, emails, inbox, latest_token, reply, state_of
from tests.mailin.test_process import row

ANN_AT = "ann@example.org"


def deadlines_pass(engine: Engine) -> None:
    """The worker's deadline scan, long after every deadline: the robot moves for whoever
    was waited for."""
    later = utcnow() + timedelta(days=30)
    report = process_deadlines(Context(engine=engine, rng=make_rng(4), clock=lambda: later),
                               SETTINGS, later)
    assert report.timeouts


def passed_by(engine: Engine, game: int, seat: int) -> CardsPassed:
    with transaction(engine, read_only=True) as session:
        (passed,) = [e for e in load_events(session, game)
                     if isinstance(e, CardsPassed) and e.seat == seat]
    return passed


@pytest.mark.parametrize("same_cards", [False, True])
def test_a_reply_after_the_deadline_is_told_the_robot_moved_for_them(
    engine: Engine, same_cards: bool,
) -> None:
    game = support.two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    token = latest_token(engine, ANN_AT, "pass")
    deadlines_pass(engine)  # the robot passes for Ann (and Bob)
    robots = passed_by(engine, game, 0)
    cards = robots.cards if same_cards else [c for c in hand if c not in robots.cards][:3]
    seq = support.seq_of(engine, game)
    stored = deliver(inbox(engine), reply(token, "pass " + " ".join(map(str, cards))))
    assert support.seq_of(engine, game) == seq  # nothing played
    assert row(engine, stored.id).reason.startswith("stale: ")
    error = emails(engine, ANN_AT, "error")[-1].body_text
    said = views.move_words(robots)
    assert said is not None and said.startswith("passed ")
    assert (f"The deadline of that email passed before your reply came, and the robot {said} "
            "for you, so your move was not made.") in " ".join(error.split())
    assert "you have passed since" not in error and "already passed" not in error
    state = state_of(engine, game)
    if state.phase is Phase.PLAY and state.turn == 0:  # what she may do now: her cards
        assert "You may play now:" in error
    else:
        assert "Nothing is asked of you now" in " ".join(error.split())


def test_a_late_card_is_told_which_card_the_robot_played(engine: Engine) -> None:
    game = support.two_human_game(engine)
    seat, state = support.to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    token = latest_token(engine, me, "turn")
    mine = state.hand(seat)
    deadlines_pass(engine)
    with transaction(engine, read_only=True) as session:
        played = [e for e in load_events(session, game)
                  if getattr(e, "seat", None) == seat and type(e).__name__ == "CardPlayed"]
    robots = played[-1]
    other = next(c for c in mine if c != robots.card)
    deliver(inbox(engine), reply(token, str(other), sender=f"X <{me}>"))
    error = " ".join(emails(engine, me, "error")[-1].body_text.split())
    assert f"the robot {views.move_words(robots)} for you" in error


def test_status_in_the_pass_phase_says_whom_the_cards_go_to(engine: Engine) -> None:
    game = support.two_human_game(engine)
    state = state_of(engine, game)
    target = ["Ann", "Bob", "Robot 3", "Robot 4"][state.pass_target(0)]
    direction = views.direction_words(state.pass_offset, state.seats)
    token = latest_token(engine, ANN_AT, "pass")
    deliver(inbox(engine), reply(token, "status"))
    status = emails(engine, ANN_AT, "status")[-1]
    text = " ".join(status.body_text.split())
    assert f"It's your turn to pass 3 cards to {target}, {direction}." in text
    assert "passing cards" in text and "trick 1" not in text
    assert f"to {target}, {direction}" in status.body_html
    cards = " ".join(str(c) for c in state.hand(0)[:3])
    deliver(inbox(engine), reply(token, f"pass {cards}"))
    deliver(inbox(engine), reply(latest_token(engine, ANN_AT), "status"))
    text = " ".join(emails(engine, ANN_AT, "status")[-1].body_text.split())
    if state_of(engine, game).phase is Phase.PASS:  # Bob has not passed yet
        assert f"You passed your cards to {target}, {direction}. Waiting for Bob." in text


def test_the_pass_examples_use_the_players_own_cards(engine: Engine) -> None:
    game = support.two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    own = "pass " + " ".join(str(c) for c in sort_cards(hand)[:3])
    token = latest_token(engine, ANN_AT, "pass")
    deliver(inbox(engine), reply(token, "pass " + " ".join(str(c) for c in hand[:2])))
    wrong_count = " ".join(emails(engine, ANN_AT, "error")[-1].body_text.split())
    assert f"e.g. “{own}”" in wrong_count
    deliver(inbox(engine), reply(token, "pass"))
    no_cards = " ".join(emails(engine, ANN_AT, "error")[-1].body_text.split())
    assert f"Name the cards to pass, e.g. “{own}”" in no_cards
    if not {"2C", "3D", "AH"} <= {str(c) for c in hand}:
        assert "2C 3D AH" not in wrong_count + no_cards


def test_an_answer_held_back_by_the_limit_is_said_in_the_record_and_logged_once(
    engine: Engine, caplog: pytest.LogCaptureFixture,
) -> None:
    support.two_human_game(engine)
    token = latest_token(engine, ANN_AT, "pass")
    stored = [deliver(inbox(engine), reply(token, f"what is this {n}?")).id
              for n in range(replies.ANSWER_LIMIT)]
    assert all("no answer sent" not in (row(engine, i).reason or "") for i in stored)
    caplog.set_level(logging.INFO, logger="pbem.mailin.process")
    over = deliver(inbox(engine), reply(token, "what is this, again?")).id
    assert len(emails(engine, ANN_AT, "error")) == replies.ANSWER_LIMIT
    reason = row(engine, over).reason or ""
    assert reason.startswith("unreadable: ")
    assert reason.endswith(f"; no answer sent: {replies.ANSWER_LIMIT} answers an hour already "
                           "went to this address")
    logged = [r for r in caplog.records if r.levelno == logging.INFO
              and "no answer sent" in r.getMessage()]
    assert len(logged) == 1 and str(over) in logged[0].getMessage()
