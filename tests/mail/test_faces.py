"""The cards inlined once (pbem.mail.faces, issue 33): an email is the same bytes as when its
whole HTML goes through the CSS inliner, and the cards' HTML is what the macros wrote."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jinja2 import Environment
from markupsafe import Markup

from pbem.engine import GameCreated, Phase, apply, preset, seat_view, start
from pbem.mail.faces import PADDING, plain_card, plain_face, plain_hand, plain_link
from pbem.mail.render import Renderer
from pbem.playout import random_event
from pbem.present import views
from pbem.present.i18n import using
from pbem.roster import SeatLabel

NAMES = ['<b>Ann</b> & "Co"', SeatLabel("robot", 2), "You", "Zoë O'Neil", "Eve", "Fay",
         "Gus", "Hal", "Ida", "Jo"]


def contexts(name: str, seed: int) -> list[tuple[str, dict[str, Any]]]:
    """Turn and pass emails at random points of a random game of preset `name`."""
    rng = random.Random(seed)
    rules = preset(name)
    state = start(GameCreated(rules, rules.players, 0))
    found: list[tuple[str, dict[str, Any]]] = []
    while state.phase is not Phase.GAME_OVER and len(found) < 12:
        if state.phase in (Phase.PLAY, Phase.PASS) and rng.random() < 0.15:
            seat = state.turn if state.phase is Phase.PLAY else state.to_move[0]
            view = seat_view(state, seat)
            names = NAMES[:state.seats]
            context: dict[str, Any] = {
                **views.table_context(view, names, seat, {(seat + 1) % state.seats},
                                      rules=rules),
                "player_name": names[seat], "game_name": 'Friday <i>"night"</i> & day',
                "game_url": "https://hearts.test/games/1?a=1&b=2", "deadline": "soon & <b>",
                "unsubscribe_url": "https://hearts.test/u/x", "marker": "--- Reply above ---",
                "preheader": "Your turn & <more>.", "example": "QS", "echo": "played <QS>"}
            if state.phase is Phase.PLAY:
                urls = {str(c): f"https://hearts.test/t/{c}?a=1&b=\"2\"'<3>"
                        for c in view.legal}
                urls[str(view.legal[-1])] = "https://hearts.test/t/zoë\u00a0x"  # not plain
                context["legal"] = views.card_views(views.distinct_cards(view.legal), urls)
                found.append(("turn", context))
                # other emails with the same macros: the cards as spans, tricks in tables
                found.append(("status", {**context, "passing": False, "situation": "<x>",
                                         "legal": views.card_views(view.legal)}))
                if context["previous"]:
                    found.append(("trick_result", {**context, "tricks": [
                        {"number": 1, "view": context["previous"]}]}))
            else:
                found.append(("pass", {**context, "count": 3, "target": names[0],
                                       "direction": "on your left", "pass_url": "https://x/p"}))
        state = apply(state, random_event(state, rng))
    return found


@pytest.mark.parametrize("name", ["standard", "cancellation", "domino", "auction", "five"])
def test_an_email_is_the_bytes_of_inlining_all_of_it(name: str) -> None:
    renderer = Renderer()
    for kind, context in contexts(name, seed=len(name)):
        for language in ("en", "de"):
            reminder = [("reminder", {"asked_template": kind})] if kind in ("turn", "pass") else []
            for shown, extra in [(kind, {}), *reminder]:
                full = {**context, **extra}
                with using(language):
                    fast = renderer.render(shown, **full).html
                    template = renderer.env.get_template(f"{shown}.html")
                    # no slots: the cards go into the HTML the inliner is given
                    whole = renderer.inliner.inline(template.render(full, kind=shown))
                assert fast == whole
                assert renderer.faces.nonce not in fast


MACROS = """
{%- macro card(c) -%}
<span class="card {{ 'red' if c.red else 'black' }}">{{ c.symbol }}{% if c.count > 1 %}<span class="count"> ×{{ c.count }}</span>{% endif %}</span>
{%- endmacro %}
{%- macro card_link(c) -%}
{% if c.url %}<a class="card {{ 'red' if c.red else 'black' }}" href="{{ c.url }}">{{ c.symbol }}<br><span class="code">{{ c.code }}</span></a>{% else %}{{ card(c) }}{% endif %}
{%- endmacro %}
{%- macro face(c) -%}
<table role="presentation" class="face" cellpadding="0" cellspacing="0"><tr><td class="face-cell {{ 'red' if c.red else 'black' }}" align="center">{{ c.symbol }}{% if c.count > 1 %}<span class="count"> ×{{ c.count }}</span>{% endif %}<br><span class="code">{{ c.code }}</span></td></tr></table>
{%- endmacro %}
{%- macro hand_cells(rows) -%}
<table role="presentation" class="hand-table" cellpadding="0" cellspacing="0">
{% for row in rows %}
<tr><td class="suit-name {{ 'red' if row.red else 'black' }}">{{ row.symbol }}</td><td><table role="presentation" cellpadding="0" cellspacing="3"><tr>{% for c in row.distinct %}<td>{{ face(c) }}</td>{% endfor %}</tr></table></td></tr>
{% endfor %}
</table>
{%- endmacro %}
"""  # noqa: E501  (the macros as _macros.html had them before pbem.mail.faces)


def test_the_cards_html_is_what_the_macros_wrote() -> None:
    env = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    macros: Any = env.from_string(MACROS).module
    state = apply(start(GameCreated(preset("cancellation"), 4, 0)),
                  random_event(start(GameCreated(preset("cancellation"), 4, 0)),
                               random.Random(3)))
    rows = views.hand_rows(state.hand(0))
    assert any(c.count > 1 for row in rows for c in row.distinct)  # both copies: "×2"
    cards = [c for row in rows for c in row.distinct]
    for card in cards:
        linked = views.CardView(card.code, card.symbol, card.red, 'https://x/?a=1&b="<2>"')
        assert plain_face(card) == str(macros.face(card))
        assert plain_card(card) == str(macros.card(card))
        assert plain_link(card) == str(macros.card_link(card))
        assert plain_link(linked) == str(macros.card_link(linked))
    faces = [(row, [plain_face(c) for c in row.distinct]) for row in rows]
    assert plain_hand(faces) == str(macros.hand_cells(rows))
    assert Markup(PADDING) == env.from_string(
        "{% for _i in range(40) %}&#847;&zwnj;&nbsp;{% endfor %}").render()
