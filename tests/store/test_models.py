"""Table rules the database itself enforces."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from pbem.store.db import transaction
from pbem.store.models import Game, InboundMail, OutboxEmail, Player, Seat, Token


def test_player_email_is_stored_lower_case_and_unique(engine: Engine) -> None:
    with transaction(engine) as s:
        s.add(Player(email="  Alice@Example.COM ", name="Alice"))
    with transaction(engine) as s:
        player = s.exec(select(Player)).one()
        assert player.email == "alice@example.com"
        assert (player.time_zone, player.notify, player.email_status) == ("UTC", "each_hand", "ok")
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(Player(email="ALICE@example.com", name="Other Alice"))


def test_timestamps_come_back_timezone_aware_utc(engine: Engine) -> None:
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    with transaction(engine) as s:
        s.add(OutboxEmail(to_addr="a@b.c", kind="turn", subject="s", body_text="b",
                          next_attempt_at=when))
    with transaction(engine) as s:
        mail = s.exec(select(OutboxEmail)).one()
        assert mail.next_attempt_at == when
        assert mail.next_attempt_at.tzinfo is not None
        assert mail.created_at.tzinfo is not None
        assert (mail.status, mail.attempts, mail.headers) == ("pending", 0, {})


def test_a_seat_number_is_taken_once_per_game(engine: Engine) -> None:
    with transaction(engine) as s:
        game = Game(name="g", preset="standard", engine_version="1", rules={"a": [1, 2]})
        s.add(game)
        s.flush()
        assert game.id is not None
        game_id = game.id
        s.add(Seat(game_id=game_id, seat_no=0, is_bot=True))
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(Seat(game_id=game_id, seat_no=0))
    with transaction(engine) as s:
        loaded = s.get(Game, game_id)
        assert loaded is not None and loaded.rules == {"a": [1, 2]}


def test_the_same_inbound_mail_is_stored_once(engine: Engine) -> None:
    with transaction(engine) as s:
        s.add(InboundMail(message_id="<m1@x>", content_hash="h", raw=b"\x00raw\xff"))
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(InboundMail(message_id="<m1@x>", content_hash="h", raw=b"\x00raw\xff"))
    with transaction(engine) as s:
        assert s.exec(select(InboundMail)).one().raw == b"\x00raw\xff"


def test_token_hashes_are_unique_and_purposes_checked(engine: Engine) -> None:
    with transaction(engine) as s:
        s.add(Token(token_hash="a" * 64, purpose="card", card="QS", seat_no=1, turn_seq=3))
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(Token(token_hash="a" * 64, purpose="card"))
    with pytest.raises(IntegrityError), transaction(engine) as s:
        s.add(Token(token_hash="b" * 64, purpose="no-such-purpose"))


def test_failed_transaction_leaves_nothing_behind(engine: Engine) -> None:
    with pytest.raises(RuntimeError), transaction(engine) as s:
        s.add(Player(email="bob@example.com", name="Bob"))
        s.flush()
        raise RuntimeError("boom")
    with transaction(engine) as s:
        assert s.exec(select(Player)).all() == []
