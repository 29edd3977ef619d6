"""Rules: one frozen value holding every rule option of ../shared/RULES.md, with a JSON form."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import Enum, StrEnum
from typing import Any

from pbem.engine.cards import Card, list_in_words, parse_cards
from pbem.engine.errors import EventDecodeError, UnreadableInput


class OpeningLead(StrEnum):
    LOWEST_CLUB = "lowest_club"        # holder of the lowest club in play leads it (2C, or 3C)
    ANY_CLUB = "any_club"              # holder of the lowest club leads, any club
    LEFT_OF_DEALER = "left_of_dealer"  # player left of the dealer leads any card


class FirstTrickFallback(StrEnum):
    """Who holds nothing but point cards on a no-points first trick may play…"""

    ANY_POINT_CARD = "any_point_card"  # …any of them, the queen included
    HEART_NOT_QUEEN = "heart_not_queen"  # …a heart; the queen only if no heart is left


class OnlyHeartsAndQueenLead(StrEnum):
    """On lead, hearts unbroken, holding only hearts and the QS."""

    MUST_LEAD_QUEEN = "must_lead_queen"
    MAY_LEAD_HEART = "may_lead_heart"


class MoonRule(StrEnum):
    NONE = "none"                      # no moon: points count as taken
    OTHERS_PLUS = "others_plus"        # shooter 0, others +26
    SHOOTER_MINUS = "shooter_minus"    # shooter -26
    SHOOTER_CHOICE = "shooter_choice"  # shooter chooses
    CHOICE_AT_74 = "choice_at_74"      # others +26, shooter may go -26 when a score is >= target-26
    PROTECTION = "protection"          # others +26 unless that makes the shooter lose: then -26
    PROTECTION_CHOICE = "protection_choice"  # as protection, but the shooter is asked (002)


class BonusCard(StrEnum):
    NONE = "none"
    JACK_OF_DIAMONDS = "jack_of_diamonds"  # JD -10 (Omnibus)
    TEN_OF_DIAMONDS = "ten_of_diamonds"    # TD -10, all 15 counting cards: -26 (Omnibus slam)


class Ties(StrEnum):
    PLAY_ON = "play_on"
    SHARED = "shared"


class FirstDealer(StrEnum):
    RANDOM = "random"
    DRAW = "draw"


class Settlement(StrEnum):
    SCORE_SHEET = "score_sheet"
    PAIRWISE = "pairwise"        # net points between every pair, a player below zero paid double
    CHIPS = "chips"              # lowest scorer of each deal takes the pot
    SWEEPSTAKES = "sweepstakes"  # only a zero score takes the pot
    HOWELL = "howell"            # per heart pay (players-1), collect 13 - hearts
    AUCTION = "auction"          # Auction Hearts: the bid and a chip per card of the named suit


class Variant(StrEnum):
    """The whole variants of RULES.md that change more than options (each has its own fold)."""

    STANDARD = "standard"
    CANCELLATION = "cancellation"  # 7-10 players, two decks, cancelling cards, a widow
    DOMINO = "domino"              # 2-7 players, six cards each and a stock to draw from
    AUCTION = "auction"            # bid chips to name the suit to avoid


# Read at every deal: module constants, as the phases (see state.py).
_CANCELLATION, _DOMINO = Variant.CANCELLATION, Variant.DOMINO


class Cancels(StrEnum):
    """Cancellation Hearts: which cards in one trick cancel each other."""

    IDENTICAL = "identical"  # the two copies of the same card (common play)
    SAME_RANK = "same_rank"  # any two cards of the same rank (the text's words)


class KittyTo(StrEnum):
    FIRST_TRICK = "first_trick"
    LAST_TRICK = "last_trick"


LEFT, RIGHT, HOLD = 1, -1, 0


Problem = tuple[str, dict[str, Any]]


class RulesProblems(ValueError):
    """Rules that can't be played: `problems`, each a code and its data (never words)."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(code for code, _data in problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option. Defaults are the standard four-player game."""

    players: int = 4
    removed: tuple[Card, ...] = ()          # cards taken out so the deck divides evenly
    kitty: bool = False                     # keep all 52 and leave the extra cards as a kitty
    kitty_to: KittyTo = KittyTo.FIRST_TRICK
    pass_count: int = 3
    pass_cycle: tuple[int, ...] = (LEFT, RIGHT, 2, HOLD)  # seat offsets, hand by hand
    opening_lead: OpeningLead = OpeningLead.LOWEST_CLUB
    points_on_first_trick: bool = False
    first_trick_fallback: FirstTrickFallback = FirstTrickFallback.ANY_POINT_CARD
    hearts_must_be_broken: bool = True
    queen_breaks_hearts: bool = True
    # Seed 001: "Hearts may not be led until a heart or the queen of spades has been discarded":
    # only a discard (a card played on another suit's lead) breaks hearts, or a heart led by a
    # player who holds nothing else. The QS led, or played to a spade lead, breaks nothing.
    hearts_break_on_discard: bool = False
    only_hearts_and_queen_lead: OnlyHeartsAndQueenLead = OnlyHeartsAndQueenLead.MUST_LEAD_QUEEN
    forced_queen: bool = False
    # Seed 001's variant: "discard the QS at the first opportunity", i.e. only when void in the
    # suit led (seed 003's `forced_queen` also makes it fall under a higher spade).
    forced_queen_discard: bool = False
    moon: MoonRule = MoonRule.OTHERS_PLUS
    bonus_card: BonusCard = BonusCard.NONE
    # Seed 001's Omnibus read literally: with the TD as bonus card only the slam (all 15 counting
    # cards) is a moon; all 13 hearts and the QS without the TD score as taken.
    moon_needs_bonus_card: bool = False
    queen_scores: bool = True
    target: int = 100
    ties: Ties = Ties.PLAY_ON
    sinkhole_99: bool = False
    # Seed 003 §6: a claim that proves false costs the claimer 26 (others 0), or with three or
    # fewer tricks left gives the claimer the remaining points; otherwise it is just refused.
    claim_penalty: bool = False
    first_dealer: FirstDealer = FirstDealer.RANDOM
    settlement: Settlement = Settlement.SCORE_SHEET
    variant: Variant = Variant.STANDARD
    cancels: Cancels = Cancels.IDENTICAL   # Cancellation Hearts only

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RulesProblems(problems)

    def problems(self) -> list[Problem]:
        """Every reason these rules can't be played, all at once (so the rules page and
        `rules check` show them together), in a fixed order: the table, then a variant's own
        limits (where a variant other than Auction Hearts stops), then the options. Each a
        code and its data (pbem.present.refusals words them)."""
        found = self._table_problems()
        if self.variant is not Variant.STANDARD:
            found += self._variant_problems()
            if found or self.variant is not Variant.AUCTION:
                return found
        elif self.cancels is not Cancels.IDENTICAL:
            found.append(("cancels_outside_cancellation", {}))
        return found + self._option_problems()

    def _table_problems(self) -> list[Problem]:
        low, high = _PLAYERS[self.variant]
        return _broken((
            (not low <= self.players <= high,
             ("players_range", {"variant": self.variant.value, "low": low, "high": high})),
            (len(set(self.removed)) != len(self.removed), ("removed_twice", {})),
        ))

    def _option_problems(self) -> list[Problem]:
        """Options that don't go together in a one-deck game (standard or Auction Hearts)."""
        deck = 52 - len(self.removed)
        return _broken((
            (self.settlement is Settlement.AUCTION and self.variant is not Variant.AUCTION,
             ("auction_pot_outside_auction", {})),
            (not self.kitty and deck % self.players,
             ("deck_does_not_divide", {"deck": deck, "players": self.players})),
            (self.kitty and self.removed, ("kitty_keeps_all_cards", {})),
            (self.pass_count and any(abs(o) >= self.players for o in self.pass_cycle),
             ("pass_offset_too_large", {})),
            (self.pass_count * 2 > self.hand_size, ("too_many_passed", {})),
            (self.target < 1, ("target_not_positive", {})),
            (self.forced_queen and self.forced_queen_discard, ("two_forced_queen_rules", {})),
            (self.moon_needs_bonus_card and self.bonus_card is not BonusCard.TEN_OF_DIAMONDS,
             ("moon_needs_ten_of_diamonds", {})),
        ))

    def _variant_problems(self) -> list[Problem]:
        """What a variant's game doesn't have (a pass, a bonus card, a forced queen...) or
        has its own way (the lead, the settlement, Cancellation's widow)."""
        name = {"variant": self.variant.value}
        auction = self.variant is Variant.AUCTION
        return _broken((
            (self.pass_count, ("variant_has_no_pass", name)),
            (self.bonus_card is not BonusCard.NONE, ("variant_has_no_bonus_card", name)),
            (self.forced_queen or self.forced_queen_discard,
             ("variant_has_no_forced_queen", name)),
            (self.claim_penalty, ("claim_penalty_outside_standard", {})),
            (self.variant is not Variant.CANCELLATION and self.cancels is not Cancels.IDENTICAL,
             ("cancels_outside_cancellation", {})),
            (not auction and self.settlement is Settlement.AUCTION,
             ("auction_pot_outside_auction", {})),
            (auction and self.settlement is not Settlement.AUCTION, ("auction_settles_pot", {})),
            (auction and (self.queen_scores or self.moon is not MoonRule.NONE),
             ("auction_scores_named_suit", {})),
            (not auction and (self.removed or self.kitty), ("variant_whole_decks", name)),
            (not auction and self.opening_lead is not OpeningLead.LEFT_OF_DEALER,
             ("variant_left_of_dealer_leads", name)),
            (auction and self.opening_lead is not OpeningLead.LEFT_OF_DEALER,
             ("auction_bidder_leads", {})),
            (self.variant is Variant.CANCELLATION and self.kitty_to is not KittyTo.FIRST_TRICK,
             ("cancellation_widow_first_trick", {})),
            (self.target < 1, ("target_not_positive", {})),
        ))

    @property
    def decks(self) -> int:
        return 2 if self.variant is _CANCELLATION else 1

    @property
    def deck_size(self) -> int:
        return 52 * self.decks - len(self.removed)

    @property
    def hand_size(self) -> int:
        if self.variant is _DOMINO:
            return DOMINO_HAND
        return self.deck_size // self.players

    @property
    def kitty_size(self) -> int:
        """The kitty, the Cancellation widow, or the Domino stock."""
        return self.deck_size - self.hand_size * self.players

    @property
    def moon_points(self) -> int:
        return (13 + (13 if self.queen_scores else 0)) * self.decks

    def pass_offset(self, hand_number: int) -> int:
        if not self.pass_count or not self.pass_cycle:
            return HOLD
        return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.variant is Variant.STANDARD:
            del data["variant"]  # a standard game's stored rules stay as they were
        for key, default in _OMITTED_AT_DEFAULT.items():
            if data[key] == default:
                del data[key]  # options added later: older stored rules stay byte for byte
        data["removed"] = [str(c) for c in self.removed]
        data["pass_cycle"] = list(self.pass_cycle)
        for key, value in data.items():
            if isinstance(value, Enum):
                data[key] = value.value
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        known = {f.name: f for f in fields(Rules)}
        unknown = set(data) - set(known)
        if unknown:
            raise EventDecodeError("unknown_rule_options", options=sorted(unknown))
        kwargs: dict[str, Any] = {}
        try:
            for key, value in data.items():
                kwargs[key] = _decode_option(key, value)
            return Rules(**kwargs)
        except RulesProblems as exc:
            raise EventDecodeError("bad_rules", problems=exc.problems) from exc
        except (ValueError, TypeError, UnreadableInput) as exc:
            raise EventDecodeError("bad_rules", detail=str(exc)) from exc

    def replace(self, **changes: Any) -> Rules:
        return Rules.from_dict({**self.to_dict(), **_encode_changes(changes)})

    def facts(self) -> list[tuple[str, dict[str, Any]]]:
        """The rules as facts, a code and data per option a player reads about
        (pbem.present.rules_words.rules_sentences words them)."""
        from pbem.engine.describe import rules_facts

        return rules_facts(self)


