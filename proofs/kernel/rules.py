"""The rules, compiled: ``Next`` and its effects on frames, read from the variant's table.

This is a third reading of SEMANTICS.md "Actions" (after ``model/rules.py``'s named
actions and ``model/fast.py``'s fast path), written for numba: every function takes the
variant's table ``K`` (:mod:`.tables`) and works on frames, ``int64`` arrays holding a
state's fields. Each function follows one function of the specification's reading and
names it; the moves come in the same order as :meth:`Rules.moves
<dominoproof.model.spec.Rules.moves>` (so a graph's edges keep their labels), and each
successor is the state the named action's effect gives. The conformance suite holds it
to the rules on every state of the small configurations (the "kernel" oracle of
``proofs/conformance.py``).

A move is one ``int64``: ``kind | player << 3 | (tile + 1) << 8 | (end + 1) << 16``
(:func:`move_code`; ``tile`` -1 for none, ``end`` -1 for the lead).

The layout is read from the slot data (Terms "Layout", R2.2, R2.3) by :mod:`.layout`;
playing again after a double that takes tiles is read here, from the same table.
"""

from __future__ import annotations

import numpy as np

from . import fives
from ._jit import njit, njit_inline
from .layout import (
    covered,
    ctz,
    empty,
    extend_layout,
    has_tile,
    led,
    meets_fits,
    open_layout,
    pending_mask,
    shows,
    sort_plain,
    targets,
    with_marker,
)
from .tables import (
    AGAIN,
    BITS,
    BLOCKED,
    CALL,
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
    FB_DRAW,
    FB_HIGHEST,
    FB_PLAYER,
    FB_REDEAL,
    FIRST_BIT,
    FIRST_TURN,
    FIVES,
    FOULS,
    LEAD,
    LEAD_BY_TILE,
    LEAD_PLAYER,
    LEAD_TILE,
    LEADER,
    MATCH,
    MW,
    NGROUPS,
    O_DOUBLES,
    O_FITS,
    O_HI,
    O_LO,
    O_NEXT,
    O_OWNER,
    O_TAKES,
    O_VALUE,
    OUT_COVERED,
    PLAYING,
    READING,
    RESTART,
    SEEK,
    SIMPLE,
    WHEN_ANY,
    C,
    N,
    P,
    T,
    W,
)

# move kinds (model.moves.MoveKind)
PLAY, DRAW_M, PASS, CONFIRM, ESTABLISH, DOMINO_M = 0, 1, 2, 3, 4, 5

@njit_inline
def move_code(kind: int, player: int, tile: int, end: int) -> int:
    return kind | player << 3 | (tile + 1) << 8 | (end + 1) << 16


@njit_inline
def leaves_of(m: int) -> int:
    """The number a move code's play leaves its end showing, where its player turned a
    matador (R2.1, Matador: bits 24-31 hold it plus one); -1 (``ONE_WAY``) otherwise."""
    return ((m >> 24) & 255) - 1


@njit_inline
def _plays_of(K, out, n, x, base, player, end):  # type: ignore[no-untyped-def]
    """``out[n:]`` := the plays by ``player`` on ``end`` of each tile of the word ``x``
    (tile ``base`` + its bit), lowest first; under Matador (``MATCH`` = N+1) a matador
    whose halves differ is turned either way, two plays, low half left showing first
    (R2.1); the new count."""
    total = K[MATCH]
    while x:
        t = base + ctz(x)
        a, b = K[K[O_LO] + t], K[K[O_HI] + t]
        code = move_code(PLAY, player, t, end)
        if total and a != b and a + b == total:
            out[n] = code | (a + 1) << 24
            out[n + 1] = code | (b + 1) << 24
            n += 2
        else:
            out[n] = code
            n += 1
        x &= x - 1
    return n


@njit_inline
def _moves_of(out, n, x, base, kind, player, end):  # type: ignore[no-untyped-def]
    """``out[n:]`` := a move ``kind`` by ``player`` on ``end`` for each tile of the word
    ``x`` (tile ``base`` + its bit), lowest first; the new count."""
    while x:
        out[n] = move_code(kind, player, base + ctz(x), end)
        n += 1
        x &= x - 1
    return n


# -- R2, R3, R1.1, R4.4 (model/rules.py's predicates) ----------------------------------


