"""Strong robots' answers are the worker's, not the request's (issue 15: no request that can
stall the others). A command outside the worker's robot pass writes the player's own move and
what costs nothing (deals, forced plays, easy robots), marks the game
`robots_thinking_since`, and the worker's every-second pass plays the strong robots up to the
next human question, once, even racing a player's move. The pages say so and reload
themselves until the robots have moved. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine
from sqlmodel import col, select

from pbem.app import db_engine, wire_mail
from pbem.engine import GameState, Phase, legal_cards, replay
from pbem.present.refusals import mistake_words
from pbem.scheduler.worker import RobotPasses, carry_on_robot_games, play_robot_games
from pbem.service import (
    ROBOT,
    Context,
    Invitee,
    PlayerMistake,
    core,
    create_game,
    games_to_play,
    make_rng,
    pass_cards,
    play_card,
    resign,
)
from pbem.store.db import make_engine, transaction
from pbem.store.events import load_events, load_state
from pbem.store.models import Deadline, Game, OutboxEmail
from pbem.store.models import Event as EventRow
from pbem.store.testing import create_tables
from tests.conftest import TEST_SWITCHES
from tests.web.support import csrf_of, newest, seat_path

ANN = Invitee("ann@example.org", "Ann", accepted=True)
BOB = Invitee("bob@example.org", "Bob", accepted=True)
NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _robots_later(engine: Engine) -> None:
    """As in production: commands leave strong robots' moves to the worker."""
    core.wire(engine, replace(core.wiring_of(engine), robots_now=False))


@pytest.fixture
def make_app(make_app: Callable[..., Flask]) -> Callable[..., Flask]:
    """The apps too (pbem.app SWITCHES)."""
    return lambda **overrides: make_app(**{"ROBOTS_NOW": False, **overrides})


def robots_game(engine: Engine, humans: list[Invitee], strength: str = "strong",
                seed: int = 3) -> tuple[Context, int]:
    ctx = Context(engine=engine, rng=make_rng(seed=seed), clock=lambda: NOON)
    game_id = create_game(ctx, name="Robots", players=humans,
                          bot_seats=range(len(humans), 4), robot_strength=strength).game_id
    return ctx, game_id


def worker(engine: Engine, seed: int = 9) -> Context:
    """The worker's robot pass, as `play_robot_games` makes it."""
    return Context(engine=engine, rng=make_rng(seed=seed), robots_now=True)


def table(engine: Engine, game_id: int) -> tuple[GameState, datetime | None]:
    with transaction(engine, read_only=True) as s:
        game = s.get(Game, game_id)
        assert game is not None
        return load_state(s, game_id).state, game.robots_thinking_since


def robot_moves_after(engine: Engine, game_id: int, seq: int) -> int:
    with transaction(engine, read_only=True) as s:
        return len(s.exec(select(EventRow.seq).where(
            EventRow.game_id == game_id, col(EventRow.seq) > seq,
            EventRow.actor == ROBOT)).all())


def last_seq(engine: Engine, game_id: int) -> int:
    with transaction(engine, read_only=True) as s:
        return load_state(s, game_id).seq


