"""The compiled kernel (proofs/kernel): one more oracle of the conformance suite.

* its successors equal the rule book's on every state the Python search visits on small
  configurations of every layout kind (both inclusions, ``conformance.compare``), and its
  R1.1/R2/R3 predicates agree;
* its search is the Python search: the same ids, parents, depths, kinds and edges, so the
  same verdict for every property of the catalogue, the same counterexample traces, and
  they replay in the engine;
* its random rounds are the engine's, move for move, from the same seeds (and so
  ``simulate`` gives the same statistics on either path);
* each check is shown able to fail: on a kernel reading a deliberately broken table;
* without numba (``DOMINOPROOF_KERNEL=0``) everything runs on the Python path and says so.

Skipped, saying so, where the ``kernel`` extra (numba) is not installed.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import variant

from dominoproof.model import engine_for, random_round, random_rounds
from dominoproof.model.spec import Init, every_deal
from dominoproof.model.state import Status
from dominoproof.model.variant import Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs import kernel
from dominoproof.proofs.faults import FAULTS, FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.check import checked_verdict
from dominoproof.proofs.search.result import SearchResult
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

if kernel.available():
    from dominoproof.bench.lean import check_blocks, explore_lean, explore_sweep
    from dominoproof.proofs.kernel import tables as kt
    from dominoproof.proofs.kernel.book import KernelBook
    from dominoproof.proofs.kernel.playout import KernelRounds, kernel_random_rounds
    from dominoproof.proofs.search import compiled as search_kernel
    from dominoproof.proofs.search.compiled import explore_kernel

SMALL = {"set.max": 3, "deal.hand_size": 3}

#: small configurations of every layout kind and rule feature the kernel reads
CONFIGS: dict[str, tuple[str, dict[str, Any], bool]] = {
    "line": ("tiny-2p-d3", {}, False),
    "line-free-draw": ("tiny-2p-d3", {}, True),
    "draw-one-fouls": ("tiny-2p-d3", {"draw.rule": "one", "fouls.rule": "penalised",
                                      "fouls.penalty": 5}, False),
    "any-time-draw-one": ("tiny-2p-d3", {"draw.rule": "one", "draw.when": "any-time"}, True),
    "call-draw-one": ("tiny-2p-d3", {"draw.rule": "one", "block.call": "dead-end"}, True),
    # R3.6: nobody holds 3-3, and the players draw for it from P1 on
    "draw-for-lead": ("tiny-2p-d3", {"lead.fallback": "draw", "lead.player": 1}, False),
    "block-3p": ("block-2p-d6", {**SMALL, "deal.players": 3}, False),
    "leave2": ("draw-leave2-2p-d6", SMALL, False),
    "spinner": ("tiny-2p-d3", {"layout.kind": "spinner"}, False),
    "spinner-sides-first": ("tiny-2p-d3", {"layout.kind": "spinner",
                                           "layout.spinner_sides_first": True}, False),
    "trains": ("tiny-2p-d3", {"layout.kind": "trains"}, False),
    "trains-restart": ("tiny-2p-d3", {"layout.kind": "trains", "deal.players": 3,
                                      "deal.hand_size": 2, "block.restart_on_marker": True},
                       False),
    "trains-own-marker-out": ("block-2p-d6", {**SMALL, "deal.players": 3, "layout.kind": "trains",
                                              "layout.open_trains": "own-marker-out"}, False),
    "trains-public-after-own": ("tiny-2p-d3", {"layout.kind": "trains",
                                               "layout.public_train": "after-own"}, False),
    "trains-any-time": ("tiny-2p-d3", {"layout.kind": "trains", "draw.when": "any-time"},
                        False),
    "trains-call": ("tiny-2p-d3", {"layout.kind": "trains", "block.call": "dead-end"}, False),
    # R2.3: first turns lay tile after tile on one's own train; with doubles to cover
    "trains-first-turn": ("tiny-2p-d3", {"layout.kind": "trains",
                                         "layout.first_turn": "own-train"}, False),
    "trains-first-turn-doubles": ("tiny-2p-d3", {
        "layout.kind": "trains", "layout.first_turn": "own-train", "layout.double_takes": 1,
        "layout.double_again": True, "draw.rule": "one"}, True),
    "covered-doubles": ("tiny-2p-d3", {"layout.double_takes": 1, "layout.double_again": True},
                        False),
    "chicken-foot": ("tiny-2p-d3", {"layout.kind": "chicken-foot",
                                    "layout.lead_double_takes": 4, "layout.double_takes": 3},
                     False),
    "chicken-foot-draw-for-double": ("tiny-2p-d3", {
        "layout.kind": "chicken-foot", "layout.double_takes": 3, "draw.rule": "one",
        "lead.rule": "highest-double", "lead.fallback": "draw", "deal.hand_size": 2}, True),
    # R2.2: a double that must be covered is no player's last tile (two tiles each: a hand
    # soon comes down to one)
    "trains-out-covered": ("tiny-2p-d3", {"layout.kind": "trains", "deal.hand_size": 2,
                                          "layout.double_takes": 1, "layout.double_again": True,
                                          "layout.out_on_double": "covered"}, False),
    # R2.1: Matador matching (halves summing to N+1 = 4, the matadors 0-0, 1-3, 2-2 wild)
    "matador": ("tiny-2p-d3", {"layout.match": "matador"}, False),
    # R5.7: plays score the ends' count (the points and the weights in the frame and key):
    # Muggins' line, All Fives' spinner (its arms open once both sides are covered)
    "fives-line": ("muggins-2p-d6", {"set.max": 3, "deal.hand_size": 3,
                                     "deal.set_aside": 2}, False),
    "fives-spinner": ("all-fives-2p-d6", {"set.max": 3, "deal.hand_size": 3,
                                          "lead.tile": "3-3"}, True),
}


def config(name: str) -> tuple[Variant, Init]:
    """The configuration with every deal."""
    preset, overrides, free = CONFIGS[name]
    return variant(preset, overrides), Init.every(free)


def sampled(name: str, k: int = 12, seed: int = 1) -> tuple[Variant, list[Init]]:
    """The configuration on ``k`` seeded deals (each in the draw order it was dealt in)."""
    preset, overrides, free = CONFIGS[name]
    v = variant(preset, overrides)
    deals = list(every_deal(v, True))
    picked = random.Random(seed).sample(deals, min(k, len(deals)))
    return v, [Init.one(d, free) for d in picked]


def broken(v: Variant, field: str, value: int) -> kt.Tables:
    """The kernel's table of ``v`` with one entry of its header changed: a kernel that
    reads a rule wrongly."""
    k = kt.tables_for(v).k.copy()
    k[getattr(kt, field)] = value
    return dataclasses.replace(kt.tables_for(v), k=k)


def same_graph(a: SearchResult, b: SearchResult) -> None:
    assert (a.size, a.expanded, a.roots, a.complete) == (b.size, b.expanded, b.roots,
                                                         b.complete)
    assert list(a.parent) == list(b.parent)
    assert list(a.depth) == list(b.depth)
    assert list(a.kind) == list(b.kind)
    assert list(a.edge_ptr) == list(b.edge_ptr)
    assert list(a.edge_to) == list(b.edge_to)
    assert [a.state(i) for i in range(a.size)] == [b.state(i) for i in range(b.size)]


# ---------------------------------------------------------------------------
# The oracle: successors and predicates on every state
# ---------------------------------------------------------------------------


def agree_on_every_state(v: Variant, inits: Init | list[Init]) -> None:
    reach = c.reachable_states(v, inits, limit=2_000_000)  # the line, every deal: 986,210
    assert reach.complete
    res = c.compare(v, reach.states, c.EngineOracle(v), c.get_oracle("kernel", v))
    assert res.ok, res.describe()
    assert res.transitions > 0 and res.terminal > 0


@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_successors_equal_the_rules_on_every_state(name: str) -> None:
    """Every state reachable from a dozen seeded deals (every deal: the slow tier)."""
    agree_on_every_state(*sampled(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["line", "spinner", "trains", "chicken-foot", "fives-line",
                                  "fives-spinner"])
def test_kernel_successors_equal_the_rules_on_every_deal(name: str) -> None:
    """Every deal: the line in every draw order the deal fixes (986,210 states: the
    kernel's reading of a stack, R3.1's top tile), the other layouts in every draw order
    the rules allow (any boneyard tile drawn: 89,434 to 396,186 states; a fixed order
    multiplies them by 5 to 7 without reading anything else of the layout -- which tile
    is drawn does not depend on it, whether one is; their fixed orders are the seeded
    deals' of the test above); where plays score (R5.7), Muggins' line and All Fives'
    spinner, the points and the ends' weights part of every successor. ``line-free-draw``
    on every deal is
    tests/test_conformance.py's ``tiny-free``, where the kernel is one of the oracles."""
    v, inits = config(name)
    agree_on_every_state(v, inits if name == "line" else Init.every(True))


def test_kernel_leads_as_the_rules_for_every_deal_and_lead_rule() -> None:
    for overrides in ({}, {"lead.rule": "highest-double", "lead.fallback": "heaviest-tile"},
                      {"lead.rule": "tile", "lead.tile": "3-3", "lead.fallback": "redeal"},
                      {"lead.rule": "player", "lead.player": 1},
                      {"lead.fallback": "draw", "lead.player": 1},  # R3.6
                      {"lead.rule": "highest-double", "lead.fallback": "draw"}):
        v = variant("tiny-2p-d3", overrides)
        res = c.compare_initial(v, every_deal(v, True), c.EngineOracle(v),
                                c.get_oracle("kernel", v))
        assert res.ok


@pytest.mark.parametrize(("field", "value"), [("DRAW", kt.DRAW_NONE if kernel.available()
                                               else 0), ("C", 1), ("READING", 1),
                                              ("WHEN_ANY", 1), ("CALL", 1),
                                              ("FALLBACK", 1), ("OUT_COVERED", 0),
                                              ("MATCH", 0)])
def test_the_oracle_check_fails_on_a_broken_kernel(field: str, value: int) -> None:
    """A kernel reading the draw rule, the confirmations, R2.3's reading, who may draw
    (R3.5), whether a dead end may be called (R4.7), the lead's fallback (R3.6's draw read
    as the heaviest tile), whether a last double may wait (R2.2) or what a matador leaves
    showing (R2.1) wrongly is caught: its successors or its predicates differ from the
    rules' somewhere."""
    v, inits = sampled({"READING": "trains", "FALLBACK": "draw-for-lead",
                        "OUT_COVERED": "trains-out-covered",
                        "MATCH": "matador"}.get(field, "line"))
    reach = c.reachable_states(v, inits)
    oracle = c.KernelOracle(v)
    oracle.book = KernelBook(v, broken(v, field, value))
    res = c.compare(v, reach.states, c.EngineOracle(v), oracle)
    assert not res.ok


def test_the_kernel_refuses_what_it_cannot_read_and_the_python_path_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    v = variant("draw-10p-d18")
    assert kernel.reason(v) == ""  # 190 tiles: its rules and play-outs run
    from dominoproof.proofs.search.statespace import kernel_reason

    assert "63 tiles" in kernel_reason(v)  # its search keys do not hold them
    small, (init,) = sampled("line", 1)
    fault = next(f for f in FAULTS if f.engine is not None)
    mutant = fault.engine_for(fault.variant())
    assert "not the variant's own" in kernel_reason(fault.variant(), mutant)
    assert not explore(fault.variant(), fault.init(), rules=mutant, max_states=50).on_kernel
    monkeypatch.setenv(kernel.ENV, "0")
    assert not kernel.available()
    assert "Python path" in kernel.status() and "Python path" in kernel.reason(small)
    with pytest.raises(c.OracleUnavailable):
        c.get_oracle("kernel", small)
    r = explore(small, init)
    assert not r.on_kernel and r.figures.search == "python"


# ---------------------------------------------------------------------------
# The search: the same graph, the same verdicts
# ---------------------------------------------------------------------------


def same_search(v: Variant, init: Init, scorer: Any = None) -> SearchResult:
    a = explore(v, init, kernel=False, scorer=scorer)
    b = explore(v, init, kernel=True, scorer=scorer)
    assert b.on_kernel and not a.on_kernel
    same_graph(a, b)
    assert verdicts(a) == verdicts(b)
    assert a.figures.search == "python" and b.figures.search == "kernel"
    return b


def verdicts(r: SearchResult) -> Any:
    """Every catalogue verdict with its detail, trace and figures (or the same refusal:
    the catalogue does not read some new layout features yet, whichever search ran)."""
    try:
        return [(x.property, x.verdict, x.detail, x.trace, x.stats)
                for x in check_properties(r)]
    except NotImplementedError as e:
        return f"not implemented: {e}"


KERNEL_FAULTS = [f for f in FAULTS if f.engine is None]


@pytest.mark.parametrize("fault", KERNEL_FAULTS, ids=lambda f: f.id)
def test_kernel_search_catches_the_faults_it_can_run(fault: Any) -> None:
    """The faults of a variant (legal overrides) and of the scoring run on the kernel's
    search: the same violations, with the same shortest counterexamples, replayable."""
    results = check_properties(same_search(fault.variant(), fault.init(), fault.scorer))
    caught = [r for r in results if r.property in fault.catches]
    assert caught and all(checked_verdict(r) is Verdict.VIOLATED for r in caught)
    for r in caught:
        if r.trace is not None and hasattr(r.trace, "states"):
            assert r.trace.states()  # replays in the engine (apply's checks)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_search_is_the_python_search(name: str) -> None:
    """Three seeded deals of each configuration: the same graph, the same verdict for
    every property of the catalogue, the same counterexample traces."""
    v, inits = sampled(name, 3, seed=2)
    for init in inits:
        same_search(v, init)


@pytest.mark.slow
def test_kernel_search_is_the_python_search_on_every_deal() -> None:
    """The search's own machinery (visited set, BFS order, edges, traces) on every deal
    (line-free-draw: 129,260 states). It reads no layout and no player count: each
    layout's kernel step is checked on every state of every deal by the successor test
    above, three players' by tests/test_conformance.py's ``block-d3-3p`` (the kernel is
    one of its oracles), and every configuration's whole search on seeded deals in the
    fast tier; the every-deal searches of trains and of three players here repeated
    those Python searches a second time (about 340 s and 50 s of CI)."""
    same_search(*config("line-free-draw"))


@pytest.mark.parametrize("graph", ["every-deal", "budget", "cycle"])
def test_the_compiled_graph_analyses_are_the_searchs(graph: str) -> None:
    """The compiled depth-first search and longest paths (``kernel/graph.py``) give what
    the Python analyses give: the same topological order, the same first cycle, the
    same distances. On a kernel search of every deal; on one cut short by its budget
    (states beyond the expanded ones have no edges); and on a fault's graph, which has
    cycles (the Python search's arrays: the kernel does not run a mutant)."""
    if graph == "cycle":
        fault = FAULTS_BY_ID["confirm-resets"]
        fv = fault.variant()
        r = explore(fv, fault.init(fv), rules=fault.engine_for(fv))
    else:
        v, init = config("line-free-draw")
        r = explore_kernel(v, init, max_states=60_000 if graph == "budget" else None)
        assert isinstance(r, search_kernel.KernelSearchResult)
        assert r.complete is (graph == "every-deal")
    order, cycle = SearchResult._order(r)  # the Python analysis, not the override
    got_order, got_cycle = search_kernel.compiled_order(r)
    assert got_cycle == cycle
    assert (cycle is None) is (graph != "cycle")
    if order is None:
        assert got_order is None
        return
    assert got_order is not None and got_order.tolist() == order
    # not a trivial order: a search that skipped the edges would give the ids reversed
    assert order != list(range(r.size))[::-1]
    dist = SearchResult.longest_from_roots(r)
    assert search_kernel.compiled_longest(r, got_order) == dist
    assert r.longest_from_roots() == dist and r.find_cycle() is None
    assert dist is not None and max(dist) > 1


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_sweep_finds_the_lean_searchs_states(name: str) -> None:
    """Two levels at a time (tiles on the table plus tiles drawn), on three seeded deals
    of every configuration: the same distinct states and transitions as the search that
    keeps them all, or a failing block where it finds one. A move put on the wrong level
    would count a state twice."""
    v, inits = sampled(name, 3, seed=2)
    for init in inits:
        a, b = explore_lean(v, init), explore_sweep(v, init)
        if a.failed is None:
            assert b.complete and b.failed is None
            assert (b.states, b.transitions) == (a.states, a.transitions)
        else:
            assert b.failed is not None and b.failed.status is Status.BLOCKED and b.why


def test_the_sweep_holds_two_levels_of_every_deal() -> None:
    """Every deal in every draw order (many initial states, one level): the pinned count,
    level by level, in less memory than the whole visited set; a broken kernel's failing
    block is found."""
    v, init = config("line-free-draw")
    seen: list[tuple[int, int]] = []
    whole = explore_lean(v, init)
    b = explore_sweep(v, init, progress=lambda level, n: seen.append((level, n)))
    assert b.complete and b.states == whole.states == 129_260
    assert seen == list(enumerate(b.levels)) and len(b.levels) > 10
    assert b.peak_bytes < whole.visited_bytes
    bad = explore_sweep(v, init, tables=broken(v, "C", 0))
    assert bad.failed is not None and bad.why & 2 and not bad.complete
    stopped = explore_sweep(v, init, max_seconds=0)
    assert not stopped.complete and "time budget" in stopped.stop_reason
    held = explore_sweep(v, init, max_held=20_000)
    assert not held.complete and "20,000 states held" in held.stop_reason
    assert held.states < b.states


def test_kernel_search_budgets_stop_where_the_python_search_stops() -> None:
    v, init = config("line-free-draw")
    init = sampled("line-free-draw", 1)[1][0]
    for budget in (1, 7, 1000, 5000):
        a = explore(v, init, kernel=False, max_states=budget)
        b = explore(v, init, kernel=True, max_states=budget)
        same_graph(a, b)
        assert a.stop_reason == b.stop_reason


def test_kernel_pinned_state_counts() -> None:
    """The counts pinned for the Python search (tests/test_statespace.py) on the kernel."""
    v = variant("tiny-2p-d3")
    assert explore(v, Init.every(True), kernel=True).size == 129_260
    v6 = variant("block-2p-d6", SMALL)
    assert explore(v6, Init.every(False), kernel=True).size == 64_050


def test_a_kernel_counterexample_is_shortest_and_replays() -> None:
    """A broken kernel (it establishes a block without any confirmation) is caught by the
    lean search's blocked-sound judgment, with a BFS-shortest trace of real states."""
    v, (init,) = sampled("line", 1)
    good = explore_lean(v, init)
    assert good.complete and good.failed is None and good.states == explore(v, init).size
    bad = explore_lean(v, init, tables=broken(v, "C", 0))
    assert bad.failed is not None and bad.why & 2
    # room taken at the start changes nothing but when the arrays grow
    kept = explore_lean(v, init, tables=broken(v, "C", 0), reserve=bad.states + 10_000)
    assert (kept.states, kept.expanded, kept.path) == (bad.states, bad.expanded, bad.path)
    # a reserve of exactly the state budget: the budget stops the search before it asks
    # for more room (near the machine's memory, the doubled arrays would not fit)
    v6 = variant("block-2p-d6", SMALL)  # 64,050 states: beyond the arrays' first room
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search_kernel._Arrays, "grow_states", _no_growth)
        capped = explore_lean(v6, Init.every(False), max_states=5000, reserve=5000)
        whole = explore_lean(v6, Init.every(False), reserve=64_050)
    assert capped.states == 5000 and not capped.complete and "budget" in capped.stop_reason
    assert whole.complete and whole.states == 64_050
    rules = engine_for(v)
    path = bad.path
    assert path[0].table == 0
    # every step but the last establishment is a move of the real rules
    for s, t in itertools.pairwise(path[:-1]):
        assert any(u == t for _, u in rules.successors(s))


