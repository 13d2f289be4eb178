"""Exhaustive search of a round's state space: every reachable state of a configuration.

The search walks the transition system of :mod:`dominoproof.model.system` (``Init``,
``Next``, built on one :class:`~dominoproof.model.rules.Rules`) breadth first, so
the BFS tree holds a *shortest* path to every state and the first violation a
checker finds in state order has a shortest counterexample.

* States are integers (:class:`Codec`): hands, boneyard, set-aside tiles, table,
  open ends, turn, the R4 count, the draw-one flag, fouls, status and the draw
  order, packed into one ``int``. The table is encoded too, although the correct
  rules imply it: a faulty rule book that loses a tile must not be hidden by the
  encoding.
* The visited set is exact: a ``dict`` from code to state id. Nothing is
  compacted or hashed away (unlike Spin's hash compaction and bitstate modes), so
  a verdict never rests on a state silently dropped. There is no lossy mode.
* Budgets: ``max_states`` (states discovered) and ``max_seconds`` stop the search
  early; the result is then *partial* (``complete = False``), and every verdict
  drawn from it is UNKNOWN unless it is a concrete counterexample.
* The graph is kept as plain arrays (CSR: ``edge_ptr``, ``edge_to``; an edge's move
  is not stored: the edges of a state follow the order of ``Rules.moves``, a pure
  function, so :meth:`SearchResult.successors` recomputes the labels on demand),
  and analysed without networkx (iterative DFS: acyclicity and a topological
  order; dynamic programming on the DAG: the longest round, the number of
  distinct complete rounds by how they end). :meth:`SearchResult.to_networkx`
  builds a ``networkx.DiGraph`` only on request, for small graphs: the teaching
  export (``dominoproof.render_graph``) and cross-checks of the array analyses.
* Every deal is an independent search: :func:`explore_parallel` splits the deals
  into parts (:meth:`~dominoproof.model.system.Init.shard`: by the set-aside
  tiles when there are any, so the parts reach disjoint states, else by the first
  hand), runs a job on each part in a process pool and merges the figures,
  counting states that two parts both reached once (an exact map-reduce over code
  buckets written to files). A part (:class:`Part`) is a pure, picklable
  description: the unit a cluster engine can take over.

Public API (used by the conformance and Z3 checks, the CLI and the benchmarks)::

    from dominoproof.model.system import Init
    from dominoproof.proofs.statespace import explore, seeded_deal

    result = explore(variant, Init.one(seeded_deal(variant, 0)),
                     rules=None, scorer=None, max_states=None, max_seconds=None)
    result.complete              # False when a budget stopped the search
    result.figures               # Figures: states, transitions, terminals, sequences, ...
    result.states()              # every visited State, decoded, in BFS order
    result.state(i), result.successors(i), result.depth[i], result.kind_of(i)
    result.trace_to(i)           # a replayable Trace from the deal to state i
    result.topological_order()   # None when the graph has a cycle (result.find_cycle())
    result.to_networkx()         # small graphs only

and :func:`dominoproof.proofs.graphcheck.check_properties` checks the property
catalogue on a result.
"""

from __future__ import annotations

import gc
import itertools
import os
import resource
import struct
import tempfile
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from dominoproof.model.engine import Trace
from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import CLOSED
from dominoproof.model.moves import Move
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.rules import Rules, is_own, rule_book, rules_for
from dominoproof.model.state import State, Status
from dominoproof.model.system import (
    Init,
    count_deals,
    deal_of,
    init_for,
    init_states,
    seeded_deal,
)
from dominoproof.model.variant import Variant

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "NX_LIMIT",
    "Codec",
    "Figures",
    "Scorer",
    "SearchResult",
    "explore",
    "explore_parallel",
    "feasibility",
    "init_for",
    "kind_label",
    "over_kind",
    "peak_rss_mb",
    "rule_book",
    "seeded_deal",
]


#: Graphs up to this many transitions are analysed with networkx (``backend="auto"``);
#: larger ones with the array code. Both give the same answers (tests/test_statespace.py).
NX_LIMIT = 20_000

#: Above this many initial states, :func:`feasibility` calls a configuration infeasible.
FEASIBLE_DEALS = 2_000_000

PLAYING, BLOCKED, DOMINO = Status.PLAYING, Status.BLOCKED, Status.DOMINO

