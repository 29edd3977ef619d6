"""Configuration from PBEM_* variables, the app factory, /healthz and the `pbem` CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient
from sqlalchemy import inspect

from pbem.app import create_app, db_engine
from pbem.cli import cli
from pbem.config import ConfigError
from pbem.engine import COMPILED
from pbem.store.models import metadata


def test_defaults_use_sqlite_in_the_instance_folder_and_keep_the_dev_secret(
    tmp_path: Path,
) -> None:
    instance = tmp_path / "inst"
    app = create_app({"INSTANCE_PATH": str(instance)})
    assert app.config["DATABASE_URL"] == f"sqlite:///{instance / 'pbem.sqlite3'}"
    assert app.config["BASE_URL"] == "http://127.0.0.1:5000"
    assert app.config["MAIL_DOMAIN"] == "127.0.0.1"
    assert app.config["SMTP_PORT"] == 1025 and app.config["SMTP_STARTTLS"] is False
    key = app.config["SECRET_KEY"]
    assert len(key) >= 32
    assert (instance / "secret_key").stat().st_mode & 0o077 == 0
    assert create_app({"INSTANCE_PATH": str(instance)}).config["SECRET_KEY"] == key


def test_environment_variables_configure_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("PBEM_BASE_URL", "https://hearts.example.org/")
    monkeypatch.setenv("PBEM_SMTP_HOST", "smtp.example.org")
    monkeypatch.setenv("PBEM_SMTP_PORT", "587")
    monkeypatch.setenv("PBEM_SMTP_STARTTLS", "true")
    monkeypatch.setenv("PBEM_DATABASE_URL", "postgresql://u@db/pbem")
    app = create_app()
    assert app.config["BASE_URL"] == "https://hearts.example.org"
    assert app.config["MAIL_DOMAIN"] == "hearts.example.org"
    assert app.config["MAIL_FROM"] == "Hearts <hearts@hearts.example.org>"
    assert (app.config["SMTP_HOST"], app.config["SMTP_PORT"]) == ("smtp.example.org", 587)
    assert app.config["SMTP_STARTTLS"] is True
    assert db_engine(app).url.drivername == "postgresql+psycopg"


def test_create_app_config_overrides_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "env.example")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "MAIL_DOMAIN": "given.example"})
    assert app.config["MAIL_DOMAIN"] == "given.example"


def test_production_refuses_to_start_without_a_secret_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_ENV", "production")
    for name, value in {"PBEM_BASE_URL": "https://hearts.example.org", "PBEM_SMTP_PORT": "25",
                        "PBEM_METRICS_TOKEN": "m" * 32,
                        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'chosen.sqlite3'}"}.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match="PBEM_SECRET_KEY"):
        create_app({"INSTANCE_PATH": str(tmp_path)})
    assert not (tmp_path / "secret_key").exists()
    monkeypatch.setenv("PBEM_SECRET_KEY", "s" * 40)
    assert create_app({"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"] == "s" * 40


def test_healthz_reports_a_reachable_database(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok", "database": "ok",
                             "engine": "compiled" if COMPILED else "pure"}


def test_db_upgrade_creates_the_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    app = create_app({"INSTANCE_PATH": str(tmp_path), "DATABASE_URL": url})
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert set(metadata.tables) <= set(inspect(db_engine(app)).get_table_names())


def test_the_pbem_command_lists_the_db_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0, result.output
    assert "db" in result.output
