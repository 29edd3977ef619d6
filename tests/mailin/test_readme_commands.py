"""Every command example the README and the playing docs give is understood by reply (issue
37, item 8). The examples are read from the files, so one added there is tested here too.

"The command list" is, explicitly:
- README.md: the code spans in its sentences about replying (`QS`, `play 10H`, `pass 2C 3D
  AH`, `help`), leaving out shell commands (`pbem ingest < reply.eml`);
- docs/playing/by-mail.md (the README's "by mail" page): every code span of its "What to
  write" table;
- the `help` email's list (pbem.mailin.replies, per rule set: the Auction one has `bid 5`,
  `pass`, `avoid spades`);
- docs/playing/commands.md's table, made from pbem/mailin/language.py: every spelling of every
  command in every language (read by the reader; the others go the whole way).

Each example is sent as a reply through the mail-in path into a game where it fits (a card
while the seat is to play, a pass of cards in the pass phase, bids and the suit in Auction
Hearts) and must be understood: the stored message is processed and not refused as
unreadable. The engine may still refuse the move (a card the seat does not hold): that is
read, and answered with the rules' reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem import service
from pbem.engine import Phase
from pbem.mailin.commands import away_dates, needs_phase, read_commands
from pbem.mailin.language import LANGUAGES
from pbem.mailin.process import deliver
from pbem.mailin.replies import help_context
from pbem.store.db import transaction
from pbem.store.models import Away, InboundMail, OutboxEmail
from tests.helpers import asked_at
from tests.mailin.support import inbox, latest_token, reply, to_play, two_human_game
from tests.mailin.variant_support import NAMES, address, state_of, variant_game

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BY_MAIL = ROOT / "docs" / "playing" / "by-mail.md"
_CODE = re.compile(r"`([^`\n]+)`")
_SHELL = ("pbem", "pip", "pytest", "python", ".ci", "PBEM_")


@dataclass(frozen=True)
class Example:
    source: str
    text: str
    auction: bool = False  # an Auction Hearts command: sent in an Auction game


def readme_examples() -> list[Example]:
    """The README's code spans in sentences about replying, without shell commands."""
    text = README.read_text(encoding="utf-8")
    sentences = re.split(r";|\.\s|\n\n", text)
    return [Example("README.md", span) for sentence in sentences
            if re.search(r"\brepl(?:y|ies)\b", sentence, re.IGNORECASE)
            for span in _CODE.findall(sentence) if not span.startswith(_SHELL)]


def by_mail_examples() -> list[Example]:
    """Every code span of by-mail.md's "What to write" table."""
    text = BY_MAIL.read_text(encoding="utf-8")
    section = text.split("## What to write", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines()
            if line.startswith("|") and not set(line) <= set("|- ")]
    return [Example("by-mail.md", span, auction="Auction" in line)
            for line in rows[1:] for span in _CODE.findall(line)]  # rows[0]: the header


def help_examples() -> list[Example]:
    """The `help` email's commands: a standard game's and Auction Hearts'."""
    found = [Example("help", c["example"]) for c in
             help_context(service.make_rules("standard"))["commands"]]
    known = {e.text for e in found}
    return found + [Example("help (auction)", c["example"], auction=True)
                    for c in help_context(service.make_rules("auction"))["commands"]
                    if c["example"] not in known]


EXAMPLES = list(dict.fromkeys([*readme_examples(), *by_mail_examples(), *help_examples()]))


def test_the_command_lists_are_found_in_the_files() -> None:
    """The extraction finds the lists (a renamed heading would silently test nothing)."""
    by_source: dict[str, set[str]] = {}
    for example in EXAMPLES:
        by_source.setdefault(example.source, set()).add(example.text)
    assert {"QS", "play 10H", "pass 2C 3D AH", "help"} <= by_source["README.md"]
    assert {"claim", "status", "say good game!", "away 1-14 August", "away off", "bid 5",
            "avoid spades", "export", "leave"} <= by_source["by-mail.md"]
    assert not any(text.startswith(_SHELL) for text in by_source["README.md"])
    assert {"nudge", "help"} <= by_source["help"]
    assert "bid 5" in by_source["help (auction)"]


def stored_reason(engine: Engine) -> tuple[str, str]:
    with transaction(engine, read_only=True) as session:
        newest = session.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert newest is not None
        return newest.status, newest.reason or ""


def send_where_it_fits(engine: Engine, example: Example) -> None:
    """Deliver `example` as a reply from a seat the game waits for, in a phase it fits."""
    if example.auction:
        game = variant_game(engine, "auction")
        seat = state_of(engine, game).turn
        me = address(seat)
        sender = f"{NAMES[seat]} <{me}>"
    else:  # a pass of cards in the pass phase; a nudge from the seat that waits
        game = two_human_game(engine)
        passing = example.text.lower().startswith("pass ")
        seat = 0 if passing else to_play(engine, game)[0]
        seat = 1 - seat if example.text == "nudge" else seat
        me = ("ann@example.org", "bob@example.org")[seat]
        sender = me
    deliver(inbox(engine), reply(latest_token(engine, me), example.text, sender=sender))


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{e.source}:{e.text}" for e in EXAMPLES])
def test_every_listed_example_is_understood_by_reply(engine: Engine, example: Example) -> None:
    send_where_it_fits(engine, example)
    status, reason = stored_reason(engine)
    assert status == "processed", reason
    assert not reason.startswith(("unreadable", "malformed")), reason
    if example.text.startswith("away ") and example.text != "away off":
        assert_away_noted(engine, example.text, reason)
    if example.text == "nudge":
        with transaction(engine, read_only=True) as session:
            assert session.exec(select(OutboxEmail).where(OutboxEmail.kind == "nudge")).first()


def assert_away_noted(engine: Engine, text: str, reason: str) -> None:
    """The dates are read, and noted unless they are past (a dated example ages)."""
    command = read_commands(text).action
    assert command is not None
    dates = away_dates(command.text, date.today())
    assert dates is not None, f"{text!r}: the dates are not read"
    if dates[1] >= date.today():
        with transaction(engine, read_only=True) as session:
            assert session.exec(select(Away)).first() is not None, reason


# --- docs/playing/commands.md: every spelling of every command in every language -------------

# What follows a command word to make it whole ("spiele" + " QS")
_ARGUMENTS = {"play": " QS", "pass": " 2C 3D AH", "vacation": " 1-14 August", "bid": " 5",
              "avoid": " spades", "say": ": good game!", "address": " you@example.org"}
_OUTCOME = {"vacation": "away", "end": "end", "play on": "end"}


def spellings() -> list[tuple[str, str, str]]:
    """(language, what a player writes, the command it is) for each spelling in language.py."""
    return [(language, spelled.replace("_", " ") + _ARGUMENTS.get(verb, ""), verb)
            for language, words in LANGUAGES.items() for verb, spelled_all in
            words.commands.items() for spelled in spelled_all.split()]


@pytest.mark.parametrize(("language", "text", "verb"), spellings(),
                         ids=[f"{lang}:{text}" for lang, text, _v in spellings()])
def test_every_spelling_on_the_commands_page_reads_as_its_command(
        language: str, text: str, verb: str) -> None:
    now = asked_at(Phase.PLAY) if needs_phase(text) else None
    reading = read_commands(text, now)
    assert reading.ok, reading.problem
    command = reading.action or reading.say
    assert command is not None and command.verb == _OUTCOME.get(verb, verb)
