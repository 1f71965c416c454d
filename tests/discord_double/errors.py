"""Exceptions of the Discord test double.

Server side: :class:`APIError` (rendered as Discord's JSON error body and raised inside the bot as
``discord.HTTPException`` / ``Forbidden`` / ``NotFound``) and :class:`FormErrors` (the nested ``errors``
object of a ``400 Invalid Form Body`` / code 50035).

Test side: :class:`UserActionError` (a simulated user tried something the Discord client would not
allow), :class:`InteractionFailed` and :class:`WaitTimeout` (both ``AssertionError`` so a test fails
with a readable explanation).
"""

from __future__ import annotations

from typing import Any


class APIError(Exception):
    """Raised by REST handlers; becomes an HTTP error response for the bot."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}  # extra response headers (the loopback server sends them)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


class FormErrors:
    """Collects field errors; ``raise_if_any`` raises Discord's 50035 with the nested error tree."""

    def __init__(self) -> None:
        self.items: list[tuple[tuple[Any, ...], str, str]] = []

    def add(self, path: tuple[Any, ...], code: str, message: str) -> None:
        self.items.append((tuple(path), code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def tree(self) -> dict:
        root: dict = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def raise_if_any(self) -> None:
        if self.items:
            raise APIError(400, 50035, "Invalid Form Body", self.tree())


_UNKNOWN = {
    "application": (10002, "Unknown Application"),
    "channel": (10003, "Unknown Channel"),
    "guild": (10004, "Unknown Guild"),
    "member": (10007, "Unknown Member"),
    "message": (10008, "Unknown Message"),
    "role": (10011, "Unknown Role"),
    "user": (10013, "Unknown User"),
    "emoji": (10014, "Unknown Emoji"),
    "webhook": (10015, "Unknown Webhook"),
    "interaction": (10062, "Unknown interaction"),
    "command": (10063, "Unknown application command"),
}


def unknown(kind: str) -> APIError:
    code, message = _UNKNOWN[kind]
    return APIError(400 if kind == "emoji" else 404, code, message)


def missing_permissions() -> APIError:
    return APIError(403, 50013, "Missing Permissions")


def missing_access() -> APIError:
    return APIError(403, 50001, "Missing Access")


def cannot_dm() -> APIError:
    return APIError(403, 50007, "Cannot send messages to this user")


class DoubleError(Exception):
    """Base class of exceptions raised to tests by the double."""


class UserActionError(DoubleError):
    """A simulated user tried something the Discord client would not let them do."""


class CommandNotFound(UserActionError):
    """No registered command of that name and type is usable where the user typed it."""


class WaitTimeout(DoubleError, AssertionError):
    """A ``wait_for`` style call did not see what it waited for in time."""


class InteractionFailed(DoubleError, AssertionError):
    """The bot did not acknowledge an interaction in time ("This interaction failed")."""
