"""Mail to addresses that never asked for any: who is a stranger, and how much they may be
sent, whoever asks.

Anyone may type anyone's address on /new, on "add another address" and on a takeover page.
An address counts as a stranger's until its person once took part: accepted a seat (or sat
down in one) or used a sign-in link. A stranger gets none of the text a sender typed (game
and player names, which may hold links or advertising; pbem.mail.sending `stranger_text`),
and few such emails: at most STRANGER_PER_DAY unasked-for emails a day to one mailbox (plus-
variants are one), from every sender together; an address that took part gets up to
KNOWN_PER_DAY invitations a day. Past the limit the email is not queued and the sender is
told nothing different (the form must not tell who plays here)."""

from __future__ import annotations

from sqlmodel import Session

from pbem.service.accounts import player_by_address
from pbem.service.recipients import KNOWN_PER_DAY as KNOWN_PER_DAY
from pbem.service.recipients import STRANGER_PER_DAY as STRANGER_PER_DAY
from pbem.service.recipients import UNASKED as UNASKED
from pbem.service.recipients import may_send as may_send
from pbem.service.recipients import took_part as took_part


def known_address(session: Session, address: str) -> bool:
    """Whether the address (or its mailbox) is that of a person who took part."""
    player = player_by_address(session, address)
    return player is not None and took_part(session, player)
