"""Every word a player reads is marked for translation (issue 34): in the pseudo-language "xx"
(tests/i18n/pseudo.py: every marked message wrapped in ⟦ ⟧, vowels accented) no English word
is left undecorated in any email kind or any page. The failure lists what leaked, per email
and per page (the first words and how many), so the missing marks are easy to find.

Emails: every kind rendered with stand-in values (all of templates/email/), and the emails a
played game really sends (subjects too), the player's language being "xx". Pages: a crawl of
the site through the test client with the `language=xx` cookie, signed in and not, the
private pages by their link tokens, the error pages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.lists import format_list
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import Undefined
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.mail.render import Renderer
from pbem.mailin.process import Inbox, deliver
from pbem.present import i18n
from pbem.store.db import transaction
from pbem.store.models import Game, OutboxEmail, Player
from pbem.web.i18n import LANGUAGE_COOKIE
from tests.i18n.pseudo import PSEUDO, PseudoCatalog, leaks, report, teach_babel
from tests.mailin.support import latest_token, reply
from tests.web.support import (
    csrf_of,
    finish_game,
    human_move,
    links,
    newest,
    seat_path,
    start_game,
)

REPO = Path(__file__).resolve().parents[2]
EMAIL_KINDS = sorted(path.stem for path in (REPO / "templates" / "email").glob("*.txt")
                     if not path.stem.startswith("_") and path.stem != "base")
STRANGER = "Stranger <stranger@example.net>"
# Names that are no English words, so that taking names out hides no leak.
HUMAN = service.Invitee(email="zora@example.com", name="Zora", accepted=True)


@pytest.fixture(autouse=True)
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    teach_babel(monkeypatch)
    i18n.install(PSEUDO, PseudoCatalog())
    try:
        yield
    finally:
        i18n.uninstall(PSEUDO)


def test_the_pseudo_language_is_a_language_while_installed() -> None:
    assert i18n.normalise("xx") == "xx" and i18n.known("xx") == "xx"
    with i18n.using("xx"):
        assert i18n.gettext("Hello %(name)s", name="Ann") == "⟦Hélló Ann⟧"
        assert i18n.current() == "xx" and i18n.direction() == "ltr"
    assert format_list(["Ann", "Bob", "Cy"], locale=i18n.normalise("xx")) == "Ann, Bob και Cy"
    i18n.uninstall(PSEUDO)
    assert i18n.normalise("xx") == "en" and i18n.known("xx") is None


def test_the_detector_finds_words_not_names_codes_or_markup() -> None:
    html = ('<html lang="xx"><head><title>⟦Pláy⟧ · Hearts</title><style>.card{color:red}</style>'
            '</head><body class="game"><p>⟦Hánd ⟦Ánn⟧ 3⟧ Q♠ (QS) 10H Nov 29, 2026, 6:23 AM UTC'
            ' https://pbem.test/t/Ab-9 play+x1@pbem.test pbem.test Zora Deutsch Español</p>'
            '<button title="Your turn">⟦Pláy⟧</button><input type="submit" value="Send it">'
            '<script>let hidden = "words";</script></body></html>')
    assert leaks(html, html=True, names={"Zora"}) == ["Hearts", "Your", "turn", "Send", "it"]
    assert leaks("⟦Hí⟧ Zora,\nQ♠ 2C — 3 hours left\nReply above", names=["Zora"]) == [
        "left", "Reply", "above"]


def test_the_web_switch_takes_an_installed_language(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, PSEUDO)
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<html[^>]* lang="xx"', page), page[:300]


# -- emails ---------------------------------------------------------------------------------

class StandIn(Undefined):
    """Any value a template asks for: a word ("Thing"), a number (3), one item to loop over,
    attributes and calls of itself; true in every `if`. Renders every kind's words without
    a game behind it (the branches a real game takes: the next test)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return StandIn()

    def __getitem__(self, _key: object) -> StandIn:
        return StandIn()

    def __call__(self, *_args: object, **_kwargs: object) -> StandIn:
        return StandIn()

    def __iter__(self) -> Iterator[StandIn]:
        return iter([StandIn()])

    def __bool__(self) -> bool:
        return True

    def __str__(self) -> str:
        return "Thing"

    def __len__(self) -> int:
        return 1

    def __int__(self) -> int:
        return 3

    def __index__(self) -> int:
        return 3

    def __float__(self) -> float:
        return 3.0

    def __eq__(self, _other: object) -> bool:
        return False

    def __ne__(self, _other: object) -> bool:
        return True

    def __lt__(self, _other: object) -> bool:
        return False

    __gt__ = __lt__

    def __le__(self, _other: object) -> bool:
        return True

    __ge__ = __le__

    def __hash__(self) -> int:
        return 1

    def __add__(self, other: object) -> object:
        return other

    __radd__ = __add__

    def __sub__(self, _other: object) -> int:
        return 3

    __rsub__ = __mul__ = __rmul__ = __mod__ = __truediv__ = __floordiv__ = __sub__


