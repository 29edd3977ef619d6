"""The app on SQLite, and on PostgreSQL when PBEM_TEST_DATABASE_URL is set."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask


@pytest.fixture
def app(make_app: Callable[..., Flask], db_url: str) -> Flask:
    return make_app(DATABASE_URL=db_url)
