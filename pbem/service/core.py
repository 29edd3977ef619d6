"""The command runner: one write transaction per command — load, decide, append, and a mail
job saying which emails the new events call for (fanned out after it: pbem.mail.jobs).

A move is *planned* first (`run(..., planned=True)`): loaded, decided, the robots' answers,
deadlines and emails worked out in a read transaction without the writer lock, its writes
collected (pbem.store.db.planning); then a short write transaction checks the game is as it
was read and writes them, or the move is planned again (see docs/moves.md).

The other commands lock their game row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the write
transaction already began with BEGIN IMMEDIATE), so commands on one game run one at a time.
The unique (game_id, seq) key stays the backstop: a ConcurrencyConflict is retried once with
a fresh state, then reported as SomeoneMovedFirst.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, bindparam, exists, update
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from pbem.bots import DEFAULT_STRENGTH, robot_event
from pbem.dealing import deal, make_rng
from pbem.engine import (
    Command,
    EndVoted,
    EngineError,
    Event,
    GameCreated,
    GameState,
    Phase,
    acting_seat,
    apply,
    decide,
    decode_event,
    forced_events,
)
from pbem.roster import Roster, load_roster, roster_of
from pbem.service.deadlines import sync_deadlines
from pbem.service.errors import (
    CommandRejected,
    NotAllowed,
    NotFound,
    Said,
    SomeoneMovedFirst,
)
from pbem.service.notices import GameMoved, Notice, Notifier
from pbem.service.ratings import rate_game
from pbem.store.db import (
    Write,
    after_sync,
    all_plain,
    collected_writes,
    defer_write,
    deferred,
    execute_write,
    is_planning,
    pipelined_transaction,
    planning,
    run_writes,
    sync,
    transaction,
)
from pbem.store.events import (
    ConcurrencyConflict,
    LoadedState,
    append_events,
    load_event_rows,
    load_state,
    remember_state,
    save_snapshot,
    set_game_status,
    set_robots_thinking,
)
from pbem.store.gamerows import GameRows, PendingDeadline, read_game
from pbem.store.mailjobs import Job, Rebuilt, queue_job
from pbem.store.models import Away, Game, Player, Seat
from pbem.store.types import utcnow

MAX_AUTOMATIC_EVENTS = 100_000  # a safety net against a loop that never settles
NOBODY = -1  # `actor` of commands no player made (a timeout): nobody gets a confirmation

# Who acted, recorded with each event (the event row's `actor`): the seat's player, the robot
# on a timeout, the robot holding a seat for an absent player, a robot seat, or the engine (a
# forced play). Deals and the game's creation record none.
PLAYER, TIMEOUT, HOLDING, ROBOT, FORCED = "player", "timeout", "holding", "robot", "forced"


@dataclass
class Context:
    """What commands need from the outside world, wired once per process (or per test)."""

    engine: Engine
    rng: random.Random = field(default_factory=make_rng)
    clock: Callable[[], datetime] = utcnow
    snapshot_every: int = 40  # save a snapshot when this many events followed the last one
    # Called in a command's own transaction once its events are appended and its mail queued
    # (not for duplicates, nor for refused commands): the caller's bookkeeping then commits,
    # or rolls back, with the move (mail-in marks its message processed there).
    on_applied: Callable[[Session, Outcome], None] | None = None
    # The command came by email: the player's move is echoed back in the next email they get
    # (a page shows the move itself, so a move made there sends no confirmation).
    echo: bool = False
    # Who is told what the commands do (pbem.service.notices; the mail layer's, wired in by
    # the app factory). None: the one wired for `engine` (`wire`); a command that has
    # something to tell on an engine wired with none raises (nothing is lost silently).
    notifier: Notifier | None = None
    # Work the command's emails out in its own transaction (its `GameMoved` notice, at once)
    # instead of leaving its mail job to the worker. None: as wired for `engine` (`wire`;
    # production: no, the write transaction stays short; tests: yes, so a command's outbox
    # rows are there when it returns).
    mail_now: bool | None = None
    # Let strong robots make their moves in this command (the worker's robot pass, which
    # exists to play them) instead of leaving them to the worker. None: as wired for
    # `engine` (production: no, see THINKS_LONG).
    robots_now: bool | None = None
    # Called when a planned command's plan is thrown away because the game changed before
    # its write (a lost compare-and-set): the worker counts them (with claims, none).
    on_discarded: Callable[[], None] | None = None
    # A strong robot's wall-clock limit a decision (the ROBOT_SECONDS setting, which the worker
    # passes: docs/robots.md); None: only its budget of plays bounds it.
    robot_seconds: float | None = None
    # The game as the caller has just read it (a link's page: pbem.web.play.links): a
    # planned command starts from it instead of reading it again (its write checks the game
    # is still as read, as ever; a retry reads it afresh).
    known: Known | None = None

    def __post_init__(self) -> None:
        wired = _WIRED.get(self.engine) or Wiring()
        if self.notifier is None:
            self.notifier = wired.notifier
        if self.mail_now is None:
            self.mail_now = wired.mail_now
        if self.robots_now is None:
            self.robots_now = wired.robots_now

    @property
    def mails_now(self) -> bool:
        return bool(self.mail_now)

    @property
    def plays_robots_now(self) -> bool:
        return bool(self.robots_now)

    def notify(self, session: Session, notice: Notice) -> bool:
        """Hand `notice` to the notifier, in the command's transaction (`session`)."""
        if self.notifier is None:
            raise RuntimeError("no notifier is wired for this engine: pbem.app.wire_mail("
                               "engine), or Context(notifier=...) (pbem.service.notices)")
        return self.notifier.notify(session, notice)


