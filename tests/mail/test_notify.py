"""Emails a game sends, received by a real SMTP server and read back as a player would."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from datetime import UTC, datetime
from email.message import EmailMessage

from sqlalchemy import Engine
from sqlmodel import select

from pbem.engine import (
    ALL_CARDS,
    CardPlayed,
    ChooseMoon,
    HandDealt,
    Phase,
    apply,
    decide,
    legal_cards,
)
from pbem.mail.compose import MailSettings
from pbem.mail.digest import DigestLine, send_digest
from pbem.mail.errors import send_error
from pbem.mail.invites import send_invite
from pbem.mail.notify import notify
from pbem.mail.outbox import drain_all
from pbem.mail.sending import MARKER
from pbem.present.tokens import find_token, hash_token
from pbem.store.db import transaction
from pbem.store.models import Player, Token
from tests.mail.game_support import PlayedGame, deal_event
from tests.mail.mailtest_support import SmtpServer

DEADLINE = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
LINK = re.compile(r"https://hearts\.test/t/([A-Za-z0-9_-]+)")


def deliver(engine: Engine, server: SmtpServer) -> dict[str, list[EmailMessage]]:
    """Send the outbox and group what arrived by recipient."""
    start = len(server.messages)
    drain_all(engine, server.settings)
    inbox: dict[str, list[EmailMessage]] = defaultdict(list)
    for received in server.messages[start:]:
        inbox[received.rcpt_tos[0]].append(received.message)
    return inbox


def kinds(messages: list[EmailMessage]) -> list[str]:
    return [m["Message-ID"].split(".")[1] for m in messages]


def text(msg: EmailMessage) -> str:
    return msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]


def html(msg: EmailMessage) -> str:
    return msg.get_body(("html",)).get_content()  # type: ignore[union-attr]


def run(engine: Engine, game: PlayedGame, settings: MailSettings, *events: object,
        **kwargs: object) -> None:
    with transaction(engine) as session:
        row, before, after = game.step(session, *events)  # type: ignore[arg-type]
        notify(session, row, before, after, list(events), settings=settings,  # type: ignore[arg-type]
               deadline=DEADLINE, now=DEADLINE.replace(hour=8), **kwargs)  # type: ignore[arg-type]


def to_first_play(engine: Engine, server: SmtpServer, game: PlayedGame,
                  settings: MailSettings) -> dict[str, list[EmailMessage]]:
    run(engine, game, settings, deal_event())
    deliver(engine, server)
    for event in game.passes():
        run(engine, game, settings, event)
    return deliver(engine, server)


def test_the_deal_sends_game_started_then_pass_emails(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    run(engine, game, mail_settings, deal_event())
    inbox = deliver(engine, smtp_server)
    assert sorted(inbox) == ["ann@example.org", "bob@example.org", "cy@example.org",
                             "dee@example.org"]
    assert all(kinds(msgs) == ["game_started", "pass"] for msgs in inbox.values())
    started, pass_mail = inbox["ann@example.org"]
    assert "Each heart is 1 point, the queen of spades 13." in text(started)
    body = text(pass_mail)
    # what it wants first (issue 37: the preview and the notification), then the marker
    assert body.splitlines()[:3] == ["Your turn: Pass 3 cards to Bob.", "", MARKER]
    assert "Choose 3 cards to pass to Bob, on your left." in body
    assert "Reply with the cards, e.g. pass " in body
    assert LINK.search(body), "no link to the pass page"
    assert "Pass by Saturday 1 March 2025, 13:00 CET (Europe/Paris)." in body


def test_turn_email_shows_hand_legal_cards_links_and_local_deadline(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    inbox = to_first_play(engine, smtp_server, game, mail_settings)
    seat = game.state.to_move[0]
    addr = ["ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"][seat]
    turn = next(m for m in inbox[addr] if kinds([m]) == ["turn"])
    body = text(turn)
    assert body.splitlines()[0] == "Your turn: lead to trick 1 (hand 1)."
    assert body.splitlines()[2] == MARKER
    assert "Reply with the card, e.g. 2C" in body
    assert "  2♣ (2C)" in body  # the only legal card: the two of clubs leads
    hand = game.state.hand(seat)
    for card in hand:
        assert f"{card.symbol} ({card})" in body
    assert "Hearts are not broken yet." in body
    assert "Nothing yet: you lead." in body
    tz_text = {0: "13:00 CET (Europe/Paris)", 1: "07:00 EST (America/New_York)",
               2: "21:00 JST (Asia/Tokyo)", 3: "12:00 UTC (UTC)"}[seat]
    assert f"Play by Saturday 1 March 2025, {tz_text}." in body

    [raw] = LINK.findall(body)
    with transaction(engine, read_only=True) as session:
        token = session.exec(select(Token).where(Token.token_hash == hash_token(raw))).one()
        assert (token.purpose, token.card, token.seat_no) == ("card", "2C", seat)
        assert token.turn_seq == game.game(session).last_seq
        assert session.exec(select(Token).where(Token.token_hash == raw)).first() is None
    assert f"https://hearts.test/t/{raw}" in html(turn)


def test_a_passer_by_reply_gets_an_exact_confirmation(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    run(engine, game, mail_settings, deal_event())
    deliver(engine, smtp_server)
    event = game.passes()[0]
    run(engine, game, mail_settings, event, echo=True)  # the pass came by reply
    [confirmation] = deliver(engine, smtp_server)["ann@example.org"]
    labels = [f"{c.symbol} ({c})" for c in sorted(event.cards)]
    assert f"you passed {labels[0]}, {labels[1]} and {labels[2]}." in text(confirmation)
    assert "Now waiting for Bob, Cy <script>alert(1)</script> and Dee." in text(confirmation)


def test_trick_and_hand_results_follow_each_players_preference(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    to_first_play(engine, smtp_server, game, mail_settings)
    for _ in range(4):
        run(engine, game, mail_settings, game.play_legal())
    inbox = deliver(engine, smtp_server)
    assert "trick_result" in kinds(inbox["ann@example.org"])  # each_trick
    for addr in ("bob@example.org", "cy@example.org", "dee@example.org"):
        assert "trick_result" not in kinds(inbox[addr])
    result = next(m for m in inbox["ann@example.org"] if kinds([m]) == ["trick_result"])
    trick = game.state.tricks[0]
    assert f"Taken by {['you', 'Bob', 'Cy <script>alert(1)</script>', 'Dee'][trick.winner]}" \
        in text(result) or trick.winner is None


def test_player_names_are_escaped_in_html(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    run(engine, game, mail_settings, deal_event())
    inbox = deliver(engine, smtp_server)
    page = html(inbox["ann@example.org"][0])
    assert "<script>" not in page
    assert "Cy &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Cy <script>alert(1)</script>" in text(inbox["ann@example.org"][0])


def test_html_has_inlined_css_and_red_hearts(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    run(engine, game, mail_settings, deal_event())
    page = html(deliver(engine, smtp_server)["ann@example.org"][1])
    assert "<style" not in page
    heart = re.search(r'<td class="face-cell red"[^>]* style="([^"]*)"[^>]*>[^<]*♥', page)
    assert heart and "color: #c8102e" in heart.group(1)  # a card: a table cell, red
    spade = re.search(r'<td class="face-cell black"[^>]* style="([^"]*)"[^>]*>[^<]*♠', page)
    assert spade and "color: #111111" in spade.group(1)


def test_one_thread_per_player_and_game_with_reply_token(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    to_first_play(engine, smtp_server, game, mail_settings)
    run(engine, game, mail_settings, game.play_legal())
    inbox = deliver(engine, smtp_server)
    for addr, msgs in inbox.items():
        player_id = game.player_ids[["ann", "bob", "cy", "dee"].index(addr.split("@")[0])]
        root = f"<pbem.game-{game.game_id}.player-{player_id}@hearts.test>"
        for msg in msgs:
            assert msg["In-Reply-To"] == root
            refs = msg["References"].split()
            assert refs[0] == root
            local = msg["Reply-To"].addresses[0].username
            token = local.removeprefix("play+")
            assert refs[1] == f"<pbem.reply.{token}@hearts.test>"
            with transaction(engine, read_only=True) as session:
                found = find_token(session, token.upper(), {"reply"}, now=DEADLINE)
                assert found is not None and found.player_id == player_id
                assert found.game_id == game.game_id


def test_unsubscribed_and_failing_players_get_no_mail(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    with transaction(engine) as session:
        for player in session.exec(select(Player)):
            if player.email == "bob@example.org":
                player.unsubscribed = True
            if player.email == "dee@example.org":
                player.email_status = "failing"
    run(engine, game, mail_settings, deal_event())
    assert sorted(deliver(engine, smtp_server)) == ["ann@example.org", "cy@example.org"]


def test_a_failing_address_is_shown_to_the_other_players(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    with transaction(engine) as session:
        dee = session.exec(select(Player).where(Player.email == "dee@example.org")).one()
        dee.email_status = "failing"
    run(engine, game, mail_settings, deal_event())
    inbox = deliver(engine, smtp_server)
    ann_pass = next(m for m in inbox["ann@example.org"] if kinds([m]) == ["pass"])
    assert "Our emails to Dee bounce" in text(ann_pass)
    assert "(our emails to them bounce)" in html(ann_pass)
    assert "Our emails to Ann" not in text(ann_pass)


def play_to_the_end(game: PlayedGame) -> list[object]:
    """Random legal moves until the last one; returns the final event (not yet applied)."""
    rng = random.Random(7)
    while True:
        state = game.state
        if state.phase is Phase.DEAL:
            cards = list(ALL_CARDS)
            rng.shuffle(cards)
            event: object = HandDealt(tuple(cards))
        elif state.phase is Phase.PASS:
            event = game.passes()[state.to_move[0]]
        elif state.phase is Phase.MOON_CHOICE:
            event = decide(state, ChooseMoon(state.moon_shooter, True))[0]
        else:
            event = CardPlayed(state.turn, rng.choice(legal_cards(state, state.turn)))
        if apply(state, event).game_over:  # type: ignore[arg-type]
            return [event]
        game.state = apply(state, event)  # type: ignore[arg-type]
        game.events.append(event)  # type: ignore[arg-type]


def test_the_last_card_sends_a_summary_with_sheet_chart_and_winner(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    last = play_to_the_end(game)
    run(engine, game, mail_settings, *last)
    inbox = deliver(engine, smtp_server)
    state = game.state
    summary = next(m for m in inbox["dee@example.org"] if kinds([m]) == ["summary"])
    body = text(summary)
    names = ["Ann", "Bob", "Cy <script>alert(1)</script>", "Dee"]
    winners = " and ".join(names[s] for s in state.winners)
    assert winners in body and "Final standings:" in body
    assert len(re.findall(r"^  \d+ ", body.split("Score sheet:")[1], re.M)) == len(state.sheet)
    assert f"Game page: https://hearts.test/games/{game.game_id}" in body
    page = html(summary)
    assert page.count('class="bar"') == 4 and "<img" not in page and "<script" not in page
    assert not any("turn" in kinds(msgs) for msgs in inbox.values())


def test_error_email_says_what_was_read_why_and_what_is_legal(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    to_first_play(engine, smtp_server, game, mail_settings)
    seat = game.state.to_move[0]
    with transaction(engine) as session:
        send_error(session, game.game(session), game.state, seat, what_was_read="QH",
                   reason="You must lead the 2C.", settings=mail_settings)
    [(_, [msg])] = deliver(engine, smtp_server).items()
    body = text(msg)
    assert "We read: QH" in body and "Why not: You must lead the 2C." in body
    assert "  2♣ (2C)" in body and LINK.search(body)
    assert body.splitlines()[:3] == ["Answer: That move can't be made: You must lead the 2C.",
                                     "", MARKER]


def test_invite_has_accept_and_decline_links_and_digest_lists_games(
        engine: Engine, smtp_server: SmtpServer, mail_settings: MailSettings,
        game: PlayedGame) -> None:
    from pbem.engine import preset

    with transaction(engine) as session:
        ann = session.exec(select(Player).where(Player.email == "ann@example.org")).one()
        send_invite(session, game.game(session), 0, ann, inviter="Bob",
                    rules=preset("standard"), players=["Ann", "Bob"], settings=mail_settings)
        send_digest(session, ann, [DigestLine("Friday night", "your turn",
                                              "https://hearts.test/games/1")],
                    settings=mail_settings)
    invite, digest = deliver(engine, smtp_server)["ann@example.org"]
    assert re.search(r"Accept:  https://hearts\.test/t/\S+\?a=accept", text(invite))
    assert re.search(r"Decline: https://hearts\.test/t/\S+\?a=decline", text(invite))
    assert "* Friday night: your turn" in text(digest)
    assert digest["In-Reply-To"] is None and digest["List-Unsubscribe"]
