"""The ways in the language tests reuse: replies through the real SMTP receiver
(tests/mailin), and the live site with Chromium (tests/browser)."""

from tests.browser.conftest import browser_page, live_site
from tests.mailin.conftest import by_smtp

__all__ = ["browser_page", "by_smtp", "live_site"]
