"""Mail in: replies received, stored raw, read, routed to a seat and played (one module a stage).

    receive (store raw bytes, dedupe) → loops (auto-replies, bounces) → parse (MIME → reply text)
    → commands (the command language) → route (token → game, seat, player) → process (service,
    replies). The ways in: smtp_receiver (SMTP/LMTP), imap (IDLE poller), pbem.mailin.webhook
    (signed webhook) and `pbem ingest` (an MTA pipe).
"""
