"""Service configuration read from PBEM_* environment variables, with safe defaults."""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import urlsplit


class ConfigError(RuntimeError):
    """The configuration is unusable (e.g. production without a secret key)."""


@dataclass(frozen=True)
class Setting:
    env: str  # environment variable name
    key: str  # Flask config key
    default: str | None
    help: str


# One table, used by load_config and by the README's configuration section.
SETTINGS: tuple[Setting, ...] = (
    Setting("PBEM_ENV", "PBEM_ENV", "development", "`development` or `production`."),
    Setting(
        "PBEM_DATABASE_URL", "DATABASE_URL", None,
        "SQLAlchemy URL. Default: SQLite file `pbem.sqlite3` in the instance folder. "
        "PostgreSQL: `postgresql+psycopg://user:pw@host/db`.",
    ),
    Setting("PBEM_BASE_URL", "BASE_URL", "http://127.0.0.1:5000",
            "Public URL of the web service, used in links in emails."),
    Setting("PBEM_SECRET_KEY", "SECRET_KEY", None,
            "Flask secret key. Development: generated on first run and kept in the instance "
            "folder. Required when PBEM_ENV=production."),
    Setting("PBEM_SMTP_HOST", "SMTP_HOST", "127.0.0.1", "SMTP server for outgoing mail."),
    Setting("PBEM_SMTP_PORT", "SMTP_PORT", "1025", "SMTP port (1025: the dev mail catcher)."),
    Setting("PBEM_SMTP_USER", "SMTP_USER", "", "SMTP login (empty: no login)."),
    Setting("PBEM_SMTP_PASSWORD", "SMTP_PASSWORD", "", "SMTP password."),
    Setting("PBEM_SMTP_STARTTLS", "SMTP_STARTTLS", "false", "Use STARTTLS (`true`/`false`)."),
    Setting("PBEM_MAIL_FROM", "MAIL_FROM", None,
            "From address of outgoing mail. Default: `Hearts <hearts@MAIL_DOMAIN>`."),
    Setting("PBEM_MAIL_DOMAIN", "MAIL_DOMAIN", None,
            "Domain of reply addresses `play+TOKEN@domain`. Default: the host of PBEM_BASE_URL."),
    Setting("PBEM_INSTANCE_PATH", "INSTANCE_PATH", None,
            "Folder for the SQLite file and the generated secret key. Default: Flask's "
            "instance folder (`instance/` next to `pbem/` in a checkout)."),
    # Mail in (pbem/mailin): see the README's "Mail in" section.
    Setting("PBEM_INBOUND_SECRET", "INBOUND_SECRET", None,
            "HMAC-SHA256 key of the `POST /inbound` webhook (empty: the webhook is off)."),
    Setting("PBEM_IMAP_HOST", "IMAP_HOST", None, "IMAP server `pbem mail-in imap` polls."),
    Setting("PBEM_IMAP_PORT", "IMAP_PORT", "993", "IMAP port (993: TLS; any other: plain)."),
    Setting("PBEM_IMAP_USER", "IMAP_USER", "", "IMAP login."),
    Setting("PBEM_IMAP_PASSWORD", "IMAP_PASSWORD", "", "IMAP password."),
    Setting("PBEM_IMAP_FOLDER", "IMAP_FOLDER", "INBOX", "IMAP folder replies arrive in."),
    Setting("PBEM_IMAP_DONE_FOLDER", "IMAP_DONE_FOLDER", "pbem-done",
            "IMAP folder handled mail is moved to (created if missing)."),
    Setting("PBEM_LMTP_PORT", "LMTP_PORT", "8024",
            "Port of `pbem mail-in smtp` (SMTP, or LMTP with `--lmtp`), on 127.0.0.1."),
    Setting("PBEM_SPOOL_DIR", "SPOOL_DIR", None,
            "Folder `pbem ingest` leaves messages in for the worker (a Maildir-style spool). "
            "Default: `mail-spool` in the instance folder."),
    Setting("PBEM_INBOUND_KEEP_DAYS", "INBOUND_KEEP_DAYS", "30",
            "Days received mail is kept raw before `purge_raw_mail` empties it."),
    # Retention (pbem.service.retention, the worker's daily purge; 0 keeps for ever).
    Setting("PBEM_KEEP_FINISHED_GAME_DAYS", "KEEP_FINISHED_GAME_DAYS", "180",
            "Days after a finished or cancelled game's last move before its private data goes: "
            "its links (seat pages, reply addresses), deadlines and emails. Its scores and "
            "public record (summary, hands replayed, ratings) are kept."),
    Setting("PBEM_KEEP_TOKEN_DAYS", "KEEP_TOKEN_DAYS", "30",
            "Days a link (token) is kept after it expired or was used."),
    Setting("PBEM_KEEP_OUTBOX_DAYS", "KEEP_OUTBOX_DAYS", "90",
            "Days a sent or failed email's row is kept (its body is emptied when it is sent)."),
    Setting("PBEM_KEEP_LOG_DAYS", "KEEP_LOG_DAYS", "365",
            "Days the mail log (received mail's rows), ended away dates and set-aside mail jobs "
            "are kept."),
    # Operating it (deploy/README.md).
    Setting("PBEM_LOG_FORMAT", "LOG_FORMAT", "plain",
            "`plain` or `json` (one JSON object a line) for the web and worker logs."),
    Setting("PBEM_LOG_LEVEL", "LOG_LEVEL", "INFO", "Level of pbem's own log lines."),
    Setting("PBEM_SENTRY_DSN", "SENTRY_DSN", "",
            "Sentry DSN: errors are reported there when set (off when empty)."),
    Setting("PBEM_METRICS_TOKEN", "METRICS_TOKEN", "",
            "When set, GET /metrics needs `Authorization: Bearer <token>`. Production requires "
            "it unless gunicorn listens on a private address with no proxy in front."),
    Setting("PBEM_PROXIES", "PROXIES", "0",
            "How many proxies (nginx...) stand in front of gunicorn: their X-Forwarded-For "
            "gives the client address the rate limit counts by."),
    Setting("PBEM_RATELIMIT", "RATELIMIT", "30 per minute; 300 per hour",
            "Per-client limit on every POST and on /new (Flask-Limiter syntax)."),
    Setting("PBEM_RATELIMIT_STORAGE_URL", "RATELIMIT_STORAGE_URL", None,
            "Where rate-limit counters live: `database` (the default: pbem's database, shared "
            "by every gunicorn worker; moves then count in each worker's memory, so up to one "
            "PBEM_RATELIMIT of moves per worker), `redis://...` (everything, shared; needs "
            "the `redis` package), or `memory://` (one process only; refused in production)."),
    Setting("PBEM_DKIM_KEY_FILE", "DKIM_KEY_FILE", "",
            "PEM private key: outgoing mail is DKIM-signed with it when set."),
    Setting("PBEM_DKIM_SELECTOR", "DKIM_SELECTOR", "pbem", "DKIM selector (DNS name part)."),
    Setting("PBEM_DKIM_DOMAIN", "DKIM_DOMAIN", None,
            "DKIM signing domain (d=). Default: PBEM_MAIL_DOMAIN."),
    Setting("PBEM_ROBOT_SECONDS", "ROBOT_SECONDS", "0.5",
            "Wall-clock limit of one strong robot decision, in seconds: past it the robot "
            "plays the best choice found so far (its search otherwise stops at a count of "
            "simulated plays, ~40 ms of CPU at the median; docs/robots.md §9). `0`: no limit."),
    Setting("PBEM_BOUNCE_LOCALPART", "BOUNCE_LOCALPART", "",
            "When set (e.g. `bounces`), the envelope sender is VERP "
            "`bounces+<outbox id>-<tag>@MAIL_DOMAIN`, so a bounce names the email it returns "
            "(route that address's mail to mail in)."),
)