@dataclass(frozen=True)
class Wiring:
    """What the contexts made on an engine get unless told otherwise: the notifier, and
    whether commands work their emails out at once (`mail_now`) and let strong robots move
    (`robots_now`). Production leaves both to the worker (`pbem worker` fans out mail jobs
    every second and plays the strong robots' moves: a strong robot searches ~50 ms a
    decision, docs/robots.md), so a web request or a reply only writes the player's own move
    and what costs nothing (deals, forced plays, easy robots), and the write transaction stays
    short. The app factory wires its engine from its settings (MAIL_NOW, ROBOTS_NOW)."""

    notifier: Notifier | None = None  # None: none wired (see Context.notifier)
    mail_now: bool = False
    robots_now: bool = False


# Each engine's wiring, set where the engine is made (the app factory: pbem.app; tests), so a
# `Context(engine=...)` made anywhere on it tells people through the same notifier.
_WIRED: WeakKeyDictionary[Engine, Wiring] = WeakKeyDictionary()


def wire(engine: Engine, wiring: Wiring) -> None:
    """Contexts made on `engine` from now on get `wiring` (their own arguments first)."""
    _WIRED[engine] = wiring


def wiring_of(engine: Engine) -> Wiring:
    return _WIRED.get(engine) or Wiring()


THINKS_LONG = frozenset({"strong"})  # robot strengths whose moves are left to the worker


@dataclass(frozen=True)
class Known:
    """A game read by the caller of a command (its game, seats and players with its pending
    deadlines, as `read_game(..., deadlines=True)` reads them, and its state), and the
    events after `since_seq` (`since`), read with them: see `Context.known`. The command
    changes the game's and seats' objects (plain copies) as it changes their rows."""

    rows: GameRows
    loaded: LoadedState
    since_seq: int = -1  # -1: no events read with it
    since: tuple[tuple[Event, str | None], ...] = ()


@dataclass(frozen=True)
class Outcome:
    game_id: int
    seq: int  # the game's last seq after the command
    events: tuple[Event, ...] = ()  # everything appended (the move, deals, forced and bot plays)
    state: GameState | None = None
    duplicate: bool = False  # the same command had already been carried out: nothing changed
    said: Said | None = None  # why nothing changed (a duplicate): words by pbem.present
    # The game's row and seats as the command left them (plain copies; None: not said): a
    # page renders the game after the command from them and `state`, without reading it.
    game: Game | None = None
    seats: tuple[Seat, ...] | None = None


class Duplicate:
    """A step's answer that the command had been carried out already: nothing changes, and
    `said` says why (a code and its data)."""

    def __init__(self, code: str, **data: Any) -> None:
        self.said = Said(code, data)


