"""WSGI entry point for gunicorn: `gunicorn pbem.wsgi:app` (logging set up for the web).

deploy/gunicorn.conf.py preloads it in gunicorn's master, so a web worker, and each one that
replaces a recycled worker, starts from the loaded app by fork instead of importing it anew
(~0.85 s CPU each); `forked` is what each such worker does first."""

from pbem.app import create_app
from pbem.logs import setup_logging
from pbem.store.app_engine import db_engine
from pbem.web import compile_page_templates

app = create_app()
setup_logging(app.config, process="web")
compile_page_templates(app)  # once, in the master: its workers are forked with them compiled


def forked() -> None:
    """In a new web worker: no database connection of the master's is shared (the master opens
    none; this makes sure, as SQLAlchemy's pooling docs advise for forks)."""
    db_engine(app).dispose(close=False)
