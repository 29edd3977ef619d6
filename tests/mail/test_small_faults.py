"""Small faults seen in real inboxes: answers to a player's own mail say so (RFC 3834),
help offers moon choices only where the shooter chooses, "UTC (UTC)", "You (you)", answers
linking the public page instead of the player's private one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from flask import Flask

from pbem.app import db_engine
from pbem.engine import MoonRule, Rules
from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.render import default_renderer
from pbem.mailin.process import Inbox, deliver
from pbem.mailin.replies import help_context
from pbem.zones import deadline_text
from tests.mailin.support import emails, latest_token, reply, to_play, two_human_game

SETTINGS = MailSettings(domain="pbem.test", base_url="http://pbem.test")


def test_answers_to_a_players_mail_are_auto_replied_and_the_rest_auto_generated() -> None:
    """RFC 3834 §5: "auto-replied" for responses to a message, "auto-generated" otherwise."""
    def auto(kind: str) -> str:
        return build_headers(SETTINGS, kind=kind, to_name="Ann",
                             to_addr="ann@example.org")["Auto-Submitted"]

    assert {auto(k) for k in ("error", "help", "status", "note", "not_your_seat",
                              "unroutable")} == {"auto-replied"}
    assert {auto(k) for k in ("turn", "pass", "hand_result", "reminder", "say")} == {
        "auto-generated"}


def test_help_offers_moon_choices_only_where_the_shooter_chooses() -> None:
    def offered(moon: MoonRule) -> bool:
        commands = help_context(Rules().replace(moon=moon))["commands"]
        return any(c["example"] == "moon down" for c in commands)

    assert offered(MoonRule.SHOOTER_CHOICE) and offered(MoonRule.CHOICE_AT_74)
    assert not any(offered(m) for m in (MoonRule.NONE, MoonRule.OTHERS_PLUS,
                                        MoonRule.SHOOTER_MINUS, MoonRule.PROTECTION))


def test_a_deadline_names_its_zone_once() -> None:
    when = datetime(2026, 11, 23, 3, 14, tzinfo=UTC)
    assert deadline_text(when, "UTC") == "Monday 23 November 2026, 03:14 UTC"
    assert deadline_text(when, "Europe/Paris") == (
        "Monday 23 November 2026, 04:14 CET (Europe/Paris)")


def test_a_player_called_you_is_not_you_you_in_the_points_table() -> None:
    rows = [{"name": "You", "is_you": True, "hand": 0, "total": 3, "chips": None,
             "mail_failing": False},
            {"name": "Bob", "is_you": False, "hand": 1, "total": 5, "chips": None,
             "mail_failing": False}]
    env = default_renderer().env
    for macros in ("_macros.html", "_macros.txt"):
        table = str(env.get_template(macros).module.scores(rows))  # type: ignore[attr-defined]
        assert "You" in table and "(you)" not in table, table


def test_help_status_and_not_your_seat_answers_link_the_players_private_page(
        make_app: Callable[..., Flask], db_url: str) -> None:
    app = make_app(DATABASE_URL=db_url, BASE_URL="http://pbem.test")
    engine = db_engine(app)
    game = two_human_game(engine)
    seat, _state = to_play(engine, game)
    me = ("ann@example.org", "bob@example.org")[seat]
    with app.app_context():
        for text in ("help", "status"):
            deliver(Inbox.from_app(app), reply(latest_token(engine, me, "turn"), text,
                                               sender=me))
        # a reply from an address that isn't the player's: the player is told, with the same link
        deliver(Inbox.from_app(app), reply(latest_token(engine, me, "turn"), "QS",
                                           sender="someone@elsewhere.example"))
    for kind in ("help", "status", "not_your_seat"):
        body = emails(engine, me, kind)[-1].body_text
        assert "http://pbem.test/s/" in body and f"/games/{game}" not in body, body
