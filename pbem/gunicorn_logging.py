"""gunicorn's access log with bearer tokens masked (deploy/gunicorn.conf.py sets
`logger_class` to this): gunicorn writes the request line whole otherwise."""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from pbem.logs import mask_tokens


class MaskingLogger(Logger):  # type: ignore[misc]
    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {key: mask_tokens(value) if isinstance(value, str) else value
                for key, value in atoms.items()}
