"""The judge's accelerator, compiled: the catalogue's local checks on a search's key array.

:func:`screen` reads the states of a kernel search in one compiled pass, and finds for
each local property of the catalogue the **first state that fails it** (in id order, the
judge's), with the successor that completes a failing transition; it lists
blocked-complete's premise states and counts where R2.3's readings are compared and where
they differ. The judge (:mod:`dominoproof.proofs.search.check`) then reads only those
states, and the round's ends for what the screen leaves to it (a called block, R4.7, and
the terminal properties of R5), and words every failure itself; a state named where
the judge finds nothing is an error between two readings, never a verdict
(:mod:`dominoproof.proofs.search.compiled`). ``tests/test_kernel_judge.py`` holds it to the
judge on every state of small configurations, under the variant's own rules and broken
ones. Every rule is read from :mod:`.rules` and :mod:`.layout` (the kernel's reading):

* **conservation** (the type invariant): hands, boneyard, set-aside tiles and the table
  partition the set; the turn, the confirmations, the fouls and the marks in range; a
  draw order that is the boneyard; no slot open on an empty table; every open end a
  number of the set, in canonical order, carried by some tile on the table, and (on a
  layout of lines) each number on an odd number of open ends exactly when it shows an
  odd number of times on the table;
* the **transition properties**: boneyard-monotone, opening, no-false-confirmation and
  procedure (R4.2-R4.5), and where plays score points-in-fives (R5.7: a play adds a
  multiple of 5, or nothing, to its player's points, no other move changes anyone's),
  on every move of every expanded state; points-in-fives' terminal half (the final
  scores add the points) is the judge's, which reads every state where the round is over;
* **blocked-sound** at every established block (:func:`judge_blocked`), and R2.3's two
  readings compared at every state after the lead, the round's ends included.

Layout properties are not screened: where they are wanted, the judge reads every state
and every move for them alone.
:func:`judge_blocked` is blocked-sound's statement at one established block, for the
screen and for the searches that keep no graph (``bench/lean.py``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._jit import njit
from .codec import unpack
from .layout import canonical, empty, led, meets_suit, pending_mask, popcount, with_marker
from .rules import (
    CONFIRM,
    DRAW_M,
    ESTABLISH,
    PLAY,
    boneyard_supplies_nothing,
    ends_unplayable,
    first_turn,
    gen_moves,
    is_blocked,
    opening,
    playable_any,
)
from .tables import (
    BITS,
    BLOCKED,
    F_ASIDE,
    F_BONE,
    F_CONF,
    F_ENDS,
    F_FOULS,
    F_MARKS,
    F_SIZE,
    F_STACK,
    F_STACKN,
    F_STATUS,
    F_TABLE,
    F_TALLY,
    F_TURN,
    FIVES,
    FOULS,
    MATCH,
    MW,
    O_HI,
    O_LO,
    PLAYING,
    READING,
    RESTART,
    SEEK,
    Array,
    B,
    N,
    P,
    T,
    W,
)

#: the screened properties, as indices of :func:`screen`'s ``first`` and ``then``
CONSERVATION, BONEYARD_MONOTONE, OPENING, NO_FALSE_CONFIRMATION, PROCEDURE, \
    POINTS_IN_FIVES, BLOCKED_SOUND = range(7)
#: their catalogue ids, in that order
IDS = ("conservation", "boneyard-monotone", "opening", "no-false-confirmation", "procedure",
       "points-in-fives", "blocked-sound")
SCREENED = len(IDS)
#: the bits of the transition properties among them
TRANSITIONS = sum(1 << k for k in range(BONEYARD_MONOTONE, POINTS_IN_FIVES + 1))
#: ``counts``: R2.3's readings compared, and where they differ
COMPARED, DIFFER = range(2)
#: ``premise``'s value at a state where the round is over (the judge reads it)
OVER = 2
#: ``screen``'s answer when its moves and the search's edges disagree (not a verdict)
EDGES_DIFFER = -2


class ScreenJob(NamedTuple):
    """What :func:`screen` reads and writes, by name (numba passes it as one tuple).

    ``codes``: the search's keys (``n`` of them, ``KC`` their codec); ``n_exp``: the
    expanded states, whose edges are ``edge_to[edge_ptr[i]:edge_ptr[i + 1]]`` in the
    order of their moves -- the codes in ``edge_move``, or where it is empty the moves of
    ``KS``, the table the search ran on. ``K``: the variant's own table, the rules the
    screen judges by. ``want``: a bit per screened property; ``readings``: compare R2.3's
    readings (the census, and blocked-complete's premise). ``mark_bits``: the width of
    the marks; ``parity``: a layout of lines. ``f``, ``g``, ``c``, ``scr``, ``moves``:
    scratch. ``first``, ``then``, ``premise``, ``counts``: what the screen finds
    (:func:`screen`)."""

    K: Array
    KS: Array
    KC: Array
    codes: Array
    n: int
    n_exp: int
    edge_ptr: Array
    edge_to: Array
    edge_move: Array
    want: int
    readings: bool
    mark_bits: int
    parity: bool
    f: Array
    g: Array
    c: Array
    scr: Array
    moves: Array
    first: Array
    then: Array
    premise: Array
    counts: Array


@njit
def judge_blocked(K, f):  # type: ignore[no-untyped-def]
    """blocked-sound at an established block: 0 when R1.1's conditions hold; else a bit
    per condition that fails (1 the boneyard supplies a tile (R3.2), 2 a hand holds a
    matching tile (R2.1, reading holds-matching-tile), 4 a player has a legal move (R2.3,
    reading has-legal-move))."""
    why = 0 if boneyard_supplies_nothing(K, f) else 1
    for reading in range(2):  # a variable: one compiled ends_unplayable, not one per literal
        if not ends_unplayable(K, f, reading):
            why |= 2 << reading
    return why


@njit
def _well_formed(K, f, c, scr, mark_bits, parity):  # type: ignore[no-untyped-def]
    """``state_status(v, s) is OK``, and every open end carried by a tile on the table
    (the judge's conservation). ``c``, ``scr``: scratch."""
    p, mw, t = K[P], K[MW], K[T]
    for w in range(mw):
        seen = np.int64(0)
        for off in range(p + 3):  # the hands, then the boneyard, set aside and table
            x = f[off * mw + w] if off < p else f[K[F_BONE + off - p] + w]
            if seen & x:
                return False
            seen |= x
        left = t - w * BITS  # tiles of the set in this word
        full = (np.int64(1) << left) - 1 if left < BITS else (np.int64(1) << BITS) - 1
        if seen != full:  # a tile lost, or one outside the set
            return False
    turn, conf, fouls = f[K[F_TURN]], f[K[F_CONF]], f[K[F_FOULS]]
    if not 0 <= turn < p or not 0 <= conf <= p or fouls < 0 or fouls >> p:
        return False
    if K[FIVES]:  # R5.7: each slot's weight 0, 1 or 2, each seat's points not negative
        tally = K[F_TALLY]
        for i in range(K[W] + p):
            x = f[tally + i]
            if x < 0 or (i < K[W] and x > 2):
                return False
    marks = f[K[F_MARKS]]
    if marks < 0 or (mark_bits < 63 and marks >> mark_bits):
        return False
    sn = f[K[F_STACKN]]
    if sn >= 0:  # a fixed draw order: the boneyard's tiles, each once
        bone, top = K[F_BONE], K[F_STACK]
        held = 0
        for w in range(mw):
            m = np.int64(0)
            for k in range(sn):
                x = f[top + k]
                if not 0 <= x < t:
                    return False
                if x // BITS == w:
                    m |= np.int64(1) << (x % BITS)
            if m != f[bone + w]:
                return False
            held += popcount(m)
        if held != sn:
            return False
    e, width = K[F_ENDS], K[W]
    if empty(K, f, K[F_TABLE]):
        for i in range(width):
            if f[e + i] >= 0:
                return False
        return pending_mask(K, marks) == 0
    if not led(K, f):
        return False
    for i in range(width):
        x = f[e + i]
        if x >= 0 and (x > K[N] or not meets_suit(K, f, K[F_TABLE], x)):
            return False
    for i in range(K[F_SIZE]):
        c[i] = f[i]
    canonical(K, c, scr)
    for i in range(width):
        if c[e + i] != f[e + i]:
            return False
    if c[K[F_MARKS]] != marks:
        return False
    # a layout of lines: every joint pairs two equal halves (not under Matador matching,
    # MATCH > 0, where a joint's halves sum to N+1 or a matador is wild, R2.1)
    if parity and K[MATCH] == 0:
        odd = np.int64(0)
        table, lo, hi = K[F_TABLE], K[O_LO], K[O_HI]
        for x in range(t):
            if (f[table + x // BITS] >> (x % BITS)) & 1:
                odd ^= (np.int64(1) << K[lo + x]) ^ (np.int64(1) << K[hi + x])
        for i in range(width):
            if f[e + i] >= 0:
                odd ^= np.int64(1) << f[e + i]
        if odd:
            return False
    return True


@njit
def _same_mask(K, f, g, off):  # type: ignore[no-untyped-def]
    for w in range(K[MW]):
        if f[off + w] != g[off + w]:
            return False
    return True


@njit
def _grows(K, f, g, off):  # type: ignore[no-untyped-def]
    """``g``'s mask at ``off`` holds a tile ``f``'s does not."""
    for w in range(K[MW]):
        if g[off + w] & ~f[off + w]:
            return True
    return False


@njit
def _transition(K, f, m, g, want, fouls_possible):  # type: ignore[no-untyped-def]
    """The screened transition properties of ``f --m--> g``: a bit per one that fails."""
    bad = 0
    kind, player = m & 7, (m >> 3) & 31
    tile, end = ((m >> 8) & 255) - 1, ((m >> 16) & 255) - 1
    bone = K[F_BONE]
    drawn_absent = kind == DRAW_M and (f[bone + tile // BITS] >> (tile % BITS)) & 1 == 0
    if want >> BONEYARD_MONOTONE & 1 and (_grows(K, f, g, bone) or drawn_absent
                                          or not _same_mask(K, f, g, K[F_ASIDE])):
        bad |= 1 << BONEYARD_MONOTONE
    if want >> OPENING & 1 and not led(K, f) and empty(K, f, K[F_TABLE]):
        leader, must = opening(K, f)
        if must == SEEK:  # R3.6: the players draw for it in turn, one tile each
            drawn = K[B]
            for w in range(K[MW]):
                drawn -= popcount(f[bone + w])
            after = player if opening(K, g)[1] != SEEK else (player + 1) % K[P]
            if kind != DRAW_M or player != (leader + drawn) % K[P] or g[K[F_TURN]] != after:
                bad |= 1 << OPENING
        elif kind != PLAY or end != -1 or player != leader or (must >= 0 and tile != must):
            bad |= 1 << OPENING
    conf, turn = K[F_CONF], K[F_TURN]
    procedure = want >> PROCEDURE & 1
    if kind == CONFIRM:
        playable = playable_any(K, f, player)
        fl = K[F_FOULS]
        recorded = (fouls_possible and not (f[fl] >> player) & 1 and (g[fl] >> player) & 1
                    and g[conf] == 0)
        if want >> NO_FALSE_CONFIRMATION & 1 and playable and not recorded:
            bad |= 1 << NO_FALSE_CONFIRMATION
        mk = K[F_MARKS]  # R4.4 where the variant says so: a marker put out restarts the run
        restart = K[RESTART] and with_marker(K, f[mk], player, True) != f[mk]
        run = 1 if restart else f[conf] + 1
        if procedure and not playable and (g[conf] != run or player != f[turn]
                                           or g[turn] != (f[turn] + 1) % K[P]):
            bad |= 1 << PROCEDURE
    elif procedure and ((kind == PLAY and g[conf] != 0) or (
            kind == ESTABLISH and (f[conf] < K[P] or not boneyard_supplies_nothing(K, f)
                                   or not is_blocked(K, f)))):
        bad |= 1 << PROCEDURE
    if want >> POINTS_IN_FIVES & 1 and K[FIVES]:  # R5.7: only a play scores, for its player
        pts = K[F_TALLY] + K[W]
        for q in range(K[P]):
            gained = g[pts + q] - f[pts + q]
            if gained and (kind != PLAY or q != player or gained < 0
                           or gained % K[FIVES] != 0):
                bad |= 1 << POINTS_IN_FIVES
    return bad


@njit
def screen(job):  # type: ignore[no-untyped-def]
    """Screen ids ``0 .. job.n-1`` of a search (:class:`ScreenJob`) by the rules of
    ``job.K``, the variant's own table: every state's invariants (conservation, R2.3's
    readings, blocked-sound at an established block), and the moves of the states still
    being played.

    ``first[k]`` := the first id failing property ``k`` (-1: none); ``then[k]`` := the
    successor of its failing move (-1: the state itself fails). ``premise[i]`` := OVER
    where the round is over (the judge reads it, for the rest: R4.7 and R5); with
    ``readings``, 1 where R2 (the variant's reading) and R3 hold in a round still played
    whose player to move holds tiles, and ``counts`` the states where R2.3's readings are
    compared and where they differ. Returns the number of states still being played, or
    EDGES_DIFFER (the state in ``first[0]``) when a state's moves are not its edges: then
    nothing was judged."""
    K, KS, KC, codes, n, n_exp = job.K, job.KS, job.KC, job.codes, job.n, job.n_exp
    edge_ptr, edge_to, edge_move = job.edge_ptr, job.edge_to, job.edge_move
    readings, mark_bits, parity = job.readings, job.mark_bits, job.parity
    f, g, c, scr, moves = job.f, job.g, job.c, job.scr, job.moves
    first, then, premise, counts = job.first, job.then, job.premise, job.counts
    turn = K[F_TURN]
    fouls_possible = K[FOULS] == 1
    open_ = job.want
    status_at = K[F_STATUS]
    screened = 0
    for i in range(n):
        unpack(KC, K, codes[i], f)
        status = f[status_at]
        if status != PLAYING:
            premise[i] = OVER  # the judge reads it: the round's end, R5
        else:
            screened += 1
        if open_ >> CONSERVATION & 1 and not _well_formed(K, f, c, scr, mark_bits, parity):
            first[CONSERVATION] = i
            open_ &= ~(1 << CONSERVATION)
        if (status == BLOCKED and open_ >> BLOCKED_SOUND & 1
                and judge_blocked(K, f) != 0):
            first[BLOCKED_SOUND] = i
            open_ &= ~(1 << BLOCKED_SOUND)
        if readings and led(K, f):
            # the readings as int64 variables: one compiled ends_unplayable, not one
            # per literal (numba specialises a call on a literal argument)
            a = ends_unplayable(K, f, np.int64(0))
            b = ends_unplayable(K, f, np.int64(1))
            counts[COMPARED] += 1
            if a != b:
                counts[DIFFER] += 1
            if status == PLAYING:
                premise[i] = (boneyard_supplies_nothing(K, f)
                              and not empty(K, f, f[turn] * K[MW])
                              and not first_turn(K, f[K[F_MARKS]])  # between turns (R2.3)
                              and (b if K[READING] else a))
        if status != PLAYING or i >= n_exp or not open_ & TRANSITIONS:
            continue
        e0 = edge_ptr[i]
        nm = edge_ptr[i + 1] - e0
        if len(edge_move) == 0 and gen_moves(KS, f, moves) != nm:
            first[0] = i
            return EDGES_DIFFER
        for x in range(nm):
            m = edge_move[e0 + x] if len(edge_move) else moves[x]
            j = edge_to[e0 + x]
            unpack(KC, K, codes[j], g)
            bad = _transition(K, f, m, g, open_, fouls_possible)
            for k in range(BONEYARD_MONOTONE, POINTS_IN_FIVES + 1):
                if bad >> k & 1:
                    first[k] = i
                    then[k] = j
                    open_ &= ~(1 << k)
    return screened
