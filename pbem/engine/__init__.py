"""The pure Hearts rules engine: cards, rules, events, the fold, decisions and views.

No I/O and no randomness: the service records chance (the deal) as events. See docs/engine.md.
"""

from pbem.engine import table
from pbem.engine.asked import (
    Ask,
    Asked,
    acting_seat,
    asked,
    command_kind,
    decision_seat,
    moves_turn,
    turn_before,
)
from pbem.engine.cards import (
    ALL_CARDS,
    Card,
    Suit,
    format_cards,
    list_in_words,
    parse_card,
    parse_cards,
    parse_suit,
    sort_cards,
)
from pbem.engine.claims import claim_holds, claims_allowed
from pbem.engine.decide import (
    Bid,
    ChooseMoon,
    Claim,
    Command,
    NameSuit,
    PassCards,
    PlayCard,
    VoteEnd,
    decide,
    drawn_cards,
    forced_events,
    phase_facts,
)
from pbem.engine.describe import differences
from pbem.engine.errors import (
    EngineError,
    EventDecodeError,
    IllegalMove,
    NotYourTurn,
    UnreadableInput,
    WrongPhase,
)
from pbem.engine.events import (
    BidMade,
    CardPlayed,
    CardsDrawn,
    CardsPassed,
    ClaimAccepted,
    ClaimFailed,
    EndVoted,
    Event,
    GameCreated,
    HandDealt,
    MoonChosen,
    SuitNamed,
    decode_event,
    encode_event,
    event_type,
)
from pbem.engine.fold import (
    apply,
    apply_all,
    apply_all_trusted,
    dealer_from_draw,
    legal_cards,
    replay,
    replay_json,
    replay_trusted,
    restore,
    snapshot,
    start,
)
from pbem.engine.presets import ALL_PRESETS, PRESETS, VARIANT_PRESETS, Preset, preset
from pbem.engine.rules import (
    HOLD,
    BonusCard,
    Cancels,
    FirstDealer,
    FirstTrickFallback,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Rules,
    RulesProblems,
    Settlement,
    Ties,
    Variant,
    describe_offset,
)
from pbem.engine.settlement import SettlementResult, settlement
from pbem.engine.state import GameState, HandResult, Phase, Trick
from pbem.engine.table import Table
from pbem.engine.variants import deck_cards, thaw
from pbem.engine.variants.cancellation import cancelled_in_trick, nobody_could_win
from pbem.engine.views import SeatView, seat_view

ENGINE_VERSION = "1"
# Whether the modules compiled by mypyc run (see setup.py and pbem/__init__.py) or the pure
# Python: the same rules either way.
COMPILED: bool = table.__file__ is not None and not table.__file__.endswith(".py")

__all__ = [
    "ALL_CARDS", "ENGINE_VERSION", "PRESETS", "BonusCard", "Card", "CardPlayed", "CardsPassed",
    "ChooseMoon", "Claim", "ClaimAccepted", "Command", "EngineError", "Event", "EventDecodeError",
    "FirstDealer", "FirstTrickFallback", "GameCreated", "GameState", "HandDealt", "HandResult",
    "IllegalMove", "KittyTo", "MoonChosen", "MoonRule", "NotYourTurn", "OnlyHeartsAndQueenLead",
    "OpeningLead", "PassCards", "Phase", "PlayCard", "Preset", "Rules", "RulesProblems",
    "SeatView", "Settlement",
    "SettlementResult", "Suit", "Ties", "Trick", "UnreadableInput", "WrongPhase", "apply",
    "apply_all", "apply_all_trusted", "claim_holds", "dealer_from_draw", "decide",
    "decode_event", "describe_offset", "differences", "HOLD",
    "encode_event", "event_type", "forced_events", "format_cards", "legal_cards",
    "list_in_words", "parse_card", "parse_cards", "parse_suit", "phase_facts", "preset",
    "replay",
    "replay_json", "replay_trusted", "restore", "seat_view", "settlement", "snapshot",
    "sort_cards", "start",
    # the whole variants
    "ALL_PRESETS", "VARIANT_PRESETS", "Bid", "BidMade", "Cancels", "CardsDrawn", "NameSuit",
    "SuitNamed", "Variant", "deck_cards", "drawn_cards",
    # for the presenters
    "cancelled_in_trick", "claims_allowed", "nobody_could_win",
    # what a seat is asked now
    "Ask", "Asked", "asked", "command_kind", "decision_seat", "moves_turn", "turn_before",
    # seed 003's claim penalty, and its end by agreement
    "ClaimFailed", "EndVoted", "VoteEnd", "acting_seat",
    # searches (the strong robot): a mutable working copy of a state
    "Table", "thaw",
    # whether the engine runs compiled by mypyc (see setup.py)
    "COMPILED",
]
