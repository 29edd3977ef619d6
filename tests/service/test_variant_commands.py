"""The service's commands for the whole variants: bids and the named suit (Auction Hearts),
and variant games created and advanced like any other."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from pbem.engine import BidMade, Phase, Suit, SuitNamed
from pbem.present.service_words import explain_outcome
from pbem.service import (
    CommandRejected,
    Context,
    Invitee,
    NotAllowed,
    bid,
    create_game,
    make_rng,
    name_suit,
)
from pbem.store.db import transaction
from pbem.store.events import load_events
from tests.helpers import service_game, state_of


@pytest.fixture
def ctx(engine: Engine) -> Context:
    return Context(engine=engine, rng=make_rng(seed=11))


def test_auction_game_is_dealt_and_asks_left_of_dealer_to_bid(ctx: Context) -> None:
    _game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, _game_id)
    assert state.phase is Phase.BID
    assert state.to_move == ((state.dealer + 1) % 4,)


def test_auction_bids_in_turn_then_the_winner_names_the_suit(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    order = [(first + k) % 4 for k in range(4)]
    bid(ctx, game_id, order[0], 2)
    bid(ctx, game_id, order[1], None)
    bid(ctx, game_id, order[2], 5)
    bid(ctx, game_id, order[3], None)
    state = state_of(ctx.engine, game_id)
    assert state.phase is Phase.NAME_SUIT and state.to_move == (order[2],)
    assert state.pot == 5 and state.chips[order[2]] == -5
    name_suit(ctx, game_id, order[2], "spades")
    state = state_of(ctx.engine, game_id)
    assert state.phase is Phase.PLAY and state.avoid == Suit.SPADES
    assert state.to_move == (order[2],)


def test_auction_bid_not_above_the_last_is_refused_and_nothing_changes(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    bid(ctx, game_id, first, 3)
    with pytest.raises(CommandRejected, match=r"^rejected: bid_too_low .*high=3"):
        bid(ctx, game_id, (first + 1) % 4, 3)
    assert state_of(ctx.engine, game_id).bids[(first + 1) % 4] == -1


def test_auction_bid_out_of_turn_is_refused(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    with pytest.raises(CommandRejected, match="^rejected: not_your_turn_bid"):
        bid(ctx, game_id, (state.dealer + 2) % 4, 1)


def test_auction_the_same_bid_twice_is_carried_out_once(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    assert not bid(ctx, game_id, first, 4).duplicate
    again = bid(ctx, game_id, first, 4)
    assert again.duplicate and "already" in explain_outcome(again)
    with transaction(ctx.engine, read_only=True) as s:
        bids = [e for e in load_events(s, game_id) if isinstance(e, BidMade)]
    assert bids == [BidMade(first, 4)]


def test_auction_naming_the_suit_twice_is_carried_out_once(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    for k in range(4):
        bid(ctx, game_id, (first + k) % 4, 1 if k == 0 else None)
    assert not name_suit(ctx, game_id, first, Suit.DIAMONDS).duplicate
    assert name_suit(ctx, game_id, first, "D").duplicate
    with transaction(ctx.engine, read_only=True) as s:
        named = [e for e in load_events(s, game_id) if isinstance(e, SuitNamed)]
    assert named == [SuitNamed(first, Suit.DIAMONDS)]


def test_auction_only_the_winning_bidder_names_the_suit(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    for k in range(4):
        bid(ctx, game_id, (first + k) % 4, 1 if k == 0 else None)
    with pytest.raises(CommandRejected, match="^rejected: not_bidder"):
        name_suit(ctx, game_id, (first + 1) % 4, "clubs")


def test_auction_an_unreadable_suit_is_refused_in_words(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    _state = state_of(ctx.engine, game_id)
    with pytest.raises(CommandRejected, match="^rejected: not_a_suit"):
        name_suit(ctx, game_id, 0, "trumps")


def test_auction_a_seat_of_someone_else_is_refused(ctx: Context) -> None:
    game_id = service_game(ctx, "auction")
    state = state_of(ctx.engine, game_id)
    first = (state.dealer + 1) % 4
    with pytest.raises(NotAllowed):
        bid(ctx, game_id, first, 1, player_id=-5)


@pytest.mark.parametrize("preset", ["cancellation", "domino", "domino-two"])
def test_variant_games_are_created_and_dealt(ctx: Context, preset: str) -> None:
    from pbem.engine import preset as rules_of

    players = rules_of(preset).players
    game_id = create_game(ctx, name=preset, preset=preset, players=[
        Invitee(f"v{n}@example.org", f"V {n}", accepted=True) for n in range(players)
    ]).game_id
    state = state_of(ctx.engine, game_id)
    assert state.phase is Phase.PLAY and len(state.to_move) == 1
