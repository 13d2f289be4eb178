"""``dominoproof play``: one seeded round of random legal moves, told move by move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from dominoproof.jsonout import emit, text_too

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace
    from dominoproof.model.moves import Move
    from dominoproof.model.variant import Variant
from dominoproof.options import (
    json_option,
    overrides_option,
    resolve_variant,
    seed_option,
    variant_argument,
)


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
    from dominoproof.model.engine import random_round
    from dominoproof.render import render_round

    v = resolve_variant(variant, overrides)
    trace = random_round(v, seed) if deal_text is None else _from_deal(v, deal_text, seed)
    if as_json:
        emit("trace", trace.to_json(), as_json)
    if text_too(as_json):
        click.echo(render_round(trace), nl=False)


def _from_deal(v: Variant, text: str, seed: int) -> Trace:
    """A round of random legal moves (seeded) from the deal written in ``text``, checked
    like a deal read from a file (every tile once, hands of the variant's size)."""
    import random

    from dominoproof.model.dealtext import parse_deal
    from dominoproof.model.engine import Trace, initial_state, playout
    from dominoproof.model.errors import DominoproofError
    from dominoproof.model.rules import VoidDeal, rules_for

    deal = parse_deal(v, text)
    rules = rules_for(v)
    try:
        s = initial_state(v, deal, rules=rules)
    except VoidDeal:
        raise DominoproofError(f"--deal: the deal is void under [lead] rule = "
                               f'"{v.lead.rule.value}" (nobody holds the lead tile)') from None
    moves: list[Move] = []
    playout(rules, s, random.Random(seed).random, moves)
    return Trace(v, deal, tuple(moves), seed)
