"""The exhaustive search (``dominoproof.proofs.search.statespace``): exact, breadth first, honest.

* the integer encoding is exact (round trip, no two states share a code) and agrees
  with the canonical ``State.key`` on the correct rules;
* the search follows ``Rules`` (every recorded edge is a transition of the rule book,
  and every transition is recorded) and its BFS tree holds shortest paths;
* budgets make a result partial, never complete; a space of exactly the budget's size
  is still complete;
* the graph analyses on arrays agree with networkx, and are the only ones: the
  cycle reported does not depend on the graph's size;
* the kinds of states are derived from ``Ending``;
* pinned figures (tests/data/statespace.toml) are recomputed and compared.
"""

from __future__ import annotations

import itertools
import sys
import tomllib
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from dominoproof.model import engine_for, find_variant
from dominoproof.model.dealtext import parse_deal
from dominoproof.model.engine import Trace, init_for, seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import is_own
from dominoproof.model.spec import Init, init_states
from dominoproof.model.state import Ending, Status
from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import NX_LIMIT
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.check import check_properties
from dominoproof.proofs.search.codec import Codec
from dominoproof.proofs.search.result import (
    KINDS,
    SearchResult,
    kind_code,
    kind_ending,
    kind_label,
)
from dominoproof.proofs.search.statespace import explore, feasibility

DATA = Path(__file__).parent / "data" / "statespace.toml"


def variant(name: str, **overrides: Any) -> Variant:
    v = find_variant(name)
    return v.with_overrides({k.replace("__", "."): x for k, x in overrides.items()},
                            source="<test>") if overrides else v


def tiny_free() -> SearchResult:
    v = find_variant("tiny-2p-d3")
    return explore(v, Init.one(seeded_deal(v, 0), free_draw=True))


def block_d2() -> SearchResult:
    v = variant("block-2p-d6", set__max=2, deal__hand_size=2)
    return explore(v, Init.every())


# ---------------------------------------------------------------------------
# The encoding
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("make", [tiny_free, block_d2], ids=["tiny-free", "block-d2"])
def test_codes_round_trip_and_are_distinct(make: Any) -> None:
    r = make()
    states = list(r.states())
    assert [r.codec.encode(s) for s in states] == r.codes
    assert len(set(r.codes)) == len(states) == r.size
    # with the correct rules the table is implied, so codes and canonical keys agree
    assert len({s.key() for s in states}) == r.size


def test_fixed_draw_order_is_part_of_the_code() -> None:
    v = find_variant("tiny-2p-d3")
    deal = seeded_deal(v, 0)
    a = next(init_states(v, Init.one(deal)))
    b = a._replace(stack=tuple(reversed(a.stack or ())))
    c = a._replace(stack=None)
    codec = Codec(v)
    assert len({codec.encode(a), codec.encode(b), codec.encode(c)}) == 3
    for s in (a, b, c):
        assert codec.decode(codec.encode(s)) == s


def test_a_state_outside_the_encoding_is_refused_not_folded() -> None:
    v = find_variant("tiny-2p-d3")
    s = next(init_states(v, Init.one(seeded_deal(v, 0))))
    codec = Codec(v)
    with pytest.raises(OverflowError):
        codec.encode(s._replace(confirmed=256))
    with pytest.raises(OverflowError):
        codec.encode(s._replace(table=1 << 32))
    # a tile outside the set (faulty rules) still fits a word: it is kept, not folded
    odd = s._replace(table=1 << v.tiles.count)
    assert codec.decode(codec.encode(odd)) == odd != s
    assert codec.encode(odd) != codec.encode(s)


# ---------------------------------------------------------------------------
# The search follows the rules, breadth first
# ---------------------------------------------------------------------------


def test_recorded_edges_are_exactly_the_rule_books_transitions() -> None:
    r = tiny_free()
    rules = engine_for(r.variant)
    for i in range(r.size):
        s = r.state(i)
        want = [(m, r.codec.encode(t)) for m, t in rules.successors(s)]
        got = [(m, r.codes[j]) for m, j in r.successors(i)]
        assert got == want


def test_bfs_tree_gives_shortest_paths() -> None:
    r = block_d2()
    for i in range(r.size):
        path = r.path_to(i)
        assert len(path) - 1 == r.depth[i]
        assert path[0] < r.roots
    for i, _m, j in r.edges():
        assert r.depth[j] <= r.depth[i] + 1


