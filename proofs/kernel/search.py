"""Breadth-first search on the kernel: packed keys, an exact visited set, the graph as arrays.

The visited set is **exact**: every state's whole key is stored (``codes``, in BFS
order, which is also the queue) and a hash table of ids by open addressing (linear
probing, load at most three quarters) finds a key by comparing it whole. Nothing is
compacted or hashed away: no hash compaction, no bitstate.

The search is the same search as ``proofs/search/statespace.py``'s, step for step: the initial
states in the order given, then each state's successors in the order of its moves, a
new state taking the next id; so the ids, the BFS tree and the edges are the same as
the Python search's, and so is every counterexample read off them. It runs in chunks:
:func:`bfs` returns when an array is full (the caller grows it and calls again), when
the state budget is reached (the state being expanded is left unexpanded, its partial
edges undone, as the Python search does), or after ``chunk`` expansions (the caller
reads the clock: the time budget).

With ``graph`` false the search keeps only the keys, the table and the BFS parents (the
traces) and judges each established block as it is met
(:func:`~dominoproof.proofs.kernel.screen.judge_blocked`: blocked-sound, the one
property such a search checks): the benchmarks' lean search (``bench/lean.py``, where
the sweep, the same search two levels at a time, is written too).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit, njit_inline
from .codec import KW_, key_hash, successor_key, unpack
from .rules import gen_moves, step
from .screen import judge_blocked
from .tables import BLOCKED, F_STATUS, F_TURN, MAXMOVES, PLAYING

(DONE, GROW_STATES, GROW_EDGES, GROW_TABLE, BUDGET, CHUNK, UNENCODABLE, FOUND) = range(8)


@njit_inline
def find_key(table, codes, key, kw, h):  # type: ignore[no-untyped-def]
    """(slot, id) of ``key`` in the table from its hash ``h``: id -1 and the empty slot
    where it would go when it is absent.

    A slot holds an id in its low bits (an id is below the table's size) and, in the bits
    above up to the sign, a tag: more bits of the key's hash (:func:`_tagged`). A slot
    whose tag differs holds another key, so the key array is read only where the tags
    agree, and there the whole key is compared: the set stays exact."""
    mask = len(table) - 1
    tag = _tagged(mask, 0, h)
    i = h & mask
    while True:
        e = table[i]
        if e < 0:
            return i, -1
        if e & ~mask == tag:
            j = e & mask
            same = True
            for w in range(kw):
                if codes[j, w] != key[w]:
                    same = False
                    break
            if same:
                return i, j
        i = (i + 1) & mask


@njit_inline
def _tagged(mask, j, h):  # type: ignore[no-untyped-def]
    """The slot's word for id ``j`` of hash ``h``: the id in the table's index bits, and
    above them, up to the sign bit, the hash's bits from 33 on (never the bits of the
    index: a table holds fewer than 2**31 slots)."""
    return np.int32(j | ((h >> 33) & 0x7FFFFFFF & ~mask))


@njit_inline
def keyed_successor(K, KC, f, m, g, scr, parent_key, key):  # type: ignore[no-untyped-def]
    """``key`` := the key of the successor of ``f`` (keyed ``parent_key``) by the move
    ``m`` (``g``: its frame); False when it does not fit the codec."""
    step(K, f, m, g, scr)
    return successor_key(KC, K, parent_key, m & 7, (m >> 3) & 31, ((m >> 8) & 255) - 1,
                         g, key)


@njit_inline
def add_key(table, codes, n, key, kw, h):  # type: ignore[no-untyped-def]
    """Add ``key`` (hash ``h``) as id ``n`` unless the set holds it; the next free id."""
    slot, j = find_key(table, codes, key, kw, h)
    if j >= 0:
        return n
    for w in range(kw):
        codes[n, w] = key[w]
    table[slot] = _tagged(len(table) - 1, n, h)
    return n + 1


@njit
def add_roots(KC, codes, table, parent, depth, ctr, keys, max_states,  # type: ignore[no-untyped-def]
              graph):
    """Add the initial states ``keys`` (duplicates once); the number of keys consumed
    (fewer than given when the state budget is reached)."""
    kw = KC[KW_]
    n = ctr[0]
    for r in range(keys.shape[0]):
        key = keys[r]
        slot, j = find_key(table, codes, key, kw, key_hash(key, kw))
        if j >= 0:
            continue
        if n >= max_states:
            ctr[0] = n
            return r
        for w in range(kw):
            codes[n, w] = key[w]
        table[slot] = _tagged(len(table) - 1, n, key_hash(key, kw))
        parent[n] = -1
        if graph:
            depth[n] = 0
        n += 1
    ctr[0] = n
    return keys.shape[0]


@njit
def rehash(KC, codes, n, table):  # type: ignore[no-untyped-def]
    """Insert ids 0..n-1 into the (empty, larger) ``table``."""
    kw = KC[KW_]
    mask = len(table) - 1
    for j in range(n):
        h = key_hash(codes[j], kw)
        slot, _ = find_key(table, codes, codes[j], kw, h)
        table[slot] = _tagged(mask, j, h)


@njit
def bfs(K, KC, codes, table, parent, depth, kind, edge_ptr, edge_to, ctr,  # type: ignore[no-untyped-def]
        max_states, chunk, kinds, graph, f, g, moves, keys, hashes, scr):
    """Expand states from ``ctr[1]`` on (see the module docstring); ``ctr`` holds the
    states, the expanded states and the edges, and, when a block fails its conditions
    (``graph`` false), the failing state's id and why (``ctr[3]``, ``ctr[4]``). Returns a
    status: DONE, GROW_STATES, GROW_EDGES, GROW_TABLE, BUDGET, CHUNK, UNENCODABLE or
    FOUND. ``keys`` and ``hashes``: scratch for one state's successors (a row per move)."""
    kw = KC[KW_]
    n, head, ne = ctr[0], ctr[1], ctr[2]
    maxm = K[MAXMOVES]
    tmask = len(table) - 1
    status_at = K[F_STATUS]
    done = 0
    while head < n:
        if done >= chunk:
            ctr[0], ctr[1], ctr[2] = n, head, ne
            return CHUNK
        if n + maxm > codes.shape[0]:
            ctr[0], ctr[1], ctr[2] = n, head, ne
            return GROW_STATES
        if graph and ne + maxm > edge_to.shape[0]:
            ctr[0], ctr[1], ctr[2] = n, head, ne
            return GROW_EDGES
        if 4 * (n + maxm) > 3 * table.shape[0]:
            ctr[0], ctr[1], ctr[2] = n, head, ne
            return GROW_TABLE
        unpack(KC, K, codes[head], f)
        st = f[status_at]
        if st != PLAYING:
            if graph:
                kind[head] = kinds[0] if st == BLOCKED else kinds[1] + kinds[3] * f[K[F_TURN]]
                edge_ptr[head + 1] = ne
            elif st == BLOCKED:
                why = judge_blocked(K, f)
                if why:
                    ctr[0], ctr[1], ctr[2], ctr[3], ctr[4] = n, head, ne, head, why
                    return FOUND
            head += 1
            done += 1
            continue
        nm = gen_moves(K, f, moves)
        d = depth[head] + 1 if graph else 0
        start = ne
        parent_key = codes[head]
        # the successors' keys and hashes first, touching each one's first slot: the
        # table's cache misses then overlap instead of following one another
        touch = np.int64(0)
        for x in range(nm):
            if not keyed_successor(K, KC, f, moves[x], g, scr, parent_key, keys[x]):
                ctr[0], ctr[1], ctr[2] = n, head, start
                return UNENCODABLE
            h = key_hash(keys[x], kw)
            hashes[x] = h
            touch += table[h & tmask]
        ctr[7] = touch
        for x in range(nm):
            key = keys[x]
            h = hashes[x]
            slot, j = find_key(table, codes, key, kw, h)
            if j < 0:
                if n >= max_states:
                    ctr[0], ctr[1], ctr[2] = n, head, start
                    return BUDGET
                j = n
                for w in range(kw):
                    codes[n, w] = key[w]
                table[slot] = _tagged(tmask, n, h)
                parent[n] = head
                if graph:
                    depth[n] = d
                n += 1
            if graph:
                edge_to[ne] = j
            ne += 1
        if graph:
            kind[head] = 0 if nm else kinds[2]
            edge_ptr[head + 1] = ne
        head += 1
        done += 1
    ctr[0], ctr[1], ctr[2] = n, head, ne
    return DONE



__all__ = ["BUDGET", "CHUNK", "DONE", "FOUND", "GROW_EDGES", "GROW_STATES", "GROW_TABLE",
           "UNENCODABLE", "add_key", "add_roots", "bfs", "find_key", "keyed_successor",
           "rehash"]
