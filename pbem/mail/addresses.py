"""Another address for a player: a confirmation link is mailed to the new address, and only
following it (a POST from the page it opens) adds the address.

The link is the player's id and the new address signed with the app's secret key
(itsdangerous, expiring after ADDRESS_TTL): nothing is stored until it is confirmed, so no
table holds half-added addresses, and confirming twice adds it once (the address is unique).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import func
from sqlmodel import Session, col, select

from pbem.mail.compose import MailSettings, build_headers
from pbem.mail.outbox import enqueue
from pbem.mail.render import default_renderer
from pbem.mail.strangers import known_address, may_send
from pbem.present.i18n import _, using
from pbem.store.models import OutboxEmail, Player, PlayerAddress, normalise_email
from pbem.store.types import utcnow

ADDRESS_TTL = timedelta(days=3)
PER_DAY = 5  # confirmation emails a player may ask for in a day (each goes to a stranger)
_SALT = "pbem.address"


class AddressRefused(ValueError):
    """A sentence fit for the player: why the address can't be added."""


def _signer(secret: str | bytes) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=_SALT)


def sign(secret: str | bytes, player_id: int, address: str) -> str:
    return _signer(secret).dumps({"p": player_id, "a": address})


def unsign(secret: str | bytes, signed: str) -> tuple[int, str] | None:
    """(player id, address) of a confirmation link; None if forged or older than the TTL."""
    try:
        data = _signer(secret).loads(signed, max_age=int(ADDRESS_TTL.total_seconds()))
    except BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("p"), int):
        return None
    return data["p"], str(data.get("a", ""))


def checked(address: str) -> str:
    """The address in its stored form, or AddressRefused saying what is wrong with it."""
    try:
        valid = validate_email(address.strip(), check_deliverability=False,
                               allow_smtputf8=False)
    except EmailNotValidError as exc:
        raise AddressRefused(_("“%(address)s” isn't an email address we can use: %(why)s",
                               address=address.strip()[:100], why=exc)) from None
    return normalise_email(valid.normalized)


def request_address(session: Session, settings: MailSettings, secret: str | bytes,
                    player: Player, address: str, now: datetime | None = None) -> str:
    """Mail a confirmation link to `address` for `player`; the sentence to show them.
    AddressRefused if the address is unusable or asked too often.

    An address that is another player's gets the same email and the same answer as any
    other (the confirmation then says it is in use, to whoever reads that mailbox): the form
    must not tell who plays here. Past the mailbox's daily share of unasked-for mail, from
    anyone (pbem.mail.strangers), nothing is sent and the answer is the same."""
    now = now or utcnow()
    address = checked(address)
    if _owner(session, address) == player.id:
        return _("%(address)s is already one of your addresses.", address=address)
    if _sent_today(session, player, now) >= PER_DAY:
        raise AddressRefused(_("You asked for several confirmation emails today already; "
                               "please use one of those, or try again tomorrow."))
    if may_send(session, address, known=known_address(session, address), now=now):
        _send_confirmation(session, settings, secret, player, address, now)
    return _("We sent a confirmation link to %(address)s: follow it within %(days)s days and "
             "replies from that address count as yours.", address=address,
             days=ADDRESS_TTL.days)


def _send_confirmation(session: Session, settings: MailSettings, secret: str | bytes,
                       player: Player, address: str, now: datetime) -> None:
    """The email to the address typed: it names nobody (whoever reads that mailbox may not be
    the player, and a name is text the player typed), in its To header or its text."""
    link = settings.url(f"a/{sign(secret, player.id or 0, address)}")
    with using(player.language):
        context: dict[str, Any] = {
            "player_name": "", "address": address, "link": link, "days": ADDRESS_TTL.days,
            "game_name": None, "game_url": None, "unsubscribe_url": None, "marker": "",
            "preheader": _("Confirm %(address)s for Hearts by email", address=address)}
        rendered = default_renderer().render("address_confirm", **context)
        subject = _("Hearts: confirm your address")
    headers = build_headers(settings, kind="address_confirm", to_name="", to_addr=address)
    enqueue(session, kind="address_confirm", to_addr=address,
            subject=subject, body_text=rendered.text,
            body_html=rendered.html, headers=headers, player_id=player.id, now=now)


def confirm_address(session: Session, player_id: int, address: str) -> str:
    """Add the address (once); the sentence to show."""
    player = session.get(Player, player_id)
    owner = _owner(session, address)
    if player is None:
        raise AddressRefused(_("This confirmation link is for a player who no longer "
                               "exists."))
    if owner is not None and owner != player_id:
        raise AddressRefused(_("%(address)s is already the address of another Hearts "
                               "account, so it wasn't added. To play from it, sign in with "
                               "it.", address=address))
    if owner is None:
        session.add(PlayerAddress(player_id=player_id, email=address))
    return _("Done: %(address)s is now one of %(name)s's addresses.", address=address,
             name=player.name)


def _owner(session: Session, address: str) -> int | None:
    main = session.exec(select(Player.id).where(Player.email == address)).first()
    if main is not None:
        return main
    return session.exec(select(PlayerAddress.player_id).where(
        PlayerAddress.email == address)).first()


def _sent_today(session: Session, player: Player, now: datetime) -> int:
    return int(session.exec(select(func.count()).select_from(OutboxEmail).where(
        OutboxEmail.player_id == player.id, OutboxEmail.kind == "address_confirm",
        col(OutboxEmail.created_at) >= now - timedelta(days=1))).one())
