"""The searches only the benchmarks run: the lean search, the sweep, and blocked-sound by both.

Each checks one property, blocked-sound (R1.1's conditions at every established block),
as it goes, keeping no graph, on the compiled kernel: what ``dominoproof bench spin``
times against Spin's ``pan`` and ``bench/every_draw_order.py`` runs on every draw order
of the double-6 deal. No user command reaches them: ``verify`` and ``explore`` run
:func:`~dominoproof.proofs.search.statespace.explore` and judge the whole catalogue.

* :func:`explore_lean`: every state reachable, keeping the keys, the visited set and the
  BFS parents only (the kernel's :func:`~dominoproof.proofs.kernel.search.bfs` without
  its graph), each block judged as it is met; the first failing one with its shortest
  trace.
* :func:`explore_sweep`: the same search keeping two levels at a time (the sweep-line
  method: a play or a draw leads one level on, nothing leads back): exact, for a state
  space larger than memory, at the price of the traces.
* :func:`check_blocks`: blocked-sound decided by the sweep and, where it fails, traced by
  :func:`explore_lean` (docs/KERNEL.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init, init_states
from dominoproof.model.state import State
from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import CHUNK_UNTIMED, CLOCK_EVERY
from dominoproof.proofs.kernel import search as ks
from dominoproof.proofs.kernel._jit import njit
from dominoproof.proofs.kernel.codec import KW_, key_hash, unpack
from dominoproof.proofs.kernel.rules import DRAW_M, PLAY, gen_moves
from dominoproof.proofs.kernel.screen import judge_blocked
from dominoproof.proofs.kernel.tables import BLOCKED as BLOCKED_STATUS
from dominoproof.proofs.kernel.tables import (
    F_STATUS,
    MAXMOVES,
    PLAYING,
    Array,
    Tables,
    tables_for,
)
from dominoproof.proofs.search.compiled import (
    KernelCodec,
    _spec,
    doubled_table,
    grown,
    new_table,
    root_keys,
    run_search,
)

__all__ = ["BlockCheck", "LeanResult", "SweepResult", "check_blocks", "explore_lean",
           "explore_sweep"]

#: :func:`sweep`'s statuses beyond the search's: the next level's arrays are full
GROW_NEXT, GROW_NEXT_TABLE = 8, 9


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
    run = run_search(variant, init, max_states, max_seconds, False, engine_for(variant),
                     tables, reserve)
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
        self.table = new_table(room)

    def grow_states(self) -> None:
        self.codes = grown(self.codes, 2 * self.codes.shape[0])

    def grow_table(self, kc: Array, n: int) -> None:
        self.table = doubled_table(kc, self.codes, n, self.table)

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

    roots = root_keys(variant, init, noted(), tb, spec)
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
        st = sweep(k, kc, cur.codes, cur.table, nxt.codes, nxt.table, ctr,
                   CLOCK_EVERY if deadline is not None else CHUNK_UNTIMED, f, g, moves, keys,
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
        elif st == GROW_NEXT:
            nxt.grow_states()
        elif st == GROW_NEXT_TABLE:
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



@njit
def sweep(K, KC, cur, ctab, nxt, ntab, ctr, chunk, f, g, moves, keys, hashes,  # type: ignore[no-untyped-def]
          scr):
    """One level of the sweep-line search: expand the states of the current level
    (``cur``, its set ``ctab``) from ``ctr[1]`` on. A play or a draw leads to the next
    level (``nxt``, ``ntab``): it adds a tile to the table or takes one from the
    boneyard, so a state's level -- tiles on the table plus tiles drawn -- is a function
    of the state, and no state is in two levels. Every other move stays in the level,
    and is searched breadth-first with it. ``ctr``: the level's states, the expanded
    ones, the transitions, the next level's states, and when a block fails R1.1's
    conditions, its id and why. Returns DONE (the level is expanded), GROW_STATES /
    GROW_TABLE (the current level's arrays), GROW_NEXT / GROW_NEXT_TABLE, CHUNK,
    UNENCODABLE or FOUND."""
    kw = KC[KW_]
    n, head, ne, nn = ctr[0], ctr[1], ctr[2], ctr[3]
    maxm = K[MAXMOVES]
    status_at = K[F_STATUS]
    done = 0
    st = ks.DONE
    while head < n:
        if done >= chunk:
            st = ks.CHUNK
        elif n + maxm > cur.shape[0]:
            st = ks.GROW_STATES
        elif 4 * (n + maxm) > 3 * ctab.shape[0]:
            st = ks.GROW_TABLE
        elif nn + maxm > nxt.shape[0]:
            st = GROW_NEXT
        elif 4 * (nn + maxm) > 3 * ntab.shape[0]:
            st = GROW_NEXT_TABLE
        if st != ks.DONE:
            break
        unpack(KC, K, cur[head], f)
        s = f[status_at]
        if s != PLAYING:
            if s == BLOCKED_STATUS:
                why = judge_blocked(K, f)
                if why:
                    ctr[4], ctr[5] = head, why
                    st = ks.FOUND
                    break
            head += 1
            done += 1
            continue
        nm = gen_moves(K, f, moves)
        for x in range(nm):
            if not ks.keyed_successor(K, KC, f, moves[x], g, scr, cur[head], keys[x]):
                st = ks.UNENCODABLE
                break
            hashes[x] = key_hash(keys[x], kw)
        if st != ks.DONE:
            break
        for x in range(nm):
            kind = moves[x] & 7
            if kind in (PLAY, DRAW_M):  # one more tile placed or drawn
                nn = ks.add_key(ntab, nxt, nn, keys[x], kw, hashes[x])
            else:
                n = ks.add_key(ctab, cur, n, keys[x], kw, hashes[x])
        ne += nm
        head += 1
        done += 1
    ctr[0], ctr[1], ctr[2], ctr[3] = n, head, ne, nn
    return st

