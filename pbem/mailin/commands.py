"""Commands: the reply language → a small Command value (or a sentence saying what's wrong).

One command a line, case-insensitive: a card alone or `play QS`; `pass 2C 3D AH` (in the pass
phase a bare list of cards is a pass too); `claim`; `moon down` / `moon up`; `status`; `help`;
`say <text>` (the rest of the reply is the message; another language's word for it takes a
colon: `Nachricht: gutes Spiel`); `away <dates>` (`vacation <dates>`, `Urlaub ...`: the dates
as the pages write them, `2026-12-24..2026-12-31`, and as people do in each language,
`vom 20. bis 27. Dezember`, `du 20 au 27 décembre`, `24.12.-31.12.`); `nudge`; `unsubscribe`
(`stop`, `abmelden`...: answered with how to stop the emails).
Cards as the engine reads them: `QS`, `Q♠`, `10H`, `TH`, `Q S`, `10 H`, `queen of spades`,
`7 of diamonds` (with two decks, Cancellation Hearts, `QS` is "a queen of spades you hold",
whichever deck it came from). A list marker before a line ("- KS", "* KS", "1. KS") is
dropped, and a trailing "?" after `help` or `status`; a move asked as a question ("QS?",
"claim?") is not made but answered. Lines that aren't commands ("Thanks!") are ignored; a
reply with none, or with two different ones, gets an error email. A card named once in a short
reply is a move however it is dressed: polite words, a smiley, "ok", "the", "I'll play / go
with"; `Reading.code` says why a reply can't be carried out.

Auction Hearts: `bid 5` (`bid 5 chips`, `bid five`), and `pass` alone (also `no bid`, `bid
pass`) passes the bid; the winning bidder names the suit to avoid with `avoid spades` (`avoid
♠`, `avoid S`, `name spades`), or with the suit's name or symbol alone on a line (`spades`,
`♠`; not a bare letter, which is too often an initial) while the suit is being named.

Some lines read differently by what the seat is asked (`read_commands`' `now`, the engine's
`asked(state, seat)`): a bare list of cards is a pass in the pass phase and a mistake otherwise
(so are cards one a line, or as a list, alone or after a `pass` line);
a bare `pass` passes the bid while bids are made, asks for the cards when the seat is asked to
pass them, and elsewhere gets the engine's reason why no cards can be passed now ("Nobody passes
cards in Domino Hearts."); a bare suit names the suit only while it is being named.
`needs_phase` says when a reply has such a line, so the game is loaded only then.

Other languages (pbem.mailin.language): card names ("Pik Dame", "dame de pique"), Unicode
playing cards and the commands in German, French, Spanish, Italian and Dutch read as English.
When no line is a command, a card named unmistakably inside a sentence (in words: "I'll take
the queen of spades", "le 7 de carreau"; with a symbol: "Q♠ it is") is played if it is the only
card named (several are passed in the pass phase); two different cards are asked about, never
guessed. A bare code inside a sentence ("my 7D", "3D printing", "my 2c") is never a move: the
answer names it and says how to play it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from pbem.engine import (
    Ask,
    Asked,
    Card,
    PassCards,
    Phase,
    Suit,
    UnreadableInput,
    parse_card,
    parse_cards,
    parse_suit,
    sort_cards,
)
from pbem.mailin.language import (
    after_command_word,
    cards_in,
    cards_in_prose,
    in_english,
    suit_in_english,
)
from pbem.present.i18n import _
from pbem.present.refusals import explain
from pbem.present.words import list_words

MOVES = frozenset({"play", "pass", "claim", "moon", "bid", "avoid", "end"})
VERBS = ("play", "pass", "claim", "moon", "bid", "avoid", "status", "help", "say", "away",
         "address", "end", "unsubscribe", "leave", "nudge", "export")
# "Download my data" by reply (issue 35): a sign-in link to the download, pbem.mailin.export.
EXPORT = frozenset({"export", "export my data", "my data", "send my data", "download my data",
                    "export data", "data export"})
# Seed 003's vote to end the game early (any time, any seat): agree (or propose), or play on.
END_AGREE = frozenset({"end", "end game", "end the game", "end now", "end the game now",
                       "vote end", "vote to end", "agree to end", "end yes", "yes end",
                       "end agreed", "agree end"})
END_PLAY_ON = frozenset({"play on", "keep playing", "end no", "no end", "vote play on",
                         "continue", "dont end", "don't end"})
SUIT_VERBS = frozenset({"avoid", "name", "suit"})  # `avoid spades`, `name spades`, `suit spades`
NO_BID = frozenset({"no bid", "bid pass", "pass bid", "pass the bid"})
_MOVE_VERBS = frozenset({"play", "bid", "pass", "moon"} | SUIT_VERBS)  # read by `_read_move`
_NUMBER_WORDS = {word: n for n, word in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"))}
# "bid 5 chips", "biete 5 Chips", "5 jetons", "5 fichas", "5 gettoni", "5 fiches"
_BID = re.compile(r"^(-?\d+(?:[.,]\d+)?|[a-z]+)(?:\s+(?:chips?|jetons?|fiches?|fichas?|"
                  r"gettoni|gettone))?$")
_SUIT_LETTERS = frozenset("cdhs")  # alone on a line: an initial, not a suit
_TRAILING = re.compile(r"[\s.!,;:\-\u2013\u2014]+$")  # "QS - thanks!" → "QS -" → "QS"
# A smiley or emoji after a short command ("QS :)", "KS 👍", "QS ❤️"); not the suit symbols
# or the playing cards (U+1F0A0..), which name cards.
_SMILEY = re.compile(r"(?:\s*(?:[:;]-?[()dpD]|<3|\^\^)|\s*[\U0001F300-\U0001FAFF\u2700-\u27BF"
                     r"\u263A\u2639\uFE0F\u200D])+$")
# Polite words around a short command, in the six languages read and a few more people
# write ("10c thx", "5C proszę", "KS bitte"): dropped before the line is read.
_POLITE = re.compile(r"^(?:please\s+|pls\s+|bitte\s+|por favor\s+|per favore\s+|ok(?:ay)?,?\s+)|"
                     r"\s+(?:please and thanks|please|"
                     r"pls|plz|thanks|thank you|thx|ty|cheers|bitte|danke|merci|svp|gracias|"
                     r"por favor|grazie|per favore|dank je|dankjewel|alsjeblieft|proszę|prosze|"
                     r"dzięki|dzieki|obrigado|obrigada)$")
# "I bid 5", "I pass", "I'll play the QS", "let me play QS"
_I = re.compile(r"^(?:i(?:['\u2019]ll|\s+will|['\u2019]d)?|let me|let['\u2019]s|i'd like to)\s+"
                r"(?=(?:play|pass|bid|avoid|name|claim|lead|go with|throw)\b)")
_PLAY_WORDS = re.compile(r"^(?:lead|go with|throw)\s+")  # "I'll go with QS": after "I" only
_ARTICLE = re.compile(r"^(?:the|my|a|an)\s+")  # "play the QS"
# "king spades", "10 of clubs" without "of": a rank and a suit named in words
# (not "a": "a heart" is any heart)
_RANK_SUIT_WORDS = re.compile(r"^((?:play\s+|pass\s+)?(?:ace|king|queen|jack|ten|\d{1,2}|two|three|"
                              r"four|five|six|seven|eight|nine|[kqjt]))\s+(clubs?|diamonds?|"
                              r"hearts?|spades?)$")
_LIST_MARKER = re.compile(r"^(?:[-*\u2022\u00b7\u2013\u2014]|\(?\d{1,2}[.)])\s+")  # "- KS", "1. KS"
_SPACED_CODE = re.compile(r"^((?:play|pass)\s+)?(10|[2-9akqjt])\s+([cdhs])$")  # "Q S", "10 H"
_ASKED = frozenset({"help", "status", "unsubscribe"})  # "help?" asks for help
# "stop" alone most often means the emails (the game ends by "end"): the answer says both.
_STOP = frozenset({"stop", "quit", "stop emails", "stop emailing me", "stop sending emails",
                   "stop sending me emails", "no more emails", "stop the emails"})
_MAX_READ = 200  # characters of the reply quoted back in an error email


@dataclass(frozen=True)
class Command:
    verb: str  # one of VERBS
    cards: tuple[Card, ...] = ()
    down: bool = False  # moon: True = go down, False = the others go up
    chips: int | None = None  # bid: the chips bid, None = pass
    suit: Suit | None = None  # avoid: the suit named
    agree: bool = True  # end: True agrees to end the game now, False plays on
    text: str = ""  # say: the message; away: the dates as written
    line: str = ""  # what was read

    @property
    def is_move(self) -> bool:
        return self.verb in MOVES

    @property
    def reply(self) -> str:
        """What to reply, on a line of its own, to make this move ("QS", "pass 2C 3D AH")."""
        return str(self.cards[0]) if self.verb == "play" else self.describe()

    def describe(self) -> str:
        if self.verb == "play":
            return f"play {self.cards[0]}"
        if self.verb == "pass":
            return "pass " + " ".join(str(c) for c in self.cards)
        if self.verb == "moon":
            return "moon down" if self.down else "moon up"
        if self.verb == "bid":
            return "bid pass" if self.chips is None else f"bid {self.chips}"
        if self.verb == "avoid" and self.suit is not None:
            return f"avoid {self.suit.plural}"
        if self.verb in {"say", "away", "address"}:
            return f"{self.verb} {self.text}".strip()
        if self.verb == "end":
            return "end the game" if self.agree else "play on"
        return self.verb


@dataclass(frozen=True)
class Reading:
    """What a reply asks for: one action (and perhaps a `say`), or the problem with it."""

    action: Command | None = None
    say: Command | None = None
    problem: str = ""  # empty when the reading can be carried out
    # why not, as a code: the reader's ("no_command", "several_commands", "question",
    # "cards_in_sentence", "several_cards", "empty_say", "bad_bid"...) or the engine's
    # UnreadableInput code ("not_a_card"...)
    code: str = ""
    read: str = ""  # the reply's text as we read it (shortened), for error emails

    @property
    def ok(self) -> bool:
        return not self.problem and (self.action is not None or self.say is not None)


def needs_phase(text: str) -> bool:
    """Does reading `text` depend on the phase (see the module's doc: a line of several bare
    cards or several lines of one, a bare `pass`, a bare suit, cards inside sentences)? Lets
    the caller skip loading the game otherwise."""
    commands = bare_cards = 0
    for line in text.splitlines():
        cleaned = _clean(line)
        verb = _verb(cleaned)
        if cleaned == "pass" or _bare_suit(cleaned) is not None:
            return True
        if verb in VERBS or verb in SUIT_VERBS:
            commands += 1
            if verb == "say":
                break  # the rest is the message
            continue
        count = _card_count(cleaned)
        if count > 1 or (count and bare_cards):
            return True
        bare_cards += count
    return not (commands or bare_cards) and bool(cards_in(text))  # sentences


def _card_count(cleaned: str) -> int:
    """The cards a line is made of (0: not only cards)."""
    try:
        return len(parse_cards(cleaned)) if cleaned else 0
    except UnreadableInput:
        return 0


def read_commands(text: str, now: Asked | None = None) -> Reading:
    """Read a trimmed reply. `now`: what the replying seat is asked (the engine's `asked`),
    when `needs_phase(text)` (None: not loaded, the reply reads the same in every phase)."""
    phase = now.state.phase if now is not None and now.state is not None else None
    read = _shorten(text)
    found: list[Command] = []
    problems: list[tuple[str, str]] = []  # (code, words)
    lines = _listed_pass(text.splitlines(), phase)
    for i, raw in enumerate(lines):
        line = _clean(raw)
        if not line:
            continue
        said = _said(raw, line)
        if said is not None:
            rest = "\n".join([said, *lines[i + 1:]]).strip()
            found.append(Command("say", text=rest, line=raw.strip()))
            break
        try:
            command = _read(raw, line, now)
        except UnreadableInput as exc:
            problems.append((str(exc.data.get("why") or exc.code), explain(exc)))
            continue
        if command is not None:
            found.append(command)
    return _judge(found, problems, read, text, phase)


def _said(raw: str, line: str) -> str | None:
    """The message of a `say` line (the rest of the reply follows it), or None if the line
    is no `say`. The other languages' words ("Nachricht", "dis", "zeg") say it only with a
    colon ("Nachricht: gutes Spiel"): "Sag mal, ..." or "Dis, tu joues ?" are no message."""
    if _verb(line) != "say":
        return None
    written = _LIST_MARKER.sub("", raw.strip())
    after = after_command_word(written)
    if written[:3].lower() != "say" and not after.lstrip().startswith(":"):
        return None
    return after.lstrip(" :").strip()


def _read(raw: str, line: str, now: Asked | None) -> Command | None:
    """One cleaned line: read_line's commands, and `unsubscribe`, `vacation <dates>` and
    questions ("QS?": not made, "help?": help)."""
    if line.endswith("?"):
        return _question(raw.strip(), _TRAILING.sub("", line.rstrip("?")), now)
    return _more_words(line) or read_line(line, now)


def _question(raw: str, line: str, now: Asked | None) -> Command | None:
    """A line ending in "?": `help?` and `status?` are asked for; a move asked about ("QS?",
    "claim?", "end?") is not made, but the answer says how to make it."""
    try:
        command = _more_words(line) or read_line(line, now)
    except UnreadableInput:
        return None  # a question in words, read with the rest of the reply
    if command is None or not command.is_move:
        return command
    raise _worded("question", _("“%(raw)s” reads as a question, so we didn't act on it. To "
                            "%(what)s, reply with just “%(reply)s” on a line of its own.",
                            raw=raw, what=command.describe(), reply=command.reply))


def _more_words(line: str) -> Command | None:
    """`unsubscribe` (and `stop`...), and holidays in other words (`vacation 1-14 August`,
    `Urlaub 1-14 August`: only with dates, "off", or nothing after, so "Holiday was great"
    is no command)."""
    verb, _sep, rest = line.partition(" ")
    verb = verb.rstrip(":")
    if verb == "unsubscribe" or line in _STOP:
        return Command("unsubscribe", line=line)
    if line == "leave":  # "resign", "I give up", "aufgeben"... (language.py's words for it)
        return Command("leave", line=line)
    if line in EXPORT:
        return Command("export", line=line)
    rest = rest.strip(" :")
    if verb == "vacation" and (not rest or rest in AWAY_OFF or away_dates(rest, date.today())):
        return Command("away", text=rest, line=line)
    return None


def _listed_pass(lines: list[str], phase: Phase | None) -> list[str]:
    """In the pass phase, a `pass` line followed by the cards one a line (a list after
    "pass:") is one line "pass KS AH JH"."""
    if phase is not Phase.PASS:
        return lines
    joined: list[str] = []
    passing = False
    for raw in lines:
        line = _clean(raw)
        if passing and _card_count(line) == 1:
            joined[-1] += f" {line}"
            continue
        passing = (line == "pass") or (passing and not line)
        if line or not passing:
            joined.append("pass" if line == "pass" else raw)
    return joined


def _judge(found: list[Command], problems: list[tuple[str, str]], read: str, text: str,
           phase: Phase | None) -> Reading:
    say = next((c for c in found if c.verb == "say"), None)
    actions = list(dict.fromkeys(c for c in found if c.verb != "say"))
    if say is not None and not say.text:
        return Reading(problem=_("“say” needs a message after it, e.g. “say good game!”."),
                       read=read, code="empty_say")
    if problems:
        code, problem = problems[0]
        return Reading(problem=problem, read=read, code=code)
    if phase is Phase.PASS:
        actions = _one_pass(actions)
    if len({c.describe() for c in actions}) > 1:
        named = list_words([f"“{c.line}”" for c in actions])
        return Reading(problem=_("Your reply has more than one command (%(named)s); send one "
                                 "at a time.", named=named), read=read,
                       code="several_commands")
    if not actions and say is None:
        return _in_sentences(text, phase, read)
    return Reading(action=actions[0] if actions else None, say=say, read=read)


def _one_pass(actions: list[Command]) -> list[Command]:
    """The pass phase: cards one a line ("KS", "AH", "JH"; a list) are one pass."""
    bare = [c for c in actions if c.verb in {"play", "pass"} and _verb(c.line) not in VERBS]
    if len(bare) < 2 or len(bare) != len(actions):
        return actions
    cards = tuple(dict.fromkeys(card for c in bare for card in c.cards))
    return [Command("pass", cards, line=" / ".join(c.line for c in bare))]


def _in_sentences(text: str, phase: Phase | None, read: str) -> Reading:
    """No line is a command: the cards named unmistakably inside the sentences (in words, with
    a symbol). One card is played (in the pass phase, the cards named are passed); two
    different ones are asked about. Bare codes ("7D") are never played from a sentence."""
    named, codes = cards_in_prose(text)
    cards = tuple(dict.fromkeys(named))
    loose: dict[Card, str] = {}
    for code in codes:
        loose.setdefault(parse_card(code), code)
    others = [code for card, code in loose.items() if card not in cards]
    if others and not cards:
        return Reading(problem=_codes_in_sentences(others, phase, text), read=read,
                       code="cards_in_sentence")
    if len(cards) == 1 and not others:
        return Reading(action=Command("play", cards, line=read), read=read)
    if len(cards) > 1 and phase is Phase.PASS and not others:
        return Reading(action=Command("pass", cards, line=read), read=read)
    if cards:
        named_all = list_words([str(c) for c in cards] + others, "or")
        count = len(cards) + len(others)
        problem = (_("Your reply names %(count)s different cards (%(cards)s), so we didn't "
                     "guess: write the cards you pass on a line of their own.", count=count,
                     cards=named_all) if phase is Phase.PASS else
                   _("Your reply names %(count)s different cards (%(cards)s), so we didn't "
                     "guess: reply with just the one you play.", count=count, cards=named_all))
        return Reading(problem=problem, read=read, code="several_cards")
    return Reading(problem=_nothing_found(text, phase), read=read, code="no_command")


def _codes_in_sentences(codes: list[str], phase: Phase | None, text: str) -> str:
    """Card codes only inside sentences ("my 7D", "3D printing"): not moves. Says which were
    seen and how to make the move."""
    if phase in (Phase.BID, Phase.NAME_SUIT):
        return _nothing_found(text, phase)
    seen = list_words(codes)
    if phase is Phase.PASS:  # the error email adds how to pass, with the number of cards
        return _("We didn't pass anything: your reply mentions %(codes)s inside a sentence, "
                 "and cards are only passed from a line of their own.", codes=seen)
    first = parse_card(codes[0])
    if len(codes) == 1:
        return _("We didn't play anything: your reply mentions %(codes)s inside a sentence. "
                 "To play it, reply with just “%(card)s” on a line of its own.", codes=seen,
                 card=first)
    return _("We didn't play anything: your reply mentions %(codes)s inside a sentence. To "
             "play one of them, reply with just that card on a line of its own, e.g. "
             "“%(card)s”.", codes=seen, card=first)


def _nothing_found(text: str, phase: Phase | None = None) -> str:
    first = next((_clean(line) for line in text.splitlines() if _clean(line)), "")
    written = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if not written:
        return _("Your reply was empty: write your move above the quoted email.")
    first = first or written.lower()  # only polite words ("Merci !")
    if phase is Phase.BID:
        return _("We couldn't find a bid in your reply. Write “bid 5” (a number of chips) or "
                 "“pass” on a line of its own; “help” lists every command.")
    if phase is Phase.NAME_SUIT:
        return _("We couldn't find the suit to avoid in your reply. Write e.g. “avoid spades” "
                 "on a line of its own; “help” lists every command.")
    if len(first.split()) <= 2 and _looks_like_card(first):
        try:  # a near-miss like "Q" or "queen": the engine says what's missing
            parse_card(first)
        except UnreadableInput as exc:
            return explain(exc)
    if len(first.split()) <= 2:
        return _("We found no card or command in “%(text)s”. Reply with the card you play, "
                 "like QS, on a line of its own; “help” lists every command.", text=first)
    return _("We couldn't find a move in your reply. Write the card, like QS, on a line of "
             "its own; “help” lists every command.")


def _looks_like_card(text: str) -> bool:
    """A near-miss of a card ("Q", "queen", "11H"), not a word like "ok"."""
    return bool(re.search(r"\d|[♣♦♥♠]|\b(?:ace|king|queen|jack|ten|[akqjt]|clubs?|diamonds?|"
                          r"hearts?|spades?)\b", text))


def read_line(line: str, now: Asked | None = None) -> Command | None:
    """One cleaned line → a Command; None if it isn't one; UnreadableInput if it starts like
    one but can't be read ("play XZ"). `now`: what the seat is asked (see read_commands)."""
    verb, _sep, rest = line.partition(" ")
    verb, rest = verb.rstrip(":"), rest.strip().lstrip(":").strip()
    if line in END_AGREE or line in END_PLAY_ON:
        return Command("end", agree=line in END_AGREE, line=line)
    if line in NO_BID:  # before the verbs: "pass bid" is no pass of cards
        return Command("bid", line=line)
    if verb in _MOVE_VERBS:
        return _read_move(line, verb, rest, now)
    if verb in {"claim", "status", "help", "nudge"} and rest in {"", "all", "the rest", "rest"}:
        return Command(verb, line=line)
    if verb == "away":
        return Command("away", text=rest, line=line)
    if verb == "address" or line.startswith("add address "):  # "address bob@work.example"
        return _address(line)
    return _bare_line(line, now)


def _read_move(line: str, verb: str, rest: str, now: Asked | None) -> Command | None:
    """A line that starts with a move's verb (`play`, `bid`, `pass`, `moon`, `avoid`...)."""
    if verb == "play":
        return Command("play", (_played_card(rest),), line=line)
    if verb == "bid":
        if rest in {"pass", "none", "nothing"}:
            return Command("bid", line=line)
        return Command("bid", chips=_chips(rest), line=line)
    if verb == "pass":
        return Command("pass", _cards(rest), line=line) if rest else _bare_pass(line, now)
    if verb == "moon":
        return _moon(rest, line)
    suit = _suit(verb, rest)
    return Command("avoid", suit=suit, line=line) if suit is not None else None


def _played_card(rest: str) -> Card:
    """The card after `play` ("play the QS" too; the error names what was written)."""
    bare = _ARTICLE.sub("", rest)
    if bare != rest and _card_count(bare) == 1:
        return _one_card(bare)
    return _one_card(rest)


def _moon(rest: str, line: str) -> Command:
    if rest in {"down", "go down"}:
        return Command("moon", down=True, line=line)
    if rest in {"up", "others up", "put others up"}:
        return Command("moon", down=False, line=line)
    raise _worded("moon_choice", _("Choose “moon down” (you go down) or “moon up” (everyone "
                            "else goes up)."))


def _address(line: str) -> Command:
    address = line.removeprefix("add address ").removeprefix("address").strip(" :")
    if not address:
        raise _worded("no_address", _("Write the address to add, e.g. “address you@example.org”."))
    return Command("address", text=address, line=line)


def _bare_line(line: str, now: Asked | None) -> Command | None:
    """A line without a verb: a suit's name while the suit is named, else cards (a pass in
    the pass phase)."""
    phase = now.state.phase if now is not None and now.state is not None else None
    suit = _bare_suit(line) if phase is Phase.NAME_SUIT else None
    if suit is not None:
        return Command("avoid", suit=suit, line=line)
    return _bare_cards(line, phase is Phase.PASS)


def _bare_pass(line: str, now: Asked | None) -> Command:
    """`pass` alone: a pass of the bid while bids are made (the service says whose turn it
    is); the cards are missing when the seat passes cards; elsewhere the engine's reason why
    no cards are passed now."""
    state = now.state if now is not None else None
    if state is not None and state.phase is Phase.BID:  # asked to bid, or waiting for a bid
        return Command("bid", line=line)
    if now is None or now.kind is Ask.PASS or state is None or state.rules.pass_count:
        held = now.cards if now is not None and now.kind is Ask.PASS else ()
        count = now.pass_count if now is not None and now.kind is Ask.PASS else 3
        raise _worded("pass_needs_cards", _("Name the cards to pass, e.g. “%(example)s”.",
                        example=pass_example(held, count)))
    refused = now.why_not(PassCards(now.seat, ()))
    why = explain(refused) if refused is not None else _("No cards are passed now.")
    if now.kind is Ask.PLAY:
        raise _worded("no_pass_now", _("%(why)s: reply with the card you play, e.g. “QS”.",
                        why=why.rstrip(".")))
    raise _worded("no_pass_now", why)


def _worded(why: str, words: str) -> UnreadableInput:
    """The reply reader's own refusal, worded here: the engine's code for words made above it
    (pbem.present.refusals.explain gives them back as they are), and `why`, the reader's code
    for it (Reading.code)."""
    return UnreadableInput("worded", words=words, why=why)


def pass_example(hand: Sequence[Card], count: int) -> str:
    """A pass of cards the player holds (the first `count` in the hand's order, as the pass
    email's example); the fixed “pass 2C 3D AH” without such a hand."""
    held = sort_cards(hand)[:count]
    return "pass " + " ".join(str(c) for c in held) if held and len(held) == count \
        else "pass 2C 3D AH"


def _chips(text: str) -> int:
    """The chips of `bid N`: a whole number, at least 1 (the engine checks it beats the
    highest bid)."""
    if not text:
        raise _worded("no_chips", _("Say how many chips you bid, e.g. “bid 5”; or reply “pass”."))
    found = _BID.match(text)
    number = found.group(1) if found else ""
    if number.lstrip("-").isdigit() and len(number) <= 7:
        chips = int(number)
    elif number in _NUMBER_WORDS:
        chips = _NUMBER_WORDS[number]
    else:
        raise _worded("bad_bid", _("We couldn't read “bid %(text)s” as a bid: write a whole number "
                                "of chips, e.g. “bid 5”; or reply “pass”.", text=text))
    if chips < 1:
        raise _worded("bad_bid", _("“bid %(text)s” isn't a bid: a bid is a whole number of chips, "
                                "at least 1, e.g. “bid 5”; or reply “pass”.", text=text))
    return chips


def _suit(verb: str, text: str) -> Suit | None:
    """The suit of `avoid spades` (`name spades`, `suit: spades`). Only `avoid` insists: a
    line like "Name: Ann Smith" is no command."""
    text = re.sub(r"^(?:(?:the|les|le|la|los|las|el|die|den|de|het|gli|i)\s+)?(?:suit\s+)?"
                  r"(?:to\s+avoid\s+)?:?\s*", "", text)
    if not text and verb == "avoid":
        raise _worded("no_suit", _("Name the suit to avoid, e.g. “avoid spades”."))
    try:
        return parse_suit(suit_in_english(text)) if text else None
    except UnreadableInput:
        if verb != "avoid":
            return None
        raise _worded("not_a_suit", _("“%(verb)s %(text)s”: “%(text)s” isn't a suit. Name the suit "
                                "to avoid as clubs, diamonds, hearts or spades, e.g. “avoid "
                                "spades”.", verb=verb, text=text)) from None


def _bare_suit(line: str) -> Suit | None:
    """A suit's name or symbol alone (`spades`, `♠`), not a bare letter."""
    if not line or len(line) > 9 or " " in line or line in _SUIT_LETTERS:
        return None  # "diamonds" is the longest
    try:
        return parse_suit(suit_in_english(line))
    except UnreadableInput:
        return None


def _bare_cards(line: str, passing: bool) -> Command | None:
    try:
        cards = parse_cards(line)
    except UnreadableInput:
        return None  # ordinary words: not a command
    if not cards:
        return None
    if len(cards) == 1:  # a card alone is a play in every phase (the fast path reads it so)
        return Command("play", cards, line=line)
    if passing:
        return Command("pass", cards, line=line)
    raise _worded("several_cards", _("You named %(count)s cards (%(cards)s); play one card "
                                     "at a time.", count=len(cards),
                                     cards=list_words([str(c) for c in cards])))


def _one_card(text: str) -> Card:
    if not text:
        raise _worded("no_card", _("Name the card to play, e.g. “play QS”."))
    cards = _cards(text)
    if len(cards) != 1:
        raise _worded("several_cards", _("“play %(text)s” names %(count)s cards: play one at "
                                         "a time.", text=text, count=len(cards)))
    return cards[0]


def _cards(text: str) -> tuple[Card, ...]:
    """The cards after `play` or `pass`; among other words ("joue le 3C", "2C, 3D et AH")
    the cards named in them."""
    try:
        return parse_cards(text)
    except UnreadableInput as exc:
        cards = tuple(dict.fromkeys(cards_in(text, any_case=True)))
        if not cards and " " in text:  # the whole phrase, not its first word ("the")
            raise _worded("no_card", _("We couldn't find a card in “%(text)s”. Write the rank then "
                                    "the suit, like QS, 10H or “queen of spades”.",
                                    text=text)) from exc
        if not cards:
            raise
        return cards


_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|aw|sv|antw|rif|r|wg|fw|fwd|tr|rv)\s*:\s*)+",
                             re.IGNORECASE)