def test_a_trace_to_any_state_replays_in_the_engine() -> None:
    r = tiny_free()
    for i in (r.size - 1, r.size // 2, 0):
        trace = r.trace_to(i)
        assert not trace._states  # correct rules: the engine replays it, with its checks
        again = Trace.loads(trace.dumps())
        assert again.final.key() == r.state(i).key()


def test_ids_and_kinds() -> None:
    r = tiny_free()
    for i in range(r.size):
        assert r.id_of(r.state(i)) == i
        s = r.state(i)
        kind = r.kind_of(i)
        if s.status.name == "BLOCKED":
            assert kind == "blocked"
        elif s.status.name == "DOMINO":
            assert kind == f"domino P{s.turn}"
        else:
            assert kind == "playing"
        assert r.ending_of(i) is s.status.ending


def test_kinds_are_derived_from_ending() -> None:
    """The search's kinds are small ints made from ``Ending`` (and a domino's player):
    each reads back as its ending and label, no two collide, all fit the kind array
    (signed bytes) with ten players, and 0 is a round still being played."""
    assert kind_code(None) == 0 and kind_ending(0) is None and kind_label(0) == "playing"
    codes = {}
    for ending in Ending:
        for player in range(10):
            k = kind_code(ending, player)
            assert kind_ending(k) is ending and kind_label(k) == ending.label(player)
            assert 0 < k < 128
            codes.setdefault(k, set()).add(ending.label(player))
    assert all(len(labels) == 1 for labels in codes.values())
    assert len(codes) == 10 + len(Ending) - 1 and len(Ending) + 1 == KINDS
    # a state's terminal statuses are Endings, named alike; STUCK never is a status
    assert [s.ending for s in Status] == [None, Ending.BLOCKED, Ending.DOMINO]
    assert {int(s) for s in Status} == {0, 1, 2}  # the codec's and Z3's values


# ---------------------------------------------------------------------------
# Budgets: partial results are labelled, never complete
# ---------------------------------------------------------------------------


def test_state_budget_makes_the_result_partial() -> None:
    v = find_variant("tiny-2p-d3")
    full = explore(v, Init.one(seeded_deal(v, 0), free_draw=True))
    cut = explore(v, Init.one(seeded_deal(v, 0), free_draw=True), max_states=50)
    assert not cut.complete and "state budget" in cut.stop_reason
    assert cut.size <= 50
    assert cut.codes == full.codes[:cut.size]  # the same BFS, stopped
    f = cut.figures
    assert not f.complete and f.sequences is None and f.longest is None and f.acyclic is None


def test_a_space_of_exactly_the_budget_is_complete() -> None:
    v = find_variant("tiny-2p-d3")
    init = Init.one(seeded_deal(v, 0), free_draw=True)
    n = explore(v, init).size
    assert explore(v, init, max_states=n).complete
    assert not explore(v, init, max_states=n - 1).complete


def test_budget_while_listing_the_deals() -> None:
    v = variant("block-2p-d6", set__max=2, deal__hand_size=2)
    r = explore(v, Init.every(), max_states=10)
    assert not r.complete and r.roots == 10 and "listing the deals" in r.stop_reason


def test_time_budget_makes_the_result_partial() -> None:
    v = find_variant("tiny-2p-d3")
    r = explore(v, Init.one(seeded_deal(v, 0)), max_seconds=1e-9)
    assert not r.complete and "time budget" in r.stop_reason


def test_max_states_must_be_positive() -> None:
    v = find_variant("tiny-2p-d3")
    with pytest.raises(DominoproofError):
        explore(v, Init.one(seeded_deal(v, 0)), max_states=0)


# ---------------------------------------------------------------------------
# Graph analyses: arrays and networkx agree
# ---------------------------------------------------------------------------


def _nx_paths_and_longest(g: nx.DiGraph[int], roots: int) -> tuple[dict[int, int],
                                                                   dict[int, int]]:
    ways = dict.fromkeys(g.nodes, 0)
    dist = dict.fromkeys(g.nodes, 0)
    for r in range(roots):
        ways[r] = 1
    for v in nx.topological_sort(g):
        for w in g.successors(v):
            ways[w] += ways[v]
            dist[w] = max(dist[w], dist[v] + 1)
    return ways, dist


@pytest.mark.parametrize("make", [tiny_free, block_d2], ids=["tiny-free", "block-d2"])
def test_array_analyses_agree_with_networkx(make: Any) -> None:
    r = make()
    g = r.to_networkx()
    assert nx.is_directed_acyclic_graph(g)
    order = r.topological_order()
    assert order is not None and sorted(order) == list(range(r.size))
    where = {v: k for k, v in enumerate(order)}
    assert all(where[i] < where[j] for i, _m, j in r.edges())
    ways, dist = _nx_paths_and_longest(g, r.roots)
    assert r.paths_from_roots() == [ways[i] for i in range(r.size)]
    assert r.longest_from_roots() == [dist[i] for i in range(r.size)]
    assert max(r.longest_from_roots() or [0]) == nx.dag_longest_path_length(g)


def test_a_cycle_is_found_and_networkx_agrees() -> None:
    fault = FAULTS_BY_ID["confirm-resets"]
    v = fault.variant()
    r = explore(v, fault.init(v), rules=fault.engine_for(v))
    succ = {i: {j for _m, j in r.successors(i)} for i in range(r.expanded)}
    cycle = r.find_cycle()
    assert cycle is not None and r.topological_order() is None
    assert all(b in succ[a] for a, b in itertools.pairwise([*cycle, cycle[0]]))
    f = r.figures
    assert f.acyclic is False and f.sequences is None
    # networkx, on its own, finds the graph cyclic, and a cycle of it is one of ours
    g = r.to_networkx(labels=False)
    assert not nx.is_directed_acyclic_graph(g)
    theirs = [u for u, _v in nx.find_cycle(g)]
    assert all(b in succ[a] for a, b in itertools.pairwise([*theirs, theirs[0]]))


def _first_cycle(r: SearchResult) -> list[int] | None:
    """The first cycle a depth-first search meets, from the states in id order and the
    edges of each in move order: written here plainly (recursion, sets), apart from the
    search's iterative DFS over its arrays."""
    done: set[int] = set()
    path: list[int] = []

    def visit(v: int) -> list[int] | None:
        path.append(v)
        for _m, w in r.successors(v):
            if w in path:
                return path[path.index(w):]
            if w not in done:
                found = visit(w)
                if found is not None:
                    return found
        path.pop()
        done.add(v)
        return None

    for root in range(r.size):
        if root not in done:
            found = visit(root)
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("deals", ["demo", "larger"])
def test_the_reported_cycle_does_not_depend_on_the_graphs_size(deals: str) -> None:
    """One analysis for graphs of every size (there is no networkx backend for small
    ones): the cycle is always the first one a DFS meets, and the termination
    counterexample goes round it. ``larger`` (every deal of double-3, 3 tiles each) has
    more transitions than a networkx graph is built for."""
    fault = FAULTS_BY_ID["confirm-resets"]
    v = fault.variant()
    if deals == "larger":
        v = v.with_overrides({"set.max": 3, "deal.hand_size": 3}, source="<test>")
    r = explore(v, fault.init(v), rules=fault.engine_for(v))
    assert (len(r.edge_to) > NX_LIMIT) is (deals == "larger")
    cycle = r.find_cycle()
    assert cycle is not None and cycle == _first_cycle(r)
    (res,) = check_properties(r, ["termination"])
    assert res.verdict is Verdict.VIOLATED and res.trace is not None
    entry = res.stats["state"]
    assert entry == min(cycle, key=lambda k: (r.depth[k], k))
    # the trace reaches the entry, goes once round the cycle and is back at the entry
    assert len(res.trace.moves) == r.depth[entry] + len(cycle)


def test_a_blocked_round_fixes_the_draw_order() -> None:
    """A blocked round draws the whole boneyard (R3.2), so its draws spell out one draw
    order: over every deal, blocked rounds are as many with the draw order fixed by the
    deal as with a free draw; dominoes, which may leave tiles undrawn, are more."""
    v = variant("tiny-2p-d3", set__max=2, deal__hand_size=2, lead__tile="2-2")
    fixed = explore(v, Init.every()).figures.sequences
    free = explore(v, Init.every(free_draw=True)).figures.sequences
    assert fixed is not None and free is not None
    assert fixed["blocked"] == free["blocked"] > 0
    assert fixed["domino P0"] > free["domino P0"]


def test_networkx_graph_is_refused_for_large_spaces() -> None:
    r = block_d2()
    with pytest.raises(DominoproofError, match="networkx graph"):
        r.to_networkx(limit=10)


# ---------------------------------------------------------------------------
# Every deal: enumeration, feasibility
# ---------------------------------------------------------------------------


def test_feasibility_names_the_number_of_deals_and_refuses_huge_ones() -> None:
    ok, why = feasibility(find_variant("tiny-2p-d3"), Init.every())
    assert ok and "100,800 deals" in why
    ok, why = feasibility(find_variant("draw-2p-d6"), Init.every(free_draw=True))
    assert not ok and "--set-max" in why


# ---------------------------------------------------------------------------
# Pinned figures
# ---------------------------------------------------------------------------


def _configs() -> list[Any]:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))["config"]
    return [pytest.param(c, id=c["name"], marks=[pytest.mark.slow] if c["slow"] else [])
            for c in data]


