"""Page speed: a finished game's summary and a game page, beside `/healthz` in the same run.

Run: python benchmarks/page_speed.py [--hands 67] [--events 5000] [--n 40] [--db URL]

Builds, on a fresh SQLite file (or a throwaway PostgreSQL schema with --db), a finished game of
four robots lasting --hands hands (the target is raised until a seed gives that many), and two
games in progress: one at its first turn and one with about --events events (a human in seat 0,
three robots, the human's moves made through the service). Then requests each page --n times
through Flask's test client (the whole request: routing, database, rendering, security headers)
and prints the median and p90 of the CPU time this process spent on each request (ms), each
beside `/healthz` (one `SELECT 1`) measured in the same rounds, as a ratio. The first request
of the summary, which renders it and keeps it for the next ones, is shown apart, with its
size, and so is the first request of the last hand's page (the summary links each hand's
page, which replays the log up to it), each beside the median /healthz. The page templates
are compiled when the app is made, as pbem.wsgi does in gunicorn's preloading master.
Targets (issue 15): the summary of a finished 67-hand game <= 30 ms; a game page <= 5 ms at
any length. Issue 33: the summary's first view <= 30 ms and <= 200 KB of HTML.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import create_app, db_engine  # noqa: E402
from pbem.engine import PassCards, Phase, PlayCard, legal_cards  # noqa: E402
from pbem.store.db import transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402
from pbem.store.testing import create_pg_schema, create_tables, drop_pg_schema  # noqa: E402
from pbem.web import compile_page_templates  # noqa: E402
from tests.conftest import base_config  # noqa: E402

HUMAN = service.Invitee(email="ann@example.org", name="Ann", accepted=True)


def robots_game(app: Flask, hands: int) -> int:
    """A finished game of four robots lasting exactly `hands` hands."""
    target = 26 * hands // 9
    for seed in range(1, 10_000):
        game_id = _new_game(app, seed, target, players=[], bots=(0, 1, 2, 3))
        played = _state(app, game_id).hand_number
        if played == hands:
            return game_id
        if abs(played - hands) > 3:  # far off: scale the target (the leader's pace)
            target = max(1, target * hands // played)
        else:
            target += 2 if played < hands else -1
    raise RuntimeError(f"no game of {hands} hands found")


def long_game(app: Flask, events: int) -> int:
    """A game in progress with about `events` events: the human's moves through the service."""
    game_id = _new_game(app, 1, 100_000, players=[HUMAN], bots=(1, 2, 3))
    ctx = service.Context(engine=db_engine(app), rng=service.make_rng(2))
    with app.app_context():
        while _seq(app, game_id) < events:
            state = _state(app, game_id)
            if state.phase is Phase.PASS:
                command: PassCards | PlayCard = PassCards(0, state.hand(0)[:3])
            else:
                command = PlayCard(0, legal_cards(state, 0)[-1])
            service.move(ctx, game_id, command)
    return game_id


def _new_game(app: Flask, seed: int, target: int, players: list[service.Invitee],
              bots: tuple[int, ...]) -> int:
    """A new game; robots alone play it to its end in bounded chunks, as the worker would
    (a command plays at most one chunk of robots' moves, pbem.service.core `robot_budget`)."""
    with app.app_context():
        ctx = service.Context(engine=db_engine(app), rng=service.make_rng(seed))
        game_id = service.create_game(ctx, name="Bench", options={"target": target},
                                      players=players, bot_seats=bots,
                                      robot_strength="easy").game_id
        while not players and not _state(app, game_id).game_over \
                and not service.play_robot_turns(ctx, game_id).duplicate:
            pass
        return game_id


def _state(app: Flask, game_id: int):  # type: ignore[no-untyped-def]
    with transaction(db_engine(app), read_only=True) as session:
        return load_state(session, game_id).state


def _seq(app: Flask, game_id: int) -> int:
    with transaction(db_engine(app), read_only=True) as session:
        return load_state(session, game_id).seq