@dataclass
class Loaded:
    """A game inside a command's transaction."""

    session: Session
    game: Game
    seats: list[Seat]
    loaded: LoadedState
    loaded_roster: Roster | None = None  # set by `roster()`; notify reuses it
    players: dict[int | None, Player] | None = None  # the seats' players, if read with them
    away: set[int | None] | None = None  # ... and those of them with away dates
    pending_deadlines: list[PendingDeadline] | None = None  # if read with the game
    known: Known | None = None  # what the caller read with the game (its events since...)

    @property
    def state(self) -> GameState:
        return self.loaded.state

    @property
    def game_id(self) -> int:
        assert self.game.id is not None
        return self.game.id

    def seat(self, seat_no: int) -> Seat:
        for seat in self.seats:
            if seat.seat_no == seat_no:
                return seat
        raise NotFound("no_seat", seat=seat_no)

    def roster(self) -> Roster:
        """The game's roster (players read once per command). Steps that change seats or
        players must not call it before they do."""
        if self.loaded_roster is None:
            self.loaded_roster = (roster_of(self.seats, self.players) if self.players is not None
                                  else load_roster(self.session, self.seats))
        return self.loaded_roster

    def names(self) -> list[str]:
        """The seats' names as pages and emails show them ("Robot 4", not "Robot")."""
        return self.roster().names


Step = Callable[[Loaded], Sequence[Event] | Duplicate]

PLANNED_TRIES = 3  # a planned command redone this often after a lost race, then locked


# A game with its seats and their players, and whether each player has away dates (the
# deadline of a seat asked next is stretched by them): every command reads them first.
_AWAY = Away.__table__  # type: ignore[attr-defined]
_HAS_AWAY = exists().where(_AWAY.c.player_id == col(Player.id)).label("has_away")
_GAME_LOCKED = (select(Game, Seat, Player, _HAS_AWAY).join(Seat, col(Seat.game_id) == col(Game.id))
         .outerjoin(Player, col(Seat.player_id) == col(Player.id))
         .where(Game.id == bindparam("game_id")).order_by(col(Seat.seat_no))
         .execution_options(populate_existing=True).with_for_update(of=Game))


def run(
    ctx: Context, game_id: int, step: Step, *, statuses: tuple[str, ...] = ("active",),
    actor: int | None = None, by: str | None = PLAYER, planned: bool = False,
) -> Outcome:
    """Run `step` in a transaction on a freshly loaded game; retry a lost race once.

    `actor`: the seat whose command this is (in its mail job: `GameMoved`); a player
    who acts takes their seat back from the bot, even when the move itself is refused.
    `by`: who made the step's events (PLAYER, TIMEOUT...), recorded with them.
    `planned`: `step` only reads (a move): everything, the robots' answers and the emails
    included, is worked out without the writer lock, then written in a short transaction
    that first checks the game is as it was read (see `_run_planned`)."""
    try:
        for attempt in range(PLANNED_TRIES if planned else 0):
            try:
                return _run_planned(ctx, game_id, step, statuses, actor, by,
                                    ctx.known if attempt == 0 else None)
            except ConcurrencyConflict:
                if ctx.on_discarded is not None:
                    ctx.on_discarded()
                continue
        for _attempt in range(2):
            try:
                with transaction(ctx.engine) as session:
                    return _run_once(ctx, session, game_id, step, statuses, actor, by)
            except ConcurrencyConflict:
                continue
        raise SomeoneMovedFirst()
    except (CommandRejected, SomeoneMovedFirst):
        if actor is not None and actor >= 0:
            take_seat_back(ctx, game_id, actor)
        raise


def run_in(
    ctx: Context, session: Session, game_id: int, step: Step, *,
    statuses: tuple[str, ...] = ("active",), by: str | None = PLAYER,
) -> Outcome:
    """`run` inside the caller's write transaction, which took its own locks first (the
    lobby's: pbem.service.lobby): the game row is locked the same way. No retry here: the
    caller's transaction is the one to do again on a ConcurrencyConflict."""
    return _run_once(ctx, session, game_id, step, statuses, None, by)


