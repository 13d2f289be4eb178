"""``dominoproof stats``: the figures a rules designer asks for, under a play policy.

By default exact when the configuration is small enough (at most ``--max-deals`` deals),
else sampled, saying which and why. ``--exact``: exact figures by dynamic programming over
the state graph of every deal (more than ``--max-deals`` deals is refused, exit 2, with
the count and the advice to use ``--sampled``; a search or time budget that runs out is
UNKNOWN, exit 3, and no figure is printed). ``--sampled``: the same figures on ``-n``
rounds the engine plays, with 95% intervals. An option of one mode chooses that mode.
See docs/STATS.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from rich.text import Text

from dominoproof.cli import EXIT_UNKNOWN
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.dealtext import parse_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.spec import count_deals
from dominoproof.options import (
    PositiveNumber,
    cluster_options,
    lists_in_help,
    overrides_option,
    policy_option,
    resolve_variant,
    variant_argument,
)
from dominoproof.progress import progress
from dominoproof.proofs.analysis import stats
from dominoproof.proofs.analysis.policies import help_list, policy_named
from dominoproof.proofs.runner import cluster_spec
from dominoproof.render.text import figure, figures_table, table_text

if TYPE_CHECKING:
    from dominoproof.proofs.analysis.figures import Estimate, RoundFigures
    from dominoproof.proofs.runner import Runner

#: Options of one mode only, with the mode they belong to.
_EXACT_ONLY = ("draw_order", "deal_text", "max_deals", "max_states", "max_seconds")
_SAMPLED_ONLY = ("rounds", "seed", "workers", "cluster", "scheduler")


def _option_name(name: str) -> str:
    return {"deal_text": "--deal", "rounds": "--rounds"}.get(
        name, "--" + name.replace("_", "-"))


@click.command("stats", cls=lists_in_help(help_list),
               short_help="Exact (small sets) or sampled figures under a play policy: "
                          "blocks, ties, residuals, length, awards, R5.6 risk.")
@variant_argument
@overrides_option
@policy_option
@click.option("--exact/--sampled", "exact", default=None,
              help="Exact figures over every deal (small configurations), or Monte-Carlo "
                   "figures with 95% intervals (any size). Default: exact when there are "
                   "at most --max-deals deals, else sampled; an option of one mode "
                   "chooses it.")
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=10_000,
              show_default=True, help="--sampled: rounds to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="--sampled: seed of the deals and moves (same seed, same figures).")
@click.option("--draw-order", type=click.Choice(["free", "deal"]), default="free",
              show_default=True,
              help="--exact, draw games: free (each boneyard tile equally likely to be "
                   "drawn) or deal (each order of the boneyard a deal of its own: the same "
                   "figures from a far larger graph).")
@click.option("--deal", "deal_text", default=None, metavar="TEXT|FILE",
              help="--exact: the figures of one deal, written out as for `dominoproof "
                   "explore --deal` ('P0: 0-0 2-2; P1: ...; aside: ...').")
@click.option("--max-deals", type=click.IntRange(min=1), default=None, metavar="N",
              help="--exact: refuse configurations with more deals (default 250,000).")
@click.option("--max-states", type=click.IntRange(min=1), default=None, metavar="N",
              help="--exact: state budget of the search (default 3,000,000); beyond it "
                   "the answer is UNKNOWN (exit 3).")
@click.option("--max-seconds", type=PositiveNumber(), default=None,
              help="--exact: time budget of the search and the dynamic programme; beyond "
                   "it the answer is UNKNOWN (exit 3).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="--sampled: processes of this machine playing the batches of rounds "
                   "(the same figures for any number).")
@cluster_options
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Tiles listed in the R5.6 table (the JSON lists every tile).")
@json_option
@click.pass_context
def command(ctx: click.Context, variant: str, overrides: tuple[str, ...], policy: str,
            exact: bool | None, rounds: int, seed: int, draw_order: str, deal_text: str | None,
            max_deals: int | None, max_states: int | None, max_seconds: float | None,
            workers: int, cluster: str | None, scheduler: str | None, top: int,
            as_json: str | None) -> None:
    """The figures of VARIANT under a play policy (--policy): the probability that a
    round blocks (R1.1, R4.4) and that sides tie at a block (R5.5), the expected
    residual at a block (R5.3, R5.2), the expected length, the distribution of the
    winner's award (R5.4) and each tile's expected cost at a block (R5.6). --exact
    (default) computes them exactly over every deal, in rational arithmetic; --sampled
    measures them on random rounds, with 95% intervals; by default exact when the
    configuration has at most --max-deals deals, else sampled, and the output says which.
    Exit codes: 0 answered, 2 bad input or too many deals for --exact, 3 UNKNOWN (a
    budget ran out: no figure).
    --sampled plays its rounds in batches, here, on --workers processes or on a Dask
    cluster (--cluster local:N, --scheduler ADDRESS): the same figures wherever.
    """
    given = [n for n in (*_EXACT_ONLY, *_SAMPLED_ONLY)
             if ctx.get_parameter_source(n) not in (None, click.core.ParameterSource.DEFAULT)]
    if exact is None and given:  # an option of one mode chooses it
        exact = given[0] in _EXACT_ONLY
    wrong = [n for n in given if n in (_SAMPLED_ONLY if exact else _EXACT_ONLY)]
    if wrong:
        raise DominoproofError(f"{_option_name(wrong[0])}: applies to "
                               f"{'--sampled' if exact else '--exact'} only")
    spec = cluster_spec(cluster, scheduler, workers)
    v = resolve_variant(variant, overrides)
    chosen = policy_named(policy)
    free = draw_order == "free"
    why = ""
    if exact is None:
        deals = count_deals(v, free)
        limit = max_deals or stats.MAX_EXACT_DEALS
        exact = deals <= limit
        if not exact:
            why = (f"{stats.deal_count(deals)} deals, more than the {limit:,} an exact run "
                   "enumerates (--max-deals; --exact insists)")
    figures: RoundFigures | None = None
    reason = ""
    if exact:
        deal = parse_deal(v, deal_text, free_draw=free) if deal_text is not None else None
        try:
            with progress(f"stats {v.name}") as bar:
                bar.update("exact figures: every deal's state graph")
                figures = stats.exact_figures(
                    v, chosen, free_draw=free, deal=deal,
                    max_deals=max_deals or stats.MAX_EXACT_DEALS,
                    max_states=max_states or stats.DEFAULT_MAX_STATES,
                    max_seconds=max_seconds)
        except stats.FiguresUnknown as e:
            reason = e.reason
    else:
        with spec.open() as runner:
            figures = _sampled(v, chosen, rounds, seed, runner)
    if as_json:
        emit("stats", {"variant": v.name, "policy": chosen.name,
                       "policy_summary": chosen.summary,
                       "method": "exact" if exact else "sampled", "why_sampled": why,
                       "status": "answered" if figures is not None else "unknown",
                       "reason": reason,
                       "figures": figures.to_json() if figures is not None else None},
             as_json)
    if text_too(as_json):
        if why:
            click.echo(f"(sampled, not exact: {why})")
        if figures is None:
            click.echo(f"Exact figures of {v.name} under the {chosen.name} policy: UNKNOWN "
                       f"({reason}); no figure is given. Raise --max-states or "
                       "--max-seconds, or use --sampled.")
        else:
            click.echo(render_figures(figures, top))
    if figures is None:
        ctx.exit(EXIT_UNKNOWN)


def _sampled(v: Any, chosen: Any, rounds: int, seed: int, runner: Runner) -> RoundFigures:
    with progress(f"stats {v.name}", total=rounds) as bar:
        return stats.sampled_figures(v, chosen, rounds, seed,
                                     progress=lambda done: bar.update(completed=done),
                                     every=max(1, min(2000, rounds // 100)), runner=runner)


#: An exact fraction longer than this is shown by its size (the JSON has it in full).
_FRACTION_WIDTH = 21


def render_figures(f: RoundFigures, top: int = 10) -> str:
    """The figures as text tables (fixed width, no colour)."""

    def num(e: Estimate, probability: bool = False) -> str:
        return figure(e.value, probability)

    def extra(e: Estimate, probability: bool = False) -> str:
        if f.exact:
            if e.exact is None:
                return "-"
            text = str(e.exact)
            return text if len(text) <= _FRACTION_WIDTH else \
                f"({len(str(e.exact.denominator))}-digit denominator)"
        if e.low is None or e.high is None:
            return "(too few rounds)" if e.value is not None else "-"
        return f"{figure(e.low, probability)} .. {figure(e.high, probability)}"

    last = "exact" if f.exact else f"{f.level:.0%} interval"
    pol = policy_named(f.policy)
    head = "Exact figures" if f.exact else "Sampled figures"
    out = [f"{head} of {f.variant}", f"  policy {f.policy}: {pol.summary}",
           f"  {f.configuration}"]
    if f.exact:
        out.append(f"  {f.states:,} states; rational arithmetic, shown rounded (the "
                   "fractions in full with --json)")
    else:
        out.append(f"  intervals: Wilson for probabilities, normal (sample standard "
                   f"deviation) for means, at {f.level:.0%}")
    labels = {
        "blocked": "P(the round ends blocked)  R1.1, R4.4",
        "tie": "P(a block with a tie for the lowest total)  R5.5",
        "residual": "E(pips left in all hands | blocked)  R5.3",
        "winner_residual": "E(the winner's residual | blocked)  R5.2",
        "length": "E(moves per round, R4 confirmations included)",
        "award_mean": "E(the winner's award | someone scores)  R5.4",
    }
    t = figures_table("figure", "value", last)
    for name, e in f.scalars():
        chance = name in ("blocked", "tie")
        t.add_row(Text(labels[name]), Text(num(e, chance)), Text(extra(e, chance)))
    out += ["", table_text(t)]

    t = figures_table("the winner's award (R5.4, R5.5)", "probability", last)
    for a in f.awards:
        t.add_row(Text("nobody scores" if a.award is None else str(a.award)),
                  Text(num(a.probability, True)), Text(extra(a.probability, True)))
    out += ["", table_text(t)]

    if f.blocked.value:
        t = figures_table("R5.6 risk: tile", "value", "double", "P(held | blocked)",
                  "E(cost | blocked)", f"cost {last}")
        for c in f.risk[:top]:
            t.add_row(Text(c.tile.show()), Text(str(c.value)), Text("yes" if c.double else ""),
                      Text(num(c.held, True)), Text(num(c.cost)), Text(extra(c.cost)))
        out += ["", table_text(t)]
        doubles = [c.cost.value or 0.0 for c in f.risk if c.double]
        others = [c.cost.value or 0.0 for c in f.risk if not c.double]
        out.append("  cost: the tile's value when its holder's side does not win the block, "
                   "per blocked round")
        if doubles and others:
            out.append(f"  mean cost per tile: doubles {figure(sum(doubles) / len(doubles))}, "
                       f"other tiles {figure(sum(others) / len(others))}")
        if len(f.risk) > top:
            out.append(f"  ({len(f.risk) - top} more tiles with --top or --json)")
    else:
        out += ["", "  R5.6 risk: no round blocks, no tile is left at a block"]
    return "\n".join(out)
