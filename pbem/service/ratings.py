"""Ratings: one per player, from standard four-player games against other people.

The library is openskill (Weng-Lin's Bayesian rating, the Plackett-Luce model): it rates
games of any number of players from their finishing order in one update, keeps a skill (mu)
and an uncertainty (sigma) per player, is maintained, pure Python and deterministic. Elo and
Glicko rate two players at a time; TrueSkill is patented. A Hearts game is an ordering of four
players by their final points (lowest first, ties share a place), which is exactly what
Plackett-Luce takes.

The rule (the leaderboard page says it in words, from the numbers here): a game counts when it
is a standard game (the "standard" preset, any target) for four players in which real play
happened: at least one whole hand was played, and at least two seats are people who made at
least MIN_OWN_DECISIONS of the seat's decisions themselves (passes, plays, moon choices; forced
plays don't count either way). A person who stayed counts when robots (covering a timeout or
an absence) made at most MAX_ROBOT_SHARE of their seat's decisions; one who left the game
counts as finishing last (below every seat's final score: leaving never escapes a loss), the
others' game still counting. Only those people are rated, by their order; robot seats don't
count. People who keep meeting each other count less, then not at all: a game doesn't count
when two of its rated people were already rated together in MAX_TOGETHER games in the
TOGETHER_DAYS before it (one person with two accounts can't pump a rating; friends playing
weekly are not held back).

A game is rated once, when it ends: in the command's own transaction (`rate_game`, called by
the commit that finishes it, under the game's lock), and a `rated_game` row keyed by the game
makes any second attempt (`rate_finished`, the upgrade's backfill) a no-op.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations

from openskill.models import PlackettLuce
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem.engine import GameState, decision_seat, decode_event
from pbem.store.db import transaction
from pbem.store.events import load_event_rows, load_state
from pbem.store.models import Game, Player, RatedGame, Rating, RatingChange, Seat
from pbem.store.types import utcnow

RATED_PRESET = "standard"
RATED_PLAYERS = 4
MAX_ROBOT_SHARE = 0.25
MIN_OWN_DECISIONS = 13  # a hand's worth of plays, made by the person themselves
MAX_TOGETHER, TOGETHER_DAYS = 5, 30
ROBOT_MOVES = frozenset({"timeout", "holding"})  # pbem.service.core TIMEOUT, HOLDING
NOT_THEIRS = frozenset({"forced", "robot"})  # no choice, or the robot after they left
MODEL = PlackettLuce()
SCALE, BASE = 40, 1000  # shown = BASE + SCALE * (mu - 3 sigma): a new player shows 1000


def shown(mu: float, sigma: float) -> int:
    """The number players see: the conservative estimate (mu - 3 sigma), scaled."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def rate_game(session: Session, game: Game, state: GameState, seats: Sequence[Seat],
              now: datetime | None = None) -> RatedGame | None:
    """Rate a game that just ended, in the caller's transaction (once: None if it was)."""
    assert game.id is not None
    if session.get(RatedGame, game.id) is not None:
        return None
    people, reason = _rated_people(session, game, state, seats, now or utcnow())
    decision = RatedGame(game_id=game.id, counted=len(people) >= 2, reason=reason,
                         created_at=now or utcnow())
    session.add(decision)
    session.flush()  # the key: a concurrent second decision fails here
    if decision.counted:
        _update(session, game.id, people, now or utcnow())
    return decision


def _rated_people(session: Session, game: Game, state: GameState, seats: Sequence[Seat],
                  now: datetime) -> tuple[dict[int, int], str]:
    """{player id: final points} of the seats that count (a leaver's: below everyone's),
    and why the game counts or not, a code (RatedGame.reason; the words: pbem.present
    .service_words `rating_reason`): "not_standard" (only standard four-player games are
    rated), "no_whole_hand", "too_few_people" (fewer than two seats played by people),
    "met_too_often" (two of its people rated together MAX_TOGETHER times in TOGETHER_DAYS),
    "rated:<n>" (n people played it)."""
    if game.preset != RATED_PRESET or state.rules.players != RATED_PLAYERS:
        return {}, "not_standard"
    if not state.sheet:
        return {}, "no_whole_hand"
    assert game.id is not None
    own, shares = own_decisions(session, game.id)
    last = max(state.totals) + 1
    people = {s.player_id: last if s.is_bot else state.totals[s.seat_no] for s in seats
              if s.player_id is not None and own.get(s.seat_no, 0) >= MIN_OWN_DECISIONS
              and (s.is_bot or shares.get(s.seat_no, 0.0) <= MAX_ROBOT_SHARE)}
    if len(people) < 2:
        return {}, "too_few_people"
    if _met_too_often(session, sorted(people), game.id, now):
        return {}, "met_too_often"
    return people, f"rated:{len(people)}"


def own_decisions(session: Session, game_id: int) -> tuple[Counter[int], dict[int, float]]:
    """Per seat: the decisions its person made, and the share of its decisions (while it
    was theirs) that a robot covering for them made."""
    made, by_robot, own = Counter[int](), Counter[int](), Counter[int]()
    for row in load_event_rows(session, game_id):
        seat = decision_seat(decode_event(row.payload))
        if seat is None or row.actor in NOT_THEIRS:
            continue
        made[seat] += 1
        by_robot[seat] += row.actor in ROBOT_MOVES
        own[seat] += row.actor not in ROBOT_MOVES
    return own, {seat: by_robot[seat] / made[seat] for seat in made}


