"""The exhaustive search on the compiled kernel: the same graph as ``statespace``'s, faster.

:func:`explore_kernel` runs :func:`dominoproof.proofs.kernel.search.bfs` and returns the same
:class:`~dominoproof.proofs.search.statespace.SearchResult` the Python search returns -- the same
ids (BFS order), parents, depths, kinds and CSR edges, so every property of the catalogue
is judged by :mod:`~dominoproof.proofs.search.judge` exactly as before and every
counterexample is the same shortest trace, replayable in the engine. Only the keys
differ: the kernel's packed keys (:mod:`dominoproof.proofs.kernel.codec`), read through
:class:`KernelCodec`, :class:`KernelCodes` and :class:`KernelIndex`.

:func:`kernel_reason` says when the kernel does not run a search (numba absent or turned
off, a rule book that is not the variant's own -- a fault's mutant -- or a set too large
for its keys); :func:`~dominoproof.proofs.search.statespace.explore` then runs the Python search.

:func:`explore_lean` is the search that keeps no graph (keys, visited set and BFS
parents only) and judges blocked-sound as it goes: the every-draw-order benchmark's.
:func:`explore_sweep` is the same search keeping two levels at a time (the sweep-line
method): exact, for a state space larger than memory, at the price of the traces.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for, is_own
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.spec import Init, Rules, init_states
from dominoproof.model.state import Ending, State
from dominoproof.model.variant import Variant
from dominoproof.proofs.kernel import graph as kgraph
from dominoproof.proofs.kernel import reason as kernel_status
from dominoproof.proofs.kernel import search as ks
from dominoproof.proofs.kernel.codec import (
    KeySpec,
    int_key,
    key_hash,
    key_int,
    key_spec,
    pack,
    unpack,
)
from dominoproof.proofs.kernel.tables import Array, Tables, frame_of, state_of, tables_for
from dominoproof.proofs.search.codec import Codec
from dominoproof.proofs.search.statespace import SearchResult, kind_code

AnyArray = npt.NDArray[Any]

__all__ = ["BlockCheck", "KernelCodec", "LeanResult", "SweepResult", "check_blocks",
           "compiled_longest", "compiled_order", "explore_kernel", "explore_lean",
           "explore_sweep", "kernel_reason"]

#: expansions per call into the kernel between two looks at the clock (the Python
#: search looks every 1024 expansions, from the first on); without a time budget, more
CHUNK, CHUNK_UNTIMED = 1 << 10, 1 << 16


def kernel_reason(variant: Variant, rules: Rules | None = None) -> str:
    """Why the kernel does not search ``variant`` under ``rules`` (``""``: it does)."""
    why = kernel_status(variant)
    if why:
        return why
    if rules is not None and not (is_own(rules) and rules.variant == variant):
        return f"kernel: the rule book {type(rules).__name__} is not the variant's own"
    if variant.tiles.count > 63:
        return (f"kernel: its search keys hold sets of up to 63 tiles, double-{variant.n} "
                f"has {variant.tiles.count}")
    return ""


class KernelCodec(Codec):
    """The kernel's keys as the search's codes: one non-negative ``int`` per state (the
    key's words, word 0 lowest), exact both ways (``decode(encode(s)) == s``)."""

    def __init__(self, tb: Tables, spec: KeySpec) -> None:  # no Codec.__init__: no struct
        self.tb, self.spec = tb, spec
        self.kw = spec.words
        self.t, self.p, self.w = tb.tiles, tb.players, tb.width
        self._key = np.zeros(self.kw, dtype=np.int64)
        self._frame = np.zeros(tb.frame, dtype=np.int64)  # decode_row's scratch

    def encode(self, s: State) -> int:
        f = frame_of(self.tb, s)
        if not pack(self.spec.kc, self.tb.k, f, self._key):
            raise OverflowError(f"state out of the kernel's encodable range: {s!r}")
        code = key_int(self._key)
        if self.decode(code) != s:
            raise OverflowError(f"state out of the kernel's encodable range: {s!r}")
        return code

    def decode(self, c: int) -> State:
        return self.decode_row(int_key(c, self.kw))

    def decode_row(self, key: Array) -> State:
        """The state of a key as the search stores it (a row of its key array)."""
        unpack(self.spec.kc, self.tb.k, key, self._frame)
        return state_of(self.tb, self._frame)

    def pack(self, s: State) -> bytes:
        return self.encode(s).to_bytes(8 * self.kw, "little")

    def unpack(self, raw: bytes) -> State:
        return self.decode(int.from_bytes(raw, "little"))

    def width(self, longest_stack: int) -> int:
        return 8 * self.kw


class KernelCodes(Sequence[int]):
    """The codes of a kernel search, in id order, read from its key array."""

    def __init__(self, keys: Array) -> None:
        self.keys = keys

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [key_int(k) for k in self.keys[i]]
        return key_int(self.keys[i])

    def __iter__(self) -> Iterator[int]:
        return (key_int(k) for k in self.keys)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KernelCodes):
            return bool(np.array_equal(self.keys, other.keys))
        if isinstance(other, Sequence):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other,
                                                                          strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class KernelIndex(Mapping[int, int]):
    """Code -> id, by the search's own hash table."""

    def __init__(self, kc: Array, keys: Array, table: Array) -> None:
        self.kc, self._keys, self.table = kc, keys, table
        self.kw = int(keys.shape[1])

    def __getitem__(self, code: int) -> int:
        key = int_key(code, self.kw)
        _, j = ks._find(self.table, self._keys, key, self.kw, key_hash(key, self.kw))
        if j < 0:
            raise KeyError(code)
        return int(j)

    def __len__(self) -> int:
        return int(self._keys.shape[0])

    def __iter__(self) -> Iterator[int]:
        return iter(KernelCodes(self._keys))

    def __sizeof__(self) -> int:
        return int(self.table.nbytes)


