"""The rules, compiled: ``Next`` and its effects on frames, read from the variant's table.

This is a third reading of SEMANTICS.md "Actions" (after ``model/rules.py``'s named
actions and ``model/fast.py``'s fast path), written for numba: every function takes the
variant's table ``K`` (:mod:`.tables`) and works on frames, ``int64`` arrays holding a
state's fields. Each function follows one function of the specification's reading and
names it; the moves come in the same order as :meth:`Rules.moves
<dominoproof.model.rules.Rules.moves>` (so a graph's edges keep their labels), and each
successor is the state the named action's effect gives. The conformance suite holds it
to the rules on every state of the small configurations (the "kernel" oracle of
``proofs/conformance.py``).

A move is one ``int64``: ``kind | player << 3 | (tile + 1) << 8 | (end + 1) << 16``
(:func:`move_code`; ``tile`` -1 for none, ``end`` -1 for the lead).

The layout is read from the slot data (Terms "Layout", R2.2, R2.3): who may play on a
slot (access rules and markers), slots that wait for others to be covered (a spinner's
arms), pending slots of doubles that take tiles, toes, playing again after such a double,
and the canonical order of symmetric groups -- each a row of the table, none written for
one topology (``model/layout.py``, :class:`~dominoproof.model.layout.Layout`).
"""

from __future__ import annotations

import numpy as np

from ._jit import njit, njit_inline
from .tables import (
    ACCESS_EVERYONE,
    ACCESS_MARKER,
    AGAIN,
    BITS,
    BLOCKED,
    DOMINO,
    DRAW,
    DRAW_NONE,
    DRAW_ONE,
    EMPTY,
    F_BONE,
    F_CONF,
    F_DREW,
    F_ENDS,
    F_FOULS,
    F_MARKS,
    F_SIZE,
    F_STACK,
    F_STACKN,
    F_STATUS,
    F_TABLE,
    F_TURN,
    FALLBACK,
    FB_HIGHEST,
    FB_PLAYER,
    FB_REDEAL,
    FOULS,
    LEAD,
    LEAD_BY_TILE,
    LEAD_PLAYER,
    LEAD_TAKES,
    LEAD_TILE,
    LEADER,
    MARKERS,
    MW,
    NGROUPS,
    NTOES,
    O_ACCESS,
    O_AFTER,
    O_ALLOWED,
    O_COVERED,
    O_DOUBLES,
    O_GROUP,
    O_GSLOTS,
    O_GSTART,
    O_HALF,
    O_HI,
    O_LO,
    O_NEXT,
    O_OPENS,
    O_OWNER,
    O_SUIT,
    O_TAKES,
    O_TOES,
    O_VALUE,
    OPENS_LEAD,
    OPENS_SPINNER,
    PENDING,
    PLAIN,
    PLAYING,
    READING,
    SIMPLE,
    C,
    N,
    P,
    T,
    W,
)

# move kinds (model.moves.MoveKind)
PLAY, DRAW_M, PASS, CONFIRM, ESTABLISH, DOMINO_M = 0, 1, 2, 3, 4, 5

_DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
_CTZ = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _CTZ[((((1 << _i) * 0x03F79D71B4CB0A89) & ((1 << 64) - 1)) >> 58) & 63] = _i


@njit
def ctz(x):  # type: ignore[no-untyped-def]
    """The index of the lowest set bit of ``x > 0``."""
    return _CTZ[(((x & -x) * _DEBRUIJN) >> 58) & 63]


@njit_inline
def move_code(kind: int, player: int, tile: int, end: int) -> int:
    return kind | player << 3 | (tile + 1) << 8 | (end + 1) << 16


@njit
def move_kind(m: int) -> int:
    return m & 7


@njit
def move_player(m: int) -> int:
    return (m >> 3) & 31


@njit
def move_tile(m: int) -> int:
    return ((m >> 8) & 255) - 1


@njit
def move_end(m: int) -> int:
    return ((m >> 16) & 255) - 1


# ---------------------------------------------------------------------------
# Tile masks (words of BITS bits)
# ---------------------------------------------------------------------------


