"""The reference of benchmarks/link_moves.py: the transactional floor of any link move. A
minimal Flask view that looks up one row by a token (GET), and looks it up, inserts one event
row and commits (POST), on the same database as pbem, served by gunicorn under the same
configuration (`gunicorn -c deploy/gunicorn.conf.py benchmarks.floor_flask:app`).
"""

from __future__ import annotations

import hashlib
import os

from flask import Flask, abort, redirect
from sqlalchemy import Column, Integer, MetaData, String, Table, bindparam, insert, select
from werkzeug.wrappers import Response

from pbem.config import database_url
from pbem.store.db import make_engine

app = Flask("floor")
engine = make_engine(database_url(os.environ))
metadata = MetaData()
TOKENS = Table("token", metadata, Column("id", Integer, primary_key=True),
               Column("token_hash", String(64)))
EVENTS = Table("floor_event", metadata, Column("id", Integer, primary_key=True),
               Column("token_id", Integer), Column("payload", String(200)))
BY_HASH = select(TOKENS.c.id).where(TOKENS.c.token_hash == bindparam("h"))


def _token_id(token: str) -> int:
    with engine.connect() as conn:
        found = conn.execute(BY_HASH, {"h": hashlib.sha256(token.encode()).hexdigest()}).first()
    if found is None:
        abort(404)
    return int(found[0])


@app.get("/t/<token>")
def page(token: str) -> str:
    return f"<form method=post><input name=csrf_token value={_token_id(token)}></form>"


@app.post("/t/<token>")
def move(token: str) -> Response:
    with engine.begin() as conn:
        found = conn.execute(BY_HASH, {"h": hashlib.sha256(token.encode()).hexdigest()}).first()
        if found is None:
            abort(404)
        conn.execute(insert(EVENTS), {"token_id": found[0], "payload": '{"card": "QS"}'})
    return redirect(f"/t/{token}", code=303)


@app.get("/healthz")
def healthz() -> str:
    return "ok"
