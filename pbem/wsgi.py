"""WSGI entry point for gunicorn: `gunicorn pbem.wsgi:app` (logging set up for the web)."""

from pbem.app import create_app
from pbem.logs import setup_logging

app = create_app()
setup_logging(app.config, process="web")
