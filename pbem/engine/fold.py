"""The fold: apply(state, event) -> state and replay(events) -> state, plus snapshots of a state."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from pbem.engine.cards import Card, Suit, cards_of, mask_of
from pbem.engine.errors import EventDecodeError, WrongPhase
from pbem.engine.events import Event, GameCreated, decode_event
from pbem.engine.rules import Rules, Variant
from pbem.engine.state import (
    GameState,
    HandResult,
    Phase,
    Trick,
    new_result,
    new_state,
)
from pbem.engine.table import Table, kept_state
from pbem.engine.variants import freeze_keeping, new_table, reader, thaw

SNAPSHOT_VERSION = 2  # 2: with the per-seat decision counts (older ones are replayed)
# Ties in a draw for first dealer go to the higher suit: spades > hearts > diamonds > clubs.
_DRAW_SUIT_ORDER = {Suit.SPADES: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1, Suit.CLUBS: 0}


def dealer_from_draw(cards: tuple[Card, ...]) -> int:
    """The seat whose drawn card is highest; equal ranks are broken by suit."""
    return max(range(len(cards)), key=lambda s: (cards[s].rank, _DRAW_SUIT_ORDER[cards[s].suit]))


def start(created: GameCreated) -> GameState:
    """The state right after a game is created (waiting for the first deal)."""
    _check_draw(created)
    return new_table(created).freeze()


def _check_draw(created: GameCreated) -> None:
    if created.dealer_draw:
        if len(created.dealer_draw) != created.seats:
            raise WrongPhase("bad_dealer_draw")
        if dealer_from_draw(created.dealer_draw) != created.first_dealer:
            raise WrongPhase("wrong_first_dealer")


def apply(state: GameState, event: Event) -> GameState:
    """The state after one more event. Never changes `state`; raises an EngineError if illegal."""
    kept: object = state._table
    if isinstance(kept, Table) and event is kept.decided:  # `decide` checked it on `state`
        decided = kept.decided
        if decided is not None:
            table = kept.clone()
            table.play_trusted(decided.seat, decided.card.index)
            return kept_state(table)
    table = thaw(state)
    table.apply(event)
    return freeze_keeping(table)


def apply_all(state: GameState, events: Iterable[Event]) -> GameState:
    """The state after several more events: `apply` one by one, with one thaw and one freeze."""
    table = thaw(state)
    for event in events:
        table.apply(event)
    return freeze_keeping(table)


def apply_all_trusted(state: GameState, events: Iterable[Event]) -> GameState:
    """`apply_all` for events read back from the store after `state` (checked when they were
    appended): card plays are not checked again (see `Table.apply_trusted`)."""
    table = thaw(state)
    table.apply_trusted(events)
    return freeze_keeping(table)


def replay(events: Iterable[Event]) -> GameState:
    """Fold a whole log, first event a GameCreated."""
    iterator = iter(events)
    table = _created_table(iterator)  # the variant's fold is chosen once per game
    for event in iterator:
        table.apply(event)
    return freeze_keeping(table)


def replay_trusted(events: Iterable[Event]) -> GameState:
    """`replay` for a log read back from the store, whose events were checked when they were
    appended: card plays are not checked again (see `Table.apply_trusted`). Anything that did
    not come from the store, such as a command's events, goes through `replay` or `apply`."""
    iterator = iter(events)
    table = _created_table(iterator)
    table.apply_trusted(iterator)
    return freeze_keeping(table)


def _created_table(log: Iterator[Event]) -> Table:
    """The working table of a log's first event, which must be the game's creation."""
    created = next(log, None)
    if not isinstance(created, GameCreated):
        raise WrongPhase("log_without_creation")
    _check_draw(created)
    return new_table(created)


def replay_json(payloads: Iterable[dict[str, Any]]) -> GameState:
    return replay(decode_event(p) for p in payloads)


def legal_cards(state: GameState, seat: int) -> tuple[Card, ...]:
    """The one legality check: the cards `seat` may play now (empty when it isn't their move)."""
    kept: object = state._table
    if type(kept) is Table:  # a standard state's table, asked natively (and remembered)
        return cards_of(kept.asked_legal_mask(seat))
    return cards_of(reader(state).legal_mask(seat))


# --- snapshots: a JSON form of a whole state ---------------------------------------------------

_VARIANT_FIELDS = ("carry", "stock", "bids", "bidder", "avoid", "pot", "chips", "drawn")


