"""The database tables (SQLModel). Game history lives in `Event`, which is append-only."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Index,
    LargeBinary,
    Text,
    UniqueConstraint,
    event,
    inspect,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapper, ORMExecuteState
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Field, SQLModel

from pbem.store.triggers import count_pending_deadlines
from pbem.store.types import UTCDateTime, utcnow

# Stable constraint names, so migrations can drop and alter them on every database.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata = SQLModel.metadata

NOTIFY_CHOICES = ("each_trick", "each_hand", "turn_only")
GAME_STATUSES = ("inviting", "active", "paused", "finished", "cancelled")
ROBOT_STRENGTHS = ("easy", "strong")  # pbem.bots.STRENGTHS: the heuristic, the searching robot
INVITE_STATUSES = ("invited", "accepted", "declined", "open")  # open: anyone may join (lobby)
OUTBOX_STATUSES = ("pending", "sending", "sent", "failed")
TOKEN_PURPOSES = ("reply", "card", "pass", "invite", "unsubscribe", "seat", "join",
                  "signin")
INBOUND_STATUSES = ("pending", "processed", "ignored", "failed")
DEADLINE_KINDS = ("pass", "play", "moon", "bid", "suit")
REVIEW_STATUSES = ("done", "skipped", "failed")
DEADLINE_STATUSES = ("pending", "done", "expired", "cancelled")


# SQLite gives a new row the largest id plus one unless the table says AUTOINCREMENT, so a
# deleted last row's id goes to the next row. Tables whose rows are deleted while their ids
# live on elsewhere say it (migration 0016); PostgreSQL's sequences never reuse an id.
NEVER_REUSED_IDS: dict[str, Any] = {"sqlite_autoincrement": True}


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _created() -> Any:
    return Field(default_factory=utcnow, sa_type=UTCDateTime)


class Player(SQLModel, table=True):
    __tablename__ = "player"
    __table_args__ = (
        # the players who asked for the daily digest (pbem.scheduler.digest, every hour)
        Index("ix_player_digest", "digest"),
        CheckConstraint("email = lower(email)", name="email_lower"),
        CheckConstraint(_in("notify", NOTIFY_CHOICES), name="notify"),
        CheckConstraint(_in("email_status", ("ok", "failing")), name="email_status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=320, unique=True)
    name: str = Field(max_length=200)
    time_zone: str = Field(default="UTC", max_length=64)
    # The language of the player's emails and pages (pbem.present.i18n.LANGUAGES; None: not
    # known yet, written in English); `language_chosen`: they chose it (not read from replies).
    language: str | None = Field(default=None, max_length=8)
    language_chosen: bool = False
    notify: str = Field(default="each_hand", max_length=16)
    digest: bool = False
    email_status: str = Field(default="ok", max_length=16)
    email_status_reason: str | None = Field(default=None, sa_type=Text)
    unsubscribed: bool = False
    # The review of each finished game (pbem.bots.review): off, none of this player's
    # decisions is weighed, stored, shown or mailed.
    review_games: bool = True
    created_at: datetime = _created()
    on_leaderboard: bool = True  # the player may leave the public leaderboard


class PlayerAddress(SQLModel, table=True):
    """An extra address a player may send mail from."""

    __tablename__ = "player_address"
    __table_args__ = (CheckConstraint("email = lower(email)", name="email_lower"),)

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    email: str = Field(max_length=320, unique=True)
    created_at: datetime = _created()


class Game(SQLModel, table=True):
    __tablename__ = "game"
    __table_args__ = (CheckConstraint(_in("status", GAME_STATUSES), name="status"),
                      CheckConstraint(_in("robot_strength", ROBOT_STRENGTHS),
                                      name="robot_strength"),
                      # The worker's scans (docs/scans.md): the tables whose wait for people
                      # is over (pbem.service.lobby `due_tables`, every minute) ...
                      Index("ix_game_status_fill_by", "status", "fill_by"),
                      # ... the games of one status in id order (the active ones left to
                      # robots, pbem.service.robotturns) ...
                      Index("ix_game_status_id", "status", "id"),
                      # ... the finished games whose review is due, oldest first
                      # (pbem.service.reviews, every 30 s) ...
                      Index("ix_game_review_due_id", "review_due", "id"),
                      # ... and the active games whose robots are thinking, 4 times a second
                      # (robotturns): status first, as in the two above, so that SQLite's
                      # planner, which knows no row counts, does not take one of those for
                      # `status = 'active'` and walk every active game.
                      Index("ix_game_status_robots_thinking_since", "status",
                            "robots_thinking_since"),
                      # ... and the active games no person is waited for, every second
                      # (robotturns: `pending_deadlines = 0`, kept by pbem.store.triggers).
                      Index("ix_game_status_pending_deadlines", "status",
                            "pending_deadlines"))

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    preset: str = Field(max_length=64)
    rules: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)  # engine Rules.to_dict()
    engine_version: str = Field(max_length=32)  # pinned when the game is created
    status: str = Field(default="inviting", max_length=16)
    deadline_policy: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    created_at: datetime = _created()
    last_seq: int = 0  # seq of the newest Event; moved only by store.events.append_*
    # How well the robots play this game's robot seats and timeouts (chosen at creation).
    robot_strength: str = Field(default="strong", max_length=8)
    # Games gathering players (pbem.service.lobby): robots take the seats still open and
    # those declined at `fill_by`; a quick-play table may be filled by anyone asking for its
    # preset and pace.
    fill_by: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # A game made on /new (open seats or not): how long its open and declined seats wait for
    # people in minutes, counted from its organiser's confirmation, which sets `fill_by` from
    # it. None: no robots by time.
    fill_wait_minutes: int | None = None
    quick: bool = False
    # The finished game this one replays with the same players (one rematch per game).
    rematch_of: int | None = Field(default=None, foreign_key="game.id", unique=True)
    # Who set the game up (/new's first player, the quick-play or lobby table's asker, the
    # rematch's asker): they confirm it and may start it now with robots. None: nobody
    # (a game made by the CLI or the demo).
    organiser_id: int | None = Field(default=None, foreign_key="player.id")
    # Since when the game's robots have a move to make that the command before left to the
    # worker (pbem.service.core `advance`: a strong robot's search is kept out of web
    # requests), or the robots play on alone in a game no human plays any more; None when no
    # robot is to move. Written with the events that make it so and those that end it;
    # indexed with the status: the worker looks for these games every second
    # (pbem.service.robotturns).
    robots_thinking_since: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # Why the robots' moves in this game were set aside (their chunk raised ROBOTS_SET_ASIDE
    # times in a row: pbem.scheduler.worker), and when; the worker passes the game over
    # until an operator retries it (`pbem robots retry`). None: not set aside.
    robots_error: str | None = Field(default=None, sa_type=Text)
    robots_error_at: datetime | None = Field(default=None, sa_type=UTCDateTime, index=True)
    # How many of the game's deadline rows are pending: the people it waits for. Written by
    # the database's triggers on the deadline table (pbem.store.triggers, migration 0029),
    # never by the code; 0 for an active game: no person is waited for (the robots', the
    # dealer's or nobody's move: pbem.service.robotturns looks at those games every second).
    pending_deadlines: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The game has finished and its review (pbem.service.reviews) is not stored yet: set with
    # the status "finished", cleared with the review's row (done, skipped or failed), so the
    # worker's listing reads the games due, not every finished game (migration 0030).
    review_due: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


class Seat(SQLModel, table=True):
    __tablename__ = "seat"
    __table_args__ = (
        UniqueConstraint("game_id", "seat_no"),
        CheckConstraint(_in("invite_status", INVITE_STATUSES), name="invite_status"),
        Index("ix_seat_invite_reminder_at", "invite_reminder_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seat_no: int
    player_id: int | None = Field(default=None, foreign_key="player.id", index=True)
    is_bot: bool = False
    invite_status: str = Field(default="invited", max_length=16)
    timeouts_in_row: int = 0  # deadlines missed in a row; any command from the player resets it
    bot_holding: bool = False  # a robot plays the seat until the player comes back
    # When the worker next looks at this seat's invitation (pbem.service.invitations): an
    # invitee's one reminder (48 h after the invitation), or the organiser's one word on who
    # has not answered (72 h after their confirmation). Cleared in the transaction that queues
    # that email (or finds it moot), so each is sent once; None: nothing is due.
    invite_reminder_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # The name its organiser gave an invited seat ("Player N" when none), shown instead of
    # the player's own name until they accept (pbem.roster): typing an address must not
    # reveal whose it is. None: the player's own name (seats taken in person, robots).
    name: str | None = Field(default=None, max_length=200)


class Event(SQLModel, table=True):
    """One engine event. Append-only: rows are never updated or deleted."""

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq: int  # 1, 2, 3... per game, no gaps
    type: str = Field(max_length=64)
    payload: dict[str, Any] = Field(sa_type=JSON)  # engine encode_event(e)
    # Who made it: player, timeout, holding, robot, forced (pbem.service.core); None for deals
    # and for events older than the column.
    actor: str | None = Field(default=None, max_length=16)
    created_at: datetime = _created()


class GameReview(SQLModel, table=True):
    """A finished game's review, once the worker has done it ("done"), "skipped" (games
    that ended before reviews existed) or "failed" (not tried again). Its row is written with
    the decisions, so a game with a row is never reviewed twice."""

    __tablename__ = "game_review"
    __table_args__ = (CheckConstraint(_in("status", REVIEW_STATUSES), name="status"),)

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    status: str = Field(default="done", max_length=16)
    decisions: int = 0  # the decisions weighed (those with a choice)
    cpu_seconds: float = 0.0
    created_at: datetime = _created()


class ReviewedDecision(SQLModel, table=True):
    """One decision of a player in a finished game, weighed by the strong robot from what
    that player could see: what it cost on average against the best choice found, over
    `samples` sampled deals of the unseen cards."""

    __tablename__ = "reviewed_decision"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat_no: int
    hand_number: int
    trick_number: int
    kind: str = Field(max_length=8)  # play, pass, bid, suit
    chosen: str = Field(max_length=64)
    best: str = Field(max_length=64)
    cost: float
    samples: int


class Snapshot(SQLModel, table=True):
    """Cached engine state after event `seq`, so loading a game needn't replay it all."""

    __tablename__ = "snapshot"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seq: int = Field(primary_key=True)
    state: dict[str, Any] = Field(sa_type=JSON)  # engine snapshot(state)
    created_at: datetime = _created()


