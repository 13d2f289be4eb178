"""``dominoproof repair``: the nearest variants under which every property holds (see
:mod:`dominoproof.repair`)."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import click
from rich.text import Text

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.variant import toml_value
from dominoproof.options import (
    WIDTH,
    cluster_options,
    console,
    counted,
    indented,
    overrides_option,
    resolve_variant,
    variant_argument,
    verbosity_options,
    wrap,
)
from dominoproof.progress import on_terminal, progress
from dominoproof.proofs.budgets import (
    REPAIR_CANDIDATE_SECONDS,
    REPAIR_CANDIDATES,
    REPAIR_ROUNDS,
    REPAIR_SECONDS,
)
from dominoproof.proofs.properties import BY_ID
from dominoproof.proofs.runner import cluster_spec
from dominoproof.render.text import simple_table, table_text
from dominoproof.repair import FIGURES, Candidate, RepairReport, repair
from dominoproof.verify import Row

#: candidates not judged that the text names (the JSON names them all)
SHOWN = 10


@click.command("repair", short_help="The nearest variants under which every property holds.")
@variant_argument
@overrides_option
@click.option("--max-candidates", type=click.IntRange(min=1), default=REPAIR_CANDIDATES,
              show_default=True, metavar="N",
              help="Candidates judged at most; the rest are reported as not judged (exit 3).")
@click.option("--max-seconds", type=click.IntRange(min=1), default=REPAIR_SECONDS,
              show_default=True, metavar="S",
              help="Wall-clock safety net: no candidate starts after S seconds (exit 3).")
@click.option("--candidate-seconds", type=click.IntRange(min=1),
              default=REPAIR_CANDIDATE_SECONDS, show_default=True, metavar="S",
              help="Time a candidate's searches share; beyond it its properties are "
                   "UNKNOWN (judged, not a repair).")
@click.option("--all-pairs", is_flag=True, default=False,
              help="Judge every pair of changes, not only pairs of changes that each make "
                   "a failing property hold on their own.")
@click.option("-n", "--rounds", type=click.IntRange(min=1), default=REPAIR_ROUNDS,
              show_default=True, metavar="N",
              help="Random rounds behind each variant's statistics.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random rounds (the same seed, the same figures).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: the machine's cores).")
@cluster_options
@json_option
@verbosity_options
def command(variant: str, overrides: tuple[str, ...], max_candidates: int, max_seconds: int,
            candidate_seconds: int, all_pairs: bool, rounds: int, seed: int, workers: int | None,
            cluster: str | None, scheduler: str | None, as_json: str | None, quiet: bool,
            verbose: bool) -> None:
    """Search the variants near VARIANT (a preset or a TOML file) for the nearest under
    which every property it violates holds, as `dominoproof verify` judges it on its small
    configurations (the same search and judge, on the compiled kernel where it runs).

    The candidates: every single change of a parameter to another value it allows (every
    value of an enumeration, a bool flipped, every value of a small range), skipping what
    the validator rejects, what has no effect, what the search cannot see and what makes
    the game rather than a rule of it (each listed with why); then, when no single change
    suffices, pairs of changes that each make a failing property hold (--all-pairs: any
    two). Each is judged on the failing properties, the best again on the whole catalogue
    with their statistics (block probability, mean residual at a block, 95% intervals,
    --rounds random rounds from --seed). Listed: the nearest repairs (or the candidates
    with the fewest failing properties), by number of changes, then by how little the
    statistics move; and for each failing property, the nearest candidates under which it
    holds.

    Exit code: 0 VARIANT holds everything, or each property it violates holds under some
    candidate (one for all, or each its own); 1 the search ended with a property no
    candidate repairs; 3 a budget ran out first (the candidates judged and not judged are
    listed; never read as "no repair exists"); 2 bad input. Progress: a bar on a
    terminal, a line per candidate when piped (-q: none). Each candidate is a job, as in
    verify: a forked process, --workers at a time, or a task of a Dask cluster
    (--cluster local:N, --scheduler ADDRESS).
    """
    spec = cluster_spec(cluster, scheduler)
    v = resolve_variant(variant, overrides)
    err = console(stderr=True)
    lines = not quiet and not on_terminal()
    with progress("repair", quiet=quiet) as bar:
        def told(stage: str, cand: Candidate | None, rows: list[Row]) -> None:
            what = cand.text() if cand is not None else v.name
            text = f"{stage}: {what}: {_verdicts(rows) if rows else 'statistics'}"
            if lines or verbose:  # a line per candidate, whole (the bar's would be cut)
                for line in wrap(text, subsequent_indent="  "):
                    err.print(line, markup=False, soft_wrap=True)
            else:
                bar.update(text)

        with (spec.open() if spec.distributed else nullcontext()) as runner:
            report = repair(v, max_candidates=max_candidates, max_seconds=max_seconds,
                            candidate_seconds=candidate_seconds, all_pairs=all_pairs,
                            rounds=rounds, seed=seed,
                            workers=workers, runner=runner, progress=told)
    if as_json:
        emit("repair", report.to_json(), as_json)
    if text_too(as_json):
        click.echo(render(report, verbose=verbose), nl=False)
    raise SystemExit(report.exit_code)


def _verdicts(rows: list[Row]) -> str:
    bad = [f"{r.property} {r.verdict}" for r in rows if r.verdict not in ("HOLDS", "N/A")]
    return ", ".join(bad) if bad else f"none of {len(rows)} fails"


def _figure(e: Any, fid: str) -> str:
    if e is None or e.value is None:
        return "-"
    if fid == "block":
        lo, hi = e.low or 0.0, e.high or 0.0
        return f"{100 * e.value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    if e.low is None or e.high is None:
        return f"{e.value:.2f}"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]"


def _candidate(i: int, c: Candidate, r: RepairReport, rounds: bool) -> list[str]:
    """Candidate ``c`` as text: its changes, verdicts, statistics and, with ``rounds``,
    the round of each property still failing (verify's evidence)."""
    out = ["", *wrap(f"{i}. {c.text()}", WIDTH, subsequent_indent="   ")]
    before = {row.property: row.verdict for row in r.rows}
    t = simple_table("property", "rules", "before", "after")
    for row in c.rows:
        if row.property in r.failing or row.verdict != before.get(row.property):
            rules = BY_ID[row.property].rules if row.property in BY_ID else ()
            t.add_row(Text(row.property), Text(" ".join(rules)),
                      Text(before.get(row.property, "-")), Text(row.verdict))
    out += indented(table_text(t), "   ")
    same = len([row for row in c.rows if row.verdict == before.get(row.property)
                and row.property not in r.failing])
    out.append(f"   the other {same} properties: as before")
    if c.figures is not None and r.figures is not None:
        t = simple_table("statistic (95%)", "before", "after")
        for fid, label in FIGURES.items():
            t.add_row(Text(label), Text(_figure(r.figures[fid], fid)),
                      Text(_figure(c.figures[fid], fid)))
        out += indented(table_text(t), "   ")
    for row in c.rows:
        if row.verdict == "ERROR":
            out += wrap(f"{row.property}: {row.detail}", WIDTH, initial_indent="   ",
                        subsequent_indent="     ")
        if rounds and row.verdict not in ("HOLDS", "N/A") and row.round:
            out.append(f"   {row.property} still fails, the round:")
            out += indented(row.round)
    return out


def _per_property(r: RepairReport, shown: int = 3) -> list[str]:
    """Each failing property with the nearest candidates under which it holds."""
    out = ["", "Each failing property, the nearest candidates under which it holds:"]
    for pid, cands in r.per_property.items():
        out.append(f"  {pid}:" + ("" if cands else " none among the candidates judged"))
        for c in cands[:shown]:
            others = [p for p in c.fails() if p != pid]
            how = ("confirmed on the whole catalogue" if c.confirmed
                   else "judged on the failing properties")
            how += f"; still failing: {', '.join(others)}" if others else "; nothing fails"
            out += wrap(f"- {c.text()} ({how})", WIDTH, initial_indent="    ",
                        subsequent_indent="      ")
        if len(cands) > shown:
            out.append(f"    ... and {len(cands) - shown} more (--json)")
    return out


def render(r: RepairReport, *, verbose: bool = False) -> str:
    """The report as text, :data:`~dominoproof.options.WIDTH` columns."""
    v = r.variant
    out = [f"repair {v.name} ({v.source})"]
    if not r.failing:
        out.append(f"  every property holds on verify's small configurations "
                   f"({len(r.rows)} properties judged): nothing to repair")
        out.append(f"answered in {r.seconds:.1f} s")
        return "\n".join(out) + "\n"
    out += wrap(f"  VIOLATED on verify's small configurations: {', '.join(r.failing)}",
                WIDTH, subsequent_indent="    ")
    singles = [c for c in r.candidates if len(c.changes) == 1]
    twos = [c for c in r.candidates if len(c.changes) == 2]
    out.append(f"  candidates: {len(singles)} single changes"
               + (f", {len(twos)} pairs" if r.pairs_searched else "")
               + f"; judged {len(r.judged)}, not judged {len(r.not_judged)}; "
               f"skipped {len(r.skipped)} (below)")
    best, repairs = r.best, r.repairs
    out.append("")
    if repairs:
        out.append(f"Repairs, nearest first: {len(repairs)} (every property holds)")
    elif best:
        n = len(best[0].fails())
        out.append(f"No repair among the candidates judged; the fewest failing ({n}):")
    else:
        out.append("No candidate confirmed.")
    for i, c in enumerate(best, 1):  # the rounds of the first (-v: of every one)
        out += _candidate(i, c, r, rounds=i == 1 or verbose)
    out += _per_property(r)
    if r.figures is not None:
        out += ["", *wrap(f"  statistics: {r.rounds:,} uniformly random rounds, seed "
                          f"{r.seed}; ranked by number of changes, then by how little they "
                          "move", WIDTH, subsequent_indent="    ")]
    if r.stopped:
        judged = counted(len(r.judged), "candidate")
        out += ["", *wrap(f"Budget: {r.stopped}. Judged {judged}; not judged "
                          f"{len(r.not_judged)}: this is not a proof that no repair exists.",
                          WIDTH, subsequent_indent="  ")]
        for c in r.not_judged[:SHOWN]:
            out.append(f"  not judged: {c.text()}")
        if len(r.not_judged) > SHOWN:
            out.append(f"  ... and {len(r.not_judged) - SHOWN} more (--json lists them all)")
    out += ["", "Skipped (not judged, and why):"]
    reasons: dict[str, list[str]] = {}
    for s in r.skipped:
        what = s.key if s.value is None else f"{s.key} = {toml_value(s.value)}"
        reasons.setdefault(s.why if verbose else s.why.split(":")[0], []).append(what)
    for why, keys in reasons.items():
        out += wrap(f"{why}: {', '.join(keys)}", WIDTH, initial_indent="  ",
                    subsequent_indent="    ")
    out.append(f"answered in {r.seconds:.1f} s")
    return "\n".join(out) + "\n"