def _explore(c: dict[str, Any]) -> SearchResult:
    v = find_variant(c["variant"])
    if c["overrides"]:
        v = v.with_overrides(c["overrides"], source="<statespace.toml>")
    if "deal" in c:
        init = Init.one(parse_deal(v, c["deal"]), bool(c.get("free_draw", False)))
    else:
        init = init_for(v, c["deals"])
    return explore(v, init)


@pytest.mark.parametrize("config", _configs())
def test_pinned_figures(config: dict[str, Any]) -> None:
    r = _explore(config)
    f = r.figures
    assert f.complete
    got = {"states": f.states, "transitions": f.transitions, "deals_explored": f.deals,
           "depth": f.depth, "terminals": f.terminals, "sequences": f.sequences,
           "shortest": f.shortest, "longest": f.longest}
    want = {k: config[k] for k in got}
    assert got == want


def test_the_spin_peers_deal_is_expressible() -> None:
    """The deal of the Spin peer model (double-6, P0 leads 6-6) in --deal form."""
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))["config"]
    spin = next(c for c in data if "Spin" in c["name"])
    v = find_variant(spin["variant"])
    deal = parse_deal(v, spin["deal"])
    s = next(init_states(v, Init.one(deal)))
    assert s.turn == 0 and engine_for(v).moves(s)[0] == engine_for(v).moves(s)[-1]
    assert str(engine_for(v).moves(s)[0]) == "P0 leads [6|6]"