_ENUM_FIELDS: dict[str, type[Enum]] = {
    "kitty_to": KittyTo, "opening_lead": OpeningLead, "first_trick_fallback": FirstTrickFallback,
    "only_hearts_and_queen_lead": OnlyHeartsAndQueenLead, "moon": MoonRule,
    "bonus_card": BonusCard, "ties": Ties, "first_dealer": FirstDealer,
    "settlement": Settlement, "variant": Variant, "cancels": Cancels,
}
DOMINO_HAND = 6
_PLAYERS = {Variant.STANDARD: (3, 7), Variant.CANCELLATION: (7, 10), Variant.DOMINO: (2, 7),
            Variant.AUCTION: (3, 7)}
MAX_PLAYERS = max(high for _, high in _PLAYERS.values())
_BOOL_FIELDS = {"kitty", "points_on_first_trick", "hearts_must_be_broken", "queen_breaks_hearts",
                "forced_queen", "queen_scores", "sinkhole_99", "hearts_break_on_discard",
                "forced_queen_discard", "moon_needs_bonus_card", "claim_penalty"}
# Options added after games were stored: left out of `to_dict` at their default.
_OMITTED_AT_DEFAULT: dict[str, Any] = {
    "cancels": Cancels.IDENTICAL, "hearts_break_on_discard": False,
    "forced_queen_discard": False, "moon_needs_bonus_card": False, "claim_penalty": False}