# A template that picks another by a value's name needs a real one.
STAND_IN_VALUES: dict[str, list[dict[str, Any]]] = {
    "reminder": [{"asked_template": ""}, {"asked_template": "turn"}]}


def test_every_email_kind_with_stand_in_values() -> None:
    renderer = Renderer()
    renderer.env.undefined = StandIn
    found: dict[str, list[str]] = {}
    with i18n.using(PSEUDO):
        for kind in EMAIL_KINDS:
            for number, values in enumerate(STAND_IN_VALUES.get(kind, [{}])):
                rendered = renderer.render(kind, **values)
                where = kind if number == 0 else f"{kind} {number}"
                found[f"{where} .txt"] = leaks(rendered.text)
                found[f"{where} .html"] = leaks(rendered.html, html=True)
    assert not any(found.values()), report(found)


def _names(app: Flask) -> set[str]:
    """Everything people and games are called (left as typed in every language)."""
    with transaction(db_engine(app), read_only=True) as session:
        players = session.exec(select(Player.name)).all()
        games = session.exec(select(Game.name)).all()
    return {name for name in [*players, *games] if name}


def _a_player_in(app: Flask, email: str, name: str, language: str) -> None:
    with transaction(db_engine(app)) as session:
        session.add(Player(email=email, name=name, language=language, language_chosen=True))


def _reply(app: Flask, body: str, sender: str = f"{HUMAN.name} <{HUMAN.email}>") -> None:
    token = latest_token(db_engine(app), HUMAN.email)
    deliver(Inbox.from_app(app), reply(token, body, sender=sender))


def _emails_to(app: Flask, address: str) -> list[OutboxEmail]:
    with transaction(db_engine(app), read_only=True) as session:
        query = select(OutboxEmail).where(OutboxEmail.to_addr == address)
        return list(session.exec(query.order_by(col(OutboxEmail.id))))


def _a_played_game(app: Flask) -> int:
    """The human (language "xx") passes and plays a hand by the service, asks for the state
    by reply, sends one unreadable reply, and a stranger replies on their thread; the game
    ends (target 1). The replies say no language ("status", not "help", which is English:
    an answer is in its reply's language), so the answers are in the player's."""
    _a_player_in(app, HUMAN.email, HUMAN.name, PSEUDO)
    with i18n.using(PSEUDO):  # until every email is written in its recipient's language
        game_id = start_game(app, target=1, name="Zeta", human=HUMAN)
        assert human_move(app, game_id)  # the pass
        _reply(app, "status")
        _reply(app, "xyzzy plugh")
        _reply(app, "QS", sender=STRANGER)
        finish_game(app, game_id)
    return game_id


def test_the_emails_of_a_played_game(app: Flask) -> None:
    _a_played_game(app)
    names = _names(app)
    found: dict[str, list[str]] = {}
    mails = _emails_to(app, HUMAN.email)
    assert {"pass", "turn", "status", "error", "summary"} <= {mail.kind for mail in mails}
    for mail in mails:  # one entry per kind and part: the words of all its emails
        for part, words in (("subject", leaks(mail.subject, names=names)),
                            ("text", leaks(mail.body_text, names=names)),
                            ("html", leaks(mail.body_html or "", html=True, names=names))):
            where = found.setdefault(f"{mail.kind} {part}", [])
            where.extend(word for word in words if word not in where)
    assert not any(found.values()), report(found)


# -- pages ----------------------------------------------------------------------------------

