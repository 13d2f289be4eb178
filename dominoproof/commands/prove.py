"""``dominoproof prove``: Z3 proofs of the property catalogue for one variant.

Each property is proved by the method that fits it (``proofs/z3/queries.py`` and its layers):

* **induction per instance** (state and transition invariants): Init implies the
  invariant, every action preserves it (each action checked on its own), the
  invariant implies the property; the strengthening lemmas are found by Houdini
  among candidates written in domino terms, and printed;
* **ranking function** (termination), with the bound it gives on a round's length;
* **induction + progress** (blocked-complete);
* **declarative R5 scoring** (the terminal properties);
* **all sizes** (``--all-sizes``): every N and P at once (``proofs/allsizes/``).

A property that is not proved is VIOLATED (a real round reaches the violation: the
round is printed) or NOT INDUCTIVE (a counterexample to induction, two states and a
move, printed; no real round reached a violation within the depth searched). A query
that runs out of its resource limit (``--rlimit``, deterministic) or of the wall-clock
safety net (``--timeout-ms``) is UNKNOWN, and the detail says which. ``--explain``
prints, for the state properties, each CTI met from the type invariant alone and the
lemma that rules it out.

Exit codes: 0 every applicable property proved, 1 one is violated or not inductive (or a
sanity check answered wrongly), 2 bad input, 3 one is UNKNOWN (or a sanity check is:
its query ran out of a budget).
"""

from __future__ import annotations

import os
import textwrap
import time
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from dominoproof.api import prove
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.options import (
    budget_options,
    console,
    lists_in_help,
    overrides_option,
    resolve_variant,
    variant_argument,
    verbosity,
    verbosity_options,
    width,
)
from dominoproof.progress import progress
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import CATALOGUE, Verdict, find_property
from dominoproof.proofs.z3.queries import STATE_PROPERTIES, Run
from dominoproof.proofs.z3.session import premises
from dominoproof.render.evidence import indented_evidence

if TYPE_CHECKING:
    from dominoproof.proofs.properties import Result
    from dominoproof.proofs.z3.queries import Prover


@click.command("prove", cls=lists_in_help("properties", "faults"),
               short_help="Z3 proofs of the catalogue: induction per instance, "
               "ranking function, all sizes.")
@variant_argument
@overrides_option
@click.option("--property", "-p", "properties", multiple=True, metavar="ID",
              help="Prove only this property (repeatable; default: the whole catalogue).")
@click.option("--all-sizes", is_flag=True,
              help="Also prove the properties for every set size and player count at once.")
@click.option("--fault", default=None, metavar="ID",
              help="Prove against a deliberately broken rule set of proofs/faults.py (its "
                   "demo configuration and its Z3 twin) instead of the variant.")
@click.option("--explain", is_flag=True,
              help="For state properties: each counterexample to induction met from the "
                   "type invariant alone, and the lemma that rules it out.")
@click.option("--z3-seed", "seed", type=int, default=0, show_default=True,
              help="Z3's random seed (apart from a deal's --seed).")
@budget_options
@click.option("--depth", type=click.IntRange(min=0), default=12, show_default=True,
              help="Depth of the bounded search for a real violation when a proof fails.")
@click.option("--together/--no-together", default=None,
              help="Also check every action at once (T as one disjunction) after the "
                   "per-action checks [default: for sets up to double-9; the per-action "
                   "checks prove it anyway, T being their disjunction].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes sharing the proofs once the invariant is found (default: the "
                   "machine's cores).")
@verbosity_options
@json_option
def command(variant: str, overrides: tuple[str, ...], properties: tuple[str, ...],
            all_sizes: bool, fault: str | None, explain: bool, seed: int, timeout_ms: int,
            rlimit: int, depth: int, together: bool | None, workers: int | None,
            quiet: bool, verbose: bool, as_json: str | None) -> None:
    """Prove the property catalogue for VARIANT|FILE with Z3. On a terminal a progress
    display shows the phase; -q prints the verdicts only, -v each verdict's detail too."""
    for pid in properties:
        find_property(pid)
    ids = list(properties) or [p.id for p in CATALOGUE]
    t0 = time.perf_counter()
    spec = variant if fault is not None else resolve_variant(variant, overrides)
    with progress("prove", quiet=quiet) as bar:
        report = prove(spec, ids, fault=fault, all_sizes=all_sizes, seed=seed, rlimit=rlimit,
                       timeout_ms=timeout_ms, depth=depth, together=together,
                       workers=workers or os.cpu_count() or 1, progress=bar.update)
    prover, results, sizes, checks = report.prover, report.results, report.sizes, report.sanity
    chains = {pid: prover.explain(pid) for pid in ids
              if explain and pid in STATE_PROPERTIES
              and find_property(pid).applies_to(prover.variant)}
    total = time.perf_counter() - t0
    everything = results + sizes
    if as_json:
        emit("prove", _json(prover, everything, checks, chains, total), as_json)
    if text_too(as_json):
        _print(prover, results, sizes, checks, chains, total, verbosity(quiet, verbose),
               fault)
    raise SystemExit(report.exit_code)


