"""The per-instance formulas of the layout's lemmas: the canonical form and the marks
(spinners, trains with markers, doubles that take tiles).

Each is a formula over one state of the encoding (:mod:`~dominoproof.proofs.z3.encoding`),
read with the slot data; :data:`~dominoproof.proofs.z3.lemmas.LEMMAS` states them in
domino terms, with their rules and the layouts they are candidates for. None is a
candidate for a layout without the feature it speaks of, so a one-line variant's
invariant, and its proofs, are those it always had.
"""

from __future__ import annotations

import itertools

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Access, Opens
from dominoproof.model.tiles import tile_index
from dominoproof.proofs.z3.encoding import BV, CLOSED_CODE, Bool, Encoding, StateVars
from dominoproof.proofs.z3.terms import And, Or


def slot_key(e: Encoding, s: StateVars, i: int) -> BV:
    """Slot ``i``'s place in the canonical order: (number shown, closed last; pending;
    covered), as one bit-vector."""
    one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
    return z3.Concat(s.ends[i], z3.If(e.v.pending(s, i), one, zero),
                     z3.If(e.v.covered(s, i), one, zero))


def in_canonical_order(e: Encoding, s: StateVars) -> list[Bool]:
    """Each symmetric group is sorted: a group of two slots without marks by the numbers
    shown, any other group by the slots' keys (:func:`slot_key`), each with the next."""
    out = []
    for g in e.v.symmetric:
        if g in e.v.unsorted:  # the relation modulo symmetry (proofs/z3/symmetry.py)
            continue
        if len(g) == 2 and not any(e.v.slot_marked(i) for i in g):
            out.append(z3.ULE(s.ends[g[0]], s.ends[g[1]]))
        else:
            out += [z3.ULE(slot_key(e, s, i), slot_key(e, s, j))
                    for i, j in itertools.pairwise(g)]
    return out


def shows_a_number(e: Encoding, s: StateVars) -> list[Bool]:
    """After the lead every slot the lead opens shows a number of the set; every other slot
    shows one or is closed. In a group of more than two interchangeable slots, which of
    them the lead opened is not a question the relation modulo symmetry can ask
    (``proofs/z3/symmetry.py``), so there each shows a number or is closed (the canonical
    order puts an open one first)."""
    free = {i for g in e.v.large for i in g}  # any of a large group may be the open one
    lead = {i for i, _ in e.v.lead_halves if i not in free}
    return [z3.ULE(y, e.v.N) if i in lead else Or(z3.ULE(y, e.v.N), y == CLOSED_CODE)
            for i, y in enumerate(s.ends)]


def marks_typed(e: Encoding, s: StateVars) -> Bool:
    """No mark is set before the lead (no marker out, no slot covered or pending), and every
    pending slot is open. (The marks hold only the fields the layout names -- markers only
    where it has markers: per instance the bit-vector has no other bits.)"""
    if s.marks is None:  # the layout has no marks: nothing to type
        return z3.BoolVal(True)
    return And(z3.Implies(z3.Not(s.led), s.marks == 0),
               *[z3.Implies(e.v.pending(s, i), s.ends[i] != CLOSED_CODE)
                 for i in range(e.v.W)])


def confirmed_markers_out(e: Encoding, s: StateVars) -> Bool:
    """Every seat that has confirmed in the current run has its marker out (a confirmation
    puts it out, and only a play, which ends the run, takes it in)."""
    return And([z3.Implies(e.preds.confirmed_seat(s, q), e.v.marker_out(s, q))
                for q in range(e.v.P)])


def arms(e: Encoding) -> list[tuple[int, int]]:
    """(arm, side) for every spinner arm and every slot it waits for."""
    return [(i, j) for i, sl in enumerate(e.v.slots) if sl.opens is Opens.SPINNER
            for j in sl.after]


def waiting_arms(e: Encoding, s: StateVars) -> Bool:
    """While a side an open arm waits for is uncovered, the arm shows what that side shows
    (the spinner's number: nothing has been laid on either)."""
    return And([z3.Implies(And(s.ends[i] != CLOSED_CODE, z3.Not(e.v.covered(s, j))),
                           s.ends[i] == s.ends[j]) for i, j in arms(e)])


def uncovered_pending(e: Encoding, s: StateVars) -> Bool:
    """While a side an open arm waits for is uncovered, that side is pending (the opening
    double takes its tiles, and the side is one of them until a tile is laid on it)."""
    return And([z3.Implies(And(s.ends[i] != CLOSED_CODE, z3.Not(e.v.covered(s, j))),
                           e.v.pending(s, j)) for i, j in arms(e)])


