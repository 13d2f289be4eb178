"""The result of a search, whichever backend made it: the graph as arrays, its analyses.

Both backends of :func:`~dominoproof.proofs.search.statespace.explore` -- the Python
search and the compiled kernel's (:mod:`.compiled`) -- return a :class:`SearchResult`:
states by id in BFS order, each with its code, BFS parent, depth and kind, and the edges
as CSR arrays (``edge_ptr``, ``edge_to``). An edge's move is not stored: the edges of a
state follow the order of ``Rules.moves``, a pure function, so
:meth:`SearchResult.successors` recomputes the labels on demand.

The graph is analysed on those arrays only (iterative DFS: acyclicity, a topological
order or the first cycle met; dynamic programming on the DAG: the longest round, the
number of distinct complete rounds by how they end), whatever the graph's size: the
cycle a report shows never depends on how big the graph is.
:meth:`SearchResult.to_networkx` builds a ``networkx.DiGraph`` only on request, for small
graphs: the teaching export (``dominoproof.render.graph``) and the tests' cross-checks
of the array analyses.

Each expanded state's kind (:attr:`SearchResult.kind`) is a small int derived from
:class:`~dominoproof.model.state.Ending` (:func:`kind_code`); :class:`Figures` is what a
run measured.
"""

from __future__ import annotations

import itertools
import resource
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from dominoproof.model.engine import Trace, deal_of
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import is_own
from dominoproof.model.moves import Move
from dominoproof.model.outcome import Scorer
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.state import Ending, State
from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import NX_LIMIT
from dominoproof.proofs.readings import ReadingsDisagree
from dominoproof.proofs.search.codec import Codec

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["ENDINGS", "KINDS", "Figures", "SearchResult", "figures_of", "kind_code",
           "kind_ending", "kind_label", "over_kind", "peak_rss_mb", "relax_longest"]

# -- Kinds of states: small ints derived from Ending -----------------------------------

#: The endings in the order their kinds number them (1, 2, ...; 0 is "being played").
ENDINGS: tuple[Ending, ...] = tuple(Ending)
#: How many kinds a player's domino steps over: "being played" and one per ending.
KINDS = len(ENDINGS) + 1


def kind_code(ending: Ending | None, player: int = 0) -> int:
    """A state's kind as the search stores it (``SearchResult.kind``): 0 while the round
    is played, else 1 + the ending's position in :class:`Ending`, plus ``KINDS * player``
    for a domino by ``player``."""
    if ending is None:
        return 0
    code = ENDINGS.index(ending) + 1
    return code + KINDS * player if ending is Ending.DOMINO else code


def kind_ending(k: int) -> Ending | None:
    """The :class:`Ending` of a kind (``None``: the round is being played)."""
    return ENDINGS[k % KINDS - 1] if k else None


