"""The sets and predicates of SEMANTICS.md over the Z3 vocabulary, and the lead.

Part of the declarative reading of docs/SEMANTICS.md (``proofs/z3/encoding.py`` is the
relation, ``proofs/z3/vocabulary.py`` its variables), written from SEMANTICS.md alone.

The sets of SEMANTICS are views of the variables (``hand[p] = {t : loc[t] = p}``, the
boneyard, the table, the layout's marks), stated with the variables in
``proofs/z3/vocabulary.py``; the predicates of RULES.md are formulas over them. ``led`` (the
lead has been played) is not a variable: it is the first slot the lead opens being
open. The layout's slots are the variant's
:class:`~dominoproof.model.layout.SlotLayout` data, read here on their own terms: who
may play on a slot is the predicate :meth:`Predicates.may_play`, and both R2.3 readings
of "can be extended" are stated (:meth:`Predicates.holds_matching_tile`,
:meth:`Predicates.has_legal_move`). The lead the variant names (SEMANTICS "Init") is
:meth:`Predicates.lead_choice`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Access
from dominoproof.model.tiles import tile_index
from dominoproof.model.variant import ExtendReading, LeadFallback, LeadRule
from dominoproof.proofs.z3.terms import And, Or
from dominoproof.proofs.z3.vocabulary import (
    BV,
    CLOSED_CODE,
    COUNT_BITS,
    DOMINO,
    LEAD_CODE,
    NO_TILE_CODE,
    SEAT_BITS,
    Bool,
    MoveVars,
    StateVars,
    Vocabulary,
    count_is,
)


@dataclass(frozen=True)
class LeadChoice:
    """The lead the variant names for some hands (SEMANTICS "Init").

    ``chosen[t]``: tile ``t`` is the tile the lead rule names (at most one holds);
    ``named``: some tile is named (else ``lead.player`` leads with any tile);
    ``void``: the deal is void (fallback "redeal", or nothing to lead with);
    ``draws``: nobody holds the tile, and the players draw for it (fallback "draw", R3.6;
    ``lead.player`` draws first).
    """

    chosen: dict[int, Bool]
    named: Bool
    void: Bool
    draws: Bool


class Predicates:
    """The helpers, predicates and lead choice of one variant, as Z3 formulas over its
    vocabulary ``v`` and its views (formulas of one state are cached by the state's name)."""

    def __init__(self, v: Vocabulary) -> None:
        self.v = v

    # -- who may play where (R2.3) ---------------------------------------------------
    def may_play(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        """R2.3: ``seat`` may play on slot ``i``: the slots it waits for are covered (a
        spinner's arms), and its access rule lets ``seat`` in (everyone; its owner; its
        owner, or anyone while the owner's marker is out)."""
        sl = self.v.slots[i]
        waits = self.waits_for(s, i)
        if sl.access is Access.EVERYONE:
            access = z3.BoolVal(True)
        elif sl.access is Access.STARTED:  # the seat's own train has a tile on it
            access = Or([And(self._is(seat, o.owner), self.v.covered(s, j))
                         for j, o in enumerate(self.v.slots) if o.owner is not None])
        elif sl.owner is None:
            access = z3.BoolVal(False)
        else:
            own = self._is(seat, sl.owner)
            if sl.access is Access.OWNER or s.marks is None:
                access = own
            elif sl.access is Access.OWNER_OR_MARKERS:  # or the seat's own marker is out
                access = Or(own, self.v.marker_out(s, sl.owner), *[
                    And(self._is(seat, q), self.v.marker_out(s, q)) for q in range(self.v.P)])
            else:
                access = Or(own, self.v.marker_out(s, sl.owner))
        return And(*waits, access) if waits else access

    @staticmethod
    def _is(seat: BV | int, q: int) -> Bool:
        """``seat`` is seat ``q`` (a concrete seat: a constant)."""
        return z3.BoolVal(seat == q) if isinstance(seat, int) else seat == q

    def waits_for(self, s: StateVars, i: int) -> list[Bool]:
        """What slot ``i`` waits for before anyone may play on it: each slot of its
        ``after`` covered (a spinner's arms wait for its sides)."""
        return [self.v.covered(s, j) for j in self.v.slots[i].after]

    def may_play_now(self, s: StateVars, seat: BV | int, i: int) -> Bool:
        """``seat`` may play on slot ``i`` in ``s``: :meth:`may_play`, and while slots are
        pending, ``i`` is one of them [R2.2]."""
        def build() -> Bool:
            if self.v.fields.pending < 0:
                return self.may_play(s, seat, i)
            return And(self.may_play(s, seat, i),
                       Or(z3.Not(self.v.any_pending(s)), self.v.pending(s, i)))

        return self._per_seat(("may_play_now", seat, i, s.name), seat, build)

    def matches_for(self, s: StateVars, t: int, seat: BV | int) -> Bool:
        """Tile ``t`` fits the number a slot ``seat`` may play on now shows (R2.1)."""
        if self.v.readings_coincide:
            return self.v.matches(s, t)
        def at(i: int) -> list[Bool]:  # (a term made only where the rule is on: Z3's
            # models depend on the terms made, and so would every other variant's)
            bar = [z3.Not(self.goes_out_waiting(s, t, seat, i))] if self.v.cover_out else []
            return [self.may_play_now(s, seat, i), self.v.fits_at(s, t, i), *bar]
        return self._per_seat(("matches_for", t, seat, s.name), seat, lambda: Or(
            [And(*at(i)) for i in range(self.v.W)]))

    def goes_out_waiting(self, s: StateVars, t: int, seat: BV | int, i: int) -> Bool:
        """R2.2 (``cover_out``): tile ``t`` laid on slot ``i`` would be ``seat``'s last tile,
        a double left waiting there (no other slot pending): not a legal play."""
        a, b = self.v.halves[t]
        if not (self.v.cover_out and a == b and self.v.slots[i].double_takes):
            return z3.BoolVal(False)
        return And(*[z3.Not(self.v.pending(s, j)) for j in range(self.v.W) if j != i],
                   *[z3.Not(self.v.in_hand(s, u, seat)) for u in range(self.v.T) if u != t])

    def empties_hand(self, s: StateVars, m: MoveVars) -> Bool:
        """Laying ``m.tile`` empties the hand of the player to move."""
        return And([Or(m.tile == t, s.loc[t] != s.turn) for t in range(self.v.T)])

    def _per_seat(self, key: tuple[Any, ...], seat: BV | int,
                  build: Callable[[], Bool]) -> Bool:
        """:meth:`memo` for a concrete seat; a symbolic seat's term is built each time
        (z3's ``==`` is not Python's: a term cannot be part of a key)."""
        out: Bool = self.v.memo(key, build) if isinstance(seat, int) else build()
        return out

    # -- small helpers ----------------------------------------------------------
    def next_seat(self, seat: BV) -> BV:
        """Clockwise order ``p -> (p+1) mod P``."""
        return z3.If(seat == self.v.P - 1, z3.BitVecVal(0, SEAT_BITS), seat + 1)

    def seat_bit(self, seat: BV) -> BV:
        """The one-seat mask of ``fouls`` for a symbolic seat."""
        out = z3.BitVecVal(1 << (self.v.P - 1), self.v.P)
        for p in range(self.v.P - 2, -1, -1):
            out = z3.If(seat == p, z3.BitVecVal(1 << p, self.v.P), out)
        return out

    def tile_ok(self, m: MoveVars) -> Bool:
        """The move's tile is a tile of the set, ``a-b`` with its halves ``a <= b``, and
        the way round it names is one it may name (R2.1, :meth:`Vocabulary.way_ok`)."""
        return And(z3.ULT(m.tile, self.v.T), *[
            z3.Implies(m.tile == t, And(m.a == a, m.b == b, self.v.way_ok(m, t)))
            for t, (a, b) in enumerate(self.v.halves)])

    def tile_at(self, s: StateVars, m: MoveVars, place: BV | int) -> Bool:
        """The move's tile is at ``place`` (e.g. in the mover's hand)."""
        return And([z3.Implies(m.tile == t, s.loc[t] == place) for t in range(self.v.T)])

    def no_tile(self, m: MoveVars) -> Bool:
        return And(m.tile == NO_TILE_CODE, m.end == LEAD_CODE, m.a == 0, m.b == 0,
                   self.v.way_ok(m, None))

    def moved(self, s: StateVars, m: MoveVars, place: BV | int) -> tuple[BV, ...]:
        """Every tile's place after the move's tile goes to ``place``."""
        return tuple(z3.If(m.tile == t, place, x) for t, x in enumerate(s.loc))

    # -- predicates of RULES.md (SEMANTICS "Predicates") -----------------------------
    def can_play(self, s: StateVars, seat: BV | int) -> Bool:
        """``playable(seat) != {}``: a tile in that hand carries the number of a slot the
        seat may play on; before the lead, any tile."""
        return Or([And(self.v.in_hand(s, t, seat),
                       Or(z3.Not(s.led), self.matches_for(s, t, seat)))
                   for t in range(self.v.T)])

    def holds_matching_tile(self, s: StateVars) -> Bool:
        """R2.3 "holds a matching tile": some hand holds a tile carrying the number of an open
        slot, whoever may play there, waiting or not, pending or not (R2.1)."""
        return Or([And(self.v.held(s, t), self.v.matches(s, t)) for t in range(self.v.T)])

    def has_legal_move(self, s: StateVars) -> Bool:
        """R2.3 "has a legal move": some seat holds a tile carrying the number of a slot it
        may play on now (its access, the slots it waits for covered, pending slots only
        while there are any)."""
        return Or([And(self.v.held(s, t), Or([
            And(s.loc[t] == p, self.matches_for(s, t, p)) for p in range(self.v.P)]))
            for t in range(self.v.T)])

    def ends_unplayable(self, s: StateVars, reading: ExtendReading | None = None) -> Bool:
        """R2 (R2.1, R2.2): the layout is open and no open end can be extended, in R2.3's
        ``reading`` (default: the variant's). Where every slot is open to everyone, waits
        for no other and no double restricts play, the two readings are one formula (a tile
        a hand holds is one its holder may play)."""
        reading = reading or self.v.READING
        if self.v.readings_coincide or reading is ExtendReading.HOLDS_MATCHING_TILE:
            return And(s.led, z3.Not(self.holds_matching_tile(s)))
        return And(s.led, z3.Not(self.has_legal_move(s)))

    def boneyard_supplies_nothing(self, s: StateVars) -> Bool:
        """R3 (R3.2): the boneyard is empty."""
        return self.v.boneyard_empty(s)

    def conditions_hold(self, s: StateVars) -> Bool:
        """R2 and R3 at once, in a round not won by a domino (what the R4 procedure must
        agree with at the establishment)."""
        return And(s.status != DOMINO, self.ends_unplayable(s),
                   self.boneyard_supplies_nothing(s))

    def is_blocked(self, s: StateVars) -> Bool:
        """R1.1: not a domino, every hand non-empty (R1.2: no domino is due), R2 and R3."""
        return And(self.conditions_hold(s),
                   *[z3.Not(self.v.hand_empty(s, p)) for p in range(self.v.P)])

    def block_ready(self, s: StateVars) -> Bool:
        """R4.4: ``confirmed >= C`` and, where the variant says so, an empty boneyard."""
        ready = z3.UGE(s.confirmed, self.v.C)
        return And(ready, self.v.boneyard_empty(s)) if self.v.EMPTY else ready

    def dead_end(self, s: StateVars) -> Bool:
        """R4.7: an open slot shows a number every tile fitting which is on the table."""
        v = self.v
        return Or([And(x != CLOSED_CODE, *[z3.Implies(v.fits(t, x), v.on_table(s, t))
                                           for t in range(v.T)]) for x in s.ends])

    def confirmed_seat(self, s: StateVars, q: int) -> Bool:
        """Seat ``q`` is among the last ``confirmed`` players to move (those who confirmed):
        it sits ``d`` seats back from ``turn``, ``d`` in ``1..P``, and ``d <= confirmed``."""
        def build() -> Bool:
            back = z3.BitVecVal(self.v.P, COUNT_BITS)  # q is to move: P seats back
            for t in range(self.v.P):
                d = (t - q) % self.v.P
                if d:
                    back = z3.If(s.turn == t, z3.BitVecVal(d, COUNT_BITS), back)
            return z3.ULE(back, s.confirmed)

        out: Bool = self.v.memo((f"confirmed_seat{q}", s.name), build)
        return out

    # -- the lead (SEMANTICS "Init") ---------------------------------------------
    def heaviest_order(self) -> list[int]:
        """Tiles by (value, index), heaviest first (value: the variant's tile value)."""
        value = self.v.VALUE
        return sorted(range(self.v.T), key=lambda t: (value[t], t), reverse=True)

    def lead_order(self) -> tuple[list[int], bool]:
        """The tiles the lead rule tries, in order (the first held one leads), and whether
        the deal is void when none is held (else ``lead.player`` leads with any tile)."""
        v = self.v.variant
        doubles = [tile_index(d, d) for d in range(self.v.N, -1, -1)]
        heaviest = self.heaviest_order()
        fb = v.lead.fallback
        fallback: tuple[list[int], bool]
        if fb is LeadFallback.PLAYER or fb is LeadFallback.DRAW:  # DRAW: see lead_choice
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
            lt = self.v.LEAD_TILE
            assert lt is not None
            order, void = [lt, *fallback[0]], fallback[1]
        else:
            order, void = doubles + fallback[0], fallback[1]
        return list(dict.fromkeys(order)), void  # each tile at its first place

    def lead_choice(self, s: StateVars) -> LeadChoice:
        """The lead the variant names for the hands of ``s``: one Boolean per tile ("this
        tile is the first held in the lead rule's order")."""
        key = ("lead", s.name)
        if key in self.v._cache:
            return self.v._cache[key]  # type: ignore[no-any-return]
        order, void_at_end = self.lead_order()
        chosen: dict[int, Bool] = {}
        none_yet = z3.BoolVal(True)
        for t in order:
            h = self.v.held(s, t)
            chosen[t] = And(none_yet, h)
            none_yet = And(none_yet, z3.Not(h))
        out = LeadChoice(chosen, z3.Not(none_yet),
                         none_yet if void_at_end else z3.BoolVal(False),
                         none_yet if self.seeks() else z3.BoolVal(False))
        self.v._cache[key] = out
        return out

    def seeks(self) -> bool:
        """The players may draw for the lead (R3.6): the lead rule names a tile, and
        nobody holding it means drawing for it (fallback "draw")."""
        lead = self.v.variant.lead
        return lead.fallback is LeadFallback.DRAW and lead.rule is not LeadRule.PLAYER

    def drawer_in_turn(self, s: StateVars) -> Bool:
        """While the players draw for the lead (R3.6), the player to move is the one
        ``lead.player`` is followed by clockwise, one seat per tile drawn so far (the
        deal's ``B`` less the boneyard's count)."""
        start, p, b = self.v.variant.lead.player, self.v.P, self.v.B
        left = [self.v.in_boneyard(s, t) for t in range(self.v.T)]
        return Or([And(count_is(left, b - d), s.turn == (start + d) % p)
                   for d in range(b + 1)])

    def named_tiles(self) -> list[int]:
        """The tiles the lead rule names, one of which a draw for the lead seeks (R3.6):
        ``lead.tile``, or every double under "highest-double" (nobody holds one then, so
        the first drawn is the highest held)."""
        if self.v.variant.lead.rule is LeadRule.TILE:
            assert self.v.LEAD_TILE is not None
            return [self.v.LEAD_TILE]
        return [tile_index(d, d) for d in range(self.v.N + 1)]

    def is_leader(self, s: StateVars, seat: BV) -> Bool:
        """``seat`` is the leader of the hands of ``s``: the holder of the named tile, or
        ``lead.player`` when none is named."""
        lead = self.lead_choice(s)
        return And(z3.Implies(z3.Not(lead.named), seat == self.v.variant.lead.player),
                   *[z3.Implies(c, s.loc[t] == seat) for t, c in lead.chosen.items()])

    def lead_tile_held(self, s: StateVars) -> Bool:
        """The player to move holds the tile the lead rule names (or any tile if none)."""
        lead = self.lead_choice(s)
        return z3.If(lead.named,
                     And([z3.Implies(c, s.loc[t] == s.turn) for t, c in lead.chosen.items()]),
                     z3.Not(self.v.hand_empty(s, s.turn)))
