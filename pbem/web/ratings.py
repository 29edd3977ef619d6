"""The leaderboard (/leaderboard: display names only, the rule in words) and a signed-in
player's choice to leave it or come back (POST /me/leaderboard)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.present.i18n import _
from pbem.service import ratings
from pbem.store.app_engine import db_engine
from pbem.web.play import check_csrf
from pbem.web.signedin import sign_in_again, signed_in_player

bp = Blueprint("ratings", __name__)


@bp.get("/leaderboard")
def leaderboard() -> ResponseReturnValue:
    return render_template("web/leaderboard.html", rows=ratings.leaderboard(db_engine()),
                           min_own=ratings.MIN_OWN_DECISIONS,
                           robot_share=round(ratings.MAX_ROBOT_SHARE * 100),
                           together=ratings.MAX_TOGETHER, together_days=ratings.TOGETHER_DAYS)


@bp.post("/me/leaderboard")
def choose() -> ResponseReturnValue:
    player = signed_in_player()
    if player is None or player.id is None:  # signed out while /me was open
        return sign_in_again(url_for("accounts.me"),
                             _("leave the leaderboard or come back to it"))
    check_csrf()
    on = request.form.get("on") == "1"
    ratings.set_on_leaderboard(db_engine(), player.id, on)
    flash(_("You are on the leaderboard again.") if on else
          _("You left the leaderboard: your rating is still kept, and shown only to you."))
    return redirect(url_for("accounts.me"), code=303)
