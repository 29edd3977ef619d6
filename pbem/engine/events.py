"""Events: frozen facts of a game, with a versioned JSON form and a strict decoder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.engine.cards import BY_CODE, Card, Suit
from pbem.engine.errors import EventDecodeError, UnreadableInput
from pbem.engine.rules import Rules
from pbem.engine.values import constructed_fast

EVENT_VERSION = 1


@dataclass(frozen=True, slots=True)
class GameCreated:
    rules: Rules
    seats: int
    first_dealer: int
    dealer_draw: tuple[Card, ...] = ()  # with FirstDealer.DRAW: the card each seat drew


# The events of every hand are built by `constructed_fast` (values.py), as the commands are: a
# fraction of the cost of the frozen dataclass's own `__init__` (CardPlayed is native).
@constructed_fast
@dataclass(frozen=True, slots=True)
class HandDealt:
    """The shuffled deck in order: card k goes to seat (dealer + 1 + k) % n; the rest is kitty
    (the Cancellation widow; the Domino stock, top first)."""

    cards: tuple[Card, ...]


@constructed_fast
@dataclass(frozen=True, slots=True)
class CardsPassed:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class CardPlayed:
    """The event of every card: a native class where mypyc compiles this module, as PlayCard
    (decide.py) is, the frozen dataclass its decorator makes of it either way."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: Card) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "card", card)

    def __reduce__(self) -> tuple[type[CardPlayed], tuple[int, Card]]:
        return CardPlayed, (self.seat, self.card)  # (a frozen native value has no setstate)


@dataclass(frozen=True, slots=True)
class MoonChosen:
    seat: int
    down: bool  # True: the shooter goes down 26; False: everyone else goes up 26


@dataclass(frozen=True, slots=True)
class ClaimAccepted:
    seat: int


@dataclass(frozen=True, slots=True)
class ClaimFailed:
    """Seed 003 §6 (rules with `claim_penalty`): `seat` claimed tricks it could lose. With more
    than three tricks left it is charged 26 and the others 0; with three or fewer it takes the
    remaining points. Either way the hand ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Domino Hearts: `seat` could not follow and drew the top `count` cards of the stock."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class BidMade:
    """Auction Hearts: `seat` bid `chips` for naming the suit, or passed (None)."""

    seat: int
    chips: int | None


@dataclass(frozen=True, slots=True)
class SuitNamed:
    """Auction Hearts: the winning bidder named the suit to avoid."""

    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class EndVoted:
    """Seed 003: "a game can be terminated earlier by agreement". `seat` votes to end the game
    now with the current scores (`agree`; the first such vote opens the vote) or to play on
    (which closes the vote). The game ends when every seat has agreed."""

    seat: int
    agree: bool


Event = (GameCreated | HandDealt | CardsPassed | CardPlayed | MoonChosen | ClaimAccepted
         | CardsDrawn | BidMade | SuitNamed | ClaimFailed | EndVoted)


EVENT_TYPES: dict[type[Any], str] = {
    GameCreated: "game_created", HandDealt: "hand_dealt", CardsPassed: "cards_passed",
    CardPlayed: "card_played", MoonChosen: "moon_chosen", ClaimAccepted: "claim_accepted",
    CardsDrawn: "cards_drawn", BidMade: "bid_made", SuitNamed: "suit_named",
    ClaimFailed: "claim_failed", EndVoted: "end_voted",
}


def event_type(event: Event) -> str:
    return EVENT_TYPES[type(event)]


def encode_event(event: Event) -> dict[str, Any]:
    """The event's JSON form: ``{"type": ..., "v": 1, ...fields}``."""
    body: dict[str, Any] = {"type": event_type(event), "v": EVENT_VERSION}
    if isinstance(event, GameCreated):
        body.update(rules=event.rules.to_dict(), seats=event.seats,
                    first_dealer=event.first_dealer,
                    dealer_draw=[c.code for c in event.dealer_draw])
    elif isinstance(event, HandDealt):
        body["cards"] = [c.code for c in event.cards]
    elif isinstance(event, CardsPassed):
        body.update(seat=event.seat, cards=[c.code for c in event.cards])
    elif isinstance(event, CardPlayed):
        body.update(seat=event.seat, card=event.card.code)
    elif isinstance(event, MoonChosen):
        body.update(seat=event.seat, down=event.down)
    elif isinstance(event, CardsDrawn):
        body.update(seat=event.seat, count=event.count)
    elif isinstance(event, BidMade):
        body.update(seat=event.seat, chips=event.chips)
    elif isinstance(event, SuitNamed):
        body.update(seat=event.seat, suit=event.suit.letter)
    elif isinstance(event, EndVoted):
        body.update(seat=event.seat, agree=event.agree)
    else:
        body["seat"] = event.seat
    return body


