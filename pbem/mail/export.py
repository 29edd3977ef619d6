"""The `export` reply's answer (issue 35): a one-time sign-in link that lands on "Download my
data" (/me/data), mailed to the player's own account address only (an address they confirmed:
the one the account is known by), never to whatever address the request came from. The data
itself never travels by mail: the link works once, for SIGNIN_TTL, after a button press."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from pbem.mail.accounts import send_signin
from pbem.mail.compose import MailSettings
from pbem.service.accounts import SIGNIN_TTL
from pbem.store.models import OutboxEmail, Player

DATA_PATH = "/me/data"


def send_export_link(session: Session, player: Player, now: datetime,
                     settings: MailSettings | None = None) -> OutboxEmail:
    return send_signin(session, player, player.email, ttl=SIGNIN_TTL, now=now,
                       next_path=DATA_PATH, settings=settings, kind="export")
