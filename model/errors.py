"""Typed errors of the model. Every error a user can cause is one of these."""

from __future__ import annotations

import json
from typing import Any


class DominoproofError(Exception):
    """Base of every error that dominoproof reports to a user (no traceback)."""


class VariantError(DominoproofError):
    """A variant file or preset is invalid.

    The message names the file, the key, the value and what is allowed, so a
    rules designer can fix the file without reading code.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str = "<variant>",
        key: str = "",
        value: object = None,
        allowed: str = "",
    ) -> None:
        self.source = source
        self.key = key
        self.value = value
        self.allowed = allowed
        self.detail = message
        where = source
        if key:
            where += f": {key}"
            if value is not None:
                where += f" = {_show(value)}"
        text = f"{where}: {message}"
        if allowed:
            text += f" (allowed: {allowed})"
        super().__init__(text)


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + brief(value, quote=False, limit=80) + '"'
    return brief(value, quote=False, limit=80)


def one_line(text: str) -> str:
    """``text`` on one line: a newline or other control character inside a value is shown
    escaped (``\\n``), never echoed raw, so an error is exactly one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def brief(value: Any, *, quote: bool = True, limit: int = 40) -> str:
    """A value for a one-line message: JSON (``quote``) or as Python prints it, control
    characters escaped (a newline in a value never splits a message), at most ``limit``
    characters (a number of thousands of digits is shown by its length)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** limit:
        return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    try:
        text = json.dumps(value, ensure_ascii=False) if quote else repr(value) if not \
            isinstance(value, str) else value
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    text = one_line(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"



class IllegalMoveError(DominoproofError):
    """A move that the rules do not allow in the given state.

    ``apply`` raises it before anything changes (states are immutable values,
    so "nothing changes" holds by construction). ``rule`` names the rule ID
    that forbids the move.
    """

    def __init__(self, message: str, *, move: object = None, rule: str = "") -> None:
        self.move = move
        self.rule = rule
        prefix = f"{rule}: " if rule else ""
        super().__init__(f"{prefix}{message}")


class FalseDeclarationError(IllegalMoveError):
    """R4.5: a player declared an inability to play while holding a legal move,
    in a variant where such a foul is impossible (rejected as illegal)."""


class TraceError(DominoproofError):
    """A trace (JSON) that cannot be read or does not replay."""
