"""Mail out: render emails, compose headers, queue them in the outbox and send them over SMTP.

The service layer calls `notify(...)` after appending events (same transaction), plus the
`send_*` helpers (pbem.mail.invites, errors, asks, digest) for mail no move causes; a sender process
calls `drain_outbox(...)`. Tokens: `pbem.present.tokens.new_token` / `hash_token`.
"""