def test_rules_instances_are_independent() -> None:
    """A mutant rule book leaves the variant's own (cached) rule book untouched."""
    v = find_variant("tiny-2p-d3")
    mutant = FAULTS_BY_ID["draw-loses-tile"].engine_for(v)
    assert not is_own(mutant) and engine_for(v) is not mutant
    assert is_own(engine_for(v))


def _print_figures() -> None:  # pragma: no cover - a helper to refresh the pinned data
    for c in tomllib.loads(DATA.read_text(encoding="utf-8"))["config"]:
        f = _explore(c).figures
        print(f"# {c['name']}")
        for key in ("states", "transitions", "depth"):
            print(f"{key} = {getattr(f, key)}")
        print(f"deals_explored = {f.deals}")
        for key in ("terminals", "sequences", "shortest", "longest"):
            d = getattr(f, key)
            print(f"{key} = {{ " + ", ".join(f'"{k}" = {v}' for k, v in d.items()) + " }")
        print()


if __name__ == "__main__":  # pragma: no cover
    _print_figures()
    sys.exit(0)


def test_a_draw_order_ending_with_tile_0_survives_the_integer_code() -> None:
    # the code is the record's little-endian integer, so a last stack byte 0 (the tile
    # 0-0 drawn last) is a trailing zero the integer drops; decode pads it back
    from dominoproof.model.engine import initial_state
    from dominoproof.model.state import Deal

    v = find_variant("tiny-2p-d3")
    s = initial_state(v, Deal.from_order(v, [9, 8, 1, 2, 3, 4, 5, 6, 7, 0]))
    assert s.stack == (5, 6, 7, 0)
    codec = Codec(v)  # no fixed order given: the stack is stored byte by byte
    assert codec.decode(codec.encode(s)) == s
    assert codec.unpack(codec.pack(s)) == s
