"""The app's database engine: the app factory keeps one on the Flask app; adapters ask here.

It lives with the store (not in pbem.app) so that web, mail in, mail out and the scheduler can
reach the engine without importing the app factory, which sits above them all in the layers.
"""

from __future__ import annotations

from flask import Flask, current_app
from sqlalchemy import Engine

ENGINE_EXTENSION = "pbem.db_engine"


def db_engine(app: Flask | None = None) -> Engine:
    """The app's SQLAlchemy engine (one per app; shared by requests and CLI commands)."""
    app = app or current_app
    engine: Engine = app.extensions[ENGINE_EXTENSION]
    return engine
