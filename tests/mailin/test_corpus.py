"""The reply corpus: realistic replies from real clients, each with what must be read from it
(tests/mailin/corpus/expected.csv: `phase` the game's phase when it was read, `bid` and
`name_suit` in Auction Hearts; `none` = no command, an error email; `auto` = never answered;
`bounce` = a delivery status notification)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pbem.engine import Phase
from pbem.mailin.commands import read_commands
from pbem.mailin.loops import automatic_reason, bounce_of
from pbem.mailin.parse import parse_message, reply_text
from tests.helpers import asked_at

CORPUS = Path(__file__).parent / "corpus"
ROWS = list(csv.DictReader((CORPUS / "expected.csv").open(encoding="utf-8")))


def what_is_read(raw: bytes, phase: Phase) -> str:
    message = parse_message(raw)
    if bounce_of(message) is not None:
        return "bounce"
    if automatic_reason(message):
        return "auto"
    auction = phase in (Phase.BID, Phase.NAME_SUIT)
    reading = read_commands(reply_text(message),
                            asked_at(phase, "auction" if auction else "standard"))
    if not reading.ok:
        return "none"
    command = reading.action or reading.say
    assert command is not None
    return command.describe()


def test_every_corpus_file_has_an_expectation() -> None:
    files = {p.stem for p in CORPUS.glob("*.eml")}
    assert files == {row["file"] for row in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=[row["file"] for row in ROWS])
def test_corpus_reply_reads_as_expected(row: dict[str, str]) -> None:
    raw = (CORPUS / f"{row['file']}.eml").read_bytes()
    said = what_is_read(raw, Phase(row["phase"]))
    assert said.split("\n")[0] == row["expected"], f"{row['client']} ({row['shape']})"