class KernelSearchResult(SearchResult):
    """A :class:`SearchResult` whose states are the kernel's keys: decoded by id, in
    bulk where many are read."""

    keys: Array
    table: Array
    on_kernel = True

    def state(self, i: int) -> State:
        codec = self.codec
        assert isinstance(codec, KernelCodec)
        return codec.decode_row(self.keys[i])

    def states(self) -> Iterator[State]:
        codec = self.codec
        assert isinstance(codec, KernelCodec)
        for i in range(self.size):
            yield codec.decode_row(self.keys[i])

    def visited_bytes(self) -> int:
        """The visited set: every key, and the hash table of ids."""
        return int(self.keys.nbytes + self.table.nbytes)

    # -- the graph analyses, compiled (:mod:`.kernel.graph`): the same as the base's --
    _order_np: tuple[AnyArray | None, list[int] | None] | None = None

    def _compiled_order(self) -> tuple[AnyArray | None, list[int] | None]:
        if self._order_np is None:
            self._order_np = compiled_order(self)
        return self._order_np

    def _order(self) -> tuple[list[int] | None, list[int] | None]:
        if self._topo is None:
            order, cycle = self._compiled_order()
            self._topo = (None if order is None else order.tolist(), cycle)
        return self._topo

    def find_cycle(self) -> list[int] | None:
        return self._compiled_order()[1]

    def longest_from_roots(self) -> list[int] | None:
        order = self._compiled_order()[0]
        return None if order is None else compiled_longest(self, order)


def compiled_order(r: SearchResult) -> tuple[AnyArray | None, list[int] | None]:
    """:meth:`SearchResult._order <dominoproof.proofs.search.statespace.SearchResult._order>`
    compiled: (topological order, None) or (None, the same first cycle), the order as
    an array (a list of tens of millions of ids would take a gigabyte)."""
    size = r.size
    ptr, to = _csr(r)
    post = np.empty(size, dtype=np.int32)
    stack_v = np.empty(size, dtype=np.int32)  # only the pages the DFS uses are touched
    stack_e = np.empty(size, dtype=np.int64)
    count, lo, hi = kgraph.dfs_order(ptr, to, r.expanded, size,
                                     np.zeros(size, dtype=np.uint8), post, stack_v, stack_e)
    if lo >= 0:
        cycle: list[int] = stack_v[lo:hi].tolist()
        return None, cycle
    return np.ascontiguousarray(post[:count][::-1]), None


