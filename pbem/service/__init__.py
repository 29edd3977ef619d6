"""The service layer: one function per command, each in one transaction.

    ctx = Context(engine=db_engine(app))            # rng/clock injectable for tests
    out = move(ctx, game_id, PlayCard(seat_no, card), issued_seq=token.turn_seq)
    out.duplicate  # True when it had been done already (nothing changed)

Player mistakes raise PlayerMistake subclasses carrying a code and its data (the words:
pbem.present.service_words `explain`). What the commands make happen is told through
`ctx.notifier` (pbem.service.notices).
"""

from pbem.dealing import make_rng
from pbem.service.core import (
    FORCED,
    HOLDING,
    PLAYER,
    ROBOT,
    TIMEOUT,
    Context,
    Known,
    Outcome,
    Wiring,
    advance,
    take_seat_back,
    wire,
)
from pbem.service.errors import (
    BadRequest,
    CommandRejected,
    NotAllowed,
    NotFound,
    NotOrganiser,
    PlayerMistake,
    ServiceError,
    SomeoneMovedFirst,
)
from pbem.service.games import (
    UNDER_WAY,
    Invitee,
    accept_invite,
    create_game,
    decline_invite,
    make_rules,
    replace_seat,
    resign,
)
from pbem.service.moves import (
    EndsAtOnce,
    Stale,
    bid,
    choose_moon,
    claim,
    move,
    name_suit,
    pass_cards,
    play_card,
)
from pbem.service.notices import Notice, Notifier, NullNotifier, RecordingNotifier
from pbem.service.robotturns import (
    games_awaiting_robots,
    games_left_to_robots,
    games_to_play,
    play_robot_turns,
)
from pbem.service.time import away_dates, clear_away, nudge, resume_game, set_away
from pbem.service.timeouts import timeout_move

__all__ = [
    "BadRequest", "CommandRejected", "Context", "Invitee", "Known", "NotAllowed", "NotFound",
    "Outcome",
    "NotOrganiser", "PlayerMistake", "ServiceError", "SomeoneMovedFirst", "accept_invite",
    "advance", "bid", "choose_moon",
    "claim", "create_game", "decline_invite", "make_rng", "make_rules", "name_suit",
    "pass_cards", "play_card", "replace_seat", "resign", "UNDER_WAY",
    "away_dates", "clear_away", "nudge", "resume_game", "set_away", "take_seat_back",
    "timeout_move", "games_left_to_robots", "games_to_play", "play_robot_turns",
    "games_awaiting_robots",
    "Notice", "Notifier", "NullNotifier", "RecordingNotifier", "Wiring", "wire",
    "move", "Stale", "EndsAtOnce", "PLAYER", "TIMEOUT", "HOLDING", "ROBOT", "FORCED",
]