def _load(session: Session, game_id: int, statuses: tuple[str, ...], *, lock: bool) -> Loaded:
    """The game, its seats and their players in one query (the roster needs the players),
    then its state. `lock`: ORM objects in the session, the game row FOR UPDATE
    (PostgreSQL); else (planning, which only reads) plain rows (pbem.store.gamerows)."""
    found = _load_locked(session, game_id) if lock else read_game(
        session.connection(), game_id, deadlines=True)
    if found is None:
        raise NotFound("no_game")
    if found.game.status not in statuses:
        raise NotAllowed(status_code(found.game.status))
    return Loaded(session, found.game, found.seats,
                  load_state(session, game_id, found.game.last_seq),
                  players=found.players, away=found.away, pending_deadlines=found.pending)


def _load_known(session: Session, game_id: int, statuses: tuple[str, ...],
                known: Known | None) -> Loaded:
    """`_load` (planning), or the game as the caller read it (`Context.known`), once: a
    command planned again after a lost race reads it afresh."""
    if known is None or known.rows.game.id != game_id or known.loaded.seq != \
            known.rows.game.last_seq or known.rows.pending is None:
        return _load(session, game_id, statuses, lock=False)
    found = known.rows
    if found.game.status not in statuses:
        raise NotAllowed(status_code(found.game.status))
    return Loaded(session, found.game, found.seats, known.loaded, players=found.players,
                  away=found.away, pending_deadlines=found.pending, known=known)


def _load_locked(session: Session, game_id: int) -> GameRows | None:
    rows = session.exec(_GAME_LOCKED, params={"game_id": game_id}).all()
    if not rows:
        return None
    players = {player.id: player for _game, _seat, player, _away in rows if player is not None}
    away = {player.id for _game, _seat, player, has_away in rows
            if player is not None and has_away}
    return GameRows(rows[0][0], [seat for _game, seat, _player, _away in rows], players, away)


def _run_once(
    ctx: Context, session: Session, game_id: int, step: Step, statuses: tuple[str, ...],
    actor: int | None, by: str | None,
) -> Outcome:
    ctx_game = _load(session, game_id, statuses, lock=True)
    result = step(ctx_game)
    if actor is not None and actor >= 0:
        _player_is_back(ctx_game.seat(actor))
    if isinstance(result, Duplicate):
        return Outcome(game_id, ctx_game.loaded.seq, state=ctx_game.state, duplicate=True,
                       said=result.said)
    outcome = commit(ctx, ctx_game, result, actor=actor, by=by)
    if ctx.on_applied is not None:
        ctx.on_applied(session, outcome)
    return outcome


# --- planned commands: worked out without the lock, written in a short transaction -------

SeatsSeen = tuple[tuple[int, int | None, bool, bool], ...]  # seat_no, player, robot, held
_G, _S = Game.__table__, Seat.__table__  # type: ignore[attr-defined]
_AS_READ = (core_select(_G.c.last_seq, _G.c.status, _S.c.seat_no, _S.c.player_id, _S.c.is_bot,
                   _S.c.bot_holding)
            .select_from(_G.join(_S, _S.c.game_id == _G.c.id))
            .where(_G.c.id == bindparam("game_id")).order_by(_S.c.seat_no)
            .with_for_update(of=_G))
_SET_SEAT = (update(_S).where(_S.c.game_id == bindparam("the_game"),
                              _S.c.seat_no == bindparam("the_seat")))
_SEAT_BACK = (update(_S).where(_S.c.game_id == bindparam("the_game"),
                               _S.c.seat_no == bindparam("the_seat"))
              .values(timeouts_in_row=0, bot_holding=False))


def _seen(g: Loaded) -> tuple[int, str, SeatsSeen]:
    """What a planned command's write checks is unchanged: the game's seq and status, and
    who holds each seat."""
    seats = tuple((s.seat_no, s.player_id, s.is_bot, s.bot_holding) for s in g.seats)
    return g.loaded.seq, g.game.status, seats


