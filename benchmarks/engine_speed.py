"""Engine speed: random full 4-player hands per second, and replaying a 10-hand game's log.

Run: python benchmarks/engine_speed.py [--hands 3000] [--seed 1]
Targets (2-core CI machine): >= 3,000 random hands/s; a 10-hand log replayed in < 2 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pbem.dealing import create_game, shuffled_deck
from pbem.engine import Phase, decode_event, encode_event, preset, replay
from pbem.engine.cards import iter_indices
from pbem.engine.table import Table
from pbem.playout import random_game


def random_hands_per_second(hands: int, seed: int) -> float:
    """Deal, pass three random cards each (by the pass cycle), play random legal cards to the end.

    Runs on the fold's working table (the same code `replay` runs), without freezing a state
    after every event."""
    rng = random.Random(seed)
    rules = preset("standard")
    table = Table(create_game(rules, rng))
    started = time.perf_counter()
    for _ in range(hands):
        if table.phase is Phase.GAME_OVER:
            table = Table(create_game(rules, rng))
        table.deal(shuffled_deck(rules, rng))
        if table.phase is Phase.PASS:
            for seat in range(4):
                cards = rng.sample(list(iter_indices(table.hands[seat])), 3)
                table.pass_cards(seat, (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2]))
        while table.phase is Phase.PLAY:
            legal = list(iter_indices(table.legal_mask(table.turn)))
            table.play(table.turn, legal[rng.randrange(len(legal))])
        if table.phase is Phase.MOON_CHOICE:
            table.choose_moon(table.moon_shooter, True)
    return hands / (time.perf_counter() - started)


def ten_hand_log(seed: int) -> list:  # type: ignore[type-arg]
    """A random game's log cut just before the 11th hand is dealt (games that end sooner are
    skipped by moving to the next seed)."""
    events, state = random_game(preset("standard"), seed, max_hands=200)
    if len(state.sheet) < 10:
        return ten_hand_log(seed + 1)
    counted, log = 0, [events[0]]
    for event in events[1:]:
        if type(event).__name__ == "HandDealt":
            counted += 1
            if counted > 10:
                break
        log.append(event)
    return log


def replay_ms(log: list, repeat: int) -> tuple[float, float]:  # type: ignore[type-arg]
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        replay(log)
        timings.append((time.perf_counter() - started) * 1000)
    payloads = [encode_event(e) for e in log]
    started = time.perf_counter()
    for _ in range(repeat):
        replay(decode_event(p) for p in payloads)
    from_json = (time.perf_counter() - started) * 1000 / repeat
    return statistics.median(timings), from_json


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rate = random_hands_per_second(args.hands, args.seed)
    print(f"random 4-player hands (with the pass): {rate:,.0f} hands/s  (target >= 3,000)")
    log = ten_hand_log(args.seed)
    median, from_json = replay_ms(log, 200)
    state = replay(log)
    print(f"replay of a 10-hand log ({len(log)} events, {len(state.sheet)} hands scored): "
          f"median {median:.2f} ms  (target < 2 ms); from stored JSON incl. decoding: "
          f"{from_json:.2f} ms")


if __name__ == "__main__":
    main()
