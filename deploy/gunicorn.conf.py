"""gunicorn settings for the pbem web service (`gunicorn -c deploy/gunicorn.conf.py pbem.wsgi:app`).

Web workers only serve requests; the scheduler and the outbox sender run in the single
`pbem worker` process, never inside gunicorn.
"""

import gc
import multiprocessing
import os
import sys

from pbem.config import database_url

bind = os.environ.get("PBEM_BIND", "0.0.0.0:8000")
# SQLite (PBEM_DATABASE_URL unset, or sqlite:///...) has one writer at a time for the whole
# file, so one worker with threads serves it: more processes only queue on its writer lock.
# PostgreSQL: one per core (at least 2, at most 8), each with threads for the database waits:
# a request is mostly CPU under the GIL, so processes beyond the cores only take turns on
# them. On 2 cores, benchmarks/http_moves.py at 8 clients (load ~10): 2 workers 4.2-5.1 ms
# of web CPU a move, 94-126 moves/s; 3 workers 6.1 ms, 82/s; 5 (2 per core + 1, gunicorn's
# rule for sync workers) 5.9-6.6 ms, 79-80/s. PBEM_WEB_WORKERS, when set, is used as it is.
ON_SQLITE = database_url(os.environ).startswith("sqlite")
workers = int(os.environ.get("PBEM_WEB_WORKERS",
                             1 if ON_SQLITE else min(max(multiprocessing.cpu_count(), 2), 8)))
threads = int(os.environ.get("PBEM_WEB_THREADS", "2"))
worker_class = "gthread"
timeout = 30
# Graceful stop: systemd and docker send SIGTERM; requests in flight get this long.
graceful_timeout = 20
keepalive = 5
# Each worker touches its heartbeat file at every turn of its loop (every request): on a
# disk-backed /tmp that touch can wait for the filesystem's journal (py-spy put ~7% of a busy
# web worker's samples there), so it lives in memory when there is a /dev/shm to write in, as
# gunicorn's documentation advises (systemd's PrivateDevices and Docker both provide one).
worker_tmp_dir = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
# Recycle workers now and then so a slow leak can't grow without bound.
max_requests = 2000
max_requests_jitter = 200
# gunicorn 27 opens a control socket (for `gunicornc`) in $HOME/.gunicorn by default: nothing
# here uses it, the hardened unit gives the service no home to write to (ProtectHome, and
# ProtectSystem=strict outside /var/lib/pbem), and a socket that can stop or scale the workers
# is one more thing to guard. Off.
control_socket_disable = True
accesslog = "-"
errorlog = "-"
# The access log writes each request line: private and one-time links are bearer tokens, so
# this logger masks them (/s/*** ...). The last field is the request id the app logs too.
logger_class = "pbem.gunicorn_logging.MaskingLogger"
access_log_format = ('%(h)s - - %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s" '
                     '%({x-request-id}o)s')
# The app's own logs (pbem.wsgi sets them up): plain or JSON by PBEM_LOG_FORMAT.
forwarded_allow_ips = os.environ.get("PBEM_FORWARDED_ALLOW_IPS", "127.0.0.1")
# Load the app once, in the master, and fork the workers from it: a worker that replaces a
# recycled one (max_requests) starts at once instead of importing pbem again (~0.85 s CPU, a
# few hundred requests' worth, every ~2,000 requests), and the loaded objects are frozen out
# of the collector's way (gc.freeze). Each worker then drops any database
# connection of the master's (pbem.wsgi.forked; the master opens none). A code change needs a
# restart of the master (systemctl restart), not just HUP.
preload_app = True


def when_ready(server):  # type: ignore[no-untyped-def]  # gunicorn's hook, once it listens
    """Say how many web workers serve, and why when the database is SQLite; freeze what the
    master has loaded before the workers are forked from it."""
    why = " (SQLite: one writer at a time; PBEM_WEB_WORKERS overrides)" if ON_SQLITE else ""
    server.log.info("pbem: %d web worker(s), %d thread(s) each%s", workers, threads, why)
    # What the master has loaded stays for the process's life: out of the collector's walks in
    # every worker, and its pages left shared with the master instead of copied by them.
    gc.collect()
    gc.freeze()


def post_fork(server, worker):  # type: ignore[no-untyped-def]  # in each new worker
    """pbem's app, when the master preloaded it (not the benchmarks' bare Flask view, also
    served with this file): no database connection of the master's is shared."""
    module = sys.modules.get("pbem.wsgi")
    if module is not None:
        module.forked()
