"""The partitioned search (``dominoproof.bench.partitioned``): the same states,
transitions, figures and verdicts as the graph search."""

from __future__ import annotations

import pytest

from dominoproof.bench.partitioned import GLOBAL, verify_partitioned
from dominoproof.model.engine import seeded_deal
from dominoproof.model.spec import Init
from dominoproof.model.variant import find_variant
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import CATALOGUE, Verdict
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties

LOCAL = [p.id for p in CATALOGUE if p.id not in GLOBAL]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_counts_and_verdicts_match_the_graph_search(workers: int) -> None:
    # every deal of the 2-player block game on double-3 with 2 tiles each, every state
    # and transition split among the workers
    v = find_variant("block-2p-d6").with_overrides({"set.max": 3, "deal.hand_size": 2})
    init = Init.every()
    r = explore(v, init)
    f, got = verify_partitioned(v, init, LOCAL, workers=workers)
    counts = r.counts()
    assert (f.states, f.transitions, f.terminals) == (
        counts.states, counts.transitions, counts.terminals)
    # the same figures as the graph search where a search without the graph can say
    assert (f.deals, f.expanded, f.shortest) == (counts.deals, counts.expanded,
                                                  counts.shortest)
    assert f.sequences is None and f.longest is None and f.acyclic is None
    assert sum(f.per_worker_states) == f.states and len(f.per_worker_states) == workers
    want = {res.property: res.verdict for res in check_properties(r, LOCAL)}
    assert {res.property: res.verdict for res in got} == want
    assert f.complete and f.depth == max(r.depth)


def test_a_fault_is_violated_with_the_shortest_trace_from_the_graph_search() -> None:
    fault = FAULTS_BY_ID["draw-loses-tile"]
    v = fault.variant()
    init = fault.init()
    _f, got = verify_partitioned(v, init, ["conservation", "blocked-sound"],
                                engine=fault.engine, workers=2)
    res = {r.property: r for r in got}
    assert res["conservation"].verdict is Verdict.VIOLATED
    trace = res["conservation"].trace
    assert trace is not None and trace.moves
    # the same shortest counterexample as the one-process search reports
    one = check_properties(explore(v, init, rules=fault.engine_for(v)), ["conservation"])[0]
    assert one.trace is not None and len(one.trace.moves) == len(trace.moves)


def test_graph_properties_are_unknown_not_claimed() -> None:
    v = find_variant("tiny-2p-d3")
    _f, got = verify_partitioned(v, Init.one(seeded_deal(v, 0)), ["termination",
                                                                  "blocked-complete"], workers=2)
    assert all(r.verdict is Verdict.UNKNOWN for r in got)
    assert all("whole graph" in r.detail for r in got)


def test_a_budget_makes_the_search_partial_and_every_verdict_unknown() -> None:
    v = find_variant("tiny-2p-d3")
    f, got = verify_partitioned(v, Init.one(seeded_deal(v, 0), free_draw=True),
                                ["blocked-sound"], workers=2, max_states=100)
    assert not f.complete and "budget" in f.stop_reason
    assert got[0].verdict is Verdict.UNKNOWN
