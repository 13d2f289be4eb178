"""``dominoproof schema``: the JSON Schemas of the documents ``--json`` writes, as shipped."""

from __future__ import annotations

import json
from importlib import resources

import click

from dominoproof.jsonout import schema
from dominoproof.model.errors import DominoproofError, brief


def shipped() -> list[str]:
    """The kinds of document with a schema in the package (``dominoproof/schemas/``)."""
    folder = resources.files("dominoproof").joinpath("schemas")
    return sorted(f.name.removesuffix(".schema.json") for f in folder.iterdir()
                  if f.name.endswith(".schema.json"))


@click.command("schema", short_help="Print the JSON Schema of a --json document.")
@click.argument("kind", required=False)
def command(kind: str | None) -> None:
    """Print the JSON Schema (draft 2020-12) of the document that ``--json`` writes for
    KIND (a command's name, e.g. ``verify``), as shipped with the package, so that a CI
    job can validate what it reads (``pip install 'dominoproof[ci]'`` brings jsonschema).
    Without KIND: the kinds, one per line."""
    kinds = shipped()
    if kind is None:
        click.echo("\n".join(kinds))
        return
    if kind not in kinds:
        raise DominoproofError(f"schema: no schema for {brief(kind)} (allowed: "
                               f"{', '.join(kinds)})")
    click.echo(json.dumps(schema(kind), indent=2))
