"""Guided rounds on the kernel, their moves recorded: the witness search's play-outs.

The witness search (``proofs/analysis/witness_search.py``, :func:`play_rounds`) plays seeded
deals to the end under a guiding policy and keeps each round's moves, so that the round
it keeps replays in the engine. This module plays the same rounds in compiled code:

* the deal is :func:`.playout.deal` (``shuffled_deal``'s, from the same
  ``random.Random(seed)`` stream);
* each move is :func:`dominoproof.proofs.analysis.policies.pick`'s: the only legal move; a uniform
draw
  ``moves[int(random() * k)]`` under the uniform policy or at a chance step (every legal
  move a draw, R3.1); otherwise the policy's whole weights, ``x = int(random() * sum)``
  and the move whose weight interval holds ``x``.

The weights are the policies' own definitions, read from the same table (tile values
are the variant's R5.3 values as the kernel's table states them):

=================  ====================================================================
:data:`UNIFORM`    every legal move 1 (``random``)
:data:`BLOCKING`   ``block-seeking``: among the plays, those whose successor leaves the
                   most opponents (seats of another side) with no playable tile
                   (``playable_any``), then the fewest tiles in any hand carrying a
                   number an open slot shows (``Rules.matching_mask``); 1 each, else 0
:data:`LIGHTEST`   ``lightest``: the plays of the lightest playable tile, 1 each
:data:`GREEDY`     ``greedy``: the plays of the heaviest playable tile, 1 each
=================  ====================================================================

Where no legal move is a play, every weight is 1 (a forced move). The same seed and
policy give the same deals, moves and final states as the Python path, move for move
(``tests/test_witness_kernel.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import Move
from dominoproof.model.params import Compare
from dominoproof.model.state import Deal, State
from dominoproof.model.variant import Variant

from ._jit import njit
from .book import decode_move
from .layout import popcount
from .playout import MAX_REDEALS, deal, mt_state, rand
from .rules import DRAW_M, PLAY, gen_moves, playable_any, step
from .tables import (
    F_ENDS,
    F_STATUS,
    MAXMOVES,
    MW,
    O_FITS,
    O_VALUE,
    PLAYING,
    P,
    W,
    state_of,
    tables_for,
)

#: the policies the kernel plays (codes of :func:`weights`)
UNIFORM, BLOCKING, LIGHTEST, GREEDY = 0, 1, 2, 3
#: the codes by the policies' names (``dominoproof.proofs.analysis.policies``,
#: ``witness_search.Lightest``)
POLICY_CODES = {"random": UNIFORM, "block-seeking": BLOCKING, "lightest": LIGHTEST,
                "greedy": GREEDY}
#: a round longer than its room in the record: played again with more room
OVERFLOW = -2
#: a score (a, b) of :func:`weights` as the number ``a * KEY + b`` (``|b|`` is at most T)
KEY = 1 << 20


@njit
def matching_count(K, f):  # type: ignore[no-untyped-def]
    """``Rules.matching_mask(s).bit_count()``: tiles in any hand carrying a number an open
    slot shows (R2.1), whoever may play there."""
    mw, p, e = K[MW], K[P], K[F_ENDS]
    n = 0
    for w in range(mw):
        held = np.int64(0)
        for q in range(p):
            held |= f[q * mw + w]
        suits = np.int64(0)
        for i in range(K[W]):
            v = f[e + i]
            if v >= 0:
                suits |= K[K[O_FITS] + v * mw + w]
        n += popcount(held & suits)
    return n


@njit
def weights(K, f, moves, k, policy, side, after, scr, out):  # type: ignore[no-untyped-def]
    """``out[:k]`` := the policy's whole weight of each of the ``k`` legal ``moves`` of
    ``f`` (``Policy.weights``); the sum. ``side``: each seat's side (R5.5 teams);
    ``after``: a scratch frame."""
    if policy == UNIFORM:
        for j in range(k):
            out[j] = 1
        return k
    found = False
    best_a = 0
    best_b = 0
    for j in range(k):
        m = moves[j]
        out[j] = 0
        if m & 7 != PLAY:
            continue
        t = ((m >> 8) & 255) - 1
        if policy == BLOCKING:
            step(K, f, m, after, scr)
            q0 = (m >> 3) & 31
            a = 0
            for q in range(K[P]):
                if side[q] != side[q0] and not playable_any(K, after, q):
                    a += 1
            b = -matching_count(K, after)
        else:  # LIGHTEST, GREEDY: the tile's value, lowest or highest first
            a = -K[K[O_VALUE] + t] if policy == LIGHTEST else K[K[O_VALUE] + t]
            b = 0
        out[j] = a * KEY + b  # the score (a, b) as one number: |b| < KEY
        if not found or a > best_a or (a == best_a and b > best_b):
            found, best_a, best_b = True, a, b
    if not found:  # no play: the move is forced, every move alike
        for j in range(k):
            out[j] = 1
        return k
    top = best_a * KEY + best_b
    total = 0
    for j in range(k):
        out[j] = 1 if (moves[j] & 7 == PLAY and out[j] == top) else 0
        total += out[j]
    return total


@njit
def pick(K, mt, f, moves, k, policy, side, after, scr, w):  # type: ignore[no-untyped-def]
    """``dominoproof.proofs.analysis.policies.pick``: one of the ``k`` legal moves, drawn from
    ``mt``."""
    if k == 1:
        return moves[0]
    if policy == UNIFORM or moves[0] & 7 == DRAW_M:
        return moves[int(rand(mt) * k)]
    total = weights(K, f, moves, k, policy, side, after, scr, w)
    x = int(rand(mt) * total)
    for j in range(k):
        if x < w[j]:
            return moves[j]
        x -= w[j]
    return moves[k - 1]  # not reached: the weights sum to ``total``


@njit
def guided_rounds(K, mt, n, policy, side, starts, finals, lengths, record, f, g,  # type: ignore[no-untyped-def]
                  after, moves, w, scr, keys, order):
    """``n`` rounds from the stream ``mt`` under ``policy``: each round's Init frame to
    ``starts``, final frame to ``finals``, length to ``lengths``, and its moves one after
    another in ``record``. Returns the rounds played, -1 (a void deal stream or a stuck
    state) or :data:`OVERFLOW` (``record`` too small: the stream is then spent, so the
    caller starts again from a copy with more room)."""
    off = 0
    status = K[F_STATUS]
    for r in range(n):
        if not deal(K, mt, f, keys, order):
            return -1
        for i in range(f.shape[0]):  # loops: a slice copy would need numba's runtime
            starts[r, i] = f[i]
        a, b = f, g
        m_n = 0
        while a[status] == PLAYING:
            k = gen_moves(K, a, moves)
            if k == 0:
                return -1
            m = pick(K, mt, a, moves, k, policy, side, after, scr, w)
            if off >= record.shape[0]:
                return OVERFLOW
            record[off] = m
            off += 1
            step(K, a, m, b, scr)
            a, b = b, a
            m_n += 1
        for i in range(a.shape[0]):
            finals[r, i] = a[i]
        lengths[r] = m_n
    return n


class GuidedRounds:
    """Rounds of one seeded stream under one kernel policy, as the witness search's
    :data:`~dominoproof.proofs.analysis.witness_search.Round`: (deal, moves, final state)."""

    def __init__(self, variant: Variant, policy: int, seed: int, room: int = 1 << 16) -> None:
        self.variant, self.policy = variant, policy
        self.tb = tb = tables_for(variant)
        self.mt = mt_state(random.Random(seed))
        pt = variant.partnerships  # R5.2: the sides are the teams, or one per seat
        sides = pt.teams if pt.compare is Compare.TEAM else [(q,) for q in range(tb.players)]
        side_of = {q: i for i, team in enumerate(sides) for q in team}
        self.side = np.array([side_of[q] for q in range(variant.players)], dtype=np.int64)
        self.room = room
        fr = tb.frame
        self._f, self._g, self._after = (np.zeros(fr, dtype=np.int64) for _ in range(3))
        self._moves = np.zeros(int(tb.k[MAXMOVES]), dtype=np.int64)
        self._w = np.zeros(int(tb.k[MAXMOVES]), dtype=np.int64)
        self._scr = tb.scratch()
        self._keys = np.zeros(tb.tiles, dtype=np.float64)
        self._order = np.zeros(tb.tiles, dtype=np.int64)
        self._codes: dict[int, Move] = {}

    def play(self, n: int) -> Iterator[tuple[Deal, tuple[Move, ...], State]]:
        """The next ``n`` rounds of the stream."""
        tb = self.tb
        starts, finals = tb.empty_frames(n), tb.empty_frames(n)
        lengths = np.zeros(n, dtype=np.int64)
        while True:
            mt = self.mt.copy()
            record = np.zeros(self.room, dtype=np.int64)
            got = guided_rounds(tb.k, mt, n, self.policy, self.side, starts, finals, lengths,
                                record, self._f, self._g, self._after, self._moves, self._w,
                                self._scr, self._keys, self._order)
            if got != OVERFLOW:
                break
            self.room *= 4
        if got < 0:
            raise DominoproofError(f"{self.variant.name}: {MAX_REDEALS} void deals in a row "
                                   "(the lead rule cannot be met), or a round with no legal "
                                   "move before its end")
        self.mt = mt
        codes = record[:int(lengths.sum())].tolist()
        known = self._codes
        for m in set(codes).difference(known):
            known[m] = decode_move(m)
        move = known.__getitem__
        off = 0
        for r in range(n):
            first = state_of(tb, starts[r])
            k = int(lengths[r])
            moves = tuple(map(move, codes[off:off + k]))
            off += k
            yield (Deal(first.hands, first.stack or (), first.set_aside), moves,
                   state_of(tb, finals[r]))


__all__ = ["BLOCKING", "GREEDY", "LIGHTEST", "POLICY_CODES", "UNIFORM", "GuidedRounds",
           "guided_rounds", "matching_count", "pick", "weights"]
