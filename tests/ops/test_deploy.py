"""The deploy files, checked the way an operator's tools would: systemd-analyze rates the
units' hardening and verifies them, the env example reads the same in a shell as in systemd,
the compose file and the Dockerfile say what deploy/README.md promises."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="systemd-analyze is not installed")


@needs_systemd
@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_units_are_hardened(unit: Path) -> None:
    out = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)],
                         capture_output=True, text=True, timeout=60).stdout
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", out)
    assert level is not None, out[-500:]
    assert float(level.group(1)) <= 2.0  # was 8.5 ("EXPOSED")


@needs_systemd
def test_units_verify_but_for_the_missing_install() -> None:
    result = subprocess.run(["systemd-analyze", "verify", *map(str, UNITS)],
                            capture_output=True, text=True, timeout=60)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if line.strip() and "is not executable: No such file" not in line]
    assert problems == []


def _systemd_environment_file(text: str) -> dict[str, str]:
    """systemd's EnvironmentFile= reading of simple NAME=value / NAME="value" lines."""
    values = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, value = line.partition("=")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        values[name.strip()] = value
    return values


def test_the_env_example_reads_the_same_in_a_shell_and_in_systemd() -> None:
    example = DEPLOY / "pbem.env.example"
    shell = subprocess.run(
        ["bash", "-c", f'set -a; . "{example}"; set +a; env -0'], capture_output=True,
        check=True, env={"PATH": "/usr/bin:/bin"}).stdout.decode()
    from_shell = dict(item.split("=", 1) for item in shell.split("\0") if item.startswith("PBEM_"))
    assert from_shell == _systemd_environment_file(example.read_text())
    assert from_shell["PBEM_MAIL_FROM"] == "Hearts <hearts@hearts.example.org>"


def test_compose_scales_web_and_gives_each_service_its_own_health_check() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert all(":8000:8000" not in p and not p.startswith("8000:")
               for p in services["web"]["ports"])  # --scale web=3 needs free host ports
    assert services["migrate"]["healthcheck"] == {"disable": True}
    assert services["worker"]["healthcheck"]["test"] == ["CMD", "pbem", "worker", "--check"]
    for name in ("web", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] \
            == "service_completed_successfully"
    smtp = compose["x-pbem"]["environment"]["PBEM_SMTP_HOST"]
    assert ":?" in smtp and "smtp" not in services  # no default to a service that isn't there


def _dockerfile_stages() -> list[list[str]]:
    """The Dockerfile's instructions (continued lines joined, comments left out), by stage."""
    text = re.sub(r"\\\n\s*", "", (DEPLOY / "Dockerfile").read_text())
    stages: list[list[str]] = []
    for line in (line.strip() for line in text.splitlines()):
        if line.startswith("FROM "):
            stages.append([])
        if line and not line.startswith("#"):
            stages[-1].append(line)
    return stages


def test_the_dockerfile_caches_locked_dependencies_and_runs_as_a_numeric_user() -> None:
    steps = _dockerfile_stages()[-1]  # the image that runs
    lock = next(i for i, s in enumerate(steps) if "requirements.lock" in s and "RUN" in s)
    source = next(i for i, s in enumerate(steps) if s.startswith("COPY --from="))
    assert lock < source  # dependencies in a layer of their own, before pbem
    assert "-e " not in " ".join(s for s in steps if s.startswith("RUN pip"))
    assert any(re.fullmatch(r"USER \d+:\d+", s) for s in steps)
    assert "STOPSIGNAL SIGTERM" in steps
    health = next(s for s in steps if s.startswith("HEALTHCHECK"))
    assert re.search(r" CMD \[\"", health)  # exec form
    assert (DEPLOY.parent / ".dockerignore").is_file()


def test_the_image_runs_the_compiled_engine_and_holds_no_compiler() -> None:
    """The slim base has no C compiler, and pip there builds the pure-Python engine (about 2x
    slower). A builder stage with build-essential builds pbem's wheel (setup.py compiles the
    engine); the runtime stage, on the same base (the wheel is for its Python and C library),
    installs that wheel, installs no compiler, and fails to build if the engine runs pure."""
    builder, runtime = _dockerfile_stages()
    base, name = _fullmatch(r"FROM (\S+) AS (\w+)", builder[0])
    assert runtime[0] == f"FROM {base}"
    assert any(s.startswith("RUN apt-get") and "build-essential" in s for s in builder)
    build = next(s for s in builder if s.startswith("RUN pip wheel"))
    (wheels,) = _fullmatch(r"RUN pip wheel --no-deps --wheel-dir (\S+) \.", build)
    assert not any(re.search(r"apt-get|build-essential|gcc", s) for s in runtime)
    assert f"COPY --from={name} {wheels} {wheels}" in runtime
    install = next(s for s in runtime if s.startswith(f"RUN pip install --no-deps {wheels}/"))
    assert "pbem-*.whl" in install and f"rm -rf {wheels}" in install
    assert "sys.exit(not pbem.engine.COMPILED)" in install
    assert not any(s.startswith("COPY pbem") for s in runtime)  # no source to build from


def _fullmatch(pattern: str, text: str) -> tuple[str, ...]:
    match = re.fullmatch(pattern, text)
    assert match is not None, (pattern, text)
    return match.groups()


@pytest.mark.skipif(shutil.which("hadolint") is None, reason="hadolint is not installed")
def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    result = subprocess.run(["hadolint", str(DEPLOY / "Dockerfile")], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


# `pbem` as a command (not a path like /var/lib/pbem): its subcommands and --options, an
# optional `-e FILE` first; option values and arguments end the match.
_COMMAND = re.compile(r"(?:^|\s|bin/)pbem(?: -e \S+)?((?: (?:[a-z][\w-]*|--[\w-]+)(?=\s|$))*)")


def _guide_commands() -> list[list[str]]:
    """Every `pbem ...` command line deploy/README.md shows (code blocks and inline code)."""
    guide = (DEPLOY / "README.md").read_text()
    snippets = re.findall(r"```sh\n(.*?)```", guide, re.S) + re.findall(r"`([^`\n]+)`", guide)
    found = []
    for snippet in snippets:
        for line in snippet.splitlines():
            line = line.split("#", 1)[0]
            match = _COMMAND.search(line)
            if match:
                found.append(match.group(1).split())
    return found


def test_every_pbem_command_in_the_deploy_guide_exists() -> None:
    """The guide as written: each `pbem` command it shows is one the CLI has, with the options
    shown (a renamed or dropped command fails here rather than on an operator's machine)."""
    from click.testing import CliRunner

    from pbem.cli import cli

    commands = _guide_commands()
    assert ["check"] in commands and ["worker", "--check"] in commands
    for words in commands:
        path = [w for w in words if not w.startswith("-")]
        path = path[:next((i for i, w in enumerate(words) if w.startswith("-")), len(path))]
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, (words, result.output)
        for option in (w for w in words if w.startswith("--")):
            assert option in result.output, (words, result.output)


def test_every_file_the_deploy_guide_names_exists() -> None:
    guide = (DEPLOY / "README.md").read_text()
    named = set(re.findall(r"\b(deploy/[\w./*-]+\w|requirements\.lock|gunicorn\.conf\.py)\b",
                           guide))
    root = DEPLOY.parent
    for name in named:
        path = name if "/" in name or name == "requirements.lock" else f"deploy/{name}"
        assert list(root.glob(path)), name