def _print(prover: Prover, results: list[Result], sizes: list[Result], checks: list[Any],
           chains: dict[str, Any], total: float, level: int = 0,
           fault: str | None = None) -> None:
    out = console(markup=False)  # lemmas and CTIs are data, not rich markup
    v = prover.variant
    out.print(f"prove {prover.label}")
    out.print(f"  {prover.configuration()}")
    out.print(f"  Z3: seed {prover.seed}, resource limit {prover.rlimit:,} per query "
              f"(wall-clock safety net {prover.timeout_ms:,} ms); a query that runs out is "
              "UNKNOWN, never a proof")
    table = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("property", "method", "verdict", "time"):
        table.add_column(col, justify="right" if col == "time" else "left")
    for r in [*results, *sizes]:
        table.add_row(r.property, r.method, r.verdict.value, f"{r.seconds:.2f}s")
    out.print(table)
    if level < 0:
        out.print(f"total {total:.2f}s")
        return
    if level > 0:
        out.print("\ndetails:")
        for r in [*results, *sizes]:
            out.print(textwrap.fill(f"{r.property} ({r.method}): {r.verdict.value}: "
                                    f"{r.detail}", width=width(), initial_indent="  ",
                                    subsequent_indent="    "))
    h = prover.invariant()
    out.print(f"\nstrengthening (Houdini: {len(h.kept)} of {len(prover.candidates)} candidate "
              f"lemmas inductive, {h.ledger.checks} queries, "
              f"{prover.invariant_seconds:.2f}s"
              + (f", UNKNOWN: {h.incomplete}" if h.unknown else "") + "):")
    for lem in h.kept:
        out.print(textwrap.fill(lem.show(), width=width(), initial_indent="  ",
                                subsequent_indent="      "))
    for d in h.dropped:
        out.print(f"  dropped {d.lemma}: fails " + ("at Init" if d.where == "Init"
                                                     else f"after action {d.where}"
                                                     + (f" ({d.move})" if d.move else "")))
    na = [r for r in [*results, *sizes] if r.verdict is Verdict.NOT_APPLICABLE]
    if na:  # why, in the text too (not only in JSON)
        out.print("\nnot applicable:")
        for r in na:
            out.print(textwrap.fill(f"{r.property} ({r.method}): {r.detail}", width=width(),
                                    initial_indent="  ", subsequent_indent="    "))
    for r in [*results, *sizes]:
        if r.verdict is Verdict.PROVED or r.verdict is Verdict.NOT_APPLICABLE:
            continue
        out.print(f"\n{r.property}: {r.verdict.value} ({r.method})")
        out.print(f"  {r.detail}")
        _print_evidence(out, r, prover, fault)
    for pid, chain in chains.items():
        out.print(f"\nwhy {pid} needs its lemmas (from the type invariant alone):")
        if not chain:
            out.print("  no counterexample to induction: inductive with the type invariant")
        for i, (cti, blocker) in enumerate(chain, 1):
            out.print(f"  {i}. " + cti.describe().replace("\n", "\n     "))
            out.print(f"     ruled out by: {blocker or '(no lemma of the invariant)'}")
    out.print("\nsanity (a proof from an unsatisfiable premise passes trivially): "
              + premises(checks))
    for c in checks:
        if not c.ok or len(checks) < 10:
            mark = "ok " if c.ok else "???" if c.unknown else "BAD"
            out.print(f"  {mark} {c.describe()}")
    details = next((r for r in results if r.property == "termination"), None)
    if details is not None and details.verdict is Verdict.PROVED and details.trace:
        out.print(f"\ntermination: {details.trace['ranking']}; every round of {v.name} ends "
                  f"within {details.trace['bound']} moves")
    out.print(f"\ntotal {total:.2f}s ({prover.ledger.checks} Z3 queries, "
              f"{prover.ledger.seconds:.2f}s in the solver)")


def _print_evidence(out: Any, r: Result, prover: Prover, fault: str | None) -> None:
    """The counterexample, in domino terms (:mod:`dominoproof.render.evidence`): the round that
    breaks the property and where, or the two states and the move of a counterexample to
    induction (the all-sizes one read on a small table)."""
    scorer = FAULTS_BY_ID[fault].scorer if fault is not None else None
    for line in indented_evidence(r, prover.variant, scorer=scorer, final=True):
        out.print(line)
    if isinstance(r.trace, Run) and r.trace.loop_from is not None:
        out.print(f"  ... and the state after move {r.trace.loop_from} comes back: the round "
                  "can go on for ever")


def _json(prover: Prover, results: list[Result], checks: list[Any], chains: dict[str, Any],
          total: float) -> dict[str, Any]:
    h = prover.invariant()
    return {
        "variant": prover.label,
        "configuration": prover.configuration(),
        "seed": prover.seed,
        "timeout_ms": prover.timeout_ms,
        "rlimit": prover.rlimit,
        "results": [r.to_json() | ({"evidence": r.trace.to_json()}
                                   if hasattr(r.trace, "to_json") else {}) for r in results],
        "lemmas": [{"id": lem.id, "rules": list(lem.rules), "statement": lem.statement}
                   for lem in h.kept],
        "dropped": [{"lemma": d.lemma, "where": d.where} for d in h.dropped],
        "sanity": [{"check": c.name, "ok": c.ok, "answer": c.answer, "reason": c.reason}
                   for c in checks],
        "explain": {pid: [{"cti": c.to_json(), "ruled_out_by": b} for c, b in chain]
                    for pid, chain in chains.items()},
        "all_sizes_note": "",  # kept in the document's schema; nothing fills it now
        "seconds": round(total, 3),
        "solver": prover.ledger.as_dict(),
    }
