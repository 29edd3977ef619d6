"""Bot strength: average points per hand of the heuristic bot against three other players.

Run: python benchmarks/bot_strength.py [--hands 2000] [--seed 1] [--preset standard]
(any preset, the whole variants too: `--preset auction`, `domino`, `cancellation`)
Targets (issue: time and bots): at most 3.0 points per hand against three random-legal players,
and at most 5.0 against three copies of a bot that always plays its lowest legal card.
The bot sits in seat 0; the deal, the dealer and so the pass direction rotate as in a game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pbem.bots import choose_event
from pbem.dealing import create_game, deal
from pbem.engine import (
    CardPlayed,
    CardsPassed,
    Event,
    GameState,
    MoonChosen,
    Phase,
    apply,
    forced_events,
    legal_cards,
    preset,
    start,
)
from pbem.playout import random_event

Opponent = Callable[[GameState, int, random.Random], Event]


_AUCTION = (Phase.BID, Phase.NAME_SUIT)  # both opponents bid and name the suit at random


def random_player(state: GameState, seat: int, rng: random.Random) -> Event:
    if state.phase in _AUCTION:
        return random_event(state, rng)
    if state.phase is Phase.PASS:
        return CardsPassed(seat, tuple(rng.sample(state.hand(seat), state.rules.pass_count)))
    if state.phase is Phase.MOON_CHOICE:
        return MoonChosen(seat, True)
    return CardPlayed(seat, rng.choice(legal_cards(state, seat)))


def lowest_card_player(state: GameState, seat: int, rng: random.Random) -> Event:
    if state.phase in _AUCTION:
        return random_event(state, rng)
    if state.phase is Phase.PASS:
        return CardsPassed(seat, state.hand(seat)[-state.rules.pass_count:])  # highest cards
    if state.phase is Phase.MOON_CHOICE:
        return MoonChosen(seat, True)
    return CardPlayed(seat, min(legal_cards(state, seat), key=lambda c: (c.rank, c.suit)))


def bot_results(opponent: Opponent, hands: int, seed: int,
                rules_name: str) -> list[tuple[int, int | None]]:
    """Play `hands` hands (no game end: a huge target); return (bot's points, moon shooter)
    for each hand."""
    rng = random.Random(seed)
    rules = preset(rules_name).replace(target=10**9)
    state = start(create_game(rules, rng))
    results: list[tuple[int, int | None]] = []
    while len(results) < hands:
        if state.phase is Phase.DEAL:
            state = apply(state, deal(rules, rng))
            continue
        forced = forced_events(state)  # Domino's draws, forced plays
        seat = state.to_move[0] if state.to_move else -1
        event = forced[0] if forced else (
            choose_event(state, 0) if seat == 0 else opponent(state, seat, rng))
        before = len(state.sheet)
        state = apply(state, event)
        if len(state.sheet) > before:
            results.append((state.sheet[-1].points[0], state.sheet[-1].moon))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="standard")
    args = parser.parse_args()
    for name, opponent, target in (("random-legal", random_player, 3.0),
                                   ("lowest-card", lowest_card_player, 5.0)):
        started = time.perf_counter()
        results = bot_results(opponent, args.hands, args.seed, args.preset)
        mean = statistics.fmean(p for p, _ in results)
        shot = sum(moon == 0 for _, moon in results)
        against = sum(moon not in (None, 0) for _, moon in results)
        others = preset(args.preset).players - 1
        print(f"bot vs {others} {name} players, {args.preset}, {len(results)} hands: "
              f"{mean:.2f} points per hand (target <= {target}); moons: {shot} by the bot, "
              f"{against} by the others; {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
