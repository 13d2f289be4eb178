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
traces): what a search that keeps no graph needs (the every-draw-order benchmark),
and it judges each state as it is expanded (:func:`bfs`'s ``judge``: R1.1's conditions
at every established block, the one property such a search checks).

:func:`sweep` is that search two levels at a time, for state spaces beyond memory: a
play or a draw leads to the next level and nothing leads back, so only the level being
expanded and the next one are kept (``proofs/search/compiled.py``'s ``explore_sweep``).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit, njit_inline
from .codec import KW_, key_hash, successor_key, unpack
from .rules import (
    DRAW_M,
    PLAY,
    ends_unplayable,
    gen_moves,
    step,
)
from .tables import BLOCKED, F_BONE, F_STATUS, F_TURN, MAXMOVES, MW, PLAYING

(DONE, GROW_STATES, GROW_EDGES, GROW_TABLE, BUDGET, CHUNK, UNENCODABLE, FOUND, GROW_NEXT,
 GROW_NEXT_TABLE) = range(10)


@njit_inline
def _find(table, codes, key, kw, h):  # type: ignore[no-untyped-def]
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
def _keyed(K, KC, f, m, g, scr, parent_key, key):  # type: ignore[no-untyped-def]
    """``key`` := the key of the successor of ``f`` (keyed ``parent_key``) by the move
    ``m`` (``g``: its frame); False when it does not fit the codec."""
    step(K, f, m, g, scr)
    return successor_key(KC, K, parent_key, m & 7, (m >> 3) & 31, ((m >> 8) & 255) - 1,
                         g, key)


@njit_inline
def _add(table, codes, n, key, kw, h):  # type: ignore[no-untyped-def]
    """Add ``key`` (hash ``h``) as id ``n`` unless the set holds it; the next free id."""
    slot, j = _find(table, codes, key, kw, h)
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
        slot, j = _find(table, codes, key, kw, key_hash(key, kw))
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
        slot, _ = _find(table, codes, codes[j], kw, h)
        table[slot] = _tagged(mask, j, h)


@njit
def judge_blocked(K, f):  # type: ignore[no-untyped-def]
    """At an established block: 0 when R1.1's conditions hold; else a bit per condition
    that fails (1 the boneyard holds tiles, 2 a hand holds a matching tile, 4 a player
    has a legal move) -- blocked-sound's three reasons (R2.1-R2.3, R3.2)."""
    why = 0
    bone = K[F_BONE]
    for w in range(K[MW]):
        if f[bone + w]:
            why |= 1
    for reading in range(2):  # a variable: one compiled ends_unplayable, not one per literal
        if not ends_unplayable(K, f, reading):
            why |= 2 << reading
    return why


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
            if not _keyed(K, KC, f, moves[x], g, scr, parent_key, keys[x]):
                ctr[0], ctr[1], ctr[2] = n, head, start
                return UNENCODABLE
            h = key_hash(keys[x], kw)
            hashes[x] = h
            touch += table[h & tmask]
        ctr[7] = touch
        for x in range(nm):
            key = keys[x]
            h = hashes[x]
            slot, j = _find(table, codes, key, kw, h)
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
    st = DONE
    while head < n:
        if done >= chunk:
            st = CHUNK
        elif n + maxm > cur.shape[0]:
            st = GROW_STATES
        elif 4 * (n + maxm) > 3 * ctab.shape[0]:
            st = GROW_TABLE
        elif nn + maxm > nxt.shape[0]:
            st = GROW_NEXT
        elif 4 * (nn + maxm) > 3 * ntab.shape[0]:
            st = GROW_NEXT_TABLE
        if st != DONE:
            break
        unpack(KC, K, cur[head], f)
        s = f[status_at]
        if s != PLAYING:
            if s == BLOCKED:
                why = judge_blocked(K, f)
                if why:
                    ctr[4], ctr[5] = head, why
                    st = FOUND
                    break
            head += 1
            done += 1
            continue
        nm = gen_moves(K, f, moves)
        for x in range(nm):
            if not _keyed(K, KC, f, moves[x], g, scr, cur[head], keys[x]):
                st = UNENCODABLE
                break
            hashes[x] = key_hash(keys[x], kw)
        if st != DONE:
            break
        for x in range(nm):
            kind = moves[x] & 7
            if kind in (PLAY, DRAW_M):  # one more tile placed or drawn
                nn = _add(ntab, nxt, nn, keys[x], kw, hashes[x])
            else:
                n = _add(ctab, cur, n, keys[x], kw, hashes[x])
        ne += nm
        head += 1
        done += 1
    ctr[0], ctr[1], ctr[2], ctr[3] = n, head, ne, nn
    return st


__all__ = ["BUDGET", "CHUNK", "DONE", "FOUND", "GROW_EDGES", "GROW_NEXT", "GROW_NEXT_TABLE",
           "GROW_STATES", "GROW_TABLE", "UNENCODABLE", "add_roots", "bfs", "judge_blocked",
           "rehash", "sweep"]
