"""The review of a finished game: every decision its players made themselves, weighed by the
strong robot from what that player could see (pbem.bots.review), stored once per game.

Run by the worker (pbem.scheduler.worker.review_finished_games), never in a web request: the
weighing runs outside any transaction (it takes seconds of CPU), then one transaction stores
the decisions and the game's `GameReview` row (the mark that it is done) and lets the caller
queue its mail there too (`on_stored`). A game that already has its row is never reviewed
again, so two workers racing store it once.

Only decisions the player made (actor PLAYER) are weighed: not the robots', not the moves made
for them at a timeout, not forced cards; and only for players whose review is on
(`Player.review_games`). Turning it off later hides the stored verdicts too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from pbem.bots.review import Verdict, review_events
from pbem.service.core import PLAYER, Context
from pbem.store.db import transaction
from pbem.store.events import load_events_by
from pbem.store.models import Game, GameReview, Player, ReviewedDecision, Seat


@dataclass(frozen=True)
class Review:
    """A game's stored review: its status, and the verdicts of players who want them."""

    game_id: int
    status: str  # "done", "skipped" (the game ended before reviews existed), "failed"
    verdicts: tuple[Verdict, ...] = ()
    cpu_seconds: float = 0.0
    opted_out: frozenset[int] = frozenset()  # seats whose player turned the review off


OnStored = Callable[[Session, Game, Review], None]


def games_to_review(ctx: Context, limit: int = 10) -> list[int]:
    """Finished games not reviewed yet, oldest first: the games whose review is due, read on
    their index (`review_due`, `id`): the work does not grow with the games reviewed before
    (tests/store/test_scan_plans.py)."""
    with transaction(ctx.engine, read_only=True) as session:
        found = session.exec(select(Game.id).where(col(Game.review_due).is_(True))
                             .order_by(col(Game.id)).limit(limit)).all()
    return [g for g in found if g is not None]


def review_game(ctx: Context, game_id: int, on_stored: OnStored | None = None) -> Review | None:
    """Weigh and store the review of the finished game `game_id`; None when it is not
    finished or was reviewed already (by this worker or another)."""
    with transaction(ctx.engine, read_only=True) as session:
        game = session.get(Game, game_id)
        if game is None:
            return None
        if game.status != "finished" or session.get(GameReview, game_id) is not None:
            if game.review_due:  # listed, yet nothing to review: never listed again
                with transaction(ctx.engine) as writing:
                    _no_review_due(writing, game_id)
            return None
        logged = load_events_by(session, game_id)
        wanted = _seats_reviewed(session, game_id)
    events = [event for event, _ in logged]
    which = [k for k, (event, actor) in enumerate(logged)
             if actor == PLAYER and getattr(event, "seat", None) in wanted]
    started = time.process_time()
    verdicts = review_events(events, which, seed=game_id)
    review = Review(game_id, "done", tuple(verdicts), time.process_time() - started)
    with transaction(ctx.engine) as session:
        game = session.get(Game, game_id, with_for_update=True, populate_existing=True)
        if game is None or session.get(GameReview, game_id) is not None:
            return None
        session.add(GameReview(game_id=game_id, status="done", decisions=len(verdicts),
                               cpu_seconds=review.cpu_seconds))
        game.review_due = False
        session.add_all(_rows(game_id, verdicts))
        session.flush()
        if on_stored is not None:
            on_stored(session, game, review)
    return review


def mark_failed(ctx: Context, game_id: int) -> None:
    """The review of `game_id` failed: it is not tried again (the log says why)."""
    with transaction(ctx.engine) as session:
        if session.get(GameReview, game_id) is None:
            session.add(GameReview(game_id=game_id, status="failed"))
        _no_review_due(session, game_id)


def _no_review_due(session: Session, game_id: int) -> None:
    game = session.get(Game, game_id)
    if game is not None:
        game.review_due = False


def stored_review(session: Session, game_id: int) -> Review | None:
    """The game's review as stored (None: not done yet), without the verdicts of players who
    have turned the review off since."""
    row = session.get(GameReview, game_id)
    if row is None:
        return None
    off = frozenset(_seats_of(session, game_id, review=False))
    found = session.exec(select(ReviewedDecision).where(ReviewedDecision.game_id == game_id)
                         .order_by(col(ReviewedDecision.id))).all()
    verdicts = tuple(_verdict(d) for d in found if d.seat_no not in off)
    return Review(game_id, row.status, verdicts, row.cpu_seconds, off)


def _seats_reviewed(session: Session, game_id: int) -> set[int]:
    return set(_seats_of(session, game_id, review=True))


def _seats_of(session: Session, game_id: int, review: bool) -> Sequence[int]:
    """The seats of human players whose review is on (`review`) or off."""
    return session.exec(select(Seat.seat_no).join(Player, col(Seat.player_id) == Player.id)
                        .where(Seat.game_id == game_id, col(Seat.is_bot).is_(False),
                               Player.review_games == review)).all()


def _rows(game_id: int, verdicts: Sequence[Verdict]) -> list[ReviewedDecision]:
    return [ReviewedDecision(game_id=game_id, seat_no=v.seat, hand_number=v.hand_number,
                             trick_number=v.trick_number, kind=v.kind, chosen=v.chosen[:64],
                             best=packed(v)[:64], cost=round(v.cost, 3), samples=v.worlds)
            for v in verdicts]


# The cost's interval and its reason ride in the `best` column ("5♠|0.81|2.40|took_points:3"),
# so the review needs no new column; a row stored before has the best choice alone there, and
# its cost stands as its interval (it is shown as it was then).
SEP = "|"


def packed(v: Verdict) -> str:
    return SEP.join((v.best, f"{v.low:.2f}", f"{v.high:.2f}", v.why))


def _verdict(row: ReviewedDecision) -> Verdict:
    best, low, high, why = row.best, row.cost, row.cost, ""
    if row.best.count(SEP) == 3:
        best, low_text, high_text, why = row.best.split(SEP)
        low, high = float(low_text), float(high_text)
    return Verdict(row.hand_number, row.trick_number, row.seat_no, row.kind, row.chosen,
                   best, row.cost, row.samples, low, high, why)