@njit_inline
def has_tile(K, f, off, t):  # type: ignore[no-untyped-def]
    return (f[off + t // BITS] >> (t % BITS)) & 1


@njit
def empty(K, f, off):  # type: ignore[no-untyped-def]
    for w in range(K[MW]):
        if f[off + w] != 0:
            return False
    return True


@njit
def meets_suit(K, f, off, v):  # type: ignore[no-untyped-def]
    """The mask at ``off`` holds a tile carrying ``v`` (R2.1)."""
    mw = K[MW]
    s = K[O_SUIT] + v * mw
    for w in range(mw):
        if f[off + w] & K[s + w]:
            return True
    return False


# ---------------------------------------------------------------------------
# The layout (model/layout.py's Layout)
# ---------------------------------------------------------------------------


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
    return access == ACCESS_MARKER and owner >= 0 and marker_out(K, marks, owner)


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
                        and _cbit(K, marks, i) == _cbit(K, marks, j))):
                    same = True
                    break
        if not same:
            out |= np.int64(1) << i
    return out


@njit
def canonical(K, f, scr):  # type: ignore[no-untyped-def]
    """Sort each symmetric group's slots by the number they show, closed last, each
    slot's marks going with it (``Layout.canonical``), in place. ``scr``: scratch."""
    ng = K[NGROUPS]
    if ng == 0:
        return
    e = K[F_ENDS]
    mk = K[F_MARKS]
    pend = K[PENDING]
    gs = K[O_GSLOTS]
    if K[PLAIN]:
        _sort_plain(K, f, ng)
        return
    for g in range(ng):
        a, b = K[K[O_GSTART] + g], K[K[O_GSTART] + g + 1]
        n = b - a
        marks = f[mk]
        # order[0..n): positions within the group, stably sorted by their keys
        for x in range(n):
            i = K[gs + a + x]
            v = f[e + i]
            closed = 1 if v < 0 else 0
            scr[n + x] = ((closed * 64 + v + 1) * 2 + _pbit(K, marks, i)) * 2 \
                + _cbit(K, marks, i)
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
        new = marks
        for x in range(n):
            dest = K[gs + a + x]
            src = K[gs + a + scr[x]]
            f[e + dest] = scr[2 * n + scr[x]]
            if pend >= 0:
                bit = np.int64(1) << (pend + dest)
                new = new | bit if _pbit(K, marks, src) else new & ~bit
            cd = K[K[O_COVERED] + dest]
            if cd >= 0:
                bit = np.int64(1) << cd
                new = new | bit if _cbit(K, marks, src) else new & ~bit
        f[mk] = new


@njit_inline
def _sort_plain(K, f, ng):  # type: ignore[no-untyped-def]
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
def extend_layout(K, f, slot, a, b, player, scr):  # type: ignore[no-untyped-def]
    """The slots after ``player`` lays ``a-b`` on ``slot`` (``Layout.extend``): it shows the
    other half, is covered and no longer pending; a double that takes tiles makes its
    slot and the toes it opens pending; a play on one's own train takes one's marker in."""
    e = K[F_ENDS]
    mk = K[F_MARKS]
    x = f[e + slot]
    f[e + slot] = b if x == a else a
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


# ---------------------------------------------------------------------------
# R2, R3, R1.1, R4.4 (model/rules.py's predicates)
# ---------------------------------------------------------------------------


@njit
def playable_any(K, f, player):  # type: ignore[no-untyped-def]
    """``playable_mask(s, player) != 0``: a tile of ``player``'s hand extends a slot they
    may play on (R2.1, R2.3); before the lead, any tile of the hand."""
    off = player * K[MW]
    if not led(K, f):
        return not empty(K, f, off)
    tm = targets(K, f, player)
    e = K[F_ENDS]
    while tm:
        i = ctz(tm)
        tm &= tm - 1
        if meets_suit(K, f, off, f[e + i]):
            return True
    return False


@njit
def ends_unplayable(K, f, reading):  # type: ignore[no-untyped-def]
    """R2 under a reading of R2.3: 0 "holds a matching tile" (no hand holds a tile carrying
    a number an open slot shows), 1 "has a legal move" (no player may play). Before the
    lead: False."""
    if not led(K, f):
        return False
    p = K[P]
    if reading == 0:
        e = K[F_ENDS]
        mw = K[MW]
        for i in range(K[W]):
            v = f[e + i]
            if v >= 0:
                for q in range(p):
                    if meets_suit(K, f, q * mw, v):
                        return False
        return True
    for q in range(p):
        if playable_any(K, f, q):
            return False
    return True


