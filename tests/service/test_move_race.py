"""Threads and processes submit real moves to one game at once, on SQLite and PostgreSQL:
the log stays gapless, nothing is applied twice, and each turn has exactly one accepted move."""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

from sqlalchemy import Engine, func
from sqlalchemy.pool import NullPool
from sqlmodel import select

from pbem.app import wire_mail
from pbem.engine import CardPlayed, Phase, decode_event, legal_cards, replay
from pbem.service import (
    Context,
    Invitee,
    PlayerMistake,
    create_game,
    make_rng,
    play_card,
)
from pbem.store.db import make_engine, transaction
from pbem.store.events import load_event_rows, load_state
from pbem.store.models import Event as EventRow
from tests.conftest import TEST_SWITCHES

THREADS = 3
PROCESSES = 2
MOVES_PER_RACER = 60  # more than a hand's 52 plays, so racers keep contesting every turn

Accepted = tuple[int, int]  # (seq after the command, number of events it appended)


def race(url: str, game_id: int, racer: int, start: Any) -> list[Accepted]:
    """Keep reading the game and playing the seat-to-move's card: even racers the lowest legal
    card, odd racers the highest, so rivals send the same move and different moves."""
    engine = make_engine(url, poolclass=NullPool)
    wire_mail(engine, TEST_SWITCHES)
    ctx = Context(engine=engine, rng=make_rng(seed=racer))
    accepted: list[Accepted] = []
    start.wait()
    for _ in range(MOVES_PER_RACER):
        with transaction(engine, read_only=True) as session:
            loaded = load_state(session, game_id)
        state = loaded.state
        if state.phase is not Phase.PLAY or len(state.sheet) >= 1:
            break
        legal = legal_cards(state, state.turn)
        card = legal[0] if racer % 2 == 0 else legal[-1]
        try:
            outcome = play_card(ctx, game_id, state.turn, card, turn_seq=loaded.seq)
        except PlayerMistake:
            continue  # someone moved first, or the move is no longer legal
        if not outcome.duplicate:
            accepted.append((outcome.seq, len(outcome.events)))
    engine.dispose()
    return accepted


def _process_main(url: str, game_id: int, racer: int, start: Any, out: Any) -> None:
    out.put(race(url, game_id, racer, start))


def test_racing_moves_are_each_accepted_once_and_the_log_has_no_gaps(
    engine: Engine, db_url: str
) -> None:
    players = [Invitee(f"racer{n}@example.org", f"Racer {n}", accepted=True) for n in range(4)]
    ctx = Context(engine=engine, rng=make_rng(seed=3))
    game_id = create_game(ctx, name="race", options={"pass_count": 0, "pass_cycle": [0]},
                          players=players).game_id
    with transaction(engine, read_only=True) as session:
        start_seq = load_state(session, game_id).seq
    engine.dispose()

    mp = multiprocessing.get_context("fork")
    queue, barrier = mp.Queue(), mp.Barrier(THREADS + PROCESSES)
    procs = [mp.Process(target=_process_main, args=(db_url, game_id, THREADS + i, barrier, queue))
             for i in range(PROCESSES)]
    for proc in procs:
        proc.start()
    results: list[list[Accepted]] = []

    def run_racer(racer: int) -> None:
        results.append(race(db_url, game_id, racer, barrier))

    threads = [threading.Thread(target=run_racer, args=(r,)) for r in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results += [queue.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0

    accepted = [a for racer in results for a in racer]
    with transaction(engine, read_only=True) as session:
        rows = load_event_rows(session, game_id, 0)
        count = session.exec(select(func.count()).where(EventRow.game_id == game_id)).one()
    seqs = [row.seq for row in rows]
    assert seqs == list(range(1, len(seqs) + 1)) and count == len(seqs)  # no gaps, no repeats
    events = [decode_event(row.payload) for row in rows]
    state = replay(events)  # the log is a legal game: no card was played twice
    assert len(state.sheet) == 1  # the racers finished the hand between them
    # every event after the start came from exactly one accepted command…
    assert sum(n for _, n in accepted) == len(events) - start_seq
    # …and each accepted command ended at a different seq: one accepted move per turn.
    assert len({seq for seq, _ in accepted}) == len(accepted)
    assert sum(isinstance(e, CardPlayed) for e in events[start_seq:]) == 52
