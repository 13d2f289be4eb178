"""The layout, compiled: the slots' questions of the rules, read from the variant's table.

A part of the kernel's reading of the rules (:mod:`.rules`), as ``model/layout.py``'s
:class:`~dominoproof.model.layout.Layout` is of the specification's: who may play on a
slot (access rules and markers), slots that wait for others to be covered (a spinner's
arms), pending slots of doubles that take tiles, toes, and the canonical order of
symmetric groups -- each a row of the table (:mod:`.tables`), none written for one
topology -- with the tile masks of a frame the rules read them through.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit, njit_inline
from .tables import (
    ACCESS_EVERYONE,
    ACCESS_MARKER,
    ACCESS_MARKERS,
    ACCESS_STARTED,
    BITS,
    F_ENDS,
    F_MARKS,
    F_TALLY,
    FIVES,
    LEAD_TAKES,
    MARKERS,
    MATCH,
    MW,
    NGROUPS,
    NTOES,
    O_ACCESS,
    O_AFTER,
    O_ALLOWED,
    O_COVERED,
    O_FITS,
    O_GROUP,
    O_GSLOTS,
    O_GSTART,
    O_HALF,
    O_OPENS,
    O_OWNER,
    O_SUIT,
    O_TAKES,
    O_TOES,
    OPENS_LEAD,
    OPENS_SPINNER,
    PENDING,
    PLAIN,
    W,
)

_DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
_CTZ = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _CTZ[((((1 << _i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58) & 63] = _i


@njit
def ctz(x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of ``x > 0``."""
    return _CTZ[(((x & -x) * _DEBRUIJN) >> 58) & 63]


@njit
def popcount(x):  # type: ignore[no-untyped-def]
    """The number of set bits of ``x >= 0``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# -- Tile masks (words of BITS bits) ---------------------------------------------------


@njit_inline
def has_tile(K, f, off, t):  # type: ignore[no-untyped-def]
    return (f[off + t // BITS] >> (t % BITS)) & 1


@njit
def empty(K, f, off):  # type: ignore[no-untyped-def]
    for w in range(K[MW]):
        if f[off + w] != 0:
            return False
    return True


@njit_inline
def _meets_row(K, f, off, row):  # type: ignore[no-untyped-def]
    """The mask at ``off`` shares a tile with the table's mask at ``row``."""
    for w in range(K[MW]):
        if f[off + w] & K[row + w]:
            return True
    return False


@njit
def meets_fits(K, f, off, v):  # type: ignore[no-untyped-def]
    """The mask at ``off`` holds a tile that may be laid on an end showing ``v`` (R2.1:
    carrying ``v``, or under Matador summing with it to N+1, or a matador)."""
    return _meets_row(K, f, off, K[O_FITS] + v * K[MW])


@njit
def shows(K, a, b, x, leaves):  # type: ignore[no-untyped-def]
    """R2.1: what an end showing ``x`` shows once ``a-b`` is laid on it: the other half;
    under Matador (``MATCH`` = N+1) a matador turned either way shows the half its play
    ``leaves`` (>= 0), any other tile the half not summing with ``x`` to N+1."""
    if leaves >= 0:
        return leaves
    total = K[MATCH]
    if total == 0:
        return b if x == a else a
    return b if a + x == total else a


@njit
def meets_suit(K, f, off, v):  # type: ignore[no-untyped-def]
    """The mask at ``off`` holds a tile carrying ``v`` (R2.1)."""
    return _meets_row(K, f, off, K[O_SUIT] + v * K[MW])


# -- The layout (model/layout.py's Layout) ---------------------------------------------


@njit
def marker_out(K, marks, seat):  # type: ignore[no-untyped-def]
    m = K[MARKERS]
    return m >= 0 and (marks >> (m + seat)) & 1 == 1


@njit_inline
def with_marker(K, marks, seat, out):  # type: ignore[no-untyped-def]
    m = K[MARKERS]
    if m < 0:
        return marks
    bit = np.int64(1) << (m + seat)
    return marks | bit if out else marks & ~bit


@njit
def covered(K, marks, slot):  # type: ignore[no-untyped-def]
    b = K[K[O_COVERED] + slot]
    return b >= 0 and (marks >> b) & 1 == 1


@njit
def pending_mask(K, marks):  # type: ignore[no-untyped-def]
    p = K[PENDING]
    if p < 0:
        return np.int64(0)
    return (marks >> p) & ((np.int64(1) << K[W]) - 1)