@njit_inline
def boneyard_supplies_nothing(K, f):  # type: ignore[no-untyped-def]
    """R3: the boneyard is empty (tiles set aside are not part of it)."""
    return empty(K, f, K[F_BONE])


@njit
def is_blocked(K, f):  # type: ignore[no-untyped-def]
    """R1.1 with R3.3: not a domino, every hand non-empty (R1.2), R2 (the variant's reading)
    and R3."""
    if f[K[F_STATUS]] == DOMINO:
        return False
    mw = K[MW]
    for q in range(K[P]):
        if empty(K, f, q * mw):
            return False
    return ends_unplayable(K, f, K[READING]) and boneyard_supplies_nothing(K, f)


@njit
def block_ready(K, f):  # type: ignore[no-untyped-def]
    """R4.4: enough consecutive confirmations, and the boneyard still empty."""
    return f[K[F_CONF]] >= K[C] and (not K[EMPTY] or empty(K, f, K[F_BONE]))


@njit_inline
def _holder(K, f, t):  # type: ignore[no-untyped-def]
    mw = K[MW]
    for q in range(K[P]):
        if has_tile(K, f, q * mw, t):
            return q
    return -1


@njit
def _highest_double(K, f):  # type: ignore[no-untyped-def]
    for v in range(K[N], -1, -1):
        t = K[K[O_DOUBLES] + v]
        q = _holder(K, f, t)
        if q >= 0:
            return q, t
    return -1, -1


@njit
def opening(K, f):  # type: ignore[no-untyped-def]
    """The leader and the tile they must lead with (-1: any), or (-2, -2) when the deal is
    void (``Rules.opening``)."""
    rule = K[LEAD]
    if rule == LEAD_PLAYER:
        return K[LEADER], -1
    if rule == LEAD_BY_TILE:
        q = _holder(K, f, K[LEAD_TILE]) if K[LEAD_TILE] >= 0 else -1
        if q >= 0:
            return q, K[LEAD_TILE]
    else:
        q, t = _highest_double(K, f)
        if q >= 0:
            return q, t
    fb = K[FALLBACK]
    if fb == FB_REDEAL:
        return -2, -2
    if fb == FB_PLAYER:
        return K[LEADER], -1
    if fb == FB_HIGHEST:
        q, t = _highest_double(K, f)
        if q >= 0:
            return q, t
    best, best_v = -1, -1
    mw = K[MW]
    for t in range(K[T]):
        held = False
        for q in range(K[P]):
            if has_tile(K, f, q * mw, t):
                held = True
                break
        if held:
            v = K[K[O_VALUE] + t]
            if v > best_v or (v == best_v and t > best):
                best, best_v = t, v
    if best < 0:
        return K[LEADER], -1
    return _holder(K, f, best), best


# ---------------------------------------------------------------------------
# Next: the guard cases in SEMANTICS's order, and the actions' effects
# ---------------------------------------------------------------------------


