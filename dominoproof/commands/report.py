"""``dominoproof report``: one self-contained HTML page about variants.

The verdicts of ``dominoproof verify`` (the same checks, :func:`dominoproof.api.verify`),
every counterexample round drawn step by step, the statistics under each play policy and
the plots, in one file that needs no network (:mod:`dominoproof.render.html`). Without
matplotlib (the plots extra) the page is written without the plots and says so.
"""

from __future__ import annotations

import sys

import click

from dominoproof import api
from dominoproof.model.errors import DominoproofError
from dominoproof.options import (
    budget_options,
    check_output_path,
    overrides_option,
    resolve_variant,
    write_out,
)
from dominoproof.progress import progress
from dominoproof.proofs.budgets import CROSSCHECK_STATES
from dominoproof.render.html import gather, page, verdict_line
from dominoproof.render.scene import PLOTS_EXTRA, require_matplotlib


@click.command("report", short_help="One self-contained HTML page: verdicts, counterexamples "
                                    "drawn step by step, statistics and plots.")
@click.argument("variants", metavar="VARIANT|FILE...", nargs=-1, required=True)
@click.option("--output", "output", type=click.Path(dir_okay=False), required=True,
              metavar="FILE.html", help="The page to write.")
@overrides_option
@click.option("--faults/--no-faults", default=False, show_default=True,
              help="Also run the tool's self-test: every deliberately broken rule set "
                   "caught, its counterexamples drawn.")
@click.option("--crosscheck", type=click.IntRange(min=0), default=CROSSCHECK_STATES,
              show_default=True,
              metavar="N", help="States on which the engine and the Z3 relation are "
                                "compared, per variant.")
@budget_options
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the verification (default: the machine's cores).")
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Rounds per sampled figure and plotted configuration.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sampled rounds.")
@click.option("--max-exact-deals", type=click.IntRange(min=0), default=5000,
              show_default=True,
              help="Configurations with at most this many deals get exact figures.")
@click.option("--stats/--no-stats", default=True, show_default=True,
              help="The statistics table of each variant.")
@click.option("--plots/--no-plots", default=True, show_default=True,
              help="The plots (need matplotlib: without it the page says so).")
@click.option("--max-rounds", type=click.IntRange(min=0), default=20, show_default=True,
              help="Counterexample rounds drawn at most (the rest are counted).")
def command(variants: tuple[str, ...], output: str, overrides: tuple[str, ...], faults: bool,
            crosscheck: int, timeout_ms: int, rlimit: int, workers: int | None, rounds: int,
            seed: int, max_exact_deals: int, stats: bool, plots: bool,
            max_rounds: int) -> None:
    """Write one HTML page about VARIANTs: the verdict of every check (as `dominoproof
    verify` runs them), each counterexample round drawn step by step, the statistics
    under each play policy and the plots (P(block) by set size and by players, the
    residual at a block). The page is self-contained: pictures inline, no network.
    Exit codes: those of verify (0 every verdict as expected, 1 a violation, 3 only
    UNKNOWN) once the page is written; 2 bad input, before any work."""
    check_output_path(output, "--output")
    chosen = [resolve_variant(v, overrides) for v in variants]
    notes = []
    if plots:
        try:
            require_matplotlib("plots")
        except DominoproofError:
            msg = f"matplotlib is not installed: the page has no plots ({PLOTS_EXTRA})"
            click.echo(f"dominoproof: note: {msg}", err=True)
            notes.append(msg[0].upper() + msg[1:] + ".")
    with progress("report") as bar:
        bar.update(f"verifying {len(chosen)} variant(s) with the checks of verify")
        report = api.verify(chosen, faults=faults, seed=0, rlimit=rlimit, timeout_ms=timeout_ms,
                            crosscheck=crosscheck, workers=workers,
                            progress=lambda name, rows: bar.update(f"checked {name}"))
        sections = gather(chosen, rounds=rounds, seed=seed, max_exact_deals=max_exact_deals,
                          stats=stats, plots=plots, progress=lambda what: bar.update(what))
    text = page(report, sections, notes=notes, max_rounds=max_rounds)
    write_out(output, text)
    click.echo(verdict_line(report))
    click.echo(f"wrote {output} ({len(text.encode('utf-8')):,} bytes)")
    sys.exit(report.exit_code)
