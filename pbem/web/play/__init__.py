"""The play pages, one module per job, all on one blueprint (`play`): the one-time links from
the emails (`links`), the public pages (`public`) and a player's private view (`seat`)."""

from pbem.web.play import links, public, seat
from pbem.web.play.common import bp, check_csrf
from pbem.web.play.links import claim_link, release_link
from pbem.web.play.seat import load_seat

__all__ = ["bp", "check_csrf", "claim_link", "links", "load_seat", "public", "release_link",
           "seat"]
