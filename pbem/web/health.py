"""Liveness/readiness check for load balancers and the deploy scripts."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from sqlalchemy import text

from pbem.engine import COMPILED
from pbem.store.app_engine import db_engine

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    try:
        with db_engine().connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any DB failure means "not ready"
        return jsonify(status="error", database=type(exc).__name__), 503
    # engine: compiled by mypyc or its pure Python (see setup.py)
    return jsonify(status="ok", database="ok", engine="compiled" if COMPILED else "pure")