def _run_planned(
    ctx: Context, game_id: int, step: Step, statuses: tuple[str, ...], actor: int | None,
    by: str | None, known: Known | None = None,
) -> Outcome:
    """Plan the command on the game as read, without the writer lock (pbem.store.db.planning:
    replay, the staleness and repeat rules, the engine, the robots, the deadlines, the emails
    rendered and their tokens); then, in one short write transaction, check the game is still
    as read (seq, status, seats: else ConcurrencyConflict, and the caller plans again) and
    write what was planned. So every rule is decided on the state the write commits on."""
    with planning(ctx.engine) as session:
        g = _load_known(session, game_id, statuses, known)
        seen = _seen(g)
        result = step(g)
        back = actor is not None and actor >= 0 and _player_is_back(g.seat(actor))
        if isinstance(result, Duplicate):
            outcome = Outcome(game_id, g.loaded.seq, state=g.state, duplicate=True,
                              said=result.said, game=g.game, seats=tuple(g.seats))
        else:
            outcome = commit(ctx, g, result, actor=actor, by=by)
        writes = list(collected_writes(session))
    if outcome.duplicate and not back and not writes:
        return outcome
    with pipelined_transaction(ctx.engine, all_plain(writes)) as session:
        _write_planned(session, game_id, seen, writes, actor if back else None)
        if not outcome.duplicate and ctx.on_applied is not None:
            ctx.on_applied(session, outcome)
    if not outcome.duplicate and outcome.state is not None:  # committed: the next move
        saved = outcome.seq - g.loaded.snapshot_seq >= ctx.snapshot_every  # reads from here
        remember_state(ctx.engine, game_id, LoadedState(
            outcome.state, outcome.seq, outcome.seq if saved else g.loaded.snapshot_seq))
    return outcome


def _write_planned(session: Session, game_id: int, seen: tuple[int, str, SeatsSeen],
                   writes: list[Write], seat_back: int | None) -> None:
    """Check the game is as `seen` (its row locked on PostgreSQL) and run the planned
    writes: on PostgreSQL all sent in one round trip (`pipelined_transaction`), the check's
    rows read after them (if the game changed, ConcurrencyConflict rolls them all back)."""
    try:
        as_read = deferred(session, _AS_READ, {"game_id": game_id})
        if seat_back is not None:
            session.connection().execute(_SEAT_BACK, {"the_game": game_id,
                                                      "the_seat": seat_back})
        after_sync(session, lambda: _check_as_read(as_read.rows(), game_id, seen))
        run_writes(session, writes)
        sync(session)
    except IntegrityError as exc:  # pipelined, someone appended the same seq first: psycopg
        raise ConcurrencyConflict(game_id, seen[0]) from exc  # raises it at a later statement


def _check_as_read(rows: list[tuple[Any, ...]], game_id: int,
                   seen: tuple[int, str, SeatsSeen]) -> None:
    now = (rows[0][0], rows[0][1], tuple(tuple(r[2:]) for r in rows)) if rows else None
    if now != seen:
        raise ConcurrencyConflict(game_id, seen[0])


def update_seat(session: Session, seat: Seat, **values: Any) -> None:
    """Change a seat's columns (a plain UPDATE, collected when planning); `seat` too."""
    execute_write(session, _SET_SEAT, [{"the_game": seat.game_id, "the_seat": seat.seat_no,
                                        **values}])
    for name, value in values.items():
        set_committed_value(seat, name, value)


def _player_is_back(seat: Seat) -> bool:
    """Any command from a player resets their run of timeouts and ends the bot's cover.
    True if the seat changed."""
    if seat.timeouts_in_row or seat.bot_holding:
        seat_session = Session.object_session(seat)
        if seat_session is None or is_planning(seat_session):  # written after planning
            set_committed_value(seat, "timeouts_in_row", 0)
            set_committed_value(seat, "bot_holding", False)
            return True
        seat.timeouts_in_row, seat.bot_holding = 0, False
        if seat_session is not None:
            seat_session.add(seat)
        return True
    return False


def take_seat_back(ctx: Context, game_id: int, seat_no: int) -> bool:
    """The player of `seat_no` is back (e.g. after a refused move, the bot holding the seat
    having moved already; any reply of theirs that is no move; the "Take my seat back"
    button of their page). True if the robot held the seat until now."""
    with transaction(ctx.engine) as session:
        seat = session.exec(select(Seat).where(Seat.game_id == game_id,
                                               Seat.seat_no == seat_no)).first()
        held = seat is not None and seat.bot_holding and not seat.is_bot
        if seat is not None and (seat.timeouts_in_row or seat.bot_holding):
            _player_is_back(seat)
        return held


GAME_STATUSES = ("inviting", "paused", "finished", "cancelled", "active")


def status_code(status: str) -> str:
    """Why a command can't run on a game in `status` (NotAllowed's code): "game_<status>",
    "game_unavailable" for any other."""
    return f"game_{status}" if status in GAME_STATUSES else "game_unavailable"


