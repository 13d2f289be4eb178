"""The kernel backend of the search: the same graph as the Python search's, faster.

:func:`explore_kernel` runs :func:`dominoproof.proofs.kernel.search.bfs` and returns the
same :class:`~dominoproof.proofs.search.result.SearchResult` the Python search returns --
the same ids (BFS order), parents, depths, kinds and CSR edges, so every property of the
catalogue is judged exactly as before and every counterexample is the same shortest
trace, replayable in the engine. Only the keys differ: the kernel's packed keys
(:mod:`dominoproof.proofs.kernel.codec`), read through :class:`KernelCodec`,
:class:`KernelCodes` and :class:`KernelIndex`. It is reached through
:func:`~dominoproof.proofs.search.statespace.explore`, which says when it runs
(``kernel_reason``); importing it loads numba.

It is also the judge's accelerator on such a search (:func:`screen_search`, below): the
judge (:class:`~dominoproof.proofs.search.judge.Judge`) reads states as
:class:`~dominoproof.model.state.State` values, in Python; the kernel's screen
(:mod:`dominoproof.proofs.kernel.screen`) reads the key array instead -- every state's
invariants, the moves of the states still being played -- and returns a :class:`Screen`:
the ids the judge must still read -- every state where the round is over (a called block
and the terminal properties, with the declarative scoring), and for each local property
the first state the screen finds failing it -- blocked-complete's premise and the census
of R2.3's readings. The judge words every failure itself; where it finds
nothing at a state the screen names, the two readings disagree and the run stops
(:class:`ScreenDisagrees`), never a verdict.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import layout_of
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, init_states
from dominoproof.model.state import Ending, State
from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import CHUNK_UNTIMED, CLOCK_EVERY
from dominoproof.proofs.kernel import graph as kgraph
from dominoproof.proofs.kernel import screen as kj
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
from dominoproof.proofs.readings import ReadingsDisagree
from dominoproof.proofs.search.codec import Codec
from dominoproof.proofs.search.result import SearchResult, kind_code

AnyArray = npt.NDArray[Any]

__all__ = ["KernelCodec", "KernelCodes", "KernelIndex", "KernelSearchResult", "Screen",
           "ScreenDisagrees", "compiled_longest", "compiled_order", "explore_kernel",
           "run_search", "screen_keys", "screen_search"]


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
        fits = pack(self.spec.kc, self.tb.k, frame_of(self.tb, s), self._key)
        code = key_int(self._key)
        if not fits or self.decode(code) != s:
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
        _, j = ks.find_key(self.table, self._keys, key, self.kw, key_hash(key, self.kw))
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
    """:meth:`SearchResult._order <dominoproof.proofs.search.result.SearchResult._order>`
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
    <dominoproof.proofs.search.result.SearchResult.longest_from_roots>` compiled, along
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
            np.zeros((room, kw), dtype=np.int64), new_table(states),
            np.zeros(room, dtype=np.int32),
            np.zeros(states, dtype=np.int32) if graph else small,
            np.zeros(states, dtype=np.int8) if graph else np.zeros(1, dtype=np.int8),
            np.zeros(states + 1, dtype=np.int64) if graph else np.zeros(1, dtype=np.int64),
            np.zeros(edges, dtype=np.int32) if graph else small)

    def grow_states(self, graph: bool) -> None:
        n = self.codes.shape[0] * 2
        self.codes = grown(self.codes, n)
        self.parent = grown(self.parent, n)
        if graph:
            self.depth = grown(self.depth, n)
            self.kind = grown(self.kind, n)
            self.edge_ptr = grown(self.edge_ptr, n + 1)

    def grow_edges(self) -> None:
        self.edge_to = grown(self.edge_to, self.edge_to.shape[0] * 2)

    def grow_table(self, kc: Array, n: int) -> None:
        self.table = doubled_table(kc, self.codes, n, self.table)


def new_table(states: int) -> Array:
    """An empty visited set with room for ``states`` states (load at most 1/2)."""
    return np.full(1 << max(10, (2 * states - 1).bit_length()), -1, dtype=np.int32)


def doubled_table(kc: Array, codes: Array, n: int, table: Array) -> Array:
    """The visited set of ids 0..n-1 of ``codes`` in a table twice the size of ``table``."""
    out = np.full(2 * table.shape[0], -1, dtype=np.int32)
    ks.rehash(kc, codes, n, out)
    return out


def grown(a: AnyArray, n: int) -> AnyArray:
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


def run_search(variant: Variant, init: Init, max_states: int | None, max_seconds: float | None,
         graph: bool, rules: RuleBook, tables: Tables | None = None, reserve: int = 0) -> _Run:
    if max_states is not None and max_states < 1:
        raise DominoproofError(f"--max-states must be at least 1, not {max_states}")
    if reserve < 0:
        raise DominoproofError(f"a search's reserve must be at least 0, not {reserve}")
    tb = tables if tables is not None else tables_for(variant)
    spec = _spec(tb, init)
    kc = spec.kc
    cap = max_states if max_states is not None else (1 << 31) - 1
    roots = root_keys(variant, init, init_states(variant, init, rules), tb, spec)
    first = max(1024, 4 * len(roots))
    # a reserve holds the budget and one more state's successors: the search stops at
    # the budget (BUDGET) before it asks for room beyond it (GROW_STATES)
    arrays = _Arrays.new(spec.words, first, 2 * first, graph,
                         reserve + tb.max_moves if reserve else 0)
    while (4 * len(roots) > 3 * arrays.table.shape[0]
           or len(roots) > arrays.codes.shape[0]):
        arrays.grow_states(graph)
        arrays.grow_table(kc, 0)
    ctr = np.zeros(8, dtype=np.int64)
    used = ks.add_roots(kc, arrays.codes, arrays.table, arrays.parent, arrays.depth, ctr,
                        roots, cap, graph)
    stop = ""
    if used < len(roots):
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


def root_keys(variant: Variant, init: Init, states: Iterable[State], tb: Tables,
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
    chunk = CLOCK_EVERY if deadline is not None else CHUNK_UNTIMED
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
    run = run_search(variant, init, max_states, max_seconds, True, rules, tables)
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


# -- The judge's accelerator: the kernel's screen --------------------------------------


class ScreenDisagrees(ReadingsDisagree):
    """The kernel's screen names a state failing a property where the judge (which reads
    the specification) finds it holding, or a state whose moves are not its edges."""

    def __init__(self, what: str, at: int) -> None:
        super().__init__("kernel", "specification", what, at=at)


@dataclass
class Screen:
    """What the screen found: the ids the judge reads, the first failure it found of each
    screened property (id, and the successor of a failing move or -1), the premise states
    of blocked-complete, and the readings' census."""

    ids: list[int]
    first: dict[str, tuple[int, int]] = field(default_factory=dict)
    premise: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    screened: int = 0  #: states still being played (the screen reads each one's moves)

    def check(self, found: dict[str, int]) -> None:
        """Raise :class:`ScreenDisagrees` unless the judge failed each property the screen
        named, at that state or an earlier one (``found``: property -> the judge's
        first failing id)."""
        for pid, (at, _then) in self.first.items():
            if found.get(pid, at + 1) > at:
                raise ScreenDisagrees(
                    f"the kernel's screen finds {pid} failing at state {at}, the judge "
                    "does not", at)


def screen_search(result: SearchResult, wanted: Iterable[str], readings: bool
                  ) -> Screen | None:
    """Screen a kernel search's states (see :mod:`dominoproof.proofs.kernel.screen`), or
    ``None`` where the judge must read every state: not a kernel search, or neither a
    screened property nor R2.3's readings (the judge's ``readings``) wanted. (The layout's
    properties are not screened: where they are wanted, the judge reads every state for
    them alone.)"""
    if not isinstance(result, KernelSearchResult):
        return None
    wanted = set(wanted)
    if not (readings or set(kj.IDS) & wanted):
        return None
    codec = result.codec
    assert isinstance(codec, KernelCodec)
    return screen_keys(result.variant, codec.tb, codec.spec, result.keys, result.expanded,
                       *_csr(result), wanted, readings)


def screen_keys(variant: Variant, tb: Tables, spec: KeySpec, keys: Array, n_exp: int,
                edge_ptr: Array, edge_to: Array, wanted: set[str], readings: bool,
                edge_move: Array | None = None) -> Screen:
    """Screen the states of a search given as the kernel's keys (``spec``: their codec,
    ``tb``: the table the search ran on) and its edges, by the rules of the variant's own
    table. ``edge_move``: each edge's move as the kernel codes it, for a search under
    another rule book (a fault's); by default the moves of ``tb``, in the search's order."""
    own = tables_for(variant)
    n = int(keys.shape[0])
    lay = layout_of(variant)
    frame = np.zeros(own.frame, dtype=np.int64)
    job = kj.ScreenJob(
        K=own.k, KS=tb.k, KC=spec.kc, codes=keys, n=n, n_exp=n_exp, edge_ptr=edge_ptr,
        edge_to=edge_to,
        edge_move=edge_move if edge_move is not None else np.zeros(0, dtype=np.int64),
        want=sum(1 << k for k, pid in enumerate(kj.IDS) if pid in wanted),
        readings=readings, mark_bits=lay.fields.width, parity=bool(lay.lines),
        f=frame, g=frame.copy(), c=frame.copy(), scr=own.scratch(),
        moves=np.zeros(own.max_moves, dtype=np.int64),
        first=np.full(len(kj.IDS), -1, dtype=np.int64),
        then=np.full(len(kj.IDS), -1, dtype=np.int64),
        premise=np.zeros(n, dtype=np.int8), counts=np.zeros(2, dtype=np.int64))
    got = kj.screen(job)
    first, then = job.first, job.then
    if got == kj.EDGES_DIFFER:
        raise ScreenDisagrees(f"the kernel's moves at state {int(first[0])} are not the "
                              "search's edges", int(first[0]))
    out = Screen([], screened=int(got))
    out.first = {pid: (int(first[k]), int(then[k])) for k, pid in enumerate(kj.IDS)
                 if first[k] >= 0}
    out.premise = np.flatnonzero(job.premise == 1).tolist()
    census = {"R2.3 readings compared": int(job.counts[kj.COMPARED]),
              "R2.3 readings differ": int(job.counts[kj.DIFFER])}
    out.counts = {k: n for k, n in census.items() if n}  # as the judge counts: none, no key
    # the round's ends (the screen reads none), and each state it names
    rest = np.flatnonzero(job.premise == kj.OVER).tolist()
    out.ids = sorted(set(rest) | {at for at, _ in out.first.values()})
    return out