def pending_one_double(e: Encoding, s: StateVars) -> Bool:
    """Every pending slot shows the same number: the slots a double made pending show its
    number until a tile is laid on them."""
    return And([z3.Implies(And(e.v.pending(s, i), e.v.pending(s, j)),
                           s.ends[i] == s.ends[j])
                for i in range(e.v.W) for j in range(i + 1, e.v.W)])


def pending_double_on_table(e: Encoding, s: StateVars) -> Bool:
    """The double of the number a pending slot shows is on the table: it is the double
    that waits (R2.2; so a last double in a hand, which ``cover_out`` keeps from being
    played, never covers a pending slot)."""
    return And([z3.Implies(And(e.v.pending(s, i), s.ends[i] == x),
                           e.v.on_table(s, tile_index(x, x)))
                for i in range(e.v.W) for x in range(e.v.N + 1)])


def pending_one_slot(e: Encoding, s: StateVars) -> Bool:
    """At most one slot is pending: a double laid during play makes its own slot pending
    only (the layout opens no toes), and the opening double makes none pending."""
    return And([z3.Not(And(e.v.pending(s, i), e.v.pending(s, j)))
                for i in range(e.v.W) for j in range(i + 1, e.v.W)])


def pending_owner_access(e: Encoding, s: StateVars) -> Bool:
    """While a slot with an owner's marker is pending, the owner's marker is out (the
    slot is open to everyone), or its owner is to move with no confirmation recorded
    (they have just laid the double on their own train and play again to cover it)."""
    out = []
    for i, sl in enumerate(e.v.slots):
        if sl.owner is None or sl.access is not Access.OWNER_OR_MARKER:
            continue
        o = sl.owner
        out.append(z3.Implies(e.v.pending(s, i), Or(
            e.v.marker_out(s, o), And(s.turn == o, s.confirmed == 0))))
    return And(out)


def confirmed_cannot_cover(e: Encoding, s: StateVars) -> Bool:
    """Every seat that has confirmed in the current run holds no tile carrying a pending
    slot's number (it could not cover the double; covering it is the only play while a
    slot is pending, and nothing a confirmation does makes a slot pending or fills a hand)."""
    out = []
    for q in range(e.v.P):
        holds = Or([And(e.v.in_hand(s, t, q), e.v.pending(s, i), e.v.carries_at(s, t, i))
                    for t in range(e.v.T) for i in range(e.v.W)])
        out.append(z3.Implies(e.preds.confirmed_seat(s, q), z3.Not(holds)))
    return And(out)


def first_turn_own_train(e: Encoding, s: StateVars) -> Bool:
    """While a first turn goes on (R2.3), the round is being played, past the lead, with
    no confirmation recorded, and the player to move's own train has had a tile laid on it
    and waits for none (a double left waiting there ends the first turn)."""
    own = [And(s.turn == sl.owner, e.v.covered(s, i), z3.Not(e.v.pending(s, i)))
           for i, sl in enumerate(e.v.slots) if sl.owner is not None]
    return z3.Implies(e.v.first_turn(s), And(s.led, s.confirmed == 0, Or(own)))


# -- where each is a candidate ------------------------------------------------------------


def has_marks(e: Encoding) -> bool:
    return e.v.fields.width > 0


def has_waiting_pending(e: Encoding) -> bool:
    return bool(arms(e)) and e.v.lead_takes > 0 and e.v.fields.pending >= 0


def has_single_pending(e: Encoding) -> bool:
    """Doubles that take tiles, with no toes and an opening double that takes none: one
    double waits at a time, on its own slot."""
    return (e.v.double_rules and e.v.fields.pending >= 0 and not e.v.lead_takes
            and not any(sl.opens is Opens.TOE for sl in e.v.slots))


def has_first_turns(e: Encoding) -> bool:
    """First turns lay tile after tile on one's own train (R2.3)."""
    return e.v.first_turns and e.v.fields.first >= 0


def has_pending_trains(e: Encoding) -> bool:
    """Doubles that take tiles on slots some owner's marker opens to the others."""
    return e.v.fields.pending >= 0 and e.v.fields.markers >= 0 and any(
        sl.owner is not None and sl.access is Access.OWNER_OR_MARKER and sl.double_takes
        for sl in e.v.slots)


__all__ = ["arms", "confirmed_cannot_cover", "confirmed_markers_out", "first_turn_own_train",
           "has_first_turns", "has_marks",
           "has_pending_trains", "has_single_pending",
           "has_waiting_pending", "in_canonical_order", "marks_typed",
           "pending_one_double", "pending_one_slot", "pending_owner_access", "shows_a_number",
           "slot_key", "uncovered_pending", "waiting_arms"]
