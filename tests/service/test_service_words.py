"""The service speaks in codes (pbem.service.errors); every code it can say has its words in
pbem.present.service_words, English as the service wrote it before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.present import i18n
from pbem.present.service_words import (
    _SINCE,
    _WORDS,
    explain,
    name_problem,
    rating_reason,
    since_words,
)
from pbem.service import moves
from pbem.service.core import GAME_STATUSES, status_code
from pbem.service.errors import BadRequest, NotAllowed, NotFound, Said
from pbem.service.lobby import ONE_QUICK_TABLE, TABLE_FULL
from pbem.service.rematch import NOT_A_PLAYER

SERVICE = Path(__file__).resolve().parents[2] / "pbem" / "service"
# A code given as the first argument of an error or a Duplicate, or of a Said.
_CODE = re.compile(r"\b(?:BadRequest|NotFound|NotAllowed|NotOrganiser|EndsAtOnce|PlayerMistake"
                   r"|ServiceError|Duplicate|Said|Stale)\(\s*\"(\w+)\"")


def _codes_in_the_service() -> set[str]:
    found = {code for path in SERVICE.rglob("*.py") for code in _CODE.findall(path.read_text())}
    return found | {status_code(s) for s in (*GAME_STATUSES, "elsewhere")} | {
        "invitation_accepted", "invitation_declined", "name_too_long", "name_invisible",
        "address_non_ascii", "address_invalid", "address_too_long", TABLE_FULL,
        ONE_QUICK_TABLE, NOT_A_PLAYER}


def test_every_code_the_service_says_has_words() -> None:
    codes = _codes_in_the_service()
    assert len(codes) > 60
    made_up = {"invitation_", "not_yet"}  # "invitation_" + the answer; a Stale why
    assert sorted(codes - set(_WORDS) - made_up) == []


def test_every_reason_a_move_is_stale_has_words() -> None:
    whys = {*moves._SINCE.values(), "moved", "dealt", "timeout", "holding", "not_yet"}
    assert whys <= set(_SINCE)
    assert all(since_words(why) != why for why in whys)


@pytest.mark.parametrize(("error", "english"), [
    (NotAllowed(status_code("finished")), "This game is over."),
    (NotAllowed(status_code("inviting")),
     "This game hasn't started yet: not everyone has accepted the invitation."),
    (NotFound("no_seat", seat=5), "This game has no seat 5."),
    (BadRequest("player_count", players=4), "This game needs 4 players, robots included."),
    (BadRequest("unknown_zone", zone="Mars/Base"),
     "“Mars/Base” is not a time zone we know; give a city such as Berlin or New York, a "
     "zone such as Europe/Paris, or an offset such as GMT+1."),
    (BadRequest("name_too_long", most=60), "That name is too long (at most 60 characters)."),
    (moves.Stale("timeout"), "That was for an earlier turn, and the game has moved on: the "
     "deadline passed and a robot moved for you, so that move was not made. Nothing changed."),
])
def test_the_words_in_english_are_as_before(error: Exception, english: str) -> None:
    assert isinstance(error, BadRequest | NotAllowed | NotFound | moves.Stale)
    assert explain(error) == english


def test_an_unknown_code_reads_as_a_polite_refusal_and_a_duplicate_in_words() -> None:
    assert explain(Said("no_such_code")) == "Sorry, that can't be done now."
    assert explain(Said("bid_recorded", {"chips": 3})) == "Your bid of 3 was already recorded."


def test_names_and_rating_reasons() -> None:
    assert name_problem("x" * 61, "Seat 2: the name") == \
        "Seat 2: the name is too long (at most 60 characters)."
    assert rating_reason("rated:4") == "Rated: 4 people played it."
    assert rating_reason("too_few_people").startswith("Fewer than two seats")
    assert rating_reason("Rated: 3 people played it.") == "Rated: 3 people played it."  # old


def test_the_words_follow_the_language() -> None:
    with i18n.using("de"):
        said = explain(NotAllowed("game_finished"))
    assert said and "%(" not in said
