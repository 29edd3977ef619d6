"""Processing replies on SQLite and PostgreSQL: played once, only by the seat's player, never
from a machine; errors answered (rate-limited); crashed processing picked up again."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import select

from pbem.engine import CardPlayed, CardsPassed, Phase
from pbem.mailin import replies
from pbem.mailin.process import deliver, process, process_pending
from pbem.mailin.receive import purge_raw_mail, store_raw
from pbem.store.db import transaction
from pbem.store.events import load_events
from pbem.store.models import InboundMail, Player, PlayerAddress
from pbem.store.types import utcnow
from tests.mailin.support import (
    emails,
    illegal,
    inbox,
    latest_token,
    legal,
    player,
    reply,
    seq_of,
    state_of,
    to_play,
    two_human_game,
)


def row(engine: Engine, mail_id: int) -> InboundMail:
    with transaction(engine, read_only=True) as session:
        found = session.get(InboundMail, mail_id)
        assert found is not None
        return found


def test_a_pass_by_reply_is_made(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    token = latest_token(engine, "ann@example.org", "pass")
    cards = " ".join(str(c) for c in hand[:3])
    stored = deliver(inbox(engine), reply(token, f"pass {cards}"))
    assert row(engine, stored.id).status == "processed"
    assert state_of(engine, game).passed_cards(0) == hand[:3]


def test_a_card_by_reply_is_played_and_the_next_human_gets_a_turn_email(engine: Engine) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me, other = ("ann@example.org", "bob@example.org")[::1 if seat == 0 else -1]
    card = legal(state, seat)
    turns_before = len(emails(engine, other, "turn")) + len(emails(engine, me, "turn"))
    deliver(inbox(engine), reply(latest_token(engine, me, "turn"), str(card),
                                 sender=f"X <{me}>"))
    with transaction(engine, read_only=True) as session:
        assert CardPlayed(seat, card) in load_events(session, game)
    after = state_of(engine, game)
    assert after.phase is not Phase.PLAY or after.turn in (0, 1)
    assert len(emails(engine, other, "turn")) + len(emails(engine, me, "turn")) > turns_before
    assert emails(engine, me, "move_confirmed")


def test_the_same_message_delivered_twice_plays_once(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    message = reply(latest_token(engine, "ann@example.org", "pass"),
                    "pass " + " ".join(map(str, hand[:3])))
    first = deliver(inbox(engine), message)
    seq = seq_of(engine, game)
    again = deliver(inbox(engine), b"Received: from elsewhere\r\n" + message)
    assert (first.created, again.created, again.id) == (True, False, first.id)
    assert seq_of(engine, game) == seq


def test_a_repeated_move_in_a_new_message_changes_nothing(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    token = latest_token(engine, "ann@example.org", "pass")
    text = "pass " + " ".join(map(str, hand[:3]))
    deliver(inbox(engine), reply(token, text))
    seq = seq_of(engine, game)
    second = deliver(inbox(engine), reply(token, text))
    assert seq_of(engine, game) == seq
    assert row(engine, second.id).reason.startswith("duplicate")
    assert "already passed" in emails(engine, "ann@example.org", "note")[-1].body_text


def test_a_stranger_plays_nothing_and_the_player_is_told(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    seq = seq_of(engine, game)
    stored = deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                          "pass " + " ".join(map(str, hand[:3])),
                                          sender="Eve <eve@example.net>"))
    assert row(engine, stored.id).status == "ignored"
    assert seq_of(engine, game) == seq
    told = emails(engine, "ann@example.org", "not_your_seat")
    assert len(told) == 1 and "eve@example.net" in told[0].body_text
    assert not emails(engine, "eve@example.net")


def test_an_extra_address_of_the_player_may_reply(engine: Engine) -> None:
    game = two_human_game(engine)
    with transaction(engine) as session:
        session.add(PlayerAddress(player_id=player(engine, "ann@example.org").id,
                                  email="Ann.Work@Example.COM"))
    hand = state_of(engine, game).hand(0)
    deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                 "pass " + " ".join(map(str, hand[:3])),
                                 sender="Ann <ann.work@example.com>"))
    assert state_of(engine, game).has_passed(0)


def test_an_autoresponder_gets_silence(engine: Engine) -> None:
    game = two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    before = len(emails(engine, "ann@example.org"))
    for headers in ({"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"},
                    {"X-Autoreply": "yes"}, {"List-Id": "<x.example>"},
                    {"X-PBEM-Loop": "pbem.test"}, {"Return-Path": "<>"}):
        stored = deliver(inbox(engine), reply(token, "I'm away until Monday", headers=headers))
        assert row(engine, stored.id).status == "ignored"
    stored = deliver(inbox(engine), reply(token, "hello",
                                          sender="MAILER-DAEMON@mx.example.org"))
    assert row(engine, stored.id).status == "ignored"
    assert len(emails(engine, "ann@example.org")) == before
    assert not state_of(engine, game).has_passed(0)


def test_a_bounce_marks_the_address_failing_only_when_it_returns_our_email(
        engine: Engine) -> None:
    """The corpus report returns the headers of an email to Ann but no Message-ID: it names
    no email we sent, so anyone could have written it; with the Message-ID of Ann's email
    it marks her address (more in test_plain_bounces.py)."""
    two_human_game(engine)
    from tests.mailin.test_corpus import CORPUS

    report = (CORPUS / "bounce.eml").read_bytes()
    stored = deliver(inbox(engine), report)
    assert row(engine, stored.id).status == "ignored"
    assert player(engine, "ann@example.org").email_status == "ok"
    sent = emails(engine, "ann@example.org")[-1]
    assert sent.message_id
    loop = b"X-PBEM-Loop: pbem.test\r\n"
    assert loop in report
    returned = report.replace(loop, loop + f"Message-ID: {sent.message_id}\r\n".encode())
    stored = deliver(inbox(engine), returned.replace(b"ABC12@", b"ABC13@"))
    assert row(engine, stored.id).status == "processed"
    ann = player(engine, "ann@example.org")
    assert ann.email_status == "failing" and "5.1.1" in (ann.email_status_reason or "")
    assert player(engine, "bob@example.org").email_status == "ok"
    assert emails(engine, "ann@example.org")[-1].status == "failed"


def test_a_reply_from_the_failing_address_clears_it_and_is_answered(engine: Engine) -> None:
    """Ann's address is marked failing. A reply from her second address proves nothing about
    it; one from it (a plus variant: the same mailbox) does: answered, the mark cleared."""
    two_human_game(engine)
    ann = "ann@example.org"
    with transaction(engine) as session:
        session.add(PlayerAddress(player_id=player(engine, ann).id, email="ann@work.example"))
        found = session.exec(select(Player).where(Player.email == ann)).one()
        found.email_status, found.email_status_reason = "failing", "bounce: 5.1.1"
        session.add(found)
    token = latest_token(engine, ann, "pass")
    deliver(inbox(engine), reply(token, "status", sender="Ann <ann@work.example>"))
    assert player(engine, ann).email_status == "failing"
    assert not emails(engine, ann, "status")
    deliver(inbox(engine), reply(token, "status", sender="Ann <Ann+hearts@example.org>"))
    assert player(engine, ann).email_status == "ok"
    assert len(emails(engine, ann, "status")) == 1


def test_a_pending_message_is_processed_on_restart(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    token = latest_token(engine, "ann@example.org", "pass")
    crashed = store_raw(engine, reply(token, "pass " + " ".join(map(str, hand[:3]))))
    # A worker claimed this one and died a while ago: its lease has run out.
    claimed = store_raw(engine, reply(latest_token(engine, "bob@example.org", "pass"), "help",
                                      sender="bob@example.org"))
    with transaction(engine) as session:
        held = session.get(InboundMail, claimed.id)
        assert held is not None
        held.processed_at = utcnow() - timedelta(hours=1)
        session.add(held)
    assert process_pending(inbox(engine)) == 2
    assert state_of(engine, game).has_passed(0)
    assert row(engine, crashed.id).status == row(engine, claimed.id).status == "processed"
    assert emails(engine, "bob@example.org", "help")
    assert process(inbox(engine), crashed.id) is None  # done: never again


def test_no_command_gets_an_error_email_saying_what_was_read(engine: Engine) -> None:
    game = two_human_game(engine)
    seq = seq_of(engine, game)
    stored = deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                          "Let me think about it."))
    assert seq_of(engine, game) == seq
    assert row(engine, stored.id).reason.startswith("unreadable")
    error = emails(engine, "ann@example.org", "error")[-1]
    assert "Let me think about it." in error.body_text


def test_an_illegal_card_gets_the_reason_and_the_legal_cards(engine: Engine) -> None:
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    seq = seq_of(engine, game)
    card = illegal(state, seat)
    deliver(inbox(engine), reply(latest_token(engine, me, "turn"), f"play {card}",
                                 sender=me))
    assert seq_of(engine, game) == seq
    error = emails(engine, me, "error")[-1]
    assert f"play {card}" in error.body_text
    assert str(legal(state, seat)) in error.body_text


def test_a_reply_to_an_old_email_is_stale(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    old = latest_token(engine, "ann@example.org", "pass")
    deliver(inbox(engine), reply(old, "pass " + " ".join(map(str, hand[:3]))))
    seq = seq_of(engine, game)
    deliver(inbox(engine), reply(old, "pass " + " ".join(map(str, hand[3:6]))))
    assert seq_of(engine, game) == seq
    assert "earlier email" in emails(engine, "ann@example.org", "error")[-1].body_text
    with transaction(engine, read_only=True) as session:
        passes = [e for e in load_events(session, game) if isinstance(e, CardsPassed)]
    assert [p.seat for p in passes].count(0) == 1


def test_say_is_relayed_to_the_other_human_players(engine: Engine) -> None:
    two_human_game(engine)
    deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                 "say Good luck, Bob!\nYou'll need it."))
    relayed = emails(engine, "bob@example.org", "say")
    assert len(relayed) == 1 and "Good luck, Bob!" in relayed[0].body_text
    assert "You'll need it." in relayed[0].body_text
    assert "Reply-To" in relayed[0].headers
    assert not emails(engine, "ann@example.org", "say")


def test_status_and_help_are_answered(engine: Engine) -> None:
    two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    deliver(inbox(engine), reply(token, "Status"))
    deliver(inbox(engine), reply(token, "HELP"))
    status = emails(engine, "ann@example.org", "status")[-1].body_text
    assert "It's your turn to pass 3 cards to Bob, on your left." in status
    assert "Your hand:" in status
    help_text = emails(engine, "ann@example.org", "help")[-1].body_text
    assert "pass 2C 3D AH" in help_text
    assert 'press "Leave this game"' in help_text  # how to leave: on the game's page


def test_away_is_answered(engine: Engine) -> None:
    two_human_game(engine)
    deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                 "away 2099-08-01 to 2099-08-14"))
    note = emails(engine, "ann@example.org", "note")[-1].body_text
    assert "away" in note.lower()


def test_error_replies_are_rate_limited(engine: Engine) -> None:
    two_human_game(engine)
    token = latest_token(engine, "ann@example.org", "pass")
    for n in range(replies.ANSWER_LIMIT + 3):
        deliver(inbox(engine), reply(token, f"what is this {n}?"))
    assert len(emails(engine, "ann@example.org", "error")) == replies.ANSWER_LIMIT


def test_the_token_in_references_is_enough_when_the_address_lost_it(engine: Engine) -> None:
    game = two_human_game(engine)
    hand = state_of(engine, game).hand(0)
    token = latest_token(engine, "ann@example.org", "pass")
    deliver(inbox(engine), reply(token, "pass " + " ".join(map(str, hand[:3])),
                                 to="Hearts <play@pbem.test>"))
    assert state_of(engine, game).has_passed(0)


def test_mail_without_a_live_token_is_ignored(engine: Engine) -> None:
    two_human_game(engine)
    stored = deliver(inbox(engine), reply("doesnotexist2345", "QS"))
    assert row(engine, stored.id).status == "ignored"
    assert not emails(engine, "ann@example.org", "error")


def test_raw_mail_is_purged_after_the_keep_time(engine: Engine) -> None:
    two_human_game(engine)
    stored = deliver(inbox(engine), reply("doesnotexist2345", "QS"))
    assert purge_raw_mail(engine, timedelta(days=30)) == 0
    assert purge_raw_mail(engine, timedelta(days=30), now=utcnow() + timedelta(days=31)) == 1
    assert row(engine, stored.id).raw == b""
    with transaction(engine, read_only=True) as session:
        assert session.exec(select(InboundMail)).all()  # kept, so a late copy is a duplicate


def test_unsubscribe_by_reply_is_answered_with_the_way_to_stop_the_emails(
        engine: Engine) -> None:
    game = two_human_game(engine)
    before = seq_of(engine, game)
    for text in ("Unsubscribe", "stop", "abmelden"):
        stored = deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"),
                                              text))
        assert row(engine, stored.id).reason == "unsubscribe"
    first, *_, last = [m.body_text for m in emails(engine, "ann@example.org", "note")]
    assert "A reply can't unsubscribe you, so nothing changed." in first
    assert "open the “Unsubscribe” link at the end of this one" in first
    assert "Unsubscribe: http" in first  # the link the note points to is there
    # "abmelden" is German: the answer too, and her emails from now on (she chose no language)
    assert "Eine Antwort kann dich nicht abmelden" in last and "Abmelden: http" in last
    assert player(engine, "ann@example.org").language == "de"
    assert not emails(engine, "ann@example.org", "error")
    assert not player(engine, "ann@example.org").unsubscribed
    assert seq_of(engine, game) == before


def test_leaving_by_reply_is_answered_with_the_page_that_asks_first(
        engine: Engine, make_app: Callable[..., Flask], db_url: str) -> None:
    """"resign", "I give up", "aufgeben": one word must not take a player out of a game; the
    note says where the Leave button is (their private page, linked in the note)."""
    game = two_human_game(engine)
    before = seq_of(engine, game)
    with make_app(DATABASE_URL=db_url).app_context():  # as the service's mail-in runs
        for text in ("resign", "I give up", "aufgeben", "Leave the game"):
            token = latest_token(engine, "ann@example.org", "pass")
            stored = deliver(inbox(engine), reply(token, text))
            assert row(engine, stored.id).reason == "leave"
    first, *_, last = [m.body_text for m in emails(engine, "ann@example.org", "note")]
    assert "A reply can't take you out of a game, so nothing changed." in first
    assert "press “Leave this game”" in first and "/s/" in first  # the private page's link
    # after "aufgeben" she is answered in German, the language she wrote in
    assert "Eine Antwort kann dich nicht aus einer Partie nehmen" in last and "/s/" in last
    assert not emails(engine, "ann@example.org", "error")
    assert seq_of(engine, game) == before


def test_vacation_without_dates_asks_for_them(engine: Engine) -> None:
    two_human_game(engine)
    deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"), "Vacation!"))
    note = emails(engine, "ann@example.org", "note")[-1].body_text
    assert "Tell us your dates" in note and "away 1-14 August" in note


def test_a_reply_without_a_command_to_a_finished_game_is_told_once_that_it_is_over(
        engine: Engine) -> None:
    game = two_human_game(engine)
    deliver(inbox(engine), reply(latest_token(engine, "ann@example.org", "pass"), "end"))
    deliver(inbox(engine), reply(latest_token(engine, "bob@example.org"), "end",
                                 sender="Bob <bob@example.org>"))
    assert state_of(engine, game).game_over
    before = seq_of(engine, game)
    token = latest_token(engine, "ann@example.org")
    first = deliver(inbox(engine), reply(token, "Thanks, good game!"))
    [note] = emails(engine, "ann@example.org", "note")
    assert "This game is over, so there is nothing more to play in it." in note.body_text
    assert "reply “say” and your message" in note.body_text
    assert not emails(engine, "ann@example.org", "error")
    assert row(engine, first.id).reason.startswith("game over, no command")
    again = deliver(inbox(engine), reply(token, "Thanks again, that was fun"))
    assert row(engine, again.id).status == "ignored"
    assert len(emails(engine, "ann@example.org", "note")) == 1  # told once
    deliver(inbox(engine), reply(token, "say good game, Bob!"))
    assert "good game, Bob!" in emails(engine, "bob@example.org", "say")[-1].body_text
    assert seq_of(engine, game) == before


def test_nudge_by_reply_nudges_whoever_everyone_waits_for_and_says_so(engine: Engine) -> None:
    """Issue 37.8: the page's Nudge button, by mail. Ann has passed; Bob has not: her `nudge`
    emails Bob a friendly reminder and tells her so; a second one within 12 hours, and one
    from Bob, who is himself awaited, are answered with why not."""
    game_id = two_human_game(engine)
    ann_token = latest_token(engine, "ann@example.org", "pass")
    deliver(inbox(engine), reply(ann_token, "pass " + " ".join(
        str(c) for c in state_of(engine, game_id).hand(0)[:3])))
    deliver(inbox(engine), reply(ann_token, "nudge"))
    assert len(emails(engine, "bob@example.org", "nudge")) == 1
    assert "Nudged: Bob got a friendly reminder." in emails(
        engine, "ann@example.org", "note")[-1].body_text
    deliver(inbox(engine), reply(ann_token, "Nudge please"))
    assert len(emails(engine, "bob@example.org", "nudge")) == 1  # not twice in 12 hours
    deliver(inbox(engine), reply(latest_token(engine, "bob@example.org", "pass"), "nudge",
                                 sender="Bob <bob@example.org>"))
    assert "waiting for your own move" in emails(engine, "bob@example.org", "note")[-1].body_text