_OUR_SUBJECT = re.compile(r"(?:^|\s)(?:re\s*:\s*)*hearts\s*:.*$", re.IGNORECASE)


def subject_words(subject: str) -> str:
    """What a player wrote in the subject of a reply with an empty body ("3C", "Re: 3C"):
    the subject without reply prefixes and without our own "Hearts: <game>"."""
    return _OUR_SUBJECT.sub("", _SUBJECT_PREFIX.sub("", subject)).strip()


def _verb(cleaned: str) -> str:
    return cleaned.split(" ", 1)[0].rstrip(":")


def _clean(line: str) -> str:
    line = _LIST_MARKER.sub("", line.strip().lstrip("¿¡").replace("\u00a0", " "))
    line = in_english(line)
    line = _TRAILING.sub("", _SMILEY.sub("", line))
    line = _TRAILING.sub("", _POLITE.sub("", line).strip())
    line = re.sub(r"\s+", " ", line)
    if line.endswith("?") and line.rstrip("?") in _ASKED:
        line = line.rstrip("?")  # "help?"
    line = _SPACED_CODE.sub(r"\1\2\3", line)  # "q s" → "qs"
    line = _RANK_SUIT_WORDS.sub(r"\1 of \2", line)  # "king spades" → "king of spades"
    if line.startswith("the ") and _card_count(line[4:]) == 1:
        return line[4:]  # "the QS" (not "my QS": "my 2c" is money)
    if not line.startswith(("i ", "i'", "i\u2019", "let me ", "let's ", "let\u2019s ")):
        return line
    said = _I.sub("", line)
    played = _PLAY_WORDS.sub("play ", said)  # "I'll go with QS": a move only with one card
    if played != said:
        return played if _card_count(_ARTICLE.sub("", played[5:])) == 1 else line
    if line.startswith("i "):
        return said  # "I pass", "I play the big one": a command, read as one
    verb, _sep, rest = said.partition(" ")  # "I'll play the QS": a move only when what
    return said if verb != "play" or _card_count(_ARTICLE.sub("", rest)) == 1 else line


