"""Unit rules of the stages: the command language, the marker, loop headers, tokens."""

from __future__ import annotations

from datetime import date
from email.message import EmailMessage

import pytest

from pbem.engine import Phase
from pbem.mail.sending import MARKER as SENT_MARKER
from pbem.mailin.commands import away_dates, read_commands
from pbem.mailin.loops import automatic_reason
from pbem.mailin.parse import MARKER, html_to_text, trim
from pbem.mailin.route import address_token
from tests.helpers import asked_at


def test_the_marker_we_cut_at_is_the_one_we_send() -> None:
    assert MARKER == SENT_MARKER


@pytest.mark.parametrize(("text", "passing", "expected"), [
    ("QS", False, "play QS"), ("q♠", False, "play QS"), ("Play 10h", False, "play TH"),
    ("th please", False, "play TH"), ("Queen of Spades!", False, "play QS"),
    ("pass 2C 3D AH", False, "pass 2C 3D AH"), ("2c, 3d and ah", True, "pass 2C 3D AH"),
    ("CLAIM", False, "claim"), ("moon Down", False, "moon down"), ("moon up", False, "moon up"),
    ("Status", False, "status"), ("help", False, "help"), ("say hi all", False, "say hi all"),
    ("away 1-14 August", False, "away 1-14 august"),
])
def test_commands_are_read_in_any_case_with_symbols_and_tens(text: str, passing: bool,
                                                              expected: str) -> None:
    reading = read_commands(text, asked_at(Phase.PASS if passing else Phase.PLAY))
    command = reading.action or reading.say
    assert reading.ok and command is not None and command.describe() == expected


@pytest.mark.parametrize(("text", "problem"), [
    ("", "empty"), ("Thanks for the game", "couldn't find a move"),
    ("QS\nKS", "more than one command"), ("Q", "has no suit"),
    ("play XZ", "couldn't read"), ("QS KS", "one card at a time"), ("moon sideways", "moon"),
])
def test_unreadable_replies_say_why(text: str, problem: str) -> None:
    reading = read_commands(text)
    assert not reading.ok and problem in reading.problem


def test_quoted_cards_and_text_below_the_marker_never_count() -> None:
    assert trim("5C\n> QS\n> --- Reply above this line ---\n> KS") == "5C"
    assert trim("> --- Reply above this line ---\n> QS\n\nJD") == "JD"
    assert trim("AH\n--- Reply above this line ---\nReply with the card, e.g. QS") == "AH"


def test_html_quotes_are_marked_as_quotes() -> None:
    text = html_to_text('<div>KD</div><blockquote type="cite"><p>QS</p></blockquote>')
    assert text.splitlines()[0] == "KD" and "> QS" in text


def test_auto_submitted_no_is_a_person() -> None:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["Auto-Submitted"] = "no"
    assert automatic_reason(message) is None
    message.replace_header("Auto-Submitted", "auto-generated")
    assert automatic_reason(message) == "Auto-Submitted: auto-generated"


def test_reply_tokens_are_read_from_plus_addresses_in_any_case() -> None:
    assert address_token("PLAY+ABCDEFGH23@pbem.test", "play") == "ABCDEFGH23"
    assert address_token("play@pbem.test", "play") is None
    assert address_token("other+abcdefgh23@pbem.test", "play") is None


def test_away_dates_without_a_year_are_the_next_ones() -> None:
    today = date(2026, 11, 21)
    assert away_dates("24 December to 2 January", today) == (date(2026, 12, 24),
                                                               date(2027, 1, 2))
    assert away_dates("2027-03-01 - 2027-03-05", today) == (date(2027, 3, 1), date(2027, 3, 5))
    assert away_dates("soon", today) is None
