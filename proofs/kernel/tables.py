"""The kernel's data: one variant's rules as a flat table of integers, and its frames.

The compiled kernel (:mod:`.rules`) is written once for every variant: it reads the
variant's constants (SEMANTICS.md's table) and its layout's slot data from one ``int64``
array built here, :func:`tables_for`. The kernel is an independent reading: the constants
are stated here from the variant's ``[section] key`` parameters (C, the tile values, the
lead tile, the boneyard's size), never taken from the specification's
:func:`~dominoproof.model.constants.constants_of`, so a slip there shows up as a
disagreement of the kernel with the specification. What is shared is representation and
geometry: the tile numbering (``Variant.tiles``), the slots of each topology as data
(:func:`~dominoproof.model.layout.layout_of`: restating them would be a second copy of
pure geometry; who may play on a slot is read from that data here) and the marks' bit
fields. Nothing in the kernel is written for one topology or one size:
a spinner, trains with markers, doubles that take tiles, toes and playing again are rows
of this table, as they are data of the slot layout.

A **frame** is a state as the kernel holds it: one ``int64`` array with the fields of
:class:`~dominoproof.model.state.State` at fixed offsets (tile masks as words of
:data:`BITS` bits, so every value stays non-negative). :func:`frame_of` and
:func:`state_of` convert, exactly.

:func:`unsupported` says which variants the kernel cannot read (none of the rule
features; only sizes beyond its words), so its callers take the Python path and say why.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from dominoproof.model.layout import (
    Access,
    FirstTurn,
    LayoutKind,
    Match,
    Opens,
    OutOnDouble,
    layout_of,
)
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import Tile, bits, tile_index
from dominoproof.model.variant import (
    BlockCall,
    DealOrder,
    DrawRule,
    DrawWhen,
    ExtendReading,
    FoulRule,
    InPlay,
    LeadFallback,
    LeadRule,
    Variant,
)

Array = npt.NDArray[np.int64]

#: tiles per word of a frame's masks: 63, so that a word is never negative
BITS = 63
#: the most slots and mark bits a kernel word holds
MAX_SLOTS = 63

# -- the header of the table (scalars) --------------------------------------------------
P, T, N, MW, W, DRAW, C, EMPTY, FOULS, LEAD, LEADER, LEAD_TILE, FALLBACK, READING = range(14)
MARKERS, PENDING, LEAD_TAKES, AGAIN, B, KASIDE, H, ORDER, NGROUPS, NTOES, MAXMOVES = \
    range(14, 25)
# frame offsets
F_BONE, F_ASIDE, F_TABLE, F_ENDS, F_TURN, F_CONF, F_DREW, F_FOULS, F_STATUS, F_MARKS, \
    F_STACKN, F_STACK, F_SIZE = range(25, 38)
# offsets of the arrays that follow the header
O_LO, O_HI, O_VALUE, O_SUIT, O_OPENS, O_HALF, O_AFTER, O_OWNER, O_ACCESS, O_TAKES, \
    O_COVERED, O_GROUP, O_GSTART, O_GSLOTS, O_ALLOWED, O_TOES, O_DOUBLES, O_NEXT, \
    O_BIT_WORD, O_BIT = range(38, 58)
#: 1 when no mark belongs to a slot (nothing pending, no side covered): a symmetric
#: group's slots then differ only by the numbers they show
PLAIN = 58
#: 1 when, besides, there are no markers and no double takes tiles: a play on a slot
#: only changes the number it shows (then its group is sorted)
SIMPLE = 59
#: 1 when a confirmation that puts its author's marker out starts the run again (R4.4)
RESTART = 61
#: R3.5: 1 when a player who can play may draw too ([draw] when = "any-time")
WHEN_ANY = 62
#: R2.2: 1 when a double that would wait to be covered is no player's last tile
#: ([layout] out_on_double = "covered"; it acts on the slots whose doubles take tiles)
OUT_COVERED = 63
#: R2.3: 1 when a player's first turn lays tile after tile on their own train, on trains
#: ([layout] first_turn = "own-train"); and the bit of the marks that says the player to
#: move is on it (-1: none). Whether their train is started is its covered bit.
FIRST_TURN, FIRST_BIT = 64, 65
#: R5.7: what a play's count must be a multiple of to score (5: [scoring] in_play =
#: "fives"), 0 where plays score nothing
FIVES = 67
#: R4.7: 1 when a dead end may be called ([block] call = "dead-end")
CALL = 68
#: R5.7: where the frame holds each slot's weight (how many times the number it shows
#: counts: 0, 1, or 2 for a double at that end), then each seat's points in play; where
#: plays score nothing, the frame's size (it holds neither)
F_TALLY = 69
#: R2.1: 0 when a tile matches an end carrying its number; N+1 under Matador matching
#: ([layout] match = "matador": touching halves sum to N+1, the matadors are wild)
MATCH = 60
#: R2.1: the offset of ``fits``, for each number x the mask words of the tiles that may
#: be laid on an end showing x (``O_SUIT`` under equal matching; its own rows under Matador)
O_FITS = 66
HEADER = 72

# codes of the enumerations
DRAW_NONE, DRAW_UNTIL, DRAW_ONE = 0, 1, 2
LEAD_PLAYER, LEAD_BY_TILE, LEAD_HIGHEST = 0, 1, 2
FB_HIGHEST, FB_HEAVIEST, FB_PLAYER, FB_REDEAL = 0, 1, 2, 3
#: R3.6: fallback "draw" (the players draw for the named tile in turn), and the tile
#: ``rules.opening`` gives while they do
FB_DRAW, SEEK = 4, -3
OPENS_LEAD, OPENS_SPINNER, OPENS_TOE = 0, 1, 2
ACCESS_EVERYONE, ACCESS_OWNER, ACCESS_MARKER = 0, 1, 2
#: R2.3 house rules: also anyone whose own marker is out; anyone whose own train is started
ACCESS_MARKERS, ACCESS_STARTED = 3, 4
PLAYING, BLOCKED, DOMINO = int(Status.PLAYING), int(Status.BLOCKED), int(Status.DOMINO)

_DRAW = {DrawRule.NONE: DRAW_NONE, DrawRule.UNTIL_PLAYABLE: DRAW_UNTIL, DrawRule.ONE: DRAW_ONE}
_LEAD = {LeadRule.PLAYER: LEAD_PLAYER, LeadRule.TILE: LEAD_BY_TILE,
         LeadRule.HIGHEST_DOUBLE: LEAD_HIGHEST}
_FALLBACK = {LeadFallback.HIGHEST_DOUBLE: FB_HIGHEST, LeadFallback.HEAVIEST_TILE: FB_HEAVIEST,
             LeadFallback.PLAYER: FB_PLAYER, LeadFallback.REDEAL: FB_REDEAL,
             LeadFallback.DRAW: FB_DRAW}
_OPENS = {Opens.LEAD: OPENS_LEAD, Opens.SPINNER: OPENS_SPINNER, Opens.TOE: OPENS_TOE}
_ACCESS = {Access.EVERYONE: ACCESS_EVERYONE, Access.OWNER: ACCESS_OWNER,
           Access.OWNER_OR_MARKER: ACCESS_MARKER, Access.OWNER_OR_MARKERS: ACCESS_MARKERS,
           Access.STARTED: ACCESS_STARTED}


def words(tiles: int) -> int:
    """Words of :data:`BITS` bits that hold a mask of ``tiles`` tiles."""
    return max(1, -(-tiles // BITS))


def unsupported(v: Variant) -> str:
    """Why the kernel cannot read ``v`` (``""``: it can). Every rule and slot feature of
    the engine is read from the table; what does not fit is a layout of more slots or
    mark bits than a word holds."""
    lay = layout_of(v)
    if lay.width > MAX_SLOTS:
        return f"a layout of {lay.width} slots (the kernel holds at most {MAX_SLOTS})"
    if lay.fields.width > MAX_SLOTS:
        return (f"a layout whose marks take {lay.fields.width} bits (the kernel holds at "
                f"most {MAX_SLOTS})")
    return ""


@dataclass(frozen=True)
class Tables:
    """The kernel's table of one variant, and the sizes a caller needs."""

    variant: Variant
    k: Array  #: the table the compiled functions read
    players: int
    tiles: int
    mw: int  #: words per tile mask
    width: int  #: slots
    frame: int  #: length of a frame
    max_moves: int  #: an upper bound on the moves of one state

    def empty_frames(self, n: int) -> Array:
        return np.zeros((n, self.frame), dtype=np.int64)

    def scratch(self) -> Array:
        """The scratch the layout's steps work in (``canonical``, opening and extending a
        slot: four words a slot, and eight)."""
        return np.zeros(4 * self.width + 8, dtype=np.int64)

    @cached_property
    def at(self) -> dict[int, int]:
        """Where each field of a frame starts (``F_BONE`` ... ``F_STACK``), as Python ints:
        :func:`frame_of` and :func:`state_of` index lists with them."""
        return {o: int(self.k[o]) for o in (*range(F_BONE, F_SIZE + 1), F_TALLY)}


