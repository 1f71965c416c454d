"""A loopback Discord (REST API v10 + gateway websocket + a tiny CDN) that real ``python -m bot``
processes connect to, and a driver that plays human users.

Where it came from: vendored from the team's own tool ``fakecord`` (../shared/tools/fakecord, v0.1.0)
so the repository's tests and benches need nothing outside the repository. Changes from the original:
package-relative imports; the bot process imports the launcher as ``parlor_loopback.launch`` (a private
import root holding only this package, see ``core.LAUNCH_PACKAGE``); only the server/sharding tests were
brought along (``test_server.py``, ``test_sharding.py``), plus ``test_parlor.py`` which runs Parlor
itself through it. The full driver API is described in ``README.md`` beside this file.

    from tests.loopback import FakeDiscord

    async with FakeDiscord(shard_count=2) as fd:
        guild = fd.create_guild("Test Guild")
        chan = guild.create_text_channel("games")
        alice = fd.create_user("alice"); guild.add_member(alice)
        await fd.start_bot(cwd=REPO_ROOT, env={"PARLOR_DATABASE": "sqlite:///..."})  # python -m bot
        r = await alice.slash(chan, "pylon new", opponent=bob)
        msg = await r.message()

Guilds are routed to the gateway session whose shard owns them, ``(guild_id >> 22) % shard_count``;
DMs go to shard 0. ``fd.ratelimits`` simulates 429s. ``BotProcess.kill()`` is a kill -9.
"""

from __future__ import annotations

# The names overlap tests.discord_double's ``__all__`` on purpose and are not imported from it: the bot
# process imports this package (as ``parlor_loopback``) from a root without ``tests``, so this module
# must import nothing at import time; the objects behind the names are the shared ones.
__all__ = [
    "APIError",
    "Attachment",
    "BotExited",
    "BotProcess",
    "Channel",
    "CommandNotFound",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "Member",
    "Message",
    "ModalView",
    "Role",
    "SimUser",
    "User",
    "UserActionError",
    "WaitTimeout",
    "errors",
]

__version__ = "0.1.0"


def __getattr__(name):  # lazy, so ``python -m fakecord.launch`` imports nothing heavy
    if name in ("FakeDiscord",):
        from .core import FakeDiscord

        return FakeDiscord
    if name == "SimUser":
        from .simuser import SimUser

        return SimUser
    if name in ("Guild", "Channel", "Message", "Attachment", "Role", "Member", "User"):
        from . import models

        return getattr(models, name)
    if name in ("Interaction", "ModalView"):
        from . import interactions

        return getattr(interactions, name)
    if name == "BotProcess":
        from .process import BotProcess

        return BotProcess
    if name in (
        "WaitTimeout",
        "UserActionError",
        "InteractionFailed",
        "BotExited",
        "CommandNotFound",
        "APIError",
    ):
        from . import errors

        return getattr(errors, name)
    if name == "errors":
        from . import errors

        return errors
    raise AttributeError(name)
