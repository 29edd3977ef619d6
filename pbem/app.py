"""The Flask application factory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response
from sqlalchemy import Engine

from pbem import config as pbem_config
from pbem.resources import resource_dir
from pbem.service.core import Wiring, wire
from pbem.store.app_engine import ENGINE_EXTENSION
from pbem.store.app_engine import db_engine as db_engine  # re-exported: pbem.app.db_engine
from pbem.store.db import make_engine

TEMPLATE_FOLDER = resource_dir("templates")


def create_app(config: Mapping[str, Any] | None = None, *, serving: bool = True) -> Flask:
    """Build the app: environment variables, then `config` overrides (Flask config keys).

    `serving=False`: an app for a one-shot command that serves no requests (`pbem ingest`,
    which an MTA starts for every message): its settings and database only, without the
    pages, security, metrics and the other commands, whose imports cost most of its start."""
    overrides = dict(config or {})
    instance_path = (
        overrides.get("INSTANCE_PATH") or os.environ.get("PBEM_INSTANCE_PATH") or None
    )
    app = Flask(
        "pbem",
        instance_path=str(Path(instance_path).resolve()) if instance_path else None,
        template_folder=str(TEMPLATE_FOLDER),
    )
    settings = pbem_config.from_environment(os.environ)
    settings.update(overrides)
    app.config.update(pbem_config.resolve(settings, app.instance_path))
    app.extensions[ENGINE_EXTENSION] = make_engine(app.config["DATABASE_URL"])
    wire_mail(app.extensions[ENGINE_EXTENSION], app.config)
    if serving:
        init_serving(app)
    return app


# Behaviour switches of the service's commands (pbem.service.core `Wiring`): a config key, else
# its PBEM_* environment variable, else off (production: the worker does both).
#   MAIL_NOW: a command works its emails out in its own transaction (tests: the outbox rows
#     are there when it returns), instead of leaving its mail job to the worker;
#   ROBOTS_NOW: strong robots move within the command, instead of in the worker's robot pass.
SWITCHES = ("MAIL_NOW", "ROBOTS_NOW")


def wire_mail(engine: Engine, config: Mapping[str, Any] | None = None) -> None:
    """The one place the service is wired to the mail layer: the contexts made on `engine`
    tell people by email (pbem.mail.notifier), with the switches above."""
    from pbem.mail.notifier import MailNotifier

    on = {key: switch(key, config or {}) for key in SWITCHES}
    wire(engine, Wiring(MailNotifier(), mail_now=on["MAIL_NOW"], robots_now=on["ROBOTS_NOW"]))


def switch(key: str, config: Mapping[str, Any]) -> bool:
    value = config.get(key, os.environ.get(f"PBEM_{key}", ""))
    return value if isinstance(value, bool) else pbem_config.parse_bool(str(value or "0"))


def init_serving(app: Flask) -> None:
    """Requests (ids, security, the pages, metrics) and the command line."""
    from pbem.security import init_security, limit_strictly
    from pbem.web.errors import init_error_pages
    from pbem.web.faces import install_faces
    from pbem.web.i18n import init_language

    init_request_ids(app)
    init_language(app)
    install_faces(app)
    init_security(app)
    init_error_pages(app)  # before the blueprints: the `int` converter of their routes
    register_blueprints(app)
    limit_strictly(app)
    from pbem.metrics import init_metrics

    init_metrics(app, app.extensions[ENGINE_EXTENSION])
    from pbem.cli import register_commands
    from pbem.scheduler.backfill import backfill_url
    from pbem.store.cli import AFTER_UPGRADE

    app.extensions[AFTER_UPGRADE] = backfill_url
    register_commands(app.cli)


def init_request_ids(app: Flask) -> None:
    """Each request gets an id (the proxy's X-Request-ID or a new one) for its log lines,
    sent back in the response so a player's report can be found in the logs."""
    from flask import g, request

    from pbem.logs import incoming_request_id

    @app.before_request
    def take_request_id() -> None:
        g.request_id = incoming_request_id(request.headers.get("X-Request-ID"))

    @app.after_request
    def give_request_id(response: Response) -> Response:
        response.headers.setdefault("X-Request-ID", str(g.get("request_id", "")))
        return response


def register_blueprints(app: Flask) -> None:
    from pbem.mailin.webhook import bp as inbound_webhook
    from pbem.web import blueprints

    for bp in blueprints():
        app.register_blueprint(bp)
    app.register_blueprint(inbound_webhook)  # mail in by a provider's webhook: POST /inbound
    if app.config["PBEM_ENV"] == "development":  # the mail catcher's pages: never in production
        from pbem.devmail import register as register_devmail

        register_devmail(app)