def test_a_move_against_strong_robots_writes_only_the_players_move_and_the_worker_answers(
    engine: Engine,
) -> None:
    ctx, game_id = robots_game(engine, [ANN])
    state, thinking = table(engine, game_id)
    assert state.phase is Phase.PASS and set(state.to_move) == {0, 1, 2, 3}  # nobody passed
    assert thinking == NOON  # since the deal: the robots' passes are the worker's
    assert robot_moves_after(engine, game_id, 0) == 0
    before = last_seq(engine, game_id)
    pass_cards(ctx, game_id, 0, state.hand(0)[:3])
    state, thinking = table(engine, game_id)
    assert robot_moves_after(engine, game_id, before) == 0  # the request asked no robot
    assert set(state.to_move) == {1, 2, 3} and thinking == NOON
    assert games_to_play(ctx) == [game_id]

    played = carry_on_robot_games(worker(engine))
    assert played == [game_id]
    state, thinking = table(engine, game_id)
    assert robot_moves_after(engine, game_id, before) >= 3  # three passes, maybe leads
    assert state.phase is Phase.PLAY and state.to_move == (0,) and thinking is None
    assert carry_on_robot_games(worker(engine)) == []  # nothing left, nothing twice

    for _move in range(6):  # Ann plays; each time the worker brings her turn back
        seq = last_seq(engine, game_id)
        play_card(ctx, game_id, 0, legal_cards(state, 0)[0])
        state, thinking = table(engine, game_id)
        if state.to_move == (0,) or state.phase is not Phase.PLAY:
            continue  # she won the trick and leads again: no robot owed anything
        assert robot_moves_after(engine, game_id, seq) == 0 and thinking is not None
        carry_on_robot_games(worker(engine))
        state, thinking = table(engine, game_id)
        assert 0 in state.to_move and thinking is None
    with transaction(engine, read_only=True) as s:
        replay(list(load_events(s, game_id)))  # the log replays: every card legal, once


def test_a_move_out_of_turn_names_the_robot_waited_for_as_the_pages_do(engine: Engine) -> None:
    """The refusal says "Robot 2", as every page and email names the seat (not "Robot")."""
    ctx, game_id = robots_game(engine, [ANN])
    carry_on_robot_games(worker(engine))  # the robots pass
    pass_cards(ctx, game_id, 0, table(engine, game_id)[0].hand(0)[:3])
    carry_on_robot_games(worker(engine))  # up to Ann's first card
    state = table(engine, game_id)[0]
    while state.to_move == (0,):  # Ann plays until a robot is to answer her
        play_card(ctx, game_id, 0, legal_cards(state, 0)[0])
        state = table(engine, game_id)[0]
    (waited,) = state.to_move
    with pytest.raises(PlayerMistake) as refused:
        play_card(ctx, game_id, 0, state.hand(0)[0])
    assert f"we're waiting for Robot {waited + 1} to play" in mistake_words(refused.value)


def test_easy_robots_still_answer_in_the_request(engine: Engine) -> None:
    ctx, game_id = robots_game(engine, [ANN], strength="easy")
    state, thinking = table(engine, game_id)
    assert state.to_move == (0,) and thinking is None  # the easy robots passed at once
    pass_cards(ctx, game_id, 0, state.hand(0)[:3])
    state, thinking = table(engine, game_id)
    assert 0 in state.to_move and thinking is None and games_to_play(ctx) == []


def test_robots_left_a_pass_are_played_while_another_human_is_still_waited_for(
    engine: Engine,
) -> None:
    """Bob's deadline is pending (he has not passed): the game is found by its mark alone."""
    ctx, game_id = robots_game(engine, [ANN, BOB])
    state, _ = table(engine, game_id)
    pass_cards(ctx, game_id, 0, state.hand(0)[:3])
    with transaction(engine, read_only=True) as s:
        pending = s.exec(select(Deadline.seat_no).where(
            Deadline.game_id == game_id, Deadline.status == "pending")).all()
    assert list(pending) == [1]
    assert games_to_play(ctx) == [game_id]
    carry_on_robot_games(worker(engine))
    state, thinking = table(engine, game_id)
    assert state.phase is Phase.PASS and state.to_move == (1,) and thinking is None
    assert carry_on_robot_games(worker(engine)) == []  # waits for Bob: not planned again
    pass_cards(ctx, game_id, 1, state.hand(1)[:3])
    state, _ = table(engine, game_id)
    assert state.phase is Phase.PLAY