@njit
def gen_moves(K, f, out):  # type: ignore[no-untyped-def]
    """``Next``'s moves in ``f``, written to ``out`` in :meth:`Rules.moves`'s order; the
    number of moves."""
    if f[K[F_STATUS]] != PLAYING:
        return 0
    p = f[K[F_TURN]]
    mw = K[MW]
    hand = p * mw
    if empty(K, f, hand):
        out[0] = move_code(DOMINO_M, p, -1, -1)
        return 1
    if block_ready(K, f):
        out[0] = move_code(ESTABLISH, p, -1, -1)
        return 1
    if not led(K, f):
        leader, tile = opening(K, f)
        if leader != p:
            return 0
        if tile >= 0:
            out[0] = move_code(PLAY, p, tile, -1)
            return 1
        n = 0
        for w in range(mw):
            x = f[hand + w]
            while x:
                out[n] = move_code(PLAY, p, w * BITS + ctz(x), -1)
                n += 1
                x &= x - 1
        return n
    n = 0
    tm = targets(K, f, p)
    e = K[F_ENDS]
    suit = K[O_SUIT]
    while tm:
        i = ctz(tm)
        tm &= tm - 1
        s = suit + f[e + i] * mw
        for w in range(mw):
            x = f[hand + w] & K[s + w]
            while x:
                out[n] = move_code(PLAY, p, w * BITS + ctz(x), i)
                n += 1
                x &= x - 1
    bone_empty = empty(K, f, K[F_BONE])
    if n:
        if K[FOULS] and bone_empty and not (f[K[F_FOULS]] >> p) & 1:
            out[n] = move_code(CONFIRM, p, -1, -1)  # R4.5: a false declaration
            n += 1
        return n
    if not bone_empty and K[DRAW] != DRAW_NONE and not f[K[F_DREW]]:
        sn = f[K[F_STACKN]]
        if sn >= 0:
            out[0] = move_code(DRAW_M, p, f[K[F_STACK]], -1)
            return 1
        ob = K[F_BONE]
        for w in range(mw):
            x = f[ob + w]
            while x:
                out[n] = move_code(DRAW_M, p, w * BITS + ctz(x), -1)
                n += 1
                x &= x - 1
        return n
    if not bone_empty:
        out[0] = move_code(PASS, p, -1, -1)
        return 1
    out[0] = move_code(CONFIRM, p, -1, -1)
    return 1


@njit
def step(K, f, m, g, scr):  # type: ignore[no-untyped-def]
    """``g`` := the state after the legal move ``m`` in ``f`` (``Rules.step``: the effect of
    the move's action)."""
    for i in range(K[F_SIZE]):  # a loop: a slice copy compiles numba's shape checks
        g[i] = f[i]
    kind = m & 7
    p = (m >> 3) & 31
    t = ((m >> 8) & 255) - 1
    nxt = K[K[O_NEXT] + p]
    mk = K[F_MARKS]
    if kind == PLAY:
        end = ((m >> 16) & 255) - 1
        mw = K[MW]
        word, bit = t // BITS, np.int64(1) << (t % BITS)
        g[p * mw + word] &= ~bit
        g[K[F_TABLE] + word] |= bit
        a, b = K[K[O_LO] + t], K[K[O_HI] + t]
        if end < 0:
            open_layout(K, g, a, b, scr)
        elif K[SIMPLE]:  # extend_layout where the slots carry no marks and take nothing
            e = K[F_ENDS] + end
            g[e] = b if g[e] == a else a
            if K[NGROUPS]:
                _sort_plain(K, g, K[NGROUPS])
        else:
            extend_layout(K, g, end, a, b, p, scr)
        again = a == b and end >= 0 and K[AGAIN] and K[K[O_TAKES] + end] > 0
        g[K[F_TURN]] = nxt if (not empty(K, g, p * mw) and not again) else p
        g[K[F_CONF]] = 0
        g[K[F_DREW]] = 0
    elif kind == DRAW_M:
        mw = K[MW]
        word, bit = t // BITS, np.int64(1) << (t % BITS)
        g[p * mw + word] |= bit
        g[K[F_BONE] + word] &= ~bit
        g[K[F_DREW]] = 1 if K[DRAW] == DRAW_ONE else 0
        sn = f[K[F_STACKN]]
        if sn >= 0:
            st = K[F_STACK]
            for x in range(sn - 1):
                g[st + x] = f[st + x + 1]
            g[st + sn - 1] = 0
            g[K[F_STACKN]] = sn - 1
    elif kind == CONFIRM:
        if playable_any(K, f, p):  # R4.5: recorded as a foul
            g[K[F_FOULS]] = f[K[F_FOULS]] | (np.int64(1) << p)
            g[K[F_CONF]] = 0
        else:
            g[K[F_CONF]] = f[K[F_CONF]] + 1
        g[K[F_TURN]] = nxt
        g[K[F_DREW]] = 0
        g[mk] = with_marker(K, f[mk], p, True)
    elif kind == PASS:
        g[K[F_TURN]] = nxt
        g[K[F_DREW]] = 0
        g[K[F_CONF]] = 0 if K[EMPTY] else f[K[F_CONF]] + 1
        g[mk] = with_marker(K, f[mk], p, True)
    elif kind == ESTABLISH:
        g[K[F_STATUS]] = BLOCKED
    else:
        g[K[F_STATUS]] = DOMINO