@njit
def last_double(K, f, player):  # type: ignore[no-untyped-def]
    """R2.2: where a double that would wait is no player's last tile (OUT_COVERED), the
    double that is ``player``'s only tile; else -1."""
    if not K[OUT_COVERED]:
        return -1
    off, t = player * K[MW], -1
    for w in range(K[MW]):
        x = f[off + w]
        if x:
            if t >= 0 or x & (x - 1):
                return -1  # two tiles or more
            t = w * BITS + ctz(x)
    return t if t >= 0 and K[K[O_LO] + t] == K[K[O_HI] + t] else -1


@njit
def waits_out(K, f, t, i):  # type: ignore[no-untyped-def]
    """The double ``t`` (>= 0), laid on slot ``i``, would wait there to be covered: the
    slot's doubles take tiles and no other slot is pending (``Layout.bars_going_out``)."""
    if t < 0 or K[K[O_TAKES] + i] == 0:
        return False
    return pending_mask(K, f[K[F_MARKS]]) & ~(np.int64(1) << i) == 0


@njit
def playable_any(K, f, player):  # type: ignore[no-untyped-def]
    """``playable_mask(s, player) != 0``: a tile of ``player``'s hand extends a slot they
    may play on (R2.1, R2.3), but not a last double left to wait there (R2.2); before the
    lead, any tile of the hand."""
    off = player * K[MW]
    if not led(K, f):
        return not empty(K, f, off)
    tm = targets(K, f, player)
    e = K[F_ENDS]
    last = last_double(K, f, player)
    while tm:
        i = ctz(tm)
        tm &= tm - 1
        if meets_fits(K, f, off, f[e + i]) and not waits_out(K, f, last, i):
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
                    if meets_fits(K, f, q * mw, v):
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