class OutboxEmail(SQLModel, table=True):
    __tablename__ = "outbox_email"
    __table_args__ = (
        Index("ix_outbox_email_status_next_attempt_at", "status", "next_attempt_at"),
        # a player's latest email of a kind: has today's digest gone? (pbem.scheduler.digest)
        Index("ix_outbox_email_player_id_kind_created_at", "player_id", "kind", "created_at"),
        # what one address was sent lately, whoever asked (pbem.mail.strangers' limits)
        Index("ix_outbox_email_to_addr_created_at", "to_addr", "created_at"),
        CheckConstraint(_in("status", OUTBOX_STATUSES), name="status"),
        NEVER_REUSED_IDS,  # an id is in a bounce address, and in operators' hands
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    player_id: int | None = Field(default=None, foreign_key="player.id")
    to_addr: str = Field(max_length=320)
    kind: str = Field(max_length=32)  # turn, invite, error, summary...
    subject: str = Field(sa_type=Text)
    body_text: str = Field(sa_type=Text)
    body_html: str | None = Field(default=None, sa_type=Text)
    headers: dict[str, str] = Field(default_factory=dict, sa_type=JSON)
    message_id: str | None = Field(default=None, max_length=250, index=True)  # bounces name it
    status: str = Field(default="pending", max_length=16)
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    claimed_by: str | None = Field(default=None, max_length=200)
    claimed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_error: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = _created()
    sent_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class MailJob(SQLModel, table=True):
    """The emails a command's new events call for, not yet worked out: written in the
    command's transaction, fanned out into outbox rows later (pbem.mail.jobs) in one
    transaction that also deletes the row, so each job fans out exactly once. A job that
    keeps failing stays, set aside with its error, until an operator retries it."""

    __tablename__ = "mail_job"
    __table_args__ = (
        # the pending jobs, each game's in seq order (rows are deleted once fanned out)
        Index("ix_mail_job_game_id_seq_after", "game_id", "seq_after"),
        NEVER_REUSED_IDS,  # `pbem mail retry-job ID` must not reach a later job
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id")
    seq_before: int  # the game's last seq before the command
    seq_after: int  # ... and after it: the turn_seq of the emails' tokens
    actor: int | None = None  # the seat whose command it was
    echo: bool = False  # the command came by email: say the move in the actor's next email
    deadline: datetime | None = Field(default=None, sa_type=UTCDateTime)
    made_at: datetime = Field(sa_type=UTCDateTime)  # the command's clock: the emails' "now"
    fresh: bool = False  # the game was created by this command (no state before)
    # A job whose fan-out fails is retried with a growing back-off, then set aside for an
    # operator (`pbem mail jobs`), so that the game's later jobs go out (pbem.mail.jobs).
    attempts: int = 0  # failed fan-outs so far
    last_error: str | None = Field(default=None, sa_type=Text)
    next_attempt_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # None: now
    set_aside_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Token(SQLModel, table=True):
    """A one-time or reply token. Only the sha256 of the random token is stored."""

    __tablename__ = "token"
    __table_args__ = (
        CheckConstraint(_in("purpose", TOKEN_PURPOSES), name="purpose"),
        # A seat's private link is looked up on every email: straight to its row, not
        # through every token of the game (thousands in a long game).
        Index("ix_token_seat_link", "game_id", "seat_no", "purpose", "turn_seq"),
    )

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    purpose: str = Field(max_length=16)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    seat_no: int | None = None
    player_id: int | None = Field(default=None, foreign_key="player.id")
    # A sign-in link's address when it belongs to nobody yet: the account is made when the
    # link is used (pbem.present.signin), not when someone types the address.
    email: str | None = Field(default=None, max_length=320)
    turn_seq: int | None = None  # dead once the game's last_seq moved past it
    card: str | None = Field(default=None, max_length=8)
    used_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    expires_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = _created()


class WebSession(SQLModel, table=True):
    """A signed-in browser (pbem.web.signedin): the cookie holds a random id, this row its
    sha256. Signing out deletes the row, so a copy of the cookie signs in nobody any more;
    "sign out everywhere" and deleting the account delete all the player's rows."""

    __tablename__ = "web_session"

    id_hash: str = Field(primary_key=True, max_length=64)
    player_id: int = Field(foreign_key="player.id", index=True)
    created_at: datetime = _created()
    expires_at: datetime = Field(sa_type=UTCDateTime)


class InboundMail(SQLModel, table=True):
    """A received message, stored raw before anything else happens to it."""

    __tablename__ = "inbound_mail"
    __table_args__ = (
        UniqueConstraint("message_id", "content_hash"),
        Index("ix_inbound_mail_status", "status"),
        CheckConstraint(_in("status", INBOUND_STATUSES), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(default="", max_length=998)  # "" when the mail has none
    content_hash: str = Field(max_length=64)  # sha256 hex: pbem.mailin.rawmail
    raw: bytes = Field(sa_type=LargeBinary)
    status: str = Field(default="pending", max_length=16)
    reason: str | None = Field(default=None, sa_type=Text)
    received_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime)
    processed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class Deadline(SQLModel, table=True):
    """When a pending action (a seat's pass, the current play, the moon choice) is due.

    The worker scans these rows (pbem.scheduler.worker.check_deadlines); the service keeps
    them in step with the game in every command's transaction (pbem.service.deadlines)."""

    __tablename__ = "deadline"
    __table_args__ = (
        UniqueConstraint("game_id", "seat_no", "turn_seq"),
        Index("ix_deadline_status_next_reminder_at", "status", "next_reminder_at"),
        Index("ix_deadline_status_grace_until", "status", "grace_until"),
        # a game's pending rows, read by every move (its closed rows pile up under game_id)
        Index("ix_deadline_game_id_status", "game_id", "status"),
        CheckConstraint(_in("kind", DEADLINE_KINDS), name="kind"),
        CheckConstraint(_in("status", DEADLINE_STATUSES), name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat_no: int
    kind: str = Field(max_length=8)
    turn_seq: int  # the game's last_seq when the action became pending
    started_at: datetime = Field(sa_type=UTCDateTime)
    due_at: datetime = Field(sa_type=UTCDateTime)
    grace_until: datetime = Field(sa_type=UTCDateTime)  # due_at + grace: the timeout fires then
    reminders_sent: int = 0
    next_reminder_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    status: str = Field(default="pending", max_length=16)
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class WorkerProcess(SQLModel, table=True):
    """One running `pbem worker` process: who it is, when it last beat, what it holds (its
    claims: pbem.store.claims) and how many plans it threw away (a lost compare-and-set:
    with claims, 0 is the normal count). Deleted when the process stops cleanly; a row whose
    beat is old is a worker that died (`pbem worker --check`)."""

    __tablename__ = "worker_process"

    id: str = Field(primary_key=True, max_length=120)  # host:pid:random
    host: str = Field(max_length=64, index=True)
    pid: int
    started_at: datetime = Field(sa_type=UTCDateTime)
    beat_at: datetime = Field(sa_type=UTCDateTime)
    holding: str = Field(default="", max_length=1000)  # "game:12 mail:40", cut to fit
    plans_discarded: int = 0


class MetricTotal(SQLModel, table=True):
    """Totals /metrics reports without counting whole tables at each scrape: the worker adds
    what happened since its last tally (`cursor`: the last event id counted)."""

    __tablename__ = "metric_total"

    name: str = Field(primary_key=True, max_length=64)
    label: str = Field(primary_key=True, max_length=64)
    value: int = Field(default=0, sa_type=BigInteger)


class RateLimit(SQLModel, table=True):
    """A per-client rate-limit counter (pbem.ratelimit_store): hits in the window that ends
    at `expires_at` (Unix time, so the atomic upsert compares plain numbers)."""

    __tablename__ = "rate_limit"

    key: str = Field(primary_key=True, max_length=255)
    count: int = 0
    expires_at: float = Field(index=True)


class Away(SQLModel, table=True):
    """A player's away dates (inclusive, in their own time zone)."""

    __tablename__ = "away"
    __table_args__ = (CheckConstraint("starts_on <= ends_on", name="dates"),)

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    starts_on: date
    ends_on: date
    created_at: datetime = _created()


class Rating(SQLModel, table=True):
    """A player's rating from rated games (pbem.service.ratings: openskill's Plackett-Luce)."""

    __tablename__ = "rating"

    player_id: int = Field(foreign_key="player.id", primary_key=True)
    mu: float
    sigma: float
    games: int = 0
    updated_at: datetime = _created()


class RatedGame(SQLModel, table=True):
    """A finished game's rating decision, taken once: its key makes rating exactly-once."""

    __tablename__ = "rated_game"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    counted: bool
    reason: str = Field(sa_type=Text)  # why it counted or not, in words
    created_at: datetime = _created()


class RatingChange(SQLModel, table=True):
    """What one rated game did to one player's rating."""

    __tablename__ = "rating_change"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    created_at: datetime = _created()


def normalise_email(address: str) -> str:
    """The stored form of an address: trimmed and lower-cased (look-ups must use it too)."""
    return address.strip().lower()


def _normalise_email(_mapper: Mapper[Any], _connection: Any, target: Any) -> None:
    target.email = normalise_email(target.email)


for _table in (Player, PlayerAddress):
    event.listen(_table, "before_insert", _normalise_email)
    event.listen(_table, "before_update", _normalise_email)


class AppendOnlyViolation(RuntimeError):
    """Someone tried to change or delete an Event row."""


def _refuse_change(_mapper: Mapper[Any], _connection: Any, target: Event) -> None:
    raise AppendOnlyViolation(
        f"events are append-only (game {target.game_id}, seq {target.seq})"
    )


def _refuse_bulk_change(state: ORMExecuteState) -> None:
    if (state.is_update or state.is_delete) and state.bind_mapper is inspect(Event):
        raise AppendOnlyViolation("events are append-only (bulk UPDATE/DELETE refused)")


event.listen(Event, "before_update", _refuse_change)
event.listen(Event, "before_delete", _refuse_change)
event.listen(OrmSession, "do_orm_execute", _refuse_bulk_change)
count_pending_deadlines(Deadline.__table__)  # type: ignore[attr-defined]  # game.pending_deadlines
