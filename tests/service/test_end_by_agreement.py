"""Seed 003 (../shared/seeds/003): "a game can be terminated earlier by agreement". Through the
one move command on SQLite and PostgreSQL: a vote opens (the robots agree at once), the other
humans are asked by email, the game ends when every human agrees ("ended by agreement" in the
summary), one vote to play on closes it; and two votes racing end the game once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlalchemy.pool import NullPool
from sqlmodel import col, select

from pbem import service
from pbem.app import wire_mail
from pbem.engine import EndVoted, PlayCard, VoteEnd, legal_cards
from pbem.present.service_words import explain_outcome
from pbem.store.db import make_engine, transaction
from pbem.store.events import load_events
from pbem.store.models import Event as EventRow
from pbem.store.models import Game
from tests.conftest import TEST_SWITCHES
from tests.mailin.support import emails, state_of, to_play, two_human_game

ANN, BOB = "ann@example.org", "bob@example.org"  # seats 0 and 1; seats 2 and 3 are robots


def vote(engine: Engine, game: int, seat: int, agree: bool = True) -> service.Outcome:
    return service.move(service.Context(engine=engine), game, VoteEnd(seat, agree),
                        player_id=_player_of(engine, game, seat))


def _player_of(engine: Engine, game: int, seat: int) -> int:
    from pbem.store.models import Seat

    with transaction(engine, read_only=True) as session:
        row = session.exec(select(Seat).where(Seat.game_id == game, Seat.seat_no == seat)).one()
        assert row.player_id is not None
        return row.player_id


def status(engine: Engine, game: int) -> str:
    with transaction(engine, read_only=True) as session:
        found = session.get(Game, game)
        assert found is not None
        return found.status


def votes_logged(engine: Engine, game: int) -> list[tuple[EndVoted, str | None]]:
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(EventRow).where(EventRow.game_id == game)
                            .order_by(col(EventRow.seq))).all()
        events = load_events(session, game)
    return [(e, row.actor) for e, row in zip(events, rows, strict=True)
            if isinstance(e, EndVoted)]


def test_the_game_ends_when_every_human_agrees_and_robots_agree_at_once_seed_003(
        engine: Engine) -> None:
    game = two_human_game(engine)
    _seat, before = to_play(engine, game)
    opened = vote(engine, game, 0)
    assert [e for e in opened.events if isinstance(e, EndVoted)] == [
        EndVoted(0, True), EndVoted(2, True), EndVoted(3, True)]
    assert votes_logged(engine, game)[1:] == [(EndVoted(2, True), "robot"),
                                             (EndVoted(3, True), "robot")]
    assert status(engine, game) == "active" and state_of(engine, game).end_voters == (0, 2, 3)
    [asking] = emails(engine, BOB, "end_vote")
    assert "Ann proposes to end" in asking.body_text and 'reply "end"' in asking.body_text
    assert not emails(engine, ANN, "end_vote")  # she voted on a page: no email for it
    ended = vote(engine, game, 1)
    assert ended.state is not None and ended.state.ended_by_agreement
    assert status(engine, game) == "finished"
    for player in (ANN, BOB):
        [summary] = emails(engine, player, "summary")
        assert "Ended by agreement" in summary.body_text
    assert state_of(engine, game).totals == before.totals  # the hand under way is not scored


def test_one_human_playing_on_closes_the_vote_seed_003(engine: Engine) -> None:
    """§1: a game "must be played to completion unless all players agree otherwise"."""
    game = two_human_game(engine)
    seat, state = to_play(engine, game)
    vote(engine, game, 0)
    closed = vote(engine, game, 1, agree=False)
    assert not closed.duplicate and state_of(engine, game).end_voters == ()
    [told] = emails(engine, ANN, "end_vote")
    assert "Bob wants to play on" in told.body_text
    card = legal_cards(state, seat)[0]
    service.move(service.Context(engine=engine), game, PlayCard(seat, card),
                 player_id=_player_of(engine, game, seat))
    assert status(engine, game) == "active"


def pending_deadlines(engine: Engine, game: int) -> list[tuple[int | None, int, object]]:
    from pbem.store.models import Deadline

    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(Deadline).where(Deadline.game_id == game,
                                                   Deadline.status == "pending")).all()
        return sorted((r.id, r.seat_no, r.due_at) for r in rows)


def test_a_vote_leaves_the_deadlines_alone_and_the_end_closes_them(engine: Engine) -> None:
    """A vote is nobody's move: the voter's deadline runs on (a vote can't buy time); once the
    game has ended by agreement nothing is pending."""
    game = two_human_game(engine)
    before = pending_deadlines(engine, game)
    assert {seat for _id, seat, _due in before} == {0, 1}  # both asked to pass
    vote(engine, game, 0)
    vote(engine, game, 1, agree=False)
    vote(engine, game, 0)
    assert pending_deadlines(engine, game) == before
    vote(engine, game, 1)
    assert pending_deadlines(engine, game) == []


def test_a_vote_already_made_is_a_no_op_that_says_so(engine: Engine) -> None:
    game = two_human_game(engine)
    vote(engine, game, 0)
    again = vote(engine, game, 0)
    assert again.duplicate and "already agreed" in explain_outcome(again)
    vote(engine, game, 1)
    late = vote(engine, game, 1)  # the last vote, clicked twice
    assert late.duplicate and "ended by agreement" in explain_outcome(late)
    with pytest.raises(service.PlayerMistake, match="game_finished"):
        vote(engine, game, 0, agree=False)


def test_someone_elses_seat_cannot_vote(engine: Engine) -> None:
    game = two_human_game(engine)
    with pytest.raises(service.PlayerMistake):
        service.move(service.Context(engine=engine), game, VoteEnd(1),
                     player_id=_player_of(engine, game, 0))
    assert state_of(engine, game).end_voters == ()


def _race(db_url: str, game: int, voters: list[Callable[[Engine], service.Outcome]]
          ) -> list[service.Outcome | Exception]:
    barrier = threading.Barrier(len(voters))
    results: list[service.Outcome | Exception] = []

    def racer(cast: Callable[[Engine], service.Outcome]) -> None:
        own = make_engine(db_url, poolclass=NullPool)
        wire_mail(own, TEST_SWITCHES)
        barrier.wait()
        try:
            results.append(cast(own))
        except Exception as exc:  # noqa: BLE001 - reported to the test
            results.append(exc)
        own.dispose()

    threads = [threading.Thread(target=racer, args=(v,)) for v in voters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.parametrize("rounds", [3])
def test_two_humans_agreeing_at_once_end_the_game_once_seed_003(
        engine: Engine, db_url: str, rounds: int) -> None:
    for round_no in range(rounds):
        summaries = {p: len(emails(engine, p, "summary")) for p in (ANN, BOB)}
        game = two_human_game(engine, seed=round_no + 1)
        results = _race(db_url, game, [lambda e, g=game: vote(e, g, 0),
                                       lambda e, g=game: vote(e, g, 1),
                                       lambda e, g=game: vote(e, g, 1)])  # Bob clicks twice
        assert all(isinstance(r, service.Outcome) for r in results), results
        assert sum(r.duplicate for r in results if isinstance(r, service.Outcome)) == 1
        assert status(engine, game) == "finished"
        logged = [e for e, _ in votes_logged(engine, game)]
        assert sorted(e.seat for e in logged) == [0, 1, 2, 3]  # each seat's vote once
        for player in (ANN, BOB):  # the game ended once
            assert len(emails(engine, player, "summary")) == summaries[player] + 1


def test_a_vote_sends_only_the_vote_emails(engine: Engine) -> None:
    """One email per thing to do: a vote asks the others about the vote; the player whose
    turn it is gets no second turn email (their question stands)."""
    game = two_human_game(engine)
    seat, _state = to_play(engine, game)
    mover, other = (ANN, BOB) if seat == 0 else (BOB, ANN)
    turns = len(emails(engine, mover, "turn"))
    vote(engine, game, 1 - seat)  # the other human proposes
    assert len(emails(engine, mover, "turn")) == turns
    assert len(emails(engine, mover, "end_vote")) == 1 and not emails(engine, other, "end_vote")


def test_a_game_ended_by_agreement_is_reviewed_like_any_finished_game(
        make_app: Callable[..., Flask], db_url: str) -> None:
    """The worker's review weighs the players' own decisions of a game that ended early (the
    votes are no decision to weigh), and its summary page says how it ended."""
    from pbem.app import db_engine
    from pbem.scheduler.worker import review_finished_games
    from pbem.store.models import ReviewedDecision

    app = make_app(DATABASE_URL=db_url)
    engine = db_engine(app)
    with app.app_context():
        game = two_human_game(engine)
        to_play(engine, game)  # both humans passed: two decisions of their own
        vote(engine, game, 0)
        vote(engine, game, 1)
    assert status(engine, game) == "finished"
    assert review_finished_games(app) == [game]
    with transaction(engine, read_only=True) as session:
        kinds = {r.kind for r in session.exec(select(ReviewedDecision).where(
            ReviewedDecision.game_id == game))}
    assert kinds <= {"pass"}
    page = app.test_client().get(f"/games/{game}/summary").get_data(as_text=True)
    assert "Ended by agreement" in page
