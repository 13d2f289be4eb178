"""``dominoproof bench proofs``: the time to prove the whole catalogue with Z3.

For each preset, one :class:`~dominoproof.proofs.z3.queries.Prover` proves every property
of the catalogue (Houdini's strengthening, the induction per instance, the ranking
function, the declarative scoring), and the sanity checks run; the figures are the
wall time per property (the first one carries Houdini's search, shared by the others)
and in total, against these targets:

* double-6 with 2 players: ``draw-2p-d6`` and ``block-2p-d6`` (no target);
* double-12 with 8 players: ``draw-8p-d12``, under 10 seconds;
* double-18 with 10 players: ``draw-10p-d18``, under 60 seconds.

Every verdict must be PROVED (or N/A): a benchmark that times a failed proof measures
nothing. ``--check`` exits 1 if a target is missed or a verdict is not as expected;
``--smoke`` times the two double-6 presets only. Z3's seed and per-query timeout are
fixed (``--seed``, ``--timeout-ms``); the machine and its load are printed, since the
figures only mean something on it.
"""

from __future__ import annotations

import os
import time
from typing import Any

import click

from dominoproof.bench import machine, table
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.variant import find_variant
from dominoproof.options import budget_options, verbosity_options
from dominoproof.progress import steps
from dominoproof.proofs.budgets import DEFAULT_RLIMIT
from dominoproof.proofs.z3.queries import Prover

#: (preset, target in seconds or None), in the order they are reported.
PRESETS: tuple[tuple[str, float | None], ...] = (
    ("draw-2p-d6", None),
    ("block-2p-d6", None),
    ("draw-8p-d12", 10.0),
    ("draw-10p-d18", 60.0),
)
SMOKE = ("draw-2p-d6", "block-2p-d6")


def prove_preset(name: str, *, seed: int, timeout_ms: int, workers: int = 1,
                 rlimit: int = DEFAULT_RLIMIT) -> dict[str, Any]:
    """Prove the catalogue for one preset and time it (the sanity checks included)."""
    v = find_variant(name)
    t0 = time.perf_counter()
    prover = Prover(v, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit)
    rows = []
    for r in prover.prove_all(workers=workers, sanity=True):
        rows.append({"property": r.property, "verdict": r.verdict.value, "method": r.method,
                     "seconds": round(r.seconds, 3)})
    total = time.perf_counter() - t0  # the sanity checks ran with the proofs
    checks = prover.last_sanity
    h = prover.invariant()
    return {
        "preset": name,
        "tiles": v.tiles.count,
        "players": v.players,
        "properties": rows,
        "lemmas": len(h.kept),
        "invariant_seconds": round(prover.invariant_seconds, 3),
        "sanity_ok": all(c.ok for c in checks),
        "total_seconds": round(total, 3),
        "queries": prover.ledger.checks,
        "solver_seconds": round(prover.ledger.seconds, 3),
        "ok": all(x["verdict"] in ("PROVED", "N/A") for x in rows) and all(c.ok for c in checks),
    }


@click.command("proofs")
@click.option("--preset", "chosen", multiple=True, metavar="NAME",
              help="Time only these presets (repeatable; default: draw-2p-d6, "
                   "block-2p-d6, draw-8p-d12, draw-10p-d18).")
@click.option("--smoke", is_flag=True, help="Only the double-6 presets (a quick CI run).")
@click.option("--z3-seed", "seed", type=int, default=0, show_default=True,
              help="Z3's random seed (apart from a deal's --seed).")
@budget_options
@json_option
@click.option("--check", is_flag=True,
              help="Exit 1 if a target is missed or a verdict is not PROVED.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes sharing the proofs once the invariant is found (default: the "
                   "machine's cores; 1: everything in one process).")
@verbosity_options
def command(chosen: tuple[str, ...], smoke: bool, seed: int, timeout_ms: int, rlimit: int,
            as_json: str | None, check: bool, workers: int | None, quiet: bool,
            verbose: bool) -> None:
    """Time the Z3 proof of the whole catalogue (double-6/2, double-12/8, double-18/10).
    On a terminal a progress bar counts the presets; -q hides it, -v says each preset on
    standard error as it starts (also when piped)."""
    targets = dict(PRESETS)
    names = list(chosen) or [n for n, _ in PRESETS if not smoke or n in SMOKE]
    results = []
    workers = workers or os.cpu_count() or 1
    with steps("bench proofs", total=len(names), quiet=quiet, verbose=verbose) as step:
        for name in names:
            step(f"proving the catalogue of {name}")
            res = prove_preset(name, seed=seed, timeout_ms=timeout_ms, workers=workers,
                               rlimit=rlimit)
            res["workers"] = workers
            res["target_seconds"] = targets.get(name)
            res["met"] = (res["target_seconds"] is None
                          or res["total_seconds"] < res["target_seconds"])
            results.append(res)
            if text_too(as_json):
                click.echo(_preset_text(res), err=False)
    ok = all(r["ok"] and r["met"] for r in results)
    if as_json:
        emit("bench-proofs", {"machine": machine(), "seed": seed, "timeout_ms": timeout_ms,
                              "rlimit": rlimit, "presets": results, "ok": ok}, as_json)
    if text_too(as_json):
        click.echo(_summary(results))
        m = machine()
        click.echo(f"machine: {m['platform']}, {m['cpus']} cpus, load {m['load_average']}, "
                   f"Python {m['python']}; Z3 seed {seed}, resource limit {rlimit:,} per "
                   f"query (safety net {timeout_ms:,} ms); "
                   f"{workers} process(es)")
    if check and not ok:
        raise SystemExit(1)


def _preset_text(res: dict[str, Any]) -> str:
    rows = [[x["property"], x["method"], x["verdict"], f"{x['seconds']:.2f}s"]
            for x in res["properties"]]
    head = (f"{res['preset']} ({res['tiles']} tiles, {res['players']} players): catalogue "
            f"proved in {res['total_seconds']:.2f}s, sanity checks "
            f"{'ok' if res['sanity_ok'] else 'FAILED'}, {res['lemmas']} lemmas, "
            f"{res['queries']} queries")
    head += (f"\n  the inductive invariant (Houdini over the candidate lemmas) took "
             f"{res['invariant_seconds']:.2f}s; a property's time is its own queries after it")
    return head + "\n" + table([["property", "method", "verdict", "time"], *rows],
                               right=[False, False, False, True]) + "\n"


def _summary(results: list[dict[str, Any]]) -> str:
    rows = [["preset", "total", "target", "verdicts"]]
    for r in results:
        target = r["target_seconds"]
        rows.append([r["preset"], f"{r['total_seconds']:.2f}s",
                     "-" if target is None else
                     f"< {target:.0f}s {'met' if r['met'] else 'MISSED'}",
                     "all proved" if r["ok"] else "NOT ALL PROVED"])
    return "totals\n" + table(rows, right=[False, True, False, False])
