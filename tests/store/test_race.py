"""Many writers, threads and processes, append to one game at once: every seq is won once."""

from __future__ import annotations

import multiprocessing
import threading
from collections import Counter
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.pool import NullPool

from pbem.store.db import make_engine, transaction
from pbem.store.events import ConcurrencyConflict, append_event_dicts, current_seq, load_event_rows
from pbem.store.models import Game

APPENDS_PER_WRITER = 8
THREADS = 4
PROCESSES = 3

Win = tuple[str, int, int]  # (writer, n, seq)
CONFLICTS: list[str] = []  # lost races seen in this process (for the curious; not asserted)


def append_many(url: str, game_id: int, writer: str, start: Any) -> list[Win]:
    """Append APPENDS_PER_WRITER events, reading the seq in one transaction and appending in
    another (so stale seqs do happen), retrying each lost race."""
    engine = make_engine(url, poolclass=NullPool)
    wins: list[Win] = []
    start.wait()  # everyone starts together
    for n in range(APPENDS_PER_WRITER):
        while True:
            with transaction(engine, read_only=True) as s:
                seq = current_seq(s, game_id)
            try:
                with transaction(engine) as s:
                    new_seq = append_event_dicts(
                        s, game_id, seq, [{"type": "Test", "v": 1, "writer": writer, "n": n}]
                    )
            except ConcurrencyConflict:
                CONFLICTS.append(writer)
                continue
            wins.append((writer, n, new_seq))
            break
    engine.dispose()
    return wins


def _process_main(url: str, game_id: int, writer: str, start: Any, out: Any) -> None:
    out.put(append_many(url, game_id, writer, start))


def test_concurrent_writers_leave_a_gapless_log_with_each_seq_won_once(
    engine: Engine, db_url: str
) -> None:
    with transaction(engine) as s:
        game = Game(name="race", preset="standard", engine_version="1")
        s.add(game)
        s.flush()
        game_id = game.id
    assert game_id is not None
    engine.dispose()  # no pooled connections survive into the forked children

    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    barrier = ctx.Barrier(THREADS + PROCESSES)
    procs = [
        ctx.Process(target=_process_main, args=(db_url, game_id, f"p{i}", barrier, queue))
        for i in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    thread_wins: list[list[Win]] = []
    threads = [
        threading.Thread(
            target=lambda w=f"t{i}": thread_wins.append(append_many(db_url, game_id, w, barrier))
        )
        for i in range(THREADS)
    ]
    for t in threads:
        t.start()
    proc_wins = [queue.get(timeout=120) for _ in procs]
    for t in threads:
        t.join(timeout=120)
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0

    wins = [w for ws in thread_wins + proc_wins for w in ws]
    total = APPENDS_PER_WRITER * (THREADS + PROCESSES)
    assert len(wins) == total
    assert sorted(seq for _, _, seq in wins) == list(range(1, total + 1))  # each seq won once

    with transaction(engine, read_only=True) as s:
        rows = load_event_rows(s, game_id)
        assert current_seq(s, game_id) == total
    assert [r.seq for r in rows] == list(range(1, total + 1))  # no gaps, no duplicates
    stored = Counter((r.payload["writer"], r.payload["n"]) for r in rows)
    assert set(stored.values()) == {1}
    assert {(r.payload["writer"], r.payload["n"], r.seq) for r in rows} == set(wins)
