"""The vocabulary of the Z3 transition system: its variables, and concrete values in and out.

Part of the declarative reading of docs/SEMANTICS.md (``proofs/z3/encoding.py`` is the
relation; this module is written from SEMANTICS.md alone too, and imports no rule logic).

Vocabulary (one copy per state, :class:`StateVars`; quantifier-free bit-vectors):

===========  ===============  ===========================================================
variable     sort             meaning (SEMANTICS "Variables")
===========  ===============  ===========================================================
loc[t]       BitVec(4)        where tile ``t`` is: seat ``0..P-1`` (``hand[p]``), ``P`` the
                              boneyard, ``P+1`` set aside, ``P+2`` the table (15: nowhere,
                              which only a broken rule set produces)
end[i]       BitVec(5)        slot ``i`` of the layout: the number it shows, 31 while it is
                              closed (each symmetric group of slots sorted, closed last)
marks        BitVec(M)        layouts with marks only: ``State.marks``, the fields the layout
                              names (``Layout.fields``): seat ``p``'s marker (bit ``p``), a
                              *covered* bit per slot another waits for, a *pending* bit per
                              slot while doubles take tiles
turn         BitVec(4)        the seat to move
confirmed    BitVec(5)        consecutive confirmations of inability [R4.2]
drew         Bool             draw-one: the player to move has drawn [R3.1]
fouls        BitVec(P)        seats that made a false declaration [R4.5]
status       BitVec(2)        0 PLAYING, 1 BLOCKED, 2 DOMINO (``Status`` values)
drawn        BitVec(8)        fixed draw order only: tiles drawn so far from the stack
points[p]    BitVec(16)       where plays score (R5.7) only: seat ``p``'s points in play
weight[i]    BitVec(2)        likewise: how many times slot ``i``'s number counts (0, 1,
                              or 2 for a double at that end), going with its slot
===========  ===============  ===========================================================

The sets of SEMANTICS are views (``proofs/z3/predicates.py``): ``hand[p] = {t : loc[t] =
p}``, ``boneyard = {t : loc[t] = P}`` and so on. One location per tile makes the
partition of the set structural; what conservation still asks is that every tile stays
*somewhere* (``loc[t] <= P+2``). Every formula is local to a tile or a few small
counters, which keeps the SAT problems small for double-18 with 10 players (190 tiles).

A move is a :class:`MoveVars`: its kind (``MoveKind`` values), its tile index
(255: no tile) and the slot played on (31: the lead / no end), with the tile's
halves ``a <= b`` as auxiliary variables. The mover is always ``turn``.

:class:`Vocabulary` holds the constants read from the variant (SEMANTICS "Constants"),
makes fresh copies of the variables, views them as the sets of SEMANTICS (a hand, the
boneyard, the table, the layout's marks), states that they equal a concrete
:class:`~dominoproof.model.state.State`, and decodes a model back into states and moves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import CLOSED, Access, MarkFields, Opens, layout_for
from dominoproof.model.matching import ONE_WAY
from dominoproof.model.moves import LEAD, NO_TILE, Move, MoveKind
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import bits
from dominoproof.model.variant import DrawRule, ExtendReading, FoulRule, Variant
from dominoproof.proofs.z3.constants import read_constants
from dominoproof.proofs.z3.terms import And, Or

#: z3 ships without type stubs: its terms are ``Any`` to mypy, named here by role.
Bool: TypeAlias = Any
BV: TypeAlias = Any
Model: TypeAlias = Any

LOC_BITS = 4  #: a tile's place
NOWHERE = 15  #: the place of a lost tile (broken rule sets only)
TILE_BITS = 8  #: tile index width (T <= 190)
NO_TILE_CODE = 255  #: the tile field of a move without a tile
END_BITS = 5  #: an end's number (N <= 18), a slot index
CLOSED_CODE = 31  #: the value of a closed slot
LEAD_CODE = 31  #: the end field of the lead and of moves without an end
#: the leaves field of a move naming no way round (``ONE_WAY``: all but a turned matador)
ONE_WAY_CODE = 31
SEAT_BITS = 4  #: seats 0..9
COUNT_BITS = 5  #: confirmations 0..P (P <= 10; mutants may go one further)
STATUS_BITS = 2
KIND_BITS = 3
DRAWN_BITS = 8
POINT_BITS = 16  #: R5.7: a seat's points in play (at most T plays of 4 * 2 * 18 each)
WEIGHT_BITS = 2  #: R5.7: a slot's weight, 0..2
STUTTER = 6  #: BMC padding only: a finished round stays as it is (never a model move)
#: The variables of a copy read each from the field of the same name of a concrete
#: state (:meth:`Vocabulary.values`), in order, and whether there is one per item (a
#: slot's, a seat's); ``loc`` (from the hands, boneyard, set-aside tiles and table) and
#: ``drawn`` (from the draw order left) are read otherwise.
FIELDS = (("ends", True), ("turn", False), ("confirmed", False), ("drew", False),
          ("fouls", False), ("status", False), ("marks", False), ("points", True),
          ("weights", True))

PLAYING, BLOCKED, DOMINO = (int(s) for s in Status)
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO_MOVE = (int(k) for k in MoveKind)


def popcount(bools: Sequence[Bool], width: int = 16) -> BV:
    """How many of ``bools`` hold, as a ``width``-bit vector (a balanced adder tree:
    a chain of fixed-width adders is much harder for the SAT solver)."""
    terms = [z3.If(b, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) for b in bools]
    if not terms:
        return z3.BitVecVal(0, width)
    while len(terms) > 1:
        nxt = []
        for j in range(0, len(terms) - 1, 2):
            a, b = terms[j], terms[j + 1]
            w = max(a.size(), b.size()) + 1
            nxt.append(z3.ZeroExt(w - a.size(), a) + z3.ZeroExt(w - b.size(), b))
        if len(terms) % 2:
            nxt.append(terms[-1])
        terms = nxt
    out = terms[0]
    return z3.ZeroExt(width - out.size(), out) if out.size() < width else out


def count_is(bools: Sequence[Bool], k: int) -> Bool:
    """Exactly ``k`` of ``bools`` hold: a balanced adder tree compared with ``k`` (Z3's
    pseudo-Boolean ``PbEq`` is heavy-tailed here: with some seeds a deal takes seconds)."""
    if not bools:
        return z3.BoolVal(k == 0)
    width = max(k, len(bools)).bit_length() + 1
    return popcount(bools, width) == k


def _num(model: Model, x: BV) -> int:
    """The model's value of the bit-vector ``x``."""
    return int(model.eval(x, model_completion=True).as_long())