def decode_event(data: Any) -> Event:
    """Rebuild an event from its JSON form; EventDecodeError for anything unknown or malformed."""
    played = _card_played(data)  # most of a log: the same checks, made in one go
    if played is not None:
        return played
    if not isinstance(data, dict):
        raise EventDecodeError("event_not_object")
    kind, version = data.get("type"), data.get("v")
    if kind not in _DECODERS:
        raise EventDecodeError("unknown_event_type", kind=kind)
    if version not in range(1, EVENT_VERSION + 1) or not _whole(version):
        raise EventDecodeError("event_version", kind=kind, version=version)
    decoder, keys = _DECODERS[kind]
    present = set(data) - {"type", "v"}
    if present - keys or (keys - present) - _OPTIONAL:
        raise EventDecodeError("event_fields", kind=kind, expected=sorted(keys),
                               got=sorted(present))
    try:
        return decoder(data)
    except (UnreadableInput, TypeError, ValueError, KeyError) as exc:
        raise EventDecodeError("malformed_event", kind=kind, detail=str(exc)) from exc


def _card_played(data: Any) -> CardPlayed | None:
    """A well-formed card_played payload's event, or None for anything else (which the full
    decoder then answers): exactly the keys type, v, seat and card, v 1, a canonical card code
    and a non-negative whole seat."""
    if type(data) is not dict or len(data) != 4 or data.get("type") != "card_played":
        return None
    code, seat, version = data.get("card"), data.get("seat"), data.get("v")
    if type(code) is not str or type(seat) is not int or type(version) is not int:
        return None
    card = BY_CODE.get(code)
    if card is None or seat < 0 or version != EVENT_VERSION:
        return None
    return CardPlayed(seat, card)


_OPTIONAL = {"dealer_draw"}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat(data: dict[str, Any]) -> int:
    seat = data["seat"]
    if not _whole(seat) or seat < 0:
        raise TypeError("seat must be a non-negative whole number")
    return int(seat)


def _card_list(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("cards must be a list of strings")
    try:
        return tuple(map(BY_CODE.__getitem__, value))
    except KeyError:
        return tuple(_strict_card(v) for v in value)  # names the card that is not canonical


def _strict_card(text: str) -> Card:
    card = BY_CODE.get(text)
    if card is None:
        raise ValueError(f"{text!r} is not a canonical card")
    return card


def _game_created(d: dict[str, Any]) -> Event:
    seats, dealer = d["seats"], d["first_dealer"]
    if not _whole(seats) or not _whole(dealer) or not 0 <= dealer < seats:
        raise ValueError("seats and first_dealer must be whole numbers, dealer < seats")
    rules = Rules.from_dict(d["rules"])
    if rules.players != seats:
        raise ValueError("seats does not match the rules' player count")
    return GameCreated(rules, seats, dealer, _card_list(d.get("dealer_draw", [])))


def _moon(d: dict[str, Any]) -> Event:
    if not isinstance(d["down"], bool):
        raise TypeError("down must be true or false")
    return MoonChosen(_seat(d), d["down"])


def _end_voted(d: dict[str, Any]) -> Event:
    if not isinstance(d["agree"], bool):
        raise TypeError("agree must be true or false")
    return EndVoted(_seat(d), d["agree"])


def _played(d: dict[str, Any]) -> Event:
    if not isinstance(d["card"], str):
        raise TypeError("card must be a string")
    return CardPlayed(_seat(d), _strict_card(d["card"]))


def _drawn(d: dict[str, Any]) -> Event:
    count = d["count"]
    if not _whole(count) or count < 1:
        raise ValueError("count must be a whole number of at least 1")
    return CardsDrawn(_seat(d), int(count))


def _bid(d: dict[str, Any]) -> Event:
    chips = d["chips"]
    if chips is not None and (not _whole(chips) or chips < 1):
        raise ValueError("chips must be null (a pass) or a whole number of at least 1")
    return BidMade(_seat(d), chips)


def _named(d: dict[str, Any]) -> Event:
    letter = d["suit"]
    if not isinstance(letter, str) or len(letter) != 1 or letter not in "CDHS":
        raise ValueError("suit must be one of C, D, H, S")
    return SuitNamed(_seat(d), Suit("CDHS".index(letter)))


_DECODERS: dict[str, tuple[Callable[[dict[str, Any]], Event], set[str]]] = {
    "game_created": (_game_created, {"rules", "seats", "first_dealer", "dealer_draw"}),
    "hand_dealt": (lambda d: HandDealt(_card_list(d["cards"])), {"cards"}),
    "cards_passed": (lambda d: CardsPassed(_seat(d), _card_list(d["cards"])), {"seat", "cards"}),
    "card_played": (_played, {"seat", "card"}),
    "moon_chosen": (_moon, {"seat", "down"}),
    "claim_accepted": (lambda d: ClaimAccepted(_seat(d)), {"seat"}),
    "claim_failed": (lambda d: ClaimFailed(_seat(d)), {"seat"}),
    "cards_drawn": (_drawn, {"seat", "count"}),
    "bid_made": (_bid, {"seat", "chips"}),
    "suit_named": (_named, {"seat", "suit"}),
    "end_voted": (_end_voted, {"seat", "agree"}),
}
