"""An SMTP or LMTP receiver (aiosmtpd) for replies: unknown recipients are refused at RCPT
time with 550 (so we never accept mail we would have to bounce later: no backscatter); the
rest is stored, answered 250, then processed on a worker thread.

Two pools of threads: a few answer the SMTP sessions' database questions (is this a reply
address of ours, store this message: a large message's store never holds up another session's
RCPT), one reads and carries out what was stored, in the order it was stored. So a message
that takes long to store or read never keeps the receiver from answering other senders
(the work of reading one is bounded too: pbem.mailin.parse)."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from pbem.mailin.crash import crash_point
from pbem.mailin.process import Inbox, process, process_pending
from pbem.mailin.receive import MAX_MESSAGE_BYTES, store_raw, with_recipients
from pbem.mailin.route import known_recipient
from pbem.store.db import transaction

log = logging.getLogger(__name__)
SESSION_THREADS = 4  # RCPT checks and stores of concurrent sessions (SQLite: one writes)


class ReplyHandler:
    """aiosmtpd handler. The sessions' checks and stores run on a few threads (`receiver`),
    the processing of what was stored on another (`worker`), in the order it was stored."""

    def __init__(self, inbox: Inbox, lmtp: bool = False) -> None:
        self.inbox = inbox
        self.lmtp = lmtp
        self.receiver = ThreadPoolExecutor(max_workers=SESSION_THREADS,
                                           thread_name_prefix="pbem-smtp")
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-mailin")

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.receiver, fn, *args)

    def _known(self, address: str) -> bool:
        with transaction(self.inbox.engine, read_only=True) as session:
            return known_recipient(session, address, self.inbox.settings, self.inbox.clock())

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: Any) -> str:
        try:
            known = await self._run(self._known, address)
        except Exception:
            log.exception("RCPT check failed")
            return "451 4.3.0 Temporary failure, try again later"
        if not known:
            return "550 5.1.1 No such reply address (it may have expired)"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def _store(self, data: bytes, rcpts: list[str]) -> int:
        """Store the message; its id is then processed (a copy of a message still pending,
        whose first processing crashed, is processed again: `process` claims it once)."""
        stored = store_raw(self.inbox.engine, with_recipients(data, rcpts), now=self.inbox.clock())
        return stored.id

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        rcpts = list(envelope.rcpt_tos)
        try:
            mail_id = await self._run(self._store, envelope.content,
                                      rcpts)
        except Exception:
            log.exception("storing a message failed")
            reply = "451 4.3.0 Temporary failure, try again later"
            return "\r\n".join([reply] * len(rcpts)) if self.lmtp else reply
        self.worker.submit(self._process, mail_id)
        reply = "250 2.0.0 Message accepted"
        return "\r\n".join([reply] * len(rcpts)) if self.lmtp else reply

    def _process(self, mail_id: int) -> None:
        crash_point("receiver-accepted", after=0.5)  # once the 250 is out
        try:
            process(self.inbox, mail_id)
        except Exception:  # the row stays pending and is retried by process_pending
            log.exception("processing inbound mail %s failed", mail_id)

    def drain(self) -> None:
        """Wait until every message handed to the worker so far is processed (tests)."""
        together = threading.Barrier(SESSION_THREADS)  # each session thread done with its work
        for done in [self.receiver.submit(together.wait) for _ in range(SESSION_THREADS)]:
            done.result()
        self.worker.submit(lambda: None).result()


class ReplyController(Controller):
    def __init__(self, inbox: Inbox, *, host: str = "127.0.0.1", port: int = 8025,
                 lmtp: bool = False) -> None:
        self.reply_handler = ReplyHandler(inbox, lmtp=lmtp)
        self.lmtp = lmtp
        super().__init__(self.reply_handler, hostname=host, port=port,
                         data_size_limit=MAX_MESSAGE_BYTES)

    def factory(self) -> SMTP:
        cls = LMTP if self.lmtp else SMTP
        return cls(self.handler, **self.SMTP_kwargs)

    def start(self) -> None:
        self.reply_handler.worker.submit(process_pending, self.reply_handler.inbox)
        super().start()

    def stop(self, no_assert: bool = False) -> None:
        super().stop(no_assert=no_assert)
        self.reply_handler.receiver.shutdown(wait=True)
        self.reply_handler.worker.shutdown(wait=True)