def timed(client: FlaskClient, path: str) -> float:
    """The request's CPU time in this process, ms (wall-clock time on a machine shared with
    other busy processes mostly measures them; this process does all of a request's work on
    SQLite, while PostgreSQL's own work is in its server)."""
    return timed_sized(client, path)[0]


def timed_sized(client: FlaskClient, path: str) -> tuple[float, int]:
    """`timed`, and the size of the page's HTML in bytes."""
    started = time.process_time()
    response = client.get(path)
    elapsed = (time.process_time() - started) * 1000
    assert response.status_code == 200, (path, response.status_code)
    return elapsed, len(response.get_data())


def measure(client: FlaskClient, pages: dict[str, str], n: int) -> dict[str, list[float]]:
    """Each page and /healthz in turn, `n` rounds."""
    times: dict[str, list[float]] = {name: [] for name in [*pages, "healthz"]}
    for _ in range(n):
        for name, path in [*pages.items(), ("healthz", "/healthz")]:
            times[name].append(timed(client, path))
    return times


def report(times: dict[str, list[float]], firsts: dict[str, tuple[float, int]],
           labels: dict[str, str]) -> None:
    health = statistics.median(times["healthz"])
    print(f"{'page':52} {'median':>8} {'p90':>8} {'/healthz':>9} {'ratio':>7}  target")
    for name, label in labels.items():
        values = sorted(times[name])
        median, p90 = statistics.median(values), values[int(len(values) * 0.9) - 1]
        target = "<= 30 ms" if name == "summary" else "<= 5 ms" if name != "healthz" else ""
        print(f"{label:52} {median:8.2f} {p90:8.2f} {health:9.2f} {median / health:6.1f}x  "
              f"{target}")
    print(f"{'first view (renders and keeps it)':52} {'CPU ms':>8} {'KB':>8} {'/healthz':>9} "
          f"{'ratio':>7}  target")
    for label, (cpu, size) in firsts.items():
        target = "<= 30 ms, <= 200 KB" if label.startswith("summary") else ""
        print(f"{label:52} {cpu:8.2f} {size / 1024:8.1f} {health:9.2f} {cpu / health:6.1f}x  "
              f"{target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=67)
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--n", type=int, default=40)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        schema = None
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        if args.db:
            schema, url = create_pg_schema(args.db)
        try:
            create_tables(url)
            _run(create_app(base_config(Path(tmp), url)), args)
        finally:
            if schema is not None:
                drop_pg_schema(args.db, schema)


def _run(app: Flask, args: argparse.Namespace) -> None:
    started = time.process_time()
    count = compile_page_templates(app)  # as pbem.wsgi does in gunicorn's master
    print(f"({count} page templates compiled at start, as pbem.wsgi does before gunicorn "
          f"forks its workers: {(time.process_time() - started) * 1000:.0f} ms, once)")
    print("Building the games ...", flush=True)
    finished = robots_game(app, args.hands)
    short = _new_game(app, 3, 100, players=[HUMAN], bots=(1, 2, 3))
    long = long_game(app, args.events)
    client = app.test_client()
    timed(client, "/healthz")
    firsts = {
        f"summary of the {args.hands}-hand game": timed_sized(client,
                                                          f"/games/{finished}/summary"),
        f"its hand {args.hands} (the last) on its own page": timed_sized(
            client, f"/games/{finished}/hands/{args.hands}"),
        "its hand 1 on its own page": timed_sized(client, f"/games/{finished}/hands/1")}
    pages = {"summary": f"/games/{finished}/summary", "short": f"/games/{short}",
             "long": f"/games/{long}"}
    times = measure(client, pages, args.n)
    report(times, firsts, {
        "summary": f"summary of a finished {args.hands}-hand game",
        "short": f"game page at {_seq(app, short)} events",
        "long": f"game page at {_seq(app, long)} events",
        "healthz": "/healthz (the reference)",
    })


if __name__ == "__main__":
    main()
