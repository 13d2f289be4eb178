"""``dominoproof crosscheck``: the engine against other readings of the rules, state by state.

The command explores a small configuration with the project's exhaustive search
(``dominoproof.proofs.search.statespace``), then, on every state the search expanded,
compares the engine's legal moves and successors with those of each oracle
(``dominoproof.proofs.conformance``):

``graph``  (always) the transitions the search recorded. It checks the search's own
           bookkeeping (states merged by key, no edge lost or invented), not the rules:
           the search is built on the engine's ``Rules``.
``z3``     (``--with z3``) the Z3 transition relation of ``proofs/z3/encoding.py``, written
           from docs/SEMANTICS.md independently of the engine: the meaningful check.
           About 10-30 ms a state, so keep the configuration small.

The deliberately plain reference implementation (``tests/reference_rules.py``) lives
with the tests and is compared there (``tests/test_conformance.py``), not here.

It also replays, in the engine, a shortest trace to every terminal state the search
found (witnesses of dominoes and blocks), and checks each reaches the very states the
search recorded. ``--fault ID`` runs the engine mutant ``ID`` of ``proofs/faults.py``
instead of the engine, to see the check fail.

Exit codes: 0 every comparison agrees on a complete search; 1 a mismatch; 2 bad input;
3 the search stopped at ``--max-states`` before it was complete (no mismatch found in
the part compared: nothing is claimed about the rest).
"""

from __future__ import annotations

from typing import Any

import click

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.engine import seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init
from dominoproof.options import overrides_option, resolve_variant, variant_argument
from dominoproof.proofs import conformance as c
from dominoproof.proofs.budgets import CROSSCHECK_MAX_STATES, CROSSCHECK_REPLAYS
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.search.statespace import explore, feasibility

EXIT_OK, EXIT_MISMATCH, EXIT_UNKNOWN = 0, 1, 3


@click.command("crosscheck",
               short_help="Engine vs the Z3 relation and the search graph, state by state.")
@variant_argument
@overrides_option
@click.option("--seed", type=int, default=None,
              help="One deal: the deal of `dominoproof play --seed S` (default: seed 0).")
@click.option("--all-deals", is_flag=True,
              help="Every deal of the variant (small sets only: -o set.max=3 "
                   "-o deal.hand_size=3).")
@click.option("--free-draw", is_flag=True,
              help="Any boneyard tile may be drawn (every draw order) instead of the "
                   "deal's fixed order.")
@click.option("--with", "oracles", multiple=True, metavar="ORACLE",
              help="Also compare with this oracle (repeatable): z3.")
@click.option("--max-states", type=click.IntRange(min=1), default=CROSSCHECK_MAX_STATES,
              show_default=True,
              help="Stop the search after this many states (the result is then partial, "
                   "exit 3).")
@click.option("--fault", "fault_id", default=None, metavar="ID",
              help="Run an engine mutant of proofs/faults.py instead of the engine "
                   "(the check must then fail).")
@click.option("--replays", "traces", type=click.IntRange(min=0), default=CROSSCHECK_REPLAYS,
              show_default=True, metavar="N",
              help="Replay at most this many witness traces (one per terminal state); "
                   "--traces DIR, elsewhere, is a folder to write traces into.")