@njit
def with_pending(K, marks, mask):  # type: ignore[no-untyped-def]
    p = K[PENDING]
    if p < 0:
        return marks
    full = ((np.int64(1) << K[W]) - 1) << p
    return (marks & ~full) | (mask << p)


@njit
def _pbit(K, marks, slot):  # type: ignore[no-untyped-def]
    p = K[PENDING]
    return (marks >> (p + slot)) & 1 if p >= 0 else 0


@njit
def _cbit(K, marks, slot):  # type: ignore[no-untyped-def]
    b = K[K[O_COVERED] + slot]
    return (marks >> b) & 1 if b >= 0 else 0


@njit
def may_play(K, slot, player, marks):  # type: ignore[no-untyped-def]
    """R2.3: ``player`` may play on ``slot``: the slots it waits for are covered, and its
    access rule lets them (``Layout.may_play``)."""
    after = K[K[O_AFTER] + slot]
    while after:
        j = ctz(after)
        after &= after - 1
        if not covered(K, marks, j):
            return False
    access = K[K[O_ACCESS] + slot]
    owner = K[K[O_OWNER] + slot]
    if access == ACCESS_EVERYONE or owner == player:
        return True
    if access == ACCESS_STARTED:  # the player's own train has had a tile laid on it
        for j in range(K[W]):
            if K[K[O_OWNER] + j] == player and covered(K, marks, j):
                return True
        return False
    if access == ACCESS_MARKERS and marker_out(K, marks, player):
        return True
    # the owner's marker opens the train (ACCESS_MARKER, ACCESS_MARKERS are 2 and 3)
    return (ACCESS_MARKER <= access <= ACCESS_MARKERS and owner >= 0
            and marker_out(K, marks, owner))


@njit
def targets(K, f, player):  # type: ignore[no-untyped-def]
    """The open slots ``player`` may play on, as a mask of slots: only pending ones while
    a double takes its tiles, one per symmetric group and number (``Layout.targets``)."""
    w = K[W]
    e = K[F_ENDS]
    marks = f[K[F_MARKS]]
    allowed = np.int64(0)
    if marks == 0:
        allowed = K[K[O_ALLOWED] + player]  # may_play with no mark set
    else:
        for i in range(w):
            if may_play(K, i, player, marks):
                allowed |= np.int64(1) << i
        pend = pending_mask(K, marks)
        if pend:
            allowed &= pend
    out = np.int64(0)
    gof = K[O_GROUP]
    plain = K[PLAIN] != 0
    tally = K[F_TALLY] if K[FIVES] else -1  # R5.7: slots counted differently differ
    while allowed:
        i = ctz(allowed)
        allowed &= allowed - 1
        v = f[e + i]
        if v < 0:
            continue
        g = K[gof + i]
        same = False
        if g >= 0:
            a, b = K[K[O_GSTART] + g], K[K[O_GSTART] + g + 1]
            for x in range(a, b):
                j = K[K[O_GSLOTS] + x]
                if j < i and f[e + j] == v and (plain or (
                        _pbit(K, marks, i) == _pbit(K, marks, j)
                        and _cbit(K, marks, i) == _cbit(K, marks, j))) and (
                        tally < 0 or f[tally + i] == f[tally + j]):
                    same = True
                    break
        if not same:
            out |= np.int64(1) << i
    return out


