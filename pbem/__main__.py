"""`python -m pbem ...` and the `pbem` console script: the command line of pbem.cli, except
`pbem ingest`, which an MTA starts for every message: it is dispatched first, so that it
imports only what storing a message needs (pbem.mailin.pipe), not the app and its commands."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["ingest"]:
        from pbem.mailin.pipe import main as ingest

        raise SystemExit(ingest(sys.argv[2:]))
    from pbem.cli import main as command_line

    command_line()


if __name__ == "__main__":
    main()
