"""Figure: emails to each player over one whole standard hand played by links (four humans,
each card played through the service as the web's link does), beside the reference: at most
one email per card the player must play plus one for the hand's result (13 + 1 = 14), and
the pass. Also prints the emails by kind, so what fills the inbox shows.

Run: python benchmarks/emails_per_hand.py [--seed 7]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlmodel import select  # noqa: E402

from pbem import service  # noqa: E402
from pbem.app import wire_mail  # noqa: E402
from pbem.engine import Phase, legal_cards  # noqa: E402
from pbem.store.db import make_engine, transaction  # noqa: E402
from pbem.store.events import load_state  # noqa: E402
from pbem.store.models import OutboxEmail  # noqa: E402
from pbem.store.testing import create_tables  # noqa: E402

NAMES = ("Ann", "Bob", "Cat", "Dan")


def play_one_hand(seed: int) -> Counter[tuple[str, str]]:
    """(address, kind) → emails, over the first hand of a 4-human standard game."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/figure.sqlite3"
        create_tables(url)
        engine = make_engine(url)
        wire_mail(engine)  # the service tells by email, as in the app
        ctx = service.Context(engine=engine, rng=service.make_rng(seed), mail_now=True)
        players = [service.Invitee(f"{n.lower()}@example.org", n, accepted=True) for n in NAMES]
        game = service.create_game(ctx, name="Figure", players=players).game_id
        while True:
            with transaction(engine, read_only=True) as session:
                state = load_state(session, game).state
            if state.hand_number > 1 or state.game_over:
                break
            seat = sorted(state.to_move)[0]
            if state.phase is Phase.PASS:
                service.pass_cards(ctx, game, seat, state.hand(seat)[:state.rules.pass_count])
            else:
                service.play_card(ctx, game, seat, legal_cards(state, seat)[0])
        with transaction(engine, read_only=True) as session:
            rows = session.exec(select(OutboxEmail.to_addr, OutboxEmail.kind))
            counted = Counter((addr, kind) for addr, kind in rows)
        engine.dispose()
        return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    counted = play_one_hand(args.seed)
    reference = 13 + 1 + 1  # a turn email per card, the pass email, the hand's result
    for name in NAMES:
        address = f"{name.lower()}@example.org"
        mine = {kind: n for (addr, kind), n in counted.items() if addr == address}
        # the game_started email and the next hand's pass email are not this hand's
        total = sum(mine.values()) - mine.get("game_started", 0) - 1
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(mine.items()))
        print(f"{name}: {total} emails this hand (reference ≤ {reference}: ratio "
              f"{total / reference:.2f}) — all queued: {kinds}")


if __name__ == "__main__":
    main()
