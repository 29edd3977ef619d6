"""The documentation (issue 35): the README is a short front door, the settings reference is made
from the code and lists every setting, every `pbem ...` command and `PBEM_...` variable the
docs name exists, the fast subset is what the docs say, and `mkdocs build --strict` passes."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import SLOW_FILES, SLOW_FOLDERS, SLOW_TESTS, is_slow

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
sys.path.insert(0, str(REPO / "tools"))
import mkdocs_hooks  # noqa: E402

# `pbem` at a line's start, after a space, `$`, `(`, a backtick or `bin/`, then its words: the
# command and subcommands, and `--options`; an argument ends the match.
_COMMAND = re.compile(
    r"(?:^|[\s`($]|bin/)pbem(?: -e \S+)?((?: (?:[a-z][\w-]*|--[\w-]+)(?=[\s`)]|$))*)")
_VARIABLE = re.compile(r"\bPBEM_[A-Z][A-Z0-9_]*[A-Z0-9]\b")
# Where a variable may be read besides pbem/config.py's SETTINGS.
_READERS = ("pbem", "deploy", "tests/conftest.py", "setup.py", "benchmarks", ".ci")


def _pages() -> dict[Path, str]:
    """Every Markdown page of the site (with its generated parts), and the README."""
    pages = {p: mkdocs_hooks.expand(p.read_text(encoding="utf-8")) for p in DOCS.rglob("*.md")}
    pages[REPO / "README.md"] = (REPO / "README.md").read_text(encoding="utf-8")
    return pages


def _commands(text: str) -> list[list[str]]:
    """The `pbem` command lines in the text's code: fenced blocks and inline code."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    found = []
    for line in "\n".join([*blocks, *inline]).splitlines():
        line = line.split(" # ", 1)[0]
        for match in _COMMAND.finditer(line):
            words = match.group(1).split()
            if words:
                found.append(words)
    return found


def test_the_readme_is_a_front_door_that_opens_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert len(lines) <= 150
    code = re.findall(r"`([^`\n]*(?:pbem dev|pytest -n 2)[^`\n]*)`", readme)
    assert code[:2] == ["pip install -e . && pbem dev", "pip install -e '.[test]' && pytest -n 2"]
    assert "python3 -m venv" in readme and "docs/images/table.png" in readme
    assert "docs/images/turn-email.png" in readme
    for image in ("table.png", "turn-email.png"):
        assert (DOCS / "images" / image).stat().st_size > 10_000


def test_the_reference_lists_every_setting_of_the_code() -> None:
    from pbem.config import SETTINGS

    page = (DOCS / "running" / "configuration.md").read_text(encoding="utf-8")
    assert "<!-- pbem:settings -->" in page  # made from the code when the site is built
    reference = mkdocs_hooks.expand(page)
    missing = [s.env for s in SETTINGS if f"| `{s.env}` |" not in reference]
    assert missing == []
    for s in SETTINGS:  # and the meaning written is the code's
        assert s.help.replace("|", "&#124;") in reference


def test_every_variable_the_docs_name_is_one_the_code_reads() -> None:
    from pbem.config import SETTINGS

    known = {s.env for s in SETTINGS}
    sources = "\n".join(p.read_text(encoding="utf-8", errors="replace")
                        for name in _READERS for p in _files(REPO / name))
    named = {v for text in _pages().values() for v in _VARIABLE.findall(text)}
    unknown = sorted(v for v in named - known if v not in sources)
    assert unknown == []


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return [p for p in path.rglob("*") if p.is_file() and p.suffix in {"", ".py", ".conf",
                                                                       ".example", ".yml"}]


def test_every_pbem_command_in_the_docs_exists() -> None:
    from pbem.cli import cli

    commands = [c for text in _pages().values() for c in _commands(text)]
    assert ["dev"] in commands and ["backup"] in commands and ["restore"] in commands
    runner = CliRunner()
    for words in {tuple(c) for c in commands}:
        path = list(words[:next((i for i, w in enumerate(words) if w.startswith("-")),
                                len(words))])
        options = [w for w in words if w.startswith("--")]
        if path[:1] == ["ingest"]:  # argparse, before click (pbem/__main__.py)
            assert path == ["ingest"] and all(o in _ingest_help() for o in options), words
            continue
        result = runner.invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, (words, result.output)
        for option in options:
            assert option in result.output, (words, result.output)


def _ingest_help() -> str:
    from pbem.mailin.pipe import main

    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        main(["--help"])
    return out.getvalue()


def test_the_fast_subset_leaves_out_exactly_the_slow_files() -> None:
    tests = REPO / "tests"
    for name in SLOW_FILES:
        assert (tests / name).is_file(), name  # a renamed file must be renamed here too
    for folder in SLOW_FOLDERS:
        assert (tests / folder).is_dir()
    for test in SLOW_TESTS:
        file, name = test.split("::")
        assert f"def {name}(" in (tests / file).read_text(), test
    assert is_slow("browser/test_play_in_chromium.py") and is_slow("mailin/test_imap.py")
    assert not is_slow("engine/test_rules.py") and not is_slow("ops/test_docs_site.py")
    guide = (DOCS / "developing" / "tests.md").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"' in guide


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=REPO, capture_output=True, text=True,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    built = (tmp_path / "site" / "running" / "configuration" / "index.html").read_text()
    assert "PBEM_KEEP_FINISHED_GAME_DAYS" in built
