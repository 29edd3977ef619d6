"""Every reply command as players write it, in the six languages the reader claims (issue 37,
item 8), as one table: the reply, what the seat is asked when it comes (the game phase), and
the command it is read as, or the code of the refusal. Each row runs through the real reader
as mail-in runs it (`needs_phase`, then `read_commands` with what the seat is asked); a
subset goes the whole way: a reply delivered into a game through the mail-in path, the move
or answer checked in the database, and the answer email in the reply's language.

The first rows are the item's own cases: `away 2026-12-24..2026-12-31` (the player's page
suggests it), `Urlaub 20.-27. Dezember`, `nudge` from a player who is not to move, `king
spades`, `10c thx`, `5C proszę` and `I'll play the QS`, which read as `I'll play the ace of
diamonds` always did: a single card named once in a short reply is a move.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import cache

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.engine import Asked, BidMade, Card, CardPlayed, Phase, SuitNamed, legal_cards
from pbem.mailin.commands import AWAY_OFF, away_dates, needs_phase, read_commands
from pbem.mailin.language import LANGUAGES, RANKS, SUIT_LETTERS
from pbem.mailin.process import Inbox, deliver
from pbem.present.i18n import _, using
from pbem.present.refusals import no_command_while_waiting
from pbem.store.db import transaction
from pbem.store.models import Away, InboundMail
from tests.helpers import asked_at
from tests.mailin.support import (
    SETTINGS,
    emails,
    latest_token,
    player,
    reply,
    state_of,
    to_play,
    two_human_game,
)
from tests.mailin.variant_support import NAMES, address, bid_through_service, events, variant_game

TODAY = date(2026, 11, 29)  # the away dates below are read as of this day
# What the seat is asked when the reply comes: its turn to play, someone else's turn to play,
# its turn to pass cards; Auction Hearts' bidding and the naming of the suit to avoid.
PHASES: dict[str, tuple[Phase, str, bool]] = {
    "play": (Phase.PLAY, "standard", True), "waiting": (Phase.PLAY, "standard", False),
    "pass": (Phase.PASS, "standard", True), "bid": (Phase.BID, "auction", True),
    "name_suit": (Phase.NAME_SUIT, "auction", True),
}


@dataclass(frozen=True)
class Row:
    language: str  # the language the reply is written in
    reply: str
    phase: str  # a key of PHASES
    expected: str  # the command as `Command.describe()` says it; away: its dates as
    # `away FIRST..LAST` or `away off`; a refusal: `refused:<Reading.code>`


def rows(language: str, phase: str, *pairs: tuple[str, str]) -> list[Row]:
    return [Row(language, text, phase, expected) for text, expected in pairs]


ITEM_8 = [
    Row("en", "away 2026-12-24..2026-12-31", "play", "away 2026-12-24..2026-12-31"),
    Row("de", "Urlaub 20.-27. Dezember", "play", "away 2026-12-20..2026-12-27"),
    Row("en", "nudge", "waiting", "nudge"),
    Row("en", "king spades", "play", "play KS"),
    Row("en", "10c thx", "play", "play TC"),
    Row("en", "5C proszę", "play", "play 5C"),  # Polish politeness around a code
    Row("en", "I'll play the QS", "play", "play QS"),
    Row("en", "I'll play the ace of diamonds", "play", "play AD"),
]

# One card named once in a short reply, however it is dressed: a move
SHORT = rows("en", "play", ("QS - thanks!", "play QS"), ("QS :)", "play QS"), ("KS 👍", "play KS"),
             ("ok QS", "play QS"), ("the QS", "play QS"), ("K spades", "play KS"),
             ("QS please and thanks", "play QS"), ("Let’s play the KS", "play KS"),
             ("I’ll go with QS", "play QS"), ("I lead the queen of spades", "play QS"),
             ("Q♠ 😀", "play QS")) + [
    Row("fr", "QS merci beaucoup", "play", "play QS"),
    Row("nl", "QS dank je wel", "play", "play QS"),
    Row("it", "QS grazie mille", "play", "play QS"),
    Row("es", "QS muchas gracias", "play", "play QS"),
    Row("de", "QS, danke schön", "play", "play QS"),
]

PLAY = [
    *rows("en", "play", ("QS", "play QS"), ("play 10H", "play TH"), ("Q♠", "play QS"),
          ("queen of spades", "play QS"), ("Play the queen of spades, please", "play QS"),
          ("ten hearts", "play TH"), ("- KS", "play KS"), ("🃓", "play 3C")),
    *rows("de", "play", ("Pik Dame", "play QS"), ("Ich spiele Karo 7", "play 7D"),
          ("spiele KS bitte", "play KS"), ("Herz Zehn, danke", "play TH")),
    *rows("fr", "play", ("dame de pique", "play QS"), ("Je joue le 7 de carreau, merci",
                                                       "play 7D"), ("joue 10H svp", "play TH")),
    *rows("es", "play", ("reina de picas", "play QS"), ("juego el 7 de diamantes", "play 7D"),
          ("juego KS, gracias", "play KS")),
    *rows("it", "play", ("donna di picche", "play QS"), ("gioco il 7 di quadri, grazie",
                                                         "play 7D"), ("gioco KS", "play KS")),
    *rows("nl", "play", ("schoppenvrouw", "play QS"), ("ik speel ruiten 7", "play 7D"),
          ("speel KS alsjeblieft", "play KS")),
]

PASS = [
    *rows("en", "pass", ("pass 2C 3D AH", "pass 2C 3D AH"), ("2C 3D AH", "pass 2C 3D AH"),
          ("I will pass 2C 3D AH", "pass 2C 3D AH"), ("pass:\n2C\n3D\nAH", "pass 2C 3D AH")),
    *rows("de", "pass", ("Ich gebe 2C, 3D und AH weiter", "pass 2C 3D AH"),
          ("passe 2C 3D AH", "pass 2C 3D AH")),
    *rows("fr", "pass", ("je passe 2C 3D AH", "pass 2C 3D AH")),
    *rows("es", "pass", ("paso 2C 3D AH", "pass 2C 3D AH")),
    *rows("it", "pass", ("passo 2C 3D AH", "pass 2C 3D AH")),
    *rows("nl", "pass", ("pas 2C 3D AH", "pass 2C 3D AH")),
]

AUCTION = [
    *rows("en", "bid", ("bid 5", "bid 5"), ("bid 5 chips", "bid 5"), ("bid five", "bid 5"),
          ("no bid", "bid pass"), ("pass", "bid pass"), ("I pass", "bid pass")),
    *rows("de", "bid", ("ich biete 5", "bid 5"), ("Gebot 5 Chips", "bid 5"),
          ("passe", "bid pass")),
    *rows("fr", "bid", ("j'enchéris 5", "bid 5"), ("enchère 5 jetons", "bid 5"),
          ("je passe", "bid pass")),
    *rows("es", "bid", ("pujo 5 fichas", "bid 5"), ("paso", "bid pass")),
    *rows("it", "bid", ("offro 5", "bid 5"), ("passo", "bid pass")),
    *rows("nl", "bid", ("bied 5", "bid 5"), ("pas", "bid pass")),
    *rows("en", "name_suit", ("avoid spades", "avoid spades"), ("spades", "avoid spades"),
          ("♠", "avoid spades"), ("name hearts", "avoid hearts")),
    *rows("de", "name_suit", ("vermeide Pik", "avoid spades"), ("Herz", "avoid hearts")),
    *rows("fr", "name_suit", ("évite les piques", "avoid spades"), ("cœur", "avoid hearts")),
    *rows("es", "name_suit", ("evito picas", "avoid spades"), ("corazones", "avoid hearts")),
    *rows("it", "name_suit", ("evito picche", "avoid spades"), ("cuori", "avoid hearts")),
    *rows("nl", "name_suit", ("vermijd schoppen", "avoid spades"), ("harten", "avoid hearts")),
]

# The commands that read the same in every phase: one row a language each (the English word
# reads in every language too).
EVERYWHERE = {
    "claim": ("claim", "beanspruche", "réclame", "reclamo", "rivendico", "claim"),
    "status": ("status", "Stand", "état", "estado", "stato", "stand"),
    "help": ("help", "Hilfe", "aide", "ayuda", "aiuto", "hulp"),
    "nudge": ("nudge", "erinnern", "relancer", "recordar", "sollecita", "porren"),
    "end the game": ("end", "Ende", "fin", "terminar", "finire", "einde"),
    "play on": ("play on", "weiterspielen", "continuer", "seguimos", "continuiamo",
                "doorspelen"),
    "export": ("export", "meine Daten", "exporter mes données", "exportar mis datos",
               "i miei dati", "mijn gegevens"),
    "leave": ("resign", "aufgeben", "abandonner", "abandonar", "abbandono", "opgeven"),
    "unsubscribe": ("unsubscribe", "abmelden", "désabonner", "darme de baja", "disiscrivimi",
                    "afmelden"),
    "address ann@work.example": ("address ann@work.example", "Adresse ann@work.example",
                                 "adresse ann@work.example", "dirección ann@work.example",
                                 "indirizzo ann@work.example", "adres ann@work.example"),
    "away off": ("away off", "Urlaub aus", "vacances : annuler", "vacaciones cancelar",
                 "vacanze annulla", "vakantie voorbij"),
}
SIX = tuple(LANGUAGES)  # en de fr es it nl
COMMANDS = [Row(language, text, "waiting" if expected == "nudge" else "play", expected)
            for expected, texts in EVERYWHERE.items()
            for language, text in zip(SIX, texts, strict=True)]

SAY = [Row(language, text, "play", f"say {message}") for language, text, message in (
    ("en", "say good game!", "good game!"), ("de", "Nachricht: Gutes Spiel!", "Gutes Spiel!"),
    ("fr", "dis : bien joué !", "bien joué !"), ("es", "mensaje: ¡buena partida!",
                                                 "¡buena partida!"),
    ("it", "messaggio: bella partita!", "bella partita!"),
    ("nl", "zeg: goed gespeeld!", "goed gespeeld!"))]
# Another language's word for `say` says it only with a colon: chatter is no message that
# swallows the move after it.
SAY += [Row("de", "Sag mal, wie geht's?\nPik Dame", "play", "play QS"),
        Row("fr", "Dis, tu joues quand ?", "waiting", "refused:no_command")]

AWAY = [Row(language, text, "play", f"away {dates}") for language, text, dates in (
    ("en", "away 2026-12-20..2026-12-28", "2026-12-20..2026-12-28"),  # the seat page's example
    ("en", "away 2026-08-01 to 2026-08-14", "2026-08-01..2026-08-14"),  # the answers' example
    ("en", "away 1-14 August", "2027-08-01..2027-08-14"),  # the help email's and the docs'
    ("en", "vacation December 20-27", "2026-12-20..2026-12-27"),
    ("en", "away from 20 December to 3 January", "2026-12-20..2027-01-03"),
    ("de", "Urlaub vom 20. bis 27. Dezember", "2026-12-20..2026-12-27"),
    ("de", "Urlaub 24.12.-31.12.", "2026-12-24..2026-12-31"),
    ("de", "abwesend 24.12.2026-31.12.2026", "2026-12-24..2026-12-31"),
    ("fr", "vacances du 20 au 27 décembre", "2026-12-20..2026-12-27"),
    ("fr", "absent 24/12 - 31/12", "2026-12-24..2026-12-31"),
    ("es", "vacaciones del 20 al 27 de diciembre", "2026-12-20..2026-12-27"),
    ("es", "vacaciones 1-14 agosto", "2027-08-01..2027-08-14"),
    ("it", "vacanze dal 20 al 27 dicembre", "2026-12-20..2026-12-27"),
    ("it", "ferie 20 dicembre - 3 gennaio", "2026-12-20..2027-01-03"),
    ("nl", "vakantie 20 t/m 27 december", "2026-12-20..2026-12-27"),
    ("nl", "afwezig van 20 tot 27 december", "2026-12-20..2026-12-27"),
)]

MOON = [Row(language, text, "play", expected) for language, text, expected in (
    ("en", "moon down", "moon down"), ("de", "moon up, danke", "moon up"),
    ("fr", "moon down merci", "moon down"), ("es", "moon up, gracias", "moon up"),
    ("it", "moon down, grazie", "moon down"), ("nl", "moon up, bedankt", "moon up"))]

REFUSED = [
    Row("en", "QS?", "play", "refused:question"),
    Row("en", "QS\nAH", "play", "refused:several_commands"),
    Row("en", "I'll play the queen of spades, not AH", "play", "refused:several_cards"),
    Row("de", "Ich spiele Pik Dame und Herz As", "play", "refused:several_cards"),
    Row("en", "my 7D all day", "play", "refused:cards_in_sentence"),
    Row("en", "Thanks!", "play", "refused:no_command"),
    Row("fr", "Merci, à bientôt", "waiting", "refused:no_command"),
    Row("en", "bid lots", "bid", "refused:bad_bid"),
    Row("es", "pujo muchas", "bid", "refused:bad_bid"),
    Row("en", "avoid trumps", "name_suit", "refused:not_a_suit"),
    Row("it", "say", "play", "refused:empty_say"),
    Row("nl", "pas", "pass", "refused:pass_needs_cards"),
    Row("en", "2C 3D AH", "play", "refused:several_cards"),
    # a card in a sentence, not a short reply: asked about, never guessed (as "my 2c")
    Row("en", "my QS", "play", "refused:cards_in_sentence"),
    Row("en", "QS is my card", "play", "refused:cards_in_sentence"),
    Row("en", "I go with the flow", "play", "refused:no_command"),
    Row("en", "the end", "play", "refused:no_command"),
]

TABLE = [*ITEM_8, *SHORT, *PLAY, *PASS, *AUCTION, *COMMANDS, *SAY, *AWAY, *MOON, *REFUSED]


@cache
def now_in(phase: str) -> Asked:
    found, preset, to_move = PHASES[phase]
    return asked_at(found, preset, to_move=to_move)


def reading_of(text: str, phase: str) -> str:
    """What mail-in makes of `text`: the phase is loaded only when the reply needs it."""
    reading = read_commands(text, now_in(phase) if needs_phase(text) else None)
    if not reading.ok:
        assert reading.code and reading.problem
        return f"refused:{reading.code}"
    command = reading.action or reading.say
    assert command is not None
    if command.verb != "away":
        return command.describe()
    if command.text in AWAY_OFF:
        return "away off"
    dates = away_dates(command.text, TODAY)
    assert dates is not None, f"{command.text!r} isn't read as dates"
    return f"away {dates[0]}..{dates[1]}"


@pytest.mark.parametrize("row", TABLE, ids=[f"{r.language}:{r.phase}:{r.reply}" for r in TABLE])
def test_each_reply_reads_as_its_command(row: Row) -> None:
    assert reading_of(row.reply, row.phase) == row.expected


def test_the_table_has_every_command_in_all_six_languages() -> None:
    """Each command the help email and the docs list has a row in each language."""
    verbs = {"play", "pass", "bid", "avoid", "claim", "status", "help", "say", "away",
             "nudge", "address", "export", "end", "play on", "leave", "unsubscribe", "moon"}
    for language in SIX:
        said = {"play on" if row.expected == "play on" else row.expected.split()[0]
                for row in TABLE if row.language == language}
        assert verbs <= said, (language, verbs - said)


# --- the whole way: replies delivered into games --------------------------------------------

ANN, BOB = "ann@example.org", "bob@example.org"


def fixed_inbox(engine: Engine) -> Inbox:
    """Mail-in whose clock is today (the away dates below carry next year's)."""
    moment = datetime.now(UTC)
    return Inbox(engine, SETTINGS, clock=lambda: moment)


def spoken(card: Card, language: str) -> tuple[str, str]:
    """The card's rank and suit in words of `language` ("dame", "pique")."""
    words = LANGUAGES[language]
    rank = words.ranks[RANKS.index(card.code[0])].split()[0].replace("_", " ")
    suit = words.suits[SUIT_LETTERS.index(card.code[1])].split()[0]
    return rank, suit


# The card to play, in words, the way each language says it
PLAYED = {"en": "{rank} {suit}", "de": "Ich spiele {suit} {rank}",
          "fr": "je joue le {rank} de {suit}, merci", "es": "juego el {rank} de {suit}",
          "it": "gioco il {rank} di {suit}", "nl": "ik speel {suit} {rank}"}


def answer_language(engine: Engine, to: str, kind: str) -> str:
    found = emails(engine, to, kind)
    assert found, f"no {kind} email to {to}"
    html = found[-1].body_html or ""
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def newest_reason(engine: Engine) -> str:
    with transaction(engine, read_only=True) as session:
        newest = session.exec(select(InboundMail).order_by(col(InboundMail.id).desc())).first()
        assert newest is not None
        return newest.reason or ""


@pytest.mark.parametrize("language", SIX)
def test_a_card_named_in_words_is_played_and_confirmed_in_the_reply_s_language(
        engine: Engine, language: str) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = (ANN, BOB)[seat]
    card = legal_cards(state, seat)[0]
    rank, suit = spoken(card, language)
    text = PLAYED[language].format(rank=rank, suit=suit)
    deliver(fixed_inbox(engine), reply(latest_token(engine, me, "turn"), text, sender=me))
    assert CardPlayed(seat, card) in events(engine, game), (text, newest_reason(engine))
    assert answer_language(engine, me, "move_confirmed") == language


NUDGES = dict(zip(SIX, EVERYWHERE["nudge"], strict=True))


@pytest.mark.parametrize("language", SIX)
def test_nudge_by_reply_nudges_whoever_everyone_waits_for(engine: Engine,
                                                          language: str) -> None:
    """Sent by the player who is not to move: the one to move gets the nudge, the sender a
    note in their reply's language (not "Reply with the card you play")."""
    game = two_human_game(engine)
    seat, _state = to_play(engine, game)
    waiting = (ANN, BOB)[1 - seat]
    deliver(fixed_inbox(engine), reply(latest_token(engine, waiting), NUDGES[language],
                                       sender=waiting))
    assert emails(engine, (ANN, BOB)[seat], "nudge")
    assert not emails(engine, waiting, "error")
    (note,) = emails(engine, waiting, "note")
    with using(language):
        nudged = _("Nudged: %(names)s got a friendly reminder.", names=("Ann", "Bob")[seat])
    assert nudged in " ".join(note.body_text.split())


def next_year_away() -> list[tuple[str, str, str]]:
    year = datetime.now(UTC).year + 1
    return [("en", f"away {year}-12-24..{year}-12-31", "24"),
            ("de", f"Urlaub 20.-27. Dezember {year}", "20"),
            ("fr", f"vacances du 21 au 27 décembre {year}", "21"),
            ("es", f"vacaciones del 22 al 27 de diciembre de {year}", "22"),
            ("it", f"vacanze dal 23 al 27 dicembre {year}", "23"),
            ("nl", f"vakantie 19 t/m 27 december {year}", "19")]


@pytest.mark.parametrize(("language", "text", "first"), next_year_away(),
                         ids=[row[0] for row in next_year_away()])
def test_away_by_reply_notes_the_dates_in_the_reply_s_language(
        engine: Engine, language: str, text: str, first: str) -> None:
    two_human_game(engine)
    deliver(fixed_inbox(engine), reply(latest_token(engine, ANN, "pass"), text))
    year = datetime.now(UTC).year + 1
    with transaction(engine, read_only=True) as session:
        spans = [(a.starts_on, a.ends_on) for a in session.exec(
            select(Away).where(Away.player_id == player(engine, ANN).id))]
    last = date(year, 12, 31 if language == "en" else 27)
    assert spans == [(date(year, 12, int(first)), last)], newest_reason(engine)
    (note,) = emails(engine, ANN, "note")
    with using(language):
        noted = _("Noted: you're away from %(since)s to %(until)s. Your games wait for you as "
                  "their rules say. Enjoy!", since="\0", until="\0").split("\0")[0]
    assert noted in note.body_text
    assert answer_language(engine, ANN, "note") == language


SAYS = [(row.language, row.reply, row.expected.removeprefix("say ")) for row in SAY[:6]]


@pytest.mark.parametrize(("language", "text", "message"), SAYS, ids=SIX)
def test_say_by_reply_reaches_the_other_player(engine: Engine, language: str, text: str,
                                               message: str) -> None:
    two_human_game(engine)
    deliver(fixed_inbox(engine), reply(latest_token(engine, ANN, "pass"), text))
    (relayed,) = emails(engine, BOB, "say")
    assert message in relayed.body_text


PASSES = {"en": "pass {0} {1} {2}", "de": "Ich gebe {0}, {1} und {2} weiter",
          "fr": "je passe {0} {1} {2}", "es": "paso {0} {1} {2}", "it": "passo {0} {1} {2}",
          "nl": "pas {0} {1} {2}"}


@pytest.mark.parametrize("language", SIX)
def test_a_pass_by_reply_passes_the_cards(engine: Engine, language: str) -> None:
    game = two_human_game(engine)
    cards = state_of(engine, game).hand(0)[:3]
    text = PASSES[language].format(*cards)
    deliver(fixed_inbox(engine), reply(latest_token(engine, ANN, "pass"), text))
    assert state_of(engine, game).has_passed(0), newest_reason(engine)


BIDS = dict(zip(SIX, ("I bid 3", "ich biete 3", "j'enchéris 3", "pujo 3", "offro 3",
                      "bied 3"), strict=True))
AVOIDS = dict(zip(SIX, ("avoid spades", "vermeide Pik", "évite les piques", "evito picas",
                        "evito picche", "vermijd schoppen"), strict=True))


@pytest.mark.parametrize("language", SIX)
def test_auction_bid_and_suit_by_reply_in_each_language(engine: Engine, language: str) -> None:
    game = variant_game(engine, "auction")
    seat = state_of(engine, game).turn
    me = address(seat)
    deliver(fixed_inbox(engine), reply(latest_token(engine, me, "bid"), BIDS[language],
                                       sender=f"{NAMES[seat]} <{me}>"))
    assert BidMade(seat, 3) in events(engine, game), newest_reason(engine)
    state = bid_through_service(engine, game, [None] * (state_of(engine, game).seats - 1))
    assert state.phase is Phase.NAME_SUIT and state.turn == seat
    deliver(fixed_inbox(engine), reply(latest_token(engine, me, "name_suit"), AVOIDS[language],
                                       sender=f"{NAMES[seat]} <{me}>"))
    assert any(isinstance(e, SuitNamed) and e.suit.plural == "spades"
               for e in events(engine, game)), newest_reason(engine)


@pytest.mark.parametrize(("language", "text"), [
    ("en", "Any news? Thanks"), ("de", "Gibt es was Neues? Danke"),
    ("fr", "Des nouvelles ? Merci"), ("es", "¿Novedades? Gracias"),
    ("it", "Novità? Grazie"), ("nl", "Nog nieuws? Bedankt")])
def test_a_reply_with_no_command_while_someone_else_is_to_move_points_to_nudge(
        engine: Engine, language: str, text: str) -> None:
    """Not "Reply with the card you play" to a player nothing is asked of."""
    game = two_human_game(engine)
    seat, _state = to_play(engine, game)
    waiting = (ANN, BOB)[1 - seat]
    deliver(fixed_inbox(engine), reply(latest_token(engine, waiting), text, sender=waiting))
    (error,) = emails(engine, waiting, "error")
    with using(language):
        told = no_command_while_waiting("\0").split("\0")[1]
    assert language == "en" or told != no_command_while_waiting("\0").split("\0")[1]
    assert " ".join(told.split()) in " ".join(error.body_text.split())
    assert "Reply with the card you play" not in error.body_text