def test_the_block_check_decides_by_the_sweep_and_traces_breadth_first() -> None:
    """``check_blocks`` (what ``bench spin`` times): on the real rules the sweep's HOLDS
    over the lean search's states, no second search; on a broken kernel VIOLATED, with
    the lean search's shortest trace; a budget that stops the sweep is UNKNOWN."""
    v, (init,) = sampled("line", 1)
    good = check_blocks(v, init)
    assert good.verdict == "HOLDS" and good.traced is None
    assert good.sweep.states == explore_lean(v, init).states == explore(v, init).size
    assert 0 < good.sweep.peak_states <= good.sweep.states
    bad = check_blocks(v, init, tables=broken(v, "C", 0))
    lean = explore_lean(v, init, tables=broken(v, "C", 0))
    assert bad.verdict == "VIOLATED" and bad.traced is not None
    assert bad.traced.path == lean.path and bad.traced.path[-1] == lean.failed
    assert bad.sweep.failed is not None and bad.sweep.why & 2
    stopped = check_blocks(v, init, max_held=1)
    assert stopped.verdict == "UNKNOWN" and stopped.traced is None


def _no_growth(self: object, graph: bool) -> None:
    raise AssertionError("the arrays grew although the reserve held the budget")


def test_the_search_graph_differs_on_a_broken_kernel() -> None:
    v, (init,) = sampled("line", 1)
    a = explore(v, init, kernel=False)
    b = explore_kernel(v, init, tables=broken(v, "FOULS", 1))  # R4.5 read as penalised
    with pytest.raises(AssertionError):
        same_graph(a, b)


