"""The two screenshots of the README and the docs (docs/images/): the table of the demo game and
a turn email, taken from a real `pbem dev` with headless Chromium (playwright).

    python tools/screenshots.py [--chromium /usr/bin/chromium]

Runs `pbem dev` on a free port with a throw-away instance folder, plays the pass by its link,
then photographs the game's page and the newest turn email in the mail catcher.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return str(answer.read().decode("utf-8", "replace"))


def newest_mail(base: str, words: str, limit: float = 60.0) -> str:
    """The id of the newest caught email whose text part matches `words` (waits for it)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        for mail_id in dict.fromkeys(re.findall(r'href="/mail/([^"/]+)"', fetch(f"{base}/mail"))):
            if re.search(words, fetch(f"{base}/mail/{mail_id}/text")):
                return mail_id
        time.sleep(0.5)
    raise TimeoutError(f"no email with {words!r}")


def html_part(base: str, mail_id: str) -> str:
    message = email.message_from_bytes(urllib.request.urlopen(f"{base}/mail/{mail_id}/raw")
                                       .read(), policy=email.policy.default)
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def take(page, base: str) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 760, "height": 1100})
    text = fetch(f"{base}/mail/{newest_mail(base, 'Choose 3 cards to pass')}/text")
    page.goto(re.search(r"https?://\S+/t/\S+", text).group(0))  # the pass link
    boxes = page.locator("input[name=cards]")
    for i in range(3):
        boxes.nth(i).check()
    page.locator("form button[type=submit]").first.click()
    turn = newest_mail(base, r"\((\w\w)\)[ \t]+https?://\S+/t/")  # a card to play by its link
    page.set_content(html_part(base, turn))  # the email as a mail program shows it
    page.screenshot(path=str(IMAGES / "turn-email.png"))
    seat = re.search(r"https?://\S+/s/[A-Za-z0-9_-]+", fetch(f"{base}/mail/{turn}/text"))
    page.set_viewport_size({"width": 900, "height": 1000})
    page.goto(seat.group(0))  # the player's page of the game: the table and their hand
    page.screenshot(path=str(IMAGES / "table.png"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    IMAGES.mkdir(parents=True, exist_ok=True)
    port, smtp = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as instance:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("PBEM_")},
               "PBEM_INSTANCE_PATH": instance, "PBEM_BASE_URL": base,
               "PBEM_SMTP_PORT": str(smtp), "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen([sys.executable, "-m", "pbem", "dev"], env=env, cwd=ROOT)
        try:
            wait_for(f"{base}/healthz")
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
                take(browser.new_context().new_page(), base)
                browser.close()
        finally:
            server.terminate()
            server.wait(30)
    print(f"wrote {IMAGES / 'table.png'} and {IMAGES / 'turn-email.png'}")


if __name__ == "__main__":
    main()
