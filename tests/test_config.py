"""Config: the operator gets one clear line for every mistake."""

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, from_env, validate_token

ROOT = Path(__file__).resolve().parents[1]
GOOD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_valid_token_and_defaults():
    c = from_env({"DISCORD_TOKEN": GOOD})
    assert c.database == "sqlite:///data/parlor.sqlite3"
    assert c.command_guilds == ()
    assert c.log_level == "INFO"
    assert c.application_id == 123456789012345678


def test_command_guilds_are_parsed():
    c = from_env({"DISCORD_TOKEN": GOOD, "PARLOR_COMMAND_GUILDS": " 1, 22 ,333"})
    assert c.command_guilds == (1, 22, 333)


@pytest.mark.parametrize("token", [None, "", "   ", "hello", "a.b.c"])
def test_missing_or_malformed_token_says_where_to_get_one(token):
    with pytest.raises(ConfigError, match="DISCORD_TOKEN") as err:
        validate_token(token)
    assert "discord.com/developers" in str(err.value)


def test_bad_guild_list_and_database_are_named():
    with pytest.raises(ConfigError, match="PARLOR_COMMAND_GUILDS"):
        from_env({"DISCORD_TOKEN": GOOD, "PARLOR_COMMAND_GUILDS": "abc"})
    with pytest.raises(ConfigError, match="PARLOR_DATABASE"):
        from_env({"DISCORD_TOKEN": GOOD, "PARLOR_DATABASE": "mysql://x"})


@pytest.mark.parametrize("token", ["", "not-a-token"])
def test_python_m_bot_exits_nonzero_with_one_line(tmp_path, token):
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": token, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "DISCORD_TOKEN" in lines[0] and "discord.com/developers/applications" in lines[0]


def test_dotenv_file_is_read(tmp_path):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=nonsense\n")
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    assert "does not look like a bot token" in proc.stderr