_BOOL_KEYS = {"SMTP_STARTTLS"}
_INT_KEYS = {"SMTP_PORT", "PROXIES"}
_FLOAT_KEYS = {"ROBOT_SECONDS"}
SECRET_KEY_FILE = "secret_key"
MAX_REQUEST_BYTES = 1024 * 1024
SQLITE_FILE = "pbem.sqlite3"
SPOOL_FOLDER = "mail-spool"  # in the instance folder, unless PBEM_SPOOL_DIR says otherwise


def parse_bool(value: str | bool) -> bool:
    if isinstance(value, bool):
        return value
    text = value.strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"", "0", "false", "no", "off"}:
        return False
    raise ConfigError(f"not a boolean: {value!r}")


# Read for the checks only: where gunicorn listens (deploy/gunicorn.conf.py reads it itself).
GUNICORN_SETTINGS = {"PBEM_BIND": "BIND"}
DEFAULT_BIND = "0.0.0.0:8000"  # deploy/gunicorn.conf.py's


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Config keys for every PBEM_* variable that is set (unset ones are left out)."""
    named = {s.env: s.key for s in SETTINGS} | GUNICORN_SETTINGS
    return {key: environ[env] for env, key in named.items() if environ.get(env, "") != ""}


def resolve(
    overrides: Mapping[str, Any], instance_path: str | os.PathLike[str]
) -> dict[str, Any]:
    """Fill in defaults and derived values; `overrides` (env + create_app config) win.
    Production refuses unsafe settings, naming them all (ConfigError)."""
    cfg = derive(overrides, instance_path)
    if cfg["PBEM_ENV"] == "production":
        problems = production_problems(cfg)
        if problems:
            raise ConfigError("PBEM_ENV=production refuses these settings:\n"
                              + "\n".join(f"- {p}" for p in problems))
    if not cfg.get("SECRET_KEY"):
        cfg["SECRET_KEY"] = dev_secret_key(Path(instance_path))
    return cfg


def derive(overrides: Mapping[str, Any], instance_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The settings with defaults and derived values, no checks and no side effects."""
    cfg: dict[str, Any] = {s.key: s.default for s in SETTINGS if s.default is not None}
    cfg.update(overrides)
    instance = Path(instance_path)
    cfg["INSTANCE_PATH"] = str(instance)
    cfg["DATABASE_URL_CHOSEN"] = bool(overrides.get("DATABASE_URL"))
    if not cfg.get("DATABASE_URL"):
        cfg["DATABASE_URL"] = default_database_url(instance)
    if not cfg.get("SPOOL_DIR"):
        cfg["SPOOL_DIR"] = str(instance / SPOOL_FOLDER)
    for key in _BOOL_KEYS:
        cfg[key] = parse_bool(cfg[key])
    for key in _INT_KEYS:
        cfg[key] = int(cfg[key])
    for key in _FLOAT_KEYS:
        cfg[key] = float(cfg[key])
    cfg["BASE_URL"] = str(cfg["BASE_URL"]).rstrip("/")
    # Every request body is capped (forms are small); POST /inbound raises its own cap.
    cfg.setdefault("MAX_CONTENT_LENGTH", MAX_REQUEST_BYTES)
    if not cfg.get("MAIL_DOMAIN"):
        cfg["MAIL_DOMAIN"] = urlsplit(cfg["BASE_URL"]).hostname or "localhost"
    if not cfg.get("MAIL_FROM"):
        cfg["MAIL_FROM"] = f"Hearts <hearts@{cfg['MAIL_DOMAIN']}>"
    if not cfg.get("DKIM_DOMAIN"):
        cfg["DKIM_DOMAIN"] = cfg["MAIL_DOMAIN"]
    if cfg["PBEM_ENV"] not in {"development", "production"}:
        raise ConfigError(f"PBEM_ENV must be development or production, not {cfg['PBEM_ENV']!r}")
    return cfg


