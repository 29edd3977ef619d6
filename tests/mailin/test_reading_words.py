"""Reading what people write: a card named in words or with a symbol inside a sentence when it
is the only card named (a bare code like "7D" inside a sentence never is), card names with
words or digits and commands in German, French, Spanish, Italian and Dutch, Unicode playing
cards, spaced codes ("Q S"), cards to pass one a line or as a list, `help?`, holidays and
unsubscribing in other words, the subject of a reply with an empty body, and fitting answers
when no card or two are named. Input → what is read (a command, or the start of the problem
sentence)."""

from __future__ import annotations

from email.message import EmailMessage
from email.policy import SMTP

import pytest
from sqlalchemy import Engine

from pbem.engine import CardPlayed, Phase, legal_cards
from pbem.mailin.commands import needs_phase, read_commands, subject_words
from pbem.mailin.language import LANGUAGES, cards_in
from pbem.mailin.parse import trim
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
    ("3C\n3C", "play 3C"),  # the same card twice is one card
    # digits as ranks, with the suit in words, alone or in a sentence
    ("7 of diamonds", "play 7D"),
    ("the 7 of diamonds", "play 7D"),
    ("I play the 7 of diamonds", "play 7D"),
    ("I'll take the 10 of hearts this time", "play TH"),
    ("Karo 7", "play 7D"),
    ("Herz 10", "play TH"),
    ("Kreuz 6 bitte", "play 6C"),
    ("Ich spiele Pik 2", "play 2S"),
    ("Je joue le 7 de carreau, merci !", "play 7D"),
    ("10 de cœur", "play TH"),
    ("7 de diamantes", "play 7D"),
    ("Juego el 7 de diamantes", "play 7D"),
    ("6 di fiori", "play 6C"),
    ("gioco il 6 di fiori", "play 6C"),
    ("schoppen 10", "play TS"),
    # a code spaced out on a line of its own, or after a list marker
    ("10 H", "play TH"),
    ("Q S", "play QS"),
    ("play q s", "play QS"),
    ("- QS", "play QS"),
    ("1. QS", "play QS"),
    # named unmistakably inside a sentence: in words, with a symbol, a playing card
    ("I'll lead the queen of spades, sorry Bob", "play QS"),
    ("Q♠ it is, good luck!", "play QS"),
    ("Ok then: 🂭, and see you tomorrow", "play QS"),
    ("Pik Dame (QS), bitte", "play QS"),  # the name and its code: one card
]

# A bare code inside a sentence is no move ("my 7D" is a camera): the answer names it and says
# how to play it. Phase, text → the start of the problem.
CODES_IN_SENTENCES = [
    (Phase.PLAY, "Out shooting birds with my 7D all day, will play tonight!",
     "We didn't play anything: your reply mentions 7D inside a sentence. To play it, reply "
     "with just “7D” on a line of its own."),
    (Phase.PLAY, "I'm in a 3D printing class, will play later",
     "We didn't play anything: your reply mentions 3D inside a sentence."),
    (Phase.PLAY, "My 2c: the robots are too good",
     "We didn't play anything: your reply mentions 2c inside a sentence. To play it, reply "
     "with just “2C”"),
    (Phase.PLAY, "Hmm, let me think... QS it is.",
     "We didn't play anything: your reply mentions QS inside a sentence."),
    (Phase.PLAY, "As I said: KD", "We didn't play anything: your reply mentions KD"),
    (Phase.PLAY, "Mein 7D ist kaputt, ich spiele morgen",
     "We didn't play anything: your reply mentions 7D inside a sentence."),
    (Phase.PLAY, "Je garde AS pour plus tard",
     "We didn't play anything: your reply mentions AS inside a sentence."),
    (Phase.PLAY, "3C or maybe 2C?",
     "We didn't play anything: your reply mentions 3C and 2C inside a sentence. To play one "
     "of them, reply with just that card on a line of its own, e.g. “3C”."),
    (Phase.PASS, "I'm keeping my AH and 9H this time, but the AS has to go!",
     "We didn't pass anything: your reply mentions AH, 9H and AS inside a sentence, and "
     "cards are only passed from a line of their own."),
    (Phase.PASS, "Ich behalte AH und 9H, aber AS muss weg",
     "We didn't pass anything: your reply mentions AH, 9H and AS inside a sentence"),
    (Phase.PLAY, "I'll play the queen of spades, not AH",
     "Your reply names 2 different cards (QS or AH), so we didn't guess"),
    (Phase.PASS, "Passing the queen of spades, keeping AH",
     "Your reply names 2 different cards (QS or AH), so we didn't guess: write the cards you "
     "pass on a line of their own."),
]

