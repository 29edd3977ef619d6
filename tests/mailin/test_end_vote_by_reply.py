"""Seed 003 (../shared/seeds/003), "a game can be terminated earlier by agreement", by reply:
`end` (or `vote end`, `Ende`, `fin`...) to any game email proposes or agrees, `play on` closes
the vote; through the SMTP receiver and `deliver`, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import Engine

from pbem import service
from pbem.mailin.commands import read_commands
from pbem.store.db import transaction
from pbem.store.models import Game
from tests.mailin.support import emails, latest_token, reply, state_of, to_play, two_human_game
from tests.mailin.variant_support import Send

ANN, BOB = "ann@example.org", "bob@example.org"


@pytest.fixture(params=["by_deliver", "by_smtp"])
def send(request: pytest.FixtureRequest) -> Send:
    found: Send = request.getfixturevalue(request.param)
    return found


def status(engine: Engine, game: int) -> str:
    with transaction(engine, read_only=True) as session:
        found = session.get(Game, game)
        assert found is not None
        return found.status


def test_end_by_reply_proposes_and_agreeing_ends_the_game_seed_003(
        engine: Engine, send: Send) -> None:
    game = two_human_game(engine)
    old_token = latest_token(engine, ANN, "pass")  # an email from before she passed
    to_play(engine, game)
    send(reply(old_token, "end"), f"play+{old_token}@pbem.test")
    assert state_of(engine, game).end_voters == (0, 2, 3)  # the robots agreed at once
    [confirmed] = emails(engine, ANN, "move_confirmed")
    assert "you proposed to end the game now" in confirmed.body_text
    token = latest_token(engine, BOB, "end_vote")
    send(reply(token, "Ende", sender="Bob <bob@example.org>"), f"play+{token}@pbem.test")
    assert status(engine, game) == "finished" and state_of(engine, game).ended_by_agreement
    [summary] = emails(engine, BOB, "summary")
    # Bob wrote in German and never chose a language: the summary is his first German email
    assert "Deine Antwort ist angekommen: Du hast zugestimmt, die Partie jetzt zu beenden." \
        in summary.body_text
    assert "Einvernehmlich beendet" in summary.body_text


def test_play_on_by_reply_closes_the_vote_seed_003(engine: Engine, send: Send) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    send(reply(token, "vote end"), f"play+{token}@pbem.test")
    bobs = latest_token(engine, BOB, "end_vote")
    send(reply(bobs, "Play on, thanks", sender="Bob <bob@example.org>"),
         f"play+{bobs}@pbem.test")
    assert state_of(engine, game).end_voters == () and status(engine, game) == "active"
    assert "Bob wants to play on" in emails(engine, ANN, "end_vote")[-1].body_text


@pytest.mark.parametrize(("text", "agree"), [
    ("end", True), ("End the game.", True), ("vote end", True), ("Ende", True),
    ("Spiel beenden", True), ("fin de partie", True), ("terminar", True), ("finire", True),
    ("einde", True), ("play on", False), ("keep playing", False), ("weiterspielen", False),
    ("continuer", False), ("seguir", False), ("continuiamo", False), ("doorspelen", False)])
def test_the_end_vote_words_in_every_language(text: str, agree: bool) -> None:
    reading = read_commands(text)
    assert reading.action is not None and reading.action.verb == "end"
    assert reading.action.agree is agree


@pytest.mark.parametrize("text", ["fine", "Fine, thanks", "The end of a long day"])
def test_ordinary_words_are_no_end_vote(text: str) -> None:
    """Italian "fine" alone would be English "fine": only "fine partita" and "finire" count."""
    reading = read_commands(text)
    assert reading.action is None or reading.action.verb != "end"


def test_status_names_an_open_vote_to_end_who_agreed_and_how_to_agree_seed_003(
        engine: Engine, by_deliver: Send) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    by_deliver(reply(token, "status"), f"play+{token}@pbem.test")
    assert "vote to end" not in emails(engine, ANN, "status")[-1].body_text  # none open yet
    by_deliver(reply(token, "end"), f"play+{token}@pbem.test")
    voters = state_of(engine, game).end_voters
    bobs = latest_token(engine, BOB, "end_vote")
    by_deliver(reply(bobs, "status", sender="Bob <bob@example.org>"), f"play+{bobs}@pbem.test")
    bob_hears = " ".join(emails(engine, BOB, "status")[-1].body_text.split())
    assert "A vote to end the game now with the current scores is open: Ann" in bob_hears
    assert "agreed; waiting for you. Reply “end” to agree, or “play on” to play on." in bob_hears
    by_deliver(reply(token, "status\n\nthanks"), f"play+{token}@pbem.test")
    ann_hears = " ".join(emails(engine, ANN, "status")[-1].body_text.split())
    assert "open: you" in ann_hears and "waiting for Bob. Reply “play on” to close it." \
        in ann_hears
    assert len(voters) == 3 and state_of(engine, game).end_voters == voters  # status changes none


def test_one_word_from_the_only_human_asks_before_ending_a_robot_game(
        engine: Engine, by_deliver: Send, make_app: Callable[..., Flask], db_url: str) -> None:
    """`Ende` would end a game against robots at once (they agree straight away): nothing is
    done, and the answer says so and points to the page's button; no email says both "the
    others are asked to agree" and "is over"."""
    ctx = service.Context(engine=engine, rng=service.make_rng(7))
    game = service.create_game(ctx, name="Solo", players=[service.Invitee(ANN, "Ann", True)],
                               bot_seats=(1, 2, 3), robot_strength="easy").game_id
    token = latest_token(engine, ANN, "pass")
    with make_app(DATABASE_URL=db_url).app_context():  # as the service's mail-in runs
        by_deliver(reply(token, "Ende"), f"play+{token}@pbem.test")
    assert status(engine, game) == "active" and state_of(engine, game).end_voters == ()
    [note] = emails(engine, ANN, "note")
    text = " ".join(note.body_text.split())
    # "Ende": she wrote German, so the answer is German
    assert "Noch hat sich nichts geändert" in text and "würde diese Partie sofort" in text
    assert "Die Partie jetzt beenden" in text and "/s/" in note.body_text  # her page
    assert not emails(engine, ANN, "summary") and not emails(engine, ANN, "move_confirmed")


def test_the_summary_of_a_game_ended_before_any_hand_names_no_winner(
        engine: Engine, by_deliver: Send) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, ANN, "pass")
    by_deliver(reply(token, "end"), f"play+{token}@pbem.test")
    bobs = latest_token(engine, BOB, "end_vote")
    by_deliver(reply(bobs, "end", sender="Bob <bob@example.org>"), f"play+{bobs}@pbem.test")
    assert status(engine, game) == "finished"
    for who in (ANN, BOB):
        [summary] = emails(engine, who, "summary")
        text = " ".join(summary.body_text.split())
        assert "Ended by agreement before the first hand was finished: no hand was scored, " \
               "so there are no scores and no winner." in text
        assert " win!" not in text and "Final standings" not in text
        assert "asked to agree" not in text
