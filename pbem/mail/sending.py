"""Queue one rendered email: who may get mail, the subject, the marker line, the unsubscribe
token, and the outbox row, in the caller's transaction (every email goes through `queue_mail`)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import enqueue
from pbem.mail.render import Renderer
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
    now: datetime | None = None, unsubscribe: str | None = None,
) -> OutboxEmail:
    """Render `kind` for `player` and add the outbox row (with an unsubscribe token: the raw
    `unsubscribe` token given, whose row the caller inserted, or a new one)."""
    if unsubscribe is None:
        unsubscribe, row = token_values("unsubscribe", player_id=player.id, now=now,
                                        ttl=UNSUBSCRIBE_TTL)
        insert_tokens(session, [row])
    game_id = game.id if game else None
    full = {
        "player_name": player.name, "game_name": game.name if game else None,
        "game_url": settings.url(f"games/{game_id}") if game_id else None,
        "unsubscribe_url": settings.url(f"u/{unsubscribe}"), "marker": MARKER,
        "preheader": "", **context,
    }
    rendered = renderer.render(kind, **full)
    headers = build_headers(settings, kind=kind, to_name=player.name, to_addr=player.email,
                            game_id=game_id, player_id=player.id, reply_token=reply_token,
                            unsubscribe_token=unsubscribe)
    return enqueue(session, kind=kind, to_addr=player.email, subject=subject_for(game),
                   body_text=rendered.text, body_html=rendered.html, headers=headers,
                   game_id=game_id, player_id=player.id, now=now)


def subject_for(game: Game | None) -> str:
    """One subject per game, so that mail clients that thread by subject (Gmail) keep one thread;
    what each email is about is its first line (and the HTML preheader)."""
    return f"Hearts: {game.name}" if game else "Hearts: your games today"


def default_settings() -> MailSettings:
    from flask import current_app, has_app_context

    if has_app_context():
        return MailSettings.from_config(current_app.config)
    return MailSettings(domain="localhost", base_url="http://127.0.0.1:5000")
