"""The round as a Z3 transition system: the declarative reading of docs/SEMANTICS.md.

This module is written from SEMANTICS.md alone, independently of the engine's
code (``model/rules.py``): the two readings of the rules catch each other's
mistakes (``tests/test_crosscheck_z3.py``, ``proofs/conformance.py``). It uses
the model's data types (tile numbering, :class:`State`, :class:`Move`, the
:class:`Variant`) and nothing of the engine's logic.

Vocabulary (one copy per state, :class:`StateVars`; quantifier-free bit-vectors):

===========  ===============  ===========================================================
variable     sort             meaning (SEMANTICS "Variables")
===========  ===============  ===========================================================
loc[t]       BitVec(4)        where tile ``t`` is: seat ``0..P-1`` (``hand[p]``), ``P`` the
                              boneyard, ``P+1`` set aside, ``P+2`` the table (15: nowhere,
                              which only a broken rule set produces)
end[i]       BitVec(5)        slot ``i`` of the layout: the number it shows, 31 while it is
                              closed (each symmetric group of slots sorted, closed last)
marks        BitVec(P)        layouts with markers only: the seats whose marker is out
turn         BitVec(4)        the seat to move
confirmed    BitVec(5)        consecutive confirmations of inability [R4.2]
drew         Bool             draw-one: the player to move has drawn [R3.1]
fouls        BitVec(P)        seats that made a false declaration [R4.5]
status       BitVec(2)        0 PLAYING, 1 BLOCKED, 2 DOMINO (``Status`` values)
drawn        BitVec(8)        fixed draw order only: tiles drawn so far from the stack
===========  ===============  ===========================================================

The sets of SEMANTICS are views: ``hand[p] = {t : loc[t] = p}``, ``boneyard =
{t : loc[t] = P}`` and so on. One location per tile makes the partition of the
set structural; what conservation still asks is that every tile stays *somewhere*
(``loc[t] <= P+2``). Every formula is local to a tile or a few small counters,
which keeps the SAT problems small for double-18 with 10 players (190 tiles).

``led`` (the lead has been played) is not a variable: it is the first slot the
lead opens being open. The layout's slots are the variant's
:class:`~dominoproof.model.layout.SlotLayout` data, read here on their own terms:
who may play on a slot is the predicate :meth:`Encoding.may_play`, and both R2.3
readings of "can be extended" are stated (:meth:`Encoding.holds_matching_tile`,
:meth:`Encoding.has_legal_move`).

A move is a :class:`MoveVars`: its kind (``MoveKind`` values), its tile index
(255: no tile) and the slot played on (31: the lead / no end), with the tile's
halves ``a <= b`` as auxiliary variables. The mover is always ``turn``.

``Init`` is a deal (any deal, or a given :class:`Deal`); the actions are one
method each (:meth:`Encoding.actions`), each the conjunction of its guard case
in the SEMANTICS order (the first guard that applies decides the enabled moves)
and its effect with every unchanged variable stated (``UNCHANGED``). ``T`` is
their disjunction.

Draw order. With a free order (the natural symbolic reading) a draw takes any
boneyard tile; this over-approximates every fixed stack, and a symbolic trace
decodes into a real deal whose stack is the order the tiles were drawn in. With
a fixed order (:class:`Encoding` built with ``stack=``), the state counts the
tiles drawn and only the top of the stack may be drawn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.model.constants import constants_of
from dominoproof.model.engine import Deal
from dominoproof.model.layout import CLOSED, Access, Opens
from dominoproof.model.moves import LEAD, NO_TILE, Move, MoveKind
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import bits, tile_index
from dominoproof.model.variant import (
    DrawRule,
    ExtendReading,
    FoulRule,
    LeadFallback,
    LeadRule,
    Variant,
)

#: z3 ships without type stubs: its terms are ``Any`` to mypy, named here by role.
Bool: TypeAlias = Any
BV: TypeAlias = Any
Model: TypeAlias = Any
Step: TypeAlias = tuple[Any, "StateVars"]  #: (guard, post-state terms) of an action

LOC_BITS = 4  #: a tile's place
NOWHERE = 15  #: the place of a lost tile (broken rule sets only)
TILE_BITS = 8  #: tile index width (T <= 190)
NO_TILE_CODE = 255  #: the tile field of a move without a tile
END_BITS = 5  #: an end's number (N <= 18), a slot index
CLOSED_CODE = 31  #: the value of a closed slot
LEAD_CODE = 31  #: the end field of the lead and of moves without an end
SEAT_BITS = 4  #: seats 0..9
COUNT_BITS = 5  #: confirmations 0..P (P <= 10; mutants may go one further)
STATUS_BITS = 2
KIND_BITS = 3
DRAWN_BITS = 8
STUTTER = 6  #: BMC padding only: a finished round stays as it is (never a model move)

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
    """Exactly ``k`` of ``bools`` hold: a balanced adder tree compared with ``k``. (Z3's
    pseudo-Boolean ``PbEq`` is heavy-tailed here: finding a deal of double-12 for 8 players
    takes 0.1 s with most seeds and seconds or a timeout with some.)"""
    if not bools:
        return z3.BoolVal(k == 0)
    width = max(k, len(bools)).bit_length() + 1
    return popcount(bools, width) == k


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
    lead_slot: int = 0  #: a slot the lead opens (not a variable: which one to look at)

    @property
    def led(self) -> Bool:
        """The lead has been played: the slot it opens is open."""
        return self.ends[self.lead_slot] != CLOSED_CODE

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
        return out


@dataclass(frozen=True)
class MoveVars:
    """One move: kind, tile index, end, and the tile's halves ``a <= b``."""

    name: str
    kind: BV
    tile: BV
    end: BV
    a: BV
    b: BV

    def fields(self) -> dict[str, Any]:
        return {"kind": self.kind, "tile": self.tile, "end": self.end}


