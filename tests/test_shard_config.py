"""PARLOR_SHARD_COUNT / PARLOR_SHARD_IDS / PARLOR_METRICS_PORT: parsing, one-line errors, the client class."""
from __future__ import annotations

import pytest

from bot.app import ParlorBot, ShardedParlorBot, create_bot
from bot.config import Config, ConfigError, from_env
from bot.storage.sqlite import SqliteStore

GOOD = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def cfg(**env: str):
    return from_env({"DISCORD_TOKEN": GOOD, **env})


def test_unsharded_by_default():
    c = cfg()
    assert c.shard_count is None and c.shard_ids is None and not c.sharded and c.syncs_commands
    assert c.metrics_port is None


@pytest.mark.parametrize("count, ids, expected", [
    ("4", "", (0, 1, 2, 3)),
    ("8", "0-3", (0, 1, 2, 3)),
    ("8", "4,5", (4, 5)),
    ("8", " 6 , 0-1 ", (0, 1, 6)),
    ("2", "1", (1,)),
])
def test_shard_ids(count, ids, expected):
    c = cfg(PARLOR_SHARD_COUNT=count, PARLOR_SHARD_IDS=ids)
    assert c.shard_count == int(count) and c.shard_ids == expected and c.sharded
    assert c.syncs_commands == (0 in expected)


@pytest.mark.parametrize(
    "env, words",
    [
        ({"PARLOR_SHARD_IDS": "0-1"}, "PARLOR_SHARD_IDS needs PARLOR_SHARD_COUNT"),
        ({"PARLOR_SHARD_COUNT": "two"}, "PARLOR_SHARD_COUNT='two'"),
        ({"PARLOR_SHARD_COUNT": "0"}, "PARLOR_SHARD_COUNT='0'"),
        (
            {"PARLOR_SHARD_COUNT": "4", "PARLOR_SHARD_IDS": "4"},
            "shard 4 does not exist with PARLOR_SHARD_COUNT=4",
        ),
        ({"PARLOR_SHARD_COUNT": "4", "PARLOR_SHARD_IDS": "3-1"}, "runs backwards"),
        ({"PARLOR_SHARD_COUNT": "4", "PARLOR_SHARD_IDS": "0-2,2"}, "names shard 2 twice"),
        ({"PARLOR_SHARD_COUNT": "4", "PARLOR_SHARD_IDS": "a-b"}, "PARLOR_SHARD_IDS='a-b'"),
        ({"PARLOR_SHARD_COUNT": "4", "PARLOR_SHARD_IDS": "1-"}, "PARLOR_SHARD_IDS='1-'"),
        ({"PARLOR_METRICS_PORT": "http"}, "PARLOR_METRICS_PORT='http'"),
        ({"PARLOR_METRICS_PORT": "70000"}, "PARLOR_METRICS_PORT='70000'"),
    ],
)
def test_errors_are_one_line_naming_the_variable(env, words):
    with pytest.raises(ConfigError) as err:
        cfg(**env)
    text = str(err.value)
    assert words in text and "\n" not in text


def test_metrics_port():
    assert cfg(PARLOR_METRICS_PORT="9108").metrics_port == 9108
    assert cfg(PARLOR_METRICS_PORT=" ").metrics_port is None


def test_create_bot_picks_the_sharded_client(tmp_path):
    store = SqliteStore(str(tmp_path / "p.sqlite3"))
    plain = create_bot(cfg(), store)
    assert type(plain) is ParlorBot
    sharded = create_bot(cfg(PARLOR_SHARD_COUNT="4", PARLOR_SHARD_IDS="2,3"), store)
    assert isinstance(sharded, ShardedParlorBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [2, 3]
    assert not sharded.sync_commands  # only the process with shard 0 uploads the commands


def test_a_process_serves_the_guilds_of_its_own_shards_and_dms_on_shard_0():
    guild = (123456 << 22) | 99  # (id >> 22) % 4 == 0
    others = [((123456 + k) << 22) for k in (1, 2, 3)]  # shards 1, 2, 3
    one_process = Config(token="x")
    assert one_process.serves(guild) and one_process.serves(None)
    first = Config(token="x", shard_count=4, shard_ids=(0, 1))
    second = Config(token="x", shard_count=4, shard_ids=(2, 3))
    assert first.serves(guild) and first.serves(others[0]) and not first.serves(others[1])
    assert second.serves(others[1]) and second.serves(others[2]) and not second.serves(guild)
    assert first.serves(None) and not second.serves(None)
    every = Config(token="x", shard_count=4, shard_ids=None)  # the count alone: this process runs them all
    assert all(every.serves(g) for g in (guild, *others, None))
