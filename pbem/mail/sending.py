"""Queue one rendered email: who may get mail, the subject, the marker line, the unsubscribe
token, and the outbox row, in the caller's transaction (every email goes through `queue_mail`)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from pbem.mail.compose import MailSettings, headers_or_problem
from pbem.mail.outbox import enqueue
from pbem.mail.render import Renderer
from pbem.present.i18n import _, lazy, using
from pbem.present.tokens import insert_tokens, token_values
from pbem.store.models import Game, OutboxEmail, Player

MARKER = "--- Reply above this line ---"
UNSUBSCRIBE_TTL = timedelta(days=365)


def deliverable(player: Player) -> bool:
    """Unsubscribed players get no mail; a bouncing address gets none until it is fixed."""
    return not player.unsubscribed and player.email_status == "ok"


def queue_mail(
    session: Session, settings: MailSettings, renderer: Renderer, kind: str, player: Player,
    *, context: dict[str, Any], game: Game | None = None, reply_token: str | None = None,
    now: datetime | None = None, unsubscribe: str | None = None, stranger_text: bool = False,
    in_reply_to: str = "", language: str | None = None,
) -> OutboxEmail:
    """Render `kind` for `player` and add the outbox row (with an unsubscribe token: the raw
    `unsubscribe` token given, whose row the caller inserted, or a new one).

    `stranger_text`: the address never asked for this email and the game's texts were typed
    by whoever filled in a public form, so none of them goes in (the game's and the players'
    names, which may hold links, in the body, the subject or the To header). `in_reply_to`:
    the Message-ID of the player's email this one answers. `language`: the language to write
    in when it is not the player's own (an answer to a reply is in the reply's language);
    by default the player's (English when not known yet)."""
    if unsubscribe is None:
        unsubscribe, row = token_values("unsubscribe", player_id=player.id, now=now,
                                        ttl=UNSUBSCRIBE_TTL)
        insert_tokens(session, [row])
    game_id = game.id if game else None
    full = {
        "player_name": player.name, "game_name": game.name if game else None,
        "game_url": settings.url(f"games/{game_id}") if game_id else None,
        "unsubscribe_url": settings.url(f"u/{unsubscribe}"), "marker": MARKER,
        # where the reader changes their language (and their other settings)
        "settings_url": settings.url("me"),
        "preheader": "", **context,
    }
    if stranger_text:
        full.update(player_name="", game_name=None, game_url=None, settings_url=None)
    with using(language or player.language):
        full["preheader"] = preview(kind, str(full["preheader"] or ""))
        rendered = renderer.render(kind, **full)
        subject = _stranger_subject(kind, context) if stranger_text else subject_for(game)
    headers, problem = headers_or_problem(
        settings, kind=kind, to_addr=player.email, to_name="" if stranger_text else player.name,
        game_id=game_id, player_id=player.id, reply_token=reply_token,
        unsubscribe_token=unsubscribe, thread_topic=subject if game else "",
        in_reply_to=in_reply_to)
    return enqueue(session, kind=kind, to_addr=player.email, subject=subject,
                   body_text=rendered.text, body_html=rendered.html, headers=headers,
                   game_id=game_id, player_id=player.id, now=now, failed=problem)


# Subjects of the emails that go to an address before it asked for anything (no game name).
STRANGER_SUBJECTS = {"invite": lazy("Hearts: please confirm the game set up with your address"),
                     "invite_reminder": lazy("Hearts: an invitation to a game, once more"),
                     "join_confirm": lazy("Hearts: please confirm it was you")}


def _stranger_subject(kind: str, context: dict[str, Any]) -> str:
    if kind == "invite" and not context.get("organiser"):
        return _("Hearts: an invitation to a game")
    return str(STRANGER_SUBJECTS.get(kind, "Hearts"))


# What an email wants, first in its preview (the HTML preheader, which inbox lists show beside
# the subject): the subject stays the game's, so that its emails stay one thread (Gmail starts
# a new one when the subject changes). See docs/presentation.md.
YOUR_TURN, RESULT, ANSWER = lazy("Your turn"), lazy("Result"), lazy("Answer")
PURPOSES = {
    **dict.fromkeys(("turn", "pass", "bid", "name_suit", "moon_choice", "reminder", "nudge"),
                    YOUR_TURN),
    **dict.fromkeys(("trick_result", "hand_result", "summary", "review"), RESULT),
    # answers to the player's own mail (a reply's short confirmation among them)
    **dict.fromkeys(("error", "status", "help", "not_your_seat", "note", "unroutable",
                     "move_confirmed"), ANSWER),
    "game_started": lazy("Game on"), "timeout": lazy("Time ran out"),
    "say": lazy("Table talk"),
    **dict.fromkeys(("invite", "invite_reminder", "invite_declined", "invite_closed",
                     "invite_unanswered"), lazy("Invitation")),
    "digest": lazy("Your games"),
    "player_left": lazy("A player left"), "seat_taken_over": lazy("Your seat"),
}


def preview(kind: str, preheader: str) -> str:
    """The preheader led by what the email wants ("Your turn: hand 2, trick 5.")."""
    purpose = PURPOSES.get(kind)
    if purpose is None:
        return preheader
    label = str(purpose)
    if preheader.startswith(label):
        return preheader
    return (_("%(purpose)s: %(preview)s", purpose=label, preview=preheader) if preheader
            else _("%(purpose)s.", purpose=label))


_NAMES_HEARTS = re.compile(r"\bhearts\b", re.IGNORECASE)


def subject_for(game: Game | None) -> str:
    """One subject per game, so that mail clients that thread by subject (Gmail) keep one thread;
    what each email wants leads its preview (`preview`), beside the subject in inbox lists.
    A game whose name says Hearts already ("Hearts", "Friday Hearts") is not prefixed again."""
    if game is None:
        return _("Hearts: your games today")
    return game.name if _NAMES_HEARTS.search(game.name) else _("Hearts: %(game)s",
                                                                 game=game.name)


def default_settings() -> MailSettings:
    from flask import current_app, has_app_context

    if has_app_context():
        return MailSettings.from_config(current_app.config)
    return MailSettings(domain="localhost", base_url="http://127.0.0.1:5000")
