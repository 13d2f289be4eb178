"""``dominoproof show``: every parameter of a variant, its rule ID and its meaning."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

import click
from rich.text import Text

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.variant import find_variant, toml_value
from dominoproof.options import overrides_option, resolve_variant, variant_argument
from dominoproof.options import width as columns
from dominoproof.render.text import side_name, simple_table, table_text

if TYPE_CHECKING:
    from dominoproof.model.variant import Variant


@click.command("show", short_help="Every parameter of a variant: value, rule ID, meaning.")
@variant_argument
@overrides_option
@click.option("--toml", "as_toml", is_flag=True,
              help="Print the variant as a TOML file (a starting point for your own).")
@json_option
def command(variant: str, overrides: tuple[str, ...], as_toml: bool,
            as_json: str | None) -> None:
    """Show every parameter of VARIANT, grouped by TOML section, with its value, the
    rule ID it realises and what it means; then the figures derived from them (tiles
    in the set, dealt, boneyard, set aside, confirmations needed for a block).

    A file with a `base` has its changes from that preset marked with a `*` (with -o
    overrides on a preset, the changes from the preset), explained under the table;
    `dominoproof diff FILE` compares the two in full.
    """

    v = resolve_variant(variant, overrides)
    if as_toml:
        click.echo(v.to_toml(), nl=False)
        return
    ref, ref_what = _reference(v, variant, overrides)
    ref_values = ({key: value for key, _, value, _ in ref.parameters()}
                  if ref is not None else {})
    changed = {key for key, _, value, _ in v.parameters()
               if ref is not None and ref_values[key] != value}

    out = [v.name + (f"  (aka {', '.join(v.aliases)})" if v.aliases else "")]
    out.append(f"  source: {v.source}")
    if v.base:
        out.append(f"  base: {v.base} (what this file changes is marked *)")
    if v.description:
        out += textwrap.wrap(v.description, columns(), initial_indent="  ", subsequent_indent="  ")
    out.append("")

    table = simple_table()
    if ref is not None:
        table.add_column("", no_wrap=True, width=1)
    table.add_column("parameter", no_wrap=True)
    table.add_column("value", overflow="fold", max_width=24)
    table.add_column("rule", no_wrap=True)
    table.add_column("meaning", ratio=1)
    section = ""
    for key, rule, value, doc in v.parameters():
        sec, _, name = key.partition(".")
        mark = [Text("*" if key in changed else "")] if ref is not None else []
        if sec != section:
            table.add_row(*([Text("")] if ref is not None else []), Text(f"[{sec}]"))
            section = sec
        table.add_row(*mark, Text(f"  {name}"), Text(toml_value(value)), Text(rule), Text(doc))
    out.append(table_text(table))
    if ref is not None:
        out += textwrap.wrap(
            f"* differs from {ref_what} ({len(changed)} of {len(v.parameters())} "
            f"parameters; `dominoproof diff` compares the two in full)", columns(),
            initial_indent="  ", subsequent_indent="    ")

    n, count = v.n, v.tiles.count
    conf_how = {"all": "every player, from the proposer",
                "all-others": "every player but one"}.get(v.block.confirmations.rule,
                                                           "a fixed number")
    derived: list[tuple[str, str, str]] = [
        ("tiles in the set", str(count), f"double-{n}: (N+1)(N+2)/2 (Terms)"),
        ("dealt", str(v.dealt), f"{v.players} players x {v.deal.hand_size} tiles"),
        ("boneyard", str(v.boneyard_size), "drawable stock after the deal (R3)"),
        ("set aside", str(v.deal.set_aside), "out of play, never drawn (R3.1)"),
        ("confirmations needed", str(v.needed_confirmations),
         f'consecutive, to establish a block (R4.4: "{v.block.confirmations}", {conf_how})'),
        ("sides that score", ", ".join(side_name(s) for s in v.teams),
         "teams compare totals (R5.2)" if len(v.teams) < v.players else "one per player"),
        ("every tile in play", "yes" if v.all_in_play else "no",
         "each tile is in a hand, the boneyard or on the table (premise of the parity "
         "argument)"),
    ]
    if as_json:
        emit("show", {"name": v.name, "aliases": list(v.aliases), "source": v.source,
                      "description": v.description,
                      "base": ({"name": ref.name, "what": ref_what, "changed": sorted(changed)}
                               if ref is not None else None),
                      "parameters": [{"key": key, "rule": rule, "value": value, "meaning": doc,
                                      "changed": key in changed}
                                     for key, rule, value, doc in v.parameters()],
                      "derived": [{"figure": label, "value": value, "meaning": why}
                                  for label, value, why in derived],
                      "warnings": list(v.warnings)}, as_json)
    if not text_too(as_json):
        return
    out.append("")
    out.append("derived")
    width = max(len(d[0]) for d in derived)
    vwidth = max(len(d[1]) for d in derived)
    indent = " " * (2 + width + 2 + vwidth + 2)
    for label, value, why in derived:
        out += textwrap.wrap(why, columns(), initial_indent=f"  {label.ljust(width)}  "
                             f"{value.rjust(vwidth)}  ", subsequent_indent=indent)
    click.echo("\n".join(out))


def _reference(v: Variant, name: str, overrides: tuple[str, ...]) -> tuple[Variant | None, str]:
    """What the shown variant's changes are marked against: the preset or file a file names
    as its ``base``, else (with -o overrides) the variant as named; None when neither."""
    if v.base:
        kind = "file" if v.base.endswith(".toml") else "preset"
        return find_variant(v.base), f"the base {kind} {v.base}"
    if overrides:
        plain = resolve_variant(name)
        return plain, f"{plain.name} without the -o overrides"
    return None, ""
