"""The service sits below mail, the scheduler and the web: it imports none of them (the mail
layer is wired in as its notifier by the app factory), so dependencies point one way."""

from __future__ import annotations

import ast
from pathlib import Path

import pbem.service

ABOVE = ("pbem.mail", "pbem.mailin", "pbem.scheduler", "pbem.web", "pbem.present", "pbem.app",
         "pbem.cli")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_service_imports_no_mail_scheduler_or_web() -> None:
    folder = Path(pbem.service.__file__).parent
    wrong = {f"{path.name}: {name}" for path in folder.glob("*.py") for name in _imports(path)
             if name.startswith(ABOVE) or name in ("pbem.app",)}
    assert not wrong, sorted(wrong)