def robot_shares(session: Session, game_id: int) -> dict[int, float]:
    """Per seat: the share of its decisions made by a robot covering for its player."""
    return own_decisions(session, game_id)[1]


def _met_too_often(session: Session, ids: list[int], game_id: int, now: datetime) -> bool:
    """Whether two of these people were already rated together in MAX_TOGETHER counted
    games within TOGETHER_DAYS (before this game's decision)."""
    since = now - timedelta(days=TOGETHER_DAYS)
    recent = select(RatedGame.game_id).where(col(RatedGame.counted).is_(True),
                                             col(RatedGame.created_at) >= since,
                                             RatedGame.game_id != game_id)
    rows = session.exec(select(RatingChange.game_id, RatingChange.player_id).where(
        col(RatingChange.player_id).in_(ids), col(RatingChange.game_id).in_(recent))).all()
    games: dict[int, set[int]] = {}
    for met_in, player_id in rows:
        games.setdefault(met_in, set()).add(player_id)
    pairs = Counter(pair for people in games.values()
                    for pair in combinations(sorted(people), 2))
    return any(count >= MAX_TOGETHER for count in pairs.values())


def _update(session: Session, game_id: int, points: dict[int, int], now: datetime) -> None:
    ids = sorted(points)
    ratings = {r.player_id: r for r in session.exec(
        select(Rating).where(col(Rating.player_id).in_(ids)).with_for_update())}
    for player_id in ids:
        if player_id not in ratings:
            ratings[player_id] = Rating(player_id=player_id, mu=MODEL.mu, sigma=MODEL.sigma)
    teams = [[MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)] for p in ids]
    ranks = [1.0 + sum(points[q] < points[p] for q in ids) for p in ids]  # ties share a place
    for player_id, (new,) in zip(ids, MODEL.rate(teams, ranks=ranks), strict=True):
        rating = ratings[player_id]
        session.add(RatingChange(game_id=game_id, player_id=player_id, mu_before=rating.mu,
                                 sigma_before=rating.sigma, mu_after=new.mu,
                                 sigma_after=new.sigma, created_at=now))
        rating.mu, rating.sigma, rating.games, rating.updated_at = \
            new.mu, new.sigma, rating.games + 1, now
        session.add(rating)


def rate_finished(engine: Engine, game_id: int) -> bool:
    """Rate a finished game that has no decision yet (the backfill; safe to race: the game
    row is locked, and the decision's key backs it up). True if this call rated it."""
    try:
        with transaction(engine) as session:
            game = session.get(Game, game_id, with_for_update=True, populate_existing=True)
            if game is None or game.status != "finished":
                return False
            seats = session.exec(select(Seat).where(Seat.game_id == game_id)
                                 .order_by(col(Seat.seat_no))).all()
            state = load_state(session, game_id).state
            return rate_game(session, game, state, seats) is not None
    except IntegrityError:
        return False


# --- reading ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shown:
    """A player's rating as pages show it."""

    name: str
    rating: int
    games: int


@dataclass(frozen=True)
class Change:
    name: str
    before: int
    after: int


def player_rating(engine: Engine, player_id: int) -> Shown | None:
    """The player's own rating, for themselves (left the leaderboard or not)."""
    return shown_rating(engine, player_id, player_id)


def shown_rating(engine: Engine, player_id: int, viewer: int | None) -> Shown | None:
    """The player's rating as `viewer` may see it: None if they have none, or if they left
    the leaderboard (then it is shown to themselves only)."""
    with transaction(engine, read_only=True) as session:
        row = session.exec(select(Rating, Player).join(
            Player, col(Player.id) == col(Rating.player_id))
            .where(Rating.player_id == player_id)).first()
    if row is None or not (row[1].on_leaderboard or player_id == viewer):
        return None
    return Shown(row[1].name, shown(row[0].mu, row[0].sigma), row[0].games)


def leaderboard(engine: Engine, limit: int = 100) -> list[Shown]:
    """Rated players who stay on the leaderboard, best first (display names only)."""
    with transaction(engine, read_only=True) as session:
        rows = session.exec(select(Rating, Player).join(
            Player, col(Player.id) == col(Rating.player_id))
            .where(col(Player.on_leaderboard).is_(True), Rating.games > 0)).all()
    best = sorted((Shown(p.name, shown(r.mu, r.sigma), r.games) for r, p in rows),
                  key=lambda s: (-s.rating, s.name))
    return best[:limit]


def game_changes(engine: Engine, game_id: int) -> tuple[RatedGame | None, list[Change]]:
    """Whether the game counted, and what it did to each rated player's rating (public:
    those who left the leaderboard are left out; they see their rating on their own page)."""
    with transaction(engine, read_only=True) as session:
        decision = session.get(RatedGame, game_id)
        rows = session.exec(select(RatingChange, Player).join(
            Player, col(Player.id) == col(RatingChange.player_id))
            .where(RatingChange.game_id == game_id, col(Player.on_leaderboard).is_(True))
            .order_by(col(Player.name))).all()
    return decision, [Change(p.name, shown(c.mu_before, c.sigma_before),
                             shown(c.mu_after, c.sigma_after)) for c, p in rows]


def set_on_leaderboard(engine: Engine, player_id: int, on: bool) -> None:
    with transaction(engine) as session:
        player = session.get(Player, player_id)
        if player is not None:
            player.on_leaderboard = on
            session.add(player)