def decide_or_reject(g: Loaded, command: Command) -> tuple[Event, ...]:
    try:
        return decide(g.state, command)
    except EngineError as exc:
        raise CommandRejected(exc, g.names()) from exc


def commit(
    ctx: Context, g: Loaded, events: Sequence[Event], *, created: GameCreated | None = None,
    actor: int | None = None, by: str | None = PLAYER,
) -> Outcome:
    """Fold `events`, let the table move on by itself, append it all, then write its mail
    job (or, `ctx.mails_now`, fan it out at once).

    `created`: a new game's GameCreated, already folded into `g.state` (notify gets None
    as the state before). `by`: who made `events` (see PLAYER...)."""
    before: GameState | None = None if created else g.state
    state = g.state
    for event in events:
        state = apply(state, event)
    appended = ([created] if created else []) + list(events)
    actors: list[str | None] = [None] * (1 if created else 0)
    actors += [by if acting_seat(e) is not None else None for e in events]
    if g.game.status == "active":
        more, state = advance(ctx, state, g.seats, actors, g.game.robot_strength, g.game_id)
        appended += more
        _mark_robots_thinking(ctx, g, state)
    new_seq = append_events(g.session, g.game_id, g.loaded.seq, appended, actors)
    set_committed_value(g.game, "last_seq", new_seq)  # planning's plain copy too
    if new_seq - g.loaded.snapshot_seq >= ctx.snapshot_every:
        save_snapshot(g.session, g.game_id, new_seq, state)
    if state.game_over and g.game.status == "active":
        set_game_status(g.session, g.game, "finished")
        _rate(g.session, g.game, state, g.seats, ctx.clock())
    opened = sync_deadlines(g.session, g.game, state, appended, ctx.clock(), g.seats,
                            g.players, g.away, g.pending_deadlines)
    job = Job(g.game_id, g.loaded.seq, new_seq, actor, ctx.echo,
              min((d.due_at for d in opened), default=None), ctx.clock(), fresh=bool(created))
    if ctx.mails_now:
        ctx.notify(g.session, GameMoved(job, g.game, Rebuilt(before, state, tuple(appended)),
                                        g.loaded_roster))
    else:
        queue_job(g.session, job)  # fanned out by the worker (pbem.mail.jobs)
    return Outcome(g.game_id, new_seq, tuple(appended), state, game=g.game, seats=tuple(g.seats))


def _mark_robots_thinking(ctx: Context, g: Loaded, state: GameState) -> None:
    """Keep `game.robots_thinking_since` in step: set while people play the game and its
    robots have a move to make once `advance` stopped (left to the worker), cleared once
    they have none. (A game left to robots alone is the worker's by its lack of deadlines,
    and comes after those where someone waits: pbem.service.robotturns.)"""
    robots = any(s.is_bot or s.bot_holding for s in g.seats)  # else nothing to ask
    people = any(not s.is_bot and not s.bot_holding and s.player_id is not None
                 for s in g.seats)
    owed = robots and people and not state.game_over and robots_have_moves(state, g.seats)
    if owed != (g.game.robots_thinking_since is not None):
        set_robots_thinking(g.session, g.game, ctx.clock() if owed else None)


def _rate(session: Session, game: Game, state: GameState, seats: Sequence[Seat],
          now: datetime) -> None:
    """Rate the game that just ended, once, in the transaction that writes its end (after
    planning: in the short write transaction, which holds the game's lock)."""
    defer_write(session, lambda writing: _rate_now(writing, game, state, seats, now))


def _rate_now(session: Session, game: Game, state: GameState, seats: Sequence[Seat],
              now: datetime) -> None:
    rate_game(session, game, state, seats, now)