def compiled_longest(r: SearchResult, order: AnyArray) -> list[int]:
    """:meth:`SearchResult.longest_from_roots
    <dominoproof.proofs.search.statespace.SearchResult.longest_from_roots>` compiled, along
    ``order`` (:func:`compiled_order`'s)."""
    ptr, to = _csr(r)
    dist = np.zeros(r.size, dtype=np.int64)
    kgraph.longest_from_roots(order, ptr, to, r.expanded, dist)
    out: list[int] = dist.tolist()
    return out


def _csr(r: SearchResult) -> tuple[AnyArray, AnyArray]:
    """A search's CSR arrays (``array`` objects) as NumPy views, without a copy."""
    return (np.frombuffer(r.edge_ptr, dtype=np.int64),
            np.frombuffer(r.edge_to, dtype=np.int32))


@dataclass
class _Arrays:
    """The growing arrays of one search (int64 keys and CSR offsets, int32 ids, int8
    kinds)."""

    codes: AnyArray
    table: AnyArray
    parent: AnyArray
    depth: AnyArray
    kind: AnyArray
    edge_ptr: AnyArray
    edge_to: AnyArray

    @staticmethod
    def new(kw: int, states: int, edges: int, graph: bool, reserve: int = 0) -> _Arrays:
        """Arrays for ``states`` states (the hash table for twice as many), and with
        ``reserve``, keys and parents for that many states at once: address space only
        (``np.zeros`` takes pages from the system as they are first written), so they
        never grow by a copy that holds the old arrays and the new ones at once."""
        small = np.zeros(1, dtype=np.int32)
        room = max(states, reserve)
        return _Arrays(
            np.zeros((room, kw), dtype=np.int64), _new_table(states),
            np.zeros(room, dtype=np.int32),
            np.zeros(states, dtype=np.int32) if graph else small,
            np.zeros(states, dtype=np.int8) if graph else np.zeros(1, dtype=np.int8),
            np.zeros(states + 1, dtype=np.int64) if graph else np.zeros(1, dtype=np.int64),
            np.zeros(edges, dtype=np.int32) if graph else small)

    def grow_states(self, graph: bool) -> None:
        n = self.codes.shape[0] * 2
        self.codes = _grown(self.codes, n)
        self.parent = _grown(self.parent, n)
        if graph:
            self.depth = _grown(self.depth, n)
            self.kind = _grown(self.kind, n)
            self.edge_ptr = _grown(self.edge_ptr, n + 1)

    def grow_edges(self) -> None:
        self.edge_to = _grown(self.edge_to, self.edge_to.shape[0] * 2)

    def grow_table(self, kc: Array, n: int) -> None:
        self.table = _doubled_table(kc, self.codes, n, self.table)


def _new_table(states: int) -> Array:
    """An empty visited set with room for ``states`` states (load at most 1/2)."""
    return np.full(1 << max(10, (2 * states - 1).bit_length()), -1, dtype=np.int32)


def _doubled_table(kc: Array, codes: Array, n: int, table: Array) -> Array:
    """The visited set of ids 0..n-1 of ``codes`` in a table twice the size of ``table``."""
    out = np.full(2 * table.shape[0], -1, dtype=np.int32)
    ks.rehash(kc, codes, n, out)
    return out


def _grown(a: AnyArray, n: int) -> AnyArray:
    out = np.zeros((n, *a.shape[1:]), dtype=a.dtype)
    out[:a.shape[0]] = a
    return out


@dataclass
class _Run:
    """One search's state between calls into the kernel."""

    tb: Tables
    spec: KeySpec
    arrays: _Arrays
    ctr: Array
    roots: int
    stop: str
    status: int = ks.DONE


def _kinds() -> Array:
    return np.array([kind_code(Ending.BLOCKED), kind_code(Ending.DOMINO, 0),
                     kind_code(Ending.STUCK), kind_code(Ending.DOMINO, 1)
                     - kind_code(Ending.DOMINO, 0)], dtype=np.int64)


