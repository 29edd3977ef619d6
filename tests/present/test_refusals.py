"""The engine's refusals in words (pbem.present.refusals): every code the engine raises has
its message, and the English is the engine's former wording."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.engine import (
    Bid,
    Card,
    IllegalMove,
    NotYourTurn,
    PlayCard,
    UnreadableInput,
    WrongPhase,
    parse_card,
)
from pbem.present import refusals
from pbem.present.refusals import explain

ENGINE = Path(__file__).resolve().parents[2] / "pbem" / "engine"
_RAISED = re.compile(r'(?:UnreadableInput|IllegalMove|NotYourTurn|WrongPhase)\(\s*"(\w+)"'
                     r'|_require\(\w+, "(\w+)"\)|return "(\w+)", \{')
_DECODE = {"event_not_object", "unknown_event_type", "event_version", "event_fields",
           "malformed_event", "snapshot_version", "malformed_snapshot"}


def _codes() -> set[str]:
    found: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        if path.name == "describe.py":  # the rules' facts: pbem.present.rules_words
            continue
        for match in _RAISED.finditer(path.read_text(encoding="utf-8")):
            found.add(next(g for g in match.groups() if g))
    return found


def test_every_code_the_engine_raises_has_its_words() -> None:
    known = set(refusals._MESSAGES) | set(refusals._REASONS)
    reasons = {"must_follow_suit", "opening_lead_card", "opening_lead_club", "forced_queen",
               "forced_queen_discard", "no_points_first_trick", "hearts_not_broken",
               "hearts_not_broken_lead_queen", "no_points_first_trick_avoid",
               "avoid_not_broken", "cannot_play_now"}
    codes = _codes() - _DECODE
    assert reasons <= codes
    phases = {"waiting_pass", "waiting_play"}  # phase_facts' own
    assert not (codes | phases) - known


@pytest.mark.parametrize(("error", "names", "words"), [
    (IllegalMove("not_held", cards=(Card.parse("AS"),), hand=(Card.parse("2C"),
                                                             Card.parse("3D"))), (),
     "You don't hold AS. Your hand: 2C and 3D."),
    (IllegalMove("opening_lead_card", card=Card.parse("3C"), legal=(Card.parse("2C"),),
                 opening=Card.parse("2C")), (),
     "The first trick opens with 2C. You can play 2C."),
    (NotYourTurn("not_your_turn_play", waiting=0), ("Bob", "Ann"),
     "It's not your turn: we're waiting for Bob to play."),
    (IllegalMove("bid_too_low", leader=0, high=1), (),
     "seat 1 already bid 1: bid more than 1 chip, or pass."),
    (IllegalMove("pass_count", count=3, cards=(Card.parse("2C"), Card.parse("3C"))), (),
     "Pass exactly three cards; you named 2: 2C and 3C."),
    (WrongPhase("no_passing", variant="auction"), (), "Nobody passes cards in Auction Hearts."),
    (IllegalMove("no_claims", variant="domino"), (),
     "Claims aren't part of Domino Hearts here: please play on."),
])
def test_the_english_is_the_engines_former_wording(error: Exception, names: tuple[str, ...],
                                                  words: str) -> None:
    assert isinstance(error, IllegalMove | NotYourTurn | WrongPhase)
    assert explain(error, names) == words


def test_an_unreadable_card_quotes_what_was_written() -> None:
    with pytest.raises(UnreadableInput) as refused:
        parse_card("Q")
    assert explain(refused.value) == "“Q” has no suit: did you mean QC, QD, QH or QS?"


def test_words_made_above_the_engine_are_given_back_as_they_are() -> None:
    assert explain(UnreadableInput("worded", words="Name the card to play.")) == \
        "Name the card to play."


def test_commands_are_the_engines_own() -> None:  # a smoke test of the imports
    assert PlayCard(0, Card.parse("QS")).seat == 0 and Bid(1, None).chips is None
