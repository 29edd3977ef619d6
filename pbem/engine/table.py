"""The fold's working copy: a mutable table that applies events and knows the one legality check.

`apply` and `replay` (in fold.py) thaw a GameState into a Table, apply events and freeze it again,
so callers only ever see immutable states; the table is also what bots and the claim search use.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import add
from typing import Final, Self, cast

from pbem.engine.cards import (
    BIT_AT,
    DECK_SIZE,
    DOUBLE_DECK_MASK,
    DOUBLE_DECK_SIZE,
    FULL_DECK_MASK,
    SUIT_MASKS,
    Card,
    Suit,
    mask_of,
)
from pbem.engine.errors import IllegalMove, NotYourTurn, WrongPhase
from pbem.engine.events import (
    BidMade,
    CardPlayed,
    CardsPassed,
    ClaimAccepted,
    ClaimFailed,
    EndVoted,
    Event,
    GameCreated,
    HandDealt,
    MoonChosen,
    SuitNamed,
)
from pbem.engine.rules import (
    MAX_PLAYERS,
    FirstTrickFallback,
    KittyTo,
    MoonRule,
    OnlyHeartsAndQueenLead,
    OpeningLead,
    Rules,
    Ties,
)
from pbem.engine.scoring import (
    ALL_HEARTS,
    QS_BIT,
    automatic_moon_down,
    bonus_points,
    find_shooter,
    is_slam,
    moon_needs_choice,
    moon_points,
    penalty_mask,
    points_taken,
    protection_applies,
    slam_points,
)
from pbem.engine.state import (
    DEAL,
    GAME_OVER,
    MOON_CHOICE,
    PASS,
    PLAY,
    GameState,
    HandResult,
    Phase,
    Trick,
    new_result,
    new_state,
)
from pbem.engine.values import mypyc_attr

# The events that record a seat's own decision (a draw is the engine's, not the seat's).
DECISION_EVENTS: Final = (CardPlayed, CardsPassed, BidMade, SuitNamed, MoonChosen, ClaimAccepted)
_DECISION_KINDS: Final = frozenset(DECISION_EVENTS)
CLUBS_MASK: Final = SUIT_MASKS[Suit.CLUBS]
# Suit masks by `index // 13`: entries 4..7 serve the second deck of Cancellation Hearts, and
# every entry holds both copies of its suit.
FOLLOW_MASKS: Final[tuple[int, ...]] = tuple(SUIT_MASKS[k % 4] | SUIT_MASKS[k % 4] << DECK_SIZE
                                      for k in range(8))
# The same for one deck (every table but Cancellation's, whose methods return both decks'):
# a mask of both decks is past 63 bits, a long int, and every `&` with one makes another.
ONE_DECK_FOLLOW: Final[tuple[int, ...]] = tuple(SUIT_MASKS[k % 4] for k in range(8))
ONE_DECK_HEARTS: Final = ALL_HEARTS & FULL_DECK_MASK
SPADES: Final = int(Suit.SPADES)
# The phase asked at every card, as `Final`: compiled code reads it from a static, where a name
# imported from a Python module is looked up in the globals at each call.
_PLAY: Final = PLAY
QS_INDEX: Final = QS_BIT.bit_length() - 1


@mypyc_attr(acyclic=True, free_list_len=1)  # as GameState (state.py)
class Table:
    """Mutable mirror of GameState. Only fold.py, bots and searches should hold one."""

    __slots__ = (
        "rules", "seats", "first_dealer", "hand_number", "dealer", "phase", "hands", "passed",
        "trick", "leader", "turn", "tricks", "won", "hearts_broken", "kitty", "in_play",
        "totals", "sheet", "moon_shooter", "winners", "claimed_by", "turns", "end_votes",
        "penalty", "simulating", "decided", "asked_legal",
    )

    def __init__(self, created: GameCreated | None = None) -> None:
        """A new game's table; without `created`, an empty one for `thaw` and `clone` to load
        (compiled by mypyc, a table can't be made without calling its `__init__`)."""
        # The card play `decide` last checked against the state this table was frozen into
        # (kept for its questions): `apply` plays that very event without checking it again.
        # A cache, never part of the value; a clone starts without one.
        self.decided: CardPlayed | None = None
        # A kept table's `legal_mask` of the seat to play, once asked (-1: not yet): see
        # `asked_legal_mask`. A cache, never part of the value; a clone starts without one.
        self.asked_legal = -1
        if created is None:
            return
        n = created.seats
        self.rules: Rules = created.rules
        self.seats = n
        self.first_dealer = created.first_dealer
        self.hand_number = 1
        self.dealer = created.first_dealer
        self.phase = DEAL
        self.hands = [0] * n
        self.passed: tuple[int, ...] = (-1,) * n
        self.trick: list[tuple[int, int]] = []
        self.leader = self.turn = (created.first_dealer + 1) % n
        self.tricks: tuple[Trick, ...] = ()
        self.won = [0] * n
        self.hearts_broken = False
        self.kitty = self.in_play = 0
        # The fields changed a whole at a time are tuples, which clones share (copy-on-write).
        self.totals: tuple[int, ...] = (0,) * n
        self.sheet: tuple[HandResult, ...] = ()
        self.moon_shooter = -1
        self.winners: tuple[int, ...] = ()
        self.claimed_by = -1
        self.turns = [0] * n
        self.end_votes = 0
        self.penalty = penalty_mask(self.rules)
        self.simulating = False

    # --- freezing and thawing ------------------------------------------------------------
    @classmethod
    def thaw(cls, state: GameState) -> Self:
        table = cls()
        table.penalty = penalty_mask(state.rules)  # before `load`, which a variant may set it in
        table.simulating = False
        table.load(state)
        if not table.turns:  # a state built by hand, not by the fold
            table.turns = [0] * state.seats
        return table

    def clone(self) -> Self:
        if type(self) is Table:  # (a variant's table loads its own fields too)
            return cast(Self, self._standard_clone())
        copy = type(self)()
        copy.load(self)
        copy.penalty, copy.simulating = self.penalty, self.simulating
        return copy

    def _standard_clone(self) -> Table:
        """A standard table's copy, made by a native call, every field read natively (`load`
        takes a state too: compiled, it reads each of its fields as a Python attribute)."""
        copy = Table()
        copy.rules, copy.seats, copy.first_dealer = self.rules, self.seats, self.first_dealer
        copy.hand_number, copy.dealer, copy.phase = self.hand_number, self.dealer, self.phase
        copy.hands, copy.passed = self.hands[:], self.passed
        copy.trick, copy.leader, copy.turn = self.trick[:], self.leader, self.turn
        copy.tricks, copy.won = self.tricks, self.won[:]
        copy.hearts_broken, copy.kitty, copy.in_play = self.hearts_broken, self.kitty, self.in_play
        copy.totals, copy.sheet = self.totals, self.sheet
        copy.moon_shooter, copy.winners = self.moon_shooter, self.winners
        copy.claimed_by, copy.turns = self.claimed_by, self.turns[:]
        copy.end_votes, copy.penalty, copy.simulating = (self.end_votes, self.penalty,
                                                         self.simulating)
        return copy

    def load(self, source: GameState | Self) -> None:
        """Take every field of a state (or of another table), with lists of its own for what
        the fold changes in place. A variant's table loads its own fields too."""
        self.rules, self.seats, self.first_dealer = source.rules, source.seats, source.first_dealer
        self.hand_number, self.dealer, self.phase = source.hand_number, source.dealer, source.phase
        self.hands, self.passed = list(source.hands), source.passed
        self.trick, self.leader, self.turn = list(source.trick), source.leader, source.turn
        self.tricks, self.won = source.tricks, list(source.won)
        self.hearts_broken, self.kitty, self.in_play = (source.hearts_broken, source.kitty,
                                                         source.in_play)
        self.totals, self.sheet = source.totals, source.sheet
        self.moon_shooter, self.winners = source.moon_shooter, source.winners
        self.claimed_by, self.turns = source.claimed_by, list(source.turns)
        self.end_votes = source.end_votes

    def freeze(self) -> GameState:
        return new_state(
            self.rules, self.seats, self.first_dealer, self.hand_number, self.dealer, self.phase,
            tuple(self.hands), tuple(self.passed), tuple(self.trick), self.leader, self.turn,
            tuple(self.tricks), tuple(self.won), self.hearts_broken, self.kitty, self.in_play,
            tuple(self.totals), tuple(self.sheet), self.moon_shooter, self.winners,
            self.claimed_by, turns=tuple(self.turns), end_votes=self.end_votes,
            **self.variant_fields())

    def variant_fields(self) -> dict[str, object]:
        """A variant's own GameState fields (carry, stock, bids...): its table overrides this."""
        return {}

    # --- applying events -----------------------------------------------------------------
    def apply(self, event: Event) -> None:
        kind = type(event)
        if kind is HandDealt:  # (no seat: a missing attribute's error is costly to make)
            self.deal(event.cards)  # type: ignore[union-attr]
            self.turns = [t + 1 for t in self.turns]  # a new hand: every seat's turn moves on
            return
        if kind is GameCreated:
            raise WrongPhase("already_created")
        seat = getattr(event, "seat", 0)
        if not 0 <= seat < self.seats:
            raise NotYourTurn("no_such_seat", seat=seat)
        if kind is CardPlayed:  # most events: first, on its own
            self.play(seat, event.card.index)  # type: ignore[union-attr]
            self.turns[seat] += 1
            return
        if kind is CardsPassed:  # the next most frequent (one a seat a hand): inline too
            self.pass_cards(seat, mask_of(event.cards))  # type: ignore[union-attr]
            self.turns[seat] += 1
            return
        self._apply_seat_event(kind, seat, event)

    def _apply_seat_event(self, kind: type[Event], seat: int, event: Event) -> None:
        """A seat's rarer event (the moon, a claim, a vote, a variant's): apart from `apply`
        so that its frequent events stay short and read at a glance."""
        if kind is MoonChosen:
            self.choose_moon(seat, event.down)  # type: ignore[union-attr]
        elif kind is ClaimAccepted:
            self.claim(seat)
        elif kind is ClaimFailed:
            self.false_claim(seat)
        elif kind is EndVoted:
            self.vote_end(seat, event.agree)  # type: ignore[union-attr]
        else:
            self.apply_variant(event)
        if kind in _DECISION_KINDS:  # applied without error: the seat's turn moves on
            self.turns[seat] += 1

    def apply_trusted(self, events: Iterable[Event]) -> None:
        """Apply a stored log's events, which were checked when they were appended: a card
        play skips the phase, turn and legality checks (the rest go through `apply`). Never
        for commands or anything a player sent: `apply` is the checked path."""
        n, turns, hands, trick = self.seats, self.turns, self.hands, self.trick
        breakers = self._heart_breakers()
        for event in events:
            if type(event) is not CardPlayed:
                if trick:
                    self.turn = (trick[-1][0] + 1) % n
                self.apply(event)  # a deal, pass, claim...: new lists, new breakers
                turns, hands, trick = self.turns, self.hands, self.trick
                breakers = self._heart_breakers()
                continue
            seat, card = event.seat, event.card
            index, bit = card.index, card.bit
            hands[seat] ^= bit
            trick.append(_PAIRS[seat][index])
            turns[seat] += 1
            if bit & breakers and not self.hearts_broken and self._breaks_hearts(bit):
                self.hearts_broken = True
            if len(trick) == n:
                self._finish_trick()  # sets the turn
                trick = self.trick
        if trick:
            self.turn = (trick[-1][0] + 1) % n

    def play_trusted(self, seat: int, index: int) -> None:
        """A card play `decide` has just checked against this very position: `play` without
        the checks, the seat's turn moved on as `apply` does."""
        bit = BIT_AT[index]
        self.hands[seat] ^= bit
        self.trick.append(_PAIRS[seat][index])
        self.turns[seat] += 1
        if not self.hearts_broken and bit & self._heart_breakers() and self._breaks_hearts(bit):
            self.hearts_broken = True
        if len(self.trick) == self.seats:
            self._finish_trick()
        else:
            self.turn = (seat + 1) % self.seats

    def apply_variant(self, event: Event) -> None:
        """The events only a whole variant knows (draws, bids, the named suit)."""
        raise WrongPhase("event_out_of_place", event=type(event).__name__)

    def deal(self, cards: tuple[Card, ...]) -> None:
        self._require(DEAL, "already_dealt")
        deck, n, per = deck_mask(self.rules), self.seats, self.rules.hand_size
        dealt, first = per * n, self.dealer + 1
        # Card k goes to seat (dealer + 1 + k) % n: each seat's cards are a slice. With every
        # card different, adding the bits is or-ing them.
        bits, hands = [card.bit for card in cards], [0] * n
        for k in range(n):
            hands[(first + k) % n] = sum(bits[k:dealt:n])
        kitty = sum(bits[dealt:])
        if not _every_card_once(cards, hands, kitty, deck):
            raise IllegalMove("bad_deal")
        self.hands, self.kitty = hands, kitty
        self.in_play = deck
        self.passed = (-1,) * n
        self.trick, self.tricks, self.won = [], (), [0] * n
        self.hearts_broken, self.moon_shooter, self.claimed_by = False, -1, -1
        if self.rules.pass_offset(self.hand_number):
            self.phase = PASS
        else:
            self._start_play()

    def pass_cards(self, seat: int, mask: int) -> None:
        self._require(PASS, "passing_over")
        if self.passed[seat] >= 0:
            raise IllegalMove("already_passed_hand")
        if mask.bit_count() != self.rules.pass_count or mask & ~self.hands[seat]:
            raise IllegalMove("pass_own_cards", count=self.rules.pass_count)
        self.hands[seat] &= ~mask
        self.passed = (*self.passed[:seat], mask, *self.passed[seat + 1:])
        if min(self.passed) >= 0:
            offset = self.rules.pass_offset(self.hand_number)
            for s in range(self.seats):
                self.hands[(s + offset) % self.seats] |= self.passed[s]
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.turn = self._opening_leader()

    def _opening_leader(self) -> int:
        if self.rules.opening_lead is not OpeningLead.LEFT_OF_DEALER:
            clubs = 0
            for hand in self.hands:
                clubs |= hand
            lowest = clubs & CLUBS_MASK & -(clubs & CLUBS_MASK)  # the lowest club dealt
            if lowest:
                return next(s for s, hand in enumerate(self.hands) if hand & lowest)
        return (self.dealer + 1) % self.seats

    def play(self, seat: int, index: int) -> None:
        self._lay(seat, index)
        if len(self.trick) == self.seats:
            self._finish_trick()
        else:
            self.turn = (seat + 1) % self.seats

    def _lay(self, seat: int, index: int) -> None:
        """Check and put one card on the trick (every variant's play starts here)."""
        if self.phase is not _PLAY:
            raise WrongPhase("not_play_time")
        if seat != self.turn:
            raise NotYourTurn("not_your_turn_play", waiting=self.turn)
        bit, hand = BIT_AT[index], self.hands[seat]
        if not self._legal(hand) & bit:
            raise IllegalMove("cannot_play_now", card=Card.from_index(index))
        self.hands[seat] = hand ^ bit
        self.trick.append(_PAIRS[seat][index])
        if not self.hearts_broken and self._breaks_hearts(bit):
            self.hearts_broken = True

    def _breaks_hearts(self, bit: int) -> bool:
        """Called with the card already on the trick."""
        breaker = bit & self._hearts() or (bit & self._queens() and self.rules.queen_breaks_hearts)
        if not breaker or not self.rules.hearts_break_on_discard:
            return bool(breaker)
        # Seed 001: only a discard breaks them; a heart led (its player held nothing else)
        # shows hearts are open too. The QS led or on a spade lead is not a discard.
        if len(self.trick) == 1:
            return bool(bit & self._hearts())
        led = self.trick[0][1] % DECK_SIZE // 13
        return (bit.bit_length() - 1) % DECK_SIZE // 13 != led

    def _heart_breakers(self) -> int:
        """The cards that may break hearts (`_breaks_hearts` is False for every other)."""
        return self._hearts() | self._queens()

    def _hearts(self) -> int:
        """Every heart of the deck (of both decks at Cancellation's table)."""
        return ONE_DECK_HEARTS

    def _queens(self) -> int:
        """The queen of spades (both at Cancellation's table)."""
        return QS_BIT

    def _follow_masks(self) -> tuple[int, ...]:
        """The cards of each suit by `index // 13` (both decks' at Cancellation's table)."""
        return ONE_DECK_FOLLOW

    def _finish_trick(self) -> None:
        winner, best = self.trick[0]
        led, mask, plays = best // 13, 0, []
        for seat, index in self.trick:  # `trick_winner` and `trick_plays` in one pass
            mask |= BIT_AT[index]
            plays.append(_PLAYS[seat][index])
            if index > best and index // 13 == led:
                winner, best = seat, index
        if self.kitty and not self.tricks and self.rules.kitty_to is KittyTo.FIRST_TRICK:
            mask |= self.kitty
            self.kitty = 0
        self.won[winner] |= mask
        self.tricks += (Trick(self.leader, tuple(plays), winner),)
        self.trick = []
        self.leader = self.turn = winner
        if not self.hands[winner]:
            self.won[winner] |= self.kitty  # a kitty for the last trick
            self.kitty = 0
            self._end_hand()

    def claim(self, seat: int) -> None:
        self._require(PLAY, "nothing_to_claim")
        rest = self.kitty
        for s in range(self.seats):
            rest |= self.hands[s]
            self.hands[s] = 0
        for _, index in self.trick:
            rest |= 1 << index
        self.won[seat] |= rest
        self.kitty, self.trick, self.claimed_by = 0, [], seat
        self._end_hand()

    def false_claim(self, seat: int) -> None:
        """Seed 003 §6: "If this claim is false, the claimer is charged 26 points, like a
        renege" (the others 0); "for any of the last three tricks ... this player will get the
        remaining points"; and "a false claim ... cannot stop" a run already made."""
        if not self.rules.claim_penalty:
            raise IllegalMove("no_claim_penalty")
        needed = self.penalty & self.in_play
        run = any(s != seat and won & needed == needed for s, won in enumerate(self.won))
        if self.rules.hand_size - len(self.tricks) <= 3 or run:
            self.claim(seat)
            return
        self._require(PLAY, "nothing_to_claim")
        self.hands = [0] * self.seats
        self.kitty, self.trick, self.claimed_by = 0, [], seat
        points = [self.rules.moon_points if s == seat else 0 for s in range(self.seats)]
        if self.simulating:
            self.phase = DEAL
            return
        self._record(points, None, None, False, false_claim=True)

    def vote_end(self, seat: int, agree: bool) -> None:
        """Seed 003: "a game can be terminated earlier by agreement" (and "must be played to
        completion unless all players agree otherwise"). A vote to play on closes the vote;
        when every seat agrees, the game ends with the totals of the hands completed (a hand
        in progress is not scored) and the lowest total wins; with no hand completed nobody
        wins (issue 37: no scores, no winner, as every page and email says)."""
        if self.phase is GAME_OVER:
            raise WrongPhase("game_over")
        if not agree:
            if not self.end_votes:
                raise IllegalMove("no_vote_open")
            self.end_votes = 0
            return
        if self.end_votes >> seat & 1:
            raise IllegalMove("already_voted_end")
        self.end_votes |= 1 << seat
        if self.end_votes == (1 << self.seats) - 1:
            low = min(self.totals)
            self.winners = tuple(s for s, t in enumerate(self.totals) if t == low) \
                if self.sheet else ()
            self.phase = GAME_OVER

    def _end_hand(self) -> None:
        if self.simulating:
            self.phase = DEAL
            return
        shooter = find_shooter(self.rules, self.won, self.in_play)
        if shooter < 0:
            self._record(points_taken(self.rules, self.won), None, None, False)
        elif is_slam(self.rules, self.won[shooter]):
            self._record(slam_points(self.rules, shooter, self.seats), shooter, None, True)
        elif moon_needs_choice(self.rules, self.totals) or self._protection_asked(shooter):
            self.phase, self.moon_shooter = MOON_CHOICE, shooter
        else:
            bonus = bonus_points(self.rules, self.won)
            down = automatic_moon_down(self.rules, shooter, self.totals, bonus)
            self._record(moon_points(self.rules, shooter, self.seats, bonus, down=down),
                         shooter, down, False)

    def _protection_asked(self, shooter: int) -> bool:
        """Seed 002's "the Shooter may choose": asked only when protection applies."""
        return self.rules.moon is MoonRule.PROTECTION_CHOICE and protection_applies(
            self.rules, shooter, self.totals, bonus_points(self.rules, self.won))

    def choose_moon(self, seat: int, down: bool) -> None:
        self._require(MOON_CHOICE, "no_moon_shot")
        if seat != self.moon_shooter:
            raise NotYourTurn("not_moon_shooter")
        bonus = bonus_points(self.rules, self.won)
        self._record(moon_points(self.rules, seat, self.seats, bonus, down=down), seat, down, False)

    def _record(self, points: list[int], moon: int | None, down: bool | None, slam: bool,
                false_claim: bool = False) -> None:
        if len(points) != len(self.totals):
            raise ValueError("one number of points per seat")
        totals = tuple(map(add, self.totals, points))
        if self.rules.sinkhole_99:
            totals = tuple([0 if t == 99 else t for t in totals])
        self.totals = totals
        every_heart = self._hearts()
        hearts = tuple([(m & every_heart).bit_count() for m in self.won])
        claimed = self.claimed_by if self.claimed_by >= 0 else None
        self.sheet += (new_result(self.hand_number, self.dealer, tuple(points), totals,
                                  moon, down, slam, hearts, claimed, false_claim),)
        self.moon_shooter = -1
        if self._game_ends():
            self.phase = GAME_OVER
        else:
            self.phase = DEAL
            self.hand_number += 1
            self.dealer = (self.dealer + 1) % self.seats

    def _game_ends(self) -> bool:
        if max(self.totals) < self.rules.target:
            return False
        low = min(self.totals)
        self.winners = tuple(s for s, t in enumerate(self.totals) if t == low)
        if len(self.winners) > 1 and self.rules.ties is Ties.PLAY_ON:
            self.winners = ()
            return False
        return True

    def _require(self, phase: Phase, code: str) -> None:
        if self.phase is not phase:
            raise WrongPhase(code)

    # --- the one legality check ----------------------------------------------------------
    def legal_mask(self, seat: int) -> int:
        if self.phase is not _PLAY or seat != self.turn:
            return 0
        return self._legal(self.hands[seat])

    def asked_legal_mask(self, seat: int) -> int:
        """`legal_mask` of a table kept by a state (one never changed again: `kept_state`),
        remembered: `legal_cards` and `decide` both ask it of the same position."""
        if self.phase is not _PLAY or seat != self.turn:
            return 0
        if self.asked_legal < 0:
            self.asked_legal = self._legal(self.hands[seat])
        return self.asked_legal

    def _legal(self, hand: int) -> int:
        """The legal cards of `hand`, the hand of the seat to play."""
        trick = self.trick
        if trick:  # most plays follow suit: answered here, before any other question
            follow = hand & self._follow_masks()[trick[0][1] // 13]
            if follow and not self.rules.forced_queen:
                return follow
            return self._follow_mask(hand, not self.tricks)
        return self._lead_mask(hand, not self.tricks)

    def _lead_mask(self, hand: int, first: bool) -> int:
        rules = self.rules
        if first and rules.opening_lead is not OpeningLead.LEFT_OF_DEALER and hand & CLUBS_MASK:
            clubs = hand & CLUBS_MASK
            return clubs & -clubs if rules.opening_lead is OpeningLead.LOWEST_CLUB else clubs
        mask = self._no_points(hand) if first and not rules.points_on_first_trick else hand
        if rules.hearts_must_be_broken and not self.hearts_broken:
            others = mask & ~self._hearts()
            if others and not others & ~self._queens() and (rules.only_hearts_and_queen_lead
                                                    is OnlyHeartsAndQueenLead.MAY_LEAD_HEART):
                return mask
            if others:
                return others
        return mask

    def _follow_mask(self, hand: int, first: bool) -> int:
        led = self.trick[0][1] // 13
        follow = hand & self._follow_masks()[led]
        if follow:
            if (self.rules.forced_queen and follow & QS_BIT and led == SPADES
                    and self._winning_index() > QS_INDEX):
                return QS_BIT
            return follow
        mask = self._no_points(hand) if first and not self.rules.points_on_first_trick else hand
        if (self.rules.forced_queen or self.rules.forced_queen_discard) and mask & QS_BIT:
            return QS_BIT
        return mask

    def _no_points(self, hand: int) -> int:
        safe = hand & ~self.penalty
        if safe:
            return safe
        fallback = self.rules.first_trick_fallback
        if fallback is FirstTrickFallback.HEART_NOT_QUEEN and hand & self._hearts():
            return hand & self._hearts()
        return hand

    def _winning_index(self) -> int:
        return trick_winner(self.trick)[2] if self.trick else -1


def _every_card_once(cards: tuple[Card, ...], hands: list[int], kitty: int, deck: int) -> bool:
    """Whether `cards`, added up into `hands` and `kitty`, hold every card of `deck` once: as
    many bits set as cards (a card twice would carry into another bit, or share one) and
    together exactly the deck."""
    parts = [*hands, kitty]
    union = 0
    for part in parts:
        union |= part
    return (len(cards) == deck.bit_count() == sum(map(int.bit_count, parts))
            and union == deck)


def deck_mask(rules: Rules) -> int:
    """Every card a deal of these rules holds."""
    if rules.decks == 2:
        return DOUBLE_DECK_MASK
    return FULL_DECK_MASK & ~mask_of(rules.removed) if rules.removed else FULL_DECK_MASK


def trick_winner(plays: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(winning seat, mask of the trick's cards, winning card index)."""
    led = plays[0][1] // 13
    best_seat, best, mask = plays[0][0], plays[0][1], 0
    for seat, index in plays:
        mask |= 1 << index
        if index > best and index // 13 == led:
            best_seat, best = seat, index
    return best_seat, mask, best


# (seat, card index) and (seat, Card) for every seat and card index: a trick on the table and
# a finished trick's plays are made of these.
_PAIRS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((seat, i) for i in range(DOUBLE_DECK_SIZE)) for seat in range(MAX_PLAYERS))
_PLAYS: Final[tuple[tuple[tuple[int, Card], ...], ...]] = tuple(
    tuple((seat, Card.from_index(i)) for i in range(DOUBLE_DECK_SIZE))
    for seat in range(MAX_PLAYERS))


def trick_plays(plays: list[tuple[int, int]]) -> tuple[tuple[int, Card], ...]:
    """A trick's plays as (seat, Card), from the table's (seat, card index)."""
    return tuple([_PLAYS[seat][index] for seat, index in plays])


def kept_state(table: Table) -> GameState:
    """The state of `table`, keeping it for its questions: the same value as `table.freeze()`,
    and the caller must never change `table` again. A standard table's state is made here:
    compiled, a native call that stores each field (see GameState)."""
    state = _standard_state(table) if type(table) is Table else table.freeze()
    state._keep(table)
    return state


def _standard_state(table: Table) -> GameState:
    """`table.freeze()` of a standard table (no variant's fields), every field read natively."""
    return GameState(
        table.rules, table.seats, table.first_dealer, table.hand_number, table.dealer,
        table.phase, tuple(table.hands), table.passed, tuple(table.trick), table.leader,
        table.turn, table.tricks, tuple(table.won), table.hearts_broken, table.kitty,
        table.in_play, table.totals, table.sheet, table.moon_shooter, table.winners,
        table.claimed_by, turns=tuple(table.turns), end_votes=table.end_votes)
