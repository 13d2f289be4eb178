"""``dominoproof play``: one seeded round of random legal moves, told move by move."""

from __future__ import annotations

import click

from dominoproof.api import play
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.errors import DominoproofError
from dominoproof.options import (
    overrides_option,
    resolve_variant,
    seed_option,
    variant_argument,
)
from dominoproof.render.text import render_round


@click.command("play", short_help="One seeded random round, told move by move with rule IDs.")
@variant_argument
@seed_option
@overrides_option
@click.option("--deal", "deal_text", default=None, metavar="DEAL",
              help='Play from this deal instead of a shuffled one: "P0: 6-6 5-6 ...; P1: ...; '
                   'stack: ..." (the boneyard top first), or a JSON file (a deal or a '
                   "trace); the moves are still random, seeded by --seed.")
@json_option
def command(variant: str, seed: int, overrides: tuple[str, ...], deal_text: str | None,
            as_json: str | None) -> None:
    """Play one round of VARIANT with uniformly random legal moves (seeded).

    Prints the deal, every move with the rule that allows it, the line of play,
    each R4 confirmation, fouls (R4.5), the block (R4.4) or the domino, and the
    scoring table (R5). With --json, writes the trace (a dominoproof.trace document;
    replay it with `dominoproof replay`).
    """
    v = resolve_variant(variant, overrides)
    try:
        trace = play(v, seed=seed, deal=deal_text)
    except DominoproofError as e:  # name the option the deal came from
        msg = str(e)
        raise DominoproofError(msg if msg.startswith("--deal") else
                               f"--deal: {msg.removeprefix('deal: ')}") from None
    if as_json:
        emit("trace", trace.to_json(), as_json)
    if text_too(as_json):
        click.echo(render_round(trace), nl=False)

