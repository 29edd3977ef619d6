"""Settings shared by tests that are not fixtures."""

from __future__ import annotations

from typing import Any

# Overrides PBEM_ENV=production accepts (tests of production behaviour start from these;
# make_app already gives an explicit DATABASE_URL).
PRODUCTION_SAFE: dict[str, Any] = {
    "PBEM_ENV": "production",
    "SECRET_KEY": "p" * 40,
    "BASE_URL": "https://pbem.example.org",
    "SMTP_PORT": 2525,
    "METRICS_TOKEN": "m" * 32,
}