def default_database_url(instance: Path) -> str:
    """The SQLite file in the instance folder: the database when PBEM_DATABASE_URL is unset."""
    return f"sqlite:///{instance / SQLITE_FILE}"


def database_url(environ: Mapping[str, str]) -> str:
    """The database an app made from this environment uses, found without making one (for
    `pbem ingest`, which an MTA starts for every message): PBEM_DATABASE_URL, else the SQLite
    file in PBEM_INSTANCE_PATH or in Flask's default instance folder."""
    if environ.get("PBEM_DATABASE_URL"):
        return environ["PBEM_DATABASE_URL"]
    return default_database_url(_instance_folder(environ))


def spool_dir(environ: Mapping[str, str]) -> Path:
    """The mail spool an app made from this environment uses (for `pbem ingest`, found as
    database_url finds the database): PBEM_SPOOL_DIR, else `mail-spool` in the instance
    folder."""
    if environ.get("PBEM_SPOOL_DIR"):
        return Path(environ["PBEM_SPOOL_DIR"])
    return _instance_folder(environ) / SPOOL_FOLDER


def _instance_folder(environ: Mapping[str, str]) -> Path:
    """PBEM_INSTANCE_PATH, else Flask's default instance folder, without importing Flask."""
    instance = environ.get("PBEM_INSTANCE_PATH")
    return Path(instance).resolve() if instance else Path(default_instance_path())