_HREF = re.compile(r'href="(/[^"#]*)"')
# Not pages a player reads: files, machine endpoints, the development mail catcher (/mail).
_NOT_PAGES = ("/static/", "/favicon", "/healthz", "/metrics", "/signout", "/inbound", "/mail")
MAX_PAGES = 80


def _crawl(client: FlaskClient, seeds: list[str], seen: set[str]) -> dict[str, str]:
    """Each HTML page reached from `seeds` by GET links on the site: path -> html."""
    pages: dict[str, str] = {}
    todo = [seed for seed in seeds if seed not in seen]
    while todo and len(seen) < MAX_PAGES:
        path = todo.pop(0)
        if path in seen or path.startswith(_NOT_PAGES):
            continue
        seen.add(path)
        response = client.get(path)
        if response.status_code in (301, 302, 303):
            todo.append(response.headers["Location"].removeprefix("http://pbem.test"))
            continue
        if response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        pages[f"{path} ({response.status_code})"] = html
        todo.extend(link.replace("&amp;", "&") for link in _HREF.findall(html))
    return pages


_SIGNIN_LINK = re.compile(r"https?://\S+?(/signin/[A-Za-z0-9_-]+)")


def _sign_in(app: Flask, client: FlaskClient) -> dict[str, str]:
    """Signs the human in by the emailed link; the pages on the way."""
    form = client.get("/signin").get_data(as_text=True)
    asked = client.post("/signin", data={"csrf_token": csrf_of(form), "address": HUMAN.email})
    found = _SIGNIN_LINK.search(newest(app, "signin").body_text)
    assert found, "no sign-in link"
    confirm = client.get(found.group(1)).get_data(as_text=True)
    done = client.post(found.group(1), data={"csrf_token": csrf_of(confirm)})
    assert done.status_code == 303, done.get_data(as_text=True)
    return {f"POST /signin ({asked.status_code})": asked.get_data(as_text=True),
            "/signin/<token>": confirm}


def _private_paths(app: Flask) -> list[str]:
    """The human's one-time and private links in their newest emails."""
    paths = []
    for kind in ("pass", "turn"):
        text = newest(app, kind).body_text
        paths.extend(links(text)[:2])
        paths.append(seat_path(text))
    unsubscribe = re.search(r"https?://[^/\s]+(/u/[\w-]+)", newest(app, "turn").body_text)
    if unsubscribe:
        paths.append(unsubscribe.group(1))
    return paths


def test_every_page(app: Flask) -> None:
    """Three games of the human's: one over, one at their turn (the card pages), one at its
    pass (the pass page), newest last so their links are the newest emails'."""
    _a_player_in(app, HUMAN.email, HUMAN.name, PSEUDO)
    with i18n.using(PSEUDO):
        finished = start_game(app, target=1, name="Omega", human=HUMAN)
        finish_game(app, finished)
        game_id = start_game(app, target=100, name="Zeta", human=HUMAN)
        while newest_kind_is_pass(app):
            assert human_move(app, game_id)
        start_game(app, target=100, name="Kappa", human=HUMAN)
    client = app.test_client()
    client.set_cookie(LANGUAGE_COOKIE, PSEUDO)
    seeds = ["/", "/new", "/lobby", "/leaderboard", "/signin", f"/games/{game_id}",
             f"/games/{game_id}/hands/1", f"/games/{finished}", f"/games/{finished}/summary",
             *_private_paths(app), "/no/such/page", "/games/999", "/s/nosuchtoken",
             "/t/nosuchtoken"]
    seen: set[str] = set()
    pages = _crawl(client, seeds, seen)
    pages.update(_sign_in(app, client))
    pages.update({f"{path} signed in": html for path, html in
                  _crawl(client, ["/me", "/", "/lobby", "/new"], set()).items()})
    bad_form = client.post("/new", data={"preset": "nope"})
    pages[f"POST /new ({bad_form.status_code})"] = bad_form.get_data(as_text=True)
    names = _names(app)
    found = {path: leaks(html, html=True, names=names) for path, html in pages.items()}
    assert len(pages) >= 15, sorted(pages)
    assert not any(found.values()), report(found)


def newest_kind_is_pass(app: Flask) -> bool:
    from tests.web.support import outbox

    kinds = [mail.kind for mail in outbox(app) if mail.to_addr == HUMAN.email]
    return bool(kinds) and kinds[-1] == "pass"
