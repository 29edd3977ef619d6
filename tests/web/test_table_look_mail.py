"""Issue 37, item 4, in the HTML emails: the turn email shows the table as mail clients allow
it: the seats around a felt (names and points), the trick in the middle and the hand as cards
drawn in table cells, every style inlined, no image at all; the text part still lists every
card with its link."""

from __future__ import annotations

import re

from flask import Flask

from pbem.engine import Phase
from tests.web.support import card_links, human_move, newest, state

CELL = re.compile(r'<td class="face-cell (red|black)"[^>]*style="([^"]*)"[^>]*>([^<]+)<br>'
                  r'<span class="code"[^>]*>(\w+)</span></td>')


def test_the_turn_email_draws_the_table_in_cells(app: Flask, game_id: int) -> None:
    for _ in range(40):  # to the human's turn with cards on the table
        now = state(app, game_id)
        if now.phase is Phase.PLAY and 0 in now.to_move and now.current_trick.plays:
            break
        assert human_move(app, game_id, 0)
    mail = newest(app, "turn")
    page = mail.body_html or ""
    assert "<style" not in page and "<img" not in page and "url(" not in page
    cards = {code: (colour, style, shown) for colour, style, shown, code in CELL.findall(page)}
    for code, (colour, style, shown) in cards.items():
        assert "border:" in style and "background: #ffffff" in style, code
        assert ("color: #c8102e" if colour == "red" else "color: #111111") in style, code
        assert code[-1] in "HD" if colour == "red" else code[-1] in "CS"
        assert shown[-1] in "♥♦♣♠"
    for _seat, card in now.current_trick.plays:  # the trick, in the felt's cells
        assert str(card) in cards
    for card in now.hand(0):  # the hand, a cell per card
        assert str(card) in cards
    felt = re.search(r'<table class="felt"[^>]*style="([^"]*)"', page)
    assert felt and "background: #1e6b41" in felt.group(1)
    for name in ("Robot 2", "Robot 3", "Robot 4"):
        assert re.search(rf'class="seat-cell"[^>]*><b>{name}</b><br><span class="seat-points"'
                         r'[^>]*>\d+ points, \d+ this hand</span>', page), name
    assert re.search(r'class="seat-cell seat-you"[^>]*><b>You</b>', page)
    legal = card_links(mail.body_text)  # the text part: every legal card, with its link
    assert legal and all(f'{path}"' in page for path in legal.values())
