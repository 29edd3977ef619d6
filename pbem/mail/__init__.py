"""Mail out: render emails, compose headers, queue them in the outbox and send them over SMTP.

The service layer calls `notify(...)` after appending events (same transaction), plus the
`send_*` helpers in `pbem.mail.notify` for invites, errors and reminders; a sender process
calls `drain_outbox(...)`. Tokens: `pbem.present.tokens.new_token` / `hash_token`.
"""
