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
    assert services["migrate"]["command"] == ["python", "-m", "bot", "migrate"]
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


def test_dockerfile_installs_and_runs_the_bot():
    text = (REPO / "Dockerfile").read_text()
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    assert "RUN pip install ." in text and 'CMD ["python", "-m", "bot"]' in text
    for folder in ("bot", "cogs", "assets"):
        assert f"COPY {folder} ./{folder}" in text and (REPO / folder).is_dir()
