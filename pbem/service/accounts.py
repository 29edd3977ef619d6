"""Players as people, not only seats: sign-in links (and new accounts), a player's games and
preferences, deleting an account.

A sign-in link is a one-time token (purpose "signin", stored hashed, SIGNIN_TTL long; made and
told by the notifier (`SigninRequested`), checked and used up by pbem.present.signin). Asking
for one does and mails the same whether the address is known or not (a new address gets its
empty account when the link is used), so the form can't be used to find out who plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Text, case, cast, delete, func, or_, update
from sqlmodel import Session, col, select

from pbem.roster import load_roster
from pbem.service.addresses import checked_address
from pbem.service.core import Context
from pbem.service.errors import BadRequest, NotFound, PlayerMistake
from pbem.service.games import awaits_confirmation, is_unanswered, resign
from pbem.service.names import FORMER_PLAYER as FORMER_PLAYER  # re-exported
from pbem.service.names import NEW_PLAYER
from pbem.service.names import checked_name as checked_name  # the web layer asks here
from pbem.service.notices import SigninRequested
from pbem.service.recipients import like_escaped, lock_mailbox, signin_links_to
from pbem.store.db import transaction
from pbem.store.events import load_state
from pbem.store.models import (
    NOTIFY_CHOICES,
    Away,
    Deadline,
    Game,
    InboundMail,
    OutboxEmail,
    Player,
    PlayerAddress,
    Seat,
    Token,
    WebSession,
    normalise_email,
)
from pbem.zones import known_zone

SIGNIN_TTL = timedelta(minutes=20)
SIGNIN_PER_HOUR = 5  # sign-in emails one player may be sent in an hour (per address limit)


def player_by_address(session: Session, address: str) -> Player | None:
    """The player whose address (or confirmed extra address) this is; a plus-variant of one
    (bob+games@) is the mailbox owner's too. One statement whatever the answer, so a known
    address costs what an unknown one does (the sign-in form's timing tells nothing)."""
    email = normalise_email(address)
    local, at, domain = email.rpartition("@")
    forms = list(dict.fromkeys([email, f"{local.partition('+')[0]}{at}{domain}"]))
    extra = select(PlayerAddress.player_id).where(col(PlayerAddress.email).in_(forms))
    found = session.exec(select(Player).where(or_(col(Player.email).in_(forms),
                                                  col(Player.id).in_(extra)))).all()
    return min(found, key=lambda p: (p.email not in forms, forms.index(p.email)
                                     if p.email in forms else 0), default=None)


def request_signin(ctx: Context, address: str, next_path: str | None = None) -> None:
    """Mail a sign-in link to `address`. The work and the email are the same whether the
    address plays here or not (a link for an address nobody plays from carries the address,
    and the account is made when it is used: pbem.present.signin), so neither the answer nor
    its time tells who plays. BadRequest only for text that isn't an address. `next_path`:
    the page the link brings them back to (the mail layer keeps it only if it is a path of
    this site).

    The limit is per mailbox (plus-variants are one: pbem.service.recipients) and atomic:
    its lock is held while counting and sending. Past it, nothing is sent."""
    email = normalise_email(checked_address(address.strip()))
    now = ctx.clock()
    with transaction(ctx.engine) as session:
        lock_mailbox(session, email)
        player = player_by_address(session, email)
        if signin_links_to(session, email, now) < SIGNIN_PER_HOUR:
            ctx.notify(session, SigninRequested(player, email, SIGNIN_TTL, now, next_path))


def account_for(session: Session, email: str) -> Player:
    """The player of `email`, made now (named by number until they choose a name) if there
    is none: when a sign-in link for an address nobody played from is used. A race with
    another link for it fails the unique address (IntegrityError: try again)."""
    player = player_by_address(session, email)
    if player is None:
        player = Player(email=email, name=NEW_PLAYER)
        session.add(player)
        session.flush()
        player.name = f"Player {player.id}"
        session.add(player)
    return player


def set_name(ctx: Context, player_id: int, name: str) -> str:
    clean = checked_name(name)
    with transaction(ctx.engine) as session:
        player = _player(session, player_id)
        player.name = clean
        session.add(player)
    return clean


@dataclass(frozen=True)
class Preferences:
    name: str
    email: str
    extra_addresses: tuple[str, ...]
    notify: str
    digest: bool
    time_zone: str
    unsubscribed: bool
    review_games: bool = True


def preferences(ctx: Context, player_id: int) -> Preferences:
    with transaction(ctx.engine, read_only=True) as session:
        player = _player(session, player_id)
        extra = session.exec(select(PlayerAddress.email).where(
            PlayerAddress.player_id == player_id).order_by(col(PlayerAddress.id))).all()
        return Preferences(player.name, player.email, tuple(extra), player.notify,
                           player.digest, player.time_zone, player.unsubscribed,
                           player.review_games)


def set_preferences(ctx: Context, player_id: int, *, notify: str, digest: bool,
                    time_zone: str, review_games: bool = True) -> None:
    """How much mail (each trick, each hand, turns only), a daily digest, the time zone, the
    review of each finished game (off: none of the player's decisions is weighed)."""
    if notify not in NOTIFY_CHOICES:
        raise BadRequest("notify_choice")
    zone = known_zone(time_zone)
    if zone is None:
        raise BadRequest("unknown_zone", zone=time_zone[:64])
    with transaction(ctx.engine) as session:
        player = _player(session, player_id)
        player.notify, player.digest, player.time_zone = notify, digest, zone
        player.review_games = review_games
        session.add(player)


def _player(session: Session, player_id: int) -> Player:
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("no_player")
    return player


# --- my games -------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameLine:
    """One game of a player's, as /me lists it."""

    game_id: int
    name: str
    status: str  # inviting, active, paused, finished
    seat_no: int
    invited: bool  # the player has not answered the invitation to this game yet
    your_turn: bool
    waiting_for: tuple[str, ...]  # the names of the others to move
    due_at: datetime | None  # the earliest pending deadline of the game
    scores: tuple[tuple[str, int], ...]  # (name, total) per seat
    winners: tuple[str, ...]  # names, for a finished game with a scored hand
    scored: bool  # a hand was scored (a game ended before one has no winner)
    hand_number: int


def player_games(ctx: Context, player_id: int) -> list[GameLine]:
    """Every game the player sits in and can act on, the open ones first, newest first within
    each group: not the ones they left, declined or were replaced in, nor those cancelled or
    still awaiting their organiser's confirmation (nobody was invited to those yet: anyone
    may type anyone's address on /new)."""
    with transaction(ctx.engine, read_only=True) as session:
        seats = session.exec(select(Seat, Game).join(Game, col(Game.id) == col(Seat.game_id))
                             .where(Seat.player_id == player_id, col(Seat.is_bot).is_(False),
                                    Seat.invite_status != "declined",
                                    Game.status != "cancelled")
                             .order_by(col(Game.id).desc())).all()
        lines = []
        for seat, game in seats:
            table = session.exec(select(Seat).where(Seat.game_id == game.id)
                                 .order_by(col(Seat.seat_no))).all()
            if not awaits_confirmation(game, table):
                lines.append(_game_line(session, game, seat, table))
    return sorted(lines, key=lambda line: line.status == "finished")


def _game_line(session: Session, game: Game, seat: Seat, table: Sequence[Seat]) -> GameLine:
    assert game.id is not None
    state = load_state(session, game.id).state
    names = load_roster(session, table).names
    moving = state.to_move if game.status == "active" else ()
    due = session.exec(select(func.min(Deadline.due_at)).where(
        Deadline.game_id == game.id, Deadline.status == "pending")).one()
    return GameLine(
        game.id, game.name, game.status, seat.seat_no, is_unanswered(seat),
        seat.seat_no in moving,
        tuple(names[s] for s in moving if s != seat.seat_no), due,
        tuple(zip(names, state.totals, strict=True)),
        tuple(names[s] for s in state.winners) if game.status == "finished" else (),
        bool(state.sheet), state.hand_number)


# --- deleting an account ---------------------------------------------------------------------

OPEN_GAMES = ("inviting", "active", "paused")


def former_address(player_id: int) -> str:
    """What stays in the unique address column: no address of anyone's (.invalid, RFC 2606)."""
    return f"former-player-{player_id}@deleted.invalid"


def is_former(player: Player) -> bool:
    """Whether the player deleted their account."""
    return player.id is not None and player.email == former_address(player.id)


SCRUBBED = "emptied: its sender deleted their account"


def _mentions(session: Session, pattern: str) -> ColumnElement[bool]:
    """SQL: the raw message holds `pattern` (a LIKE pattern), in any letter case."""
    if session.get_bind().dialect.name == "postgresql":  # bytea: its escaped text form
        return func.encode(col(InboundMail.raw), "escape").ilike(pattern, escape="\\")
    return cast(col(InboundMail.raw), Text).like(pattern, escape="\\")  # SQLite: ASCII case


def scrub_inbound_mail(session: Session, addresses: Sequence[str]) -> None:
    """Empty every received message that holds one of the addresses (or a +variant of one),
    and its stored reason; the row stays, so a late copy is still known as a duplicate."""
    for address in addresses:
        local, _, domain = normalise_email(address).rpartition("@")
        local, domain = (like_escaped(part) for part in (local, domain))
        for pattern in (f"%{local}@{domain}%", f"%{local}+%@{domain}%"):
            session.execute(update(InboundMail).where(_mentions(session, pattern)).values(
                raw=b"", reason=SCRUBBED,
                status=case((col(InboundMail.status) == "pending", "ignored"),
                            else_=col(InboundMail.status))))


def delete_account(ctx: Context, player_id: int) -> None:
    """The player leaves for good: robots take their seats in games still going (as when they
    resign); their addresses, name, links, away dates, sessions, queued mail and the mail
    received from them (`scrub_inbound_mail`) go; their rows in
    finished games stay under the neutral name FORMER_PLAYER, off the leaderboard, with no
    address, so no page or email shows them again."""
    with transaction(ctx.engine, read_only=True) as session:
        seats = session.exec(select(Seat).join(Game, col(Game.id) == col(Seat.game_id)).where(
            Seat.player_id == player_id, col(Seat.is_bot).is_(False),
            col(Game.status).in_(OPEN_GAMES))).all()
    with transaction(ctx.engine) as session:
        player = _player(session, player_id)
        scrub_inbound_mail(session, [player.email, *session.exec(select(
            PlayerAddress.email).where(PlayerAddress.player_id == player_id)).all()])
        player.email, player.name = former_address(player_id), FORMER_PLAYER
        player.unsubscribed, player.digest, player.on_leaderboard = True, False, False
        player.email_status_reason = None  # a relay's words may quote the address
        session.add(player)
        for table in (PlayerAddress, Away, Token, WebSession):
            session.execute(delete(table).where(col(table.player_id) == player_id))
        session.execute(delete(OutboxEmail).where(
            col(OutboxEmail.player_id) == player_id,
            col(OutboxEmail.status).in_(("pending", "failed"))))
        session.execute(update(OutboxEmail).where(col(OutboxEmail.player_id) == player_id)
                        .values(to_addr=former_address(player_id), body_text="",
                                body_html=None, headers={}))
    for seat in seats:  # after the name went: the others are told "Former player left"
        with suppress(PlayerMistake):  # it ended meanwhile
            resign(ctx, seat.game_id, seat.seat_no, player_id=player_id)
