"""Reading what people write: a card inside a sentence when it is the only card named, card
names and commands in German, French, Spanish, Italian and Dutch, Unicode playing cards, the
subject of a reply with an empty body, and fitting answers when no card or two are named.
Input → what is read (a command, or the start of the problem sentence)."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

import pytest
from sqlalchemy import Engine

from pbem.engine import CardPlayed, Phase, legal_cards
from pbem.mailin.commands import read_commands, subject_words
from pbem.mailin.language import LANGUAGES, cards_in
from pbem.mailin.process import deliver
from tests.helpers import asked_at
from tests.mailin.support import (
    emails,
    illegal,
    inbox,
    latest_token,
    legal,
    reply,
    to_play,
    two_human_game,
)
from tests.mailin.variant_support import events

PLAYS = [
    ("Je joue 3C, merci", "play 3C"),
    ("Ich spiele 3C", "play 3C"),
    ("3C bitte", "play 3C"),
    ("3 ♣", "play 3C"),
    ("10 ♥ please", "play TH"),
    ("🃓", "play 3C"),
    ("🂭", "play QS"),
    ("Pik Dame", "play QS"),
    ("Pikdame bitte", "play QS"),
    ("Herz-Ass", "play AH"),
    ("dame de pique", "play QS"),
    ("As de cœur, merci !", "play AH"),
    ("Je joue le dix de carreau", "play TD"),
    ("reina de picas", "play QS"),
    ("Juego el tres de tréboles, gracias", "play 3C"),
    ("regina di picche", "play QS"),
    ("gioco l'asso di cuori", "play AH"),
    ("schoppen vrouw", "play QS"),
    ("schoppenvrouw", "play QS"),
    ("Ik speel klaveren twee", "play 2C"),
    ("I'll play the ten of hearts, thanks", "play TH"),
    ("Hmm, let me think... QS it is.", "play QS"),
    ("As I said: KD", "play KD"),  # "As" is a word, not the ace of spades
    ("3C\n3C", "play 3C"),  # the same card twice is one card
]

COMMANDS = [
    ("hilfe", None, "help"), ("aide", None, "help"), ("ayuda", None, "help"),
    ("aiuto", None, "help"), ("hulp", None, "help"),
    ("Stand", None, "status"), ("état", None, "status"), ("estado", None, "status"),
    ("stato", None, "status"), ("status bitte", None, "status"),
    ("ich passe", Phase.BID, "bid pass"), ("je passe", Phase.BID, "bid pass"),
    ("paso", Phase.BID, "bid pass"), ("passo", Phase.BID, "bid pass"),
    ("pas", Phase.BID, "bid pass"),
    ("Je passe 2C, 3D et AH", Phase.PASS, "pass 2C 3D AH"),
    ("Ich gebe 2C 3D AH weiter", Phase.PASS, "pass 2C 3D AH"),
    ("passo due di fiori, tre di quadri e asso di cuori", Phase.PASS, "pass 2C 3D AH"),
    ("réclame", Phase.PLAY, "claim"), ("rivendico", Phase.PLAY, "claim"),
]

PROBLEMS = [
    ("I only have two hearts left", "We couldn't find a move"),  # a count, not a card
    ("ok", "We found no card or command in “ok”"),
    ("3C or maybe 2C?", "Your reply names 2 different cards (3C or 2C)"),
    ("Pik Dame oder Herz Ass?", "Your reply names 2 different cards (QS or AH)"),
    ("Merci !", "We found no card or command in “merci !”"),
]


@pytest.mark.parametrize(("text", "expected"), PLAYS, ids=[t for t, _ in PLAYS])
def test_the_only_card_named_is_played(text: str, expected: str) -> None:
    reading = read_commands(text, asked_at(Phase.PLAY))
    assert reading.ok, reading.problem
    assert reading.action is not None and reading.action.describe() == expected


@pytest.mark.parametrize(("text", "phase", "expected"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_commands_in_the_players_languages(text: str, phase: Phase | None,
                                           expected: str) -> None:
    reading = read_commands(text, asked_at(phase, "auction" if phase is Phase.BID else "standard")
                            if phase else None)
    assert reading.ok, reading.problem
    assert reading.action is not None and reading.action.describe() == expected


@pytest.mark.parametrize(("text", "problem"), PROBLEMS, ids=[t for t, _ in PROBLEMS])
def test_no_card_or_two_cards_get_an_answer_that_fits(text: str, problem: str) -> None:
    reading = read_commands(text, asked_at(Phase.PLAY))
    assert not reading.ok
    assert reading.problem.startswith(problem), reading.problem
    assert reading.read == text  # quoted back as read


def test_every_language_names_every_card() -> None:
    """Each language's data covers 13 ranks and 4 suits, and each name reads as its card."""
    for code, words in LANGUAGES.items():
        assert len(words.ranks) == 13 and len(words.suits) == 4, code
        rank, suit = words.ranks[10].split()[0], words.suits[3].split()[0]  # the queen of spades
        name = f"{rank} {words.joins.split()[0]} {suit}" if words.joins else f"{suit} {rank}"
        assert [str(c) for c in cards_in(name)] == ["QS"], code


@pytest.mark.parametrize(("subject", "expected"), [
    ("3C", "3C"), ("Re: 3C", "3C"), ("AW: Pik Dame", "Pik Dame"),
    ("Re: Hearts: Friday night", ""), ("3C Re: Hearts: Friday night", "3C")])
def test_the_subject_of_an_empty_reply_is_read(subject: str, expected: str) -> None:
    assert subject_words(subject) == expected


def test_a_reply_with_an_empty_body_plays_the_card_in_its_subject(engine: Engine) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    card = legal(state, seat)
    message = EmailMessage()
    message["From"], message["To"] = me, f"play+{latest_token(engine, me, 'turn')}@pbem.test"
    message["Subject"] = f"Re: {card}"
    message.set_content("\n")
    deliver(inbox(engine), message.as_bytes(policy=SMTP))
    assert CardPlayed(seat, card) in events(engine, game)


def test_two_cards_named_get_an_error_email_quoting_them_with_what_is_legal(
        engine: Engine) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    first, second = legal_cards(state, seat)[:2] if len(legal_cards(state, seat)) > 1 else (
        legal(state, seat), illegal(state, seat))
    text = f"{first} or maybe {second}?"
    deliver(inbox(engine), reply(latest_token(engine, me, "turn"), text, sender=me))
    assert not [e for e in events(engine, game) if isinstance(e, CardPlayed)]
    error = emails(engine, me, "error")[-1].body_text
    assert f"We read: {text}" in error
    assert "2 different cards" in error and "You may play now:" in error
