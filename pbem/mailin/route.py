"""Route: the reply token (in the recipient address, else in In-Reply-To / References) → the
game, seat and player it was issued for; and whether the sender is that player.

Exchange and Office 365 drop plus-addressing, so every email also lists the token in a
`<pbem.reply.TOKEN@domain>` Message-ID in References (pbem.mail.compose.reply_ref_id), and
its own Message-ID carries it too (clients that keep only In-Reply-To).

A reply-all can carry several players' tokens (To, Cc, the envelope): it is routed to the
sender's own seat whichever copy arrives first, and only to another seat when none is theirs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses
from typing import Any

from sqlalchemy import Row, bindparam, false, null, union_all
from sqlmodel import Session, select

from pbem.mail.compose import MailSettings, reply_tokens_in
from pbem.mail.outbox import verp_row_of
from pbem.present.tokens import find_token, find_token_row
from pbem.store.models import Player, PlayerAddress, Token, normalise_email

_TOKEN = re.compile(r"^[A-Za-z0-9]{8,64}$")
REPLY = frozenset({"reply"})


@dataclass(frozen=True)
class Route:
    game_id: int
    seat_no: int
    player_id: int
    turn_seq: int | None
    via: str  # "address" or "references"
    answered: str = ""  # the routed email's own Message-ID (checked), which answers reply to
    from_player: bool = False  # find_route found the sender is this seat's player
    # The player's language as stored (None: not known) and whether they chose it; read
    # with their addresses (no query of its own), for the answers (issue 34).
    language: str | None = None
    language_chosen: bool = False
    heard: str | None = None  # the language the reply was written in, if its words say

    @property
    def answer_language(self) -> str | None:
        """The language of the answers to this reply: the reply's own, else the player's."""
        return self.heard or self.language

    @property
    def learns_language(self) -> bool:
        """Should the player's language become the reply's (they never chose one)?"""
        return (self.heard is not None and not self.language_chosen
                and self.heard != self.language)


def recipients_of(message: Message) -> list[str]:
    """Every address the message was delivered to, envelope first (Delivered-To and kin)."""
    found: list[str] = []
    for name in ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc"):
        values = [str(v) for v in message.get_all(name) or []]
        found += [addr.strip() for _, addr in getaddresses(values) if addr]
    return list(dict.fromkeys(found))


def address_token(address: str, local: str) -> str | None:
    """TOKEN of `local+TOKEN@any.domain` (case-insensitive local part), else None."""
    mailbox, at, _domain = address.strip().strip("<>").rpartition("@")
    base, plus, token = mailbox.partition("+")
    if not at or not plus or base.lower() != local.lower() or not _TOKEN.match(token):
        return None
    return token


def candidate_tokens(message: Message, settings: MailSettings) -> list[tuple[str, str]]:
    """(token, how found): recipient addresses first, then In-Reply-To, then References
    newest first."""
    found = [(t, "address") for t in (address_token(a, settings.reply_local)
                                       for a in recipients_of(message)) if t]
    refs = reply_tokens_in(decoded_header(message.get("In-Reply-To", "")))
    refs += reversed(reply_tokens_in(" ".join(decoded_header(v) for v in
                                              message.get_all("References") or [])))
    found += [(t, "references") for t in refs]
    return list(dict.fromkeys(found))


def decoded_header(value: object) -> str:
    """A header as text; encoded words decoded (Python's own email package encodes a long
    In-Reply-To, so some clients send one that way)."""
    text = str(value)
    if "=?" not in text:
        return text
    try:
        return str(make_header(decode_header(text)))
    except (LookupError, ValueError, UnicodeError):
        return text


def live_routes(session: Session, message: Message, settings: MailSettings,
                now: datetime | None = None) -> Iterator[Route]:
    """A Route for each live reply token the message carries, in `candidate_tokens` order
    (one per seat: a seat's first token wins)."""
    seen: set[tuple[int, int]] = set()
    for raw, via in candidate_tokens(message, settings):
        token = find_token_row(session, raw, REPLY, now=now)
        if token is None or token.game_id is None or token.seat_no is None \
                or token.player_id is None or (token.game_id, token.seat_no) in seen:
            continue
        seen.add((token.game_id, token.seat_no))
        yield Route(token.game_id, token.seat_no, token.player_id, token.turn_seq, via)


def find_route(session: Session, message: Message, settings: MailSettings,
               now: datetime | None = None, sender: str | None = None) -> Route | None:
    """The live reply token the message carries, as a Route; None if there is none. With
    `sender`, a token of the sender's own seat is preferred (reply-all carries others')."""
    first = None
    for route in live_routes(session, message, settings, now):
        if sender is None:
            return route
        addresses, language, chosen = _addresses_and_language(session, route.player_id)
        if _is_player(addresses, sender):
            return replace(route, from_player=True, language=language,
                           language_chosen=chosen)
        first = first or route
    return first


def _complete(token: Token | Row[Any]) -> bool:
    return None not in (token.game_id, token.seat_no, token.player_id)


def known_recipient(session: Session, address: str, settings: MailSettings,
                    now: datetime | None = None) -> bool:
    """May mail to `address` be accepted (at RCPT time)? A live reply token, the bare reply
    address (Exchange strips `+TOKEN`; the token is then in the references), our own From
    address (delivery status notifications come back to it), or one email's VERP bounce
    address (its tag checked)."""
    if verp_row_of(settings, address) is not None:
        return True
    token = address_token(address, settings.reply_local)
    if token is not None:
        found = find_token(session, token, {"reply"}, now=now)
        return found is not None and _complete(found)
    mailbox, _, domain = address.strip().strip("<>").rpartition("@")
    return (mailbox.lower() in {settings.from_local.lower(), settings.reply_local.lower()}
            and domain.lower() == settings.domain.lower())


_PLAYERS, _EXTRA = Player.__table__, PlayerAddress.__table__  # type: ignore[attr-defined]
_ADDRESSES = union_all(
    select(_PLAYERS.c.email, _PLAYERS.c.language, _PLAYERS.c.language_chosen)
    .where(_PLAYERS.c.id == bindparam("player_id")),
    select(_EXTRA.c.email, null().label("language"), false().label("language_chosen"))
    .where(_EXTRA.c.player_id == bindparam("player_id")))


def _addresses_and_language(session: Session,
                            player_id: int) -> tuple[set[str], str | None, bool]:
    """The player's main and extra addresses, their language and whether they chose it
    (one plain query)."""
    rows = session.connection().execute(_ADDRESSES, {"player_id": player_id}).all()
    language, chosen = None, False
    for row in rows:
        if row.language is not None or row.language_chosen:
            language, chosen = row.language, bool(row.language_chosen)
    return {row.email for row in rows}, language, chosen


def player_addresses(session: Session, player_id: int) -> set[str]:
    """The player's main and extra addresses (one plain query)."""
    return _addresses_and_language(session, player_id)[0]


def without_plus(address: str) -> str:
    """`bob+games@example.org` → `bob@example.org` (normalised): the same mailbox."""
    local, at, domain = normalise_email(address).rpartition("@")
    return f"{local.partition('+')[0]}{at}{domain}" if at else normalise_email(address)


def sender_is_player(session: Session, player_id: int, sender: str) -> bool:
    """Is `sender` one of the player's addresses, or a plus-variant of one (only the
    mailbox's owner receives mail at bob+anything@, so bob+games@ is Bob)?"""
    return _is_player(player_addresses(session, player_id), sender)


def _is_player(addresses: set[str], sender: str) -> bool:
    return (normalise_email(sender) in addresses
            or without_plus(sender) in {without_plus(a) for a in addresses})


def players_with_address(session: Session, addresses: list[str]) -> list[Player]:
    """The players who use any of these addresses (main or extra)."""
    wanted = [normalise_email(a) for a in addresses if a]
    if not wanted:
        return []
    players = list(session.exec(select(Player).where(Player.email.in_(wanted))))  # type: ignore[attr-defined]
    extra = session.exec(select(PlayerAddress.player_id).where(
        PlayerAddress.email.in_(wanted)))  # type: ignore[attr-defined]
    for player_id in extra:
        player = session.get(Player, player_id)
        if player is not None and player not in players:
            players.append(player)
    return players