def _run(variant: Variant, init: Init, max_states: int | None, max_seconds: float | None,
         graph: bool, rules: Rules, tables: Tables | None = None, reserve: int = 0) -> _Run:
    if max_states is not None and max_states < 1:
        raise DominoproofError(f"--max-states must be at least 1, not {max_states}")
    if reserve < 0:
        raise DominoproofError(f"a search's reserve must be at least 0, not {reserve}")
    tb = tables if tables is not None else tables_for(variant)
    spec = _spec(tb, init)
    kc = spec.kc
    cap = max_states if max_states is not None else (1 << 31) - 1
    root_keys = _root_keys(variant, init, init_states(variant, init, rules), tb, spec)
    first = max(1024, 4 * len(root_keys))
    # a reserve holds the budget and one more state's successors: the search stops at
    # the budget (BUDGET) before it asks for room beyond it (GROW_STATES)
    arrays = _Arrays.new(spec.words, first, 2 * first, graph,
                         reserve + tb.max_moves if reserve else 0)
    while (4 * len(root_keys) > 3 * arrays.table.shape[0]
           or len(root_keys) > arrays.codes.shape[0]):
        arrays.grow_states(graph)
        arrays.grow_table(kc, 0)
    ctr = np.zeros(8, dtype=np.int64)
    used = ks.add_roots(kc, arrays.codes, arrays.table, arrays.parent, arrays.depth, ctr,
                        root_keys, cap, graph)
    stop = ""
    if used < len(root_keys):
        stop = f"state budget of {max_states:,} states reached while listing the deals"
    run = _Run(tb, spec, arrays, ctr, int(ctr[0]), stop)
    if not stop:
        _search(run, cap, max_states, max_seconds, graph)
    return run


def _spec(tb: Tables, init: Init) -> KeySpec:
    """The codec of a search of ``init``."""
    deal = init.deal
    return key_spec(tb, free_draw=init.free_draw, one_deal=deal is not None,
                    order=deal.stack if deal is not None else (),
                    set_aside=deal.set_aside if deal is not None else 0)


def _root_keys(variant: Variant, init: Init, states: Iterable[State], tb: Tables,
               spec: KeySpec) -> Array:
    """The keys of ``init``'s initial ``states``, one row each."""
    keys: list[Array] = []
    key = np.zeros(spec.words, dtype=np.int64)
    for s in states:
        if not pack(spec.kc, tb.k, frame_of(tb, s), key):  # pragma: no cover - Init fits
            raise AssertionError(f"an initial state does not fit the kernel's key: {s!r}")
        keys.append(key.copy())
    if not keys:
        raise DominoproofError(f"{variant.name}: {init.describe()}: no initial state "
                               "(the lead rule voids every deal)")
    return np.array(keys, dtype=np.int64)


def _search(run: _Run, cap: int, max_states: int | None, max_seconds: float | None,
            graph: bool) -> None:
    tb, kc, a, ctr = run.tb, run.spec.kc, run.arrays, run.ctr
    f = np.zeros(tb.frame, dtype=np.int64)
    g = np.zeros(tb.frame, dtype=np.int64)
    moves = np.zeros(tb.max_moves, dtype=np.int64)
    keys = np.zeros((tb.max_moves, run.spec.words), dtype=np.int64)  # one state's successors
    hashes = np.zeros(tb.max_moves, dtype=np.int64)
    scr = tb.scratch()
    kinds = _kinds()
    deadline = time.perf_counter() + max_seconds if max_seconds is not None else None
    chunk = CHUNK if deadline is not None else CHUNK_UNTIMED
    st = ks.CHUNK
    while True:
        if st == ks.CHUNK and deadline is not None and time.perf_counter() > deadline:
            run.stop = f"time budget of {max_seconds:g} s reached"
            return
        st = ks.bfs(tb.k, kc, a.codes, a.table, a.parent, a.depth, a.kind, a.edge_ptr,
                    a.edge_to, ctr, cap, chunk, kinds, graph, f, g, moves, keys, hashes,
                    scr)
        run.status = st
        if st == ks.GROW_STATES:
            a.grow_states(graph)
        elif st == ks.GROW_EDGES:
            a.grow_edges()
        elif st == ks.GROW_TABLE:
            a.grow_table(kc, int(ctr[0]))
        elif st == ks.CHUNK:
            continue
        elif st == ks.BUDGET:
            run.stop = f"state budget of {max_states:,} states reached"
            return
        elif st == ks.UNENCODABLE:  # pragma: no cover - the correct rules fit their codec
            raise AssertionError("a successor does not fit the kernel's key")
        else:  # DONE or FOUND
            return


