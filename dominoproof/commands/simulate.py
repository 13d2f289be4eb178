"""``dominoproof simulate``: Monte-Carlo statistics of a variant under random play (or a
play policy, ``--policy``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.table import Table
from rich.text import Text

from dominoproof.api import simulate
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.options import (
    cluster_options,
    lists_in_help,
    overrides_option,
    policy_option,
    resolve_variant,
    seed_option,
    variant_argument,
    verbosity_options,
)
from dominoproof.progress import progress
from dominoproof.proofs.analysis.policies import help_list, policy_named
from dominoproof.proofs.analysis.simulate import Distribution
from dominoproof.proofs.runner import cluster_spec
from dominoproof.render.text import figure, figures_table, side_name, table_text

if TYPE_CHECKING:
    from dominoproof.proofs.analysis.simulate import Statistics


@click.command("simulate", cls=lists_in_help(help_list),
               short_help="Monte-Carlo statistics: blocks, residuals, winners, R5.6 risk.")
@variant_argument
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Number of random rounds to play.")
@seed_option
@overrides_option
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Tiles listed in the R5.6 risk table.")
@policy_option
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes of this machine playing the batches of rounds (the figures "
                   "are the same for any number).")
@cluster_options
@verbosity_options
@json_option
def command(variant: str, rounds: int, seed: int, overrides: tuple[str, ...], top: int,
            policy: str, workers: int, cluster: str | None, scheduler: str | None,
            quiet: bool, verbose: bool, as_json: str | None) -> None:
    """Play random rounds of VARIANT (uniformly random deals; uniformly random legal
    moves, or those of --policy; seeded) and report:
    the share of rounds that block with a 95% Wilson interval, the residual pips at a
    block (R5.3), the winners per side (R5.2), ties and how they were settled (R5.5),
    round lengths, and the tiles that carry the risk of R5.6. --json prints the same
    figures as JSON for CI pipelines. The progress bar (stderr) shows only on a terminal.
    -q prints the share of blocks and dominoes only, -v the R5.6 risk of every tile.
    Rounds are played in batches of 100,000 (each from a seed derived from --seed), in
    this process, on --workers processes, or on a Dask cluster (--cluster local:N,
    --scheduler ADDRESS): the figures are the same wherever the batches ran.
    """
    spec = cluster_spec(cluster, scheduler, workers)
    v = resolve_variant(variant, overrides)
    chosen = policy_named(policy)
    if verbose:
        top = v.tiles.count
    with spec.open() as runner, progress(v.name, total=rounds, quiet=quiet) as bar:
        stats = simulate(v, rounds, seed=seed, top=top, policy=chosen, runner=runner,
                         progress=lambda done: bar.update(completed=done))
    if as_json:
        emit("simulate", stats.to_json(), as_json)
    if text_too(as_json):
        click.echo(render_statistics(stats, brief=quiet))


def render_statistics(stats: Statistics, *, brief: bool = False) -> str:
    """The statistics as text tables (no colour); ``brief``: the share of blocks and
    dominoes only."""

    s = stats
    n = s.rounds

    def pct(x: float) -> str:
        return figure(x, probability=True)

    def share(k: int, of: int) -> str:
        return pct(k / of) if of else "-"

    def num(x: float | int | None) -> str:
        return figure(x) if isinstance(x, float) or x is None else str(x)

    def row(t: Table, *cells: str) -> None:
        t.add_row(*(Text(c) for c in cells))

    def dist_row(t: Table, label: str, d: Distribution) -> None:
        row(t, label, num(d.mean), num(d.min), num(d.median), num(d.p95), num(d.max))

    lo, hi = s.block_ci
    how = ("uniformly random legal moves" if s.policy == "random"
           else f"the {s.policy} policy ({policy_named(s.policy).summary})")
    out = [f"Simulation of {s.variant}: {n} rounds of {how}, seed {s.seed}", ""]
    out.append(f"  blocked (R1.1, R4.4)  {s.blocked:>9} rounds  {pct(s.block_share):>7}   "
               f"95% Wilson interval {pct(lo)} .. {pct(hi)}")
    out.append(f"  domino                {s.dominoes:>9} rounds  "
               f"{share(s.dominoes, n):>7}")
    if brief:
        return "\n".join(out)

    t = figures_table("residual pips at a block (R5.3)", "mean", "min", "median", "p95", "max")
    dist_row(t, "all hands together", s.residual_total)
    dist_row(t, "the winner (lowest side total)", s.residual_winner)
    out += ["", table_text(t)]

    t = figures_table("winner (R5.2)", "at a block", "share", "by domino", "share", "total share")
    for side, b, d in zip(s.sides, s.wins_blocked, s.wins_domino, strict=True):
        row(t, side_name(side), str(b), share(b, n), str(d), share(d, n), share(b + d, n))
    if s.no_winner:
        row(t, "nobody (tie, R5.5)", str(s.no_winner), share(s.no_winner, n), "", "",
            share(s.no_winner, n))
    out += ["", table_text(t)]
    if sum(s.wins_blocked) > s.blocked - s.no_winner:
        out.append("  (a shared win counts for every side that shares it)")

    out += ["", f"  ties for the lowest total at a block: {s.ties} "
                f"({share(s.ties, s.blocked)} of blocks); R5.5 rule \"{s.tie_rule}\""]
    for how, k in s.tie_settled:
        out.append(f"    {how}: {k}")

    t = figures_table("round length", "mean", "min", "median", "p95", "max")
    dist_row(t, "moves (R4 confirmations included)", s.length)
    dist_row(t, "plays (tiles laid)", s.plays)
    out += ["", table_text(t)]

    t = figures_table("R5.6 risk: tile", "value", "held at a block", "share of blocks",
              "holder lost", "mean cost (pips)")
    for r in s.risk:
        row(t, r.tile.show(), str(r.value), str(r.held), pct(r.held_share),
            share(r.lost, r.held), figure(r.mean_cost))
    if s.risk:
        out += ["", table_text(t),
                "  mean cost: the tile's value times the share of those blocks its holder's "
                "side did not win"]
    else:
        out += ["", "  R5.6 risk: no round blocked, no tile was left at a block"]
    return "\n".join(out)