def xor_all(bools: Sequence[Bool]) -> Bool:
    """The parity of ``bools``."""
    out = z3.BoolVal(False)
    for b in bools:
        out = z3.Xor(out, b)
    return out


@dataclass(frozen=True)
class StateVars:
    """One copy of the state variables (see the module docstring)."""

    name: str
    loc: tuple[BV, ...]
    ends: tuple[BV, ...]
    turn: BV
    confirmed: BV
    drew: Bool
    fouls: BV
    status: BV
    drawn: BV | None = None
    marks: BV | None = None
    #: slots of which the lead opens one (not variables: which ones to look at): the
    #: first lead slot; modulo symmetry, its whole group, whose order is free there
    lead_slots: tuple[int, ...] = (0,)
    #: R5.7 (where plays score; else none): each seat's points, each slot's weight
    points: tuple[BV, ...] = ()
    weights: tuple[BV, ...] = ()

    @property
    def led(self) -> Bool:
        """The lead has been played: a slot it opens is open."""
        open_ = [self.ends[i] != CLOSED_CODE for i in self.lead_slots]
        return open_[0] if len(open_) == 1 else Or(open_)

    def fields(self) -> dict[str, Any]:
        """Every variable by name (``loc0``, ``loc1``, ..., ``end0``, ..., ``turn``, ...)."""
        out: dict[str, Any] = {f"loc{t}": x for t, x in enumerate(self.loc)}
        out.update({f"end{i}": x for i, x in enumerate(self.ends)})
        out.update(turn=self.turn, confirmed=self.confirmed, drew=self.drew,
                   fouls=self.fouls, status=self.status)
        if self.drawn is not None:
            out["drawn"] = self.drawn
        if self.marks is not None:
            out["marks"] = self.marks
        out.update({f"points{q}": x for q, x in enumerate(self.points)})
        out.update({f"weight{i}": x for i, x in enumerate(self.weights)})
        return out


