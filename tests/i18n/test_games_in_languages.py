"""Whole games in other languages, end to end (issue 34): a game by email in German (replies
in German through the SMTP receiver; turn emails, answers and summary in German), a table of
four players each reading their own language, and a French game in real Chromium. The words
looked for are the glossary's (tools/i18n/GLOSSARY.md); the English ones must be gone."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem import service
from pbem.engine import Card, GameState, Phase, Suit, legal_cards
from pbem.mailin.process import deliver
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail, Player
from tests.browser.conftest import LiveSite
from tests.mailin.support import inbox, latest_token, reply, state_of
from tests.mailin.variant_support import Send

# Sentences and words of the English emails that no translated email may still carry.
# (The reply reader's cut line, "--- Reply above this line ---", stays English on purpose.)
ENGLISH = ("Your turn", "your turn", "Got your reply", "Reply with", "trick",
           "Final standings", "Score sheet", "You played", "You passed", "game page",
           "is over", "Unsubscribe", "Choose 3 cards")
# The glossary's "trick" in each language: every turn email names the trick.
TRICK = {"en": "trick", "de": "Stich", "fr": "pli", "es": "baza", "it": "presa", "nl": "slag"}
# The reply reader's German card names (pbem/mailin/language.py): "Pik Dame" is QS.
GERMAN_SUITS = {Suit.CLUBS: "Kreuz", Suit.DIAMONDS: "Karo", Suit.HEARTS: "Herz",
                Suit.SPADES: "Pik"}
GERMAN_RANKS = ("Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun", "Zehn",
                "Bube", "Dame", "König", "Ass")
MOVES = 200


def speaks(engine: Engine, email: str, name: str, language: str) -> service.Invitee:
    """A player who chose `language` (on /me), invited as accepted."""
    with transaction(engine) as session:
        session.add(Player(email=email, name=name, language=language, language_chosen=True))
    return service.Invitee(email=email, name=name, accepted=True)


def mails_to(engine: Engine, address: str, kind: str | None = None) -> list[OutboxEmail]:
    with transaction(engine, read_only=True) as session:
        query = select(OutboxEmail).where(OutboxEmail.to_addr == address)
        found = list(session.exec(query.order_by(col(OutboxEmail.id))))
    return [mail for mail in found if kind is None or mail.kind == kind]


def english_in(mail: OutboxEmail) -> list[str]:
    text = f"{mail.subject}\n{mail.body_text}\n{mail.body_html or ''}"
    text = text.replace("--- Reply above this line ---", "")
    return [phrase for phrase in ENGLISH if phrase in text]


def in_language(mail: OutboxEmail, language: str) -> bool:
    return re.search(rf'<html[^>]* lang="{language}"', mail.body_html or "") is not None


def german(card: Card) -> str:
    return f"{GERMAN_SUITS[Suit(card.suit)]} {GERMAN_RANKS[card.rank - 2]}"


def _answer(engine: Engine, send: Send, address: str, name: str, text: str) -> None:
    token = latest_token(engine, address)
    send(reply(token, f"{text}\n\nDanke, {name}", sender=f"{name} <{address}>"),
         f"play+{token}@pbem.test")


def _german_reply(state: GameState) -> str:
    if state.phase is Phase.PASS:
        codes = " ".join(str(card) for card in state.hand(0)[:state.rules.pass_count])
        return f"Ich schiebe {codes}"
    return f"Ich spiele {german(legal_cards(state, 0)[0])}"


def _wrong_card(state: GameState) -> Card | None:
    allowed = set(legal_cards(state, 0))
    return next((card for card in state.hand(0) if card not in allowed), None)


def test_a_whole_game_by_email_in_german(engine: Engine, by_smtp: Send) -> None:
    ann = speaks(engine, "ann@example.org", "Ann", "de")
    ctx = service.Context(engine=engine, rng=service.make_rng(7))
    game = service.create_game(ctx, name="Freitagabend", options={"target": 1}, players=[ann],
                               bot_seats=(1, 2, 3), robot_strength="easy").game_id
    _answer(engine, by_smtp, ann.email, ann.name, "Hilfe")
    asked_wrong = False
    for _ in range(MOVES):
        state = state_of(engine, game)
        if state.game_over:
            break
        assert 0 in state.to_move, state.phase
        wrong = _wrong_card(state) if state.phase is Phase.PLAY else None
        if wrong is not None and not asked_wrong:  # a card that may not be played: an answer
            _answer(engine, by_smtp, ann.email, ann.name, f"Ich spiele {german(wrong)}")
            asked_wrong = True
        _answer(engine, by_smtp, ann.email, ann.name, _german_reply(state))
    assert state_of(engine, game).game_over and asked_wrong

    mails = mails_to(engine, ann.email)
    kinds = {mail.kind for mail in mails}
    assert {"pass", "turn", "help", "error", "summary"} <= kinds, kinds
    left = {f"{mail.kind} #{mail.id}": english_in(mail) for mail in mails}
    assert not any(left.values()), {where: words for where, words in left.items() if words}
    assert all(in_language(mail, "de") for mail in mails)
    turns = "\n".join(mail.body_text for mail in mails if mail.kind == "turn")
    assert "Stich" in turns and "Runde" in turns
    summary = mails_to(engine, ann.email, "summary")[-1].body_text
    assert "Punkte" in summary


def _four_languages(engine: Engine) -> tuple[int, list[tuple[str, str, str]]]:
    people = [("ann@example.org", "Ann", "en"), ("bob@example.org", "Bob", "de"),
              ("cat@example.org", "Cat", "fr"), ("dan@example.org", "Dan", "es")]
    players = [speaks(engine, *person) for person in people]
    ctx = service.Context(engine=engine, rng=service.make_rng(11))
    game = service.create_game(ctx, name="Quatre langues", options={"target": 1},
                               players=players).game_id
    return game, people


def _play_by_codes(engine: Engine, game: int, people: list[tuple[str, str, str]]) -> None:
    """Each player to move answers their newest email with a legal card code (or a pass)."""
    for _ in range(MOVES):
        state = state_of(engine, game)
        if state.game_over:
            return
        seat = state.to_move[0]
        address, name, _language = people[seat]
        if state.phase is Phase.PASS:
            text = "pass " + " ".join(str(c) for c in state.hand(seat)[:3])
        else:
            text = str(legal_cards(state, seat)[0])
        deliver(inbox(engine), reply(latest_token(engine, address), text,
                                     sender=f"{name} <{address}>"))
    raise AssertionError(f"the game did not end in {MOVES} replies")


def test_a_table_of_four_languages_each_reads_their_own(engine: Engine) -> None:
    game, people = _four_languages(engine)
    _play_by_codes(engine, game, people)
    for address, name, language in people:
        mails = mails_to(engine, address)
        assert {"pass", "turn", "summary"} <= {mail.kind for mail in mails}, name
        assert all(in_language(mail, language) for mail in mails), (name, language)
        text = "\n".join(mail.body_text for mail in mails if mail.kind == "turn")
        assert re.search(rf"\b{TRICK[language]}\b", text), (name, language)
        others = [word for lang, word in TRICK.items() if lang not in (language, "en")]
        assert not [w for w in others if re.search(rf"\b{w}\b", text)], (name, language)
        if language != "en":
            left = {mail.kind: english_in(mail) for mail in mails}
            assert not any(left.values()), (name, left)


# -- in Chromium --------------------------------------------------------------------------

FRENCH = ("pli", "cartes", "donne", "vous", "jouer")
_PASS_LINK = re.compile(r'<a class="action" href="https?://[^/"]+(/[tp]/[^"]+)"')
_CARD_LINK = re.compile(r'<a class="card[^"]*" href="https?://[^/"]+(/t/[^"]+)"')


def _caught_link(site: LiveSite, link: re.Pattern[str], seen: set[str],
                 timeout: float = 20, stop: Callable[[], bool] = lambda: False) -> str | None:
    """The first link matching `link` in the HTML of the first caught email not `seen` that
    has one (the mail catcher's folder: the outbox keeps no body once sent); None once
    `stop()`."""
    from pbem.devmail.store import MailStore, body_parts

    store = MailStore(Path(site.app.config["DEVMAIL_FOLDER"]))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for entry in reversed(store.entries()):  # oldest first
            message = store.message(entry.id)
            html = (body_parts(message)[1] or "") if message is not None else ""
            found = link.findall(html)
            if entry.id not in seen and found:
                seen.add(entry.id)
                return str(found[0])
        if stop():
            return None
        time.sleep(0.2)
    raise AssertionError(f"no new email with a link like {link.pattern}")


def _french_page(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    text = page.locator("body").inner_text()
    assert not [phrase for phrase in ENGLISH if phrase in text], text[:600]
    assert any(re.search(rf"\b{word}\b", text, re.IGNORECASE) for word in FRENCH), text[:600]


@pytest.mark.browser
def test_a_french_hand_in_chromium(live_site: LiveSite, browser_page: Any) -> None:
    from playwright.sync_api import expect

    from pbem.app import db_engine

    engine = db_engine(live_site.app)
    page = browser_page
    page.context.add_cookies([{"name": "language", "value": "fr", "url": live_site.url}])
    claire = speaks(engine, "fr@example.org", "Claire", "fr")
    ctx = service.Context(engine=engine, rng=service.make_rng(7))
    game = service.create_game(ctx, name="Vendredi", players=[claire], bot_seats=(1, 2, 3),
                               robot_strength="easy").game_id
    page.goto(f"{live_site.url}/games/{game}")
    _french_page(page)

    seen: set[str] = set()
    page.goto(f"{live_site.url}{_caught_link(live_site, _PASS_LINK, seen)}")
    _french_page(page)
    boxes = page.get_by_role("checkbox")
    for index in range(3):
        boxes.nth(index).check()
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    expect(page.get_by_role("status")).to_be_visible()
    _french_page(page)

    def next_hand() -> bool:
        return state_of(engine, game).hand_number > 1

    played = 0
    while (path := _caught_link(live_site, _CARD_LINK, seen, stop=next_hand)) is not None:
        page.goto(live_site.url + path)  # each turn email's first card
        _french_page(page)
        page.locator("main form button[type=submit], main form input[type=submit]").first.click()
        expect(page.get_by_role("status")).to_be_visible()
        _french_page(page)
        played += 1
    assert played >= 8 and next_hand()  # the hand played to its end (the last cards forced)
