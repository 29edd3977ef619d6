"""The catcher's pages: /mail lists caught messages (newest first), /mail/<id> shows one."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, render_template
from flask.typing import ResponseReturnValue

from pbem.devmail import mail_folder
from pbem.devmail.store import MailStore, body_parts

bp = Blueprint("devmail", __name__, url_prefix="/mail")
_HEAD = re.compile(r"<head[^>]*>", re.IGNORECASE)
BASE_TAG = '<base target="_top">'
SANDBOX = "allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"


def store() -> MailStore:
    return MailStore(mail_folder(current_app))


@bp.get("/")
@bp.get("")  # the first rule applied is the one url_for builds: /mail
def inbox() -> ResponseReturnValue:
    return render_template("devmail/list.html", mails=store().entries(),
                           folder=str(mail_folder(current_app)))


@bp.get("/<mail_id>")
def show(mail_id: str) -> ResponseReturnValue:
    mails = store()
    entry, msg = mails.get(mail_id), mails.message(mail_id)
    if entry is None or msg is None:
        abort(404)
    text, html = body_parts(msg)
    return render_template("devmail/show.html", mail=entry, msg=msg, text=text,
                           srcdoc=with_base_target(html) if html else None, sandbox=SANDBOX)


@bp.get("/<mail_id>/text")
def text_part(mail_id: str) -> ResponseReturnValue:
    msg = store().message(mail_id)
    if msg is None:
        abort(404)
    text, _html = body_parts(msg)
    return Response(text or "(no text part)", mimetype="text/plain")


@bp.get("/<mail_id>/raw")
def raw(mail_id: str) -> ResponseReturnValue:
    data = store().raw(mail_id)
    if data is None:
        abort(404)
    return Response(data, mimetype="text/plain")


def with_base_target(html: str) -> str:
    """Make links in the sandboxed email open in the whole window, not inside the iframe."""
    match = _HEAD.search(html)
    if match:
        return html[: match.end()] + BASE_TAG + html[match.end():]
    return BASE_TAG + html
