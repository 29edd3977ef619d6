"""The one move command: every channel (email link, private page, reply, robot, timeout) plays,
passes, bids, names the suit, chooses the moon or claims through `move`.

One transaction on the locked game, and in it, once for every channel:
- the staleness rule: a command made for this seat's turn N (its N-th decision, see
  `pbem.engine.asked`) is refused once the seat is past N, with a sentence saying what
  happened since;
- the repeat rule: unless it is the very move the seat made at N: then it is a no-op that
  says so (`Outcome.duplicate`).
The turn comes as `expected_turn` (a page shows the seat's turn number), or as `issued_seq`,
the game's seq when an email or deadline was issued (the turn is the seat's turn then).

`play_card`, `pass_cards`, ... are thin wrappers that build the engine command from what
people typed; their `turn_seq` is an `issued_seq`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.engine import (
    Bid,
    BidMade,
    Card,
    CardPlayed,
    CardsPassed,
    ChooseMoon,
    Claim,
    ClaimAccepted,
    Command,
    EndVoted,
    Event,
    GameState,
    HandDealt,
    MoonChosen,
    NameSuit,
    PassCards,
    Phase,
    PlayCard,
    Suit,
    SuitNamed,
    UnreadableInput,
    VoteEnd,
    acting_seat,
    moves_turn,
    parse_card,
    parse_cards,
    parse_suit,
    turn_before,
)
from pbem.service.core import (
    HOLDING,
    PLAYER,
    TIMEOUT,
    Context,
    Duplicate,
    Loaded,
    Outcome,
    decide_or_reject,
    events_since,
    logged_since,
    run,
)
from pbem.service.errors import CommandRejected, NotAllowed, PlayerMistake
from pbem.store.models import Seat


class Stale(PlayerMistake):
    """The command was for a turn of this seat that has passed: nothing changed.

    `why` says in a code what happened since (SINCE: "dealt", a new hand was dealt;
    "timeout", the deadline passed and a robot moved; "holding", the robot holding the seat
    moved; "played", "passed"... the player moved; "not_yet", the seat's turn hasn't come),
    for channels that word the refusal their own way (pbem.present.service_words); `made`:
    the seat's move that ended that turn (None: a deal did), and `by`: who made it (PLAYER;
    TIMEOUT, the deadline's robot; HOLDING, the robot holding an absent player's seat)."""

    def __init__(self, why: str, made: Event | None = None, by: str | None = None) -> None:
        super().__init__("stale", why=why)
        self.why = why
        self.made = made
        self.by = by


class EndsAtOnce(PlayerMistake):
    """A vote to end the game, by a channel that asks first (a one-word email), that would
    end it at once: the other seats are all robots, who agree straight away. Nothing changed:
    the player confirms with a deliberate act (their page's button)."""


def ends_at_once(state: GameState, seats: Sequence[Seat], seat: int) -> bool:
    """Would `seat` proposing to end the game end it at once? (No vote is open, and every
    other seat is a robot, which agrees as soon as one is: pbem.service.core.robot_votes; a
    robot holding an absent player's seat does not vote for them.)"""
    return not state.end_voters and not state.game_over \
        and all(s.is_bot for s in seats if s.seat_no != seat)


@dataclass(frozen=True)
class Turn:
    """Which turn of the seat a command was made for: its turn number, or the game's seq when
    the email, page or deadline was issued (the seat's turn at that seq)."""

    number: int | None = None
    issued_seq: int | None = None


def move(
    ctx: Context, game_id: int, command: Command, *, expected_turn: int | None = None,
    issued_seq: int | None = None, player_id: int | None = None, actor: str = PLAYER,
    ask_before_ending: bool = False,
) -> Outcome:
    """Make `command` (its seat is the mover) in one transaction; see the module docstring.

    `player_id`: the player asking, when known (the seat must be theirs); `actor`: who acts,
    recorded with the events (PLAYER, or ROBOT when a robot moves for the seat).
    `ask_before_ending`: a vote to end the game that would end it at once is refused with
    EndsAtOnce (nothing changes), for the channel to ask the player to confirm."""
    turn = Turn(expected_turn, issued_seq)
    vote = isinstance(command, VoteEnd)  # nobody's turn: whatever email or page it came from

    def step(g: Loaded) -> Sequence[Event] | Duplicate:
        if isinstance(command, VoteEnd):
            return vote_step(g, command, player_id, ask_before_ending)
        return move_step(g, command, turn, player_id)

    return run(ctx, game_id, step, statuses=("active", "finished") if vote else ("active",),
               actor=command.seat if actor == PLAYER else None, by=actor, planned=True)


def vote_step(g: Loaded, command: VoteEnd, player_id: int | None = None,
              ask_before_ending: bool = False) -> Sequence[Event] | Duplicate:
    """Seed 003's vote to end the game: no staleness (a vote is nobody's turn, so it may come
    from any email or page), but the repeat rule: a vote that is already so says so."""
    check_seat(g, command.seat, player_id)
    state = g.state
    if state.ended_by_agreement and command.agree:
        return Duplicate("ended_by_agreement")
    if state.game_over or g.game.status != "active":
        raise NotAllowed("game_finished")
    if command.agree and command.seat in state.end_voters:
        return Duplicate("already_agreed")
    if ask_before_ending and command.agree and ends_at_once(state, g.seats, command.seat):
        raise EndsAtOnce("ends_at_once")
    if not command.agree and not state.end_voters:
        return Duplicate("no_vote_open")
    return decide_or_reject(g, command)


def move_step(g: Loaded, command: Command, turn: Turn,
              player_id: int | None = None) -> Sequence[Event] | Duplicate:
    """The move inside its transaction: seat check, the one staleness and repeat rule, the
    engine's decision."""
    seat = command.seat
    check_seat(g, seat, player_id)
    wanted = _turn_number(g, seat, turn)
    if wanted is None:
        if already_done(g, command):
            return _done(command)
    elif wanted < g.state.turns[seat]:
        made, by = move_at(g, seat, wanted)
        if made is not None and same_move(made, command) and by not in ROBOTS_FOR_YOU:
            return _done(command)
        raise Stale(_since(made, by), None if isinstance(made, HandDealt) else made, by)
    elif wanted > g.state.turns[seat]:
        raise Stale("not_yet")
    return decide_or_reject(g, command)


def _turn_number(g: Loaded, seat: int, turn: Turn) -> int | None:
    if turn.number is not None:
        return turn.number
    if turn.issued_seq is None:
        return None
    if turn.issued_seq >= g.loaded.seq:
        return g.state.turns[seat]
    since = events_since(g, turn.issued_seq)
    return turn_before(g.state, seat, since)


def move_at(g: Loaded, seat: int, number: int) -> tuple[Event | None, str | None]:
    """The event that ended `seat`'s turn `number` (its decision then, or a deal) and who
    made it (the event log's actor). Searched from the end of the log, a window at a time (a
    stale command is nearly always recent)."""
    window = 64
    while True:
        after = max(0, g.loaded.seq - window)
        logged = logged_since(g, after)
        count = g.state.turns[seat]
        for event, by in reversed(logged):
            if moves_turn(event, seat):
                count -= 1
                if count == number:
                    return event, by
        if after == 0:
            return None, None
        window *= 4


def command_of(event: Event) -> Command:
    """The command that records as `event` (a robot's chosen move goes through `move` too)."""
    if isinstance(event, CardPlayed):
        return PlayCard(event.seat, event.card)
    if isinstance(event, CardsPassed):
        return PassCards(event.seat, event.cards)
    if isinstance(event, ClaimAccepted):
        return Claim(event.seat)
    if isinstance(event, BidMade):
        return Bid(event.seat, event.chips)
    if isinstance(event, SuitNamed):
        return NameSuit(event.seat, event.suit)
    if isinstance(event, MoonChosen):
        return ChooseMoon(event.seat, event.down)
    if isinstance(event, EndVoted):
        return VoteEnd(event.seat, event.agree)
    raise ValueError(f"{type(event).__name__} is no seat's move")


def is_stale(g: Loaded, seat: int, turn: Turn) -> bool:
    """Is the seat past the turn `turn` names (whatever it did then)?"""
    wanted = _turn_number(g, seat, turn)
    return wanted is not None and wanted != g.state.turns[seat]


def same_move(event: Event, command: Command) -> bool:
    """Is `event` the record of `command` (with two decks, either copy of a card)?"""
    if acting_seat(event) != command.seat:
        return False
    if isinstance(command, PlayCard):
        return isinstance(event, CardPlayed) and str(event.card) == str(command.card)
    if isinstance(command, PassCards):
        return isinstance(event, CardsPassed) and set(event.cards) == set(command.cards)
    if isinstance(command, Claim):
        return isinstance(event, ClaimAccepted)
    if isinstance(command, Bid):
        return isinstance(event, BidMade) and event.chips == command.chips
    if isinstance(command, NameSuit):
        return isinstance(event, SuitNamed) and event.suit == command.suit
    if isinstance(command, VoteEnd):
        return isinstance(event, EndVoted) and event.agree == command.agree
    return isinstance(event, MoonChosen) and event.down == command.down


def already_done(g: Loaded, command: Command) -> bool:
    """Without a turn: is the state proof that this very move was made (this hand)?"""
    state, seat = g.state, command.seat
    if isinstance(command, PlayCard):
        name = str(command.card)  # with two decks "QS" is either copy
        return name in {str(c) for c in _played_this_hand(g, seat)} \
            and not _holds_a_copy(g, seat, command.card)
    if isinstance(command, PassCards):
        return state.has_passed(seat) and set(state.passed_cards(seat)) == set(command.cards)
    if isinstance(command, Claim):
        return state.claimed_by == seat
    if isinstance(command, Bid):
        return _bid_made(g, seat, command.chips)
    if isinstance(command, NameSuit):
        return state.phase is not Phase.NAME_SUIT and state.bidder == seat \
            and state.avoid == command.suit
    return False


_SINCE = {CardPlayed: "played", CardsPassed: "passed", MoonChosen: "moon", ClaimAccepted:
          "claimed", BidMade: "bid", SuitNamed: "named"}  # else "moved"


# A move a robot made for the seat's player: the deadline's (TIMEOUT) or a held seat's.
ROBOTS_FOR_YOU = frozenset({TIMEOUT, HOLDING})


def _since(made: Event | None, by: str | None = None) -> str:
    """`Stale.why`: what ended the seat's turn."""
    if made is None or isinstance(made, HandDealt):
        return "dealt"
    if by == TIMEOUT:
        return "timeout"
    if by == HOLDING:
        return "holding"
    return _SINCE.get(type(made), "moved")


def _done(command: Command) -> Duplicate:
    """The same move again: what was done already."""
    if isinstance(command, PlayCard):
        return Duplicate("already_played", card=command.card)
    if isinstance(command, PassCards):
        return Duplicate("already_passed_cards")
    if isinstance(command, Claim):
        return Duplicate("claim_accepted")
    if isinstance(command, Bid):
        return Duplicate("bid_passed") if command.chips is None \
            else Duplicate("bid_recorded", chips=command.chips)
    if isinstance(command, NameSuit):
        return Duplicate("suit_named", suit=command.suit)
    return Duplicate("moon_recorded")


# --- the thin wrappers: commands from what people typed ----------------------------------

def play_card(
    ctx: Context, game_id: int, seat_no: int, card: Card | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    return move(ctx, game_id, PlayCard(seat_no, _card(card)), issued_seq=turn_seq,
                player_id=player_id)


def pass_cards(
    ctx: Context, game_id: int, seat_no: int, cards: Sequence[Card] | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    return move(ctx, game_id, PassCards(seat_no, _cards(cards)), issued_seq=turn_seq,
                player_id=player_id)


def claim(
    ctx: Context, game_id: int, seat_no: int, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    return move(ctx, game_id, Claim(seat_no), issued_seq=turn_seq, player_id=player_id)


def choose_moon(
    ctx: Context, game_id: int, seat_no: int, down: bool, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    return move(ctx, game_id, ChooseMoon(seat_no, down), issued_seq=turn_seq,
                player_id=player_id)


def bid(
    ctx: Context, game_id: int, seat_no: int, chips: int | None, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    """Auction Hearts: bid `chips` for the right to name the suit to avoid, or pass (None)."""
    return move(ctx, game_id, Bid(seat_no, chips), issued_seq=turn_seq, player_id=player_id)


def name_suit(
    ctx: Context, game_id: int, seat_no: int, suit: Suit | str, *,
    turn_seq: int | None = None, player_id: int | None = None,
) -> Outcome:
    """Auction Hearts: the winning bidder names the suit everyone must avoid this hand."""
    return move(ctx, game_id, NameSuit(seat_no, _suit(suit)), issued_seq=turn_seq,
                player_id=player_id)


# --- helpers ------------------------------------------------------------------------------

def check_seat(g: Loaded, seat_no: int, player_id: int | None) -> None:
    """The seat exists, and (when the caller knows who is asking) belongs to that player."""
    seat = g.seat(seat_no)
    if player_id is not None and (seat.player_id != player_id or seat.is_bot):
        raise NotAllowed("not_your_seat")


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return parse_card(card)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _cards(cards: Sequence[Card] | str) -> tuple[Card, ...]:
    if not isinstance(cards, str):
        return tuple(cards)
    try:
        return parse_cards(cards)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _suit(suit: Suit | str) -> Suit:
    if isinstance(suit, Suit):
        return suit
    try:
        return parse_suit(suit)
    except UnreadableInput as exc:
        raise CommandRejected(exc) from exc


def _bid_made(g: Loaded, seat_no: int, chips: int | None) -> bool:
    """Has this seat already made this very bid in the current hand's auction?"""
    state = g.state
    if state.phase not in (Phase.BID, Phase.NAME_SUIT, Phase.PLAY) or not state.bids:
        return False
    return state.bids[seat_no] == (chips or 0)  # 0: passed


def _holds_a_copy(g: Loaded, seat_no: int, card: Card) -> bool:
    """With two decks (Cancellation) a card played may still be held: its twin is a new move."""
    return bool(g.state.hands[seat_no] & (card.bit | card.twin.bit))


def _played_this_hand(g: Loaded, seat_no: int) -> set[Card]:
    tricks = (*g.state.tricks, g.state.current_trick)
    return {card for trick in tricks for seat, card in trick.plays if seat == seat_no}
