"""What each moon choice gives (worked out by the engine), as the email and page word it."""

from __future__ import annotations

import random

from pbem.bots import choose_event
from pbem.dealing import first_dealer
from pbem.engine import (
    CardPlayed,
    CardsPassed,
    GameCreated,
    GameState,
    HandDealt,
    Phase,
    apply,
    parse_card,
    parse_cards,
    preset,
    start,
)
from pbem.mail.render import Renderer
from pbem.present import views
from tests.web.support import MOON_PASS, MOON_PLAYS, moon_deck

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def moon_state(target: int) -> tuple[GameState, int]:
    """Club rules with `target`: the first hand ends in a moon for the returned seat."""
    rules = preset("club").replace(target=target)
    seed = 7
    deck, seat = moon_deck(rules, seed)
    dealer, draw = first_dealer(rules, random.Random(seed))
    state = apply(start(GameCreated(rules, 4, dealer, draw)), HandDealt(tuple(deck)))
    for s in range(4):
        if s != seat:
            state = apply(state, choose_event(state, s))
    state = apply(state, CardsPassed(seat, parse_cards(MOON_PASS)))
    plays = iter(MOON_PLAYS)
    while state.phase is Phase.PLAY:
        move = (CardPlayed(seat, parse_card(next(plays))) if state.turn == seat
                else choose_event(state, state.turn))
        state = apply(state, move)
    assert state.phase is Phase.MOON_CHOICE and state.moon_shooter == seat
    return state, seat


def test_both_choices_with_the_game_going_on() -> None:
    state, seat = moon_state(100)
    down, up = views.moon_options(state, seat, NAMES, {views.MOON_DOWN: "d", views.MOON_UP: "u"})
    assert down.down and down.url == "d" and down.totals[seat] == -26
    assert down.result == "you'd have -26 (the others stay at 0, 0 and 0)"
    assert not up.down and up.url == "u" and up.totals[seat] == 0
    others = [f"{NAMES[s]}: 26" for s in range(4) if s != seat]
    assert up.result == f"they'd have {others[0]}, {others[1]} and {others[2]} (you stay at 0)"
    assert not down.ends_game and not up.ends_game
    assert up.sentence.endswith("The game goes on.")


def test_going_up_that_ends_the_game_says_so() -> None:
    state, seat = moon_state(26)
    down, up = views.moon_options(state, seat, NAMES)
    assert not down.ends_game and up.ends_game
    assert up.outcome == "That ends the game: you win."
    rows = views.moon_rows(state, seat, NAMES, [down, up])
    assert [(r.now, r.down, r.up) for r in rows if r.is_you] == [(0, -26, 0)]


def test_the_email_renders_both_links_and_the_reply_words() -> None:
    state, seat = moon_state(26)
    options = views.moon_options(state, seat, NAMES, {views.MOON_DOWN: "https://x/t/down",
                                                      views.MOON_UP: "https://x/t/up"})
    mail = Renderer().render(
        "moon_choice", player_name="Ann <b>", game_name="Friday", game_url=None,
        unsubscribe_url="https://x/u/1", marker="--- Reply above this line ---",
        preheader="p", hand_number=1, moon_points=26, options=options,
        rows=views.moon_rows(state, seat, NAMES, options), deadline=None)
    assert "https://x/t/down" in mail.text and "https://x/t/up" in mail.text
    assert "That ends the game: you win." in mail.text
    assert "Reply “moon down” or “moon up”." in mail.text
    assert 'href="https://x/t/down"' in mail.html and "Ann &lt;b&gt;" in mail.html
