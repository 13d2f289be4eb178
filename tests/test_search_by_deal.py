"""The search over every deal by parts (``dominoproof.proofs.search.by_deal``): the
parts, explored in a process pool and merged, give exactly the figures of the
one-process search; a budget makes the merge partial; a check runs on every part's
graph in the worker, its results come back in part order."""

from __future__ import annotations

from typing import Any

from dominoproof.model import find_variant
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.search.by_deal import explore_by_deal
from dominoproof.proofs.search.result import SearchResult
from dominoproof.proofs.search.statespace import explore


def variant(name: str, **overrides: Any) -> Variant:
    v = find_variant(name)
    return v.with_overrides({k.replace("__", "."): x for k, x in overrides.items()},
                            source="<test>") if overrides else v


def test_parallel_search_merges_to_the_one_process_figures() -> None:
    v = variant("block-2p-d6", set__max=3, deal__hand_size=3)
    one = explore(v, Init.every()).figures
    merged, checked = explore_by_deal(v, Init.every(), workers=2, parts=3)
    assert checked == [None, None, None]  # no check: the parts are only explored
    assert merged.parts == 3 and merged.states_in_parts is not None
    assert merged.states_in_parts >= merged.states  # parts may reach the same state
    for name in ("deals", "states", "expanded", "transitions", "terminals", "sequences",
                 "shortest", "longest", "depth", "acyclic", "complete"):
        assert getattr(merged, name) == getattr(one, name), name


def test_parallel_budget_is_partial() -> None:
    v = variant("block-2p-d6", set__max=3, deal__hand_size=3)
    merged, _ = explore_by_deal(v, Init.every(), workers=1, parts=2, max_states=1000)
    assert not merged.complete and merged.sequences is None and "budget" in merged.stop_reason


def _deals_and_states(r: SearchResult) -> tuple[str, int, int]:
    return r.init.describe(), r.roots, r.size


def test_a_check_runs_on_each_parts_graph() -> None:
    v = variant("block-2p-d6", set__max=3, deal__hand_size=3)
    merged, got = explore_by_deal(v, Init.every(), workers=2, parts=2,
                                  check=_deals_and_states)
    assert [g[0] if g else None for g in got] == [
        Init.every().shard(i, 2).describe() for i in range(2)]
    assert sum(g[1] for g in got if g) == merged.deals
    assert sum(g[2] for g in got if g) == merged.states_in_parts