@dataclass(frozen=True)
class LeadChoice:
    """The lead the variant names for some hands (SEMANTICS "Init").

    ``chosen[t]``: tile ``t`` is the tile the lead rule names (at most one holds);
    ``named``: some tile is named (else ``lead.player`` leads with any tile);
    ``void``: the deal is void (fallback "redeal", or nothing to lead with).
    """

    chosen: dict[int, Bool]
    named: Bool
    void: Bool


@dataclass
class Encoding:
    """The transition system of one variant (SEMANTICS.md), as Z3 formulas.

    Subclasses (``proofs/encoding_faults.py``) override single actions to make
    the Z3 twins of the engine's faults.
    """

    variant: Variant
    stack: tuple[int, ...] | None = None  #: a fixed draw order (top first), or free
    _cache: dict[tuple[str, str], Any] = field(default_factory=dict, repr=False)

    # -- constants (from the variant) -------------------------------------------
    def __post_init__(self) -> None:
        c = constants_of(self.variant)
        self.N: int = c.N
        self.T: int = c.T
        self.P: int = c.P
        self.H: int = c.H
        self.K: int = c.K
        self.B: int = c.B
        self.C: int = c.C
        self.EMPTY: bool = c.EMPTY
        self.DRAW: DrawRule = c.DRAW
        self.FOULS: FoulRule = c.FOULS
        self.READING: ExtendReading = c.READING
        self.halves: tuple[tuple[int, int], ...] = c.tiles.halves
        self.BONEYARD, self.ASIDE, self.TABLE = self.P, self.P + 1, self.P + 2
        # the layout's slots (SEMANTICS "Constants": the layout)
        self.slots = c.LAYOUT.slots
        self.W: int = len(self.slots)
        self.symmetric = c.LAYOUT.symmetric
        self.markers: bool = c.LAYOUT.markers
        self.lead_halves = [(i, sl.half) for i, sl in enumerate(self.slots)
                            if sl.opens is Opens.LEAD]
        if len(self.lead_halves) != self.W:  # pragma: no cover - no such layout yet
            raise NotImplementedError("slots that open after the lead")
        self.group: dict[int, tuple[int, ...]] = {i: (i,) for i in range(self.W)}
        for g in self.symmetric:
            for i in g:
                self.group[i] = g
        #: every symmetric group receives the opening tile's halves low to high, so the
        #: lead leaves the slots canonical with no sorting (a <= b)
        halves = dict(self.lead_halves)
        self.lead_sorted = all(
            [halves[i] for i in g] == sorted(halves[i] for i in g) for g in self.symmetric)
        self.everyone = all(sl.access is Access.EVERYONE for sl in self.slots)

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
            marks=vec("marks", self.P) if self.markers else None,
            lead_slot=self.lead_halves[0][0],
        )

    def move(self, name: str) -> MoveVars:
        return MoveVars(
            name=name,
            kind=z3.BitVec(f"kind_{name}", KIND_BITS),
            tile=z3.BitVec(f"tile_{name}", TILE_BITS),
            end=z3.BitVec(f"end_{name}", END_BITS),
            a=z3.BitVec(f"a_{name}", END_BITS),
            b=z3.BitVec(f"b_{name}", END_BITS),
        )

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
        """Each variable of ``sv`` with its value in the concrete state ``s``."""
        out: list[tuple[Any, int | bool]] = list(zip(sv.loc, self.places(s), strict=True))
        out += [(x, CLOSED_CODE if v == CLOSED else v)
                for x, v in zip(sv.ends, s.ends, strict=True)]
        out += [(sv.turn, s.turn), (sv.confirmed, s.confirmed), (sv.drew, s.drew),
                (sv.fouls, s.fouls), (sv.status, int(s.status))]
        if sv.marks is not None:
            out.append((sv.marks, s.marks))
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

    # -- views: the sets of SEMANTICS -----------------------------------------------
    def in_hand(self, s: StateVars, t: int, seat: BV | int) -> Bool:
        """Tile ``t`` is in ``hand[seat]``."""
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
        return z3.And([s.loc[t] != seat for t in range(self.T)])

    def boneyard_empty(self, s: StateVars) -> Bool:
        return z3.And([s.loc[t] != self.BONEYARD for t in range(self.T)])

    def nothing_on_table(self, s: StateVars) -> Bool:
        return z3.And([s.loc[t] != self.TABLE for t in range(self.T)])

    def carries(self, t: int, x: BV) -> Bool:
        """Tile ``t`` carries the number ``x`` (``t in suit(x)``)."""
        a, b = self.halves[t]
        return x == a if a == b else z3.Or(x == a, x == b)

    def matches(self, s: StateVars, t: int) -> Bool:
        """Tile ``t`` carries the number some open slot shows (a closed slot shows 31, which
        no tile carries)."""
        key = (f"matches{t}", s.name)
        if key not in self._cache:
            self._cache[key] = z3.Or([self.carries(t, x) for x in s.ends])
        return self._cache[key]

    def may_play(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        """R2.3: ``seat`` may play on slot ``i`` (the slot's access rule)."""
        sl = self.slots[i]
        if sl.access is Access.EVERYONE:
            return z3.BoolVal(True)
        if sl.owner is None:
            return z3.BoolVal(False)
        own = z3.BoolVal(seat == sl.owner) if isinstance(seat, int) else seat == sl.owner
        if sl.access is Access.OWNER or s.marks is None:
            return own
        return z3.Or(own, z3.Extract(sl.owner, sl.owner, s.marks) == 1)

    def matches_for(self, s: StateVars, t: int, seat: BV | int) -> Bool:
        """Tile ``t`` carries the number a slot ``seat`` may play on shows."""
        if self.everyone:
            return self.matches(s, t)
        return z3.Or([z3.And(self.may_play(s, seat, i), self.carries(t, x))
                      for i, x in enumerate(s.ends)])

    # -- small helpers ----------------------------------------------------------
    def next_seat(self, seat: BV) -> BV:
        """Clockwise order ``p -> (p+1) mod P``."""
        return z3.If(seat == self.P - 1, z3.BitVecVal(0, SEAT_BITS), seat + 1)

    def seat_bit(self, seat: BV) -> BV:
        """The one-seat mask of ``fouls`` for a symbolic seat."""
        out = z3.BitVecVal(1 << (self.P - 1), self.P)
        for p in range(self.P - 2, -1, -1):
            out = z3.If(seat == p, z3.BitVecVal(1 << p, self.P), out)
        return out

    def tile_ok(self, m: MoveVars) -> Bool:
        """The move's tile is a tile of the set, ``a-b`` with its halves ``a <= b``."""
        return z3.And(z3.ULT(m.tile, self.T), *[
            z3.Implies(m.tile == t, z3.And(m.a == a, m.b == b))
            for t, (a, b) in enumerate(self.halves)])

    def tile_at(self, s: StateVars, m: MoveVars, place: BV | int) -> Bool:
        """The move's tile is at ``place`` (e.g. in the mover's hand)."""
        return z3.And([z3.Implies(m.tile == t, s.loc[t] == place) for t in range(self.T)])

    def no_tile(self, m: MoveVars) -> Bool:
        return z3.And(m.tile == NO_TILE_CODE, m.end == LEAD_CODE, m.a == 0, m.b == 0)

    def moved(self, s: StateVars, m: MoveVars, place: BV | int) -> tuple[BV, ...]:
        """Every tile's place after the move's tile goes to ``place``."""
        return tuple(z3.If(m.tile == t, place, x) for t, x in enumerate(s.loc))

    # -- predicates of RULES.md (SEMANTICS "Predicates") -----------------------------
    def can_play(self, s: StateVars, seat: BV | int) -> Bool:
        """``playable(seat) != {}``: a tile in that hand carries the number of a slot the
        seat may play on; before the lead, any tile."""
        return z3.Or([z3.And(self.in_hand(s, t, seat),
                             z3.Or(z3.Not(s.led), self.matches_for(s, t, seat)))
                      for t in range(self.T)])

    def holds_matching_tile(self, s: StateVars) -> Bool:
        """R2.3 "holds a matching tile": some hand holds a tile carrying an open end."""
        return z3.Or([z3.And(self.held(s, t), self.matches(s, t)) for t in range(self.T)])

    def has_legal_move(self, s: StateVars) -> Bool:
        """R2.3 "has a legal move": some seat holds a tile carrying a slot it may play on."""
        return z3.Or([z3.And(self.held(s, t), z3.Or([
            z3.And(s.loc[t] == p, self.matches_for(s, t, p)) for p in range(self.P)]))
            for t in range(self.T)])

    def ends_unplayable(self, s: StateVars) -> Bool:
        """R2 (R2.1, R2.2): the layout is open and no open end can be extended, in the
        variant's R2.3 reading. Where every slot is open to everyone the two readings are
        one formula (a tile a hand holds is one its holder may play)."""
        if self.everyone or self.READING is ExtendReading.HOLDS_MATCHING_TILE:
            return z3.And(s.led, z3.Not(self.holds_matching_tile(s)))
        return z3.And(s.led, z3.Not(self.has_legal_move(s)))

    def boneyard_supplies_nothing(self, s: StateVars) -> Bool:
        """R3 (R3.2): the boneyard is empty."""
        return self.boneyard_empty(s)

    def conditions_hold(self, s: StateVars) -> Bool:
        """R2 and R3 at once, in a round not won by a domino (what the R4 procedure must
        agree with at the establishment)."""
        return z3.And(s.status != DOMINO, self.ends_unplayable(s),
                      self.boneyard_supplies_nothing(s))

    def is_blocked(self, s: StateVars) -> Bool:
        """R1.1: not a domino, every hand non-empty (R1.2: no domino is due), R2 and R3."""
        return z3.And(self.conditions_hold(s),
                      *[z3.Not(self.hand_empty(s, p)) for p in range(self.P)])

    def block_ready(self, s: StateVars) -> Bool:
        """R4.4: ``confirmed >= C`` and, where the variant says so, an empty boneyard."""
        ready = z3.UGE(s.confirmed, self.C)
        return z3.And(ready, self.boneyard_empty(s)) if self.EMPTY else ready

    def confirmed_seat(self, s: StateVars, q: int) -> Bool:
        """Seat ``q`` is among the last ``confirmed`` players to move (those who confirmed):
        it sits ``d`` seats back from ``turn``, ``d`` in ``1..P``, and ``d <= confirmed``."""
        key = (f"confirmed_seat{q}", s.name)
        if key not in self._cache:
            back = z3.BitVecVal(self.P, COUNT_BITS)  # q is to move: P seats back
            for t in range(self.P):
                d = (t - q) % self.P
                if d:
                    back = z3.If(s.turn == t, z3.BitVecVal(d, COUNT_BITS), back)
            self._cache[key] = z3.ULE(back, s.confirmed)
        return self._cache[key]

    # -- the lead (SEMANTICS "Init") ---------------------------------------------
    def heaviest_order(self) -> list[int]:
        """Tiles by (value, index), heaviest first (value: the variant's tile value)."""
        value = self.variant.tile_value
        return sorted(range(self.T), key=lambda t: (value[t], t), reverse=True)

    def lead_order(self) -> tuple[list[int], bool]:
        """The tiles the lead rule tries, in order (the first held one leads), and whether
        the deal is void when none is held (else ``lead.player`` leads with any tile)."""
        v = self.variant
        doubles = [tile_index(d, d) for d in range(self.N, -1, -1)]
        heaviest = self.heaviest_order()
        fb = v.lead.fallback
        fallback: tuple[list[int], bool]
        if fb is LeadFallback.PLAYER:
            fallback = ([], False)
        elif fb is LeadFallback.REDEAL:
            fallback = ([], True)
        elif fb is LeadFallback.HIGHEST_DOUBLE:
            fallback = (doubles + heaviest, True)
        else:
            fallback = (heaviest, True)
        if v.lead.rule is LeadRule.PLAYER:
            order, void = [], False
        elif v.lead.rule is LeadRule.TILE:
            lt = v.lead_tile_index
            assert lt is not None
            order, void = [lt, *fallback[0]], fallback[1]
        else:
            order, void = doubles + fallback[0], fallback[1]
        return list(dict.fromkeys(order)), void  # each tile at its first place

    def lead_choice(self, s: StateVars) -> LeadChoice:
        """The lead the variant names for the hands of ``s``: one Boolean per tile ("this
        tile is the first held in the lead rule's order")."""
        key = ("lead", s.name)
        if key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        order, void_at_end = self.lead_order()
        chosen: dict[int, Bool] = {}
        none_yet = z3.BoolVal(True)
        for t in order:
            h = self.held(s, t)
            chosen[t] = z3.And(none_yet, h)
            none_yet = z3.And(none_yet, z3.Not(h))
        out = LeadChoice(chosen, z3.Not(none_yet),
                         none_yet if void_at_end else z3.BoolVal(False))
        self._cache[key] = out
        return out

    def is_leader(self, s: StateVars, seat: BV) -> Bool:
        """``seat`` is the leader of the hands of ``s``: the holder of the named tile, or
        ``lead.player`` when none is named."""
        lead = self.lead_choice(s)
        return z3.And(z3.Implies(z3.Not(lead.named), seat == self.variant.lead.player),
                      *[z3.Implies(c, s.loc[t] == seat) for t, c in lead.chosen.items()])

    def lead_tile_held(self, s: StateVars) -> Bool:
        """The player to move holds the tile the lead rule names (or any tile if none)."""
        lead = self.lead_choice(s)
        return z3.If(lead.named,
                     z3.And([z3.Implies(c, s.loc[t] == s.turn) for t, c in lead.chosen.items()]),
                     z3.Not(self.hand_empty(s, s.turn)))

    # -- Init -------------------------------------------------------------------
    def conservation(self, s: StateVars) -> Bool:
        """Every tile is in a hand, the boneyard, set aside or on the table (the partition of
        the set is structural: one place per tile)."""
        return z3.And([self.somewhere(s, t) for t in range(self.T)])

    def init(self, s: StateVars, deal: Deal | None = None) -> Bool:
        """Init: the state right after a deal (any deal, or ``deal``) [SEMANTICS "Init"]."""
        cs: list[Bool] = [*(x == CLOSED_CODE for x in s.ends), s.confirmed == 0,
                          z3.Not(s.drew), s.fouls == 0, s.status == PLAYING]
        if s.marks is not None:
            cs.append(s.marks == 0)
        if deal is None:
            cs += [self.conservation(s), self.nothing_on_table(s)]
            for place, k in [*((p, self.H) for p in range(self.P)),
                             (self.BONEYARD, self.B), (self.ASIDE, self.K)]:
                cs.append(count_is([x == place for x in s.loc], k))
        else:
            stock = 0
            for t in deal.stack:
                stock |= 1 << t
            places = self.places(State(deal.hands, stock, deal.set_aside, 0, (), 0, 0, False,
                                       0, Status.PLAYING, None))
            cs += [x == w for x, w in zip(s.loc, places, strict=True)]
        if s.drawn is not None:
            cs.append(s.drawn == 0)
        cs += [z3.Not(self.lead_choice(s).void), self.initial_turn(s)]
        return z3.And(cs)

    def initial_turn(self, s: StateVars) -> Bool:
        """Init's ``turn``: the leader of the hands of ``s``."""
        return self.is_leader(s, s.turn)

    # -- the actions (SEMANTICS "Actions") ---------------------------------------
    def cases(self, s: StateVars) -> dict[str, Bool]:
        """The guard cases in the SEMANTICS order: each is its guard and no earlier one.

        Keys: ``domino``, ``establish``, ``lead``, ``play``, ``draw``, ``pass``,
        ``confirm`` (2..8 of the list; 1, a finished round, has no move)."""
        key = ("cases", s.name)
        if key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        bone = z3.Not(self.boneyard_empty(s))
        guards = [
            ("domino", self.hand_empty(s, s.turn)),
            ("establish", self.block_ready(s)),
            ("lead", z3.Not(s.led)),
            ("play", self.can_play(s, s.turn)),
            ("draw", z3.And(bone, z3.Not(s.drew)) if self.DRAW is not DrawRule.NONE
             else z3.BoolVal(False)),
            ("pass", bone),
            ("confirm", z3.BoolVal(True)),
        ]
        out: dict[str, Bool] = {}
        earlier = [s.status == PLAYING]
        for name, g in guards:
            out[name] = z3.And(*earlier, g)
            earlier.append(z3.Not(g))
        self._cache[key] = out
        return out

    def update(self, s: StateVars, tag: str, **changes: Any) -> StateVars:
        """The post-state as terms: ``s`` with ``changes`` (tile places as ``loc=(...)``),
        every other variable UNCHANGED. ``tag`` names it (formula caches key on names)."""
        if "loc" in changes:
            changes["loc"] = tuple(changes["loc"])
        return dataclasses.replace(s, name=f"{s.name}>{tag}", **changes)

    def same(self, post: StateVars, s2: StateVars) -> Bool:
        """The state variables ``s2`` equal the post-state terms ``post``."""
        new = post.fields()
        return z3.And([v2 == new[k] for k, v2 in s2.fields().items()])

    def step_domino(self, s: StateVars, m: MoveVars) -> Step:
        """2. The player to move has emptied their hand: Domino(p), ``status' = DOMINO``."""
        return (z3.And(self.cases(s)["domino"], m.kind == DOMINO_MOVE, self.no_tile(m)),
                self.update(s, f"domino.{m.name}",
                            status=z3.BitVecVal(DOMINO, STATUS_BITS)))

    def step_establish(self, s: StateVars, m: MoveVars) -> Step:
        """3. ``block_ready``: Establish(p), ``status' = BLOCKED`` [R4.4, R5.1]."""
        return (z3.And(self.cases(s)["establish"], m.kind == ESTABLISH, self.no_tile(m)),
                self.update(s, f"establish.{m.name}",
                            status=z3.BitVecVal(BLOCKED, STATUS_BITS)))

    def after_play(self, s: StateVars, m: MoveVars, tag: str,
                   ends: tuple[BV, ...]) -> StateVars:
        """The common effect of a play (and the lead) of ``m.tile`` with new slot values
        ``ends``: the tile leaves the hand for the table, ``confirmed' = 0``,
        ``drew' = false``, and the turn stays with a player who emptied their hand (a
        Domino follows)."""
        p = s.turn
        emptied = z3.And([z3.Or(m.tile == t, s.loc[t] != p) for t in range(self.T)])
        return self.update(
            s, f"{tag}.{m.name}", loc=self.moved(s, m, self.TABLE), ends=tuple(ends),
            confirmed=z3.BitVecVal(0, COUNT_BITS), drew=z3.BoolVal(False),
            turn=z3.If(emptied, p, self.next_seat(p)))

    def canonical(self, ends: Sequence[BV]) -> tuple[BV, ...]:
        """The layout's canonical form: each symmetric group's values sorted (closed, 31,
        last). Groups of two are one compare-and-swap."""
        out = list(ends)
        for g in self.symmetric:
            if len(g) != 2:  # pragma: no cover - no such layout yet
                raise NotImplementedError("symmetric groups of more than two slots")
            i, j = g
            u, w = out[i], out[j]
            out[i], out[j] = z3.If(z3.ULE(u, w), u, w), z3.If(z3.ULE(u, w), w, u)
        return tuple(out)

    def lead_allowed(self, s: StateVars, m: MoveVars) -> Bool:
        """The lead rule allows ``m.tile``: the named tile, or any tile if none is named."""
        lead = self.lead_choice(s)
        return z3.And([z3.Implies(c, m.tile == t) for t, c in lead.chosen.items()])

    def step_lead(self, s: StateVars, m: MoveVars) -> Step:
        """4. no slot open: Play(p, t, LEAD) for the tile(s) the lead rule allows; the slots
        the lead opens show the halves of ``t = a-b``."""
        ends = [s.ends[i] for i in range(self.W)]
        for i, half in self.lead_halves:
            ends[i] = m.b if half else m.a
        opened = tuple(ends) if self.lead_sorted else self.canonical(ends)
        return (z3.And(self.cases(s)["lead"], m.kind == PLAY, m.end == LEAD_CODE,
                       self.tile_ok(m), self.tile_at(s, m, s.turn), self.lead_allowed(s, m)),
                self.after_play(s, m, "lead", opened))

    def shown(self, s: StateVars, slot: BV) -> BV:
        """The number the slot ``slot`` (a move's end field) shows."""
        out = s.ends[-1]
        for i in range(self.W - 2, -1, -1):
            out = z3.If(slot == i, s.ends[i], out)
        return out

    def new_ends(self, s: StateVars, m: MoveVars) -> tuple[BV, ...]:
        """The slot ``m.end`` shows ``other(t, x)`` for the number ``x`` it showed; the slots
        made canonical again."""
        x = self.shown(s, m.end)
        other = z3.If(m.a == x, m.b, m.a)
        return self.canonical([z3.If(m.end == i, other, e) for i, e in enumerate(s.ends)])

    def offered(self, s: StateVars, m: MoveVars) -> Bool:
        """The slot ``m.end`` is one the mover may play on, and no earlier slot of its
        symmetric group shows the same number (the same move, up to the symmetry)."""
        cases = []
        for i in range(self.W):
            earlier = [s.ends[j] != s.ends[i] for j in self.group[i] if j < i]
            cases.append(z3.And(m.end == i, s.ends[i] != CLOSED_CODE,
                                self.may_play(s, s.turn, i), *earlier))
        return z3.Or(cases)

    def step_play(self, s: StateVars, m: MoveVars) -> Step:
        """5. Play(p, t, slot) for every playable ``t`` and every slot ``p`` may play on
        whose number ``t`` carries [R2.1, R4.3]."""
        x = self.shown(s, m.end)
        return (z3.And(self.cases(s)["play"], m.kind == PLAY, self.tile_ok(m),
                       self.offered(s, m), z3.Or(m.a == x, m.b == x),
                       self.tile_at(s, m, s.turn)),
                self.after_play(s, m, "play", self.new_ends(s, m)))

    def step_foul(self, s: StateVars, m: MoveVars) -> Step:
        """5'. Where fouls are penalised, the boneyard is empty and ``p`` has no foul yet:
        Confirm(p) by a player who can play, a false declaration [R4.5]:
        ``fouls' = fouls + p``, ``confirmed' = 0``, ``turn' = p+1``, ``drew' = false``.

        SEMANTICS lists no ``drew'`` here, so "unchanged" would leave the next player
        "having drawn" after a foul by a player who drew the last tile (draw-one). The
        cross-check with the engine found the difference; ``drew`` means "the player to
        move has drawn this turn", and every other move that passes the turn clears it,
        so this reading clears it too (SEMANTICS should say so)."""
        bit = self.seat_bit(s.turn)
        post = self.update(s, f"foul.{m.name}", fouls=s.fouls | bit,
                           confirmed=z3.BitVecVal(0, COUNT_BITS), turn=self.next_seat(s.turn),
                           drew=z3.BoolVal(False))
        if self.FOULS is not FoulRule.PENALISED:
            return z3.BoolVal(False), post
        return (z3.And(self.cases(s)["play"], self.boneyard_empty(s), (s.fouls & bit) == 0,
                       m.kind == CONFIRM, self.no_tile(m)), post)

    def draw_top(self, s: StateVars) -> BV | None:
        """The tile a fixed draw order allows (the top of the stack), or None (free)."""
        if self.stack is None or not self.stack:
            return None
        assert s.drawn is not None
        top = z3.BitVecVal(self.stack[-1], TILE_BITS)
        for i in range(len(self.stack) - 2, -1, -1):
            top = z3.If(s.drawn == i, z3.BitVecVal(self.stack[i], TILE_BITS), top)
        return top

    def step_draw(self, s: StateVars, m: MoveVars, top: BV | None = None) -> Step:
        """6. Draw(p, t) [R3.1] for ``t`` in the boneyard (the top of the stack when the order
        is fixed): the tile moves to the hand, ``drew' = (DRAW = one)``."""
        top = top if top is not None else self.draw_top(s)
        extra: dict[str, Any] = {}
        if s.drawn is not None:
            extra["drawn"] = s.drawn + 1
        return (z3.And(self.cases(s)["draw"], m.kind == DRAW, self.tile_ok(m),
                       m.end == LEAD_CODE, self.tile_at(s, m, self.BONEYARD),
                       m.tile == top if top is not None else z3.BoolVal(True)),
                self.update(s, f"draw.{m.name}", loc=self.moved(s, m, s.turn),
                            drew=z3.BoolVal(self.DRAW is DrawRule.ONE), **extra))

    def step_pass(self, s: StateVars, m: MoveVars) -> Step:
        """7. Stock left, but this player has drawn (draw-one): Pass(p) [R3.1];
        ``confirmed' = 0`` if confirmations need an empty boneyard, else ``+1``."""
        count = z3.BitVecVal(0, COUNT_BITS) if self.EMPTY else s.confirmed + 1
        return (z3.And(self.cases(s)["pass"], m.kind == PASS, self.no_tile(m)),
                self.update(s, f"pass.{m.name}", turn=self.next_seat(s.turn),
                            drew=z3.BoolVal(False), confirmed=count))

    def step_confirm(self, s: StateVars, m: MoveVars) -> Step:
        """8. Boneyard empty, nothing playable: Confirm(p) [R4.1, R4.2]."""
        return (z3.And(self.cases(s)["confirm"], m.kind == CONFIRM, self.no_tile(m)),
                self.update(s, f"confirm.{m.name}", confirmed=s.confirmed + 1,
                            turn=self.next_seat(s.turn), drew=z3.BoolVal(False)))

    def steps(self, s: StateVars, m: MoveVars, top: BV | None = None) -> dict[str, Step]:
        """Every named action as (guard, post-state terms): the functional form of ``T``.

        Every action is deterministic given its move, so the post-state is a term over
        ``s`` and ``m``; proofs substitute it directly (no frame equalities to solve)."""
        key = (f"steps.{m.name}", s.name)
        if top is None and key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        out = {
            "domino": self.step_domino(s, m),
            "establish": self.step_establish(s, m),
            "lead": self.step_lead(s, m),
            "play": self.step_play(s, m),
            "foul": self.step_foul(s, m),
            "draw": self.step_draw(s, m, top),
            "pass": self.step_pass(s, m),
            "confirm": self.step_confirm(s, m),
        }
        if top is None:
            self._cache[key] = out
        return out

    def actions(self, s: StateVars, m: MoveVars, s2: StateVars,
                top: BV | None = None) -> dict[str, Bool]:
        """Every named action's two-state formula (a disjunct of ``T``): its guard and
        ``s2`` equal to its post-state."""
        return {a: z3.And(g, self.same(post, s2)) for a, (g, post) in
                self.steps(s, m, top).items()}

    def trans(self, s: StateVars, m: MoveVars, s2: StateVars, top: BV | None = None) -> Bool:
        """``T`` = ``Next``: the disjunction of the actions."""
        return z3.Or(list(self.actions(s, m, s2, top).values()))

    def stutter(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """BMC padding: a finished round stays as it is (not a move of the model)."""
        return z3.And(s.status != PLAYING, m.kind == STUTTER, self.no_tile(m), self.same(s, s2))

    def enabled(self, s: StateVars) -> Bool:
        """Some move is possible from ``s`` (each case's moves exist): no deadlock."""
        c = self.cases(s)
        return z3.Or(c["domino"], c["establish"], z3.And(c["lead"], self.lead_tile_held(s)),
                     c["play"], c["draw"], c["pass"], c["confirm"])

    # -- decoding ---------------------------------------------------------------
    def decode_state(self, model: Model, s: StateVars) -> State:
        """The model's values of ``s`` as a model :class:`State` (a tile nowhere is in no set)."""
        def num(x: Any) -> int:
            return int(model.eval(x, model_completion=True).as_long())

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
            marks=num(s.marks) if s.marks is not None else 0)

    def decode_move(self, model: Model, s: StateVars, m: MoveVars) -> Move:
        """The model's move ``m`` (made by ``turn`` of ``s``) as a model :class:`Move`."""
        def num(x: Any) -> int:
            return int(model.eval(x, model_completion=True).as_long())

        tile = num(m.tile)
        end = num(m.end)
        return Move(MoveKind(num(m.kind)), num(s.turn),
                    NO_TILE if tile == NO_TILE_CODE else tile,
                    LEAD if end == LEAD_CODE else end)

    def move_is(self, m: MoveVars, mv: Move) -> Bool:
        """``m`` is the concrete move ``mv``."""
        return z3.And(m.kind == int(mv.kind),
                      m.tile == (NO_TILE_CODE if mv.tile == NO_TILE else mv.tile),
                      m.end == (LEAD_CODE if mv.end == LEAD else mv.end))


# ---------------------------------------------------------------------------
# Successors of a concrete state (the "z3" oracle of proofs/conformance.py)
# ---------------------------------------------------------------------------


class SuccessorOracle:
    """Enumerates the models of ``T`` from concrete states of one variant.

    The transition relation is asserted once; each query fixes the pre-state in a
    push/pop frame and enumerates (move, successor) with blocking clauses. A state
    with a fixed ``stack`` may only draw its top tile.
    """

    def __init__(self, variant: Variant, encoding: Encoding | None = None, *,
                 seed: int = 0, timeout_ms: int = 60_000) -> None:
        from .solver import Solver

        self.enc = encoding or Encoding(variant)
        self.s = self.enc.state("pre")
        self.s2 = self.enc.state("post")
        self.m = self.enc.move("mv")
        self.top = z3.BitVec("top", TILE_BITS)
        self.fixed = z3.Bool("fixed_order")
        self.solver = Solver(seed=seed, timeout_ms=timeout_ms)
        acts = self.enc.actions(self.s, self.m, self.s2)
        self.solver.add(z3.Or(list(acts.values())))
        self.solver.add(z3.Implies(z3.And(self.fixed, self.m.kind == DRAW),
                                   self.m.tile == self.top))

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every (move, successor) the relation allows from ``state``."""
        enc = self.enc
        with self.solver.frame():
            self.solver.add(*enc.equals(self.s, state))
            if state.stack is not None:
                self.solver.add(self.fixed)
                if state.stack:
                    self.solver.add(self.top == state.stack[0])
            else:
                self.solver.add(z3.Not(self.fixed))
            while True:
                res = self.solver.check()
                if res.answer != "sat":
                    if res.answer == "unknown":
                        raise RuntimeError(f"z3 returned unknown ({res.reason}) on {state!r}")
                    return
                model = res.model
                mv = enc.decode_move(model, self.s, self.m)
                nxt = enc.decode_state(model, self.s2)
                if state.stack is not None:
                    stack = state.stack[1:] if mv.kind is MoveKind.DRAW else state.stack
                    nxt = nxt._replace(stack=stack)
                yield mv, nxt
                same = [model.eval(v, model_completion=True) == v
                        for v in [*self.m.fields().values(), *self.s2.fields().values()]]
                self.solver.add(z3.Not(z3.And(same)))


@cache
def _oracle(variant: Variant) -> SuccessorOracle:
    return SuccessorOracle(variant)


def z3_successors(variant: Variant, state: State) -> set[tuple[Move, tuple[object, ...]]]:
    """The set of ``(move, successor.key())`` the Z3 relation allows from ``state``.

    The conformance framework (``proofs/conformance.py``, oracle "z3") compares it
    with the engine's successors. For a state with a fixed ``stack``, only its top
    may be drawn.
    """
    return {(mv, nxt.key()) for mv, nxt in _oracle(variant).successors(state)}
