"""The round as a Z3 transition system: the declarative reading of docs/SEMANTICS.md.

This module is written from SEMANTICS.md alone, independently of the engine's
code (``model/rules.py``): the two readings of the rules catch each other's
mistakes (``tests/test_crosscheck_z3.py``, ``proofs/conformance.py``). It uses
the model's data types (tile numbering, :class:`State`, :class:`Move`, the
:class:`Variant`) and nothing of the engine's logic.

Vocabulary (one copy per state, :class:`StateVars`; quantifier-free bit-vectors
over the one tile numbering of ``model/tiles.py``, so a set of tiles is a
``T``-bit vector exactly as in :class:`State`):

===========  ===============  ===========================================================
variable     sort             meaning (SEMANTICS "Variables")
===========  ===============  ===========================================================
hand[p]      BitVec(T)        tiles held by seat ``p``
boneyard     BitVec(T)        the drawable stock
aside        BitVec(T)        tiles out of play (constant)
table        BitVec(T)        tiles on the layout
led          Bool             ``ends != ()``: the lead has been played
lo, hi       BitVec(5)        the open ends, sorted (0, 0 before the lead)
turn         BitVec(4)        the seat to move
confirmed    BitVec(5)        consecutive confirmations of inability [R4.2]
drew         Bool             draw-one: the player to move has drawn [R3.1]
fouls        BitVec(P)        seats that made a false declaration [R4.5]
status       BitVec(2)        0 PLAYING, 1 BLOCKED, 2 DOMINO (``Status`` values)
drawn        BitVec(8)        fixed draw order only: tiles drawn so far from the stack
===========  ===============  ===========================================================

A move is a :class:`MoveVars`: its kind (``MoveKind`` values), its tile index
(255: no tile) and the end played on (31: the lead / no end), with the tile's
halves ``a <= b`` as auxiliary variables. The mover is always ``turn``.

``Init`` is a deal (any deal, or a given :class:`Deal`), the actions are one
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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]
from dominoproof.model.engine import Deal
from dominoproof.model.moves import LEAD, NO_TILE, Move, MoveKind
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import tile_index
from dominoproof.model.variant import (
    DrawRule,
    FoulRule,
    LayoutKind,
    LeadFallback,
    LeadRule,
    Variant,
)

#: z3 ships without type stubs: its terms are ``Any`` to mypy, named here by role.
Bool: TypeAlias = Any
BV: TypeAlias = Any
Model: TypeAlias = Any

TILE_BITS = 8  #: tile index width (T <= 190)
NO_TILE_CODE = 255  #: the tile field of a move without a tile
END_BITS = 5  #: an end's number (N <= 18)
LEAD_CODE = 31  #: the end field of the lead and of moves without an end
SEAT_BITS = 4  #: seats 0..9
COUNT_BITS = 5  #: confirmations 0..P (P <= 10; mutants may go one further)
STATUS_BITS = 2
KIND_BITS = 3
DRAWN_BITS = 8
STUTTER = 6  #: BMC padding only: a finished round stays as it is (never a model move)

PLAYING, BLOCKED, DOMINO = (int(s) for s in Status)
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO_MOVE = (int(k) for k in MoveKind)


def popcount(v: BV, width: int = 8) -> BV:
    """The number of set bits of ``v`` as a ``width``-bit vector."""
    n = v.size()
    return z3.Sum([z3.ZeroExt(width - 1, z3.Extract(i, i, v)) for i in range(n)]) \
        if n > 1 else z3.ZeroExt(width - 1, v)


def xor_bits(v: BV, idx: Sequence[int]) -> Bool:
    """The parity (xor) of the bits ``idx`` of ``v``, as a Boolean."""
    out = z3.BoolVal(False)
    for i in idx:
        out = z3.Xor(out, z3.Extract(i, i, v) == 1)
    return out


@dataclass(frozen=True)
class StateVars:
    """One copy of the state variables (see the module docstring)."""

    name: str
    hands: tuple[BV, ...]
    boneyard: BV
    aside: BV
    table: BV
    led: Bool
    lo: BV
    hi: BV
    turn: BV
    confirmed: BV
    drew: Bool
    fouls: BV
    status: BV
    drawn: BV | None = None

    def fields(self) -> dict[str, Any]:
        """Every variable by name (``hand0``, ``hand1``, ..., ``boneyard``, ...)."""
        out: dict[str, Any] = {f"hand{p}": h for p, h in enumerate(self.hands)}
        out.update(boneyard=self.boneyard, aside=self.aside, table=self.table,
                   led=self.led, lo=self.lo, hi=self.hi, turn=self.turn,
                   confirmed=self.confirmed, drew=self.drew, fouls=self.fouls,
                   status=self.status)
        if self.drawn is not None:
            out["drawn"] = self.drawn
        return out

    def held(self) -> BV:
        """Every tile in some hand."""
        out = self.hands[0]
        for h in self.hands[1:]:
            out = out | h
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

    ``named``: a tile is named (else the leader plays any tile); ``tile``: that
    tile; ``leader``: who leads; ``void``: the deal is void (fallback "redeal").
    """

    named: Bool
    tile: BV
    leader: BV
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
        v = self.variant
        if v.layout.kind is not LayoutKind.LINE:  # pragma: no cover - the only layout
            raise NotImplementedError(f"layout {v.layout.kind}")
        ts = v.tiles
        self.N = ts.n
        self.T = ts.count
        self.P = v.players
        self.H = v.deal.hand_size
        self.K = v.deal.set_aside
        self.B = v.boneyard_size
        self.C = v.needed_confirmations
        self.EMPTY = v.block.boneyard_must_be_empty
        self.DRAW = v.draw.rule
        self.FOULS = v.fouls.rule
        self.halves = ts.halves
        self.suit_masks = ts.suit
        self.full = ts.full
        self._W = max(self.T, TILE_BITS)  # width of the one-hot shift

    @property
    def needed(self) -> int:
        """R4.4: the confirmations that establish the block (``C``)."""
        return self.C

    # -- constructors -----------------------------------------------------------
    def bv(self, value: int) -> BV:
        """A tile set constant."""
        return z3.BitVecVal(value, self.T)

    def state(self, name: str) -> StateVars:
        """Fresh state variables suffixed ``name``."""
        T = self.T

        def vec(label: str, width: int) -> BV:
            return z3.BitVec(f"{label}_{name}", width)

        return StateVars(
            name=name,
            hands=tuple(vec(f"hand{p}", T) for p in range(self.P)),
            boneyard=vec("boneyard", T), aside=vec("aside", T), table=vec("table", T),
            led=z3.Bool(f"led_{name}"), lo=vec("lo", END_BITS), hi=vec("hi", END_BITS),
            turn=vec("turn", SEAT_BITS), confirmed=vec("confirmed", COUNT_BITS),
            drew=z3.Bool(f"drew_{name}"), fouls=vec("fouls", self.P),
            status=vec("status", STATUS_BITS),
            drawn=vec("drawn", DRAWN_BITS) if self.stack is not None else None,
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

    def const_state(self, s: State, name: str = "c") -> list[Bool]:
        """Equalities fixing ``StateVars`` named ``name`` to the concrete state ``s``."""
        sv = self.state(name)
        return self.equals(sv, s)

    def equals(self, sv: StateVars, s: State) -> list[Bool]:
        """``sv`` is the concrete state ``s``."""
        out = [h == self.bv(m) for h, m in zip(sv.hands, s.hands, strict=True)]
        out += [sv.boneyard == self.bv(s.boneyard), sv.aside == self.bv(s.set_aside),
                sv.table == self.bv(s.table), sv.led == bool(s.ends),
                sv.lo == (s.ends[0] if s.ends else 0), sv.hi == (s.ends[1] if s.ends else 0),
                sv.turn == s.turn, sv.confirmed == s.confirmed, sv.drew == s.drew,
                sv.fouls == z3.BitVecVal(s.fouls, self.P), sv.status == int(s.status)]
        if sv.drawn is not None:
            assert self.stack is not None and s.stack is not None
            done = len(self.stack) - len(s.stack)
            assert tuple(self.stack[done:]) == tuple(s.stack), "state off the fixed stack"
            out.append(sv.drawn == done)
        return out

    # -- small helpers ----------------------------------------------------------
    def seat_is(self, seat: BV, p: int) -> Bool:
        return seat == p

    def next_seat(self, seat: BV) -> BV:
        """Clockwise order ``p -> (p+1) mod P``."""
        return z3.If(seat == self.P - 1, z3.BitVecVal(0, SEAT_BITS), seat + 1)

    def hand_of(self, s: StateVars, seat: BV) -> BV:
        """``hand[seat]`` for a symbolic seat."""
        out = s.hands[self.P - 1]
        for p in range(self.P - 2, -1, -1):
            out = z3.If(seat == p, s.hands[p], out)
        return out

    def seat_bit(self, seat: BV) -> BV:
        """The one-seat mask of ``fouls`` for a symbolic seat."""
        out = z3.BitVecVal(1 << (self.P - 1), self.P)
        for p in range(self.P - 2, -1, -1):
            out = z3.If(seat == p, z3.BitVecVal(1 << p, self.P), out)
        return out

    def onehot(self, tile: BV) -> BV:
        """The tile set ``{tile}`` for a symbolic tile index."""
        shifted = z3.BitVecVal(1, self._W) << z3.ZeroExt(self._W - TILE_BITS, tile)
        return z3.Extract(self.T - 1, 0, shifted)

    def suit(self, x: BV) -> BV:
        """``suit(x)``: the tiles carrying the number ``x`` (a symbolic number)."""
        out = self.bv(self.suit_masks[self.N])
        for v in range(self.N - 1, -1, -1):
            out = z3.If(x == v, self.bv(self.suit_masks[v]), out)
        return out

    def match(self, s: StateVars) -> BV:
        """The tiles that extend an open end: ``suit(lo) | suit(hi)`` (none before the lead)."""
        key = ("match", s.name)
        if key not in self._cache:
            self._cache[key] = z3.If(s.led, self.suit(s.lo) | self.suit(s.hi), self.bv(0))
        return self._cache[key]

    def tri(self, b: BV) -> BV:
        """``b(b+1)/2`` as a tile index (the index of tile ``0-b``)."""
        out = z3.BitVecVal(self.N * (self.N + 1) // 2, TILE_BITS)
        for v in range(self.N - 1, -1, -1):
            out = z3.If(b == v, z3.BitVecVal(v * (v + 1) // 2, TILE_BITS), out)
        return out

    def tile_ok(self, m: MoveVars) -> Bool:
        """The move's tile is ``a-b`` with ``a <= b <= N`` (index ``b(b+1)/2 + a``)."""
        return z3.And(z3.ULE(m.a, m.b), z3.ULE(m.b, self.N),
                      m.tile == self.tri(m.b) + z3.ZeroExt(TILE_BITS - END_BITS, m.a))

    def no_tile(self, m: MoveVars) -> Bool:
        return z3.And(m.tile == NO_TILE_CODE, m.end == LEAD_CODE, m.a == 0, m.b == 0)

    def holds(self, h: BV, tile_set: BV) -> Bool:
        return (h & tile_set) != 0

    # -- predicates of RULES.md (SEMANTICS "Predicates") -----------------------------
    def playable(self, s: StateVars, seat: BV) -> BV:
        """``playable(p)``: the seat's tiles carrying ``lo`` or ``hi``; its hand before the lead."""
        h = self.hand_of(s, seat)
        return z3.If(s.led, h & self.match(s), h)

    def ends_unplayable(self, s: StateVars) -> Bool:
        """R2 (R2.1, R2.2): the line is open and no hand holds a tile carrying an end.

        Under R2.3 "has a legal move" the reading is the same in the one-line layout:
        every seat may play on both ends."""
        return z3.And(s.led, (s.held() & self.match(s)) == 0)

    def boneyard_supplies_nothing(self, s: StateVars) -> Bool:
        """R3 (R3.2): the boneyard is empty."""
        return s.boneyard == 0

    def is_blocked(self, s: StateVars) -> Bool:
        """R1.1: not a domino, R2 and R3."""
        return z3.And(s.status != DOMINO, self.ends_unplayable(s),
                      self.boneyard_supplies_nothing(s))

    def block_ready(self, s: StateVars) -> Bool:
        """R4.4: ``confirmed >= C`` and, where the variant says so, an empty boneyard."""
        ready = z3.UGE(s.confirmed, self.needed)
        return z3.And(ready, s.boneyard == 0) if self.EMPTY else ready

    def confirmed_seat(self, s: StateVars, q: int) -> Bool:
        """Seat ``q`` is among the last ``confirmed`` players to move (those who confirmed):
        its distance back from ``turn``, in ``1..P``, is at most ``confirmed``."""
        dist = z3.BitVecVal(self.P, COUNT_BITS)  # turn == q: P seats back
        for t in range(self.P):
            d = (t - q) % self.P
            if d:
                dist = z3.If(s.turn == t, z3.BitVecVal(d, COUNT_BITS), dist)
        return z3.ULE(dist, s.confirmed)

    # -- the lead (SEMANTICS "Init") ---------------------------------------------
    def heaviest_order(self) -> list[int]:
        """Tiles by (value, index), heaviest first (value: the variant's tile value)."""
        value = self.variant.tile_value
        return sorted(range(self.T), key=lambda t: (value[t], t), reverse=True)

    def lead_choice(self, s: StateVars) -> LeadChoice:
        """The lead the variant names for the hands of ``s``."""
        key = ("lead", s.name)
        if key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        v = self.variant
        held = s.held()

        def has(t: int) -> Bool:
            return z3.Extract(t, t, held) == 1

        def holder(t: int) -> BV:
            out = z3.BitVecVal(self.P - 1, SEAT_BITS)
            for p in range(self.P - 2, -1, -1):
                out = z3.If(z3.Extract(t, t, s.hands[p]) == 1, z3.BitVecVal(p, SEAT_BITS), out)
            return out

        player = z3.BitVecVal(v.lead.player, SEAT_BITS)
        no_tile = z3.BitVecVal(NO_TILE_CODE, TILE_BITS)
        F, Tr = z3.BoolVal(False), z3.BoolVal(True)

        def chain(order: list[int], rest: LeadChoice) -> LeadChoice:
            named, tile, leader, void = rest.named, rest.tile, rest.leader, rest.void
            for t in reversed(order):
                c = has(t)
                named = z3.If(c, Tr, named)
                tile = z3.If(c, z3.BitVecVal(t, TILE_BITS), tile)
                leader = z3.If(c, holder(t), leader)
                void = z3.If(c, F, void)
            return LeadChoice(named, tile, leader, void)

        anyone = LeadChoice(F, no_tile, player, F)
        doubles = [tile_index(d, d) for d in range(self.N, -1, -1)]
        heaviest = chain(self.heaviest_order(), LeadChoice(F, no_tile, player, Tr))
        fb = v.lead.fallback
        if fb is LeadFallback.PLAYER:
            fallback = anyone
        elif fb is LeadFallback.REDEAL:
            fallback = LeadChoice(F, no_tile, player, Tr)
        elif fb is LeadFallback.HIGHEST_DOUBLE:
            fallback = chain(doubles, heaviest)
        else:
            fallback = heaviest
        if v.lead.rule is LeadRule.PLAYER:
            out = anyone
        elif v.lead.rule is LeadRule.TILE:
            lt = v.lead_tile_index
            assert lt is not None
            out = chain([lt], fallback)
        else:
            out = chain(doubles, fallback)
        self._cache[key] = out
        return out

    # -- Init -------------------------------------------------------------------
    def partition(self, s: StateVars) -> Bool:
        """Conservation: hands, boneyard, aside and table are disjoint and cover the set."""
        parts = [*s.hands, s.boneyard, s.aside, s.table]
        cs = []
        union = self.bv(0)
        for i, x in enumerate(parts):
            cs.extend((x & y) == 0 for y in parts[i + 1:])
            union = union | x
        cs.append(union == self.bv(self.full))
        return z3.And(cs)

    def init(self, s: StateVars, deal: Deal | None = None) -> Bool:
        """Init: the state right after a deal (any deal, or ``deal``) [SEMANTICS "Init"]."""
        cs: list[Bool] = [s.table == 0, z3.Not(s.led), s.lo == 0, s.hi == 0,
                          s.confirmed == 0, z3.Not(s.drew), s.fouls == 0, s.status == PLAYING]
        if deal is None:
            cs.append(self.partition(s))
            cs += [popcount(h) == self.H for h in s.hands]
            cs += [popcount(s.boneyard) == self.B, popcount(s.aside) == self.K]
        else:
            cs += [h == self.bv(m) for h, m in zip(s.hands, deal.hands, strict=True)]
            stock = 0
            for t in deal.stack:
                stock |= 1 << t
            cs += [s.boneyard == self.bv(stock), s.aside == self.bv(deal.set_aside)]
        if s.drawn is not None:
            cs.append(s.drawn == 0)
        lead = self.lead_choice(s)
        cs += [z3.Not(lead.void), s.turn == self.initial_turn(s)]
        return z3.And(cs)

    def initial_turn(self, s: StateVars) -> BV:
        """The leader of the hands of ``s``."""
        return self.lead_choice(s).leader

    # -- the actions (SEMANTICS "Actions") ---------------------------------------
    def cases(self, s: StateVars) -> dict[str, Bool]:
        """The guard cases in the SEMANTICS order: each is its guard and no earlier one.

        Keys: ``domino``, ``establish``, ``lead``, ``play``, ``draw``, ``pass``,
        ``confirm`` (2..8 of the list; 1, a finished round, has no move)."""
        key = ("cases", s.name)
        if key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        p = s.turn
        bone = s.boneyard != 0
        guards = [
            ("domino", self.hand_of(s, p) == 0),
            ("establish", self.block_ready(s)),
            ("lead", z3.Not(s.led)),
            ("play", self.playable(s, p) != 0),
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

    def becomes(self, s: StateVars, s2: StateVars, **changes: Any) -> Bool:
        """``s2`` is ``s`` with ``changes`` (hands as ``hands=(...)``); the rest UNCHANGED."""
        new = s.fields()
        if "hands" in changes:
            for p, h in enumerate(changes.pop("hands")):
                new[f"hand{p}"] = h
        for k, val in changes.items():
            assert k in new, k
            new[k] = val
        return z3.And([v2 == new[k] for k, v2 in s2.fields().items()])

    def with_hand(self, s: StateVars, seat: BV, hand: BV) -> tuple[BV, ...]:
        """Every hand, with ``hand[seat]`` replaced by ``hand``."""
        return tuple(z3.If(seat == p, hand, h) for p, h in enumerate(s.hands))

    def action_domino(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """2. The player to move has emptied their hand: Domino(p), ``status' = DOMINO``."""
        return z3.And(self.cases(s)["domino"], m.kind == DOMINO_MOVE, self.no_tile(m),
                      self.becomes(s, s2, status=z3.BitVecVal(DOMINO, STATUS_BITS)))

    def action_establish(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """3. ``block_ready``: Establish(p), ``status' = BLOCKED`` [R4.4, R5.1]."""
        return z3.And(self.cases(s)["establish"], m.kind == ESTABLISH, self.no_tile(m),
                      self.becomes(s, s2, status=z3.BitVecVal(BLOCKED, STATUS_BITS)))

    def after_play(self, s: StateVars, m: MoveVars, s2: StateVars, lo: BV, hi: BV) -> Bool:
        """The common effect of a play (and the lead) of ``m.tile`` with new ends ``lo, hi``:
        the tile leaves the hand for the table, ``confirmed' = 0``, ``drew' = false``, and
        the turn stays with a player who emptied their hand (a Domino follows)."""
        p = s.turn
        one = self.onehot(m.tile)
        left = self.hand_of(s, p) & ~one
        return self.becomes(
            s, s2, hands=self.with_hand(s, p, left), table=s.table | one,
            led=z3.BoolVal(True), lo=lo, hi=hi,
            confirmed=z3.BitVecVal(0, COUNT_BITS), drew=z3.BoolVal(False),
            turn=z3.If(left == 0, p, self.next_seat(p)))

    def lead_allowed(self, s: StateVars, m: MoveVars) -> Bool:
        """The lead rule allows ``m.tile``: the named tile, or any tile if none is named."""
        lead = self.lead_choice(s)
        return z3.Or(z3.Not(lead.named), m.tile == lead.tile)

    def action_lead(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """4. ``ends = ()``: Play(p, t, LEAD) for the tile(s) the lead rule allows;
        ``ends' = (a, b)`` for ``t = a-b``."""
        return z3.And(
            self.cases(s)["lead"], m.kind == PLAY, m.end == LEAD_CODE, self.tile_ok(m),
            self.holds(self.hand_of(s, s.turn), self.onehot(m.tile)), self.lead_allowed(s, m),
            self.after_play(s, m, s2, m.a, m.b))

    def new_ends(self, s: StateVars, m: MoveVars) -> tuple[BV, BV]:
        """The end ``x = m.end`` shows ``other(t, x)``; ends re-sorted."""
        x = m.end
        other = z3.If(m.a == x, m.b, m.a)
        u = z3.If(s.lo == x, other, s.lo)
        w = z3.If(s.lo == x, s.hi, other)
        return z3.If(z3.ULE(u, w), u, w), z3.If(z3.ULE(u, w), w, u)

    def action_play(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """5. Play(p, t, x) for every playable ``t`` and every end value ``x`` it carries
        [R2.1, R4.3]."""
        x = m.end
        lo, hi = self.new_ends(s, m)
        return z3.And(
            self.cases(s)["play"], m.kind == PLAY, self.tile_ok(m),
            z3.Or(x == s.lo, x == s.hi), z3.Or(m.a == x, m.b == x),
            self.holds(self.hand_of(s, s.turn), self.onehot(m.tile)),
            self.after_play(s, m, s2, lo, hi))

    def action_foul(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """5'. Where fouls are penalised, the boneyard is empty and ``p`` has no foul yet:
        Confirm(p) by a player who can play, a false declaration [R4.5]:
        ``fouls' = fouls + p``, ``confirmed' = 0``, ``turn' = p+1``."""
        if self.FOULS is not FoulRule.PENALISED:
            return z3.BoolVal(False)
        bit = self.seat_bit(s.turn)
        return z3.And(
            self.cases(s)["play"], s.boneyard == 0, (s.fouls & bit) == 0,
            m.kind == CONFIRM, self.no_tile(m),
            self.becomes(s, s2, fouls=s.fouls | bit, confirmed=z3.BitVecVal(0, COUNT_BITS),
                         turn=self.next_seat(s.turn)))

    def draw_top(self, s: StateVars) -> BV | None:
        """The tile a fixed draw order allows (the top of the stack), or None (free)."""
        if self.stack is None or not self.stack:
            return None
        assert s.drawn is not None
        top = z3.BitVecVal(self.stack[-1], TILE_BITS)
        for i in range(len(self.stack) - 2, -1, -1):
            top = z3.If(s.drawn == i, z3.BitVecVal(self.stack[i], TILE_BITS), top)
        return top

    def action_draw(self, s: StateVars, m: MoveVars, s2: StateVars,
                    top: BV | None = None) -> Bool:
        """6. Draw(p, t) [R3.1] for ``t`` in the boneyard (the top of the stack when the order
        is fixed): the tile moves to the hand, ``drew' = (DRAW = one)``."""
        p = s.turn
        one = self.onehot(m.tile)
        top = top if top is not None else self.draw_top(s)
        extra: dict[str, Any] = {}
        if s.drawn is not None:
            extra["drawn"] = s.drawn + 1
        return z3.And(
            self.cases(s)["draw"], m.kind == DRAW, self.tile_ok(m), m.end == LEAD_CODE,
            self.holds(s.boneyard, one),
            m.tile == top if top is not None else z3.BoolVal(True),
            self.becomes(s, s2, hands=self.with_hand(s, p, self.hand_of(s, p) | one),
                         boneyard=s.boneyard & ~one,
                         drew=z3.BoolVal(self.DRAW is DrawRule.ONE), **extra))

    def action_pass(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """7. Stock left, but this player has drawn (draw-one): Pass(p) [R3.1];
        ``confirmed' = 0`` if confirmations need an empty boneyard, else ``+1``."""
        count = z3.BitVecVal(0, COUNT_BITS) if self.EMPTY else s.confirmed + 1
        return z3.And(self.cases(s)["pass"], m.kind == PASS, self.no_tile(m),
                      self.becomes(s, s2, turn=self.next_seat(s.turn), drew=z3.BoolVal(False),
                                   confirmed=count))

    def action_confirm(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """8. Boneyard empty, nothing playable: Confirm(p) [R4.1, R4.2]."""
        return z3.And(self.cases(s)["confirm"], m.kind == CONFIRM, self.no_tile(m),
                      self.becomes(s, s2, confirmed=s.confirmed + 1,
                                   turn=self.next_seat(s.turn), drew=z3.BoolVal(False)))

    def actions(self, s: StateVars, m: MoveVars, s2: StateVars,
                top: BV | None = None) -> dict[str, Bool]:
        """Every named action's two-state formula (a disjunct of ``T``)."""
        return {
            "domino": self.action_domino(s, m, s2),
            "establish": self.action_establish(s, m, s2),
            "lead": self.action_lead(s, m, s2),
            "play": self.action_play(s, m, s2),
            "foul": self.action_foul(s, m, s2),
            "draw": self.action_draw(s, m, s2, top),
            "pass": self.action_pass(s, m, s2),
            "confirm": self.action_confirm(s, m, s2),
        }

    def trans(self, s: StateVars, m: MoveVars, s2: StateVars, top: BV | None = None) -> Bool:
        """``T`` = ``Next``: the disjunction of the actions."""
        return z3.Or(list(self.actions(s, m, s2, top).values()))

    def stutter(self, s: StateVars, m: MoveVars, s2: StateVars) -> Bool:
        """BMC padding: a finished round stays as it is (not a move of the model)."""
        return z3.And(s.status != PLAYING, m.kind == STUTTER, self.no_tile(m),
                      self.becomes(s, s2))

    def enabled(self, s: StateVars) -> Bool:
        """Some move is possible from ``s`` (each case's moves exist): no deadlock."""
        c = self.cases(s)
        hand = self.hand_of(s, s.turn)
        lead = self.lead_choice(s)
        lead_ok = z3.If(lead.named, self.holds(hand, self.onehot(lead.tile)), hand != 0)
        return z3.Or(c["domino"], c["establish"], z3.And(c["lead"], lead_ok), c["play"],
                     c["draw"], c["pass"], c["confirm"])

    # -- decoding ---------------------------------------------------------------
    def decode_state(self, model: Model, s: StateVars) -> State:
        """The model's values of ``s`` as a model :class:`State`."""
        def num(x: Any) -> int:
            return int(model.eval(x, model_completion=True).as_long())

        def flag(x: Any) -> bool:
            return bool(z3.is_true(model.eval(x, model_completion=True)))

        led = flag(s.led)
        stack: tuple[int, ...] | None = None
        if s.drawn is not None and self.stack is not None:
            stack = tuple(self.stack[num(s.drawn):])
        return State(
            hands=tuple(num(h) for h in s.hands), boneyard=num(s.boneyard),
            set_aside=num(s.aside), table=num(s.table),
            ends=(num(s.lo), num(s.hi)) if led else (), turn=num(s.turn),
            confirmed=num(s.confirmed), drew=flag(s.drew), fouls=num(s.fouls),
            status=Status(num(s.status)), stack=stack)

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