# Cards to pass one a line, or as a list (Outlook's bullets arrive one a line), in the pass
# phase: one pass of the three. (In the play phase such lines stay a question.)
PASS_LISTS = [
    "KS\nAH\nJH",
    "KS\nAH\nJH\n\nSent from my iPhone",
    "- KS\n- AH\n- JH",
    "* KS\n* AH\n* JH",
    "• KS\n• AH\n• JH",
    "1. KS\n2. AH\n3. JH",
    "1) KS\n2) AH\n3) JH",
    "pass:\nKS\nAH\nJH",
    "Pass\n\n- KS\n- AH\n- JH\n\nThanks!",
    "Je passe :\n- KS\n- AH\n- JH",
    "Ich schiebe:\nPik König\nHerz Ass\nHerz Bube",
    "Here are mine:\nKS\nAH\nJH\nGood luck!",
    "- KS\n- AH\n- JH\n\n-- \nAnn",
    "passo:\n- re di picche\n- asso di cuori\n- fante di cuori",
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
    ("Ich gebe 2C, 3D und AH weiter, danke", Phase.PASS, "pass 2C 3D AH"),
    # trailing punctuation after a command word
    ("Help?", None, "help"), ("help!", None, "help"), ("HELP.", None, "help"),
    ("status?", None, "status"), ("Hilfe?", None, "help"), ("aide ?", None, "help"),
    ("¿ayuda?", None, "help"),
    # holidays in other words: with dates, "off", or alone (the answer asks for the dates)
    ("vacation 1-14 December", None, "away 1-14 december"),
    ("Holidays: 1-14 August", None, "away 1-14 august"),
    ("On vacation 2026-08-01 to 2026-08-14", None, "away 2026-08-01 to 2026-08-14"),
    ("Urlaub 1-14 August", None, "away 1-14 august"), ("vacation off", None, "away off"),
    ("Vakantie 2026-08-01 - 2026-08-14", None, "away 2026-08-01 - 2026-08-14"),
    ("vacances", None, "away"), ("Holiday", None, "away"),
    # stopping the emails: answered with how to (the reply itself changes nothing)
    ("Unsubscribe", None, "unsubscribe"), ("unsubscribe me please", None, "unsubscribe"),
    ("Unsubscribe?", None, "unsubscribe"), ("STOP", None, "unsubscribe"),
    ("stop sending me emails", None, "unsubscribe"), ("désabonner", None, "unsubscribe"),
    ("abmelden", None, "unsubscribe"), ("afmelden", None, "unsubscribe"),
    ("darme de baja", None, "unsubscribe"), ("disiscrivimi", None, "unsubscribe"),
    # leaving: answered with the page's button, which asks first (a reply leaves nothing)
    ("resign", None, "leave"), ("I resign.", None, "leave"), ("Ich gebe auf", None, "leave"),
    ("aufgeben", None, "leave"), ("J'abandonne", None, "leave"), ("give up", None, "leave"),
    ("Leave the game", None, "leave"),
]

