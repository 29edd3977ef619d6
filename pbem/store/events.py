"""The append-only event log: optimistic appends and loading a game's state.

`append_event_dicts` is the storage primitive (payloads already encoded); `append_events`,
`load_events` and `load_state` speak engine events via `pbem.engine`'s encode/decode.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, bindparam, func, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from pbem.store.db import (
    PlainWrite,
    after_sync,
    defer_write,
    deferred,
    execute_now,
    execute_write,
    is_planning,
    planned_engine,
    read_now,
)
from pbem.store.models import Event, Game, Snapshot
from pbem.store.types import utcnow

if TYPE_CHECKING:
    from pbem.engine import GameState


_EVENTS = Event.__table__  # type: ignore[attr-defined]
_SNAPSHOTS = Snapshot.__table__  # type: ignore[attr-defined]
_GAMES = Game.__table__  # type: ignore[attr-defined]
# Hot statements, built once (building one and its cache key costs more than running it).
_MOVE_SEQ = (update(_GAMES)
             .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.last_seq == bindparam("seq"))
             .values(last_seq=bindparam("new_seq")))
_INSERT_EVENTS = insert(_EVENTS).inline()  # no RETURNING of the keys: see db.pipelined_transaction
_INSERT_SNAPSHOT = insert(_SNAPSHOTS)
_SET_STATUS = (update(_GAMES).where(_GAMES.c.id == bindparam("game_id"))
               .values(status=bindparam("new_status"), review_due=bindparam("review_due")))
_SET_THINKING = (update(_GAMES).where(_GAMES.c.id == bindparam("game_id"))
                 .values(robots_thinking_since=bindparam("since")))
_PAYLOADS = (select(_EVENTS.c.seq, _EVENTS.c.payload)
             .where(_EVENTS.c.game_id == bindparam("game_id"), _EVENTS.c.seq > bindparam("seq"))
             .order_by(_EVENTS.c.seq))
_LATEST_SNAPSHOT = (select(_SNAPSHOTS.c.seq, _SNAPSHOTS.c.state)
                    .where(_SNAPSHOTS.c.game_id == bindparam("game_id"))
                    .order_by(_SNAPSHOTS.c.seq.desc()).limit(1))
_SNAPSHOT_AT = (select(_SNAPSHOTS.c.seq, _SNAPSHOTS.c.state)
                .where(_SNAPSHOTS.c.game_id == bindparam("game_id"),
                       _SNAPSHOTS.c.seq <= bindparam("seq"))
                .order_by(_SNAPSHOTS.c.seq.desc()).limit(1))
_LOGGED = (select(_EVENTS.c.payload, _EVENTS.c.actor)
           .where(_EVENTS.c.game_id == bindparam("game_id"), _EVENTS.c.seq > bindparam("seq"))
           .order_by(_EVENTS.c.seq))
_PAYLOADS_UPTO = (select(_EVENTS.c.seq, _EVENTS.c.payload)
                  .where(_EVENTS.c.game_id == bindparam("game_id"),
                         _EVENTS.c.seq > bindparam("seq"), _EVENTS.c.seq <= bindparam("upto"))
                  .order_by(_EVENTS.c.seq))


class ConcurrencyConflict(Exception):
    """Someone appended to the game after `expected_seq` was read: reload and decide again."""

    def __init__(self, game_id: int, expected_seq: int) -> None:
        super().__init__(f"game {game_id} moved past seq {expected_seq}")
        self.game_id = game_id
        self.expected_seq = expected_seq


class GameNotFound(LookupError):
    pass


def current_seq(session: Session, game_id: int) -> int:
    game = session.get(Game, game_id, populate_existing=True)
    if game is None:
        raise GameNotFound(game_id)
    return game.last_seq


def append_event_dicts(
    session: Session, game_id: int, expected_seq: int, payloads: Sequence[Mapping[str, Any]],
    actors: Sequence[str | None] | None = None,
) -> int:
    """Append encoded events as seq expected_seq+1...; return the new last seq. `actors`:
    who made each event (the row's `actor`; see pbem.service.core.PLAYER...), if known.

    Raises ConcurrencyConflict if the game's last seq is no longer `expected_seq`. The
    session's transaction is then unusable: roll it back (leave the `transaction` block).
    """
    if not payloads:
        return expected_seq
    new_seq = expected_seq + len(payloads)
    if session.autoflush:
        session.flush()  # pending ORM changes first, as an ORM statement would
    now = utcnow()
    who = list(actors or ()) + [None] * (len(payloads) - len(actors or ()))
    rows = [
        {"game_id": game_id, "seq": expected_seq + i, "type": str(p["type"]),
         "payload": dict(p), "actor": actor, "created_at": now}
        for i, (p, actor) in enumerate(zip(payloads, who, strict=True), start=1)
    ]

    def write(writing: Session) -> None:
        # Compare-and-set on game.last_seq; the unique (game_id, seq) key is the backstop.
        # (In a `pipelined_transaction` the count is checked, a duplicate key raised, at `sync`.)
        moved = deferred(writing, _MOVE_SEQ,
                         {"game_id": game_id, "seq": expected_seq, "new_seq": new_seq})

        def check() -> None:
            if moved.rowcount() != 1:
                raise ConcurrencyConflict(game_id, expected_seq)

        after_sync(writing, check)
        try:  # one executemany on the session's connection: no ORM objects for the rows
            execute_now(writing, _INSERT_EVENTS, rows)
        except IntegrityError as exc:
            raise ConcurrencyConflict(game_id, expected_seq) from exc

    defer_write(session, PlainWrite(write))  # now, or in the write transaction after planning
    game = session.identity_map.get(session.identity_key(Game, game_id))
    if game is not None:  # keep a loaded Game in step with the UPDATE, without dirtying it
        set_committed_value(game, "last_seq", new_seq)
    return new_seq


def load_event_rows(session: Session, game_id: int, after_seq: int = 0) -> list[Event]:
    query = (
        select(Event)
        .where(Event.game_id == game_id, Event.seq > after_seq)
        .order_by(col(Event.seq))
    )
    return list(session.exec(query))


def load_payloads(session: Session, game_id: int, after_seq: int = 0) -> list[tuple[int, Any]]:
    """(seq, payload) of the game's events after `after_seq`, in order: a plain Core read
    (no ORM objects), for the hot paths that only fold or decode them. Flushes pending
    changes first, as an ORM query would (autoflush)."""
    if session.autoflush:
        session.flush()
    rows = session.connection().execute(_PAYLOADS, {"game_id": game_id, "seq": after_seq})
    return [(seq, payload) for seq, payload in rows]


def payloads_after(session: Session, game_id: int,
                   after_seq: int) -> Generator[Any, None, None]:
    """The payloads of the game's events after `after_seq`, in order, one at a time: a
    caller that has what it needs stops early and decodes no more (closing the generator
    closes the read). No flush first (for planning sessions and plain reads)."""
    rows = session.connection().execute(_PAYLOADS, {"game_id": game_id, "seq": after_seq})
    try:
        for _seq, payload in rows:
            yield payload
    finally:
        rows.close()


def append_events(
    session: Session, game_id: int, expected_seq: int, events: Sequence[Any],
    actors: Sequence[str | None] | None = None,
) -> int:
    """Append engine events (encoded with `pbem.engine.encode_event`); return the new seq."""
    from pbem.engine import encode_event

    return append_event_dicts(session, game_id, expected_seq, [encode_event(e) for e in events],
                              actors)


def load_events_by(session: Session, game_id: int, after_seq: int = 0) -> list[tuple[Any, str]]:
    """(event, who made it) for the game's events after `after_seq` ("" when not recorded)."""
    from pbem.engine import decode_event

    rows = read_now(session.connection(), _LOGGED, {"game_id": game_id, "seq": after_seq})
    return [(decode_event(payload), actor or "") for payload, actor in rows]


def load_events(session: Session, game_id: int, after_seq: int = 0) -> list[Any]:
    """The game's engine events in order (decoded with `pbem.engine.decode_event`)."""
    from pbem.engine import decode_event

    return [decode_event(payload) for _seq, payload in load_payloads(session, game_id, after_seq)]


@dataclass(frozen=True)
class LoadedState:
    state: GameState
    seq: int  # the seq of the last event folded into `state`
    snapshot_seq: int  # 0 when no snapshot was used


def load_state(session: Session, game_id: int, last_seq: int | None = None) -> LoadedState:
    """The game's state: the latest snapshot, then only the events after it.

    A planning session (pbem.store.db.planning) given the game's `last_seq` as its own
    transaction read it starts from the state this process last saw of the game instead,
    when it has it (`remember_state`) and it is no newer than that (another thread may have
    written since this transaction's snapshot), and reads only the events after it."""
    cached = _cached_state(session, game_id) if last_seq is not None else None
    if cached is None or cached.seq > (last_seq or 0):
        loaded = _load_from_snapshot(session, game_id)
    elif cached.seq == last_seq:  # events and last_seq are written together: none since
        loaded = cached
    else:
        rows = load_payloads(session, game_id, cached.seq)
        loaded = cached if not rows else LoadedState(
            _fold_stored(cached.state, rows), rows[-1][0], cached.snapshot_seq)
    if is_planning(session):
        remember_state(planned_engine(session), game_id, loaded)
    return loaded


@dataclass
class ReadLog:
    """A game's log as one statement read it (pbem.store.gamerows.read_link): its latest
    snapshot as (seq, JSON text), None when it has none, and every event after `after` (at
    most that snapshot's seq) as (seq, payload's JSON text), in order. Each event is decoded
    once, when first asked for."""

    snapshot: tuple[int, str] | None
    after: int
    payloads: Sequence[tuple[int, str]]
    _decoded: dict[int, Any] = field(default_factory=dict, repr=False)

    def events_after(self, seq: int) -> list[tuple[int, Any]]:
        """(seq, decoded engine event) of the events after `seq`, which is `after` or later."""
        from pbem.engine import decode_event

        assert seq >= self.after, "events before the read's first are not in it"
        found = []
        for number, payload in self.payloads:
            if number > seq:
                event = self._decoded.get(number)
                if event is None:
                    event = self._decoded[number] = decode_event(json.loads(payload))
                found.append((number, event))
        return found


def load_state_read(session: Session, game_id: int, last_seq: int,
                    log: ReadLog) -> LoadedState:
    """`load_state` for a caller that read, in the statement that gave `last_seq`, the
    game's `log`: this process's copy of the state when it is in the log's span (at or
    after `log.after`, no later than `last_seq`), else the log's snapshot, folded with the
    events after it; no statement (but when the snapshot is of an older form: then as
    `load_state`)."""
    cached = _cached_state(session, game_id)
    latest = log.snapshot[0] if log.snapshot is not None else 0
    base: GameState | None
    if cached is not None and log.after <= cached.seq <= last_seq:
        base, base_seq = cached.state, cached.seq
        latest = max(latest, cached.snapshot_seq)
    else:
        base, base_seq = _restored(log.snapshot), latest
        if base is None and log.snapshot is not None:
            return load_state(session, game_id, last_seq)
    newer = log.events_after(base_seq)
    state = _fold_decoded(base, [event for _seq, event in newer])
    loaded = LoadedState(state, newer[-1][0] if newer else base_seq, latest)
    if is_planning(session):
        remember_state(planned_engine(session), game_id, loaded)
    return loaded


def _restored(snapshot: tuple[int, str] | None) -> GameState | None:
    """The state of a snapshot read as JSON text; None for none or one of an older form."""
    return _restorable(json.loads(snapshot[1])) if snapshot is not None else None


# The states a process saw last, per engine and game (frozen values, read only in planning
# sessions, which see committed rows only): a move then reads just the events since.
_STATES: WeakKeyDictionary[Engine, OrderedDict[int, LoadedState]] = WeakKeyDictionary()
_STATES_LOCK = threading.Lock()
STATES_KEPT = 256  # games per engine


def remember_state(engine: Engine, game_id: int, loaded: LoadedState) -> None:
    """Keep `loaded` (committed: read, or just written) as the game's state for this process."""
    with _STATES_LOCK:
        states = _STATES.setdefault(engine, OrderedDict())
        known = states.get(game_id)
        if known is None or known.seq <= loaded.seq:
            states[game_id] = loaded
            states.move_to_end(game_id)
        while len(states) > STATES_KEPT:
            states.popitem(last=False)


def _cached_state(session: Session, game_id: int) -> LoadedState | None:
    if not is_planning(session):
        return None
    with _STATES_LOCK:
        states = _STATES.get(planned_engine(session))
        return states.get(game_id) if states is not None else None


def _load_from_snapshot(session: Session, game_id: int) -> LoadedState:
    if session.autoflush:
        session.flush()  # as an ORM query would; load_payloads below finds nothing to flush
    base, base_seq = _snapshot_before(session, game_id, None)
    rows = load_payloads(session, game_id, base_seq)
    seq = rows[-1][0] if rows else base_seq
    return LoadedState(state=_fold_stored(base, rows), seq=seq, snapshot_seq=base_seq)


def _snapshot_before(session: Session, game_id: int,
                     seq: int | None) -> tuple[GameState | None, int]:
    """The latest snapshot's state and seq (at or before `seq`, if given); (None, 0) when there
    is none or it is of an older form (then the whole log is replayed)."""
    query, params = ((_LATEST_SNAPSHOT, {"game_id": game_id}) if seq is None
                     else (_SNAPSHOT_AT, {"game_id": game_id, "seq": seq}))
    snap = session.connection().execute(query, params).first()
    state = _restorable(snap[1]) if snap is not None else None
    return (state, snap[0]) if state is not None and snap is not None else (None, 0)


def _restorable(data: dict[str, Any]) -> GameState | None:
    """The state of a stored snapshot; None for one of an older form (a cache: the log is
    folded instead)."""
    from pbem.engine import EventDecodeError, restore

    try:
        return restore(data)
    except EventDecodeError:
        return None


def _fold_stored(base: GameState | None, rows: list[tuple[int, Any]]) -> GameState:
    """`base` (None: the game's start) after the stored events `rows`: checked when they
    were appended, so folded by the engine's trusted path."""
    from pbem.engine import decode_event

    return _fold_decoded(base, [decode_event(payload) for _seq, payload in rows])


def _fold_decoded(base: GameState | None, events: list[Any]) -> GameState:
    """`_fold_stored` of events already decoded."""
    from pbem.engine import apply_all_trusted, replay_trusted

    if base is not None and not events:
        return base
    return replay_trusted(events) if base is None else apply_all_trusted(base, events)


def payloads_between(session: Session, game_id: int, after_seq: int,
                     upto_seq: int) -> list[tuple[int, Any]]:
    """(seq, payload) of the game's events after `after_seq` up to `upto_seq`, in order
    (straight through the driver: `read_now`)."""
    rows = read_now(session.connection(), _PAYLOADS_UPTO,
                    {"game_id": game_id, "seq": after_seq, "upto": upto_seq})
    return [(seq, payload) for seq, payload in rows]


def state_at(session: Session, game_id: int, seq: int,
             known: LoadedState | None = None) -> GameState:
    """The game's state right after event `seq` (the log is append-only, so any past state
    can be rebuilt): from `known` when it is no later, else from the latest snapshot at or
    before `seq`; then the events up to `seq`."""
    if known is not None and known.seq == seq:
        return known.state
    base: GameState | None
    if known is not None and known.seq < seq:
        base, base_seq = known.state, known.seq
    else:
        base, base_seq = _snapshot_before(session, game_id, seq)
    return _fold_stored(base, payloads_between(session, game_id, base_seq, seq))


def latest_snapshot(session: Session, game_id: int) -> Snapshot | None:
    query = (
        select(Snapshot)
        .where(Snapshot.game_id == game_id)
        .order_by(col(Snapshot.seq).desc())
        .limit(1)
    )
    return session.exec(query).first()


def save_snapshot(session: Session, game_id: int, seq: int, state: GameState) -> Snapshot:
    from pbem.engine import snapshot

    snap = Snapshot(game_id=game_id, seq=seq, state=snapshot(state), created_at=utcnow())
    execute_write(session, _INSERT_SNAPSHOT, {"game_id": game_id, "seq": seq,
                                               "state": snap.state, "created_at": snap.created_at})
    return snap


def set_game_status(session: Session, game: Game, status: str) -> None:
    """Change the game's status (a plain UPDATE, or collected when planning); `game` too. A
    finished game's review is due from then on (pbem.service.reviews)."""
    due = status == "finished"
    execute_write(session, _SET_STATUS, {"game_id": game.id, "new_status": status,
                                         "review_due": due})
    set_committed_value(game, "status", status)
    set_committed_value(game, "review_due", due)


def set_robots_thinking(session: Session, game: Game, since: datetime | None) -> None:
    """Mark since when the game's robots have a move to make (None: none), as
    `set_game_status` writes the status; `game` too."""
    execute_write(session, _SET_THINKING, {"game_id": game.id, "since": since})
    set_committed_value(game, "robots_thinking_since", since)


def event_count(session: Session, game_id: int) -> int:
    query = select(func.count()).select_from(Event).where(Event.game_id == game_id)
    return int(session.exec(query).one())
