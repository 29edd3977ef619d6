"""Issue 13.7: mail in against a few thousand mutated messages (seeded, bounded), made from
the reply corpus and sent to a live reply token through `deliver` (what every way in calls).

Every message ends processed or ignored with its reason recorded, never "failed" with a
traceback (multiparts nested 1,000 deep, a NUL in a charset label, `charset=idna`, RFC 2231
parameters out of order, undecodable bytes); and automatic mail is recognised however broken
the header lines around its Auto-Submitted or Precedence line."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.engine import CardPlayed, CardsPassed
from pbem.mailin.loops import automatic_reason_raw, bounce_of
from pbem.mailin.parse import parse_message, reply_text
from pbem.mailin.process import READ_ERRORS, deliver
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail
from tests.mailin.support import inbox, latest_token, reply, two_human_game
from tests.security.mutate import AUTO_LINES, BROKEN_LINES, join, mutated, split

COUNT = 600  # through a database, on each; the seed makes each run the same
FAST_COUNT = 4000  # the reading stage alone


def _addressed(raw: bytes, n: int) -> bytes:
    """From the player, with a Message-ID of its own (so no two are one message)."""
    return b"Message-ID: <fuzz-%d@example.org>\r\nFrom: Ann <ann@example.org>\r\n" % n + raw


def test_every_mutated_message_ends_with_a_reason_and_no_traceback(
        engine: Engine, caplog: pytest.LogCaptureFixture) -> None:
    two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    kinds: dict[int, str] = {}
    with caplog.at_level(logging.ERROR):
        for n, (kind, raw) in enumerate(mutated(seed=13, count=COUNT)):
            stored = deliver(inbox(engine), _addressed(raw, n), [f"play+{token}@pbem.test"])
            kinds[stored.id] = kind
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(InboundMail)).all()
    assert len(rows) == COUNT
    assert not [(r.id, kinds[r.id], r.reason) for r in rows if r.status not in (
        "processed", "ignored") or not r.reason]
    autos = [r for r in rows if kinds[r.id] == "broken_then_auto"]
    assert len(autos) >= COUNT // 6
    assert not [(r.reason, r.raw[:300]) for r in autos
                if not (r.reason.startswith(("automatic mail", "bounce", "delivery status")))]


def test_the_reading_stage_raises_only_what_decide_records_on_thousands_more() -> None:
    """The stages `decide` runs before any database work, on 4,000 more mutations: each
    message is read, or fails with an error `decide` records as the message's reason."""
    unexpected = []
    for kind, raw in mutated(seed=14, count=FAST_COUNT):
        try:
            message = parse_message(raw)
            bounce_of(message)
            automatic_reason_raw(raw, message)
            reply_text(message)
        except READ_ERRORS:
            continue
        except Exception as exc:  # what decide would have logged as a failure
            unexpected.append((kind, repr(exc)))
    assert unexpected == []


@pytest.mark.parametrize("broken", BROKEN_LINES)
@pytest.mark.parametrize("auto", AUTO_LINES[:2])
def test_an_autoreply_after_a_broken_header_line_is_never_played_or_answered(
        engine: Engine, broken: bytes, auto: bytes) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    head, body = split(reply(token, "pass 2C 3C 4C", sender="ann@example.org"))
    raw = join(head[:2] + [broken, auto] + head[2:], body)
    deliver(inbox(engine), raw, [f"play+{token}@pbem.test"])
    with transaction(engine, read_only=True) as session:
        (row,) = session.exec(select(InboundMail)).all()
        moves = [e for e in load_events(session, game) if isinstance(e, CardsPassed | CardPlayed)]
    assert row.status == "ignored" and row.reason.startswith("automatic mail"), row.reason
    assert not [m for m in moves if getattr(m, "seat", None) == 0]
