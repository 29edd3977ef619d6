"""gunicorn's access log with bearer tokens masked (deploy/gunicorn.conf.py sets
`logger_class` to this): gunicorn writes the request line whole otherwise."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from pbem.logs import MaskTokens

# One filter for the life of the process: `setup` runs again on a reload (SIGHUP), and
# addFilter adds a filter it already has only once.
_MASK = MaskTokens()


class MaskingLogger(Logger):  # type: ignore[misc]
    """Masks each access line once it is written out, not each of the atoms it is made from:
    gunicorn passes every request header, response header and WSGI environ entry as an atom
    (~60 strings), and masking them all cost ~0.4 ms a request, more than a bare Flask view."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        self.access_log.addFilter(_MASK)