def test_a_players_pass_racing_the_worker_on_the_robots_passes_lands_each_once(
    engine: Engine,
) -> None:
    """Bob passes while the worker plays the robots' passes: both land (the loser plans again
    on the new state), nothing twice, on either database."""
    ctx, game_id = robots_game(engine, [ANN, BOB], seed=4)
    state, _ = table(engine, game_id)
    pass_cards(ctx, game_id, 0, state.hand(0)[:3])
    start = threading.Barrier(2, timeout=60)
    failed: list[BaseException] = []

    def run(act: Callable[[], object]) -> None:
        try:
            start.wait()
            act()
        except BaseException as exc:  # reported below
            failed.append(exc)

    threads = [
        threading.Thread(target=run, args=(lambda: pass_cards(ctx, game_id, 1,
                                                              state.hand(1)[:3]),)),
        threading.Thread(target=run, args=(lambda: carry_on_robot_games(worker(engine)),)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    carry_on_robot_games(worker(engine))  # whatever the race left the robots (their leads)
    with transaction(engine, read_only=True) as s:
        seqs = list(s.exec(select(EventRow.seq).where(EventRow.game_id == game_id)
                           .order_by(col(EventRow.seq))).all())
        final = replay(list(load_events(s, game_id)))
    assert seqs == list(range(1, len(seqs) + 1))  # gapless
    assert final.phase is Phase.PLAY and set(final.to_move) & {0, 1}  # a human's turn
    assert all(final.received_cards(seat) for seat in range(4))  # every seat passed once
    _, thinking = table(engine, game_id)
    assert thinking is None


def test_the_worker_pass_plays_the_robots_a_request_left(make_app: Callable[..., Flask],
                                                         db_url: str) -> None:
    """`play_robot_games`, the scheduled job (with a fresh engine: as after a crash, nothing
    but the stored mark says what is owed)."""
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    ctx, game_id = robots_game(engine, [ANN])
    assert table(engine, game_id)[1] is not None
    assert play_robot_games(app) == [game_id]
    state, thinking = table(engine, game_id)
    assert state.to_move == (0,) and thinking is None


def test_a_waiting_player_s_robots_are_played_at_the_next_tick_the_others_each_second(
        make_app: Callable[..., Flask], db_url: str) -> None:
    """The worker's job ticks four times a second: a game whose players wait for the robots
    is played at the next tick; a game left to robots alone only when the second is up."""
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    now = [100.0]
    passes = RobotPasses(app, clock=lambda: now[0])
    assert passes.tick() == []  # the pass due at once: nothing to play yet
    _, alone = robots_game(engine, [], strength="easy")  # four robots: nobody waits
    _, waited = robots_game(engine, [ANN])  # strong robots: their passes left to the worker
    assert table(engine, waited)[1] is not None and table(engine, alone)[1] is None
    seq_alone = last_seq(engine, alone)
    now[0] = 100.25
    assert passes.tick() == [waited]  # within the second: only for the waiting player
    assert table(engine, waited)[1] is None and last_seq(engine, alone) == seq_alone
    now[0] = 100.5
    assert passes.tick() == []  # nobody waits: one read, nothing played
    assert last_seq(engine, alone) == seq_alone
    now[0] = 101.25
    assert alone in passes.tick()  # the second is up: games left to robots play on
    assert last_seq(engine, alone) > seq_alone


def test_a_tick_while_the_robots_pass_runs_returns_at_once(make_app: Callable[..., Flask],
                                                          db_url: str) -> None:
    """Ticks fall four times a second, a pass may take seconds: the ticks meanwhile return
    at once (the scheduler runs two at most), never a second pass over the same games."""
    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    _, game_id = robots_game(engine, [ANN])
    passes = RobotPasses(app)
    entered, release = threading.Event(), threading.Event()
    real_games = games_to_play

    def slow_listing(ctx: Context) -> list[int]:
        entered.set()
        release.wait(10)
        return real_games(ctx)

    results: list[list[int]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pbem.scheduler.worker.games_to_play", slow_listing)
        first = threading.Thread(target=lambda: results.append(passes.tick()))
        first.start()
        assert entered.wait(10)
        assert passes.tick() == []  # during the pass: at once, nothing played
        release.set()
        first.join(10)
    assert results == [[game_id]] and table(engine, game_id)[1] is None


def test_the_pages_say_the_robots_are_thinking_and_reload_until_they_moved(
    app: Flask, client: FlaskClient,
) -> None:
    engine = db_engine(app)
    with app.app_context():
        ctx, game_id = robots_game(engine, [ANN])
    path = seat_path(newest(app, "pass").body_text)
    html = client.get(path).get_data(as_text=True)
    assert 'http-equiv="refresh"' not in html  # Ann is choosing her pass: no reload
    cards = [str(c) for c in table(engine, game_id)[0].hand(0)[:3]]
    response = client.post(f"{path}/pass", data={"csrf_token": csrf_of(html), "cards": cards,
                                                 "turn": _turn(html)})
    assert response.status_code == 303
    html = client.get(path).get_data(as_text=True)
    assert 'http-equiv="refresh" content="1"' in html
    assert "The robots are thinking: this page shows their moves in a moment." in html
    assert "Nudge" not in html  # only robots are to move: nobody to nudge
    public = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'http-equiv="refresh"' in public and "The robots are thinking" in public
    play_robot_games(app)
    html = client.get(path).get_data(as_text=True)
    assert 'http-equiv="refresh"' not in html and "robots are thinking" not in html
    assert "Your turn" in html


def _turn(html: str) -> str:
    found = re.search(r'name="turn" value="(\d+)"', html)
    assert found
    return found.group(1)


def emails_of_four_tricks(url: str, later: bool) -> list[tuple[str, str]]:
    """Ann's pass and four tricks against strong robots, answered in her commands or by the
    worker after each; the emails queued, in order (address, kind)."""
    create_tables(url)
    engine = make_engine(url)
    wire_mail(engine, TEST_SWITCHES)
    try:
        ctx = Context(engine=engine, rng=make_rng(seed=3), clock=lambda: NOON,
                      robots_now=not later)
        game_id = create_game(ctx, name="Mail", players=[ANN], bot_seats=(1, 2, 3),
                              robot_strength="strong").game_id
        for _move in range(5):
            if later:
                carry_on_robot_games(worker(engine))
            state, _ = table(engine, game_id)
            if state.phase is Phase.PASS:
                pass_cards(ctx, game_id, 0, state.hand(0)[:3])
            else:
                play_card(ctx, game_id, 0, legal_cards(state, 0)[0])
        if later:
            carry_on_robot_games(worker(engine))
        with transaction(engine, read_only=True) as s:
            return [(row.to_addr, row.kind) for row in s.exec(
                select(OutboxEmail).order_by(col(OutboxEmail.id))).all()]
    finally:
        engine.dispose()


def test_leaving_the_robots_to_the_worker_sends_the_same_emails(tmp_path: Path) -> None:
    """The same game (seeds, and game id 1: the strong robot's samples) played both ways: the
    worker's answers make the emails the robots' answers in the command made, no more."""
    now = emails_of_four_tricks(f"sqlite:///{tmp_path / 'now.db'}", later=False)
    later = emails_of_four_tricks(f"sqlite:///{tmp_path / 'later.db'}", later=True)
    assert later == now
    assert sum(kind == "turn" for _address, kind in now) >= 4


def test_a_game_where_someone_waits_for_the_robots_goes_before_games_left_to_robots(
    engine: Engine,
) -> None:
    """An older game left to robots alone (its one human resigned: chunks of 12 decisions to
    its end) and a newer one where Ann waits for the strong robots' passes: the worker's pass
    plays Ann's robots first, then the other game's chunks."""
    ctx, alone = robots_game(engine, [BOB], strength="easy", seed=5)
    resign(ctx, alone, 0)
    assert table(engine, alone)[1] is None  # nobody waits: found by its lack of deadlines
    _, waited = robots_game(engine, [ANN])
    assert games_to_play(ctx) == [waited, alone]
    played = carry_on_robot_games(worker(engine))
    assert played[0] == waited and played.count(waited) == 1
    assert played.count(alone) > 1  # the rest of the robots' game, chunk by chunk
    assert table(engine, waited)[0].to_move == (0,)
    assert table(engine, alone)[0].game_over
