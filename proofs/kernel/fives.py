"""R5.7, compiled: scoring in play (All Fives, Muggins), read from the variant's table.

A part of the kernel's reading of the rules (:mod:`.rules`), stated here from the table's
``FIVES`` (the multiple a count must be to score: 5, or 0 where plays score nothing) and
the slot data, not from the specification's ``model/fives.py``: the two are tied by the
conformance tests. Where plays score, a frame holds from ``F_TALLY`` on each slot's
**weight** -- how many times the number it shows counts: 0 (closed, or a spinner's arm
with no tile on it yet), 1, or 2 (a double lies at that end, counted by both halves) --
then each seat's **points** in play. The weights go with their slots into the layout's
canonical form (:func:`.layout.canonical`), and two slots showing one number are one
target only where they count alike (:func:`.layout.targets`).

A play (the lead too) sets the weights of the slots it opens or covers, before the
layout's step puts them in canonical form (:func:`weigh`); then its player scores the
layout's count when it is a multiple of ``FIVES`` (:func:`score`).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .layout import ctz, popcount
from .tables import (
    BITS,
    F_ENDS,
    F_TABLE,
    F_TALLY,
    FIVES,
    MW,
    O_HI,
    O_LO,
    O_OPENS,
    OPENS_LEAD,
    W,
)


@njit
def _lone_double(K, f):  # type: ignore[no-untyped-def]
    """The table of ``f`` holds one tile, and it is a double (the opening double)."""
    tile, held = -1, 0
    table = K[F_TABLE]
    for w in range(K[MW]):
        x = f[table + w]
        held += popcount(x)
        if x:
            tile = w * BITS + ctz(x)
    return held == 1 and K[K[O_LO] + tile] == K[K[O_HI] + tile]


@njit
def weigh(K, f, g, end, a, b):  # type: ignore[no-untyped-def]
    """``g``'s weights once ``a-b`` is laid on slot ``end`` of ``f`` (-1: the lead), its
    slots not yet in canonical form. The lead: each slot the lead opens counts once (a
    lone opening double its pips once, by its two halves), a spinner's arms not at all
    until a tile is on them. A play: its slot counts once, twice where the tile is a
    double; a play on a lone opening double leaves its other half a double at an end."""
    tally = K[F_TALLY]
    if end < 0:
        for i in range(K[W]):
            g[tally + i] = 1 if K[K[O_OPENS] + i] == OPENS_LEAD else 0
        return
    g[tally + end] = 2 if a == b else 1
    if _lone_double(K, f):
        for i in range(K[W]):
            if i != end and K[K[O_OPENS] + i] == OPENS_LEAD and g[tally + i]:
                g[tally + i] = 2


@njit
def count(K, f):  # type: ignore[no-untyped-def]
    """The layout's count: each open slot's number times its weight."""
    e, tally = K[F_ENDS], K[F_TALLY]
    total = np.int64(0)
    for i in range(K[W]):
        if f[e + i] >= 0:
            total += f[e + i] * f[tally + i]
    return total


@njit
def score(K, g, player):  # type: ignore[no-untyped-def]
    """``player``, who has just played, scores ``g``'s count where it is a multiple of
    ``FIVES``: the count itself (5, 10, 15 ...)."""
    c = count(K, g)
    if c % K[FIVES] == 0:
        g[K[F_TALLY] + K[W] + player] += c