# ---------------------------------------------------------------------------
# Random rounds and simulate
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["block-2p-d6", "partnership-4p-d6", "draw-4p-d12",
                                  "draw-8p-d12", "fouls-4p-d6", "draw-leave2-2p-d6",
                                  "tiny-2p-d3"])
def test_kernel_rounds_are_the_engines_move_by_move(name: str) -> None:
    v = variant(name)
    for seed in range(4):
        trace = random_round(v, seed)
        deal, moves, final = KernelRounds(v, seed).one()
        assert (deal, moves) == (trace.deal, trace.moves)
        assert final == trace.states()[-1]
    assert list(kernel_random_rounds(v, 200, 11)) == list(random_rounds(v, 200, 11))


@pytest.mark.parametrize("name", ["spinner", "trains", "chicken-foot", "covered-doubles"])
def test_kernel_rounds_on_every_layout(name: str) -> None:
    v, _ = sampled(name, 1)
    assert list(kernel_random_rounds(v, 300, 5)) == list(random_rounds(v, 300, 5))


def test_kernel_rounds_differ_on_a_broken_kernel() -> None:
    """A kernel that establishes a block after one confirmation (the variant needs all)
    plays other rounds from the same seed. (Not every broken rule ends its rounds: one
    that stops drawing while confirmations need an empty boneyard passes forever, in the
    kernel as in a Python rule book.)"""
    v = variant("draw-2p-d6")
    stream = KernelRounds(v, 3)
    stream.tb = broken(v, "C", 1)
    finals, lengths = stream.finals(50)
    ours = [(kt.state_of(stream.tb, finals[i]), int(lengths[i])) for i in range(50)]
    assert ours != list(random_rounds(v, 50, 3))


