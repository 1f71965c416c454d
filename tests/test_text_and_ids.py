"""Escaping of display names and strict parsing of component ids
(the e2e tests drive both through Discord)."""

import doctest

import pytest

import bot.components
import bot.names
from bot.names import plain, shown
from cogs._views import BadComponent, ComponentId, parse_custom_id

pytestmark = pytest.mark.unit


def test_doctests():
    for module in (bot.names, bot.components):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("name,expected", [
    ("**@everyone** <@123> _x_", "\\*\\*@\u200beveryone\\*\\* <\u200b@123> \\_x\\_"),
    ("@here", "@\u200bhere"),
    ("<@123456789012345678>", "<\u200b@\u200b123456789012345678>"),
    ("[click](https://evil)", "\\[click](https://evil)"),
    ("a|b `c` ~d~ >e", "a\\|b \\`c\\` \\~d\\~ >e"),
    ("plain name", "plain name"),
])
def test_shown_neutralises_markdown_and_mentions(name, expected):
    assert shown(name) == expected


def test_plain_keeps_markdown_for_places_that_do_not_render_it():
    assert plain("**@everyone**\n<@1>") == "**@\u200beveryone** <\u200b@1>"


@pytest.mark.parametrize("cid,kind,expected", [
    ("p:12:3:m:c3-c4", 2, ComponentId("p", 12, 3, "m:c3-c4")),
    ("p:12:-:accept", 2, ComponentId("p", 12, None, "accept")),
    ("s:1:0:mv", 3, ComponentId("s", 1, 0, "mv")),
    ("p:9223372036854775807:0:x", None, ComponentId("p", 2**63 - 1, 0, "x")),
])
def test_good_ids(cid, kind, expected):
    assert parse_custom_id(cid, kind) == expected


@pytest.mark.parametrize("cid,kind", [
    ("", None), ("p", None), ("p:1:0:", None), ("p:1:0: ", None), ("p:" + "9" * 40 + ":0:x", None),
    ("p:9223372036854775808:0:x", None), ("p:1:" + "9" * 40 + ":x", None), ("p:0:0:x", None),
    ("p:01:0:x", None), ("p:1:00:x", None), ("p:1:0:" + "x" * 95, None), ("p:1:0:x\n", None),
    ("s:1:0:mv", 2), ("p:1:0:x", 3), ("q:1:0:x", None),
])
def test_bad_ids(cid, kind):
    with pytest.raises(BadComponent):
        parse_custom_id(cid, kind)
