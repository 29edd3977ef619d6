"""PBEM_ENV=production refuses unsafe settings, naming all of them; `pbem check` prints the
same list; `pbem -e FILE` reads settings from an env file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.app import create_app
from pbem.config import ConfigError

REPO = Path(__file__).resolve().parents[2]
UNSAFE = {"PBEM_ENV": "production", "PBEM_SECRET_KEY": "short",
          "PBEM_BASE_URL": "http://localhost:8000", "PBEM_SMTP_PORT": "1025"}
SAFE = {"PBEM_ENV": "production", "PBEM_SECRET_KEY": "k" * 32,
        "PBEM_BASE_URL": "https://hearts.example.org", "PBEM_SMTP_PORT": "587",
        "PBEM_DATABASE_URL": "postgresql+psycopg://pbem@db/pbem",
        "PBEM_METRICS_TOKEN": "m" * 32}
EVERY_PROBLEM = ("PBEM_SECRET_KEY", "https://", "points at this machine", "PBEM_SMTP_PORT",
                 "PBEM_DATABASE_URL is not set", "PBEM_METRICS_TOKEN is not set")


def test_production_refuses_to_start_listing_every_problem_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in UNSAFE.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as refused:
        create_app({"INSTANCE_PATH": str(tmp_path)})
    assert all(part in str(refused.value) for part in EVERY_PROBLEM)


def test_production_starts_with_safe_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SAFE.items():
        monkeypatch.setenv(name, value)
    assert create_app({"INSTANCE_PATH": str(tmp_path)}).config["PBEM_ENV"] == "production"


def test_sqlite_is_accepted_in_production_when_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in SAFE.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{tmp_path / 'chosen.sqlite3'}")
    assert create_app({"INSTANCE_PATH": str(tmp_path)}).config["PBEM_ENV"] == "production"


def _pbem(tmp_path: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    base["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "pbem", *args], cwd=tmp_path, text=True,
                          capture_output=True, env={**base, **env}, timeout=60)


def test_pbem_check_prints_the_same_list_and_fails(tmp_path: Path) -> None:
    result = _pbem(tmp_path, "check", env=UNSAFE)
    assert result.returncode == 1
    assert all(part in result.stdout for part in EVERY_PROBLEM)
    assert "6 problems" in result.stdout


@pytest.mark.parametrize(("bind", "proxies", "refused"), [
    ("0.0.0.0:8000", "0", True), ("[::]:8000", "0", True), ("hearts.example.org:80", "0", True),
    ("127.0.0.1:8000", "1", True), ("127.0.0.1:8000", "0", False),
    ("10.1.2.3:8000", "0", False), ("unix:/run/pbem.sock", "0", False)])
def test_production_needs_a_metrics_token_unless_metrics_are_private(
        tmp_path: Path, bind: str, proxies: str, refused: bool) -> None:
    """Issue 38.10: /metrics is not left open to the internet: `pbem check` says so, and
    production refuses to start (a token, or a private bind with no proxy forwarding)."""
    env = {**SAFE, "PBEM_METRICS_TOKEN": "", "PBEM_BIND": bind, "PBEM_PROXIES": proxies}
    result = _pbem(tmp_path, "check", env=env)
    assert (result.returncode == 1) == refused, result.stdout
    assert ("PBEM_METRICS_TOKEN is not set and /metrics is public" in result.stdout) == refused


def test_pbem_check_passes_safe_settings(tmp_path: Path) -> None:
    result = _pbem(tmp_path, "check", env=SAFE)
    assert result.returncode == 0, result.stdout
    assert "fit for production" in result.stdout


def test_an_unsafe_production_app_fails_with_the_list_not_a_traceback(tmp_path: Path) -> None:
    result = _pbem(tmp_path, "db", "upgrade", env=UNSAFE)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "PBEM_SMTP_PORT" in result.stderr


def test_env_file_option_loads_settings(tmp_path: Path) -> None:
    env_file = tmp_path / "pbem.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in SAFE.items()))
    result = _pbem(tmp_path, "-e", str(env_file), "check", env={})
    assert result.returncode == 0, result.stdout + result.stderr
