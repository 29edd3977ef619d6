"""The daily digest: once a day at 8 local time, for players who chose it, listing their games."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlmodel import select

from pbem.mail.compose import MailSettings
from pbem.scheduler.digest import send_digests
from pbem.service import Context, Invitee, create_game, make_rng
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player

SETTINGS = MailSettings(domain="hearts.test", base_url="https://hearts.test")
EIGHT_IN_TOKYO = datetime(2026, 11, 21, 23, 0, tzinfo=UTC)  # 08:00 in Asia/Tokyo


def _two_games(engine: Engine) -> None:
    ctx = Context(engine=engine, rng=make_rng(seed=5))
    for name in ("Monday club", "Family game"):
        create_game(ctx, name=name, players=[Invitee("kai@example.org", "Kai", accepted=True)],
                    bot_seats=(1, 2, 3), robot_strength="easy")
    with transaction(engine) as session:
        kai = session.exec(select(Player).where(Player.email == "kai@example.org")).one()
        kai.digest, kai.time_zone = True, "Asia/Tokyo"


def _digests(engine: Engine) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        return list(session.exec(select(OutboxEmail).where(OutboxEmail.kind == "digest")))


def test_digest_lists_every_open_game_once_a_day_at_8_local(engine: Engine) -> None:
    _two_games(engine)
    assert send_digests(engine, SETTINGS, EIGHT_IN_TOKYO) == 1
    assert send_digests(engine, SETTINGS, EIGHT_IN_TOKYO) == 0  # not twice the same day
    (digest,) = _digests(engine)
    assert digest.to_addr == "kai@example.org"
    for name in ("Monday club", "Family game"):
        assert name in digest.body_text
    assert digest.body_text.count("your move") == 2  # both games wait for Kai's pass
    assert "https://hearts.test/games/" in digest.body_text
    assert "your settings: https://hearts.test/me" in digest.body_text  # issue 19: my games
    assert 'href="https://hearts.test/me"' in (digest.body_html or "")


def test_no_digest_at_other_hours_or_for_players_who_did_not_choose_it(engine: Engine) -> None:
    _two_games(engine)
    assert send_digests(engine, SETTINGS, datetime(2026, 11, 21, 8, 0, tzinfo=UTC)) == 0
    with transaction(engine) as session:
        session.exec(select(Player)).one().digest = False
    assert send_digests(engine, SETTINGS, EIGHT_IN_TOKYO) == 0
    assert _digests(engine) == []
