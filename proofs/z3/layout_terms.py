"""The layout's part of the actions as Z3 terms: the opening, a play on a slot, the
markers, and the canonical form (docs/SEMANTICS.md "The layout" and "Actions").

Part of the declarative reading of docs/SEMANTICS.md (``proofs/z3/encoding.py`` is the
relation, whose parts are this module, ``proofs/z3/predicates.py`` and
``proofs/z3/vocabulary.py``), written from SEMANTICS.md and the slot data
(:class:`~dominoproof.model.layout.SlotLayout`) alone: nothing here reads the engine's
``Layout`` but the bit layout of ``State.marks`` (``Layout.fields``, the state's
representation).

The layout's part of a state is the slot values (``end[i]``, 31 while closed) and the
marks (``marks``, one bit-vector; here a list of its bits while a move's effect is
built). Each effect is a pair ``(ends, marks)`` of terms over the pre-state and the move:

* **the opening** [Terms]: the lead slots show the halves of ``t = a-b``; a double also
  opens the spinner's arms, showing ``a``; where the opening double takes tiles
  (``lead_takes``) every slot it opened is pending;
* **a play** on slot ``i`` [R2.1, R2.2, R2.3]: ``i`` shows ``other(t, x)``; ``i`` is
  covered and no longer pending; a double laid on a slot whose doubles take tiles, with
  no other slot pending, makes ``i`` pending and opens the next ``takes - 1`` closed toes
  (in slot order), showing ``a``, pending too (under ``cover_out`` such a double is no
  player's last tile: :meth:`LayoutTerms.goes_out_waiting`); a play on one's own train
  takes one's marker in;
  where first turns lay several tiles [R2.3], the play keeps the mover's first turn
  going exactly when it is on their own train, that train had no tile before it (or
  that turn was going on already), and it leaves no double waiting there;
* **a pass, a confirmation, a foul** [R3.1, R4.2, R4.5]: the mover's marker goes out
  (but a pass that ends a first turn only ends it);
* **the canonical form**: each symmetric group's slots sorted by the key (number shown,
  closed last; pending; covered), each slot's pending and covered bits moving with it.
  A group of two without marks is one compare-and-swap; a larger group (a chicken foot's
  4 + 2N slots) is sorted by an insertion-sort network of compare-and-swaps on the key: a
  sorting network sorts every input, and slots with equal keys are equal in every field
  that moves, so its result is *the* sorted tuple, whatever order ties come in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.proofs.z3.predicates import Predicates
from dominoproof.proofs.z3.terms import And, Or
from dominoproof.proofs.z3.vocabulary import (
    BV,
    CLOSED_CODE,
    END_BITS,
    Bool,
    MoveVars,
    StateVars,
    Vocabulary,
)

#: The layout's part of a post-state: the slot values, and the marks' bits (None: the
#: layout has no marks).
Bits: TypeAlias = "list[Bool] | None"
Layer: TypeAlias = "tuple[tuple[BV, ...], BV | None]"

#: Counts of toes (at most two per double of double-18) fit in this many bits.
TOE_COUNT_BITS = 8


class LayoutTerms:
    """The layout's effects as terms over a pre-state and a move (see the module
    docstring), over the vocabulary ``v`` and its predicates ``preds``;
    :class:`~dominoproof.proofs.z3.encoding.Encoding` builds the actions with it."""

    def __init__(self, v: Vocabulary, preds: Predicates) -> None:
        self.v, self.preds = v, preds

    # -- the marks as bits -----------------------------------------------------------
    def mark_bits(self, s: StateVars) -> Bits:
        """Every bit of ``s.marks``, low first (None: the layout has no marks)."""
        if s.marks is None:
            return None
        return [self.v.mark(s, k) for k in range(self.v.fields.width)]

    def word(self, bits: Bits) -> BV | None:
        """The marks bit-vector of ``bits`` (low first)."""
        if bits is None:
            return None
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        parts = [z3.If(b, one, zero) for b in reversed(bits)]
        return parts[0] if len(parts) == 1 else z3.Concat(*parts)

    def markers_out(self, s: StateVars) -> BV | None:
        """The marks after the player to move passes, confirms or fouls: their marker goes
        out (R3.1, R4.2, R4.5); unchanged where the layout has no markers."""
        if self.v.fields.markers < 0:
            return s.marks
        seat = self.preds.seat_bit(s.turn)
        width = self.v.fields.width
        wide = z3.ZeroExt(width - self.v.P, seat) if width > self.v.P else seat
        return s.marks | (wide << self.v.fields.markers if self.v.fields.markers else wide)

    # -- the opening -------------------------------------------------------------------
    def opening(self, s: StateVars, m: MoveVars, weights: list[BV] | None = None) -> Layer:
        """The slot values and marks after the lead of ``m.tile = a-b`` (``a <= b``): the
        lead slots show its halves; a double also opens every spinner arm, showing ``a``,
        and where the opening double takes tiles, every slot it opened is pending; every
        other slot is closed. Then the canonical form (``weights``: see
        :meth:`canonical`)."""
        double = m.a == m.b
        closed = z3.BitVecVal(CLOSED_CODE, END_BITS)
        ends: list[BV] = [closed] * self.v.W
        opened: list[Bool] = [z3.BoolVal(False)] * self.v.W
        for i, half in self.v.lead_halves:
            ends[i] = m.b if half else m.a
            opened[i] = z3.BoolVal(True)
        for i in self.v.spinner_slots:
            ends[i] = z3.If(double, m.a, closed)
            opened[i] = double
        bits = self.mark_bits(s)
        sorted_ = self.v.lead_sorted and weights is None  # (weights: sorted with them)
        if bits is None or not (self.v.lead_takes and self.v.fields.pending >= 0):
            if sorted_:
                return tuple(ends), s.marks
        else:
            p = self.v.fields.pending
            for i in range(self.v.W):
                bits[p + i] = z3.If(double, opened[i], bits[p + i])
        if sorted_:
            return tuple(ends), self.word(bits)
        return self.canonical(ends, bits, weights)

    # -- a play on a slot ----------------------------------------------------------------
    def shown(self, s: StateVars, slot: BV) -> BV:
        """The number the slot ``slot`` (a move's end field) shows."""
        out = s.ends[-1]
        for i in range(self.v.W - 2, -1, -1):
            out = z3.If(slot == i, s.ends[i], out)
        return out

    def takes_tiles(self, m: MoveVars) -> Bool:
        """The slot ``m.end`` is one whose doubles take tiles (``double_takes > 0``)."""
        return Or([m.end == i for i, sl in enumerate(self.v.slots) if sl.double_takes])

    def plays_again(self, m: MoveVars) -> Bool | None:
        """The mover plays again: a double laid on a slot whose doubles take tiles, where
        the layout says its player plays on [R2.2] (None: never)."""
        if not self.v.again or not self.v.double_rules:
            return None
        return And(m.a == m.b, self.takes_tiles(m))

    def played(self, s: StateVars, m: MoveVars, weights: list[BV] | None = None) -> Layer:
        """The slot values and marks after ``m.tile`` is laid on slot ``m.end`` (see the
        module docstring), in the canonical form (``weights``: see :meth:`canonical`)."""
        x = self.shown(s, m.end)
        other = self.v.shows_after(m, x)  # R2.1: the other half (Matador: see shows_after)
        at = [m.end == i for i in range(self.v.W)]
        ends = [z3.If(at[i], other, e) for i, e in enumerate(s.ends)]
        bits = self.mark_bits(s)
        if bits is None:
            return self.canonical(ends, None, weights)
        f = self.v.fields
        for i in range(self.v.W):  # the slot played on is covered
            if f.covered[i] >= 0:
                bits[f.covered[i]] = Or(bits[f.covered[i]], at[i])
        if f.pending >= 0:
            rest = [And(self.v.pending(s, i), z3.Not(at[i])) for i in range(self.v.W)]
            # a double on a slot that takes tiles, nothing else pending: its slot and the
            # toes it opens take the next tiles
            new = And(m.a == m.b, self.takes_tiles(m), self.starts_wait(rest))
            toe = self.toes_opened(s, m, new)
            for i in self.v.toe_slots:
                ends[i] = z3.If(toe[i], m.a, ends[i])
            for i in range(self.v.W):
                made = Or(at[i], toe.get(i, z3.BoolVal(False)))
                bits[f.pending + i] = Or(rest[i], And(new, made))
        going = self.first_goes_on(s, m)
        if going is not None:
            bits[f.first] = going
        if f.markers >= 0:  # a play on one's own train takes one's marker in
            for q in range(self.v.P):
                own = [at[i] for i, sl in enumerate(self.v.slots) if sl.owner == q]
                if own:
                    k = f.markers + q
                    bits[k] = And(bits[k], z3.Not(And(s.turn == q, Or(own))))
        return self.canonical(ends, bits, weights)

    def goes_out_waiting(self, s: StateVars, m: MoveVars) -> Bool:
        """R2.2 (``cover_out``): ``m.tile`` laid on ``m.end`` is the mover's last tile and a
        double left waiting there (it takes tiles, nothing else is pending)."""
        if not self.v.cover_out:
            return z3.BoolVal(False)
        rest = [And(self.v.pending(s, i), m.end != i) for i in range(self.v.W)]
        return And(m.a == m.b, self.takes_tiles(m), self.starts_wait(rest),
                   self.preds.empties_hand(s, m))

    def double_waits(self, s: StateVars, m: MoveVars) -> Bool:
        """The play ``m`` is a double on a slot whose doubles take tiles, with no other
        slot pending: its slot (and the toes it opens) wait for the next tiles [R2.2]."""
        if self.v.fields.pending < 0:
            return z3.BoolVal(False)
        rest = [And(self.v.pending(s, i), m.end != i) for i in range(self.v.W)]
        return And(m.a == m.b, self.takes_tiles(m), self.starts_wait(rest))

    def first_goes_on(self, s: StateVars, m: MoveVars) -> Bool | None:
        """R2.3: after the play ``m``, the mover's first turn goes on: it is on their own
        train, which had no tile before it (its covered bit) or that turn was going on
        already, and leaves no double waiting there (None: first turns lay one tile)."""
        if self.v.fields.first < 0 or not self.v.first_turns:
            return None
        return And(z3.Not(self.double_waits(s, m)), Or([And(s.turn == sl.owner, m.end == i, Or(
            self.v.first_turn(s), z3.Not(self.v.covered(s, i))))
            for i, sl in enumerate(self.v.slots) if sl.owner is not None]))

    def starts_wait(self, rest: list[Bool]) -> Bool:
        """A double on a slot whose doubles take tiles starts a wait only while no other
        slot is pending (``rest``: the pending slots but the one played on) [R2.2]."""
        return z3.Not(Or(rest))

    def toes_opened(self, s: StateVars, m: MoveVars, new: Bool) -> dict[int, Bool]:
        """For each toe slot: the double of ``m`` opens it -- ``new`` holds, the toe is
        closed, and fewer than ``takes - 1`` closed toes come before it (``takes`` the
        double rule of the slot played on)."""
        if not self.v.toe_slots:
            return {}
        w = TOE_COUNT_BITS
        left = z3.BitVecVal(0, w)
        for i, sl in enumerate(self.v.slots):
            if sl.double_takes > 1:
                left = z3.If(m.end == i, z3.BitVecVal(sl.double_takes - 1, w), left)
        out: dict[int, Bool] = {}
        before: list[Bool] = []
        for i in self.v.toe_slots:
            closed = s.ends[i] == CLOSED_CODE
            out[i] = And(new, closed, z3.ULT(_count(before, w), left))
            before.append(closed)
        return out

    def offered(self, s: StateVars, m: MoveVars) -> Bool:
        """The slot ``m.end`` is open and one the mover may play on now (its access, the
        slots it waits for covered, a pending one while any is), and no earlier slot of its
        symmetric group shows the same number with the same marks (the same move, up to
        the symmetry)."""
        cases = []
        for i in range(self.v.W):
            earlier = [self.distinct(s, j, i) for j in self.v.group[i] if j < i]
            cases.append(And(m.end == i, s.ends[i] != CLOSED_CODE,
                             self.preds.may_play_now(s, s.turn, i), *earlier))
        return Or(cases)

    def distinct(self, s: StateVars, j: int, i: int) -> Bool:
        """Slots ``j`` and ``i`` of one group differ: in the number shown, or in a mark, or
        where plays score (R5.7) in their weight (they score differently)."""
        counts = [s.weights[j] != s.weights[i]] if s.weights else []
        if not self.v.slot_marked(i) and not self.v.slot_marked(j):
            return Or(s.ends[j] != s.ends[i], *counts) if counts else s.ends[j] != s.ends[i]
        return Or(s.ends[j] != s.ends[i], self.v.pending(s, j) != self.v.pending(s, i),
                  self.v.covered(s, j) != self.v.covered(s, i), *counts)

    # -- the canonical form --------------------------------------------------------------
    def canonical(self, ends: Sequence[BV], bits: Bits = None,
                  weights: list[BV] | None = None) -> Layer:
        """The layout's canonical form of ``ends`` and the marks' ``bits``: each symmetric
        group sorted by (number shown, closed last; pending; covered), each slot's marks
        moving with it (see the module docstring). Where plays score (R5.7), ``weights``,
        each slot's weight, move with their slots too (sorted in place), slots alike but
        for their weight sorted by it."""
        out = list(ends)
        bits = list(bits) if bits is not None else None
        f = self.v.fields
        for g in self.v.symmetric:
            if g in self.v.unsorted:  # the relation modulo symmetry (proofs/z3/symmetry.py)
                continue
            if not any(self.v.slot_marked(i) for i in g) and len(g) == 2 and weights is None:
                i, j = g
                u, w = out[i], out[j]
                out[i], out[j] = z3.If(z3.ULE(u, w), u, w), z3.If(z3.ULE(u, w), w, u)
                continue
            false = z3.BoolVal(False)
            # a group of more than two slots without marks (a chicken foot whose doubles
            # take no tiles) is sorted by the numbers alone: no bit moves with a slot
            row = [(out[i],
                    bits[f.pending + i] if bits is not None and f.pending >= 0 else false,
                    bits[f.covered[i]] if bits is not None and f.covered[i] >= 0 else false,
                    weights[i] if weights is not None else None)
                   for i in g]
            for a, b in insertion_network(len(row)):
                row[a], row[b] = _compare_swap(row[a], row[b])
            for i, (v, p, c, wt) in zip(g, row, strict=True):
                out[i] = v
                if bits is not None and f.pending >= 0:
                    bits[f.pending + i] = p
                if bits is not None and f.covered[i] >= 0:
                    bits[f.covered[i]] = c
                if weights is not None:
                    weights[i] = wt
        return tuple(out), self.word(bits)


def insertion_network(n: int) -> list[tuple[int, int]]:
    """The comparators of insertion sort on ``n`` places, in order: ``(a, a + 1)``, each
    putting the smaller key first. A sorting network: ``proofs/z3/symmetry.py`` checks it on
    every input of zeros and ones, which by the 0-1 principle covers every input."""
    return [(b - 1, b) for a in range(1, n) for b in range(a, 0, -1)]


#: a slot as the canonical form sorts it: number, pending, covered, and where plays score
#: (R5.7) weight (else None)
Slot4: TypeAlias = "tuple[BV, Bool, Bool, BV | None]"


def _key(x: Slot4) -> BV:
    one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
    v, p, c, w = x
    return z3.Concat(v, z3.If(p, one, zero), z3.If(c, one, zero), *([] if w is None else [w]))


def _compare_swap(x: Slot4, y: Slot4) -> tuple[Slot4, Slot4]:
    """``(x, y)`` in key order (the smaller first; equal keys are equal slots)."""
    keep = z3.ULE(_key(x), _key(y))
    lo = tuple(a if a is None else z3.If(keep, a, b) for a, b in zip(x, y, strict=True))
    hi = tuple(b if b is None else z3.If(keep, b, a) for a, b in zip(x, y, strict=True))
    return lo, hi  # type: ignore[return-value]


def _count(bools: list[Bool], width: int) -> BV:
    """How many of ``bools`` hold (a small sum; the toes before one toe)."""
    one, zero = z3.BitVecVal(1, width), z3.BitVecVal(0, width)
    out = zero
    for b in bools:
        out = out + z3.If(b, one, zero)
    return out


__all__ = ["LayoutTerms", "insertion_network"]
