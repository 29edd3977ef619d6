"""Emails about a player's account rather than a game: the sign-in link."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

from sqlmodel import Session

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import enqueue
from pbem.mail.render import default_renderer
from pbem.mail.sending import default_settings
from pbem.present.i18n import _, current, using
from pbem.present.signin import local_path
from pbem.present.tokens import insert_tokens, token_values
from pbem.store.models import OutboxEmail, Player


def send_signin(session: Session, player: Player | None, address: str, *, ttl: timedelta,
                now: datetime, next_path: str | None = None,
                settings: MailSettings | None = None, kind: str = "signin",
                subject: str | None = None) -> OutboxEmail:
    """A one-time sign-in link to `address` (the one typed: one of the player's, or nobody's
    yet, then `player` is None and the link makes the account). It goes even to an
    unsubscribed player: they asked for it just now. The email names nobody (the same for
    every address). `next_path`: the page of ours they were on, carried in the link (only if
    it is one: see `local_path`). `kind`: the email's template and kind (`export`: the link to
    download their data, pbem.mail.export)."""
    settings = settings or default_settings()
    raw, row = token_values("signin", player_id=player.id if player else None, ttl=ttl,
                            now=now)
    insert_tokens(session, [{**row, "email": address}])
    minutes = int(ttl.total_seconds() // 60)
    # The player's language, else the one of the page where the link was asked for.
    with using(player.language if player is not None and player.language else current()):
        context: dict[str, Any] = {
            "player_name": None, "link": settings.url(signin_path(raw, next_path)),
            "minutes": minutes, "game_name": None, "game_url": None,
            "unsubscribe_url": None, "marker": "",
            "preheader": _("Your Hearts sign-in link (for %(minutes)s minutes)",
                           minutes=minutes)}
        rendered = default_renderer().render(kind, **context)
        if subject is None:
            subject = (_("Hearts: your data") if kind == "export"
                       else _("Hearts: your sign-in link"))
    headers = build_headers(settings, kind=kind, to_name="", to_addr=address)
    return enqueue(session, kind=kind, to_addr=address, subject=subject,
                   body_text=rendered.text, body_html=rendered.html, headers=headers,
                   player_id=player.id if player else None, now=now)


def signin_path(raw: str, next_path: str | None) -> str:
    """The link's path: /signin/<token>, with `?next=` when there is a page to come back to."""
    where = local_path(next_path)
    return f"signin/{raw}" + (f"?next={quote(where, safe='/')}" if where else "")