def explore_kernel(variant: Variant, init: Init, *, scorer: Scorer | None = None,
                   max_states: int | None = None, max_seconds: float | None = None,
                   tables: Tables | None = None) -> SearchResult:
    """:func:`~dominoproof.proofs.search.statespace.explore` on the kernel (the variant's own
    rules): the same :class:`SearchResult`, ids and all. ``tables``: the kernel's table
    to read (default: the variant's own; the tests break one)."""
    start = time.perf_counter()
    rules = engine_for(variant)
    run = _run(variant, init, max_states, max_seconds, True, rules, tables)
    a, ctr = run.arrays, run.ctr
    n, head, ne = int(ctr[0]), int(ctr[1]), int(ctr[2])
    keys = a.codes[:n]
    codec = KernelCodec(run.tb, run.spec)
    res = KernelSearchResult(
        variant, init, rules, scorer or outcome, codec,
        KernelIndex(run.spec.kc, keys, a.table), KernelCodes(keys),
        _arr("i", a.parent[:n]), _arr("i", a.depth[:n]), _arr("b", a.kind[:head]),
        _arr("q", a.edge_ptr[:head + 1]), _arr("i", a.edge_to[:ne]), run.roots,
        not run.stop and head == n, run.stop, time.perf_counter() - start)
    res.keys, res.table = keys, a.table
    return res


def _arr(code: str, a: Array) -> array[Any]:
    out = array(code)
    out.frombytes(np.ascontiguousarray(a).tobytes())
    return out


@dataclass
class LeanResult:
    """A search that kept no graph: how far it went, and the first block that fails
    R1.1's conditions (with the trace to it)."""

    variant: Variant
    init: Init
    states: int
    expanded: int
    transitions: int
    complete: bool
    stop_reason: str
    seconds: float
    visited_bytes: int  #: keys, hash table and BFS parents
    key_words: int
    failed: State | None = None
    why: int = 0
    path: tuple[State, ...] = ()


def explore_lean(variant: Variant, init: Init, *, max_states: int | None = None,
                 max_seconds: float | None = None,
                 tables: Tables | None = None, reserve: int = 0) -> LeanResult:
    """Every state reachable from ``init``, keeping no graph; each established block judged
    as it is met (blocked-sound's conditions). Stops at the first failure. ``tables``:
    the kernel's table to read (default: the variant's own; the tests break one).
    ``reserve``: room for that many states' keys and parents taken at the start
    (address space; the memory as it is used), for a search that would otherwise need
    its old and its doubled arrays at once near the machine's memory (the every-draw-order
    benchmark); the same search, the same result."""
    start = time.perf_counter()
    run = _run(variant, init, max_states, max_seconds, False, engine_for(variant), tables,
               reserve)
    a, ctr = run.arrays, run.ctr
    n, head, ne = int(ctr[0]), int(ctr[1]), int(ctr[2])
    out = LeanResult(variant, init, n, head, ne, not run.stop and head == n
                     and run.status != ks.FOUND, run.stop, time.perf_counter() - start,
                     int(a.codes[:n].nbytes + a.table.nbytes + a.parent[:n].nbytes),
                     run.spec.words)
    if run.status == ks.FOUND:
        codec = KernelCodec(run.tb, run.spec)
        i = int(ctr[3])
        path = [i]
        while a.parent[path[-1]] >= 0:
            path.append(int(a.parent[path[-1]]))
        out.path = tuple(codec.decode_row(a.codes[j]) for j in reversed(path))
        out.failed, out.why = out.path[-1], int(ctr[4])
    return out


