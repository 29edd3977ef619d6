"""Each email in its recipient's language (issue 34): one game, its players in different
languages, each email written in its reader's; an unknown language is English; a message the
catalog lacks stays English, message by message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from babel.messages.catalog import Catalog
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.mail.gamemail import GameMail
from pbem.mail.notify import resend_turns
from pbem.present import i18n
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import Game, OutboxEmail, Player
from tests.mail.i18n_support import installed
from tests.mailin.support import SETTINGS, two_human_game


@pytest.fixture
def german_and_french() -> Iterator[None]:
    with installed("de", "fr"):
        yield


def set_language(engine: Engine, email: str, language: str | None, chosen: bool = True) -> None:
    with transaction(engine) as session:
        player = session.exec(select(Player).where(Player.email == email)).one()
        player.language, player.language_chosen = language, chosen
        session.add(player)


def pass_emails(engine: Engine, game_id: int) -> dict[str, OutboxEmail]:
    """Ask both humans for their pass afresh; their new emails, by address."""
    with transaction(engine) as session:
        game = session.get(Game, game_id)
        assert game is not None
        state = load_state(session, game_id).state
        count = len(resend_turns(session, game, state, settings=SETTINGS))
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(OutboxEmail).order_by(col(OutboxEmail.id).desc())
                            .limit(count)).all()
        return {row.to_addr: row for row in rows}


def test_one_game_writes_to_each_player_in_their_language(
        engine: Engine, german_and_french: None) -> None:
    game = two_human_game(engine)
    set_language(engine, "ann@example.org", "de")
    set_language(engine, "bob@example.org", "fr")
    sent = pass_emails(engine, game)
    ann, bob = sent["ann@example.org"], sent["bob@example.org"]
    assert "Deine Karten:" in ann.body_text and "Punkte:" in ann.body_text
    assert "Votre main :" in bob.body_text and "Points :" in bob.body_text
    assert "Your hand" not in ann.body_text + bob.body_text
    assert '<html lang="de"' in (ann.body_html or "")
    assert '<html lang="fr"' in (bob.body_html or "")
    assert "Antworte mit den Karten, z. B. pass" in ann.body_text  # the command stays English
    assert "Sprache und Einstellungen: http://pbem.test/me" in ann.body_text
    assert ann.subject == "Hearts: Friday night"
    assert bob.subject == "Dame de pique : Friday night"


def test_an_unknown_language_is_english(engine: Engine, german_and_french: None) -> None:
    game = two_human_game(engine)
    set_language(engine, "ann@example.org", "zz")  # no catalog: a stale or odd code
    set_language(engine, "bob@example.org", None, chosen=False)
    sent = pass_emails(engine, game)
    for row in sent.values():
        assert "Your hand:" in row.body_text and "Points:" in row.body_text
        assert '<html lang="en"' in (row.body_html or "")
        assert row.subject == "Hearts: Friday night"


def test_a_missing_translation_stays_english_message_by_message(engine: Engine) -> None:
    partial = Catalog(locale="de")
    partial.add("Your hand:", "Deine Karten:")
    with installed(catalogs={"de": partial}):
        game = two_human_game(engine)
        set_language(engine, "ann@example.org", "de")
        ann = pass_emails(engine, game)["ann@example.org"]
    assert "Deine Karten:" in ann.body_text
    assert "Points:" in ann.body_text  # not translated here: English, never blank
    assert "Reply with the cards, e.g. pass" in ann.body_text


def test_dates_are_in_the_readers_language_and_zone(german_and_french: None) -> None:
    from datetime import UTC, datetime

    from pbem.present.words import deadline_words

    moment = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    with i18n.using("de"):
        said = deadline_words(moment, "Europe/Berlin")
    assert said is not None and "Samstag, 1. März 2025" in said and "13:00" in said
    assert "(Europe/Berlin)" in said
    assert deadline_words(moment, "Europe/Paris") == \
        "Saturday 1 March 2025, 13:00 CET (Europe/Paris)"


def test_the_words_made_in_python_follow_the_reader(engine: Engine,
                                                     german_and_french: None) -> None:
    game = two_human_game(engine)
    set_language(engine, "ann@example.org", "de")
    with transaction(engine, read_only=True) as session:
        row = session.get(Game, game)
        assert row is not None
        mail = GameMail.load(session, row, SETTINGS)
        with mail.speaking(0):
            assert i18n.current() == "de"
            assert i18n._("Your turn") == "Du bist dran"
        with mail.speaking(1):
            assert i18n.current() == "en"
