"""A state as a fixed-width key of a few 64-bit words, and back: the kernel search's codec.

The key holds what decides a state and nothing the rest implies (STYLE 1), packed as
tightly as the configuration allows:

* **where each tile is**, as one digit per tile in base ``R`` -- the table (the digit
  the rest implies), each hand, and where they vary, the boneyard (every draw order)
  and the tiles set aside (every deal of a game that sets some aside). Digits are packed
  ``g`` tiles at a time (``R**g`` values in as few bits as hold them: 5 tiles of 3
  places in a byte), by two small tables: ``BASE`` (a group's bits of one place to the
  sum of its digits) and ``DEC`` (a group's code back to each place's bits);
* the fields of the state as bit fields of the widths their ranges need: each slot's
  value, the layout's marks, the turn, the R4 count, the draw-one flag (draw-one games
  only), the fouls (where fouls are penalised), the status, and the draw order: its
  length when it is a suffix of the one deal's order (the only orders a fixed-order
  search of one deal meets), or every tile of it (every deal in a fixed order); where
  plays score (R5.7), each slot's weight and each seat's points in play.

A field never straddles two words; the items are laid out largest first in the first
word with room. The codec is exact on every state of its configuration: a state whose
value does not fit (a field the configuration never uses, a draw order that is not a
suffix) is refused (:func:`pack` returns False), never folded onto another.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dominoproof.model.layout import layout_of

from ._jit import njit, njit_inline
from .tables import (
    BITS,
    F_ASIDE,
    F_BONE,
    F_CONF,
    F_DREW,
    F_ENDS,
    F_FOULS,
    F_MARKS,
    F_STACK,
    F_STACKN,
    F_STATUS,
    F_TABLE,
    F_TALLY,
    F_TURN,
    FIVES,
    KASIDE,
    Array,
    B,
    C,
    Tables,
    W,
)

# -- the codec's table: header ------------------------------------------------------
R_, G_, NGRP_, BONE_LOC_, ASIDE_LOC_, STACK_MODE_, KW_, NB_, NF_, P_, T_ = range(11)
O_GRP_, O_BASE_, O_DEC_, O_FLD_, O_ORDER_, ASIDE_CONST_, FULL_ = range(11, 18)
#: per tile its word and the weight of its digit (a successor's key from its parent's:
#: a tile moving from place a to place b adds (b - a) * weight); per word the bits of
#: the fields
O_TW_, O_FM_ = 18, 19
HEAD = 24
STACK_FREE, STACK_SUFFIX, STACK_EXPLICIT = 0, 1, 2
# field kinds
FK_END, FK_MARKS, FK_TURN, FK_CONF, FK_DREW, FK_FOULS, FK_STATUS, FK_STACKN, FK_STACKTILE = \
    range(9)
#: R5.7: a slot's weight, a seat's points in play (where plays score)
FK_WEIGHT, FK_POINTS = 9, 10
#: ints per field in the codec's table
FW = 7
_FIELD_OF = {FK_MARKS: F_MARKS, FK_TURN: F_TURN, FK_CONF: F_CONF, FK_DREW: F_DREW,
             FK_FOULS: F_FOULS, FK_STATUS: F_STATUS, FK_STACKN: F_STACKN}


def _bits_for(n: int) -> int:
    """Bits that hold the values 0..n."""
    return max(0, int(n).bit_length())


@dataclass(frozen=True)
class KeySpec:
    """The codec of one configuration: its table and what it packs."""

    kc: Array
    words: int  #: 64-bit words per key
    bits: int  #: bits used
    places: int  #: R, the places a tile's digit names
    group: int  #: g, tiles per group
    stack_mode: int

    def describe(self) -> str:
        return (f"{self.words} word(s), {self.bits} bits: tiles as base-{self.places} "
                f"digits {self.group} to a group")


def key_spec(tb: Tables, *, free_draw: bool, one_deal: bool,
             order: tuple[int, ...] = (), set_aside: int = 0) -> KeySpec:
    """The codec of a search of ``tb``'s variant: one deal (its draw order ``order`` and
    its tiles set aside) or every deal; a free draw order or a fixed one."""
    v = tb.variant
    if tb.mw != 1:
        raise ValueError(f"{v.name}: the kernel's search keys hold sets of up to {BITS} "
                         f"tiles; double-{v.n} has {tb.tiles}")
    k = tb.k
    p, t, b = tb.players, tb.tiles, int(k[B])
    places = 1 + p
    bone_loc = aside_loc = -1
    if free_draw and b:
        bone_loc, places = places, places + 1
    kaside = int(k[KASIDE])
    if kaside and not one_deal:
        aside_loc, places = places, places + 1
    stack_mode = STACK_FREE if free_draw else STACK_SUFFIX if one_deal else STACK_EXPLICIT
    # tiles per group: the fewest bits in all (small tables: R**g <= 4096)
    best: tuple[int, int] | None = None
    for g in range(1, 13):
        if places ** g > 4096:
            break
        total = (t // g) * _bits_for(places ** g - 1) + _bits_for(places ** (t % g) - 1)
        if best is None or total < best[0]:
            best = (total, g)
    assert best is not None
    g = best[1]
    groups = [(first, min(g, t - first)) for first in range(0, t, g)]
    items: list[tuple[int, str, int, int]] = []  # bits, what, kind/group, index
    for gi, (_, cnt) in enumerate(groups):
        items.append((_bits_for(places ** cnt - 1), "group", gi, 0))
    c = int(k[C])  # R4.4 as the kernel's table states it
    fields = [(FK_END, i, _bits_for(v.n + 1)) for i in range(tb.width)]
    fields += [(FK_MARKS, 0, layout_of(tb.variant).fields.width), (FK_TURN, 0, _bits_for(p - 1)),
               (FK_CONF, 0, _bits_for(max(p, c))), (FK_STATUS, 0, 2)]
    if v.draw.rule.value == "one":
        fields.append((FK_DREW, 0, 1))
    if v.fouls.rule.value == "penalised":
        fields.append((FK_FOULS, 0, p))
    if stack_mode != STACK_FREE:
        fields.append((FK_STACKN, 0, _bits_for(b)))
    if stack_mode == STACK_EXPLICIT:
        fields += [(FK_STACKTILE, i, _bits_for(t - 1)) for i in range(b)]
    if k[FIVES]:  # R5.7: weights 0..2; a seat plays at most every tile, each play
        # scoring at most every slot's number twice (whatever the count: broken rules too)
        fields += [(FK_WEIGHT, i, 2) for i in range(tb.width)]
        fields += [(FK_POINTS, q, _bits_for(t * 2 * v.n * tb.width)) for q in range(p)]
    for kind, index, nbits in fields:
        if nbits:
            items.append((nbits, "field", kind, index))
    # first fit, largest first; no item straddles a word
    items.sort(key=lambda x: -x[0])
    used: list[int] = []
    placed_grp = [(0, 0)] * len(groups)
    placed_fld: list[tuple[int, int, int, int, int]] = []
    for nbits, what, a, index in items:
        word = next((i for i, u in enumerate(used) if u + nbits <= 64), None)
        if word is None:
            word = len(used)
            used.append(0)
        shift = used[word]
        used[word] += nbits
        if what == "group":
            placed_grp[a] = (word, shift)
        else:
            placed_fld.append((a, index, word, shift, nbits))
    kw = max(1, len(used))
    base = [sum(places ** j for j in range(g) if bb >> j & 1) for bb in range(1 << g)]
    dec = [0] * (places ** g * places)
    for code in range(places ** g):
        x = code
        for j in range(g):
            dec[code * places + x % places] |= 1 << j
            x //= places
    grp: list[int] = []
    for (first, cnt), (word, shift) in zip(groups, placed_grp, strict=True):
        grp += [word, shift, _bits_for(places ** cnt - 1), first, cnt]
    # each field: kind, index, word, shift, bits, and where the frame holds it, and what
    # the key adds to its value (a slot's -1, closed, is kept as 0)
    kt = tb.k
    fld = [x for (kind, index, word, shift, nbits) in placed_fld
           for x in (kind, index, word, shift, nbits, _frame_at(kt, kind, index),
                     1 if kind == FK_END else 0)]
    order_ = list(order) if stack_mode == STACK_SUFFIX else []
    tw: list[int] = []
    for (_first, cnt), (word, shift) in zip(groups, placed_grp, strict=True):
        for j in range(cnt):
            tw += [word, _signed((places ** j) << shift)]
    fm = [0] * kw
    for _, _, word, shift, nbits in placed_fld:
        fm[word] |= ((1 << nbits) - 1) << shift
    head = [0] * HEAD
    body: list[int] = []
    offsets = []
    for arr in (grp, base, dec, fld or [0], order_ or [0]):
        offsets.append(HEAD + len(body))
        body.extend(arr)
    head[:FULL_ + 1] = [places, g, len(groups), bone_loc, aside_loc, stack_mode, kw, b,
                        len(placed_fld), p, t, *offsets,
                        set_aside if one_deal else 0, (1 << t) - 1]
    head[O_TW_] = HEAD + len(body)
    body.extend(tw)
    head[O_FM_] = HEAD + len(body)
    body.extend(_signed(x) for x in fm)
    kc = np.array(head + body, dtype=np.int64)
    return KeySpec(kc, kw, sum(x[0] for x in items), places, g, stack_mode)


def _frame_at(kt: Array, kind: int, index: int) -> int:
    """The frame's offset of a field of ``kind`` (the ``index``-th slot or stack tile)."""
    if kind == FK_END:
        return int(kt[F_ENDS]) + index
    if kind == FK_STACKTILE:
        return int(kt[F_STACK]) + index
    if kind == FK_WEIGHT:
        return int(kt[F_TALLY]) + index
    if kind == FK_POINTS:
        return int(kt[F_TALLY]) + int(kt[W]) + index
    return int(kt[F_STACKN if kind == FK_STACKN else _FIELD_OF[kind]])


