"""``dominoproof plot``: the designer's figures as pictures (matplotlib: the plots extra).

``--by set-size`` / ``--by players``: the probability that a round blocks (R1.1, R4.4)
against the set size (double-N) or the number of players, one line per play policy,
each configuration exact when it has at most ``--max-exact-deals`` deals, else sampled
(``--rounds``, ``--seed``) and drawn with its 95% interval. ``--by residuals``: the
distribution of the pips left in all hands at a block (R5.3), one line per policy.
See :mod:`dominoproof.render.plots` for how the configurations along an axis are made.
"""

from __future__ import annotations

import click

from dominoproof.model.errors import DominoproofError
from dominoproof.options import (
    check_output_path,
    lists_in_help,
    overrides_option,
    resolve_variant,
    variant_argument,
    write_out,
)
from dominoproof.proofs.analysis.policies import help_list
from dominoproof.render import plots
from dominoproof.render.scene import require_matplotlib


def _values(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        out = [int(x) for x in value.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r}: whole numbers separated by commas, e.g. "
                                 "3,4,5,6", ctx, param) from None
    if not out:
        raise click.BadParameter("no value given (e.g. 3,4,5,6)", ctx, param)
    return out


@click.command("plot", cls=lists_in_help(help_list),
               short_help="Plots (PNG, SVG): P(block) by set size or players per policy, "
                          "with intervals; the residual at a block.")
@variant_argument
@overrides_option
@click.option("--by", "by", type=click.Choice(["set-size", "players", "residuals"]),
              default="set-size", show_default=True, help="What to plot.")
@click.option("--values", callback=_values, default=None, metavar="A,B,...",
              help="The set sizes (N of double-N) or numbers of players [default: three "
                   "set sizes either side of the variant's; 2 players up to the most whose "
                   "hands fit].")
@click.option("--policy", "policies", multiple=True, metavar="NAME",
              help="A play policy (repeatable) [default: every policy, listed below].")
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Rounds per sampled configuration and policy.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sampled rounds (same seed, same plot).")
@click.option("--max-exact-deals", type=click.IntRange(min=0), default=5000,
              show_default=True,
              help="Configurations with at most this many deals get exact figures (0: "
                   "every figure sampled).")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False), default=None,
              help="Write the plot as SVG (self-contained: text drawn as paths).")
@click.option("--png", "png_file", type=click.Path(dir_okay=False), default=None,
              help="Write the plot as PNG.")
def command(variant: str, overrides: tuple[str, ...], by: str, values: list[int] | None,
            policies: tuple[str, ...], rounds: int, seed: int, max_exact_deals: int,
            svg_file: str | None, png_file: str | None) -> None:
    """Plot figures of VARIANT under the play policies: the probability of a block by set
    size or by number of players (exact points as squares, sampled ones with their 95%
    interval), or the distribution of the residual at a block. Prints what it plotted.
    Needs matplotlib (pip install 'dominoproof[plots]'). Exit codes: 0 plotted, 2 bad
    input (matplotlib missing, a configuration that cannot be dealt, no output file)."""

    if svg_file is None and png_file is None:
        raise DominoproofError("plot: say where to write it: --svg FILE and/or --png FILE")
    for out, option in ((svg_file, "--svg"), (png_file, "--png")):
        check_output_path(out, option)
    require_matplotlib("dominoproof plot")
    v = resolve_variant(variant, overrides)
    chosen = plots.policies_or_all(policies)
    lines = []
    if by == "residuals":
        if values is not None:
            raise DominoproofError("--values: applies to --by set-size and --by players")
        dists = plots.residual_distributions(v, chosen, rounds=rounds, seed=seed,
                                             max_exact_deals=max_exact_deals)
        fig = plots.residual_figure(dists, f"The residual at a block: {v.name}")
        width = plots.bin_width(dists)
        if width > 1:
            lines.append(f"residuals binned by {width} pips (more than "
                         f"{plots.RESIDUAL_BINS} values)")
        for d in dists:
            top = max(d.shares, key=lambda s: s[1]) if d.shares else None
            lines.append(f"{d.policy:14} {d.method:8} P(block) "
                         f"{'-' if d.blocked is None else f'{d.blocked:.4f}'}; mean residual "
                         f"{'-' if d.mean is None else f'{d.mean:.1f}'}; most likely "
                         f"{'-' if top is None else f'{top[0]} ({top[1]:.4f})'}")
    else:
        vals = values if values is not None else plots.default_values(v, by)
        plots.check_axis(by, vals)
        for x in vals:  # every configuration can be dealt, before any work
            plots.configuration(v, **{"set_max" if by == "set-size" else "players": x})
        points = plots.sweep(v, by, vals, chosen, rounds=rounds, seed=seed,
                             max_exact_deals=max_exact_deals)
        label = "set size" if by == "set-size" else "number of players"
        fig = plots.block_figure(points, f"P(block) by {label}: {v.name}")
        for p in points:
            lines.append(f"{p.what:42} {p.policy:14} {p.figures.method:8} P(block) "
                         f"{plots.interval_text(p.figures.blocked)}")
    if png_file:
        write_out(png_file, plots.figure_bytes(fig, "png", close=not svg_file))
        lines.append(f"wrote {png_file}")
    if svg_file:
        write_out(svg_file, plots.figure_bytes(fig, "svg"))
        lines.append(f"wrote {svg_file}")
    click.echo("\n".join(lines))