_INT_FIELDS = {"players", "pass_count", "target"}


def _broken(checks: tuple[tuple[object, Problem], ...]) -> list[Problem]:
    """The problems of the rule checks whose condition is true, in order: a table of checks
    reads more easily than a run of `if`s (all conditions are evaluated; they only read)."""
    return [problem for broken, problem in checks if broken]


def _decode_option(key: str, value: Any) -> Any:
    if key in _ENUM_FIELDS:
        return _ENUM_FIELDS[key](value)
    if key in _BOOL_FIELDS:
        if not isinstance(value, bool):
            raise TypeError(f"{key} must be true or false")
        return value
    if key in _INT_FIELDS:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{key} must be a whole number")
        return value
    if key == "removed":
        cards = parse_cards(" ".join(value)) if value else ()
        if [str(c) for c in cards] != list(value):
            raise ValueError("removed cards must be canonical, like 2D")
        return cards
    if key == "pass_cycle":
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise TypeError("pass_cycle must be whole numbers")
        return tuple(value)
    raise TypeError(f"no decoder for {key}")


def _encode_changes(changes: dict[str, Any]) -> dict[str, Any]:
    encoded: dict[str, Any] = {}
    for key, value in changes.items():
        if isinstance(value, Enum):
            value = value.value
        elif key == "removed":
            value = [str(c) for c in value]
        elif key == "pass_cycle":
            value = list(value)
        encoded[key] = value
    return encoded


def describe_offset(offset: int, players: int) -> str:
    if offset == HOLD:
        return "no pass (hold)"
    if players % 2 == 0 and abs(offset) == players // 2:
        return "across"
    side = "left" if offset > 0 else "right"
    return side if abs(offset) == 1 else f"{abs(offset)} to the {side}"


def removed_in_words(rules: Rules) -> str:
    return list_in_words([str(c) for c in rules.removed])
