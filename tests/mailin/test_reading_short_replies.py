"""A single card named once in a short reply is a move, however people write it (issue 37.8):
rank and suit words without "of", polite words around the card in the languages people
write, "I'll play the QS"; and the away dates the player's own page suggests
(`2026-12-24..2026-12-31`) and German ones (`Urlaub 20.-27. Dezember`) are read. Cards inside
longer sentences stay questions, never guesses."""

from __future__ import annotations

from datetime import date

import pytest

from pbem.mailin.commands import away_dates, read_commands

SHORT_MOVES = [
    ("king spades", "play KS"),
    ("ten hearts", "play TH"),
    ("10c thx", "play TC"),
    ("5C proszę", "play 5C"),
    ("KS bitte", "play KS"),
    ("QS merci", "play QS"),
    ("I'll play the QS", "play QS"),
    ("I’ll play QS", "play QS"),
    ("let me play the 10 of hearts", "play TH"),
    ("play the queen of spades", "play QS"),
    ("I will pass 2C 3D AH", "pass 2C 3D AH"),
]


@pytest.mark.parametrize(("text", "move"), SHORT_MOVES, ids=[t for t, _ in SHORT_MOVES])
def test_a_single_card_named_once_in_a_short_reply_is_a_move(text: str, move: str) -> None:
    reading = read_commands(text)
    assert reading.ok and reading.action is not None, reading.problem
    assert reading.action.describe() == move


@pytest.mark.parametrize("text", ["my 7D all day", "I'll play the queen of spades, not AH",
                                  "3D printing is fun"])
def test_cards_inside_longer_sentences_are_still_never_guessed(text: str) -> None:
    assert read_commands(text).action is None


@pytest.mark.parametrize(("text", "dates"), [
    ("away 2026-12-24..2026-12-31", (date(2026, 12, 24), date(2026, 12, 31))),
    ("Urlaub 20.-27. Dezember", (date(2026, 12, 20), date(2026, 12, 27))),
    ("vacances 3-9 août", (date(2027, 8, 3), date(2027, 8, 9))),
    ("vacaciones 1-14 agosto", (date(2027, 8, 1), date(2027, 8, 14))),
    ("vakantie 2 mei - 9 mei 2027", (date(2027, 5, 2), date(2027, 5, 9))),
])
def test_away_dates_are_read_as_the_pages_write_them_and_in_other_languages(
        text: str, dates: tuple[date, date]) -> None:
    reading = read_commands(text)
    assert reading.action is not None and reading.action.verb == "away", reading.problem
    assert away_dates(reading.action.text, date(2026, 11, 29)) == dates