@dataclass
class SweepResult:
    """A sweep-line search: every level's number of states, and the first block that
    fails R1.1's conditions (the state alone: a sweep keeps no trace)."""

    variant: Variant
    init: Init
    levels: list[int]  #: distinct states of each level, the level of the initial states first
    transitions: int
    complete: bool
    stop_reason: str
    seconds: float
    peak_bytes: int  #: the most the two levels' keys and hash tables held at once
    key_words: int
    failed: State | None = None
    why: int = 0
    peak_states: int = 0  #: the states the two levels held when they held ``peak_bytes``

    @property
    def states(self) -> int:
        """Distinct states: the levels' sum (no state is in two levels)."""
        return sum(self.levels)


class _Level:
    """One level's keys (its queue, in BFS order) and its exact visited set."""

    def __init__(self, kw: int, room: int) -> None:
        self.codes = np.zeros((room, kw), dtype=np.int64)
        self.table = _new_table(room)

    def grow_states(self) -> None:
        self.codes = _grown(self.codes, 2 * self.codes.shape[0])

    def grow_table(self, kc: Array, n: int) -> None:
        self.table = _doubled_table(kc, self.codes, n, self.table)

    def nbytes(self, n: int) -> int:
        return int(self.codes[:n].nbytes + self.table.nbytes)


def explore_sweep(variant: Variant, init: Init, *, max_seconds: float | None = None,
                  max_held: int | None = None, tables: Tables | None = None,
                  progress: Callable[[int, int], None] | None = None) -> SweepResult:
    """Every state reachable from ``init``, level by level (tiles on the table plus tiles
    drawn: every play and every draw leads one level on, nothing leads back), keeping
    only the level being expanded and the next one; each established block judged as it
    is met, as :func:`explore_lean` does. The same states, counted exactly (a state's
    level is a function of it, so no state is in two levels), in the memory of the two
    widest neighbouring levels instead of all of them; no trace (a failing block is
    reported alone: :func:`explore_lean` gives its shortest trace). ``progress(level,
    states)`` is told each level as it is done. ``max_held``: the memory budget, as the
    states the two levels hold at once (about 26 bytes a state with keys of two words);
    the search stops, incomplete, as soon as they hold more (it looks between chunks of
    expansions) rather than run out of memory."""
    if max_held is not None and max_held < 1:
        raise DominoproofError(f"a sweep's state budget must be at least 1, not {max_held}")
    start = time.perf_counter()
    deadline = start + max_seconds if max_seconds is not None else None
    tb = tables if tables is not None else tables_for(variant)
    spec = _spec(tb, init)
    kc, k, kw = spec.kc, tb.k, spec.words
    placed: set[int] = set()

    def noted() -> Iterator[State]:  # each initial state's level, as they are packed
        for s in init_states(variant, init, engine_for(variant)):
            placed.add(_level_of(s))
            yield s

    roots = _root_keys(variant, init, noted(), tb, spec)
    if len(placed) > 1:
        raise DominoproofError(f"{variant.name}: {init.describe()}: the initial states are "
                               f"on {len(placed)} levels; a sweep starts from one")
    cur, nxt = _Level(kw, max(1024, 4 * len(roots))), _Level(kw, 1024)
    ctr = np.zeros(8, dtype=np.int64)
    # the roots' parents and depths are a graph search's, written and dropped here
    ks.add_roots(kc, cur.codes, cur.table, np.zeros(len(roots), dtype=np.int32),
                 np.zeros(1, dtype=np.int32), ctr, roots, len(roots), False)
    f = np.zeros(tb.frame, dtype=np.int64)
    g = np.zeros(tb.frame, dtype=np.int64)
    moves = np.zeros(tb.max_moves, dtype=np.int64)
    keys = np.zeros((tb.max_moves, kw), dtype=np.int64)
    hashes = np.zeros(tb.max_moves, dtype=np.int64)
    scr = tb.scratch()
    levels: list[int] = []
    peak, held, stop, failed, why = 0, 0, "", None, 0
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            stop = f"time budget of {max_seconds:g} s reached"
            break
        st = ks.sweep(k, kc, cur.codes, cur.table, nxt.codes, nxt.table, ctr,
                      CHUNK if deadline is not None else CHUNK_UNTIMED, f, g, moves, keys,
                      hashes, scr)
        n, nn = int(ctr[0]), int(ctr[3])
        now = cur.nbytes(n) + nxt.nbytes(nn)
        if now > peak:
            peak, held = now, n + nn
        if max_held is not None and n + nn > max_held:
            stop = f"state budget of {max_held:,} states held at once reached"
            break
        if st == ks.GROW_STATES:
            cur.grow_states()
        elif st == ks.GROW_TABLE:
            cur.grow_table(kc, n)
        elif st == ks.GROW_NEXT:
            nxt.grow_states()
        elif st == ks.GROW_NEXT_TABLE:
            nxt.grow_table(kc, nn)
        elif st == ks.FOUND:
            failed = KernelCodec(tb, spec).decode_row(cur.codes[int(ctr[4])])
            why = int(ctr[5])
            break
        elif st == ks.UNENCODABLE:  # pragma: no cover - the correct rules fit their codec
            raise AssertionError("a successor does not fit the kernel's key")
        elif st == ks.DONE:
            levels.append(n)
            if progress is not None:
                progress(len(levels) - 1, n)
            if nn == 0:
                break
            # the next level becomes the current one; the old one's arrays are reused
            cur, nxt = nxt, cur
            nxt.table.fill(-1)
            ctr[0], ctr[1], ctr[3] = nn, 0, 0
    complete = not stop and failed is None
    if not complete and failed is None:
        levels.append(int(ctr[0]))  # the level being expanded, as far as it got
    return SweepResult(variant, init, levels, int(ctr[2]), complete, stop,
                       time.perf_counter() - start, peak, kw, failed, why, held)


