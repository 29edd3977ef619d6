"""A real IMAP server for tests: Debian's Dovecot (`apt-get install dovecot-imapd`) run in the
foreground on a free loopback port, with one user and maildirs under a temporary folder."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists()
                                      else None)
USER, PASSWORD = "hearts", "secret"

CONFIG = """\
protocols = imap
listen = 127.0.0.1
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
mail_location = maildir:{root}/mail/%u
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
"""


class Dovecot:
    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert DOVECOT is not None
        for sub in ("run", "state", "mail"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        (self.root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        uid, gid = _owner()
        for path in (self.root, self.root / "mail"):
            os.chown(path, uid, gid) if os.geteuid() == 0 else None
        config = self.root / "dovecot.conf"
        config.write_text(CONFIG.format(root=self.root, port=self.port, uid=uid, gid=gid))
        self.process = subprocess.Popen([DOVECOT, "-F", "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dovecot exited: {self.process.stderr.read()!r}")  # type: ignore[union-attr]
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("dovecot did not start listening")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


def _owner() -> tuple[int, int]:
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    import pwd

    try:
        entry = pwd.getpwnam("dovecot")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 0, 0
