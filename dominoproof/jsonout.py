"""Versioned JSON: every JSON document a command writes, and the ``--json [FILE|-]`` option.

Every document carries ``"format": "dominoproof.<command>"`` and ``"version"``
(:data:`VERSION`), and has a JSON Schema shipped with the package
(``dominoproof/schemas/<command>.schema.json``, :func:`schema`). A document's keys never
contain spaces (:func:`plain_keys`). ``--json`` alone or ``--json -`` prints the document on
standard output instead of the text; ``--json FILE`` writes it to FILE (its folder is
checked before any work) and the text is printed as usual.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import click

from dominoproof.model.errors import DominoproofError
from dominoproof.options import check_output_path, write_out

F = TypeVar("F", bound=Callable[..., Any])

#: The version of every document's layout: raised when a key changes meaning or goes.
VERSION = 1

#: The commands (and benchmarks) that write JSON, each with its schema.
DOCUMENTS = ("variants", "show", "trace", "replay", "simulate", "stats", "explore", "prove",
             "witness", "crosscheck", "verify", "check-log", "diff", "repair", "bench-engine",
             "bench-proofs",
             "bench-spin")


def document(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as a versioned document of ``kind`` (a key of :data:`DOCUMENTS`)."""
    body = {k: v for k, v in plain_keys(payload).items() if k not in ("format", "version")}
    return {"format": f"dominoproof.{kind}", "version": VERSION, **body}


def plain_keys(data: Any) -> Any:
    """``data`` with every key's spaces made underscores (``"max memory"`` ->
    ``"max_memory"``), at every depth, and tuples made lists."""
    if isinstance(data, dict):
        return {str(k).replace(" ", "_"): plain_keys(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [plain_keys(v) for v in data]
    return data


def dumps(kind: str, payload: dict[str, Any]) -> str:
    return json.dumps(document(kind, payload), indent=1, default=str)


def emit(kind: str, payload: dict[str, Any], dest: str | Path) -> None:
    """Write the document to ``dest``: ``"-"`` is standard output, else a file."""
    text = dumps(kind, payload)
    if str(dest) == "-":
        click.echo(text)
    else:
        write_out(dest, text + "\n")


def text_too(dest: str | Path | None) -> bool:
    """Whether the command prints its text as well: not when the JSON goes to stdout."""
    return dest is None or str(dest) != "-"


def _check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None or value == "-":
        return value
    try:
        check_output_path(value, "--json")
    except DominoproofError as e:
        raise click.BadParameter(str(e).removeprefix("--json "), ctx, param) from None
    return value


def json_option(f: F) -> F:
    """``--json [FILE|-]``, passed as ``as_json: str | None`` (None: no JSON)."""
    return click.option(
        "--json", "as_json", is_flag=False, flag_value="-", default=None, metavar="[FILE|-]",
        callback=_check,
        help="Write the result as versioned JSON (format dominoproof.<command>, version "
             f"{VERSION}; schema shipped with the package): to FILE, or with - or no "
             "value to standard output instead of the text.")(f)


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a document of ``kind``, as shipped with the package."""
    text = resources.files("dominoproof").joinpath("schemas", f"{kind}.schema.json")
    data: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return data


__all__ = ["DOCUMENTS", "VERSION", "document", "dumps", "emit", "json_option", "plain_keys",
           "schema", "text_too"]
