"""Telling players it is their turn: thread pings, DMs, reminders (issue 12), for every game.

Who is told: the humans who *became* able to act with this result (to act now, not before it,
and not the one who just moved), so a player who moves again (Egg Carton repick, Nomic steps)
or a simultaneous phase already under way (EOF programs) pings nobody twice. How: each member's
``/notify`` choice in that server: ``thread`` (a new message in the match thread mentioning only
them, with ``allowed_mentions`` limited to them; the default), ``dm`` (a DM linking to the thread;
closed DMs fall back to the thread ping) or ``off``.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import discord

from bot.chores import FAILURES, message_payload, transient
from bot.i18n import N_, _, capitalised, language_of_user, public, speaking
from bot.matches.service import Match, Result
from bot.names import shown, versus
from bot.storage import NotifyMode, Status, Store

if TYPE_CHECKING:
    from discord.http import HTTPClient

log = logging.getLogger(__name__)


PRESENT_WITHIN = 60.0
"""Seconds after their own move during which a player counts as present: a turn that comes back to them
within the same result (the computer answering them) is shown by editing the board, with no ping."""


def present(match: Match, result: Result, seat: int) -> bool:
    """Whether the turn comes back to ``seat`` from the computer answering them: ``result``'s moves are
    theirs, then only the computer's (or chance), the last less than :data:`PRESENT_WITHIN` seconds after
    their own. They are looking at the board, so telling them is noise."""
    own = [i for i, mv in enumerate(result.moves) if mv.seat == seat]
    if not own:
        return False
    after = result.moves[own[-1] + 1:]
    people = [mv for mv in after if 0 <= mv.seat < len(match.seats) and not match.seats[mv.seat].is_ai]
    computer = [mv for mv in after if 0 <= mv.seat < len(match.seats) and match.seats[mv.seat].is_ai]
    if people or not computer:
        return False
    return after[-1].created_at - result.moves[own[-1]].created_at < PRESENT_WITHIN


def newly_to_act(match: Match, result: Result | None) -> list[int]:
    """Human seats that can act now but could not before ``result`` (never the one who just acted, nor one
    who is :func:`present`: their own move is part of the result, moments ago)."""
    if result is None or match.status != Status.RUNNING:
        return []
    now = match.to_act()
    if result.started:
        before: frozenset[int] = frozenset()
    elif result.before is not None:
        who = match.rules.to_act(result.before)
        before = who if isinstance(who, frozenset) else frozenset()
    else:
        return []
    return [s for s in sorted(now - before)
            if s != result.actor and not match.seats[s].is_ai and s not in result.notified
            and not present(match, result, s)]


@dataclass(frozen=True)
class Notice:
    """What a turn notice asks for when it is not a move on the board (a Nomic vote): ``action`` in
    words ("vote on proposal 201") and the message to act on, linked as ``label``."""

    action: str
    url: str
    label: str = N_("go to it")
    """Marked for translation; looked up where the notice is written (a label given is used as it is)."""


Sent = tuple[int, int]
"""A notice sent: (channel id, message id), for a game that edits it once it is out of date."""


def mentions_of(user_ids: list[int]) -> discord.AllowedMentions:
    """Ping exactly these users and nothing else (no roles, no @everyone, no reply ping)."""
    return discord.AllowedMentions(users=[discord.Object(u) for u in user_ids], roles=False, everyone=False,
                                   replied_user=False)


def board_url(match: Match) -> str:
    url = f"https://discord.com/channels/{match.rec.guild_id or '@me'}/{match.rec.place_id}"
    return url + (f"/{match.rec.message_id}" if match.rec.message_id else "")


class TurnsHost(Protocol):
    """What turn notices need of the client (``ParlorBot`` has it): the store, REST, DM channels."""

    @property
    def store(self) -> Store: ...

    @property
    def http(self) -> HTTPClient: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...


class Turns:
    """The notification side of presenting a result; one per bot."""

    def __init__(self, bot: TurnsHost) -> None:
        self.bot = bot
        self._dm_channels: dict[int, int] = {}   # user id -> DM channel id (opening one costs a request)

    async def dm_channel_of(self, user_id: int) -> int:
        """The DM channel id: remembered, stored when the member chose ``dm``, or opened (one request)."""
        channel_id = self._dm_channels.get(user_id) or await self.bot.store.dm_channel(user_id)
        if channel_id is None:
            channel_id = int((await self.bot.http.start_private_message(user_id))["id"])
        self._dm_channels[user_id] = channel_id
        return channel_id

    async def modes(self, match: Match, seats: list[int]) -> dict[int, NotifyMode]:
        """Seat -> how that player wants to be told: as read with the match's seats, else from the store."""
        known = {s: mode for s in seats if (mode := match.seats[s].notify) is not None}
        users = [match.seats[s].user_id for s in seats if s not in known]
        stored = (
            {} if match.rec.guild_id is None or not users
            else await self.bot.store.notify_modes(match.rec.guild_id, users)
        )
        return {s: known.get(s) or stored.get(match.seats[s].user_id, NotifyMode.THREAD) for s in seats}

    async def split(self, match: Match, seats: list[int]) -> tuple[list[int], list[int]]:
        """(seats to ping in the thread, seats to DM); ``off`` seats are dropped."""
        modes = await self.modes(match, seats)
        thread = [s for s in seats if modes[s] == NotifyMode.THREAD]
        dm = [s for s in seats if modes[s] == NotifyMode.DM]
        return thread, dm

    @staticmethod
    def ping_text(match: Match, seats: list[int], title: str, *, reminder: str = "",
                  notice: Notice | None = None) -> str:
        """The thread's ping: written for the channel, in the server's language."""
        who = " ".join(f"<@{match.seats[s].user_id}>" for s in seats)
        with public(match.rec.guild_id):
            if notice is not None:
                link = f"[{_(notice.label)}]({notice.url})"
                if reminder:
                    return _("{players} ⏰ reminder: {action} in {game} #{number}, {left}: {link}",
                             players=who, action=notice.action, game=title, number=match.id, left=reminder,
                             link=link)
                return _("{players} {action}: {link}", players=who, action=notice.action, link=link)
            if reminder:
                return _("{players} ⏰ reminder: your move in {game} #{number}, {left}.", players=who,
                         game=title, number=match.id, left=reminder)
            return _("{players} your turn.", players=who)

    async def dm(self, match: Match, seat: int, title: str, *, reminder: str = "",
                 notice: Notice | None = None, sent: list[Sent] | None = None, last: str = "",
                 picture: tuple[bytes, str] | tuple[bytes, str, str] | None = None, text: str = "") -> bool:
        """DM one player that it is their move, with a link to the board (or what ``notice`` asks for,
        with its link), the move that began it (``last``, e.g. "Last: Bob: `c3-c4`") and the board's picture
        (``picture``: its bytes, file name and alt text) and ``text`` (the board as text, for a player who
        chose text boards); False if their DMs are closed. The message is added to ``sent``."""
        rec = match.seats[seat]
        with speaking(language_of_user(rec.user_id, match.rec.guild_id)):  # a DM: its reader's language
            body = self.dm_text(match, title, reminder=reminder, notice=notice)
        if last and not reminder:
            body += f"\n{last}"
        if text and not reminder:
            body += "\n" + text[: max(0, 1999 - len(body))]
        alt = picture[2] if picture is not None and len(picture) > 2 else None
        files = ([discord.File(io.BytesIO(picture[0]), picture[1], description=alt or None)]
                 if picture and not reminder else [])
        try:
            channel_id = await self.dm_channel_of(rec.user_id)
            dm = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            msg = await dm.send(body[:2000], files=files, allowed_mentions=discord.AllowedMentions.none())
            if sent is not None:
                sent.append((channel_id, msg.id))
            return True
        except discord.Forbidden:
            return False
        except discord.HTTPException:
            log.warning("turn DM to %s for match %s failed", rec.user_id, match.id, exc_info=True)
            return False

    @staticmethod
    def dm_text(match: Match, title: str, *, reminder: str = "", notice: Notice | None = None) -> str:
        """A turn DM's first line, in the current language: what to do, where, and the link."""
        names = versus(shown(s.name) for s in match.seats)
        game = f"**{title} #{match.id}**"
        if notice is not None:
            link = f"[{_(notice.label)}]({notice.url})"
            if reminder:
                return _("⏰ Reminder: {action}, {left} in {game} ({players}): {link}", action=notice.action,
                         left=reminder, game=game, players=names, link=link)
            action = capitalised(notice.action)
            return _("{action} in {game} ({players}): {link}", action=action, game=game, players=names,
                     link=link)
        link = _("[go to the board]({url})", url=board_url(match))
        if reminder:
            return _("⏰ Reminder: your move, {left} in {game} ({players}): {link}", left=reminder, game=game,
                     players=names, link=link)
        return _("Your move in {game} ({players}): {link}", game=game, players=names, link=link)

    async def deliver(self, match: Match, thread_seats: list[int], dm_seats: list[int], title: str,
                      place: discord.abc.Messageable | None, *, reminder: str = "",
                      notice: Notice | None = None, last: str = "",
                      picture: tuple[bytes, str] | tuple[bytes, str, str] | None = None,
                      texts: dict[int, tuple[str, str]] | None = None) -> list[Sent]:
        """Send DMs (with ``last`` and ``picture``: see :meth:`dm`), then one thread message pinging
        the thread seats and anyone whose DMs are closed; ``notice`` says what they are asked to do when
        it is not a move on the board; ``texts``: per seat that chose text boards, the move in words (instead
        of ``last``) and the board as text. Returns what was sent."""
        sent: list[Sent] = []
        fallback = [s for s in dm_seats
                    if not await self.dm(match, s, title, reminder=reminder, notice=notice, sent=sent,
                                         last=(texts or {}).get(s, (last, ""))[0], picture=picture,
                                         text=(texts or {}).get(s, ("", ""))[1])]
        ping = sorted(set(thread_seats) | set(fallback))
        if not ping or place is None:
            return sent
        users = [match.seats[s].user_id for s in ping]
        text = self.ping_text(match, ping, title, reminder=reminder, notice=notice)
        if not reminder and notice is None and match.rec.message_id:
            with public(match.rec.guild_id):
                text += " " + _("[Board]({url})", url=board_url(match))
        try:
            msg = await place.send(text[:2000], allowed_mentions=mentions_of(users))
            sent.append((msg.channel.id, msg.id))
        except FAILURES as exc:
            chores = getattr(self.bot, "chores", None)
            if not transient(exc) or chores is None or not hasattr(place, "id"):
                log.warning("turn ping in match %s failed", match.id, exc_info=True)
                return sent
            # a Discord incident: the ping goes out late, once (a stored chore, retried until Discord answers)
            payload = message_payload(content=text[:2000], allowed_mentions=mentions_of(users))
            await chores.later(match.id, "ping", place.id, None, payload, exc)
        return sent