@json_option
def command(variant: str, overrides: tuple[str, ...], seed: int | None, all_deals: bool,
            free_draw: bool, oracles: tuple[str, ...], max_states: int,
            fault_id: str | None, traces: int, as_json: str | None) -> None:
    """Compare the engine with other readings of the rules on every reachable state of
    a small configuration of VARIANT: states compared, transitions compared, mismatches.
    Compares with the search graph always and with the Z3 relation with --with z3;
    the plain reference implementation is compared by the test suite. Exit 1 on a
    mismatch, 3 when --max-states cut the search short."""

    if seed is not None and all_deals:
        raise DominoproofError("--seed and --all-deals exclude each other: one deal, or all")
    v = resolve_variant(variant, overrides)
    rules = engine_for(v)
    engine_name = "engine"
    if fault_id is not None:
        fault = FAULTS_BY_ID.get(fault_id)
        if fault is None:
            raise DominoproofError(f"--fault {fault_id!r}: no such fault; known: "
                                   + ", ".join(FAULTS_BY_ID))
        if fault.engine is None:
            raise DominoproofError(
                f"--fault {fault_id!r} is not an engine mutant (it changes the "
                f"{'scoring' if fault.scorer else 'variant'}); engine mutants: "
                + ", ".join(f.id for f in FAULTS_BY_ID.values() if f.engine))
        rules = fault.engine_for(v)
        engine_name = f"engine[{fault_id}]"
    for name in oracles:
        if name == "engine" or (name not in c.ORACLES and name != "graph"):
            raise DominoproofError(f"--with {name!r}: not an oracle to compare with; "
                                   "known: graph, " + ", ".join(
                                       n for n in c.ORACLES if n != "engine"))
    # Build the oracles before the search (each once): an unavailable one is reported at once.
    extra = [c.get_oracle(name, v) for name in dict.fromkeys(oracles) if name != "graph"]

    init = Init.every(free_draw) if all_deals else Init.one(
        seeded_deal(v, seed or 0), free_draw)
    ok, why = feasibility(v, init)
    if not ok:
        raise DominoproofError(f"{v.name}: {why}")
    result = explore(v, init, rules=rules, max_states=max_states)
    engine = c.EngineOracle(v, rules, name=engine_name)
    graph, states = c.graph_oracle(result)
    comparisons = [c.compare(v, states, engine, graph)]
    comparisons += [c.compare(v, states, engine, o) for o in extra]

    ends = [i for i in range(result.expanded) if result.kind_of(i) != "playing"][:traces]
    bad_replays: list[str] = []
    for i in ends:
        trace = result.trace_to(i)
        got = c.replay(trace, [result.state(k) for k in result.path_to(i)], rules=rules)
        if not got.ok:
            bad_replays.append(f"trace to state {i}: {got.detail}")

    mismatch = any(not r.ok for r in comparisons) or bool(bad_replays)
    code = EXIT_MISMATCH if mismatch else EXIT_OK if result.complete else EXIT_UNKNOWN
    verdict = {EXIT_OK: "agree", EXIT_MISMATCH: "MISMATCH",
               EXIT_UNKNOWN: "UNKNOWN (partial search: no mismatch in the part compared)"}[code]
    configuration = f"{v.name}: {init.describe()}"
    if as_json:
        out: dict[str, Any] = {
            "configuration": configuration,
            "engine": engine_name,
            "search": {"states": result.size, "expanded": result.expanded,
                       "transitions": len(result.edge_to), "complete": result.complete,
                       "stop_reason": result.stop_reason},
            "comparisons": [{
                "a": r.a, "b": r.b, "states": r.states, "transitions": r.transitions,
                "terminal": r.terminal, "mismatches": r.mismatch_count,
                "mismatched_states": r.mismatched_states,
                "first": [m.describe(r.a, r.b) for m in r.mismatches[:5]],
            } for r in comparisons],
            "replays": {"traces": len(ends), "failed": bad_replays[:5],
                        "failures": len(bad_replays)},
            "verdict": verdict,
            "exit": code,
        }
        emit("crosscheck", out, as_json)
    if text_too(as_json):
        lines = [f"crosscheck {configuration}",
                 f"search: {result.size:,} states, {len(result.edge_to):,} transitions"
                 + ("" if result.complete else f" (partial: {result.stop_reason})")]
        lines += [r.describe(limit=3) for r in comparisons]
        lines.append(f"replay: {len(ends)} witness trace(s) (one per terminal state) "
                     + ("replay in the engine to the recorded states" if not bad_replays
                        else f"-- {len(bad_replays)} do NOT replay"))
        lines += [f"  {b}" for b in bad_replays[:3]]
        lines.append(f"result: {verdict}")
        click.echo("\n".join(lines))
    click.get_current_context().exit(code)
