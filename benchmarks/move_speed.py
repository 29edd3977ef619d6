"""Benchmark: one move through the service, beside the same rows written by the bare driver.

Run: nice -n 10 python benchmarks/move_speed.py [--n 400] [--db postgresql://...] [--long 5000]

A game of four people playing by email (every email rendered and queued, tokens, deadlines),
inside the app (so the private seat links are made too). A move writes its event(s), the
deadlines and a mail job; the worker's step (`pbem.mail.jobs.fan_out_pending`) then works
its emails out and writes them: both are timed, one after the other. Each figure is printed
beside its reference from the same run, as a ratio:

- `service.move` p50/p99 (ms), and the fan-out of its mail job, and the two together, vs the
  same rows (the move's event, its outbox rows, its token rows, its deadline rows, the game's
  seq) inserted in one bare sqlite3 / psycopg transaction (right after each move: the
  machine is shared, so they alternate); wall-clock and this thread's CPU time (a shared
  machine's wall-clock includes waiting for a core);
- a move in a game of `--long` events vs one at about 10 events (the same kind of move:
  a card played mid-trick, alternated); the long game's history is written directly (see
  `play_to`), its moves to measure go through the service;
- the longest time any transaction of those moves held SQLite's writer lock
  (`pbem.store.db.writing`), and its p50/p99, wall-clock and CPU, vs the 20 ms target
  (SQLite only: PostgreSQL has no database-wide writer lock).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scratch import bench_app, scratch_database  # noqa: E402
from sqlalchemy import Engine, text  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import db_engine  # noqa: E402
from pbem.engine import (  # noqa: E402
    GameState,
    PassCards,
    Phase,
    PlayCard,
    apply,
    decide,
    legal_cards,
)
from pbem.mail.jobs import fan_out_pending  # noqa: E402
from pbem.present.tokens import insert_tokens, token_values  # noqa: E402
from pbem.service.core import advance  # noqa: E402
from pbem.store import db as store_db  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.events import append_events, save_snapshot  # noqa: E402

PLAYERS = [service.Invitee(email=f"{name.lower()}@example.org", name=name, accepted=True)
           for name in ("Ann", "Bob", "Cy", "Dee")]
TABLES = ("event", "outbox_email", "token", "deadline")
TOKENS_A_MOVE = 5  # a turn email's reply token and card links, about (the 25,000/5,000)


# --- the writer lock, timed ---------------------------------------------------------------

HELD: list[tuple[float, float]] = []  # wall-clock and this thread's CPU time


def time_the_writer_lock() -> None:
    """Wrap `_WriterLock.held` so that every hold of SQLite's writer lock is timed, in
    wall-clock time and in CPU time (on a shared machine a holder may wait for a core)."""
    original = store_db._WriterLock.held

    @contextmanager
    def held(self: Any) -> Iterator[None]:
        outer = getattr(self.local, "depth", 0) == 0
        with original(self):
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                yield
            finally:
                if outer:
                    HELD.append((time.perf_counter() - start, time.thread_time() - cpu))

    store_db._WriterLock.held = held  # type: ignore[method-assign]


# --- a game and its moves -----------------------------------------------------------------

def new_game(engine: Engine, seed: int) -> tuple[int, GameState]:
    ctx = service.Context(engine=engine, rng=service.make_rng(seed))
    out = service.create_game(ctx, name="Bench", players=PLAYERS, options={"target": 100_000})
    assert out.state is not None
    return out.game_id, out.state


def next_command(state: GameState) -> PlayCard | PassCards:
    seat = state.to_move[0]
    if state.phase is Phase.PASS:
        return PassCards(seat, tuple(state.hand(seat)[:state.rules.pass_count]))
    assert state.phase is Phase.PLAY, state.phase
    return PlayCard(seat, legal_cards(state, seat)[-1])


CPU: list[float] = []  # this thread's CPU time of each `move`, beside its wall-clock time


def move(engine: Engine, game: int, state: GameState) -> tuple[float, GameState]:
    command = next_command(state)
    start, cpu = time.perf_counter(), time.thread_time()
    out = service.move(service.Context(engine=engine), game, command,
                       issued_seq=None, player_id=None)
    took = time.perf_counter() - start
    CPU.append(time.thread_time() - cpu)
    assert out.state is not None and not out.duplicate
    return took, out.state


FAN_OUT_CPU: list[float] = []  # this thread's CPU time of each fan-out


def fan_out(engine: Engine) -> float:
    """The worker's step: the waiting mail jobs fanned out into outbox rows (wall-clock)."""
    start, cpu = time.perf_counter(), time.thread_time()
    fan_out_pending(engine)
    took = time.perf_counter() - start
    FAN_OUT_CPU.append(time.thread_time() - cpu)
    return took


def mid_trick(state: GameState) -> bool:
    """A card played mid-trick (no trick or hand ends with it): the same kind of move."""
    return state.phase is Phase.PLAY and 0 < len(state.current_trick.plays) < state.seats - 1


# --- the reference: the same rows, bare driver --------------------------------------------

