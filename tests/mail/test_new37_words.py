"""Issue 37, item 11: "pays 1 chip", not "1 chips"; a game ended by agreement before any hand
was scored has no winner, in the engine and in the summary email alike."""

from __future__ import annotations

from sqlalchemy import Engine

from pbem.engine import EndVoted, GameCreated, VoteEnd, apply, decide, preset, start
from pbem.mail.gamemail import GameMail
from pbem.mail.results import summary_mail
from pbem.present import i18n
from pbem.present.views import _collects, _pays
from pbem.store.db import transaction
from tests.mail.game_support import create_game, deal_event
from tests.mailin.support import SETTINGS


def test_one_chip_is_singular_in_every_settlement_line() -> None:
    assert _pays("Ann", 1, True) == "Ann pays 1 chip"
    assert _pays("Ann", 2, True) == "Ann pays 2 chips"
    assert _collects("Bob", 1, True) == "Bob collects 1 chip"
    assert _pays("Ann", 1, False) == "Ann pays 1 point"
    with i18n.using("de"):
        assert _pays("Ann", 1, True) == "Ann zahlt 1 Chip"


def test_ended_by_agreement_before_any_hand_nobody_wins() -> None:
    rules = preset("standard")
    state = start(GameCreated(rules, 4, 0))
    for seat in range(4):
        (event,) = decide(state, VoteEnd(seat, True))
        assert event == EndVoted(seat, True)
        state = apply(state, event)
    assert state.game_over and state.ended_by_agreement and not state.sheet
    assert state.winners == ()


def test_the_summary_email_and_the_engine_agree_on_no_winner(engine: Engine) -> None:
    game = create_game(engine)
    with transaction(engine) as session:
        _row, _before, state = game.step(session, deal_event())
        for seat in range(4):
            (event,) = decide(state, VoteEnd(seat, True))
            _row, _before, state = game.step(session, event)
        assert state.winners == ()
        mail = GameMail.load(session, game.game(session), SETTINGS)
        sent = summary_mail(mail, state, 0, None)
    assert sent is not None
    assert "no winner" in sent.body_text
    assert " wins" not in sent.body_text and " win!" not in sent.body_text
