"""Exhaustive search of a round's state space: every reachable state of a configuration.

:func:`explore` is the one search: it walks the transition system of
:mod:`dominoproof.model.spec` (``Init``, ``Next``, built on one
:class:`~dominoproof.model.spec.Rules`) breadth first, so the BFS tree holds a
*shortest* path to every state and the first violation a checker finds in state order
has a shortest counterexample. Two backends run it and return the same
:class:`~dominoproof.proofs.search.result.SearchResult` (the same ids, parents, depths,
kinds and edges): the compiled kernel's (:mod:`.compiled`), where it runs
(:func:`kernel_reason`), and the Python search here, everywhere.

* States are integers (:class:`~dominoproof.proofs.search.codec.Codec`): hands,
  boneyard, set-aside tiles, table, each slot of the layout and its markers, turn,
  the R4 count, the draw-one flag, fouls, status and the draw order, packed into one
  ``int``. The table is encoded too, although the correct rules imply it: a faulty
  rule book that loses a tile must not be hidden by the encoding.
* The visited set is exact: a ``dict`` from code to state id. Nothing is
  compacted or hashed away (unlike Spin's hash compaction and bitstate modes), so
  a verdict never rests on a state silently dropped. There is no lossy mode.
* Budgets: ``max_states`` (states discovered) and ``max_seconds`` stop the search
  early; the result is then *partial* (``complete = False``), and every verdict
  drawn from it is UNKNOWN unless it is a concrete counterexample.

The search over every deal in a process pool is :mod:`dominoproof.proofs.search.by_deal`;
the property catalogue is checked on a result by
:func:`dominoproof.proofs.search.check.check_properties`::

    from dominoproof.model.engine import seeded_deal
    from dominoproof.model.spec import Init
    from dominoproof.proofs.search.statespace import explore

    result = explore(variant, Init.one(seeded_deal(variant, 0)),
                     rules=None, scorer=None, max_states=None, max_seconds=None)
    result.complete              # False when a budget stopped the search
    result.figures               # Figures: states, transitions, terminals, sequences, ...
    result.state(i), result.successors(i), result.depth[i], result.kind_of(i)
    result.trace_to(i)           # a replayable Trace from the deal to state i
"""

from __future__ import annotations

import gc
import time
from array import array
from collections import deque

from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for, is_own
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, count_deals, init_states
from dominoproof.model.state import Ending, State, Status
from dominoproof.model.variant import Variant
from dominoproof.proofs import kernel as kernel_package
from dominoproof.proofs.budgets import CLOCK_EVERY, FEASIBLE_DEALS
from dominoproof.proofs.search.codec import Codec
from dominoproof.proofs.search.result import SearchResult, kind_code, over_kind

__all__ = ["explore", "feasibility", "kernel_reason"]

#: the keys of the kernel's search hold sets of up to this many tiles (one word)
KERNEL_TILES = 63


def kernel_reason(variant: Variant, rules: RuleBook | None = None) -> str:
    """Why the kernel does not search ``variant`` under ``rules`` (``""``: it does): numba
    absent or turned off, a rule book that is not the variant's own (a fault's mutant), or
    a set too large for its keys."""
    why = kernel_package.reason(variant)
    if why:
        return why
    if rules is not None and not (is_own(rules) and rules.variant == variant):
        return f"kernel: the rule book {type(rules).__name__} is not the variant's own"
    if variant.tiles.count > KERNEL_TILES:
        return (f"kernel: its search keys hold sets of up to {KERNEL_TILES} tiles, "
                f"double-{variant.n} has {variant.tiles.count}")
    return ""



def explore(variant: Variant, init: Init, *, rules: RuleBook | None = None,
            scorer: Scorer | None = None, max_states: int | None = None,
            max_seconds: float | None = None, kernel: bool | None = None) -> SearchResult:
    """Breadth-first search of every state reachable from ``init`` under ``rules``
    (default: the variant's own rule book; a mutant ``Rules`` for the faults).

    ``scorer`` (default :func:`~dominoproof.model.outcome.outcome`) is kept with the
    result for the terminal properties. ``max_states`` bounds the states discovered
    (the search stops expanding once it has that many; the last expansion may add a
    few more), ``max_seconds`` the time; either makes the result partial.

    The search creates no reference cycles (states are tuples of ints), so the cyclic
    garbage collector, which would walk every live state again and again, is paused
    while it runs.

    ``kernel``: run the compiled kernel's search (:mod:`.compiled`; the same graph, ids
    and all), ``None`` (the default) where it can (:func:`kernel_reason`), ``False``
    never, ``True`` or refuse, saying why.
    """
    if kernel is not False:
        why = kernel_reason(variant, rules)
        if not why:
            # numba (optional) is loaded with the kernel's backend, only where it runs
            from dominoproof.proofs.search.compiled import explore_kernel

            return explore_kernel(variant, init, scorer=scorer, max_states=max_states,
                                  max_seconds=max_seconds)
        if kernel:
            raise DominoproofError(why)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _explore(variant, init, rules=rules, scorer=scorer, max_states=max_states,
                        max_seconds=max_seconds)
    finally:
        if collecting:
            gc.enable()


