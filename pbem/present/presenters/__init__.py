"""One presenter per variant, chosen here and nowhere else from the game's rules.

Adding a variant's words: subclass `Presenter` in a module of its own and list it in
`PRESENTERS`; emails and pages pick it up through `presenter(rules)`.
"""

from __future__ import annotations

from pbem.engine import Rules, Variant
from pbem.present.presenters.auction import AuctionPresenter
from pbem.present.presenters.base import PLAYING, Presenter
from pbem.present.presenters.cancellation import CancellationPresenter
from pbem.present.presenters.domino import DominoPresenter

PRESENTERS: dict[Variant, type[Presenter]] = {
    Variant.STANDARD: Presenter, Variant.AUCTION: AuctionPresenter,
    Variant.DOMINO: DominoPresenter, Variant.CANCELLATION: CancellationPresenter,
}


def presenter(rules: Rules) -> Presenter:
    """The presenter of these rules' variant."""
    return PRESENTERS[rules.variant](rules)


__all__ = ["PLAYING", "PRESENTERS", "Presenter", "presenter"]
