"""Scoring a hand from the cards each seat took: points, the moon, the Omnibus bonus and slam."""

from __future__ import annotations

from typing import Final

from pbem.engine.cards import (
    DECK_SIZE,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    TEN_OF_DIAMONDS,
)
from pbem.engine.rules import BonusCard, MoonRule, Rules

QS_BIT: Final = QUEEN_OF_SPADES.bit
BONUS_POINTS: Final = -10
# Both decks of Cancellation Hearts (the second copy of a card is its index + 52).
ALL_HEARTS: Final = HEARTS_MASK | HEARTS_MASK << DECK_SIZE
ALL_QS: Final = QS_BIT | QS_BIT << DECK_SIZE


def penalty_mask(rules: Rules) -> int:
    """Cards that score points against the taker: the hearts, and the QS when it is scored
    (both copies of each with two decks)."""
    if rules.decks == 2:
        return ALL_HEARTS | (ALL_QS if rules.queen_scores else 0)
    return HEARTS_MASK | (QS_BIT if rules.queen_scores else 0)


def bonus_bit(rules: Rules) -> int:
    if rules.bonus_card is BonusCard.JACK_OF_DIAMONDS:
        return JACK_OF_DIAMONDS.bit
    if rules.bonus_card is BonusCard.TEN_OF_DIAMONDS:
        return TEN_OF_DIAMONDS.bit
    return 0


def raw_points(rules: Rules, won: int) -> int:
    points = (won & ALL_HEARTS).bit_count()
    if rules.queen_scores and won & ALL_QS:
        points += 13 * (won & ALL_QS).bit_count()
    if won & bonus_bit(rules):
        points += BONUS_POINTS
    return points


def points_taken(rules: Rules, won: tuple[int, ...] | list[int]) -> list[int]:
    """`raw_points` of each seat's cards, the rules asked once."""
    queen, bonus = 13 if rules.queen_scores else 0, bonus_bit(rules)
    return [(mask & ALL_HEARTS).bit_count() + queen * (mask & ALL_QS).bit_count()
            + (BONUS_POINTS if mask & bonus else 0) for mask in won]


def find_shooter(rules: Rules, won: tuple[int, ...] | list[int], in_play: int) -> int:
    """The seat that took every penalty card in play, or -1 (always -1 when the moon is off)."""
    if rules.moon is MoonRule.NONE:
        return -1
    needed = penalty_mask(rules) & in_play
    if rules.moon_needs_bonus_card:
        needed |= bonus_bit(rules) & in_play  # seed 001 read literally: only the slam counts
    for seat, mask in enumerate(won):
        if mask & needed == needed:
            return seat
    return -1


def is_slam(rules: Rules, won: int) -> bool:
    """Omnibus with the TD: the shooter also took the ten of diamonds."""
    return rules.bonus_card is BonusCard.TEN_OF_DIAMONDS and bool(won & TEN_OF_DIAMONDS.bit)


def moon_needs_choice(rules: Rules, totals: tuple[int, ...] | list[int]) -> bool:
    if rules.moon is MoonRule.SHOOTER_CHOICE:
        return True
    if rules.moon is MoonRule.CHOICE_AT_74:
        return max(totals) >= rules.target - rules.moon_points
    return False


def automatic_moon_down(rules: Rules, shooter: int, totals: tuple[int, ...] | list[int],
                        bonus: list[int]) -> bool:
    """For rules without a choice: does the shooter go down (True) or the others up (False)?"""
    if rules.moon is MoonRule.SHOOTER_MINUS:
        return True
    if rules.moon is MoonRule.PROTECTION:
        return protection_applies(rules, shooter, totals, bonus)
    return False  # PROTECTION_CHOICE gets here only when protection doesn't apply


def protection_applies(rules: Rules, shooter: int, totals: tuple[int, ...] | list[int],
                       bonus: list[int]) -> bool:
    """Seed 002's shooter protection: would putting the others up end the game with the
    shooter not alone in first place?"""
    up = moon_points(rules, shooter, len(totals), bonus, down=False)
    after = [t + p for t, p in zip(totals, up, strict=True)]
    game_ends = max(after) >= rules.target
    return game_ends and any(t <= after[shooter] for s, t in enumerate(after) if s != shooter)


def moon_points(rules: Rules, shooter: int, seats: int, bonus: list[int], *,
                down: bool) -> list[int]:
    value = rules.moon_points
    if down:
        return [(-value if s == shooter else 0) + bonus[s] for s in range(seats)]
    return [(0 if s == shooter else value) + bonus[s] for s in range(seats)]


def slam_points(rules: Rules, shooter: int, seats: int) -> list[int]:
    return [-rules.moon_points if s == shooter else 0 for s in range(seats)]


def bonus_points(rules: Rules, won: tuple[int, ...] | list[int]) -> list[int]:
    bit = bonus_bit(rules)
    return [BONUS_POINTS if mask & bit else 0 for mask in won]