def snapshot(state: GameState) -> dict[str, Any]:
    data = {
        "v": SNAPSHOT_VERSION, "rules": state.rules.to_dict(), "seats": state.seats,
        "first_dealer": state.first_dealer, "hand_number": state.hand_number,
        "dealer": state.dealer, "phase": state.phase.value, "hands": list(state.hands),
        "passed": list(state.passed), "trick": [list(p) for p in state.trick],
        "leader": state.leader, "turn": state.turn,
        "tricks": [_trick_json(t) for t in state.tricks], "won": list(state.won),
        "hearts_broken": state.hearts_broken, "kitty": state.kitty, "in_play": state.in_play,
        "totals": list(state.totals), "sheet": [_result_json(r) for r in state.sheet],
        "moon_shooter": state.moon_shooter, "winners": list(state.winners),
        "claimed_by": state.claimed_by, "turns": list(state.turns),
        "end_votes": state.end_votes,
    }
    if state.rules.variant is not Variant.STANDARD:  # a standard snapshot keeps its old form
        for name in _VARIANT_FIELDS:
            value = getattr(state, name)
            data[name] = [list(v) if isinstance(v, tuple) else v for v in value] \
                if isinstance(value, tuple) else value
    return data


def restore(data: dict[str, Any]) -> GameState:
    if data.get("v") != SNAPSHOT_VERSION:
        raise EventDecodeError("snapshot_version", version=data.get("v"))
    try:
        extra: dict[str, Any] = {
            name: tuple(data[name]) if isinstance(data[name], list) else data[name]
            for name in _VARIANT_FIELDS if name in data}
        if "drawn" in extra:  # Domino's draws: (seat, count, played before) triples
            extra["drawn"] = tuple(tuple(d) for d in extra["drawn"])
        return new_state(
            _rules_from(data["rules"]), data["seats"], data["first_dealer"],
            data["hand_number"], data["dealer"], Phase(data["phase"]), tuple(data["hands"]),
            tuple(data["passed"]), tuple((s, i) for s, i in data["trick"]), data["leader"],
            data["turn"], tuple(_trick_from(t) for t in data["tricks"]), tuple(data["won"]),
            data["hearts_broken"], data["kitty"], data["in_play"], tuple(data["totals"]),
            tuple(_result_from(r) for r in data["sheet"]), data["moon_shooter"],
            tuple(data["winners"]), data["claimed_by"], turns=tuple(data["turns"]),
            end_votes=int(data.get("end_votes", 0)), **extra)  # snapshots before the vote
    except (KeyError, TypeError, ValueError) as exc:
        raise EventDecodeError("malformed_snapshot", detail=repr(exc)) from exc


_KNOWN_RULES: dict[tuple[tuple[str, str, Any], ...], Rules] = {}


def _rules_from(data: dict[str, Any]) -> Rules:
    """`Rules.from_dict`, remembered: a server restores the same few rule sets all day."""
    key = tuple(sorted((k, type(v).__name__, tuple(v) if isinstance(v, list) else v)
                       for k, v in data.items()))  # the type: 1 must not stand for True
    rules = _KNOWN_RULES.get(key)
    if rules is None:
        rules = Rules.from_dict(data)
        if len(_KNOWN_RULES) < 1000:
            _KNOWN_RULES[key] = rules
    return rules


def _trick_json(trick: Trick) -> list[Any]:
    return [trick.leader, [[s, c.code] for s, c in trick.plays], trick.winner]


def _trick_from(data: list[Any]) -> Trick:
    leader, plays, winner = data
    return Trick(leader, tuple((s, Card.from_code(c)) for s, c in plays), winner)


def _result_json(result: HandResult) -> dict[str, Any]:
    return {"hand_number": result.hand_number, "dealer": result.dealer,
            "points": list(result.points), "totals": list(result.totals), "moon": result.moon,
            "moon_down": result.moon_down, "slam": result.slam, "hearts": list(result.hearts),
            "claimed_by": result.claimed_by, "false_claim": result.false_claim}


def _result_from(data: dict[str, Any]) -> HandResult:
    return new_result(data["hand_number"], data["dealer"], tuple(data["points"]),
                      tuple(data["totals"]), data["moon"], data["moon_down"], data["slam"],
                      tuple(data["hearts"]), data["claimed_by"],
                      bool(data.get("false_claim", False)))  # snapshots before the option


def deck_mask(rules: Rules) -> int:
    return mask_of(Card.from_index(i) for i in range(52)) & ~mask_of(rules.removed)