def _explore(variant: Variant, init: Init, *, rules: RuleBook | None,
             scorer: Scorer | None, max_states: int | None,
             max_seconds: float | None) -> SearchResult:
    if max_states is not None and max_states < 1:
        raise DominoproofError(f"--max-states must be at least 1, not {max_states}")
    rules = rules or engine_for(variant)
    # One deal in its own draw order: every draw order met is (for correct rules) a
    # suffix of it, which the codec then stores as a length.
    codec = Codec(variant, init.deal.stack if init.deal is not None and not init.free_draw
                  else None)
    encode = codec.encode
    moves_of, step = rules.moves, rules.step
    index: dict[int, int] = {}
    codes: list[int] = []
    parent = array("i")
    depth = array("i")
    kind = array("b")
    edge_ptr = array("q", [0])
    edge_to = array("i")
    queue: deque[State] = deque()
    cap = max_states if max_states is not None else 1 << 62
    start = time.perf_counter()
    deadline = start + max_seconds if max_seconds is not None else None
    stop = ""

    for s in init_states(variant, init, rules):
        c = encode(s)
        if c in index:
            continue
        if len(codes) >= cap:
            stop = f"state budget of {max_states:,} states reached while listing the deals"
            break
        index[c] = len(codes)
        codes.append(c)
        parent.append(-1)
        depth.append(0)
        queue.append(s)
    roots = len(codes)
    if roots == 0:
        raise DominoproofError(f"{variant.name}: {init.describe()}: no initial state "
                               "(the lead rule voids every deal)")

    # The loop below is the search's hot path: bound methods are held in locals.
    playing, stuck, being_played = Status.PLAYING, kind_code(Ending.STUCK), kind_code(None)
    lookup, add_code, add_parent = index.get, codes.append, parent.append
    add_depth, push, pop, add_edge = depth.append, queue.append, queue.popleft, edge_to.append
    n_codes = len(codes)
    tick = CLOCK_EVERY - 1  # a power of two: i & tick == i % CLOCK_EVERY
    i = 0
    while queue and not stop:
        if deadline is not None and not i & tick and time.perf_counter() > deadline:
            stop = f"time budget of {max_seconds:g} s reached"
            break
        s = pop()
        if s.status is not playing:
            kind.append(over_kind(s))
            edge_ptr.append(len(edge_to))
            i += 1
            continue
        ms = moves_of(s)
        d = depth[i] + 1
        for m in ms:
            t = step(s, m)
            c = encode(t)
            j = lookup(c)
            if j is None:
                if n_codes >= cap:
                    # Budget: undo this state's partial expansion; it stays unexplored.
                    del edge_to[edge_ptr[-1]:]
                    queue.appendleft(s)
                    stop = f"state budget of {max_states:,} states reached"
                    break
                j = index[c] = n_codes
                n_codes += 1
                add_code(c)
                add_parent(i)
                add_depth(d)
                push(t)
            add_edge(j)
        else:
            kind.append(being_played if ms else stuck)
            edge_ptr.append(len(edge_to))
            i += 1

    return SearchResult(
        variant, init, rules, scorer or outcome, codec, index, codes, parent, depth, kind,
        edge_ptr, edge_to, roots, not queue and not stop, stop,
        time.perf_counter() - start)


# -- Configurations --------------------------------------------------------------------


def feasibility(variant: Variant, init: Init) -> tuple[bool, str]:
    """Whether exhaustive search of ``init`` is within reach, and a sentence saying why.

    The number of deals is exact (:func:`~dominoproof.model.spec.count_deals`);
    the state space of one deal is not known before the search, so the verdict is
    only about the deals, and the search budgets remain the safety net."""
    if init.deal is not None:
        return True, "one deal: the search is bounded by the budgets"
    n = count_deals(variant, init.free_draw)
    order = "every draw order in the model" if init.free_draw else "each draw order a deal"
    text = f"{n:,} deals ({order})"
    if n > FEASIBLE_DEALS:
        return False, (f"{text}: too many to explore one by one (at most "
                       f"{FEASIBLE_DEALS:,}); use a smaller set or fewer tiles per hand "
                       "(--set-max 3 --hand-size 3, or -o set.max=.. -o deal.hand_size=..), "
                       "--free-draw, or one deal (--seed / --deal)")
    return True, text