def test_simulate_gives_the_same_statistics_on_the_kernel() -> None:
    from dominoproof.proofs.analysis.simulate import simulate

    v = variant("partnership-4p-d6")
    a = simulate(v, 3000, 9, kernel=False)
    b = simulate(v, 3000, 9, kernel=True)
    assert a == b


def test_the_sampled_figures_play_on_the_kernel_as_simulate_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The uniform policy's sampled figures are played on the kernel where it runs (as
    ``simulate`` plays them), with the same figures as the engine's own loop."""
    from dominoproof.proofs.analysis.stats import sampled_figures
    from dominoproof.proofs.kernel import playout

    v = variant("partnership-4p-d6")
    engine = sampled_figures(v, "random", 3000, 9, kernel=False)
    calls: list[tuple[int, int]] = []
    real = playout.kernel_random_rounds

    def recorded(variant: Variant, n: int, seed: int) -> Any:
        calls.append((n, seed))
        return real(variant, n, seed)

    monkeypatch.setattr(playout, "kernel_random_rounds", recorded)
    assert sampled_figures(v, "random", 3000, 9) == engine
    assert calls == [(3000, 9)]
    calls.clear()
    sampled_figures(v, "greedy", 50, 9)  # a policy's rounds are the policy's loop
    assert calls == []