def _signed(x: int) -> int:
    """A word's 64 bits as the int64 holding them."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x


@njit
def pack(KC, K, f, key):  # type: ignore[no-untyped-def]
    """``key`` := the key of the frame ``f``; False when ``f`` does not fit the codec."""
    kw = KC[KW_]
    for w in range(kw):
        key[w] = 0
    p = KC[P_]
    og, ob = KC[O_GRP_], KC[O_BASE_]
    bone_loc, aside_loc = KC[BONE_LOC_], KC[ASIDE_LOC_]
    for gi in range(KC[NGRP_]):
        o = og + 5 * gi
        first, cnt = KC[o + 3], KC[o + 4]
        cm = (np.int64(1) << cnt) - 1
        code = np.int64(0)
        for q in range(p):
            code += (q + 1) * KC[ob + ((f[q] >> first) & cm)]
        if bone_loc >= 0:
            code += bone_loc * KC[ob + ((f[K[F_BONE]] >> first) & cm)]
        if aside_loc >= 0:
            code += aside_loc * KC[ob + ((f[K[F_ASIDE]] >> first) & cm)]
        key[KC[o]] |= code << KC[o + 1]
    return pack_fields(KC, K, f, key)


@njit
def pack_fields(KC, K, f, key):  # type: ignore[no-untyped-def]
    """Write the fields of the frame ``f`` into ``key`` (whose field bits are zero);
    False when one does not fit."""
    of = KC[O_FLD_]
    for x in range(KC[NF_]):
        o = of + FW * x
        val = f[KC[o + 5]] + KC[o + 6]
        if KC[o] == FK_STACKTILE and KC[o + 1] >= f[K[F_STACKN]]:
            val = 0
        nbits = KC[o + 4]
        if val < 0 or val >> nbits:
            return False
        key[KC[o + 2]] |= val << KC[o + 3]
    return True


@njit_inline
def successor_key(KC, K, key, kind, player, tile, g, out):  # type: ignore[no-untyped-def]
    """``out`` := the key of the frame ``g``, the successor of the state keyed ``key`` by
    a move of ``kind`` (:mod:`.rules`' codes) by ``player`` with ``tile``: :func:`pack`'s
    result, from the parent's key -- a play moves the tile from the hand to the table, a
    draw from the boneyard to the hand, nothing else moves a tile -- and the fields
    rewritten. False when ``g`` does not fit the codec."""
    kw = KC[KW_]
    fm = KC[O_FM_]
    for w in range(kw):
        out[w] = key[w] & ~KC[fm + w]
    if tile >= 0 and kind <= 1:  # PLAY, DRAW
        o = KC[O_TW_] + 2 * tile
        if kind == 0:
            d = -(player + 1)
        else:
            bone_loc = KC[BONE_LOC_]
            d = player + 1 - (bone_loc if bone_loc >= 0 else 0)
        out[KC[o]] += d * KC[o + 1]
    return pack_fields(KC, K, g, out)


@njit_inline
def unpack(KC, K, key, f):  # type: ignore[no-untyped-def]
    """``f`` := the frame of ``key`` (:func:`pack`'s inverse)."""
    for i in range(f.shape[0]):
        f[i] = 0
    places = KC[R_]
    p = KC[P_]
    og, od = KC[O_GRP_], KC[O_DEC_]
    bone_loc, aside_loc = KC[BONE_LOC_], KC[ASIDE_LOC_]
    held = np.int64(0)
    for gi in range(KC[NGRP_]):
        o = og + 5 * gi
        code = (key[KC[o]] >> KC[o + 1]) & ((np.int64(1) << KC[o + 2]) - 1)
        first = KC[o + 3]
        row = od + code * places
        for q in range(p):
            f[q] |= KC[row + q + 1] << first
        if bone_loc >= 0:
            f[K[F_BONE]] |= KC[row + bone_loc] << first
        if aside_loc >= 0:
            f[K[F_ASIDE]] |= KC[row + aside_loc] << first
    of = KC[O_FLD_]
    stackn = -1
    for x in range(KC[NF_]):
        o = of + FW * x
        val = (key[KC[o + 2]] >> KC[o + 3]) & ((np.int64(1) << KC[o + 4]) - 1)
        if KC[o] == FK_STACKN:
            stackn = val
        else:
            f[KC[o + 5]] = val - KC[o + 6]
    mode = KC[STACK_MODE_]
    st = K[F_STACK]
    if mode == STACK_FREE:
        f[K[F_STACKN]] = -1
    else:
        if stackn < 0:  # no boneyard: the fixed order is empty
            stackn = 0
        f[K[F_STACKN]] = stackn
        if mode == STACK_SUFFIX:
            nb = KC[NB_]
            oo = KC[O_ORDER_]
            for i in range(stackn):
                f[st + i] = KC[oo + nb - stackn + i]
        bone = np.int64(0)
        for i in range(stackn):
            bone |= np.int64(1) << f[st + i]
        f[K[F_BONE]] = bone
    if aside_loc < 0:
        f[K[F_ASIDE]] = KC[ASIDE_CONST_]
    for q in range(p):
        held |= f[q]
    f[K[F_TABLE]] = KC[FULL_] & ~(held | f[K[F_BONE]] | f[K[F_ASIDE]])


@njit_inline
def key_hash(key, kw):  # type: ignore[no-untyped-def]
    """A mix of the key's words (splitmix64's finaliser, word by word)."""
    h = np.int64(0x2545F4914F6CDD1D)
    for w in range(kw):
        x = key[w] ^ h
        x = (x ^ ((x >> 30) & 0x3FFFFFFFF)) * np.int64(-4658895280553007687)
        x = (x ^ ((x >> 27) & 0x1FFFFFFFFF)) * np.int64(-7723592293110705685)
        h = x ^ ((x >> 31) & 0x1FFFFFFFF)
    return h


def key_int(key: Array) -> int:
    """A key as one non-negative Python int (word 0 lowest)."""
    return int.from_bytes(np.ascontiguousarray(key, dtype="<i8").tobytes(), "little")


def int_key(code: int, kw: int) -> Array:
    """:func:`key_int`'s inverse."""
    return np.array([_signed(code >> (64 * i)) for i in range(kw)], dtype=np.int64)


__all__ = ["KeySpec", "int_key", "key_hash", "key_int", "key_spec", "pack", "pack_fields",
           "successor_key", "unpack"]