@njit
def canonical(K, f, scr):  # type: ignore[no-untyped-def]
    """Sort each symmetric group's slots by the number they show, closed last, each
    slot's marks going with it (``Layout.canonical``), in place; where plays score (R5.7)
    each slot's weight too, slots alike but for it sorted by weight. ``scr``: scratch."""
    ng = K[NGROUPS]
    if ng == 0:
        return
    e = K[F_ENDS]
    mk = K[F_MARKS]
    pend = K[PENDING]
    gs = K[O_GSLOTS]
    fives = K[FIVES] != 0
    if K[PLAIN] and not fives:
        sort_plain(K, f, ng)
        return
    tally = K[F_TALLY]
    for g in range(ng):
        a, b = K[K[O_GSTART] + g], K[K[O_GSTART] + g + 1]
        n = b - a
        marks = f[mk]
        # order[0..n): positions within the group, stably sorted by their keys
        for x in range(n):
            i = K[gs + a + x]
            v = f[e + i]
            closed = 1 if v < 0 else 0
            scr[n + x] = (((closed * 64 + v + 1) * 2 + _pbit(K, marks, i)) * 2
                          + _cbit(K, marks, i)) * 4 + (f[tally + i] if fives else 0)
            scr[x] = x
        moved = False
        for x in range(1, n):
            y = x
            while y > 0 and scr[n + scr[y - 1]] > scr[n + scr[y]]:
                scr[y - 1], scr[y] = scr[y], scr[y - 1]
                y -= 1
                moved = True
        if not moved:
            continue
        for x in range(n):
            scr[2 * n + x] = f[e + K[gs + a + x]]
            if fives:
                scr[3 * n + x] = f[tally + K[gs + a + x]]
        new = marks
        for x in range(n):
            dest = K[gs + a + x]
            src = K[gs + a + scr[x]]
            f[e + dest] = scr[2 * n + scr[x]]
            if fives:
                f[tally + dest] = scr[3 * n + scr[x]]
            if pend >= 0:
                bit = np.int64(1) << (pend + dest)
                new = new | bit if _pbit(K, marks, src) else new & ~bit
            cd = K[K[O_COVERED] + dest]
            if cd >= 0:
                bit = np.int64(1) << cd
                new = new | bit if _cbit(K, marks, src) else new & ~bit
        f[mk] = new


@njit_inline
def sort_plain(K, f, ng):  # type: ignore[no-untyped-def]
    """:func:`canonical` where no mark belongs to a slot: each group's numbers sorted in
    place, closed slots last (equal numbers are alike, so the order of ties is moot)."""
    e = K[F_ENDS]
    gs = K[O_GSLOTS]
    for g in range(ng):
        a, b = K[K[O_GSTART] + g], K[K[O_GSTART] + g + 1]
        for x in range(a + 1, b):
            y = x
            while y > a:
                i, j = e + K[gs + y - 1], e + K[gs + y]
                u, v = f[i], f[j]
                if (v < 0 or u <= v) and not (u < 0 and v >= 0):
                    break
                f[i], f[j] = v, u
                y -= 1


@njit
def open_layout(K, f, a, b, scr):  # type: ignore[no-untyped-def]
    """The slots after the opening tile ``a-b`` (``Layout.open``): the lead's slots show
    its halves; a double opens the spinner's arms and takes its tiles where the layout
    says so."""
    w = K[W]
    e = K[F_ENDS]
    for i in range(w):
        opens = K[K[O_OPENS] + i]
        if opens == OPENS_LEAD:
            f[e + i] = b if K[K[O_HALF] + i] else a
        elif opens == OPENS_SPINNER and a == b:
            f[e + i] = a
        else:
            f[e + i] = -1
    if a == b and K[LEAD_TAKES]:
        opened = np.int64(0)
        for i in range(w):
            if f[e + i] >= 0:
                opened |= np.int64(1) << i
        f[K[F_MARKS]] = with_pending(K, f[K[F_MARKS]], opened)
    canonical(K, f, scr)


@njit
def extend_layout(K, f, slot, a, b, player, scr, leaves):  # type: ignore[no-untyped-def]
    """The slots after ``player`` lays ``a-b`` on ``slot`` (``Layout.extend``): it shows the
    other half, is covered and no longer pending; a double that takes tiles makes its
    slot and the toes it opens pending; a play on one's own train takes one's marker in."""
    e = K[F_ENDS]
    mk = K[F_MARKS]
    x = f[e + slot]
    f[e + slot] = shows(K, a, b, x, leaves)
    marks = f[mk]
    cb = K[K[O_COVERED] + slot]
    if cb >= 0:
        marks |= np.int64(1) << cb
    pend = pending_mask(K, marks) & ~(np.int64(1) << slot)
    takes = K[K[O_TAKES] + slot]
    if a == b and takes and not pend:
        pend = np.int64(1) << slot
        left = takes - 1
        for x in range(K[NTOES]):
            if left <= 0:
                break
            i = K[K[O_TOES] + x]
            if f[e + i] < 0:
                f[e + i] = a
                pend |= np.int64(1) << i
                left -= 1
    marks = with_pending(K, marks, pend)
    if K[K[O_OWNER] + slot] == player:
        marks = with_marker(K, marks, player, False)
    f[mk] = marks
    canonical(K, f, scr)


@njit
def led(K, f):  # type: ignore[no-untyped-def]
    """The lead has been played: some slot is open."""
    e = K[F_ENDS]
    for i in range(K[W]):
        if f[e + i] >= 0:
            return True
    return False