def high_water(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {t: conn.execute(text(f"SELECT coalesce(max(id), 0) FROM {t}")).scalar_one()
                for t in TABLES}


def rows_since(engine: Engine, mark: dict[str, int]) -> dict[str, list[dict[str, Any]]]:
    with engine.connect() as conn:
        return {t: [dict(r._mapping) for r in conn.execute(
            text(f"SELECT * FROM {t} WHERE id > :id ORDER BY id"), {"id": mark[t]})]
                for t in TABLES}


Rows = dict[str, list[dict[str, Any]]]  # a move's new rows, by table


class BareWriter:
    """Writes one move's rows again (fresh seqs and hashes, in game `game`) in one bare
    DBAPI transaction: BEGIN IMMEDIATE / BEGIN, the game's seq UPDATE, executemany per table.
    Called with the rows, it returns the transaction's wall-clock and CPU time."""

    def __init__(self, engine: Engine, game: int) -> None:
        raw = engine.raw_connection()
        self.driver = raw.driver_connection
        self.game, self.counter = game, 10_000_000
        self.sqlite = engine.dialect.name == "sqlite"
        if self.sqlite:
            self.driver.isolation_level = None
            self.mark, self.begin = "?", "BEGIN IMMEDIATE"
            self.to_json: Callable[[Any], Any] = json.dumps
        else:
            from psycopg.types.json import Jsonb  # type: ignore[import-not-found]

            self.driver.autocommit = True
            self.mark, self.begin, self.to_json = "%s", "BEGIN", Jsonb

    def __call__(self, rows: Rows) -> tuple[float, float]:
        prepared = [self._insert(table, found) for table, found in rows.items() if found]
        cursor = self.driver.cursor()
        start, cpu = time.perf_counter(), time.thread_time()
        cursor.execute(self.begin)
        cursor.execute(f"UPDATE game SET last_seq = last_seq WHERE id = {self.mark}",
                       (self.game,))
        for sql, values in prepared:
            cursor.executemany(sql, values)
        cursor.execute("COMMIT")
        return time.perf_counter() - start, time.thread_time() - cpu

    def _insert(self, table: str, found: list[dict[str, Any]]) -> tuple[str, list[tuple[Any, ...]]]:
        """The INSERT of a table's rows (all but their ids), with the rows' values."""
        cols = [c for c in found[0] if c != "id"]
        values = []
        for row in found:
            fresh = self._fresh(table, row)
            values.append(tuple(self._value(fresh[c]) for c in cols))
        sql = (f"INSERT INTO {table} ({', '.join(cols)}) "
               f"VALUES ({', '.join([self.mark] * len(cols))})")
        return sql, values

    def _fresh(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        """The row in the reference game, with new values where the schema wants them unique."""
        self.counter += 1
        fresh = dict(row, game_id=self.game)
        if table == "event":
            fresh["seq"] = self.counter
        if table == "token":
            fresh["token_hash"] = f"bench{self.counter}"
        if table == "deadline":
            fresh["turn_seq"] = self.counter
        return fresh

    def _value(self, v: Any) -> Any:
        """A value as the driver takes it (a JSON string stays as it is)."""
        if isinstance(v, (dict, list)):
            return self.to_json(v)
        if self.sqlite and isinstance(v, datetime):
            return v.isoformat(sep=" ")
        return v


# --- figures ------------------------------------------------------------------------------

def pct(times: list[float], p: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


def line(label: str, value: float, reference: float, ref_label: str, target: str) -> None:
    print(f"  {label:<34} {value:8.3f} ms   {ref_label:<26} {reference:8.3f} ms   "
          f"ratio {value / reference:6.1f}x   target {target}")


def play_to(engine: Engine, game: int, state: GameState, events: int) -> GameState:
    """Play on until the game has at least `events` events, fast: the log is written
    directly, as the service writes it (each move decided by the engine, deals and forced
    plays by `advance`, a snapshot every 40 events), with the token rows its emails would
    have added (TOKENS_A_MOVE a move); the timed moves then go through the service."""
    ctx = service.Context(engine=engine, rng=service.make_rng(7))
    names = [p.name for p in PLAYERS]
    seq = len_of(engine, game)
    with transaction(engine) as session:
        last_snapshot = seq
        while seq < events:
            made = list(decide(state, next_command(state), names))
            for event in made:
                state = apply(state, event)
            more, state = advance(ctx, state, [])
            made += more
            seq = append_events(session, game, seq, made)
            insert_tokens(session, [token_values("card", game_id=game, seat_no=n % 4,
                                                 turn_seq=seq)[1]
                                    for n in range(TOKENS_A_MOVE)])
            if seq - last_snapshot >= 40:
                save_snapshot(session, game, seq, state)
                last_snapshot = seq
    return state


def len_of(engine: Engine, game: int) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT last_seq FROM game WHERE id = :g"),
                                {"g": game}).scalar_one())


def measure(engine: Engine, n: int, long_events: int) -> None:
    sqlite = engine.dialect.name == "sqlite"
    game, state = new_game(engine, 1)
    ref_game, _ = new_game(engine, 2)
    for _ in range(30):  # warm up
        _took, state = move(engine, game, state)
        fan_out(engine)
    write = BareWriter(engine, ref_game)
    HELD.clear()
    service_times: list[float] = []
    bare: list[float] = []
    service_cpu: list[float] = []
    bare_cpu: list[float] = []
    held: list[tuple[float, float]] = []
    fan_held: list[tuple[float, float]] = []
    fanned: list[float] = []
    fanned_cpu: list[float] = []
    written: list[int] = []
    while len(service_times) < n:  # alternated, so that both see the same machine
        mark = high_water(engine)
        took, state = move(engine, game, state)
        service_times.append(took)
        service_cpu.append(CPU[-1])
        held += HELD
        HELD.clear()
        fanned.append(fan_out(engine))
        fanned_cpu.append(FAN_OUT_CPU[-1])
        fan_held += HELD
        HELD.clear()
        rows = rows_since(engine, mark)
        written.append(sum(len(r) for r in rows.values()))
        wall, cpu = write(rows)
        bare.append(wall)
        bare_cpu.append(cpu)
        if state.game_over:
            game, state = new_game(engine, len(service_times) + 10)
        HELD.clear()  # only the moves' own transactions count
    per_move = statistics.mean(written)
    print(f"{engine.dialect.name}: {n} moves, {per_move:.1f} rows written a move on average")
    target50, target99 = ("1 ms", "5 ms") if sqlite else ("3 ms", "10 ms")
    line("service.move p50", pct(service_times, 0.5), pct(bare, 0.5), "bare driver p50",
         target50)
    line("service.move p99", pct(service_times, 0.99), pct(bare, 0.99), "bare driver p99",
         target99)
    line("service.move CPU p50", pct(service_cpu, 0.5), pct(bare_cpu, 0.5),
         "bare driver CPU p50", target50)
    line("service.move CPU p99", pct(service_cpu, 0.99), pct(bare_cpu, 0.99),
         "bare driver CPU p99", target99)
    line("its mail job's fan-out p50", pct(fanned, 0.5), pct(bare, 0.5), "bare driver p50",
         "(worker, after)")
    line("its mail job's fan-out CPU p50", pct(fanned_cpu, 0.5), pct(bare_cpu, 0.5),
         "bare driver CPU p50", "(worker, after)")
    total = [a + b for a, b in zip(service_times, fanned, strict=True)]
    total_cpu = [a + b for a, b in zip(service_cpu, fanned_cpu, strict=True)]
    line("move + fan-out p50", pct(total, 0.5), pct(bare, 0.5), "bare driver p50", "-")
    line("move + fan-out CPU p50", pct(total_cpu, 0.5), pct(bare_cpu, 0.5),
         "bare driver CPU p50", "-")
    if sqlite and held:
        for who, holds in (("the moves", held), ("the fan-outs", fan_held)):
            for label, times in (("wall", [w for w, _c in holds]),
                                 ("CPU", [c for _w, c in holds])):
                print(f"  writer lock held by {who} ({label}): {len(times)} times, p50 "
                      f"{pct(times, 0.5):.3f} ms, p99 {pct(times, 0.99):.3f} ms, max "
                      f"{max(times) * 1000:.3f} ms (ratio to the 20 ms limit "
                      f"{max(times) * 1000 / 20:.2f})")
    flat(engine, long_events)


def flat(engine: Engine, long_events: int) -> None:
    """A mid-trick card in a game of `long_events` events vs in a game of about 10."""
    if long_events <= 0:
        return
    start = time.perf_counter()
    long_game, long_state = new_game(engine, 99)
    long_state = play_to(engine, long_game, long_state, long_events)
    built = time.perf_counter() - start
    short_times: list[float] = []
    long_times: list[float] = []
    rounds = 0
    while len(long_times) < 100 and rounds < 2000:
        rounds += 1
        short_game, short_state = new_game(engine, 500 + rounds)
        while not mid_trick(short_state):
            _took, short_state = move(engine, short_game, short_state)
        while not mid_trick(long_state):
            _took, long_state = move(engine, long_game, long_state)
        fan_out(engine)
        took, short_state = move(engine, short_game, short_state)
        short_times.append(took)
        took, long_state = move(engine, long_game, long_state)
        long_times.append(took)
        fan_out(engine)
    events = len_of(engine, long_game)
    print(f"  (a game of {events} events built in {built:.0f} s)")
    line(f"move at {events} events p50", pct(long_times, 0.5), pct(short_times, 0.5),
         "move at ~10 events p50", "<= 1.2x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--db", default="", help="a PostgreSQL URL (default: SQLite file)")
    parser.add_argument("--long", type=int, default=5000,
                        help="events in the long game (0: skip the flat-cost figure)")
    args = parser.parse_args()
    time_the_writer_lock()
    with scratch_database(args.db) as (url, folder):
        app = bench_app(url, folder)
        with app.app_context():
            measure(db_engine(app), args.n, args.long)
        db_engine(app).dispose()


if __name__ == "__main__":
    main()
