"""The words players write, per language: card and suit names and the commands, turned into
the English the reply reader knows (`QS`, `pass`, `help`...), and the cards named anywhere in
a sentence ("Je joue 3C, merci", "Ich spiele Pik Dame", "3 ♣", "🃓").

Each language is data (a `Words`); adding one is adding an entry to LANGUAGES. Names are
matched one language at a time, so words of different languages never pair up.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, partial

from pbem.engine import Card, UnreadableInput, parse_card

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


@dataclass(frozen=True)
class Words:
    """One language's words. `ranks`: words for 2..10, J, Q, K, A in that order (each a
    space-separated list of spellings); `suits`: clubs, diamonds, hearts, spades; `joins`:
    words between rank and suit ("of", "de"); `commands`: English verb → spellings (a
    spelling may be several words); `pronouns` and `polite`: dropped around a command."""

    ranks: tuple[str, ...]
    suits: tuple[str, str, str, str]
    joins: str = ""
    commands: dict[str, str] = field(default_factory=dict)
    pronouns: str = ""
    polite: str = ""


LANGUAGES: dict[str, Words] = {
    "en": Words(
        ranks=("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack knave", "queen", "king", "ace"),
        suits=("clubs club", "diamonds diamond", "hearts heart", "spades spade"),
        joins="of", pronouns="i",
        commands={"vacation": "holiday holidays on_holiday on_vacation",
                  "nudge": "remind poke",
                  "unsubscribe": "unsub opt_out remove_me",
                  "leave": "resign leave_game leave_the_game quit_game quit_the_game give_up "
                           "i_resign i_give_up"},
        polite="please pls thanks thank_you cheers ta many_thanks thanks_a_lot "
               "please_and_thanks please_and_thank_you"),
    "de": Words(
        ranks=("zwei", "drei", "vier", "fünf fuenf", "sechs", "sieben", "acht", "neun", "zehn",
               "bube bauer", "dame", "könig koenig konig", "ass as"),
        suits=("kreuz treff", "karo", "herz", "pik"),
        commands={"play": "spiele spiel lege", "pass": "passe passen schiebe gebe_weiter",
                  "claim": "beanspruche rest_für_mich", "help": "hilfe",
                  "status": "stand", "end": "ende spiel_beenden beenden",
                  "play on": "weiterspielen weiter_spielen",
                  "vacation": "urlaub ferien abwesend", "unsubscribe": "abmelden abbestellen",
                  "leave": "aufgeben spiel_verlassen ich_gebe_auf",
                  "export": "daten_exportieren meine_daten exportieren",
                  "bid": "biete gebot", "avoid": "vermeide meide", "say": "sag sage nachricht",
                  "nudge": "anstupsen stupsen erinnern", "address": "adresse"},
        pronouns="ich", polite="bitte danke vielen_dank danke_schön dankeschön gruß gruss"),
    "fr": Words(
        ranks=("deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
               "valet", "dame reine", "roi", "as"),
        suits=("trèfle trèfles trefle trefles", "carreau carreaux", "cœur cœurs coeur coeurs",
               "pique piques"),
        joins="de du d'",
        commands={"play": "joue jouer", "pass": "passe passer", "claim": "réclame reclame",
                  "help": "aide", "status": "état etat statut",
                  "end": "fin terminer fin_de_partie", "play on": "continuer on_continue",
                  "vacation": "vacances congés conges absent absente",
                  "unsubscribe": "désabonner désabonnez-moi desabonner désinscrire "
                                 "desinscrire me_désabonner me_desabonner",
                  "leave": "abandonner j'abandonne quitter_la_partie",
                  "export": "exporter mes_données mes_donnees exporter_mes_données",
                  "bid": "enchère enchere enchéris encheris mise", "avoid": "évite evite "
                  "éviter eviter", "say": "dis", "nudge": "relancer relance",
                  "address": "adresse"},
        pronouns="je j'", polite="merci merci_beaucoup s'il_vous_plaît s'il_vous_plait svp stp"),
    "es": Words(
        ranks=("dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
               "jota sota", "reina dama", "rey", "as"),
        suits=("tréboles trébol treboles trebol", "diamantes diamante",
               "corazones corazón corazon", "picas pica"),
        joins="de",
        commands={"play": "juego jugar juega", "pass": "paso pasar", "claim": "reclamo",
                  "help": "ayuda", "status": "estado", "end": "terminar fin_del_juego",
                  "play on": "seguir seguimos continuar", "vacation": "vacaciones",
                  "unsubscribe": "darme_de_baja darse_de_baja cancelar_suscripción "
                                 "cancelar_suscripcion",
                  "leave": "abandonar abandono dejar_la_partida",
                  "export": "exportar mis_datos exportar_mis_datos",
                  "bid": "pujo puja apuesto", "avoid": "evito evitar", "say": "mensaje",
                  "nudge": "recordar recordatorio", "address": "dirección direccion"},
        pronouns="yo", polite="gracias muchas_gracias por_favor"),
    "it": Words(
        ranks=("due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci",
               "fante jack", "regina donna", "re", "asso"),
        suits=("fiori", "quadri", "cuori", "picche"),
        joins="di",
        commands={"play": "gioco giocare", "pass": "passo passare", "claim": "rivendico",
                  "help": "aiuto", "status": "stato", "end": "finire fine_partita termina",
                  "play on": "continuiamo continuare", "vacation": "vacanza vacanze ferie",
                  "unsubscribe": "disiscrivimi disiscrivi annulla_iscrizione",
                  "leave": "abbandono abbandonare lascio_la_partita",
                  "export": "esporta esportare i_miei_dati",
                  "bid": "offro offerta", "avoid": "evito evitare", "say": "messaggio",
                  "nudge": "sollecita sollecito", "address": "indirizzo"},
        pronouns="io", polite="grazie grazie_mille per_favore"),
    "nl": Words(
        ranks=("twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen", "tien",
               "boer", "vrouw dame", "heer koning", "aas"),
        suits=("klaveren klaver", "ruiten", "harten", "schoppen"),
        commands={"play": "speel", "pass": "pas passen", "claim": "claim", "help": "hulp",
                  "status": "stand", "end": "einde stoppen beëindigen beeindigen",
                  "play on": "doorspelen verder_spelen", "vacation": "vakantie afwezig",
                  "unsubscribe": "afmelden uitschrijven",
                  "leave": "opgeven ik_geef_op spel_verlaten",
                  "export": "exporteren mijn_gegevens",
                  "bid": "bied bod", "avoid": "vermijd vermijden", "say": "zeg",
                  "nudge": "porren herinneren herinnering", "address": "adres"},
        pronouns="ik", polite="alsjeblieft alstublieft bedankt dank_je dank_je_wel dank_u"),
}

SUIT_LETTERS = "CDHS"
_SYMBOLS = "♣♦♥♠♧♢♡♤"
_SYMBOL_OF = dict(zip(SUIT_LETTERS, _SYMBOLS, strict=False))  # "S" → "♠"
_DIGIT_RANKS = {str(n): RANKS[n - 2] for n in range(2, 11)}  # "10" → "T"
# Unicode playing cards: U+1F0A1.. spades, B1 hearts, C1 diamonds, D1 clubs; the low nibble
# is the rank (1 ace, 2-10, B jack, C knight (not in our deck), D queen, E king).
_BLOCK_SUITS = {0xA: "S", 0xB: "H", 0xC: "D", 0xD: "C"}
_BLOCK_RANKS = {1: "A", **{n: RANKS[n - 2] for n in range(2, 11)}, 0xB: "J", 0xD: "Q", 0xE: "K"}
_SPACED_SYMBOL = re.compile(rf"(?<![\w])(10|[2-9]|[AKQJTakqjt])\s+([{_SYMBOLS}])")
# A card code inside a sentence: digits with any case ("3c", "10H"); letter ranks only when
# written in capitals ("QS", "AH": "as" and "ad" are words).
_CODE = re.compile(rf"(?<![\w])(?:(10|[2-9])([cdhsCDHS{_SYMBOLS}])|([AKQJT])([CDHS{_SYMBOLS}])"
                   rf"|([akqjt])([{_SYMBOLS}]))(?![\w])")


def _spellings(text: str) -> list[str]:
    return [s.replace("_", " ") for s in text.split()]


def _alternation(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _name_patterns() -> list[tuple[re.Pattern[str], dict[str, str], dict[str, str]]]:
    """Per language: a pattern for "rank [join] suit" or "suit[-]rank" (German and Dutch
    glue them: "Pikdame", "schoppenvrouw"), and the word → rank / suit letter maps."""
    found = []
    for words in LANGUAGES.values():
        ranks = {s: RANKS[i] for i, spelled in enumerate(words.ranks) for s in _spellings(spelled)}
        ranks |= _DIGIT_RANKS  # "7 of diamonds", "Karo 7", "6 di fiori"
        suits = {s: SUIT_LETTERS[i] for i, spelled in enumerate(words.suits)
                 for s in _spellings(spelled)}
        rank, suit = _alternation(ranks), _alternation(suits)
        # Rank first only with the joining word ("two of hearts", "dame de pique", "7 of
        # diamonds"): "two hearts" and "twee harten" count cards, they don't name one.
        # German and Dutch put the suit first ("Pik Dame", "schoppenvrouw", "Karo 7"); the
        # others only with a rank in words ("hearts 2 times" is no card).
        join = _alternation(_spellings(words.joins))
        rank_first = rf"(?P<r1>{rank})\s+(?:{join})\s*(?P<s1>{suit})|" if join else ""
        second = _alternation(r for r in ranks if join == "" or r not in _DIGIT_RANKS)
        pattern = re.compile(
            rf"(?<![\w])(?:{rank_first}(?P<s2>{suit})[\s-]*(?P<r2>{second}))(?![\w])",
            re.IGNORECASE)
        found.append((pattern, ranks, suits))
    return found


def cards_by_name(text: str, *, symbols: bool = False) -> str:
    """`text` with card names in any of the languages, Unicode playing cards and "3 ♣"
    written as codes ("Pik Dame" → "QS", "🃓" → "3C"). `symbols`: with the suit's symbol
    ("Pik Dame" → "Q♠"), which tells a card named from a bare code like "7D"."""
    if _BLOCK.search(text):
        text = "".join(_block_card(ch, symbols) for ch in text)
    text = _SPACED_SYMBOL.sub(lambda m: m.group(1) + m.group(2), text)
    if _names_a_suit(text):  # most replies name no suit in words: skip the patterns
        for pattern, ranks, suits in _name_patterns():
            text = pattern.sub(partial(_code, ranks=ranks, suits=suits, symbols=symbols), text)
    return text


_BLOCK = re.compile("[\U0001F0A1-\U0001F0DE]")


_WORD = re.compile(r"[^\W\d_]+")


def _names_a_suit(text: str) -> bool:
    """Does a word start with a suit's name in some language ("Pikdame" too)? A quick
    filter: a startswith over the words is far cheaper than the name patterns."""
    prefixes = _suit_words()
    return any(word.startswith(prefixes) for word in _WORD.findall(text.lower()))


@cache
def _suit_words() -> tuple[str, ...]:
    return tuple({s for w in LANGUAGES.values() for spelled in w.suits
                  for s in _spellings(spelled)})


def _code(match: re.Match[str], ranks: dict[str, str], suits: dict[str, str],
          symbols: bool = False) -> str:
    found = match.groupdict()
    rank = (found.get("r1") or found["r2"]).lower()
    suit = suits[(found.get("s1") or found["s2"]).lower()]
    return ranks[rank] + (_SYMBOL_OF[suit] if symbols else suit)


def _block_card(ch: str, symbols: bool = False) -> str:
    point = ord(ch)
    if not 0x1F0A1 <= point <= 0x1F0DE:
        return ch
    suit, rank = _BLOCK_SUITS.get((point >> 4) & 0xF), _BLOCK_RANKS.get(point & 0xF)
    if not (suit and rank):
        return ch
    return f" {rank}{_SYMBOL_OF[suit] if symbols else suit} "


def cards_in(text: str, *, any_case: bool = False) -> list[Card]:
    """Every card named anywhere in `text` (codes, names, symbols), in order, repeats kept.
    `any_case`: letter codes in lower case count too (after a command word: "pass 2c ah")."""
    named = cards_by_name(text)
    found = (_card_of(m) for m in _CODE.finditer(named.upper() if any_case else named))
    return [card for card in found if card is not None]


def cards_in_prose(text: str) -> tuple[list[Card], list[str]]:
    """A sentence's cards, told apart: those named unmistakably (in words: "the 7 of
    diamonds", "dame de pique"; with a suit symbol: "7♦", "Q ♠"; Unicode playing cards),
    and the bare codes as written ("7D", "2c", "AS"), which in prose are as often a camera,
    "my 2c" or "3D printing" as a card."""
    named: list[Card] = []
    codes: list[str] = []
    for match in _CODE.finditer(cards_by_name(text, symbols=True)):
        card = _card_of(match)
        if card is not None and match.group(0)[-1] in _SYMBOLS:
            named.append(card)
        elif card is not None:
            codes.append(match.group(0))
    return named, codes


def _card_of(match: re.Match[str]) -> Card | None:
    rank = match.group(1) or match.group(3) or match.group(5)
    suit = match.group(2) or match.group(4) or match.group(6)
    try:
        return parse_card(rank + suit)
    except UnreadableInput:
        return None


# German splits "weitergeben" around what is passed: "Ich gebe 2C, 3D und AH weiter".
_SPLIT_VERB = re.compile(r"^(?:ich\s+)?(?:gebe|schiebe)\s+(?P<what>.+?)\s+weiter\b",
                         re.IGNORECASE)


@cache
def _command_words() -> tuple[re.Pattern[str], dict[str, str], re.Pattern[str]]:
    verbs = {s: verb for words in LANGUAGES.values() for verb, spelled in words.commands.items()
             for s in _spellings(spelled)}
    pronouns = [s for w in LANGUAGES.values() for s in _spellings(w.pronouns)]
    polite = [s for w in LANGUAGES.values() for s in _spellings(w.polite)]
    lead = re.compile(rf"^(?:(?:{_alternation(pronouns)})\s*)?(?P<verb>{_alternation(verbs)})"
                      r"(?![\w])", re.IGNORECASE)
    words = _alternation(polite)
    trail = re.compile(rf"(?:[\s,.;:!]+(?:{words}))+[\s.!]*$|^(?:{words})[\s,]+", re.IGNORECASE)
    return lead, verbs, trail


def in_english(line: str) -> str:
    """A cleaned, lower-case line with a command word of another language (after a pronoun:
    "ich passe", "je joue") made English, polite words dropped, and card names as codes."""
    lead, verbs, trail = _command_words()
    line = trail.sub("", cards_by_name(line)).strip()
    line = _SPLIT_VERB.sub(r"passe \g<what>", line)  # "Ich gebe 2C 3D AH weiter"
    found = lead.match(line)
    if found:
        line = verbs[found.group("verb").lower()] + line[found.end():]
    return unicodedata.normalize("NFC", line).lower()


def after_command_word(line: str) -> str:
    """`line` as written, after its leading command word in any language (and a pronoun
    before it): the message of "Nachricht: gutes Spiel", "je dis bravo", "say hi"."""
    lead, _verbs, _trail = _command_words()
    found = lead.match(line)
    if found:
        return line[found.end():]
    return line[3:] if line[:3].lower() == "say" else line.partition(" ")[2]


@cache
def _suits_in_english() -> dict[str, str]:
    english = [spelled.split()[0] for spelled in LANGUAGES["en"].suits]
    return {s: english[i] for words in LANGUAGES.values() for i, spelled in enumerate(words.suits)
            for s in _spellings(spelled)}


def suit_in_english(word: str) -> str:
    """A suit's name in any of the languages as the English one ("Pik" → "spades"); other
    words as they are."""
    cleaned = unicodedata.normalize("NFC", word.strip()).lower()
    return _suits_in_english().get(cleaned, word)


@cache
def _language_words() -> dict[str, frozenset[str]]:
    """Per language, the words that show a reply is written in it: suit names, command
    words, pronouns and polite words (English: its own spellings beyond the bare commands
    every language's players type: "pass", "claim", "status"...)."""
    found: dict[str, set[str]] = {}
    for language, words in LANGUAGES.items():
        spelled = [*words.suits, words.pronouns, words.polite, *words.commands.values()]
        if language == "en":
            spelled += ["play", "help", "please", "thanks"]
        found[language] = {s.lower() for text in spelled for s in _spellings(text)}
    # Words two languages share say nothing about either ("stand", "claim", "vier").
    counts: dict[str, int] = {}
    for spellings in found.values():
        for s in spellings:
            counts[s] = counts.get(s, 0) + 1
    # The bare English commands every language's players type ("claim", "pass", "status")
    # say nothing either, even where a language spells its own command the same ("claim").
    bare = {verb.lower() for words in LANGUAGES.values() for verb in words.commands}
    return {language: frozenset(s for s in spellings if counts[s] == 1 and s not in bare)
            for language, spellings in found.items()}


_WORDS_OF = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def language_of(text: str) -> str | None:
    """The language a reply is written in, by the words of it the reader knows ("Ich spiele
    Pik Dame" → "de", "please play the queen of spades" → "en"); None when its words say no
    language (a bare "QS") or two equally."""
    lowered = unicodedata.normalize("NFC", text).lower()
    tokens = _WORDS_OF.findall(lowered)
    if not tokens:
        return None
    singles = set(tokens)
    pairs = {f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False)}
    scores: dict[str, int] = {}
    for language, spellings in _language_words().items():
        score = len(singles & spellings) + len(pairs & spellings)
        if score:
            scores[language] = score
    if not scores:
        return None
    best = max(scores.values())
    leaders = [language for language, score in scores.items() if score == best]
    return leaders[0] if len(leaders) == 1 else None