# Kinds of expanded states (``SearchResult.kind``).
K_PLAYING, K_BLOCKED, K_STUCK, K_DOMINO = 0, 1, 2, 3  # domino by player p: K_DOMINO + p


def kind_label(k: int) -> str:
    """The name of a state kind: ``playing``, ``blocked``, ``stuck``, ``domino P<i>``."""
    if k >= K_DOMINO:
        return f"domino P{k - K_DOMINO}"
    return ("playing", "blocked", "stuck")[k]


def over_kind(s: State) -> int:
    """The kind of a state whose round is over: ``K_BLOCKED``, or ``K_DOMINO + p`` for a
    domino by player ``p``. (A state still being played is ``K_PLAYING``, or ``K_STUCK``
    when no move is enabled.)"""
    return K_BLOCKED if s.status is BLOCKED else K_DOMINO + s.turn


# ---------------------------------------------------------------------------
# Integer encoding of states
# ---------------------------------------------------------------------------


class Codec:
    """A state as one ``int``, and back (exact: ``decode(encode(s)) == s``).

    The code is the little-endian integer of a packed record: one 32-bit word per
    tile mask (the hands, seat by seat, then the boneyard, the set-aside tiles and
    the table), then status, drew, turn and the R4 count (a byte each), the fouls
    (16 bits), one byte per slot of the layout (the number it shows plus one; 0
    while it is closed), the markers (16 bits, in layouts that have them), and the
    draw order: a tag byte (0
    free; 2 a suffix of the search's one fixed draw order ``order``, only its length
    stored; 1 explicit) and a length byte, followed for tag 1 by one byte per tile,
    top first. Packing is done by ``struct`` (C), with its range checks: a value that
    does not fit raises ``OverflowError`` rather than colliding with another state;
    any value that fits is decoded exactly (a mask holding a tile outside the set
    too: faulty rules must not be hidden by the encoding). Sets of up to 32 tiles
    (double-6) fit; the search is for small sets.
    """

    def __init__(self, variant: Variant, order: tuple[int, ...] | None = None) -> None:
        self.t = t = variant.tiles.count
        self.p = p = variant.players
        if t > 32:
            raise DominoproofError(
                f"{variant.name}: exhaustive search encodes sets of up to 32 tiles "
                f"(double-6); double-{variant.n} has {t}")
        self.w = w = variant.slot_layout.width
        self.markers = m = variant.slot_layout.markers
        self._rec = struct.Struct("<" + "I" * (p + 3) + "BBBBH" + "B" * w + "H" * m + "BB")
        self._head = self._rec.size
        self._status = tuple(Status)
        #: the suffixes of the fixed draw order, by length (what tag 2 implies)
        self._suffix: tuple[tuple[int, ...], ...] = (
            tuple(order[len(order) - k:] for k in range(len(order) + 1)) if order else ())
        values = range(CLOSED, variant.n + 1)
        self._ends: dict[tuple[int, ...], tuple[int, ...]] = {
            e: tuple(x + 1 for x in e) for e in itertools.product(values, repeat=w)
        } if w <= 3 else {}
        self._ends_of = {code: ends for ends, code in self._ends.items()}

    def pack(self, s: State) -> bytes:
        """The packed record of ``s`` (``encode`` is its little-endian integer)."""
        hands, bone, aside, table, ends, turn, conf, drew, fouls, status, stack, marks = s
        e = self._ends.get(ends)
        if e is None:
            if len(ends) != self.w:
                raise OverflowError(f"open ends out of the encodable range: {ends!r}")
            e = tuple(x + 1 for x in ends)
        extra = b""
        if stack is None:
            tag = k = 0
        else:
            k = len(stack)
            suffix = self._suffix
            if k < len(suffix) and stack == suffix[k]:
                tag = 2
            else:
                tag, extra = 1, bytes(stack)
        try:
            if self.markers:
                rec = self._rec.pack(*hands, bone, aside, table, status, drew, turn, conf,
                                     fouls, *e, marks, tag, k)
            elif marks:
                raise ValueError("markers in a layout without markers")
            else:
                rec = self._rec.pack(*hands, bone, aside, table, status, drew, turn, conf,
                                     fouls, *e, tag, k)
        except (struct.error, ValueError):
            raise OverflowError(f"state out of the encodable range: {s!r}") from None
        return rec + extra if extra else rec

    def encode(self, s: State) -> int:
        return int.from_bytes(self.pack(s), "little")

    def unpack(self, raw: bytes) -> State:
        """The state of a packed record (``pack``'s inverse)."""
        head = self._head
        fields = self._rec.unpack_from(raw)
        p, w = self.p, self.w
        status, drew, turn, conf, fouls = fields[p + 3:p + 8]
        code = fields[p + 8:p + 8 + w]
        *marked, tag, k = fields[p + 8 + w:]
        marks = marked[0] if marked else 0
        ends = self._ends_of.get(code)
        if ends is None:
            ends = tuple(x - 1 for x in code)
        stack: tuple[int, ...] | None = None
        if tag == 1:
            stack = tuple(raw[head:head + k].ljust(k, b"\0"))
        elif tag == 2:
            stack = self._suffix[k]
        return tuple.__new__(State, (  # State._make without its checks
            fields[:p], fields[p], fields[p + 1], fields[p + 2], ends, turn, conf,
            bool(drew), fouls, self._status[status], stack, marks))

    def decode(self, c: int) -> State:
        # trailing zero bytes (a last stack tile 0) are gone from the integer: unpack pads
        return self.unpack(c.to_bytes(max(self._head, (c.bit_length() + 7) // 8), "little"))

    def width(self, longest_stack: int) -> int:
        """Bytes that hold any code of this variant with a draw order of that length."""
        return self._head + longest_stack


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------


@dataclass
class Figures:
    """What a run measured. ``None`` where a partial search cannot say."""

    configuration: str
    complete: bool
    stop_reason: str  #: why a partial search stopped ("" when complete)
    deals: int  #: initial states (deals the lead rule does not void)
    states: int  #: distinct states discovered
    expanded: int  #: states whose successors were generated
    transitions: int
    terminals: dict[str, int]  #: terminal states by kind: "blocked", "domino P0", ...
    sequences: dict[str, int] | None  #: distinct complete rounds (paths) by how they end
    shortest: dict[str, int]  #: shortest round (moves) by how it ends
    longest: dict[str, int] | None  #: longest round (moves) by how it ends
    depth: int  #: BFS levels: the largest shortest distance from a deal
    acyclic: bool | None
    seconds: float  #: time spent searching (summed over the parts of a parallel search)
    peak_rss_mb: float  #: peak resident memory of the process (of the largest worker)
    visited_mb: float  #: estimated size of the visited set and the graph arrays
    workers: int = 1
    parts: int = 1
    states_in_parts: int | None = None  #: sum of the parts' states (shared states repeated)
    wall_seconds: float | None = None  #: a parallel run from start to merge, checks included

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else 0.0

    @property
    def sequences_total(self) -> int | None:
        return None if self.sequences is None else sum(self.sequences.values())

    @property
    def round_lengths(self) -> tuple[int | None, int | None]:
        """(shortest, longest) complete round over every kind of end."""
        short = min(self.shortest.values()) if self.shortest else None
        long = max(self.longest.values()) if self.longest else None
        return short, long

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items()}
        out["states_per_second"] = round(self.states_per_second, 1)
        out["seconds"] = round(self.seconds, 3)
        if self.wall_seconds is not None:
            out["wall_seconds"] = round(self.wall_seconds, 3)
        out["peak_rss_mb"] = round(self.peak_rss_mb, 1)
        out["visited_mb"] = round(self.visited_mb, 1)
        return out


def peak_rss_mb() -> float:
    """Peak resident set size of this process, in MiB (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class SearchResult:
    """The explored graph of one configuration: states by id (BFS order), edges as CSR.

    State ``i`` has the code ``codes[i]``, the BFS parent ``parent[i]`` (-1 for an
    initial state) and the BFS depth ``depth[i]``. The first ``expanded`` states
    had their successors generated; the edges of state ``i < expanded`` are
    ``edge_to[edge_ptr[i]:edge_ptr[i + 1]]``, in the order ``rules.moves`` gives the
    moves that label them (recomputed on demand: a pure function of the state).
    """

    variant: Variant
    init: Init
    rules: Rules
    scorer: Scorer
    codec: Codec
    index: dict[int, int]
    codes: list[int]
    parent: array[int]
    depth: array[int]
    kind: array[int]  #: per expanded state, K_PLAYING / K_BLOCKED / K_STUCK / K_DOMINO + p
    edge_ptr: array[int]
    edge_to: array[int]
    roots: int  #: states 0 .. roots-1 are the initial states
    complete: bool
    stop_reason: str
    seconds: float
    _figures: Figures | None = field(default=None, repr=False)
    _topo: tuple[list[int] | None, list[int] | None] | None = field(default=None, repr=False)

    # -- states ----------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.codes)

    @property
    def expanded(self) -> int:
        return len(self.edge_ptr) - 1

    def state(self, i: int) -> State:
        return self.codec.decode(self.codes[i])

    def states(self) -> Iterator[State]:
        """Every discovered state, decoded, in BFS order (ids 0, 1, ...)."""
        decode = self.codec.decode
        return (decode(c) for c in self.codes)

    def id_of(self, s: State) -> int | None:
        """The id of ``s`` if the search reached it."""
        return self.index.get(self.codec.encode(s))

    def kind_of(self, i: int) -> str:
        """``playing``, ``blocked``, ``domino P<i>``, ``stuck``, or ``unexplored``."""
        return kind_label(self.kind[i]) if i < self.expanded else "unexplored"

    def successors(self, i: int) -> list[tuple[Move, int]]:
        """The labelled edges out of state ``i`` (empty if terminal or unexpanded)."""
        if i >= self.expanded:
            return []
        a, b = self.edge_ptr[i], self.edge_ptr[i + 1]
        moves = self.rules.moves(self.state(i))
        if len(moves) != b - a:  # pragma: no cover - Rules.moves is a pure function
            raise AssertionError(f"state {i}: {len(moves)} moves now, {b - a} when explored")
        return list(zip(moves, self.edge_to[a:b], strict=True))

    def edges(self) -> Iterator[tuple[int, Move, int]]:
        """Every explored transition ``(i, move, j)``, by source id."""
        for i in range(self.expanded):
            for m, j in self.successors(i):
                yield i, m, j

    def arcs(self) -> Iterator[tuple[int, int]]:
        """Every explored transition ``(i, j)``, by source id (no labels: fast)."""
        ptr, to = self.edge_ptr, self.edge_to
        for i in range(self.expanded):
            for e in range(ptr[i], ptr[i + 1]):
                yield i, to[e]

    # -- traces ----------------------------------------------------------------
    def path_to(self, i: int) -> list[int]:
        """A shortest path (BFS tree) from an initial state to ``i``: ids, root first."""
        path = [i]
        while self.parent[path[-1]] >= 0:
            path.append(self.parent[path[-1]])
        path.reverse()
        return path

    def move_between(self, i: int, j: int) -> Move:
        for m, k in self.successors(i):
            if k == j:
                return m
        raise ValueError(f"no edge {i} -> {j}")

    def trace_to(self, i: int, then: Sequence[int] = ()) -> Trace:
        """The round from its deal to state ``i`` (then along the ids ``then``), as a
        :class:`~dominoproof.model.engine.Trace`.

        With the variant's own rules the trace is replayed, with every legality check,
        by the engine. With a mutant rule book (the faults) the engine would reject the
        mutant's moves, so the trace carries the states the mutant made; replay it with
        :func:`dominoproof.proofs.graphcheck.replay` and that rule book.
        """
        path = self.path_to(i) + list(then)
        moves = tuple(self.move_between(a, b) for a, b in itertools.pairwise(path))
        root = self.state(path[0])
        deal = deal_of(root)
        free = self.init.free_draw
        if is_own(self.rules) and self.rules.variant == self.variant:
            return Trace(self.variant, deal, moves, free_draw=free)
        states = tuple(self.state(k) for k in path)
        return Trace(self.variant, deal, moves, free_draw=free, _states=states)

    # -- graph analyses ----------------------------------------------------------
    def _order(self) -> tuple[list[int] | None, list[int] | None]:
        """(topological order, None) or (None, a cycle), by iterative DFS over the CSR."""
        if self._topo is not None:
            return self._topo
        n, ptr, to = self.expanded, self.edge_ptr, self.edge_to
        colour = bytearray(self.size)  # 0 white, 1 on the stack, 2 done
        post: list[int] = []
        for root in range(self.size):
            if colour[root]:
                continue
            colour[root] = 1
            stack = [(root, ptr[root] if root < n else 0)]
            while stack:
                v, e = stack[-1]
                end = ptr[v + 1] if v < n else 0
                if e < end:
                    stack[-1] = (v, e + 1)
                    w = to[e]
                    c = colour[w]
                    if c == 0:
                        colour[w] = 1
                        stack.append((w, ptr[w] if w < n else 0))
                    elif c == 1:
                        ids = [u for u, _ in stack]
                        cycle = ids[ids.index(w):]
                        self._topo = (None, cycle)
                        return self._topo
                else:
                    colour[v] = 2
                    post.append(v)
                    stack.pop()
        post.reverse()
        self._topo = (post, None)
        return self._topo

    def _order_networkx(self) -> tuple[list[int] | None, list[int] | None]:
        import networkx as nx

        g = self.to_networkx(labels=False)
        try:
            return list(nx.topological_sort(g)), None
        except nx.NetworkXUnfeasible:
            cycle = [u for u, _v in nx.find_cycle(g)]
            return None, cycle

    def analyse(self, backend: str = "auto") -> None:
        """Compute the topological order (or a cycle), by networkx for graphs of at most
        :data:`NX_LIMIT` transitions (``backend="auto"``) or by the array DFS."""
        if self._topo is not None:
            return
        use_nx = backend == "networkx" or (backend == "auto" and len(self.edge_to) <= NX_LIMIT)
        self._topo = self._order_networkx() if use_nx else self._order()

    def topological_order(self) -> list[int] | None:
        """The states in an order where every edge goes forward; ``None`` if cyclic."""
        self.analyse()
        assert self._topo is not None
        return self._topo[0]

    def find_cycle(self) -> list[int] | None:
        """The ids of a cycle ``[a, b, ..., z]`` (``z -> a`` closes it), or ``None``."""
        self.analyse()
        assert self._topo is not None
        return self._topo[1]

    def longest_from_roots(self) -> list[int] | None:
        """Per state, the most moves on a path from an initial state (``None`` if cyclic)."""
        order = self.topological_order()
        if order is None:
            return None
        dist = [0] * self.size
        ptr, to, n = self.edge_ptr, self.edge_to, self.expanded
        for v in order:
            if v < n:
                d = dist[v] + 1
                for e in range(ptr[v], ptr[v + 1]):
                    w = to[e]
                    if dist[w] < d:
                        dist[w] = d
        return dist

    def paths_from_roots(self) -> list[int] | None:
        """Per state, the number of distinct paths from the initial states (``None`` if
        cyclic): at a terminal state, the number of distinct rounds that end there."""
        order = self.topological_order()
        if order is None:
            return None
        ways = [0] * self.size
        for r in range(self.roots):
            ways[r] = 1
        ptr, to, n = self.edge_ptr, self.edge_to, self.expanded
        for v in order:
            if v < n and ways[v]:
                k = ways[v]
                for e in range(ptr[v], ptr[v + 1]):
                    ways[to[e]] += k
        return ways

    @property
    def figures(self) -> Figures:
        if self._figures is None:
            self._figures = _figures(self)
        return self._figures

    def counts(self) -> Figures:
        """The figures without the graph analyses (path counts, longest rounds,
        acyclicity): cheap, for verdicts that need only the counts."""
        return self._figures if self._figures is not None else _figures(self, analyses=False)

    # -- networkx ----------------------------------------------------------------
    def to_networkx(self, limit: int | None = NX_LIMIT, labels: bool = True) -> nx.DiGraph[int]:
        """The explored graph as a ``networkx.DiGraph`` (nodes: state ids, with
        ``state``, ``kind``, ``depth``; edges: ``move``). Refuses graphs of more than
        ``limit`` transitions: the search never builds one for a large space."""
        import networkx as nx

        if limit is not None and len(self.edge_to) > limit:
            raise DominoproofError(
                f"the graph has {len(self.edge_to):,} transitions; a networkx graph is built "
                f"only for at most {limit:,}")
        g: nx.DiGraph[int] = nx.DiGraph()
        for i in range(self.size):
            if labels:
                g.add_node(i, state=self.state(i), kind=self.kind_of(i), depth=self.depth[i])
            else:
                g.add_node(i)
        if labels:
            for i, m, j in self.edges():
                g.add_edge(i, j, move=m)
        else:
            g.add_edges_from(self.arcs())
        return g


def explore(variant: Variant, init: Init, *, rules: Rules | None = None,
            scorer: Scorer | None = None, max_states: int | None = None,
            max_seconds: float | None = None) -> SearchResult:
    """Breadth-first search of every state reachable from ``init`` under ``rules``
    (default: the variant's own rule book; a mutant ``Rules`` for the faults).

    ``scorer`` (default :func:`~dominoproof.model.outcome.outcome`) is kept with the
    result for the terminal properties. ``max_states`` bounds the states discovered
    (the search stops expanding once it has that many; the last expansion may add a
    few more), ``max_seconds`` the time; either makes the result partial.

    The search creates no reference cycles (states are tuples of ints), so the cyclic
    garbage collector, which would walk every live state again and again, is paused
    while it runs.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _explore(variant, init, rules=rules, scorer=scorer, max_states=max_states,
                        max_seconds=max_seconds)
    finally:
        if collecting:
            gc.enable()


def _explore(variant: Variant, init: Init, *, rules: Rules | None,
             scorer: Scorer | None, max_states: int | None,
             max_seconds: float | None) -> SearchResult:
    if max_states is not None and max_states < 1:
        raise DominoproofError(f"--max-states must be at least 1, not {max_states}")
    rules = rules or rules_for(variant)
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
    lookup, add_code, add_parent = index.get, codes.append, parent.append
    add_depth, push, pop, add_edge = depth.append, queue.append, queue.popleft, edge_to.append
    n_codes = len(codes)
    i = 0
    while queue and not stop:
        if deadline is not None and not i & 1023 and time.perf_counter() > deadline:
            stop = f"time budget of {max_seconds:g} s reached"
            break
        s = pop()
        if s.status is not PLAYING:
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
            kind.append(K_PLAYING if ms else K_STUCK)
            edge_ptr.append(len(edge_to))
            i += 1

    return SearchResult(
        variant, init, rules, scorer or outcome, codec, index, codes, parent, depth, kind,
        edge_ptr, edge_to, roots, not queue and not stop, stop,
        time.perf_counter() - start)


def _figures(r: SearchResult, analyses: bool = True) -> Figures:
    """The figures of one search (graph analyses only when it is complete, and only
    with ``analyses``: without them, sequences, longest rounds and acyclicity are
    None)."""
    n = r.expanded
    terminals: dict[str, int] = {}
    shortest: dict[str, int] = {}
    depth = r.depth
    for i in range(n):
        k = r.kind[i]
        if k != K_PLAYING:
            label = kind_label(k)
            terminals[label] = terminals.get(label, 0) + 1
            if depth[i] < shortest.get(label, 1 << 30):
                shortest[label] = depth[i]
    sequences: dict[str, int] | None = None
    longest: dict[str, int] | None = None
    acyclic: bool | None = None
    if r.complete and analyses:
        acyclic = r.topological_order() is not None
        ways = r.paths_from_roots()
        dist = r.longest_from_roots()
        if ways is not None and dist is not None:
            sequences, longest = {}, {}
            for i in range(n):
                k = r.kind[i]
                if k != K_PLAYING:
                    label = kind_label(k)
                    sequences[label] = sequences.get(label, 0) + ways[i]
                    longest[label] = max(longest.get(label, 0), dist[i])
    # Estimated memory of the visited set: dict slots, int objects, arrays.
    code_bytes = sum(c.bit_length() for c in r.codes[:1000]) / max(1, min(1000, r.size)) / 8
    visited = (r.index.__sizeof__() + r.size * (28 + code_bytes + 8)
               + sum(a.itemsize * len(a) for a in (r.parent, r.depth, r.kind, r.edge_ptr,
                                                   r.edge_to)))
    return Figures(
        configuration=f"{r.variant.name}: {r.init.describe()}",
        complete=r.complete, stop_reason=r.stop_reason, deals=r.roots, states=r.size,
        expanded=n, transitions=len(r.edge_to), terminals=dict(sorted(terminals.items())),
        sequences=dict(sorted(sequences.items())) if sequences is not None else None,
        shortest=dict(sorted(shortest.items())),
        longest=dict(sorted(longest.items())) if longest is not None else None,
        depth=max(depth) if len(depth) else 0, acyclic=acyclic, seconds=r.seconds,
        peak_rss_mb=peak_rss_mb(), visited_mb=visited / 2**20)


# ---------------------------------------------------------------------------
# Configurations
# ---------------------------------------------------------------------------


def feasibility(variant: Variant, init: Init) -> tuple[bool, str]:
    """Whether exhaustive search of ``init`` is within reach, and a sentence saying why.

    The number of deals is exact (:func:`~dominoproof.model.system.count_deals`);
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


# ---------------------------------------------------------------------------
# The parallel search by deal, with an exact merge of the parts' visited sets
# ---------------------------------------------------------------------------

T = TypeVar("T")
R = TypeVar("R")


def map_parts(job: Callable[[T], R], parts: Iterable[T], workers: int) -> list[R]:
    """Run ``job`` on every part, in a process pool of ``workers`` (in this process when
    ``workers == 1``). Jobs and results must pickle: module-level functions, data."""
    items = list(parts)
    if workers <= 1 or len(items) <= 1:
        return [job(x) for x in items]
    with ProcessPoolExecutor(max_workers=min(workers, len(items))) as pool:
        return list(pool.map(job, items))


@dataclass(frozen=True)
class PartSummary:
    """What a part sends back for the exact merge: its figures, and its visited codes
    written into ``buckets`` files (one per reducer, by code modulo the bucket count),
    each record the code, the state's out-degree and its kind."""

    figures: Figures
    bucket_files: tuple[str, ...]
    width: int


_REC = struct.Struct("<IB")  # out-degree, kind (+128: unexpanded)


def write_buckets(r: SearchResult, directory: str, name: str, buckets: int) -> PartSummary:
    """Write ``r``'s visited codes into ``buckets`` files under ``directory``."""
    width = r.codec.width(r.variant.boneyard_size)
    outs: list[list[bytes]] = [[] for _ in range(buckets)]
    ptr = r.edge_ptr
    n = r.expanded
    for i, c in enumerate(r.codes):
        rec = (_REC.pack(ptr[i + 1] - ptr[i], r.kind[i]) if i < n else _REC.pack(0, 128))
        outs[c % buckets].append(c.to_bytes(width, "little") + rec)
    files = []
    for b, recs in enumerate(outs):
        path = Path(directory) / f"{name}-b{b}.bin"
        path.write_bytes(b"".join(recs))
        files.append(str(path))
    return PartSummary(r.figures, tuple(files), width)


def reduce_bucket(args: tuple[tuple[str, ...], int]) -> tuple[int, int, int, dict[str, int]]:
    """Merge one bucket of every part: (distinct states, of them expanded, transitions,
    terminal states by kind). A state two parts both reached counts once."""
    files, width = args
    seen: dict[bytes, tuple[int, int]] = {}
    step = width + _REC.size
    for f in files:
        data = Path(f).read_bytes()
        for o in range(0, len(data), step):
            code = data[o:o + width]
            deg, k = _REC.unpack_from(data, o + width)
            old = seen.get(code)
            if old is None or old[1] == 128:
                seen[code] = (deg, k)
    expanded = transitions = 0
    terminals: dict[str, int] = {}
    for deg, k in seen.values():
        if k == 128:
            continue
        expanded += 1
        transitions += deg
        if k != K_PLAYING:
            label = kind_label(k)
            terminals[label] = terminals.get(label, 0) + 1
    return len(seen), expanded, transitions, terminals


def merge_figures(parts: Sequence[Figures], merged: Sequence[tuple[int, int, int,
                                                                   dict[str, int]]],
                  configuration: str, workers: int, seconds: float) -> Figures:
    """The figures of the whole configuration from its parts and the bucket merge.

    Sums of paths and extremes of round lengths combine exactly (every round starts
    at one deal, in one part); distinct states, transitions and terminal states come
    from the merge."""
    complete = all(f.complete for f in parts)
    terminals: dict[str, int] = {}
    for _, _, _, t in merged:
        for k, v in t.items():
            terminals[k] = terminals.get(k, 0) + v
    sequences: dict[str, int] | None = {} if complete else None
    longest: dict[str, int] | None = {} if complete else None
    shortest: dict[str, int] = {}
    for f in parts:
        for k, v in f.shortest.items():
            shortest[k] = min(shortest.get(k, v), v)
        if sequences is not None:
            if f.sequences is None:
                sequences = None
            else:
                for k, v in f.sequences.items():
                    sequences[k] = sequences.get(k, 0) + v
        if longest is not None:
            if f.longest is None:
                longest = None
            else:
                for k, v in f.longest.items():
                    longest[k] = max(longest.get(k, v), v)
    acyclic = (None if not complete else all(f.acyclic for f in parts))
    stops = sorted({f.stop_reason for f in parts if f.stop_reason})
    return Figures(
        configuration=configuration, complete=complete, stop_reason="; ".join(stops),
        deals=sum(f.deals for f in parts), states=sum(m[0] for m in merged),
        expanded=sum(m[1] for m in merged), transitions=sum(m[2] for m in merged),
        terminals=dict(sorted(terminals.items())),
        sequences=dict(sorted(sequences.items())) if sequences is not None else None,
        shortest=dict(sorted(shortest.items())),
        longest=dict(sorted(longest.items())) if longest is not None else None,
        depth=max((f.depth for f in parts), default=0), acyclic=acyclic,
        seconds=sum(f.seconds for f in parts), wall_seconds=seconds,
        peak_rss_mb=max([peak_rss_mb(), *(f.peak_rss_mb for f in parts)]),
        visited_mb=sum(f.visited_mb for f in parts), workers=workers, parts=len(parts),
        states_in_parts=sum(f.states for f in parts))


@dataclass(frozen=True)
class Part:
    """One part of a search by deal: everything a worker (or a cluster node) needs."""

    variant: Variant
    init: Init
    engine: type[Rules] | None = None
    scorer: Scorer | None = None
    max_states: int | None = None
    max_seconds: float | None = None
    directory: str = ""
    buckets: int = 1

    def explore(self) -> SearchResult:
        return explore(self.variant, self.init, rules=rule_book(self.variant, self.engine),
                       scorer=self.scorer, max_states=self.max_states,
                       max_seconds=self.max_seconds)


def _explore_part(part: Part) -> PartSummary:
    r = part.explore()
    return write_buckets(r, part.directory, f"part{part.init.part[0]}", part.buckets)


def explore_parallel(variant: Variant, init: Init, *, engine: type[Rules] | None = None,
                     scorer: Scorer | None = None, max_states: int | None = None,
                     max_seconds: float | None = None, workers: int | None = None,
                     parts: int | None = None,
                     job: Callable[[Part], tuple[PartSummary, R]] | None = None,
                     ) -> tuple[Figures, list[R]]:
    """Every deal of ``init``, split into ``parts`` (default: one per worker) explored in
    a process pool of ``workers`` (default: the machine's cores).

    ``job(part)`` runs in a worker: it explores the part and returns its
    :class:`PartSummary` (see :func:`write_buckets`) and anything else (the
    property verdicts, :mod:`dominoproof.proofs.graphcheck`); the default job only
    explores. ``max_states`` is shared out among the parts. Returns the merged
    figures (exact distinct counts) and the jobs' other results, in part order.
    """
    if init.deal is not None:
        raise ValueError("explore_parallel splits every deal; use explore for one deal")
    workers = workers or os.cpu_count() or 1
    n = parts or workers
    per_part = -(-max_states // n) if max_states is not None else None
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dominoproof-") as tmp:
        work = [Part(variant, init.shard(i, n), engine, scorer, per_part, max_seconds, tmp, n)
                for i in range(n)]
        if job is None:
            summaries = map_parts(_explore_part, work, workers)
            extra: list[Any] = [None] * n
        else:
            done = map_parts(job, work, workers)
            summaries = [d[0] for d in done]
            extra = [d[1] for d in done]
        width = max(s.width for s in summaries)
        if any(s.width != width for s in summaries):  # pragma: no cover - same variant
            raise AssertionError("parts disagree on the code width")
        merged = map_parts(reduce_bucket,
                           [(tuple(s.bucket_files[b] for s in summaries), width)
                            for b in range(n)], workers)
    figures = merge_figures([s.figures for s in summaries], merged,
                            f"{variant.name}: {init.describe()}", workers,
                            time.perf_counter() - start)
    return figures, extra