def advance(
    ctx: Context, state: GameState, seats: Sequence[Seat], actors: list[str | None] | None = None,
    strength: str = DEFAULT_STRENGTH, seed: int = 0,
) -> tuple[list[Event], GameState]:
    """Deal when a hand is due, make forced plays and bot moves, until a human must act; in
    a game no human plays any more (robot seats and held seats only), until the robots have
    made `robot_budget` decisions: the worker carries on, one bounded call per transaction
    (pbem.service.robotturns). `actors`, when given, gets who made each event appended (see
    PLAYER...). The robots play at the game's `strength`; `seed` (the game's id) varies the
    strong robot's samples. Unless `ctx.plays_robots_now`, a robot that thinks long
    (THINKS_LONG) is not asked at all: the worker plays on from its move."""
    bots = _robot_seats(seats)
    left_to_robots = all(s.seat_no in bots or s.player_id is None for s in seats)
    left = robot_budget(state.seats)
    ask = ctx.plays_robots_now or strength not in THINKS_LONG  # else the worker's
    out: list[Event] = []
    while len(out) < MAX_AUTOMATIC_EVENTS:
        if left_to_robots and left <= 0:
            return out, state  # enough for one call: the rest is the worker's
        step, by = _automatic_events(ctx, state, bots, strength, seed, ask=ask)
        if not step:
            return out, state
        for event in step:
            state = apply(state, event)
        out.extend(step)
        left -= sum(by in (ROBOT, HOLDING) and not isinstance(e, EndVoted) for e in step)
        if actors is not None:
            actors.extend(by if acting_seat(e) is not None else None for e in step)
    raise RuntimeError("the game did not settle: is the engine looping")


# Robot decisions one call of `advance` makes at most in a game left to robots alone (its last
# human resigned or left, or every human seat is held): about a quarter of a standard hand.
# A game with a human in it is not cut: its robots can only play up to that human's next
# question, and they answer a move in the same request as before.
ROBOT_DECISIONS_PER_SEAT = 3


def robot_budget(seat_count: int) -> int:
    return ROBOT_DECISIONS_PER_SEAT * seat_count


def _robot_seats(seats: Sequence[Seat]) -> dict[int, str]:
    """The seats robots play: robot seats (ROBOT) and absent players' held seats (HOLDING)."""
    return {s.seat_no: ROBOT if s.is_bot else HOLDING for s in seats
            if s.is_bot or s.bot_holding}


def robots_have_moves(state: GameState, seats: Sequence[Seat]) -> bool:
    """Whether `advance` would append something now (decided without asking a robot)."""
    bots = _robot_seats(seats)
    robots = [seat for seat, who in bots.items() if who == ROBOT]
    return bool(robot_votes(state, robots) or state.phase is Phase.DEAL
                or forced_events(state) or not bots.keys().isdisjoint(state.to_move))


def _automatic_events(
    ctx: Context, state: GameState, bots: dict[int, str], strength: str = DEFAULT_STRENGTH,
    seed: int = 0, *, ask: bool = True,
) -> tuple[tuple[Event, ...], str | None]:
    """The next events nobody needs to be asked for, and who makes them. A robot's move is
    what the robot is asked (`asked`), chosen by the bot at the game's strength; none when
    not `ask` (its move is left to the worker, pbem.service.robotturns)."""
    votes = robot_votes(state, [seat for seat, who in bots.items() if who == ROBOT])
    if votes:
        return votes, ROBOT
    if state.phase is Phase.DEAL:
        return (deal(state.rules, ctx.rng),), None
    forced = forced_events(state)
    if forced:
        return forced, FORCED
    for seat in state.to_move:
        if seat in bots:
            return (((robot_event(state, seat, strength, seed, ctx.robot_seconds),), bots[seat])
                    if ask else ((), None))
    return (), None


def robot_votes(state: GameState, robots: Sequence[int]) -> tuple[Event, ...]:
    """Seed 003's end by agreement: robot seats agree as soon as a vote is open, so the game
    ends when all the humans agree. (A robot holding an absent player's seat does not vote
    for them.)"""
    if not state.end_votes or state.game_over:
        return ()
    return tuple(EndVoted(seat, True) for seat in robots if seat not in state.end_voters)


def events_since(g: Loaded, seq: int) -> list[Event]:
    return [event for event, _by in logged_since(g, seq)]


def logged_since(g: Loaded, seq: int) -> list[tuple[Event, str | None]]:
    """The events after `seq`, each with who made it (PLAYER, TIMEOUT...; None: nobody);
    those the caller read with the game when it read them (`Known.since`)."""
    if g.known is not None and g.known.since_seq == seq:
        return list(g.known.since)
    return [(decode_event(r.payload), r.actor)
            for r in load_event_rows(g.session, g.game_id, seq)]