def test_mt_stream_is_pythons() -> None:
    import random

    from dominoproof.proofs.kernel.playout import mt_state, rand

    rng = random.Random(1234)
    mt = mt_state(random.Random(1234))
    assert [rand(mt) for _ in range(2000)] == [rng.random() for _ in range(2000)]
    assert isinstance(mt, np.ndarray)


def test_the_kernels_cache_folder_follows_every_kernel_source(tmp_path: Any,
                                                               monkeypatch: Any) -> None:
    """numba checks a cached function against its own file only; the folder is keyed by
    every kernel source, so an edit in any one of them (here: a copy of the package with
    one module changed) names another folder, and numba's version does too."""
    import shutil

    from dominoproof.proofs.kernel import _jit

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    here = _jit.cache_dir("1.0")
    assert here.startswith(str(tmp_path / "cache" / "dominoproof" / "kernel-"))
    assert _jit.cache_dir("1.0") == here and _jit.cache_dir("2.0") != here
    copy = tmp_path / "kernel"
    shutil.copytree(Path(_jit.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_jit, "__file__", str(copy / "_jit.py"))
    assert _jit.cache_dir("1.0") == here  # the same sources: the same folder
    (copy / "search.py").write_text((copy / "search.py").read_text() + "\n# edited\n")
    assert _jit.cache_dir("1.0") != here
