"""Seeded deals and uniformly random rounds on the kernel, draw for draw the engine's.

The engine's random rounds (``model/engine.py``: ``random_round``, ``random_rounds``) take
every random number from one ``random.Random(seed)`` stream, by ``random()`` only:

* a deal (``_deal_and_lead``): one key per tile, the set ordered by its keys (a stable
  sort), dealt as the variant says (``Deal.from_order``); a deal the lead rule voids is
  dealt again (at most :data:`MAX_REDEALS` times);
* each move (``playout``): the only legal move, or ``moves[int(random() * len(moves))]``
  of :meth:`Rules.moves <dominoproof.model.spec.Rules.moves>`, whose order the kernel's
  ``gen_moves`` keeps.

This module does the same inside compiled code: Python's generator (MT19937, and
``random()``'s 53 bits from two 32-bit outputs) is written out here, started from the
very state ``random.Random(seed).getstate()`` gives, so the same seed gives the same
deals, the same moves and the same final states as the engine. The conformance tests
hold it to that, round by round and move by move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from dominoproof.model.moves import Move
from dominoproof.model.state import Deal, State
from dominoproof.model.variant import Variant

from ._jit import njit, njit_inline
from .book import decode_move
from .rules import gen_moves, opening, step
from .tables import (
    BITS,
    F_ASIDE,
    F_BONE,
    F_ENDS,
    F_STACK,
    F_STACKN,
    F_STATUS,
    F_TURN,
    KASIDE,
    MAXMOVES,
    MW,
    ORDER,
    PLAYING,
    Array,
    B,
    H,
    P,
    T,
    W,
    state_of,
    tables_for,
)

#: the engine's limit on void deals in a row (``model/engine.py``'s ``_MAX_REDEALS``)
MAX_REDEALS = 1000
#: MT19937's words of state, and the slot of its index in the state array
MT_N = 624

# -- Python's random.Random (MT19937, random_random of Modules/_randommodule.c) --------


def mt_state(rng: random.Random) -> Array:
    """The generator state of ``rng`` as the kernel's array: 624 words, then the index."""
    version, internal, _ = rng.getstate()
    assert version == 3 and len(internal) == MT_N + 1
    return np.array(internal, dtype=np.int64)