@cache
def tables_for(v: Variant) -> Tables:
    """The kernel's table of ``v`` (cached: one per rule book)."""
    why = unsupported(v)
    if why:
        raise ValueError(f"{v.name}: the kernel cannot read {why}")
    lay = layout_of(v)  # the slots as data, and the marks' bit fields (shared geometry)
    data = lay.data
    tiles, p, n, w = v.tiles, v.deal.players, v.set.max, lay.width
    t, h, aside = tiles.count, v.deal.hand_size, v.deal.set_aside
    b = t - p * h - aside  # the boneyard after the deal
    conf = v.block.confirmations  # R4.4: every seat, every seat but the proposer, a number
    c = p if conf.rule == "all" else p - 1 if conf.rule == "all-others" else conf.count
    special = dict(v.scoring.tile_values)  # R5.3: a tile's pips, or its special value
    value = [special.get(i, lo + hi) for i, (lo, hi) in enumerate(tiles.halves)]
    lead_tile = tile_index(*Tile.parse(v.lead.tile)) if v.lead.rule is LeadRule.TILE else -1
    mw = words(t)
    f = lay.fields
    # the frame: hands, boneyard, set aside, table, slots, scalars, the stack
    f_bone = p * mw
    f_aside = f_bone + mw
    f_table = f_aside + mw
    f_ends = f_table + mw
    f_turn = f_ends + w
    f_stack = f_turn + 7
    f_tally = f_stack + max(1, b)  # R5.7: the slots' weights and the seats' points
    fives = v.scoring.in_play is InPlay.FIVES
    f_size = f_tally + (w + p if fives else 0)
    # the symmetric groups
    group = [-1] * w
    gstart = [0]
    gslots: list[int] = []
    for gi, g in enumerate(data.symmetric):
        for i in g:
            group[i] = gi
        gslots.extend(g)
        gstart.append(len(gslots))
    toes = [i for i, sl in enumerate(data.slots) if sl.opens is Opens.TOE]
    # R2.3 with no marks (no marker out, no train started): a slot that waits for none,
    # open to everyone or owned by q
    allowed = [sum(1 << i for i, sl in enumerate(data.slots) if not sl.after
                   and (sl.access is Access.EVERYONE or sl.owner == q)) for q in range(p)]
    doubles = tiles.doubles()
    arrays: list[list[int]] = [
        list(tiles.lo), list(tiles.hi), value,
        [x for v_ in range(n + 1) for x in _mask_words(tiles.suit[v_], mw)],
        [_OPENS[sl.opens] for sl in data.slots], [sl.half for sl in data.slots],
        [sum(1 << j for j in sl.after) for sl in data.slots],
        [-1 if sl.owner is None else sl.owner for sl in data.slots],
        [_ACCESS[sl.access] for sl in data.slots], [sl.double_takes for sl in data.slots],
        list(f.covered), group, gstart, gslots or [0], allowed, toes or [0], doubles,
        [(q + 1) % p for q in range(p)],
        [i // BITS for i in range(t)], [i % BITS for i in range(t)],
    ]
    header = [0] * HEADER
    any_time = v.draw.when is DrawWhen.ANY_TIME  # R3.5: plays and then draws
    # R2.1, Matador: a matador whose halves differ is two plays on an end, one each way
    turned = (sum(lo != hi and lo + hi == n + 1 for lo, hi in tiles.halves)
              if v.layout.match is Match.MATADOR else 0)
    max_moves = (max((t + turned) * w + 2, b + 2, t + 2) + (b if any_time else 0)
                 + 1)  # + a call
    header[:F_SIZE + 1] = [
        p, t, n, mw, w, _DRAW[v.draw.rule], c, int(v.block.boneyard_must_be_empty),
        int(v.fouls.rule is FoulRule.PENALISED), _LEAD[v.lead.rule], v.lead.player, lead_tile,
        _FALLBACK[v.lead.fallback], int(v.layout.extend is ExtendReading.HAS_LEGAL_MOVE),
        f.markers, f.pending, data.lead_takes, int(data.again), b, aside, h,
        int(v.deal.order is DealOrder.ROUND_ROBIN), len(data.symmetric), len(toes), max_moves,
        f_bone, f_aside, f_table, f_ends, f_turn, f_turn + 1, f_turn + 2, f_turn + 3,
        f_turn + 4, f_turn + 5, f_turn + 6, f_stack, f_size,
    ]
    body: list[int] = []
    header[PLAIN] = int(f.pending < 0 and all(x < 0 for x in f.covered))
    header[WHEN_ANY] = int(any_time)
    header[CALL] = int(v.block.call is BlockCall.DEAD_END)  # R4.7
    # R5.7, stated here from [scoring] in_play: a play scores the ends' count when it is
    # a multiple of 5 (pagat's All Fives and Muggins)
    header[FIVES] = 5 if fives else 0
    header[F_TALLY] = f_tally
    # (where plays score, a play also changes the slots' weights: not SIMPLE)
    header[SIMPLE] = int(header[PLAIN] == 1 and f.markers < 0 and not toes and not fives
                         and all(sl.double_takes == 0 for sl in data.slots))
    header[RESTART] = int(v.block.restart_on_marker)  # R4.4: the run restarts at 1
    header[OUT_COVERED] = int(v.layout.out_on_double is OutOnDouble.COVERED)  # R2.2
    header[FIRST_TURN] = int(v.layout.kind is LayoutKind.TRAINS  # R2.3: trains only
                             and v.layout.first_turn is FirstTurn.OWN_TRAIN)
    header[FIRST_BIT] = f.first
    for o, arr in zip(range(O_LO, O_BIT + 1), arrays, strict=True):
        header[o] = HEADER + len(body)
        body.extend(arr)
    # R2.1, stated here from [layout] match: a tile carrying x; under Matador a half
    # summing with x to N+1, or a matador (halves summing to N+1, or 0-0)
    total = n + 1 if v.layout.match is Match.MATADOR else 0
    header[MATCH] = total
    header[O_FITS] = HEADER + len(body)
    for x in range(n + 1):
        body.extend(_mask_words(sum(
            1 << i for i, (lo, hi) in enumerate(tiles.halves)
            if (total in (lo + x, hi + x, lo + hi) or lo == hi == 0 if total
                else x in (lo, hi))), mw))
    k = np.array(header + body, dtype=np.int64)
    return Tables(v, k, p, t, mw, w, f_size, max_moves)


_TOP = (1 << BITS) - 1


def _mask_words(mask: int, mw: int) -> list[int]:
    if mw == 1:
        return [mask]
    return [(mask >> (BITS * i)) & _TOP for i in range(mw)]


def _mask_of(words_: npt.NDArray[np.int64] | list[int]) -> int:
    if len(words_) == 1:
        return int(words_[0])
    m = 0
    for i, x in enumerate(words_):
        m |= int(x) << (BITS * i)
    return m


def frame_of(tb: Tables, s: State) -> Array:
    """The frame of ``s``. Built as a Python list and copied into an array once: the
    conformance suite converts every state it compares."""
    k = tb.at
    mw = tb.mw
    buf = [0] * tb.frame
    for q, h in enumerate(s.hands):
        buf[q * mw:(q + 1) * mw] = _mask_words(h, mw)
    for off, m in ((k[F_BONE], s.boneyard), (k[F_ASIDE], s.set_aside), (k[F_TABLE], s.table)):
        buf[off:off + mw] = _mask_words(m, mw)
    e = k[F_ENDS]
    buf[e:e + tb.width] = s.ends
    buf[k[F_TURN]] = s.turn
    buf[k[F_CONF]] = s.confirmed
    buf[k[F_DREW]] = int(s.drew)
    buf[k[F_FOULS]] = s.fouls
    buf[k[F_STATUS]] = int(s.status)
    buf[k[F_MARKS]] = s.marks
    if s.stack is None:
        buf[k[F_STACKN]] = -1
    else:
        buf[k[F_STACKN]] = len(s.stack)
        st = k[F_STACK]
        buf[st:st + len(s.stack)] = s.stack
    if s.weights or s.points:  # R5.7
        tally = k[F_TALLY]
        buf[tally:tally + tb.width + tb.players] = (*s.weights, *s.points)
    return np.array(buf, dtype=np.int64)


_STATUS = tuple(Status)


def state_of(tb: Tables, frame: Array) -> State:
    """The :class:`State` of a frame (:func:`frame_of`'s inverse)."""
    k = tb.at
    mw = tb.mw
    f: list[int] = frame.tolist()
    if mw == 1:  # up to 63 tiles: a mask is one word
        hands = tuple(f[:tb.players])
        bone, aside, table = f[k[F_BONE]], f[k[F_ASIDE]], f[k[F_TABLE]]
    else:
        hands = tuple(_mask_of(f[q * mw:(q + 1) * mw]) for q in range(tb.players))
        bone, aside, table = (_mask_of(f[k[o]:k[o] + mw])
                              for o in (F_BONE, F_ASIDE, F_TABLE))
    e = k[F_ENDS]
    ends = tuple(f[e:e + tb.width])
    n = f[k[F_STACKN]]
    st = k[F_STACK]
    stack = None if n < 0 else tuple(f[st:st + n])
    points: tuple[int, ...] = ()
    weights: tuple[int, ...] = ()
    tally = k[F_TALLY]
    if tally < tb.frame:  # R5.7: the slots' weights, then the seats' points
        weights = tuple(f[tally:tally + tb.width])
        points = tuple(f[tally + tb.width:tally + tb.width + tb.players])
    return State(hands, bone, aside, table, ends, f[k[F_TURN]], f[k[F_CONF]],
                 bool(f[k[F_DREW]]), f[k[F_FOULS]], _STATUS[f[k[F_STATUS]]], stack,
                 f[k[F_MARKS]], points, weights)


__all__ = ["BITS", "Tables", "bits", "frame_of", "state_of", "tables_for",
           "unsupported", "words"]
