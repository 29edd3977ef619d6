"""An answer to a reply is in the reply's language (issue 34), and a player who never chose a
language gets the one they write in from then on; one who chose keeps theirs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine
from sqlmodel import select

from pbem.mailin.language import language_of
from pbem.mailin.process import deliver
from pbem.store.db import transaction
from pbem.store.models import Player
from tests.mail.i18n_support import installed
from tests.mailin.support import (
    emails,
    inbox,
    latest_token,
    legal,
    player,
    reply,
    state_of,
    to_play,
    two_human_game,
)

ANN = "ann@example.org"


@pytest.fixture
def catalogs() -> Iterator[None]:
    with installed("de", "fr", "es", "it", "nl"):
        yield


def choose(engine: Engine, language: str) -> None:
    with transaction(engine) as session:
        ann = session.exec(select(Player).where(Player.email == ANN)).one()
        ann.language, ann.language_chosen = language, True
        session.add(ann)


@pytest.mark.parametrize(("text", "language"), [
    ("Ich spiele Pik Dame", "de"), ("je joue la dame de pique, merci", "fr"),
    ("juego la reina de picas", "es"), ("gioco la donna di picche", "it"),
    ("speel schoppenvrouw", "nl"), ("please play the queen of spades", "en"),
    ("QS", None), ("pass 2C 3D AH", None),
])
def test_the_reader_tells_the_language_of_a_reply(text: str, language: str | None) -> None:
    assert language_of(text) == language


def test_a_german_reply_is_answered_in_german_and_sets_the_language(
        engine: Engine, catalogs: None) -> None:
    two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    deliver(inbox(engine), reply(token, "Hilfe, bitte"))
    (answer,) = emails(engine, ANN, "help")
    assert "Hallo Ann, antworte auf eine beliebige Spiel-E-Mail" in answer.body_text
    assert '<html lang="de"' in (answer.body_html or "")
    ann = player(engine, ANN)
    assert ann.language == "de" and not ann.language_chosen


def test_a_chosen_language_is_kept_but_the_answer_is_in_the_replys(
        engine: Engine, catalogs: None) -> None:
    two_human_game(engine)
    choose(engine, "fr")
    token = latest_token(engine, ANN, "pass")
    deliver(inbox(engine), reply(token, "hilfe"))
    (answer,) = emails(engine, ANN, "help")
    assert "antworte auf eine beliebige Spiel-E-Mail" in answer.body_text
    ann = player(engine, ANN)
    assert ann.language == "fr" and ann.language_chosen


def test_a_wrong_move_in_german_gets_its_error_in_german(engine: Engine,
                                                         catalogs: None) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    hand = state_of(engine, game).hand(0)
    deliver(inbox(engine), reply(token, f"Ich spiele {hand[0]}, danke"))
    (answer,) = emails(engine, ANN, "error")
    assert "dieser Zug geht nicht" in answer.body_text
    assert player(engine, ANN).language == "de"


def test_a_reply_with_no_words_of_a_language_changes_nothing(engine: Engine,
                                                            catalogs: None) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    cards = " ".join(str(c) for c in state_of(engine, game).hand(0)[:3])
    deliver(inbox(engine), reply(token, f"pass {cards}"))
    ann = player(engine, ANN)
    assert ann.language is None and not ann.language_chosen


def test_a_move_in_german_is_confirmed_in_german(engine: Engine, catalogs: None) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    card = legal(state, seat)
    deliver(inbox(engine), reply(latest_token(engine, me, "turn"), f"Ich spiele {card}, danke",
                                 sender=me))
    confirmed = emails(engine, me, "move_confirmed")
    assert confirmed and "Angekommen" in confirmed[-1].body_text
    assert "du hast" in confirmed[-1].body_text and "gespielt" in confirmed[-1].body_text
    assert player(engine, me).language == "de"