@njit_inline
def _genrand(mt):  # type: ignore[no-untyped-def]
    """One 32-bit output of MT19937 (``genrand_uint32``), advancing ``mt``."""
    i = mt[MT_N]
    if i >= MT_N:
        for kk in range(MT_N):
            y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % MT_N] & 0x7FFFFFFF)
            x = mt[(kk + 397) % MT_N] ^ (y >> 1)
            if y & 1:
                x ^= 0x9908B0DF
            mt[kk] = x
        i = 0
    y = mt[i]
    mt[MT_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@njit_inline
def rand(mt):  # type: ignore[no-untyped-def]
    """``random.random()``: 53 random bits from two outputs, in [0, 1)."""
    a = _genrand(mt) >> 5
    b = _genrand(mt) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


# -- The deal (_deal_and_lead, Deal.from_order, dealt_state) ---------------------------


@njit
def _put(f, off, t):  # type: ignore[no-untyped-def]
    f[off + t // BITS] |= np.int64(1) << (t % BITS)


@njit
def deal(K, mt, f, keys, order):  # type: ignore[no-untyped-def]
    """``f`` := Init of a shuffled deal with its leader to move; False after
    :data:`MAX_REDEALS` void deals in a row. ``keys``, ``order``: scratch of T floats
    and T ints."""
    t, p, h, mw = K[T], K[P], K[H], K[MW]
    dealt = p * h
    for _ in range(MAX_REDEALS):
        for i in range(t):  # sorted(tiles, key=keys): a stable insertion sort
            x = rand(mt)
            keys[i] = x
            j = i
            while j > 0 and keys[order[j - 1]] > x:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        for i in range(f.shape[0]):  # loops: slice copies compile numba's shape checks
            f[i] = 0
        for q in range(p):
            for j in range(h):
                x = order[q * h + j] if K[ORDER] == 0 else order[q + j * p]
                _put(f, q * mw, x)
        keep = K[B]
        st = K[F_STACK]
        for j in range(keep):
            x = order[dealt + j]
            f[st + j] = x
            _put(f, K[F_BONE], x)
        for j in range(K[KASIDE]):
            _put(f, K[F_ASIDE], order[dealt + keep + j])
        f[K[F_STACKN]] = keep
        e = K[F_ENDS]
        for i in range(K[W]):
            f[e + i] = -1
        leader, _t = opening(K, f)
        if leader == -2:
            continue
        f[K[F_TURN]] = leader
        return True
    return False


# -- Rounds (playout, random_rounds) ---------------------------------------------------


@njit
def playout(K, mt, f, g, moves, scr, record):  # type: ignore[no-untyped-def]
    """Uniformly random legal moves from ``f`` to the end of the round, ``f`` left at the
    final state; the number of moves (-1: a state with no move before the end). The
    moves are written to ``record`` while it has room."""
    n = 0
    status = K[F_STATUS]
    a, b = f, g
    while a[status] == PLAYING:
        k = gen_moves(K, a, moves)
        if k == 0:
            n = -1
            break
        m = moves[0] if k == 1 else moves[int(rand(mt) * k)]
        if n < record.shape[0]:
            record[n] = m
        step(K, a, m, b, scr)
        a, b = b, a
        n += 1
    if n & 1:  # the final state is in g
        for i in range(f.shape[0]):
            f[i] = g[i]
    return n


@njit
def rounds(K, mt, n, finals, lengths, f, g, moves, scr, keys, order, none):  # type: ignore[no-untyped-def]
    """``n`` rounds from the stream ``mt``: each a deal and a playout. The final frames go
    to ``finals`` (while it has rows) and each round's moves to ``lengths``; returns the
    moves of all rounds, or -1 (a void deal stream or a stuck state). ``none``: an empty
    array (no move is recorded; the kernel allocates nothing itself)."""
    total = 0
    for r in range(n):
        if not deal(K, mt, f, keys, order):
            return -1
        k = playout(K, mt, f, g, moves, scr, none)
        if k < 0:
            return -1
        total += k
        if r < lengths.shape[0]:
            lengths[r] = k
        if r < finals.shape[0]:
            for i in range(f.shape[0]):
                finals[r, i] = f[i]
    return total


class KernelRounds:
    """One seeded stream of random rounds on the kernel (``random_rounds``'s)."""

    def __init__(self, variant: Variant, seed: int) -> None:
        self.variant = variant
        self.tb = tables_for(variant)
        self.mt = mt_state(random.Random(seed))
        k = self.tb.k
        self._f = np.zeros(self.tb.frame, dtype=np.int64)
        self._g = np.zeros(self.tb.frame, dtype=np.int64)
        self._moves = np.zeros(int(k[MAXMOVES]), dtype=np.int64)
        self._scr = self.tb.scratch()
        self._keys = np.zeros(self.tb.tiles, dtype=np.float64)
        self._order = np.zeros(self.tb.tiles, dtype=np.int64)
        self._none = np.zeros((0, self.tb.frame), dtype=np.int64)
        self._no_len = np.zeros(0, dtype=np.int64)

    def _fail(self) -> RuntimeError:
        return RuntimeError(f"{self.variant.name}: {MAX_REDEALS} void deals in a row, or a "
                            "round with no legal move before its end")

    def moves(self, n: int) -> int:
        """Play ``n`` rounds; the moves they took (what the benchmark counts)."""
        total = rounds(self.tb.k, self.mt, n, self._none, self._no_len, self._f, self._g,
                       self._moves, self._scr, self._keys, self._order, self._no_len)
        if total < 0:
            raise self._fail()
        return int(total)

    def finals(self, n: int) -> tuple[Array, Array]:
        """Play ``n`` rounds; their final frames and their lengths in moves."""
        finals = np.zeros((n, self.tb.frame), dtype=np.int64)
        lengths = np.zeros(n, dtype=np.int64)
        if rounds(self.tb.k, self.mt, n, finals, lengths, self._f, self._g, self._moves,
                  self._scr, self._keys, self._order, self._no_len) < 0:
            raise self._fail()
        return finals, lengths

    def one(self) -> tuple[Deal, tuple[Move, ...], State]:
        """One round: its deal, its moves and its final state (``random_round``'s)."""
        tb = self.tb
        f = self._f
        if not deal(tb.k, self.mt, f, self._keys, self._order):
            raise self._fail()
        first = state_of(tb, f)
        rec = np.zeros(100_000, dtype=np.int64)
        n = playout(tb.k, self.mt, f, self._g, self._moves, self._scr, rec)
        if n < 0 or n > rec.shape[0]:
            raise self._fail()
        return (Deal(first.hands, first.stack or (), first.set_aside),
                tuple(decode_move(int(m)) for m in rec[:n]), state_of(tb, f))


#: rounds per call into the kernel when a caller reads final states
BATCH = 4096


def kernel_random_rounds(variant: Variant, n: int, seed: int) -> Iterator[tuple[State, int]]:
    """``random_rounds(variant, n, seed)`` on the kernel: the same rounds, each its final
    state and its number of moves."""
    stream = KernelRounds(variant, seed)
    left = n
    while left > 0:
        k = min(BATCH, left)
        finals, lengths = stream.finals(k)
        for i in range(k):
            yield state_of(stream.tb, finals[i]), int(lengths[i])
        left -= k


__all__ = ["BATCH", "MAX_REDEALS", "KernelRounds", "kernel_random_rounds", "mt_state", "rand"]
