"""Reading TOML and JSON documents a user gives, with every failure a located error.

The standard parsers raise more than their own decode errors on hostile input: a
``RecursionError`` for arrays nested a thousand deep, a ``ValueError`` for an integer of
thousands of digits (Python's limit on converting them). Here each is one located
:class:`~dominoproof.model.errors.DominoproofError`, and a document nested deeper than
:data:`MAX_DEPTH` is refused before any validator walks it (no parameter of a variant
or field of a trace is nested more than a few levels).
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from .errors import DominoproofError, VariantError, one_line

#: The deepest nesting of tables and arrays accepted (a variant's teams are 3 levels).
MAX_DEPTH = 32


def _depth_error(data: Any) -> bool:
    """Whether ``data`` nests deeper than :data:`MAX_DEPTH` (walked without recursion)."""
    todo: list[tuple[Any, int]] = [(data, 1)]  # (a value, the level it is at)
    while todo:
        x, level = todo.pop()
        if isinstance(x, dict | list):
            if level > MAX_DEPTH:
                return True
            todo.extend((v, level + 1) for v in (x.values() if isinstance(x, dict) else x))
    return False


def _parse(kind: str, parse: Any, decode_error: type[Exception], text: str, source: str,
           error: type[DominoproofError]) -> Any:
    def fail(message: str) -> DominoproofError:
        if issubclass(error, VariantError):
            return error(message, source=source)
        return error(f"{source}: {message}")

    deep = (f"not accepted {kind}: nested too deeply (at most {MAX_DEPTH} levels of tables "
            "and arrays)")
    try:
        data = parse(text)
    except decode_error as e:
        raise fail(f"{'not JSON' if kind == 'JSON' else 'not valid TOML'}: "
                   f"{one_line(str(e))}") from None
    except RecursionError:
        raise fail(deep) from None
    except (ValueError, OverflowError) as e:  # an integer of thousands of digits
        raise fail(f"not accepted {kind}: {one_line(str(e).split(';')[0])} (numbers are "
                   "small whole numbers)") from None
    if _depth_error(data):
        raise fail(deep)
    return data


def read_toml(text: str, source: str, error: type[DominoproofError]) -> dict[str, Any]:
    """``text`` as TOML, or ``error`` naming ``source`` and what is wrong."""
    data: dict[str, Any] = _parse("TOML", tomllib.loads, tomllib.TOMLDecodeError, text, source,
                                  error)
    return data


def read_json(text: str, source: str, error: type[DominoproofError]) -> Any:
    """``text`` as JSON, or ``error`` naming ``source`` and what is wrong. ``NaN`` and
    ``Infinity``, which Python's parser accepts, are not JSON numbers: refused."""
    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    return _parse("JSON", lambda t: json.loads(t, parse_constant=constant),
                  json.JSONDecodeError, text, source, error)


__all__ = ["MAX_DEPTH", "read_json", "read_toml"]