@njit
def dead_end(K, f):  # type: ignore[no-untyped-def]
    """R4.7: an open slot shows a number every tile of which is on the table."""
    e, mw, table = K[F_ENDS], K[MW], K[F_TABLE]
    for i in range(K[W]):
        v = f[e + i]
        if v >= 0:
            s = K[O_FITS] + v * mw  # R4.7: every tile fitting it (R2.1) on the table
            whole = True
            for w in range(mw):
                if K[s + w] & ~f[table + w]:
                    whole = False
            if whole:
                return True
    return False


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
    void, or (``lead.player``, SEEK) when the players draw for the tile (R3.6)
    (``Rules.opening``)."""
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
    if fb == FB_DRAW:
        return K[LEADER], SEEK
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


# -- Next: the guard cases in SEMANTICS's order, and the actions' effects --------------


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
        if tile == SEEK:  # R3.6: nobody holds it: the player to move draws for it
            return 0 if empty(K, f, K[F_BONE]) else _draws(K, f, out, np.int64(0), p)
        if leader != p:
            return 0
        if tile >= 0:
            out[0] = move_code(PLAY, p, tile, -1)
            return 1
        n = 0
        for w in range(mw):
            n = _moves_of(out, n, f[hand + w], w * BITS, PLAY, p, -1)
        return n
    n0 = 0
    if K[CALL] and dead_end(K, f):  # R4.7: call the block, or go on as below
        out[0] = move_code(ESTABLISH, p, -1, -1)
        n0 = 1
    n = n0
    tm = targets(K, f, p)
    first = first_turn(K, f[K[F_MARKS]])  # R2.3: p's first turn goes on: own train only
    if first:
        for i in range(K[W]):
            if K[K[O_OWNER] + i] != p:
                tm &= ~(np.int64(1) << i)
    e = K[F_ENDS]
    suit = K[O_FITS]  # R2.1: the tiles that may be laid on each number
    last = last_double(K, f, p)  # R2.2: a last double that would wait is no play
    while tm:
        i = ctz(tm)
        tm &= tm - 1
        if waits_out(K, f, last, i):
            continue
        s = suit + f[e + i] * mw
        for w in range(mw):
            n = _plays_of(K, out, n, f[hand + w] & K[s + w], w * BITS, p, i)
    if first:  # lay on, or end the turn (a pass)
        out[n] = move_code(PASS, p, -1, -1)
        return n + 1
    bone_empty = empty(K, f, K[F_BONE])
    may_draw = not bone_empty and K[DRAW] != DRAW_NONE and not f[K[F_DREW]]
    if n > n0:
        if K[FOULS] and bone_empty and not (f[K[F_FOULS]] >> p) & 1:
            out[n] = move_code(CONFIRM, p, -1, -1)  # R4.5: a false declaration
            n += 1
        if K[WHEN_ANY] and may_draw:  # R3.5: a player who can play may draw instead
            n = _draws(K, f, out, n, p)
        return n
    if may_draw:
        return _draws(K, f, out, n0, p)
    out[n0] = move_code(PASS if not bone_empty else CONFIRM, p, -1, -1)
    return n0 + 1


@njit_inline
def first_turn(K, marks):  # type: ignore[no-untyped-def]
    """R2.3: the player to move is on their first turn, laying on their own train."""
    return K[FIRST_TURN] != 0 and (marks >> K[FIRST_BIT]) & 1 == 1


@njit
def _draws(K, f, out, n, p):  # type: ignore[no-untyped-def]
    """The draws of ``p`` written to ``out`` from ``n`` on: the top of the stack, or every
    boneyard tile when the draw order is free; the new count."""
    if f[K[F_STACKN]] >= 0:
        out[n] = move_code(DRAW_M, p, f[K[F_STACK]], -1)
        return n + 1
    ob = K[F_BONE]
    for w in range(K[MW]):
        n = _moves_of(out, n, f[ob + w], w * BITS, DRAW_M, p, -1)
    return n


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
        if K[FIVES]:  # R5.7: the weights of the slots laid on, before the canonical form
            fives.weigh(K, f, g, end, a, b)
        if end < 0:
            open_layout(K, g, a, b, scr)
        elif K[SIMPLE]:  # extend_layout where the slots carry no marks and take nothing
            e = K[F_ENDS] + end
            g[e] = shows(K, a, b, g[e], leaves_of(m))
            if K[NGROUPS]:
                sort_plain(K, g, K[NGROUPS])
        else:
            extend_layout(K, g, end, a, b, p, scr, leaves_of(m))
        again = a == b and end >= 0 and K[AGAIN] and K[K[O_TAKES] + end] > 0
        if K[FIRST_TURN] and end >= 0:  # R2.3: on one's own train, one's first turn goes on
            fb = np.int64(1) << K[FIRST_BIT]  # (started: the train's covered bit, before)
            going = (K[K[O_OWNER] + end] == p
                     and (first_turn(K, f[mk]) or not covered(K, f[mk], end))
                     and not (pending_mask(K, g[mk]) >> end) & 1)  # no double left waiting
            g[mk] = g[mk] | fb if going else g[mk] & ~fb
            again = again or going
        g[K[F_TURN]] = nxt if (not empty(K, g, p * mw) and not again) else p
        g[K[F_CONF]] = 0
        g[K[F_DREW]] = 0
        if K[FIVES]:  # R5.7: the play scores the count, a multiple of 5
            fives.score(K, g, p)
    elif kind == DRAW_M:
        mw = K[MW]
        word, bit = t // BITS, np.int64(1) << (t % BITS)
        g[p * mw + word] |= bit
        g[K[F_BONE] + word] &= ~bit
        if led(K, f):
            g[K[F_DREW]] = 1 if K[DRAW] == DRAW_ONE else 0
        elif not (t == K[LEAD_TILE] if K[LEAD] == LEAD_BY_TILE
                  else K[K[O_LO] + t] == K[K[O_HI] + t]):
            g[K[F_TURN]] = nxt  # R3.6: a draw for the lead that misses the named tile
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
        elif K[RESTART] and with_marker(K, f[mk], p, True) != f[mk]:
            g[K[F_CONF]] = 1  # R4.4: it puts the marker out: the run starts again
        else:
            g[K[F_CONF]] = f[K[F_CONF]] + 1
        g[K[F_TURN]] = nxt
        g[K[F_DREW]] = 0
        g[mk] = with_marker(K, f[mk], p, True)
    elif kind == PASS and first_turn(K, f[mk]):  # R2.3: the first turn ends, nothing else
        g[K[F_TURN]] = nxt
        g[mk] = f[mk] & ~(np.int64(1) << K[FIRST_BIT])
    elif kind == PASS:
        g[K[F_TURN]] = nxt
        g[K[F_DREW]] = 0
        g[K[F_CONF]] = 0 if K[EMPTY] else f[K[F_CONF]] + 1
        g[mk] = with_marker(K, f[mk], p, True)
    elif kind == ESTABLISH:
        g[K[F_STATUS]] = BLOCKED
    else:
        g[K[F_STATUS]] = DOMINO
