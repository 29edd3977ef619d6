"""Game lifecycle: create, accept or decline an invitation, resign, replace a seat."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem.bots import DEFAULT_STRENGTH, STRENGTHS
from pbem.dealing import first_dealer
from pbem.engine import (
    ENGINE_VERSION,
    PRESETS,
    VARIANT_PRESETS,
    Event,
    EventDecodeError,
    GameCreated,
    Rules,
    start,
)
from pbem.service.addresses import checked_address
from pbem.service.core import Context, Duplicate, Loaded, Outcome, commit, run
from pbem.service.errors import BadRequest, NotAllowed
from pbem.service.moves import check_seat
from pbem.service.names import NEW_PLAYER, seat_name
from pbem.service.notices import (
    InvitationDeclined,
    InvitationsSent,
    PlayerLeft,
    SeatTakenOver,
)
from pbem.service.recipients import may_send, took_part
from pbem.store.db import transaction
from pbem.store.events import LoadedState
from pbem.store.models import (
    Game,
    OutboxEmail,
    Player,
    PlayerAddress,
    Seat,
    Token,
    normalise_email,
)

OPEN = ("inviting", "active", "paused")
UNDER_WAY = ("active", "paused")  # started and not over: its players get its emails
# An unanswered invitation's one reminder, and the organiser's one word on who has not
# answered, counted from the invitation and from the organiser's confirmation.
INVITE_REMINDER_AFTER = timedelta(hours=48)
ORGANISER_REMINDER_AFTER = timedelta(hours=72)


@dataclass(frozen=True)
class Table:
    """How a new game gathers its players besides invitations (pbem.service.lobby)."""

    open_seats: tuple[int, ...] = ()
    # When robots take the seats nobody took: those still open, and those declined (an
    # unanswered invitation still waits), with open seats or without.
    fill_by: datetime | None = None
    quick: bool = False
    rematch_of: int | None = None
    # Instead of `fill_by`: how long those seats wait for people, counted from when the
    # game is open (its organiser's confirmation, under confirm_first; else at once).
    fill_wait_minutes: int | None = None


@dataclass(frozen=True)
class Invitee:
    email: str
    name: str
    accepted: bool = False  # e.g. the organiser, who needs no invitation


def make_rules(preset_name: str, options: Mapping[str, Any] | None = None) -> Rules:
    found = PRESETS.get(preset_name) or VARIANT_PRESETS.get(preset_name)
    if found is None:
        raise BadRequest("no_preset", name=preset_name)
    rules = found.rules
    if options:
        try:
            rules = rules.replace(**options)
        except EventDecodeError as exc:  # the rules' own problems, or the unknown options
            raise BadRequest("rules_conflict", engine_error=exc) from exc
        except (ValueError, TypeError) as exc:
            raise BadRequest("rules_conflict", detail=str(exc)) from exc
    return rules


def create_game(
    ctx: Context, *, name: str, preset: str = "standard",
    options: Mapping[str, Any] | None = None, players: Sequence[Invitee] = (),
    bot_seats: Collection[int] = (), deadline_policy: Mapping[str, Any] | None = None,
    confirm_first: bool = False, robot_strength: str = DEFAULT_STRENGTH,
    table: Table | None = None, organiser: int | None = None, session: Session | None = None,
) -> Outcome:
    """A new game: seats for `players` in order, skipping `bot_seats`; it starts (deals) as
    soon as every human seat has accepted, at once if all have. Players not yet accepted get
    an invitation email (accept / decline links), queued in the same transaction.

    `confirm_first` (games made on the public web form, where anyone may type any address):
    only the first player, the organiser, is emailed at once, to confirm the game; the others
    are invited when the organiser accepts, and never hear of it if they don't.

    `robot_strength`: how the robots play this game's robot seats and timeouts, "strong" (the
    searching robot, the default) or "easy" (the heuristic).

    `table`: open seats anyone may join from the lobby (pbem.service.lobby), when robots take
    those still open and those declined (a time, or a wait from the organiser's confirmation;
    a game without open seats too), a quick-play table, the game this one is a rematch of.

    `organiser`: which of `players` set the game up (game.organiser_id), who may start it now
    with robots; the first under `confirm_first`; None: nobody (the CLI's and demo games).

    `session`: make it in the caller's write transaction (which holds its own locks: quick
    play's) instead of a new one; its players must exist already."""
    rules = make_rules(preset, options)
    if robot_strength not in STRENGTHS:
        raise BadRequest("robot_strength")
    players = [replace(p, email=checked_address(p.email)) for p in players]
    table = table or Table()
    human_seats = _human_seats(rules, players, set(bot_seats) | set(table.open_seats))
    if confirm_first:
        organiser = 0  # the person asked to confirm the game is the one who set it up
    if organiser is not None and organiser not in range(len(players)):
        raise BadRequest("organiser_not_player")

    def make(session: Session) -> Outcome:
        invitees = players
        if confirm_first:
            _check_organiser_quota(session, players[0], ctx.clock())
            invitees = [replace(players[0], accepted=False), *players[1:]]
        return _create(ctx, session, name, preset, rules, invitees, human_seats,
                       dict(deadline_policy or {}), confirm_first, robot_strength, table,
                       organiser)

    if session is not None:
        return make(session)
    return _in_own_transaction(ctx, make)


def _human_seats(rules: Rules, players: Sequence[Invitee], not_human: set[int]) -> list[int]:
    """The seats `players` take, in order (the others are robots' or open); BadRequest when
    the count or the addresses don't fit."""
    human_seats = [s for s in range(rules.players) if s not in not_human]
    if len(human_seats) != len(players) or not not_human <= set(range(rules.players)):
        raise BadRequest("player_count", players=rules.players)
    if len({normalise_email(p.email) for p in players}) != len(players):
        raise BadRequest("same_address")
    return human_seats


def _in_own_transaction(ctx: Context, make: Callable[[Session], Outcome]) -> Outcome:
    """`make` in a transaction of its own, once more if a concurrent command added a new
    player's address first."""
    for attempt in range(2):
        try:
            with transaction(ctx.engine) as own:
                return make(own)
        except IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")


def _create(
    ctx: Context, session: Session, name: str, preset: str, rules: Rules,
    players: Sequence[Invitee], human_seats: list[int], deadline_policy: dict[str, Any],
    confirm_first: bool = False, robot_strength: str = DEFAULT_STRENGTH,
    table: Table | None = None, organiser: int | None = None,
) -> Outcome:
    table = table or Table()
    everyone_in = all(p.accepted for p in players) and not table.open_seats
    game = Game(name=name, preset=preset, rules=rules.to_dict(), engine_version=ENGINE_VERSION,
                status="active" if everyone_in else "inviting", deadline_policy=deadline_policy,
                robot_strength=robot_strength, fill_by=table.fill_by,
                fill_wait_minutes=table.fill_wait_minutes, quick=table.quick,
                rematch_of=table.rematch_of)
    if not confirm_first:
        start_the_wait(game, ctx.clock())
    session.add(game)
    session.flush()
    assert game.id is not None
    seats = [Seat(game_id=game.id, seat_no=n, is_bot=True, invite_status="accepted")
             for n in range(rules.players)]
    for index, (seat_no, invitee) in enumerate(zip(human_seats, players, strict=True)):
        seat = seats[seat_no]
        seat.player_id = player_for(session, invitee).id
        if index == organiser:
            game.organiser_id = seat.player_id
        seat.is_bot = False
        seat.invite_status = "accepted" if invitee.accepted else "invited"
        if not invitee.accepted:  # shown until they accept: never the account's own name
            seat.name = invitee.name.strip() or seat_name(seat_no)
    for seat_no in table.open_seats:
        seats[seat_no].is_bot, seats[seat_no].invite_status = False, "open"
    session.add_all(seats)
    session.flush()
    dealer, draw = first_dealer(rules, ctx.rng)
    created = GameCreated(rules, rules.players, dealer, draw)
    g = Loaded(session, game, seats, LoadedState(start(created), 0, 0))
    outcome = commit(ctx, g, [], created=created)
    invited = [s.seat_no for s in seats if s.invite_status == "invited"]
    if confirm_first:
        invited = invited[:1]  # the organiser's request to confirm: no reminder of it
    else:
        remind_invitees([seats[n] for n in invited], ctx.clock())
        remind_organiser(game, seats, ctx.clock())
    if invited:  # in this transaction: no game without its invitations, nor the reverse
        ctx.notify(session, InvitationsSent(game, tuple(invited), rules, ctx.clock(),
                                            organiser=confirm_first))
    return outcome


ORGANISER_QUOTA = 5  # games a person may set up on the public form in an hour


def _check_organiser_quota(session: Session, organiser: Invitee, now: datetime) -> None:
    """The public form can email any address: bound how often one address is asked to confirm.

    Atomic: the organiser's player row (made now if new) is locked before counting, so
    simultaneous posts for one address take turns (PostgreSQL: FOR UPDATE; SQLite's write
    transactions are serialized anyway); a concurrent first insert of the address fails the
    unique index, and create_game tries again. The address's daily share of unasked-for
    mail from anyone (pbem.service.recipients `may_send`) bounds it too."""
    player = player_for(session, organiser)
    session.exec(select(Player.id).where(Player.id == player.id).with_for_update()).one()
    since = now - timedelta(hours=1)
    sent = session.exec(select(func.count()).select_from(OutboxEmail).where(
        OutboxEmail.to_addr == normalise_email(organiser.email), OutboxEmail.kind == "invite",
        col(OutboxEmail.created_at) >= since)).one()
    if sent >= ORGANISER_QUOTA or not may_send(session, organiser.email,
                                               known=took_part(session, player), now=now):
        raise BadRequest("organiser_quota")


def _not_yet_invited(g: Loaded) -> list[int]:
    """Invited seats that were never sent an invitation (a confirm-first game's guests)."""
    emailed = set(g.session.exec(select(Token.seat_no).where(
        Token.game_id == g.game_id, Token.purpose == "invite")))
    return [s.seat_no for s in g.seats if s.invite_status == "invited"
            and s.seat_no not in emailed and not s.is_bot]


def player_for(session: Session, invitee: Invitee) -> Player:
    """The player with this address (or an extra address of theirs); created if new, with
    the name typed for them, else a neutral "Player N" (never the address's local part).

    An existing player's name is theirs to show: pages show the seat's own name
    (Seat.name) until they accept, so whoever typed the address doesn't learn it."""
    email = normalise_email(invitee.email)
    player = session.exec(select(Player).where(Player.email == email)).first()
    if player is None:
        extra = session.exec(select(PlayerAddress).where(PlayerAddress.email == email)).first()
        player = session.get(Player, extra.player_id) if extra else None
    if player is None:
        player = Player(email=email, name=invitee.name.strip() or NEW_PLAYER)
        session.add(player)
        session.flush()
        if not invitee.name.strip():
            player.name = f"Player {player.id}"
    return player


# --- invitations and seats ----------------------------------------------------------------

def organiser_seat(game: Game, seats: Sequence[Seat]) -> Seat | None:
    """The organiser's own seat (a robot's now, if they resigned), if the game has one."""
    if game.organiser_id is None:
        return None
    return next((s for s in seats if s.player_id == game.organiser_id), None)


def is_organiser(game: Game, seats: Sequence[Seat], player_id: int | None) -> bool:
    """`player_id` organises this game, plays in it and has confirmed it: they may start it
    now with robots in the seats not taken."""
    seat = organiser_seat(game, seats)
    return seat is not None and player_id is not None and seat.player_id == player_id \
        and _confirmed(seat)


def _confirmed(seat: Seat) -> bool:
    return not seat.is_bot and seat.invite_status == "accepted"


def is_unanswered(seat: Seat) -> bool:
    """A person is invited to this seat and has not answered yet."""
    return seat.invite_status == "invited" and not seat.is_bot and seat.player_id is not None


def start_the_wait(game: Game, now: datetime) -> None:
    """The game is open (made, or confirmed by its organiser): the wait for people of its
    open and declined seats starts now, if it has one and it has not started yet."""
    if game.fill_by is None and game.fill_wait_minutes is not None:
        game.fill_by = now + timedelta(minutes=game.fill_wait_minutes)


def remind_invitees(seats: Sequence[Seat], now: datetime) -> None:
    """These seats are being invited now: each is reminded once if still unanswered
    (pbem.service.invitations)."""
    for seat in seats:
        seat.invite_reminder_at = now + INVITE_REMINDER_AFTER


def remind_organiser(game: Game, seats: Sequence[Seat], now: datetime) -> None:
    """The organiser has confirmed (or made) a game with invitations out: they are told once
    who has not answered, if anyone still hasn't (pbem.service.invitations)."""
    organiser = organiser_seat(game, seats)
    if organiser is not None and _confirmed(organiser) and any(map(is_unanswered, seats)):
        organiser.invite_reminder_at = now + ORGANISER_REMINDER_AFTER


def accept_invite(
    ctx: Context, game_id: int, seat_no: int, *, player_id: int | None = None
) -> Outcome:
    def then(g: Loaded, _was: str) -> None:
        guests = _not_yet_invited(g)
        if guests:  # the organiser confirmed: now the others are invited
            remind_invitees([g.seat(n) for n in guests], ctx.clock())
            g.session.flush()
            ctx.notify(g.session, InvitationsSent(g.game, tuple(guests), g.state.rules,
                                                  ctx.clock()))
        organiser = organiser_seat(g.game, g.seats)
        if organiser is not None and organiser.seat_no == seat_no:  # they confirmed it
            start_the_wait(g.game, ctx.clock())
            remind_organiser(g.game, g.seats, ctx.clock())
        start_if_everyone_is_in(g)

    return _answer_invite(ctx, game_id, seat_no, player_id, "accepted",
                          "started_without_you", then)


def decline_invite(
    ctx: Context, game_id: int, seat_no: int, *, player_id: int | None = None
) -> Outcome:
    def then(g: Loaded, was: str) -> None:
        organiser = organiser_seat(g.game, g.seats)
        if organiser is not None and organiser.seat_no == seat_no and was == "invited":
            cancel(g)  # the organiser won't confirm their own game: nobody was invited
            return
        g.session.flush()
        ctx.notify(g.session, InvitationDeclined(g.game, seat_no, ctx.clock(),
                                                 tuple(_not_yet_invited(g))))

    return _answer_invite(ctx, game_id, seat_no, player_id, "declined",
                          "started_resign", then)


def _answer_invite(
    ctx: Context, game_id: int, seat_no: int, player_id: int | None, answer: str,
    too_late: str, then: Callable[[Loaded, str], None],
) -> Outcome:
    """Record a seat's answer to its invitation once, then `then` with the seat's status
    before it (invite the others and start, or tell the organiser, or cancel the game)."""
    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        check_seat(g, seat_no, player_id)
        seat = g.seat(seat_no)
        if seat.invite_status == answer:
            return Duplicate("invitation_" + answer)
        if g.game.status != "inviting":
            raise NotAllowed(too_late)
        was, seat.invite_status = seat.invite_status, answer
        seat.invite_reminder_at = None  # answered: no reminder (the organiser's: set anew)
        g.session.add(seat)
        then(g, was)
        return []

    return run(ctx, game_id, step, statuses=OPEN, actor=seat_no)


def resign(ctx: Context, game_id: int, seat_no: int, *, player_id: int | None = None) -> Outcome:
    """The player leaves; a robot plays the seat from now on (seat.player_id is kept, so the
    record shows who sat there; seats with is_bot set get no mail). Their private links close
    (`close_seat_links`: the page then says they left, and when); in a game under way the
    other people are told by email (`send_left`). The seat is a robot's from then on, so the
    game no longer counts for their rating (pbem.service.ratings)."""

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        seat = g.seat(seat_no)
        if seat.is_bot and (player_id is None or seat.player_id == player_id):
            return Duplicate("already_left")
        check_seat(g, seat_no, player_id)
        if g.game.status in UNDER_WAY:  # told while the seat still bears their name
            ctx.notify(g.session, PlayerLeft(g.game, seat_no, ctx.clock()))
        seat.is_bot, seat.invite_status = True, "accepted"
        seat.timeouts_in_row, seat.bot_holding = 0, False
        g.session.add(seat)
        if seat.player_id is not None:
            close_seat_links(g.session, game_id, seat_no, seat.player_id, ctx.clock())
        start_if_everyone_is_in(g)
        return []

    return run(ctx, game_id, step, statuses=OPEN, actor=seat_no)


def close_seat_links(session: Session, game_id: int, seat_no: int, player_id: int,
                     now: datetime) -> None:
    """The player's private links to that seat close now: it is no longer theirs (they left,
    or someone took it over). Their `used_at` says when, for the page an old link shows
    (pbem.present.links `closed_seat`)."""
    session.execute(update(Token).where(
        col(Token.purpose) == "seat", col(Token.game_id) == game_id,
        col(Token.seat_no) == seat_no, col(Token.player_id) == player_id,
        col(Token.turn_seq).is_(None), col(Token.used_at).is_(None)).values(used_at=now))


def replace_seat(
    ctx: Context, game_id: int, seat_no: int, invitee: Invitee | None
) -> Outcome:
    """Give a seat to another person (`None`: a robot). In a running game the newcomer
    takes over at once; in a game still inviting they are invited unless `accepted`."""
    if invitee is not None:
        invitee = replace(invitee, email=checked_address(invitee.email))

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        seat = g.seat(seat_no)
        before = seat.player_id if not seat.is_bot else None  # a person still in that seat
        held = seat.bot_holding  # a robot kept it for them (they timed out)
        if invitee is None:
            if seat.is_bot and seat.player_id is None:
                return Duplicate("robot_has_seat")
            seat.is_bot, seat.player_id, seat.invite_status = True, None, "accepted"
            seat.name = None
        else:
            player = player_for(g.session, invitee)
            if seat.player_id == player.id and not seat.is_bot:
                return Duplicate("has_seat", name=player.name)
            if any(s.player_id == player.id and not s.is_bot for s in g.seats):
                raise BadRequest("plays_already", name=player.name)
            seat.is_bot, seat.player_id = False, player.id
            seat.timeouts_in_row, seat.bot_holding = 0, False  # a newcomer starts afresh
            accepted = invitee.accepted or g.game.status != "inviting"
            seat.invite_status = "accepted" if accepted else "invited"
            seat.name = None if accepted else invitee.name.strip() or seat_name(seat_no)
        g.session.add(seat)
        if before is not None and before != seat.player_id:
            _replaced(ctx, g, seat, before, held)
        seat.invite_reminder_at = None  # a reminder due goes to nobody else
        if seat.invite_status == "invited":
            remind_invitees([seat], ctx.clock())
            g.session.flush()
            ctx.notify(g.session, InvitationsSent(g.game, (seat_no,), g.state.rules,
                                                  ctx.clock()))
        start_if_everyone_is_in(g)
        return []

    return run(ctx, game_id, step, statuses=OPEN)


def awaits_confirmation(game: Game, seats: Sequence[Seat]) -> bool:
    """A game made on /new whose organiser has not confirmed it yet: nobody else has been
    invited (nor told of it), and nobody but its organiser can act on it."""
    seat = organiser_seat(game, seats)
    return game.status == "inviting" and seat is not None and not seat.is_bot \
        and seat.invite_status == "invited"


def cancel(g: Loaded) -> None:
    """The organiser declined to confirm their game: it is cancelled (no invitation went
    out, none will; it is off the lobby and everyone's games, and its page says so)."""
    for seat in g.seats:
        seat.invite_reminder_at = None
        g.session.add(seat)
    g.game.status = "cancelled"
    g.session.add(g.game)


def _replaced(ctx: Context, g: Loaded, seat: Seat, before: int, held: bool) -> None:
    """Someone else has the seat `before`'s player had: their links close, and in a game under
    way they are told by email (`send_replaced`: whoever took it, and that they are out)."""
    close_seat_links(g.session, g.game_id, seat.seat_no, before, ctx.clock())
    if g.game.status in UNDER_WAY:
        g.session.flush()
        ctx.notify(g.session, SeatTakenOver(g.game, seat.seat_no, before, held, ctx.clock()))


def start_if_everyone_is_in(g: Loaded) -> None:
    if g.game.status == "inviting" and all(s.invite_status == "accepted" for s in g.seats):
        g.game.status = "active"  # commit() then deals the first hand
