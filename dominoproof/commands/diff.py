"""``dominoproof diff``: two variants side by side (see :mod:`dominoproof.diff`)."""

from __future__ import annotations

import click

from dominoproof.diff import diff, pair, render
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.options import budget_options, overrides_option
from dominoproof.progress import progress


@click.command("diff", short_help="Two variants side by side: parameters, verdicts with "
               "the round that separates them, statistics.")
@click.argument("first", metavar="A")
@click.argument("second", metavar="[B]", required=False)
@overrides_option
@click.option("--stats/--no-stats", default=True, show_default=True,
              help="Statistics side by side with 95% intervals (Monte-Carlo).")
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=10_000, show_default=True,
              metavar="N", help="Random rounds per variant for the statistics.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random rounds (the same seed, the same figures).")
@click.option("--z3-seed", "z3_seed", type=int, default=0, show_default=True,
              help="Z3's random seed (apart from the rounds' --seed).")
@budget_options
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes for the verdicts (default: the machine's cores; at most 2 "
                   "are used, one per variant).")
@json_option
def command(first: str, second: str | None, overrides: tuple[str, ...], stats: bool,
            rounds: int, seed: int, z3_seed: int, timeout_ms: int, rlimit: int,
            workers: int | None, as_json: str | None) -> None:
    """Compare variant A with variant B (presets or TOML files): the parameters that differ
    with their rule IDs; the properties whose verdict differs, each with the round that
    separates them (the counterexample of the variant that violates it, judged under
    both); and statistics side by side with 95% intervals.

    With B omitted: A with the -o overrides against A as it is, or a file A against the
    preset it names as its `base`. -o applies to B. The verdicts come from the checks of
    `dominoproof verify` (search on small configurations, Z3 per instance and for every
    size), run here on both variants. Exit code: 0 answered (whatever the verdicts),
    3 a check of either side did not settle (UNKNOWN: a budget ran out), 2 bad input.
    """
    if not stats:  # the rounds and their seed feed the statistics only
        ctx = click.get_current_context()
        for name, flag in (("rounds", "--rounds"), ("seed", "--seed")):
            if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
                raise click.BadParameter("has no effect with --no-stats (it sets the random "
                                         "rounds of the statistics)", param_hint=flag)
    a, b = pair(first, second, overrides)
    with progress("diff") as bar:
        report = diff(a, b, stats=stats, rounds=rounds, seed=seed, z3_seed=z3_seed,
                      rlimit=rlimit, timeout_ms=timeout_ms, workers=workers,
                      progress=lambda name, rows: bar.update(f"checked {name} "
                                                             f"({len(rows)} checks)"),
                      phase=bar.update)
    if as_json:
        emit("diff", report.to_json(), as_json)
    if text_too(as_json):
        click.echo(render(report), nl=False)
    raise SystemExit(report.exit_code)
