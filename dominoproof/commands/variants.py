"""``dominoproof variants``: the built-in presets, one entry each."""

from __future__ import annotations

import click

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.variant import LeadRule, Variant, presets
from dominoproof.options import aligned, width


@click.command("variants", short_help="The built-in variants (presets).")
@json_option
def command(as_json: str | None) -> None:
    """List the built-in variants (presets): name, set, players, hand size, tiles set
    aside, draw rule (R3.1), lead, tie rule (R5.5), then the aliases and a one-line
    description under each.

    Any of them, by name or alias, is a VARIANT for the other commands;
    `dominoproof show NAME` prints every parameter, `--toml` a file to start from.
    """
    def lead(v: Variant) -> str:
        if v.lead.rule is LeadRule.PLAYER:
            return f"P{v.lead.player}, any tile"
        if v.lead.rule is LeadRule.TILE:
            return f"holder of {v.lead.tile}"
        return "highest double"

    header = ("name", "set", "players", "hand", "aside", "draw (R3.1)", "lead", "tie (R5.5)")
    rows = [(v.name, f"d{v.n}", str(v.players), str(v.deal.hand_size),
             str(v.deal.set_aside), v.draw.rule.value, lead(v), v.scoring.tie.value)
            for v in presets().values()]
    head, *lines = aligned([header, *rows], right={2, 3, 4})
    if as_json:
        emit("variants", {"presets": [
            {"name": v.name, "aliases": list(v.aliases), "description": v.description,
             "set": v.n, "players": v.players, "hand_size": v.deal.hand_size,
             "set_aside": v.deal.set_aside, "draw": v.draw.rule.value, "lead": lead(v),
             "tie": v.scoring.tie.value} for v in presets().values()]}, as_json)
    if not text_too(as_json):
        return
    out = [head, "-" * min(width(), len(head))]
    for v, shown in zip(presets().values(), lines, strict=True):
        out.append(shown)
        about = _first_sentence(v.description)
        if v.aliases:
            about = f"aka {', '.join(v.aliases)} — {about}"
        out.append(_clip("    " + about, width()))
    click.echo("\n".join(out))


def _first_sentence(text: str) -> str:
    """The description up to its first full stop (the rest is in `show`)."""
    for i, ch in enumerate(text):
        if ch == "." and (i + 1 == len(text) or text[i + 1] == " "):
            return text[:i + 1]
    return text


def _clip(text: str, width: int) -> str:
    """``text`` cut at a word boundary to fit ``width`` columns, marked with ``…``."""
    if len(text) <= width:
        return text
    cut = text[:width - 1]
    if " " in cut.strip():
        cut = cut[:cut.rstrip().rfind(" ")]
    return cut.rstrip(" ,;:") + "…"
