"""WSGI entry point for gunicorn: `gunicorn pbem.wsgi:app`."""

from pbem.app import create_app

app = create_app()
