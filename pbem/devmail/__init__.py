"""The development mail catcher: an SMTP server that keeps every message and a /mail page.

Only for development: `pbem.app` registers the blueprint when PBEM_ENV is `development`.
"""

from __future__ import annotations

from pathlib import Path

from flask import Flask

FOLDER_NAME = "caught-mail"


def mail_folder(app: Flask) -> Path:
    """Where caught mail lives: `DEVMAIL_FOLDER`, else `caught-mail/` in the instance folder."""
    folder = app.config.get("DEVMAIL_FOLDER")
    return Path(folder) if folder else Path(app.config["INSTANCE_PATH"]) / FOLDER_NAME


def register(app: Flask) -> None:
    """Add the /mail pages to a development app (never call this in production)."""
    if app.config.get("PBEM_ENV") != "development":
        raise RuntimeError("the mail catcher pages are for development only")
    from pbem.devmail.web import bp

    app.register_blueprint(bp)