PROBLEMS = [
    ("I only have two hearts left", "We couldn't find a move"),  # a count, not a card
    ("I only have 2 hearts left", "We couldn't find a move"),
    ("hearts 3 times in a row, ugh", "We couldn't find a move"),
    ("ok", "We found no card or command in “ok”"),
    ("Pik Dame oder Herz Ass?", "Your reply names 2 different cards (QS or AH)"),
    ("Merci !", "We found no card or command in “merci !”"),
    ("Holiday was great, thanks", "We couldn't find a move"),  # no dates: not "away"
    # a move asked as a question is not made
    ("QS?", "“QS?” reads as a question, so we didn't act on it. To play QS, reply with just "
            "“QS” on a line of its own."),
    ("play 10h?", "“play 10h?” reads as a question, so we didn't act on it. To play TH"),
    ("claim?", "“claim?” reads as a question, so we didn't act on it. To claim, reply with "
               "just “claim”"),
    ("end?", "“end?” reads as a question, so we didn't act on it. To end the game"),
    ("I play the big one", "We couldn't find a card in “the big one”."),
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


@pytest.mark.parametrize(("phase", "text", "problem"), CODES_IN_SENTENCES,
                         ids=[t for _, t, _ in CODES_IN_SENTENCES])
def test_a_code_inside_a_sentence_is_no_move(phase: Phase, text: str, problem: str) -> None:
    assert needs_phase(text)  # the answer depends on the phase
    reading = read_commands(trim(text), asked_at(phase))
    assert not reading.ok and reading.action is None
    assert reading.problem.startswith(problem), reading.problem
    assert reading.read == text


def test_a_code_inside_a_sentence_during_the_bidding_asks_for_a_bid() -> None:
    reading = read_commands("My 7D is broken, back tomorrow", asked_at(Phase.BID, "auction"))
    assert not reading.ok and reading.problem.startswith("We couldn't find a bid")


@pytest.mark.parametrize("text", PASS_LISTS, ids=PASS_LISTS)
def test_cards_one_a_line_or_listed_are_the_pass(text: str) -> None:
    trimmed = trim(text)
    assert needs_phase(trimmed)
    reading = read_commands(trimmed, asked_at(Phase.PASS))
    assert reading.ok, reading.problem
    assert reading.action is not None and reading.action.describe() == "pass KS AH JH"


def test_cards_one_a_line_in_play_are_asked_about() -> None:
    reading = read_commands(trim("- KS\n- AH\n- JH"), asked_at(Phase.PLAY))
    assert reading.problem.startswith("Your reply has more than one command")


@pytest.mark.parametrize(("text", "kept"), [
    ("- KS\n- AH\n- JH", "- KS\n- AH\n- JH"), ("– KS\n– AH", "– KS\n– AH"),
    ("-KS\n-AH", "-KS\n-AH"), ("QS\n-- \nAnn\n+1 555 0100", "QS"), ("QS\n--\nAnn", "QS"),
    ("QS\n\n-Ann", "QS"), ("QS\n—\nAnn", "QS"), ("QS\n\n— Ann Smith", "QS"),
    ("QS\n\nBest regards,\nAnn", "QS"),
])
def test_only_signature_delimiters_start_a_signature_not_a_list(text: str, kept: str) -> None:
    assert trim(text) == kept


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
    text = f"the {first.name} or maybe {second}?"
    deliver(inbox(engine), reply(latest_token(engine, me, "turn"), text, sender=me))
    assert not [e for e in events(engine, game) if isinstance(e, CardPlayed)]
    error = emails(engine, me, "error")[-1].body_text
    assert f"We read: {text}" in error
    assert "2 different cards" in error and "You may play now:" in error


def test_a_code_inside_a_sentence_is_not_played_and_the_answer_says_how(
        engine: Engine) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    card = legal(state, seat)
    text = f"Out shooting birds with my {card} all day, will play tonight!"
    stored = deliver(inbox(engine), reply(latest_token(engine, me, "turn"), text, sender=me))
    assert not [e for e in events(engine, game) if isinstance(e, CardPlayed)]
    error = emails(engine, me, "error")[-1].body_text
    assert f"your reply mentions {card} inside a sentence" in error
    assert f"reply with just “{card}” on a line of its own" in error
    assert stored.id is not None