def _shorten(text: str) -> str:
    flat = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= _MAX_READ else flat[:_MAX_READ - 1] + "…"


# --- away dates -------------------------------------------------------------------------------

_MONTHS = {name[:3]: i for i, name in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
# The months in the other languages the reply reader knows (German, French, Spanish,
# Italian, Dutch), whole, and the short forms people write ("Dez.", "déc.").
_MONTH_NAMES = {name: i for i, names in enumerate((
    "januar janvier enero gennaio januari jänner", "februar février fevrier febrero febbraio "
    "februari", "märz maerz mars marzo maart mrz", "avril abril aprile", "mai mayo maggio mei",
    "juni juin junio giugno", "juli juillet julio luglio", "août aout agosto augustus",
    "septembre septiembre settembre", "oktober octobre octubre ottobre okt", "novembre "
    "noviembre", "dezember décembre decembre diciembre dicembre dez déc dic"), start=1)
    for name in names.split()}
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
# "24.12.2026", "24.12.", "24/12/26", "24/12": the day first, as in every language read
_NUMERIC = re.compile(r"^(\d{1,2})[./](\d{1,2})(?:[./](\d{4}|\d{2})?)?\.?$")
_DAY_MONTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\.?\s+([^\W\d_]+)\.?(?:\s+(\d{4}))?$")
_MONTH_DAY = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?$")
_SPLIT = re.compile(r"\s+to\s+|\s*[-\u2013\u2014]\s+|\s+[-\u2013\u2014]\s*|"
                    r"(?<=\d)\s*\.\.\.?\s*(?=\d)|"  # "2026-12-24..2026-12-31"
                    r"(?<=[\d.])[-\u2013](?=\d{1,2}[./]\d)")  # "24.12.-31.12.", "20.12-27.12"
# "20.-27. Dezember", "1-14 August", "20 to 27 December": days sharing a month
_DAYS_SHARED = re.compile(r"^(\d{1,2})\.?\s*(?:[-\u2013]|\s+to\s+)\s*(\d{1,2})\.?\s+"
                          r"([^\W\d_]+)\.?(?:\s+(\d{4}))?$")
_MONTH_DAYS_SHARED = re.compile(r"^([^\W\d_]+)\.?\s+(\d{1,2})\s*(?:[-\u2013]|\s+to\s+)\s*"
                                r"(\d{1,2})(?:,?\s+(\d{4}))?$")
# The words around the dates in the languages read ("vom 20. bis 27. Dezember", "du 20 au 27
# décembre", "del 20 al 27 de diciembre", "dal 20 al 27 dicembre", "20 t/m 27 december").
_FROM = re.compile(r"^(?:from|vom|von|ab|du|del|desde\s+el|desde|dal|dall['\u2019]|van|de)\s+")
_UNTIL = re.compile(r"\s+(?:to|until|till|through|thru|bis(?:\s+zum)?|au|à|a|al|hasta\s+el|"
                    r"hasta|fino\s+al|tot\s+en\s+met|t/m|tm|tot)\s+")
_SPANISH_OF = re.compile(r"(?<=\d)\.?\s+de\s+(?=[^\W\d_])|(?<=[^\W\d_])\s+de\s+(?=\d{4})")
AWAY_OFF = frozenset({"off", "none", "cancel", "back", "clear", "stop",
                      "aus", "zurück", "zurueck", "beenden", "fini", "annuler", "terminé",
                      "termine", "de retour", "cancelar", "fin", "de vuelta", "annulla",
                      "finito", "finite", "tornato", "tornata", "uit", "terug", "voorbij"})


def away_dates(text: str, today: date) -> tuple[date, date] | None:
    """`2026-08-01 to 2026-08-14`, `2026-12-24..2026-12-31`, `1-14 August`, `3 March - 9
    March 2027`, `August 3`, `24.12.-31.12.`, and the native forms (`vom 20. bis 27.
    Dezember`, `du 20 au 27 décembre`, `del 20 al 27 de diciembre`, `20 t/m 27 december`).
    A date without a year is the next one on or after `today`. None if unreadable."""
    text = _FROM.sub("", re.sub(r"\s+", " ", text.strip().lower()))
    text = _SPANISH_OF.sub(" ", _UNTIL.sub(" to ", text))
    parts = [p.strip() for p in _SPLIT.split(_month_spelled_twice(text), maxsplit=1)
             if p.strip()]
    if not 1 <= len(parts) <= 2:
        return None
    start = _one_date(parts[0], today)
    end = _one_date(parts[-1], start or today)
    if start is None or end is None:
        return None
    return start, end


def _month_spelled_twice(text: str) -> str:
    """Days sharing a month ("20-27 december", "December 20-27") as two whole dates."""
    shared = _DAYS_SHARED.match(text)
    month_first = _MONTH_DAYS_SHARED.match(text)
    if month_first:
        month, first, last, year = month_first.groups()
    elif shared:
        first, last, month, year = shared.groups()
    else:
        return text
    return f"{first} {month} {year or ''} to {last} {month} {year or ''}".replace("  ", " ")


def _one_date(text: str, after: date) -> date | None:
    text = text.strip()
    iso = _ISO.match(text)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        numeric = _NUMERIC.match(text)
        if numeric:
            day, month, year = numeric.groups()
            return _dated(int(day), int(month), year, after)
        found = _DAY_MONTH.match(text)
        if found:
            day, month, year = found.groups()
        else:
            found = _MONTH_DAY.match(text)
            if not found:
                return None
            month, day, year = found.groups()
        number = _MONTH_NAMES.get(month) or _MONTHS.get(month[:3])
        if number is None:
            return None
        return _dated(int(day), number, year, after)
    except ValueError:
        return None


def _dated(day: int, month: int, year: str | None, after: date) -> date:
    """The day; without a year, the next one on or after `after` (ValueError: no such day)."""
    if year:
        return date(int(year) + (2000 if len(year) == 2 else 0), month, day)
    guess = date(after.year, month, day)
    return guess if guess >= after - timedelta(days=1) else date(after.year + 1, month, day)