def default_instance_path(package: str = "pbem") -> str:
    """The instance folder Flask gives the app when none is set (flask.sansio.app's
    auto_find_instance_path and scaffold.find_package, without importing Flask): `instance/`
    beside the package in a checkout, `<prefix>/var/pbem-instance` when it is installed."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return os.path.join(os.getcwd(), "instance")
    package_path = os.path.dirname(os.path.dirname(spec.origin))  # the folder holding pbem/
    prefix = os.path.abspath(sys.prefix)
    if PurePath(package_path).is_relative_to(prefix):
        return os.path.join(prefix, "var", f"{package}-instance")
    site_parent, site_folder = os.path.split(package_path)
    if site_folder.lower() != "site-packages":
        return os.path.join(package_path, "instance")
    parent, folder = os.path.split(site_parent)
    if folder.lower() == "lib":
        prefix = parent
    elif os.path.basename(parent).lower() == "lib":
        prefix = os.path.dirname(parent)
    else:
        prefix = site_parent
    return os.path.join(prefix, "var", f"{package}-instance")


_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}
MIN_SECRET_BYTES = 32
DEV_MAIL_PORT = 1025


def production_problems(cfg: Mapping[str, Any]) -> list[str]:
    """Every setting that is unsafe for a public service, each in one sentence (all at once,
    so an operator fixes them in one go). Used by create_app in production and `pbem check`."""
    return [*_secret_problems(cfg), *_address_problems(cfg), *_backend_problems(cfg),
            *_metrics_problems(cfg)]


def private_bind(bind: str) -> bool:
    """Whether gunicorn's bind is reachable from this machine or a private network only (a
    Unix socket, loopback, RFC 1918 and link-local addresses): not from the internet."""
    if bind.startswith("unix:"):
        return True
    host = bind.rsplit(":", 1)[0].strip("[]") if ":" in bind else bind
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # a host name: whatever it resolves to, say it is public
        return False
    return not address.is_unspecified and (address.is_private or address.is_loopback)


def _metrics_problems(cfg: Mapping[str, Any]) -> list[str]:
    """/metrics tells how many games, moves and emails there are, and how late mail is: open
    to anyone without a token, unless only this machine or a private network can reach it
    (a private bind with no proxy in front forwarding the public's requests)."""
    if cfg.get("METRICS_TOKEN"):
        return []
    bind = str(cfg.get("BIND") or DEFAULT_BIND)
    if private_bind(bind) and not int(cfg.get("PROXIES") or 0):
        return []
    where = "a proxy forwards to it" if private_bind(bind) else f"PBEM_BIND is {bind}"
    return [f"PBEM_METRICS_TOKEN is not set and /metrics is public ({where}): set one "
            "(`python3 -c 'import secrets; print(secrets.token_hex(32))'`) for your "
            "Prometheus to send as a bearer token"]


def _secret_problems(cfg: Mapping[str, Any]) -> list[str]:
    """A secret key too short, or a setting still holding the example's placeholder."""
    problems = []
    key = str(cfg.get("SECRET_KEY") or "")
    if len(key.encode()) < MIN_SECRET_BYTES:
        problems.append(f"PBEM_SECRET_KEY must be at least {MIN_SECRET_BYTES} bytes "
                        f"(it is {len(key.encode())}); make one with "
                        "`python3 -c 'import secrets; print(secrets.token_hex(32))'`")
    for key_name in ("SECRET_KEY", "DATABASE_URL", "METRICS_TOKEN"):
        if "CHANGE-ME" in str(cfg.get(key_name) or ""):
            problems.append(f"PBEM_{key_name} still holds the example's CHANGE-ME")
    return problems


def _address_problems(cfg: Mapping[str, Any]) -> list[str]:
    """The links in emails must reach players: https, and not this machine's address."""
    problems = []
    base = urlsplit(str(cfg.get("BASE_URL", "")))
    if base.scheme != "https":
        problems.append(f"PBEM_BASE_URL must start with https:// (it is {cfg.get('BASE_URL')!r})")
    host = (base.hostname or "").lower()
    if host in _LOCAL_HOSTS or host.endswith(".localhost") or host.startswith("127."):
        problems.append(f"PBEM_BASE_URL points at this machine ({host or 'no host'}): players "
                        "need the public address")
    return problems


def _backend_problems(cfg: Mapping[str, Any]) -> list[str]:
    """The services behind it left at their development settings: the mail catcher's port,
    SQLite by default, per-process rate limits; a DKIM key that can't be read, a log format."""
    problems = []
    if int(cfg.get("SMTP_PORT", 0)) == DEV_MAIL_PORT:
        problems.append(f"PBEM_SMTP_PORT is {DEV_MAIL_PORT}, the development mail catcher's port: "
                        "set your relay's port (25, 465 or 587)")
    url = str(cfg.get("DATABASE_URL", ""))
    if url.startswith("sqlite") and not cfg.get("DATABASE_URL_CHOSEN"):
        problems.append("PBEM_DATABASE_URL is not set (the SQLite default): set a PostgreSQL URL, "
                        "or a sqlite:/// URL to choose SQLite on purpose")
    if str(cfg.get("RATELIMIT_STORAGE_URL") or "").startswith("memory"):
        problems.append("PBEM_RATELIMIT_STORAGE_URL is memory://: every gunicorn worker would "
                        "count apart; use `database` or redis://")
    key_file = str(cfg.get("DKIM_KEY_FILE") or "")
    if key_file and not os.access(key_file, os.R_OK):
        problems.append(f"PBEM_DKIM_KEY_FILE {key_file} cannot be read")
    if cfg.get("LOG_FORMAT") not in {"plain", "json"}:
        problems.append(f"PBEM_LOG_FORMAT must be plain or json (it is {cfg.get('LOG_FORMAT')!r})")
    return problems


def dev_secret_key(instance: Path) -> str:
    """The development secret key: generated once, then read from the instance folder."""
    path = instance / SECRET_KEY_FILE
    if path.exists():
        return path.read_text().strip()
    instance.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return key
