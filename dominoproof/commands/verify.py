"""``dominoproof verify``: the main job (see :mod:`dominoproof.verify`)."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import click

from dominoproof import api
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.variant import presets
from dominoproof.options import (
    budget_options,
    check_output_folder,
    check_output_path,
    cluster_options,
    console,
    overrides_option,
    resolve_variant,
    verbosity_options,
    write_out,
)
from dominoproof.progress import progress
from dominoproof.proofs.budgets import CROSSCHECK_STATES
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.runner import cluster_spec
from dominoproof.report import junit_xml, print_report, write_traces
from dominoproof.verify import Row


@click.command("verify")
@click.argument("variants", metavar="[VARIANT|FILE]...", nargs=-1)
@overrides_option
@click.option("--faults/--no-faults", default=None,
              help="Also run the tool's self-test: every deliberately broken rule set must "
                   "be caught [default: when no VARIANT is named; a user's `verify my.toml` "
                   "checks the user's variant only].")
@click.option("--crosscheck", type=click.IntRange(min=0), default=CROSSCHECK_STATES,
              show_default=True,
              metavar="N",
              help="States of the small search on which the engine and the Z3 relation "
                   "are compared, per variant (0: none).")
@click.option("--z3-seed", "seed", type=int, default=0, show_default=True,
              help="Z3's random seed (apart from a deal's --seed).")
@budget_options
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: the machine's cores).")
@cluster_options
@json_option
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report as JUnit XML to this file (for CI).")
@click.option("--traces", "trace_dir", type=click.Path(path_type=Path), default=None,
              metavar="DIR",
              help="Write every VIOLATED check's counterexample round into this folder, "
                   "one trace file each (<subject>.<method>.<property>.json), each "
                   "replayable with `dominoproof replay`.")
@click.option("--details", is_flag=True,
              help="Print every check's detail and its counterexample, if it has one (as "
                   "-v does).")
@verbosity_options
def command(variants: tuple[str, ...], overrides: tuple[str, ...], faults: bool | None,
            crosscheck: int, seed: int, timeout_ms: int, rlimit: int, workers: int | None,
            cluster: str | None, scheduler: str | None, as_json: str | None,
            junit_path: Path | None, trace_dir: Path | None, details: bool, quiet: bool,
            verbose: bool) -> None:
    """Verify variants: exhaustive search on small configurations, Z3 induction on the
    variant itself, proofs for every set size and player count, the engine against the
    Z3 transition relation, and that every deliberately broken rule set is caught.

    With no VARIANT, every built-in preset and the self-test (every fault caught); with
    VARIANTs, those only (add --faults for the self-test). Every VIOLATED check prints its
    shortest counterexample as a round (deal, moves with rule IDs, the line, where it
    fails and what fails); a search of sampled deals says so, with how many. Exit code:
    0 every verdict as expected,
    1 a property violated (or a broken rule set not caught), 3 only UNKNOWN verdicts
    (a budget ran out: Z3's resource limit, or the wall-clock safety net) short of
    success, 2 bad input. On a terminal a progress bar counts the variants (and faults)
    checked (a line per variant when piped). Of several variants, one line each comes
    first, then the table of any with a check not as expected; every finding (a property
    a published variant's rules do not satisfy) is explained; -q prints only the checks
    not as expected and the verdict, -v every table and every check's detail. Each
    variant and each fault is a job: in a forked process of this machine, --workers at a
    time, or a task of a Dask cluster (--cluster local:N starts one here, --scheduler
    ADDRESS joins one).
    """
    spec = cluster_spec(cluster, scheduler)
    check_output_path(junit_path, "--junit")
    check_output_folder(trace_dir, "--traces")
    if faults is None:
        faults = not variants  # the self-test is the tool's, not the user's variant's
    chosen = [resolve_variant(v, overrides) for v in variants or presets()]
    out = console()
    err = console(stderr=True)
    jobs = len(chosen) + (len(FAULTS) + 1 if faults else 0)  # + the parameter space
    with progress("verify", total=jobs, quiet=quiet) as bar:
        def done(name: str, rows: list[Row]) -> None:
            bar.advance(f"checked {name}")
            if verbose:
                err.print(f"checked {name} ({len(rows)} checks, "
                          f"{sum(not r.ok for r in rows)} not as expected)", markup=False)

        with (spec.open() if spec.distributed else nullcontext()) as runner:
            report = api.verify(chosen, faults=faults, seed=seed, timeout_ms=timeout_ms,
                                rlimit=rlimit, crosscheck=crosscheck, workers=workers,
                                progress=done, runner=runner)
    if text_too(as_json):
        several = sum(not s.startswith("fault ") for s in report.subjects) > 1
        print_report(report, out, details=details or verbose, tables=not quiet,
                     summary=several and not verbose)
    if as_json:
        emit("verify", report.to_json(), as_json)
    if junit_path is not None:
        write_out(junit_path, junit_xml(report))
    if trace_dir is not None:
        written, skipped = write_traces(report, trace_dir)
        err.print(f"wrote {len(written)} counterexample trace(s) to {trace_dir}"
                  + (f"; not written: {'; '.join(skipped)}" if skipped else ""),
                  markup=False)
    raise SystemExit(report.exit_code)
