"""Conformance: the engine against independent readings of SEMANTICS.md, state by state.

docs/SEMANTICS.md is implemented more than once on purpose. This module checks
that two implementations agree on every state a search visits: the same moves
are enabled, each move leads to the same successor, and terminal states are
classified (and, where both sides score, scored) identically. It also checks
that a trace - a counterexample or a witness - replays in the engine to the very
states it records.

Oracles
=======

The oracles (:mod:`~dominoproof.proofs.oracles`: what an oracle answers, and those that
need no Z3) known by name (:data:`ORACLES`, :func:`get_oracle`); the deliberately plain
reference implementation lives in ``tests/reference_rules.py`` and is passed in by the
tests:

``engine``
    The engine's rule book, :class:`~dominoproof.model.fast.FastRules` (or a fault's
    mutant of it, :mod:`~dominoproof.proofs.faults`), and
    :func:`~dominoproof.model.outcome.outcome`.
``spec``
    The specification's rule book, :class:`~dominoproof.model.spec.Rules`: the named
    actions of :mod:`~dominoproof.model.spec`, no memo tables, no inlined paths.
    Compared with ``engine``, it checks that the fast paths change no rule.
``kernel``
    The compiled kernel (:mod:`dominoproof.proofs.kernel`, the ``kernel`` extra): its
    ``gen_moves`` and ``step`` on the state's frame (:class:`~dominoproof.proofs.kernel.
    book.KernelBook`), and R1.1, R2 (the variant's reading) and R3 as it reads them; it
    does not score (R5 stays the engine's). :class:`OracleUnavailable` where numba is
    not installed or the kernel cannot read the variant.
``z3``
    The Z3 transition relation (:func:`~dominoproof.proofs.z3.successors.z3_successors`):
    for a concrete model state, every move the relation ``Next`` allows from it, each
    with the ``State.key()`` of the successor decoded from a model of the relation.
    Its classification is :func:`~dominoproof.proofs.z3.scoring.z3_classify` (the fields
    above but ``terminal``): R1.1, R2 and R3 as the encoding states them, and the
    outcome by the declarative scoring, so every terminal state the cross-check
    compares has its outcome compared too.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, VoidDeal, dealt_state
from dominoproof.model.state import Deal, State
from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import REACHABLE_STATES
from dominoproof.proofs.oracles import (
    Classification,
    Comparison,
    EngineOracle,
    GraphOracle,
    KernelOracle,
    Key,
    Mismatch,
    Oracle,
    OracleUnavailable,
    Transition,
    compare,
    compare_all,
    describe_key_difference,
    spec_oracle,
)
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.z3.scoring import z3_classify
from dominoproof.proofs.z3.successors import z3_successors

#: what the modules and tests that know the oracles by this module's name use
__all__ = ["ORACLES", "Comparison", "EngineOracle", "KernelOracle", "Oracle",
           "OracleUnavailable", "Transition", "compare", "compare_all", "compare_initial",
           "get_oracle", "graph_oracle", "reachable_states", "recorded_states", "replay"]


class Z3Oracle:
    """The Z3 transition relation and the declarative scoring (see the module docstring)."""

    name = "z3"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def successors(self, state: State) -> set[Transition]:
        return z3_successors(self.variant, state)

    def classify(self, state: State) -> Classification:
        return z3_classify(self.variant, state)

OracleFactory = Callable[[Variant], Oracle]

#: Oracles by name; each factory takes the variant.
ORACLES: dict[str, OracleFactory] = {
    "engine": EngineOracle,
    "spec": spec_oracle,
    "kernel": KernelOracle,
    "z3": Z3Oracle,
}


def get_oracle(name: str, variant: Variant) -> Oracle:
    """The oracle ``name`` for ``variant``; :class:`OracleUnavailable` if it cannot be built."""
    try:
        factory = ORACLES[name]
    except KeyError:
        raise OracleUnavailable(
            f"no oracle {name!r}; known: {', '.join(ORACLES)}") from None
    return factory(variant)

def compare_initial(variant: Variant, deals: Iterable[Deal], oracle_a: Any, oracle_b: Any,
                    *, free_draw: bool = False, keep: int = 10) -> Comparison:
    """Compare Init: both oracles must give the same initial state (or both void the deal)
    for every deal. The oracles must have an ``initial`` method."""
    res = Comparison(oracle_a.name, oracle_b.name)
    for d in deals:
        ka = oracle_a.initial(d.hands, d.stack, d.set_aside, free_draw=free_draw)
        kb = oracle_b.initial(d.hands, d.stack, d.set_aside, free_draw=free_draw)
        res.states += 1
        if ka != kb:
            res.mismatched_states += 1
            res.mismatch_count += 1
        if ka != kb and len(res.mismatches) < keep:
            both = ka is not None and kb is not None
            diff = describe_key_difference(ka, kb) if both else f"{ka!r} | {kb!r}"
            # a deal one side voids has no Init: the dealt position, P0 to move
            probe = (initial_state(variant, d, free_draw=free_draw) if both
                     else dealt_state(variant, d, 0, free_draw))
            res.mismatches.append(Mismatch(probe, "initial state",
                                           f"Init of the deal {d.to_json()}: {diff}"))
    return res


# -- States to compare on --------------------------------------------------------------


@dataclass
class Reachable:
    """The states a search visited (``complete``: the search was exhaustive)."""

    states: list[State]
    complete: bool
    method: str


def reachable_states(variant: Variant, inits: Init | Iterable[Init],
                     rules: RuleBook | None = None, limit: int = REACHABLE_STATES) -> Reachable:
    """Every state reachable under ``rules`` (at most ``limit``) from ``inits``: an
    :class:`~dominoproof.model.spec.Init` configuration (every deal, one deal) or
    several of them, through the project's exhaustive search
    (:func:`dominoproof.proofs.search.statespace.explore`, which follows ``rules``, so a
    mutant is explored as the mutant plays). ``complete`` is False when the limit cut
    the search short.
    """
    rules = rules or engine_for(variant)
    configs = [inits] if isinstance(inits, Init) else list(inits)
    for x in configs:
        if not isinstance(x, Init):
            raise TypeError(f"reachable_states takes Init configurations, not {x!r}")
    seen: dict[Key, State] = {}
    complete = True
    for init in configs:
        left = limit - len(seen)
        if left <= 0:
            complete = False
            break
        result = explore(variant, init, rules=rules, max_states=left, kernel=False)
        complete = complete and bool(result.complete)
        for s in result.states():
            seen.setdefault(s.key(), s)
    if len(seen) > limit:  # the last expansion of a budgeted search may add a few
        complete = False
        seen = dict(itertools.islice(seen.items(), limit))
    return Reachable(list(seen.values()), complete, "statespace.explore")


def graph_oracle(result: Any, name: str = "graph") -> tuple[GraphOracle, list[State]]:
    """The edges a :class:`~dominoproof.proofs.search.statespace.SearchResult` recorded, as an
    oracle, with the states it expanded (the only ones whose edges it knows)."""
    states = [result.state(i) for i in range(result.expanded)]
    keys = [s.key() for s in states]
    edges: dict[Key, set[Transition]] = {k: set() for k in keys}
    for i, m, j in result.edges():
        edges[keys[i]].add((m, result.state(j).key()))
    return GraphOracle(edges, name), states


# -- Traces ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """Whether a trace replays in the engine to the states it records."""

    ok: bool
    steps: int  #: moves replayed
    detail: str = ""

    def __bool__(self) -> bool:
        return self.ok


def recorded_states(result: Any, trace: Trace) -> list[State]:
    """The states a search recorded along ``trace``: from the trace's initial state,
    follow the edges of the search graph (:class:`~dominoproof.proofs.search.statespace.
    SearchResult`) labelled by the trace's moves. Raises ``ValueError`` if the graph has
    no such path (the trace is not one the search made)."""
    start = initial_state(trace.variant, trace.deal, free_draw=trace.free_draw,
                          rules=result.rules)
    i = result.id_of(start)
    if i is None:
        raise ValueError("the search did not start from this trace's initial state")
    out = [result.state(i)]
    for n, m in enumerate(trace.moves, 1):
        nxt = [j for mv, j in result.successors(i) if mv == m]
        if not nxt:
            raise ValueError(f"move {n} ({m!r}) is not an edge of the search graph")
        i = nxt[0]
        out.append(result.state(i))
    return out


def replay(trace: Trace, states: Sequence[State] | None = None, *,
           rules: RuleBook | None = None) -> Replay:
    """Replay ``trace`` in the engine, move by move with legality checks, and compare
    each state reached with the recorded one: ``states`` if given, else the states
    the trace carries (a search fills them in), else only legality and Init.

    ``states[0]`` is the initial state; ``states[i]`` the state after move ``i``.
    """
    variant = trace.variant
    rules = rules or engine_for(variant)
    recorded = list(states) if states is not None else list(trace._states)
    try:
        s = initial_state(variant, trace.deal, free_draw=trace.free_draw, rules=rules)
    except VoidDeal:
        return Replay(False, 0, "the deal has no initial state (the lead rule voids it)")
    if recorded and recorded[0].key() != s.key():
        return Replay(False, 0, "Init differs: "
                      + describe_key_difference(recorded[0].key(), s.key()))
    for i, m in enumerate(trace.moves):
        try:
            s = rules.apply(s, m)
        except DominoproofError as e:
            return Replay(False, i, f"move {i + 1} ({m!r}) is illegal in the engine: {e}")
        if len(recorded) > i + 1 and recorded[i + 1].key() != s.key():
            return Replay(False, i + 1, f"after move {i + 1} ({m!r}) the states differ: "
                          + describe_key_difference(recorded[i + 1].key(), s.key()))
    if recorded and len(recorded) != len(trace.moves) + 1:
        return Replay(False, len(trace.moves),
                      f"{len(recorded)} states recorded for {len(trace.moves)} moves")
    return Replay(True, len(trace.moves))
