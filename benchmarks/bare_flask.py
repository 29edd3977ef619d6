"""The reference of benchmarks/http_moves.py: a bare Flask view answering a move's POST as the
private page does (a 303 back to the page), with no work behind it. Served by gunicorn under
the same configuration as pbem (`gunicorn -c deploy/gunicorn.conf.py benchmarks.bare_flask:app`).
"""

from __future__ import annotations

from flask import Flask, redirect, request
from werkzeug.wrappers import Response

app = Flask("bare")


@app.post("/s/<token>/<verb>")
def move(token: str, verb: str) -> Response:
    request.form.get("card")  # the form is read, as the real view reads it
    return redirect(f"/s/{token}", code=303)


@app.get("/healthz")
def healthz() -> str:
    return "ok"