def kind_label(k: int) -> str:
    """The name of a kind: ``playing``, or the ending's label (``blocked``, ``stuck``,
    ``domino P<i>``)."""
    ending = kind_ending(k)
    return "playing" if ending is None else ending.label(k // KINDS)


def over_kind(s: State) -> int:
    """The kind of a state whose round is over: blocked, or a domino by the player to move.
    (A state still being played is of kind 0, or stuck when no move is enabled: the rules
    say which, not the state.)"""
    return kind_code(s.status.ending, s.turn)


# -- Figures ---------------------------------------------------------------------------


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
    seconds: float  #: time spent searching (summed over the parts of a search by deal)
    peak_rss_mb: float  #: peak resident memory of the process (of the largest worker)
    visited_mb: float  #: estimated size of the visited set and the graph arrays
    workers: int = 1
    parts: int = 1
    states_in_parts: int | None = None  #: sum of the parts' states (shared states repeated)
    wall_seconds: float | None = None  #: a search by deal from start to merge, checks included
    search: str = "python"  #: which search ran: "kernel" (compiled) or "python"

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
        out = {**self.__dict__, "states_per_second": round(self.states_per_second, 1),
               "seconds": round(self.seconds, 3), "peak_rss_mb": round(self.peak_rss_mb, 1),
               "visited_mb": round(self.visited_mb, 1)}
        if self.wall_seconds is not None:
            out["wall_seconds"] = round(self.wall_seconds, 3)
        return out


def peak_rss_mb() -> float:
    """Peak resident set size of this process, in MiB (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- The search ------------------------------------------------------------------------


def relax_longest(order: Any, ptr: Any, to: Any, n: int, dist: Any) -> None:
    """``dist`` (zeros on entry): per state, the most moves on a path from a state with
    no predecessor, relaxing the edges of each state in topological ``order`` (states
    ``>= n`` were not expanded). Plain Python over lists or arrays; the kernel compiles
    this same function for its searches (``kernel/graph.py``)."""
    for v in order:
        if v < n:
            d = dist[v] + 1
            for e in range(ptr[v], ptr[v + 1]):
                w = to[e]
                if dist[w] < d:
                    dist[w] = d


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
    rules: RuleBook
    scorer: Scorer
    codec: Codec
    index: Mapping[int, int]  #: code -> id (a dict; the kernel's search: its hash table)
    codes: Sequence[int]  #: code by id (a list; the kernel's search: its key array)
    parent: array[int]
    depth: array[int]
    kind: array[int]  #: per expanded state, its kind (:func:`kind_code`)
    edge_ptr: array[int]
    edge_to: array[int]
    roots: int  #: states 0 .. roots-1 are the initial states
    complete: bool
    stop_reason: str
    seconds: float
    _figures: Figures | None = field(default=None, repr=False)
    _topo: tuple[list[int] | None, list[int] | None] | None = field(default=None, repr=False)

    # -- states ----------------------------------------------------------------
    #: the compiled kernel's search made this graph (:mod:`.compiled`)
    on_kernel = False

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
        return (self.state(i) for i in range(self.size))

    def id_of(self, s: State) -> int | None:
        """The id of ``s`` if the search reached it."""
        return self.index.get(self.codec.encode(s))

    def kind_of(self, i: int) -> str:
        """``playing``, ``blocked``, ``domino P<i>``, ``stuck``, or ``unexplored``."""
        return kind_label(self.kind[i]) if i < self.expanded else "unexplored"

    def ending_of(self, i: int) -> Ending | None:
        """How the round ends at state ``i`` (``stuck`` included), ``None`` while it is
        played or when ``i`` was not expanded."""
        return kind_ending(self.kind[i]) if i < self.expanded else None

    def over(self) -> list[int]:
        """The ids of the expanded states where the round is over (``stuck`` included),
        in order: one pass over :attr:`kind`, not a call per state."""
        kinds = np.asarray(self.kind[:self.expanded])
        ids: list[int] = np.flatnonzero(kinds != kind_code(None)).tolist()
        return ids

    def successors(self, i: int) -> list[tuple[Move, int]]:
        """The labelled edges out of state ``i`` (empty if terminal or unexpanded)."""
        if i >= self.expanded:
            return []
        a, b = self.edge_ptr[i], self.edge_ptr[i + 1]
        moves = self.rules.moves(self.state(i))
        if len(moves) != b - a:
            raise self.edges_differ(i, len(moves))
        return list(zip(moves, self.edge_to[a:b], strict=True))

    def edges_differ(self, i: int, moves: int) -> ReadingsDisagree:
        """State ``i`` has ``moves`` moves by the rule book and another number of edges:
        the reading that made the graph (on a kernel search, the kernel) and the rule
        book disagree there (on the Python path, one rule book made both)."""
        edges = self.edge_ptr[i + 1] - self.edge_ptr[i]
        return ReadingsDisagree("kernel" if self.on_kernel else "search", "engine",
                                f"{edges} move(s) in the graph, {moves} by the engine",
                                state=self.state(i), at=i)

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
        :func:`dominoproof.proofs.search.rounds.replay` and that rule book.
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

    def visited_bytes(self) -> int:
        """Estimated bytes of the visited set: the dict's slots and the codes (int objects,
        each in a list slot)."""
        sample = self.codes[:1000]
        code_bytes = sum(c.bit_length() for c in sample) / max(1, len(sample)) / 8
        return int(self.index.__sizeof__() + self.size * (28 + code_bytes + 8))

    # -- graph analyses ----------------------------------------------------------
    def _order(self) -> tuple[list[int] | None, list[int] | None]:
        """(topological order, None) or (None, a cycle), by iterative DFS over the CSR:
        the one analysis of every graph, small or large (a kernel search runs the same
        loops compiled, ``compiled.compiled_order``)."""
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

    def topological_order(self) -> list[int] | None:
        """The states in an order where every edge goes forward; ``None`` if cyclic."""
        return self._order()[0]

    def find_cycle(self) -> list[int] | None:
        """The ids of a cycle ``[a, b, ..., z]`` (``z -> a`` closes it), or ``None``: the
        first cycle the DFS meets, from the states in id order and the edges of each in
        move order (so the same graph always gives the same cycle)."""
        return self._order()[1]

    def longest_from_roots(self) -> list[int] | None:
        """Per state, the most moves on a path from an initial state (``None`` if cyclic)."""
        order = self.topological_order()
        if order is None:
            return None
        dist = [0] * self.size
        relax_longest(order, self.edge_ptr, self.edge_to, self.expanded, dist)
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
            self._figures = figures_of(self)
        return self._figures

    def counts(self) -> Figures:
        """The figures without the graph analyses (path counts, longest rounds,
        acyclicity): cheap, for verdicts that need only the counts."""
        return self._figures if self._figures is not None else figures_of(self, analyses=False)

    # -- networkx ----------------------------------------------------------------
    def to_networkx(self, limit: int | None = NX_LIMIT, labels: bool = True) -> nx.DiGraph[int]:
        """The explored graph as a ``networkx.DiGraph`` (nodes: state ids, with
        ``state``, ``kind``, ``depth``; edges: ``move``). Refuses graphs of more than
        ``limit`` transitions: the search never builds one for a large space."""
        if limit is not None and len(self.edge_to) > limit:
            raise DominoproofError(
                f"the graph has {len(self.edge_to):,} transitions; a networkx graph is built "
                f"only for at most {limit:,}")
        # networkx is loaded here, not with the search: about 290 modules and 15 MB that
        # only the drawing of a small graph needs (the peak memory bench spin compares)
        import networkx as nx

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


def figures_of(r: SearchResult, analyses: bool = True) -> Figures:
    """The figures of one search (graph analyses only when it is complete, and only
    with ``analyses``: without them, sequences, longest rounds and acyclicity are
    None)."""
    n = r.expanded
    terminals: dict[str, int] = {}
    shortest: dict[str, int] = {}
    depth = r.depth
    ended = r.over()
    for i in ended:
        label = kind_label(r.kind[i])
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
            for i in ended:
                label = kind_label(r.kind[i])
                sequences[label] = sequences.get(label, 0) + ways[i]
                longest[label] = max(longest.get(label, 0), dist[i])
    # Estimated memory of the visited set and the graph's arrays.
    visited = r.visited_bytes() + sum(a.itemsize * len(a) for a in (
        r.parent, r.depth, r.kind, r.edge_ptr, r.edge_to))
    return Figures(
        configuration=f"{r.variant.name}: {r.init.describe()}",
        complete=r.complete, stop_reason=r.stop_reason, deals=r.roots, states=r.size,
        expanded=n, transitions=len(r.edge_to), terminals=dict(sorted(terminals.items())),
        sequences=dict(sorted(sequences.items())) if sequences is not None else None,
        shortest=dict(sorted(shortest.items())),
        longest=dict(sorted(longest.items())) if longest is not None else None,
        depth=max(depth) if len(depth) else 0, acyclic=acyclic, seconds=r.seconds,
        peak_rss_mb=peak_rss_mb(), visited_mb=visited / 2**20,
        search="kernel" if r.on_kernel else "python")