@dataclass
class BlockCheck:
    """blocked-sound (R1.1 at every established block) on every reachable state: decided
    by the sweep, and where it fails, traced by the breadth-first search."""

    sweep: SweepResult
    #: the breadth-first search run for the shortest trace to a failing block (None:
    #: the sweep met none)
    traced: LeanResult | None = None

    @property
    def verdict(self) -> str:
        """HOLDS, VIOLATED or UNKNOWN (a budget stopped the sweep before it met a failure)."""
        if self.sweep.failed is not None:
            return "VIOLATED"
        return "HOLDS" if self.sweep.complete else "UNKNOWN"


def check_blocks(variant: Variant, init: Init, *, max_seconds: float | None = None,
                 max_held: int | None = None, tables: Tables | None = None) -> BlockCheck:
    """Every state reachable from ``init``, each established block judged against R1.1's
    conditions, the fastest way the kernel has: the sweep (:func:`explore_sweep`), whose
    visited sets are two levels' and stay small, so its lookups mostly hit the cache
    (about a fifth less time than :func:`explore_lean` on the double-6 deal). The sweep
    keeps no trace; where it meets a failing block, :func:`explore_lean` searches again
    breadth-first for the shortest trace to one, so the counterexample is the same as a
    breadth-first search's. The budgets are the sweep's; the trace's search has none."""
    sweep = explore_sweep(variant, init, max_seconds=max_seconds, max_held=max_held,
                          tables=tables)
    if sweep.failed is None:
        return BlockCheck(sweep)
    traced = explore_lean(variant, init, tables=tables)
    if traced.failed is None:  # pragma: no cover - a kernel bug: the searches disagree
        raise AssertionError("the sweep met a block that fails R1.1's conditions, the "
                             "breadth-first search of the same states none")
    return BlockCheck(sweep, traced)


def _level_of(s: State) -> int:
    """Tiles on the table less tiles in the boneyard: what every play and every draw
    adds one to and nothing else changes (a sweep's levels, up to a constant)."""
    return s.table.bit_count() - s.boneyard.bit_count()
