"""Every page kind and every email kind, shown in real Chromium: the accessibility check
(test_axe_in_chromium.py) and the phone-width check (test_no_overflow_in_chromium.py) go
through the same tour.

Pages: three games of one human against robots (one over, one at their turn, one at its pass),
the site crawled as tests/i18n/test_pseudo_locale.py crawls it (signed out, then signed in by the
emailed link; the private pages by their links; the error pages; a refused form). Chromium asks
for http://pbem.test/... and each request is answered by the app's test client (pages, CSS,
scripts, with their headers), so what Chromium shows is exactly what the app serves.

Emails: every kind rendered with stand-in values (as the pseudo-locale test renders them), and
the HTML of every email the played games really sent."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import col, select

from pbem import service
from pbem.app import db_engine
from pbem.mail.render import Renderer
from pbem.store.db import transaction
from pbem.store.models import OutboxEmail
from tests.i18n.test_pseudo_locale import (
    EMAIL_KINDS,
    STAND_IN_VALUES,
    StandIn,
    _crawl,
    _private_paths,
    _sign_in,
)
from tests.web.support import finish_game, human_move, outbox, start_game
from tests.web.variant_support import bid_link, seat_page, to_move, variant_game

SITE = "http://pbem.test"  # the app's BASE_URL in tests
HUMAN = service.Invitee(email="zora@example.com", name="Zora", accepted=True)
WIDTHS = (1280, 375)
BLANK = "/.blank"  # an empty page on the site, where HTML content is set
OPEN_ALL_DETAILS = "document.querySelectorAll('details').forEach((d) => { d.open = true; })"


@dataclass
class Shown:
    """One page or email to show: a GET path on the site (fetched by Chromium), or the HTML
    of a POST's answer or of an email (set as the document's content)."""

    label: str
    path: str | None = None
    html: str = ""
    signed_in: bool = False


@dataclass
class Tour:
    pages: list[Shown] = field(default_factory=list)
    signed_out: FlaskClient | None = None
    signed_in: FlaskClient | None = None


def _human_games(app: Flask) -> tuple[int, int]:
    """A finished game, a game at the human's turn, a game at its pass (newest last, so the
    newest emails' links are the pass page's): (finished, at their turn)."""
    finished = start_game(app, target=1, name="Omega", human=HUMAN)
    finish_game(app, finished)
    playing = start_game(app, target=100, name="Zeta", human=HUMAN)
    while _newest_kind_to_human(app) == "pass":
        assert human_move(app, playing)
    start_game(app, target=100, name="Kappa", human=HUMAN)
    return finished, playing


def _newest_kind_to_human(app: Flask) -> str:
    kinds = [mail.kind for mail in outbox(app) if mail.to_addr == HUMAN.email]
    return kinds[-1] if kinds else ""


def _auction_paths(app: Flask) -> list[str]:
    """An Auction game of four people at its first bid (after the human's games: its emails
    are the newest): the bidder's private page, a bid link's page, the game's page."""
    game_id = variant_game(app, "auction")
    bidder = to_move(app, game_id)
    return [seat_page(app, game_id, bidder), bid_link(app, game_id, bidder, 5),
            f"/games/{game_id}"]


def page_tour(app: Flask) -> Tour:
    """Every page kind the site has, each once per path (the crawl finds ~50): the home page,
    lobby, new game form, sign-in, leaderboard, /me, the game pages at play, at the pass, at a
    bid and over, a hand's page, the summary, the private pages and one-time links, the
    confirm pages (end, leave, delete, rematch), the error pages."""
    finished, playing = _human_games(app)
    signed_out = app.test_client()
    seeds = ["/", "/new", "/lobby", "/leaderboard", "/signin", f"/games/{playing}",
             f"/games/{playing}/hands/1", f"/games/{finished}", f"/games/{finished}/summary",
             *_private_paths(app), "/no/such/page", "/games/999", "/s/nosuchtoken",
             "/t/nosuchtoken", *_auction_paths(app)]
    tour = Tour(signed_out=signed_out, signed_in=app.test_client())
    tour.pages = [Shown(label, path=label.rsplit(" (", 1)[0])
                  for label in _crawl(signed_out, seeds, set())]
    assert tour.signed_in is not None
    # The sign-in link's confirm page is shown as it was before its use (its GET now says
    # the link is used).
    tour.pages += [Shown(label, html=html) for label, html in
                   _sign_in(app, tour.signed_in).items()]
    tour.pages += [Shown(f"{label} signed in", path=label.rsplit(" (", 1)[0], signed_in=True)
                   for label in _crawl(tour.signed_in, ["/me", "/", "/lobby", "/new"], set())]
    refused = tour.signed_in.post("/new", data={"preset": "nope"})
    tour.pages.append(Shown(f"POST /new ({refused.status_code})",
                            html=refused.get_data(as_text=True), signed_in=True))
    return tour


def email_tour(app: Flask) -> list[Shown]:
    """Every email kind with stand-in values, then the newest HTML email of each kind the
    games sent (the games are played first if `app` has none)."""
    if not _newest_kind_to_human(app):
        _human_games(app)
    renderer = Renderer()
    renderer.env.undefined = StandIn
    shown = []
    for kind in EMAIL_KINDS:
        for number, values in enumerate(STAND_IN_VALUES.get(kind, [{}])):
            html = renderer.render(kind, **values).html
            shown.append(Shown(f"{kind} email{f' {number}' if number else ''}", html=html))
    with transaction(db_engine(app), read_only=True) as session:
        sent = session.exec(select(OutboxEmail).order_by(col(OutboxEmail.id))).all()
    newest_of_kind = {mail.kind: mail for mail in sent if mail.body_html}
    shown += [Shown(f"{kind} email as sent", html=mail.body_html or "")
              for kind, mail in sorted(newest_of_kind.items())]
    return shown


def answer_from(client_of: Callable[[], FlaskClient]) -> Callable[[Any], None]:
    """A Playwright route handler: the request answered by the app's test client."""

    def answer(route: Any) -> None:
        request = route.request
        path = request.url.removeprefix(SITE)
        if path == BLANK:
            route.fulfill(status=200, content_type="text/html", body="<!doctype html>")
            return
        body = request.post_data_buffer
        sent_as = {"Content-Type": request.headers.get("content-type", "")} if body else {}
        response = client_of().open(path, method=request.method, data=body, headers=sent_as)
        route.fulfill(status=response.status_code, body=response.get_data(),
                      headers={key: value for key, value in response.headers.items()
                               if key.lower() not in ("content-length", "set-cookie")})

    return answer


def show_all(page: Any, tour: Tour, emails: list[Shown]) -> Iterator[Shown]:
    """Shows each page, then each email, in `page` (Chromium), every <details> opened; yields
    each once it is shown."""
    current: dict[str, FlaskClient | None] = {"client": tour.signed_out}

    def client_of() -> FlaskClient:
        client = current["client"]
        assert client is not None
        return client

    answer = answer_from(client_of)
    page.route(f"{SITE}/**", answer)
    try:
        for shown in [*tour.pages, *emails]:
            current["client"] = tour.signed_in if shown.signed_in else tour.signed_out
            if shown.path is not None:
                page.goto(SITE + shown.path)
            else:
                page.goto(SITE + BLANK)  # an origin for the content's relative links
                page.set_content(shown.html)
            page.evaluate(OPEN_ALL_DETAILS)  # what is shown on request is checked too
            yield shown
    finally:
        page.unroute(f"{SITE}/**", answer)