@dataclass(frozen=True)
class MoveVars:
    """One move: kind, tile index, end, the number a turned matador leaves showing (R2.1,
    ``ONE_WAY_CODE`` for every other move), and the tile's halves ``a <= b``."""

    name: str
    kind: BV
    tile: BV
    end: BV
    a: BV
    b: BV
    leaves: BV

    def fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "tile": self.tile, "end": self.end, "leaves": self.leaves}


@dataclass
class Vocabulary:
    """The variables of one variant's transition system (SEMANTICS.md), the constants they
    are read with, their views, and concrete states in and out; the relation
    (:class:`~dominoproof.proofs.z3.encoding.Encoding`) has one (``enc.v``) and is stated
    over it."""

    variant: Variant
    stack: tuple[int, ...] | None = None  #: a fixed draw order (top first), or free
    #: the relation modulo symmetry (``proofs/z3/symmetry.py``): the groups of more than two
    #: interchangeable slots are left in the order the actions leave them, not sorted
    quotient: bool = False
    _cache: dict[tuple[Any, ...], Any] = field(default_factory=dict, init=False, repr=False,
                                                compare=False)

    def memo(self, key: tuple[Any, ...], build: Callable[[], Any]) -> Any:
        """The term cached under ``key``, built by ``build()`` on first use. Formula
        caches key on a state's name (:meth:`Encoding.update` names each post-state), so
        a key holds the names of the states its term reads."""
        out = self._cache.get(key)
        if out is None:
            out = self._cache[key] = build()
        return out

    # -- constants (from the variant) -------------------------------------------
    def __post_init__(self) -> None:
        c = read_constants(self.variant)
        self.N: int = c.N
        self.T: int = c.T
        self.P: int = c.P
        self.H: int = c.H
        self.K: int = c.K
        self.B: int = c.B
        self.C: int = c.C
        self.EMPTY: bool = c.EMPTY
        self.RESTART: bool = c.RESTART  #: R4.4: a confirmation putting a marker out restarts
        self.CALL: bool = c.CALL  #: R4.7: a dead end may be called
        self.DRAW: DrawRule = c.DRAW
        self.ANY_TIME: bool = c.ANY_TIME
        self.FOULS: FoulRule = c.FOULS
        self.READING: ExtendReading = c.READING
        self.halves: tuple[tuple[int, int], ...] = c.halves
        self.VALUE: tuple[int, ...] = c.VALUE
        self.SIDES: tuple[tuple[int, ...], ...] = c.SIDES
        self.LEAD_TILE: int | None = c.LEAD_TILE
        self.FIVES: int = c.FIVES  #: R5.7: 5 where plays score, else 0
        self.BONEYARD, self.ASIDE, self.TABLE = self.P, self.P + 1, self.P + 2
        # the layout's slots (SEMANTICS "Constants": the layout)
        lay = c.LAYOUT
        self.slots = lay.slots
        self.W: int = len(self.slots)
        self.symmetric = lay.symmetric
        self.markers: bool = lay.markers
        self.lead_takes: int = lay.lead_takes  #: tiles the opening double takes
        self.again: bool = lay.again  #: the player who lays a double that takes tiles plays on
        #: R2.2: a double that would wait to be covered is no player's last tile
        self.cover_out: bool = lay.cover_out
        #: R2.1: 0 where a tile matches an end carrying its number; N+1 under Matador
        self.match_total: int = lay.match_total
        #: R2.3: a first turn lays tile after tile on one's own train
        self.first_turns: bool = lay.first_turn
        self.lead_halves = [(i, sl.half) for i, sl in enumerate(self.slots)
                            if sl.opens is Opens.LEAD]
        #: the spinner's arms (opened by an opening double) and the toes (opened by a
        #: double laid during play), in slot order
        self.spinner_slots = tuple(i for i, sl in enumerate(self.slots)
                                   if sl.opens is Opens.SPINNER)
        self.toe_slots = tuple(i for i, sl in enumerate(self.slots) if sl.opens is Opens.TOE)
        #: the bit layout of ``State.marks`` (its representation, documented by the layout)
        self.fields: MarkFields = layout_for(lay, self.P).fields
        self.group: dict[int, tuple[int, ...]] = {i: (i,) for i in range(self.W)}
        for g in self.symmetric:
            for i in g:
                self.group[i] = g
        #: the groups of more than two interchangeable slots (a chicken foot's), and the
        #: ones the canonical form leaves unsorted: those, modulo symmetry (:attr:`quotient`)
        self.large: frozenset[tuple[int, ...]] = frozenset(
            g for g in self.symmetric if len(g) > 2)
        self.unsorted = self.large if self.quotient else frozenset()
        self.everyone = all(sl.access is Access.EVERYONE for sl in self.slots)
        self.waiting = any(sl.after for sl in self.slots)  #: some slot waits for others
        self.double_rules = bool(lay.lead_takes) or any(sl.double_takes for sl in self.slots)
        #: R2.3: "holds a matching tile" and "has a legal move" are one formula: every slot
        #: is open to everyone, none waits for another, no double restricts where play goes
        self.readings_coincide = self.everyone and not self.waiting and not self.double_rules
        #: the lead leaves every symmetric group canonical with no sorting (``a <= b``): its
        #: slots show, in order, the low half, the high half, the spinner's number (or are
        #: closed: no double), closed toes; and no slot of the group has marks to compare
        rank = {Opens.SPINNER: 2, Opens.TOE: 3}
        ranks = [sl.half if sl.opens is Opens.LEAD else rank[sl.opens] for sl in self.slots]
        self.lead_sorted = all(
            [ranks[i] for i in g] == sorted(ranks[i] for i in g)
            and not any(self.slot_marked(i) for i in g) for g in self.symmetric)

    def slot_marked(self, i: int) -> bool:
        """Slot ``i`` has marks of its own (a covered or a pending bit), which move with it
        in the canonical form."""
        return self.fields.covered[i] >= 0 or self.fields.pending >= 0

    # -- constructors -----------------------------------------------------------
    def state(self, name: str) -> StateVars:
        """Fresh state variables suffixed ``name``."""
        def vec(label: str, width: int) -> BV:
            return z3.BitVec(f"{label}_{name}", width)

        return StateVars(
            name=name,
            loc=tuple(vec(f"loc{t}", LOC_BITS) for t in range(self.T)),
            ends=tuple(vec(f"end{i}", END_BITS) for i in range(self.W)),
            turn=vec("turn", SEAT_BITS), confirmed=vec("confirmed", COUNT_BITS),
            drew=z3.Bool(f"drew_{name}"), fouls=vec("fouls", self.P),
            status=vec("status", STATUS_BITS),
            drawn=vec("drawn", DRAWN_BITS) if self.stack is not None else None,
            marks=vec("marks", self.fields.width) if self.fields.width else None,
            lead_slots=next((g for g in self.unsorted if self.lead_halves[0][0] in g),
                            (self.lead_halves[0][0],)),
            points=tuple(vec(f"points{q}", POINT_BITS) for q in range(self.P))
            if self.FIVES else (),
            weights=tuple(vec(f"weight{i}", WEIGHT_BITS) for i in range(self.W))
            if self.FIVES else (),
        )

    def move(self, name: str) -> MoveVars:
        return MoveVars(
            name=name,
            kind=z3.BitVec(f"kind_{name}", KIND_BITS),
            tile=z3.BitVec(f"tile_{name}", TILE_BITS),
            end=z3.BitVec(f"end_{name}", END_BITS),
            a=z3.BitVec(f"a_{name}", END_BITS),
            b=z3.BitVec(f"b_{name}", END_BITS),
            leaves=z3.BitVec(f"leaves_{name}", END_BITS),
        )

    # -- views: the sets of SEMANTICS -----------------------------------------------
    def in_hand(self, s: StateVars, t: int, seat: BV | int) -> Bool:
        """Tile ``t`` is in ``hand[seat]`` (built once per state, tile and constant seat:
        the lemmas ask it for every tile and seat, again and again)."""
        if isinstance(seat, int):
            out: Bool = self.memo(("in_hand", t, seat, s.name), lambda: s.loc[t] == seat)
            return out
        return s.loc[t] == seat

    def held(self, s: StateVars, t: int) -> Bool:
        """Tile ``t`` is in some hand."""
        return z3.ULT(s.loc[t], self.P)

    def in_boneyard(self, s: StateVars, t: int) -> Bool:
        return s.loc[t] == self.BONEYARD

    def on_table(self, s: StateVars, t: int) -> Bool:
        return s.loc[t] == self.TABLE

    def somewhere(self, s: StateVars, t: int) -> Bool:
        """Tile ``t`` is in a hand, the boneyard, set aside or on the table."""
        return z3.ULE(s.loc[t], self.TABLE)

    def hand_empty(self, s: StateVars, seat: BV | int) -> Bool:
        return And([s.loc[t] != seat for t in range(self.T)])

    def boneyard_empty(self, s: StateVars) -> Bool:
        return And([s.loc[t] != self.BONEYARD for t in range(self.T)])

    def nothing_on_table(self, s: StateVars) -> Bool:
        return And([s.loc[t] != self.TABLE for t in range(self.T)])

    def carries(self, t: int, x: BV) -> Bool:
        """Tile ``t`` carries the number ``x`` (``t in suit(x)``)."""
        a, b = self.halves[t]
        return x == a if a == b else Or(x == a, x == b)

    def fits(self, t: int, x: BV) -> Bool:
        """R2.1: tile ``t`` may be laid on a slot showing ``x``: it carries ``x``; under
        Matador a half of it sums with ``x`` to N+1, or it is a matador (0-0, or halves
        summing to N+1) and the slot is open (a blank takes nothing else)."""
        total = self.match_total
        if not total:
            return self.carries(t, x)
        a, b = self.halves[t]
        if a + b == total or a == b == 0:
            return x != CLOSED_CODE
        return Or([x == y for y in sorted({total - a, total - b}) if 1 <= y <= self.N])

    def fits_move(self, m: MoveVars, x: BV) -> Bool:
        """:meth:`fits` for the move's tile, its halves ``m.a <= m.b`` (sums taken one bit
        wider, so that none wraps)."""
        if not self.match_total:
            return Or(m.a == x, m.b == x)
        a, b, y, total = self._wide(m, x)
        return Or(a + y == total, b + y == total, a + b == total, And(m.a == 0, m.b == 0))

    def shows_after(self, m: MoveVars, x: BV) -> BV:
        """R2.1: what a slot showing ``x`` shows once the move's tile is laid on it: the
        other half; under Matador the half a turned matador leaves (:meth:`way_ok`), any
        other tile the half not summing with ``x`` to N+1."""
        if not self.match_total:
            return z3.If(m.a == x, m.b, m.a)
        a, _, y, total = self._wide(m, x)
        return z3.If(m.leaves != ONE_WAY_CODE, m.leaves, z3.If(a + y == total, m.b, m.a))

    def way_ok(self, m: MoveVars, t: int | None) -> Bool:
        """R2.1: the move's way round, for its tile ``t`` (None: a move without a tile).
        Under Matador a matador with two different halves is wild "in either
        orientation": laid on an end, the move names either half as the one it leaves
        showing; every other move -- the lead, a draw, any other tile, 0-0, equal
        matching -- names none."""
        if t is not None and self.match_total:
            a, b = self.halves[t]
            if a != b and a + b == self.match_total:
                return z3.If(And(m.kind == PLAY, m.end != LEAD_CODE),
                             Or(m.leaves == a, m.leaves == b), m.leaves == ONE_WAY_CODE)
        return m.leaves == ONE_WAY_CODE

    def _wide(self, m: MoveVars, x: BV) -> tuple[BV, BV, BV, BV]:
        return (z3.ZeroExt(1, m.a), z3.ZeroExt(1, m.b), z3.ZeroExt(1, x),
                z3.BitVecVal(self.match_total, x.size() + 1))

    def fits_at(self, s: StateVars, t: int, i: int) -> Bool:
        """Tile ``t`` may be laid on slot ``i`` of ``s`` (:meth:`fits`, built once per
        state)."""
        out: Bool = self.memo(("fits", t, i, s.name), lambda: self.fits(t, s.ends[i]))
        return out

    def carries_at(self, s: StateVars, t: int, i: int) -> Bool:
        """Tile ``t`` carries the number slot ``i`` of ``s`` shows (:meth:`carries`, built
        once per state: the lemmas ask it for every tile, slot and seat)."""
        out: Bool = self.memo(("carries", t, i, s.name), lambda: self.carries(t, s.ends[i]))
        return out

    def matches(self, s: StateVars, t: int) -> Bool:
        """Tile ``t`` fits the number some open slot shows (R2.1; a closed slot shows 31,
        which no tile fits)."""
        out: Bool = self.memo((f"matches{t}", s.name), lambda: Or(
            [self.fits_at(s, t, i) for i in range(self.W)]))
        return out

    # -- the layout's marks (``State.marks``, the fields ``Layout.fields`` names) ----------
    def mark(self, s: StateVars, k: int) -> Bool:
        """Bit ``k`` of ``marks`` is set (built once per state and bit)."""
        out: Bool = self.memo(("mark", k, s.name), lambda: z3.Extract(k, k, s.marks) == 1)
        return out

    def marker_out(self, s: StateVars, q: int) -> Bool:
        """Seat ``q``'s marker is out (layouts with markers; else never)."""
        if self.fields.markers < 0:
            return z3.BoolVal(False)
        return self.mark(s, self.fields.markers + q)

    def covered(self, s: StateVars, i: int) -> Bool:
        """A tile has been laid on slot ``i`` (tracked for the slots another waits for)."""
        b = self.fields.covered[i]
        return self.mark(s, b) if b >= 0 else z3.BoolVal(False)

    def first_turn(self, s: StateVars) -> Bool:
        """The player to move is on their first turn, laying tiles on their own train
        (R2.3, ``first_turn = "own-train"``; else never)."""
        b = self.fields.first
        return self.mark(s, b) if b >= 0 and self.first_turns else z3.BoolVal(False)

    def own_train(self, seat: BV, m: MoveVars) -> Bool:
        """The move's slot is the train ``seat`` owns."""
        return Or([And(seat == sl.owner, m.end == i) for i, sl in enumerate(self.slots)
                   if sl.owner is not None])

    def pending(self, s: StateVars, i: int) -> Bool:
        """Slot ``i`` must take a tile before play moves elsewhere (doubles that take tiles)."""
        p = self.fields.pending
        return self.mark(s, p + i) if p >= 0 else z3.BoolVal(False)

    def any_pending(self, s: StateVars) -> Bool:
        """Some slot is pending: play goes on the pending slots only [R2.2]."""
        p = self.fields.pending
        if p < 0:
            return z3.BoolVal(False)
        out: Bool = self.memo(("any_pending", s.name),
                              lambda: z3.Extract(p + self.W - 1, p, s.marks) != 0)
        return out

    # -- a concrete state, as values of the variables ------------------------------
    def places(self, s: State) -> list[int]:
        """The place of every tile in the concrete state ``s`` (NOWHERE if none; the
        first place if several: callers check ``state_status`` for overlaps)."""
        where = [NOWHERE] * self.T
        parts = [*s.hands, s.boneyard, s.set_aside, s.table]
        for code in range(len(parts) - 1, -1, -1):
            for t in bits(parts[code]):
                if t < self.T:
                    where[t] = code
        return where

    def values(self, sv: StateVars, s: State) -> list[tuple[Any, int | bool]]:
        """Each variable of ``sv`` with its value in the concrete state ``s``: the tiles'
        places, then each of :data:`FIELDS` (the state's field of the same name), then the
        tiles drawn from a fixed draw order."""
        out: list[tuple[Any, int | bool]] = list(zip(sv.loc, self.places(s), strict=True))
        for name, per_item in FIELDS:
            x, w = getattr(sv, name), getattr(s, name)
            if per_item:
                out += zip(x, (CLOSED_CODE if v == CLOSED else v for v in w) if name == "ends"
                           else w, strict=True)
            elif x is not None:
                out.append((x, w if isinstance(w, bool) else int(w)))
        if sv.drawn is not None:
            assert self.stack is not None and s.stack is not None
            done = len(self.stack) - len(s.stack)
            assert tuple(self.stack[done:]) == tuple(s.stack), "state off the fixed stack"
            out.append((sv.drawn, done))
        return out

    def equals(self, sv: StateVars, s: State) -> list[Bool]:
        """``sv`` is the concrete state ``s``."""
        return [x == (z3.BoolVal(w) if isinstance(w, bool) else z3.BitVecVal(w, x.size()))
                for x, w in self.values(sv, s)]

    # -- decoding: a model, as concrete states and moves -----------------------------
    def decode_state(self, model: Model, s: StateVars) -> State:
        """The model's values of ``s`` as a model :class:`State` (a tile nowhere is in no set)."""
        num = partial(_num, model)

        def flag(x: Any) -> bool:
            return bool(z3.is_true(model.eval(x, model_completion=True)))

        masks = [0] * (self.P + 3)
        for t, x in enumerate(s.loc):
            w = num(x)
            if w < len(masks):
                masks[w] |= 1 << t
        stack: tuple[int, ...] | None = None
        if s.drawn is not None and self.stack is not None:
            stack = tuple(self.stack[num(s.drawn):])
        return State(
            hands=tuple(masks[:self.P]), boneyard=masks[self.BONEYARD],
            set_aside=masks[self.ASIDE], table=masks[self.TABLE],
            ends=tuple(CLOSED if num(x) == CLOSED_CODE else num(x) for x in s.ends),
            turn=num(s.turn), confirmed=num(s.confirmed), drew=flag(s.drew),
            fouls=num(s.fouls), status=Status(num(s.status)), stack=stack,
            marks=num(s.marks) if s.marks is not None else 0,
            points=tuple(num(x) for x in s.points), weights=tuple(num(x) for x in s.weights))

    def decode_move(self, model: Model, s: StateVars, m: MoveVars) -> Move:
        """The model's move ``m`` (made by ``turn`` of ``s``) as a model :class:`Move`."""
        num = partial(_num, model)
        tile = num(m.tile)
        end = num(m.end)
        leaves = num(m.leaves)
        return Move(MoveKind(num(m.kind)), num(s.turn),
                    NO_TILE if tile == NO_TILE_CODE else tile,
                    LEAD if end == LEAD_CODE else end,
                    ONE_WAY if leaves == ONE_WAY_CODE else leaves)

    def move_is(self, m: MoveVars, mv: Move) -> Bool:
        """``m`` is the concrete move ``mv``."""
        return And(m.kind == int(mv.kind),
                   m.tile == (NO_TILE_CODE if mv.tile == NO_TILE else mv.tile),
                   m.end == (LEAD_CODE if mv.end == LEAD else mv.end),
                   m.leaves == (ONE_WAY_CODE if mv.leaves == ONE_WAY else mv.leaves))

