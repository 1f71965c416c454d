"""Dockerfile and compose.yaml: they parse and say what the README promises (no Docker daemon here, so
this checks the files, not an image build)."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.config import from_env

REPO = Path(__file__).resolve().parents[1]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}``."""
    def one(m: re.Match[str]) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        if env.get(name):
            return env[name]
        if op == ":-":
            return arg
        raise AssertionError(f"compose would stop: {arg or name}")
    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def test_compose_runs_postgres_and_two_shard_processes():
    doc = yaml.safe_load((REPO / "compose.yaml").read_text())
    services = doc["services"]
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["migrate"]["command"] == ["parlor", "migrate"]  # the image's console script
    shards = []
    for name in ("shard-0", "shard-1"):
        svc = services[name]
        assert (
            svc["build"] == "."
            and svc["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        )
        env = {k: interpolate(str(v), {"DISCORD_TOKEN": TOKEN}) for k, v in svc["environment"].items()}
        assert env["PARLOR_DATABASE"] == "postgresql://parlor:parlor@postgres:5432/parlor"
        config = from_env(env)  # the settings are valid for the bot
        assert config.shard_count == 2 and config.metrics_port == 9108
        shards += config.shard_ids
    assert sorted(shards) == [0, 1]  # every shard runs exactly once


def test_compose_needs_a_token():
    doc = yaml.safe_load((REPO / "compose.yaml").read_text())
    try:
        interpolate(doc["services"]["shard-0"]["environment"]["DISCORD_TOKEN"], {})
    except AssertionError as exc:
        assert "set DISCORD_TOKEN" in str(exc)
    else:
        raise AssertionError("an empty DISCORD_TOKEN was accepted")


def dockerfile_stages() -> list[list[str]]:
    """The Dockerfile's instructions (continuation lines joined, comments dropped), per ``FROM`` stage."""
    text = (REPO / "Dockerfile").read_text()
    stages: list[list[str]] = []
    for line in re.sub(r"\\\n\s*", " ", text).splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("FROM "):
            stages.append([])
        stages[-1].append(line)
    return stages


def test_dockerfile_builds_the_wheel_and_runs_only_the_installed_package():
    assert (REPO / "Dockerfile").read_text().startswith("#")
    build, runtime = dockerfile_stages()
    assert build[0] == "FROM python:3.11-slim AS build" and runtime[0] == "FROM python:3.11-slim"
    assert any(i.startswith("RUN pip wheel --no-deps --wheel-dir /wheels .") for i in build)
    for folder in ("bot", "cogs", "assets"):
        assert f"COPY {folder} ./{folder}" in build and (REPO / folder).is_dir()
    # the runtime stage gets the installed environment only: no source tree, runs as a non-root user
    copies = [i for i in runtime if i.startswith(("COPY", "ADD"))]
    assert copies == ["COPY --from=build /opt/parlor /opt/parlor"]
    users = [i for i in runtime if i.startswith("USER ")]
    assert users == ["USER parlor"]
    assert 'CMD ["parlor"]' in runtime
    (check,) = [i for i in runtime if i.startswith("HEALTHCHECK ")]
    assert check.endswith('CMD ["parlor", "health"]')
    env = next(i for i in runtime if i.startswith("ENV "))
    assert "PARLOR_METRICS_PORT=9108" in env and "PATH=/opt/parlor/bin:$PATH" in env
    assert 'VOLUME ["/app/data"]' in runtime  # where the README's docker run mounts the SQLite volume
