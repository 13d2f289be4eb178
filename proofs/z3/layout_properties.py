"""The layout's properties of the catalogue as Z3 formulas, and the R2.3 gap.

Transition properties (a formula over a step ``s --m--> t`` of the encoding, proved by
:meth:`~dominoproof.proofs.z3.induction.InductionProofs.prove_transition` from the
inductive invariant, action by action):

* ``markers`` [R2.3, R3.1, R4.2]: after each move, each seat's marker is out if that seat
  has just passed (other than to end a first turn), confirmed or fouled, in if it has
  just played on a train it owns, and
  as it was otherwise (with every marker in at the deal, a type lemma: a marker is out
  exactly when its owner has passed, confirmed or fouled since last playing on their own
  train);
* ``doubles-covered`` [R2.2]: while slots are pending every play goes on a pending slot; a
  double laid during play on a slot whose doubles take tiles, with no other slot pending,
  leaves pending exactly its slot and the toes it opens (all showing its number); the
  opening double, where it takes tiles, leaves pending exactly the slots it opened; any
  other play leaves pending what was, but the slot it covered; no other move changes them;
  and where a double that would wait is no player's last tile (``cover_out``, R2.2), no
  play of such a double empties its player's hand;
* ``spinner-arms`` [Terms, R2.2]: no play goes on a spinner's arm while a side it waits for
  is uncovered; the arms open with the lead exactly when it is a double, showing its
  number, and no other move opens one;
* ``train-access`` [R2.3] (trains under a house rule of who may play where): a play on a
  train is by its owner, by anyone while the owner's marker is out, or (every train open
  to a player whose own marker is out) by a player whose marker is out; a play on a slot
  open only to players whose own train is started (the public train) is by a player
  whose own train has had a tile laid on it; a train is started exactly once a tile is
  laid on it (the lead starts none); where first turns lay several tiles, after a play
  the turn stays with its player, their first turn going on, exactly when it is on their
  own train, that train had no tile before the turn and no double is left waiting there
  (or a double played again after, or an emptied hand, keeps it), plays in a first turn
  go on one's own train, and a pass ends it and passes the turn.

Properties of the state where a block is established (proved from the inductive
invariant at every blocked state it allows, :meth:`~dominoproof.proofs.z3.induction.
InductionProofs.prove_at_block`):

* ``uncoverable-double`` [R1.1, R4.4]: at a block established while slots are pending, no
  hand holds a tile carrying a pending slot's number and the boneyard supplies nothing;
* ``readings-agree`` [R2.3, R4.4]: at an established block the two readings of R2.3 agree
  (no hand holds a matching tile exactly when no player has a legal move).

The formulas read the slot data themselves (who owns a slot, what it waits for, how many
tiles its doubles take), not the encoding's effects: a property restates the rule, the
encoding implements it.
"""

from __future__ import annotations

from collections.abc import Callable

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Access, Opens
from dominoproof.proofs.z3.encoding import (
    BLOCKED,
    BV,
    CLOSED_CODE,
    CONFIRM,
    PASS,
    PLAY,
    PLAYING,
    Bool,
    Encoding,
    MoveVars,
    StateVars,
    popcount,
)
from dominoproof.proofs.z3.terms import And, Or

COUNT_WIDTH = 8  #: slot counts (at most 4 + 2 x 18 slots) fit in this many bits


def _count(bools: list[Bool]) -> BV:
    return popcount(bools, COUNT_WIDTH)


def _closed(e: Encoding, s: StateVars) -> BV:
    """How many slots of ``s`` are closed."""
    return _count([y == CLOSED_CODE for y in s.ends])


def _pending_count(e: Encoding, s: StateVars) -> BV:
    return _count([e.v.pending(s, i) for i in range(e.v.W)])


def _pending_at(e: Encoding, s: StateVars, m: MoveVars) -> Bool:
    """The slot ``m`` is laid on is pending in ``s``."""
    return Or([And(m.end == i, e.v.pending(s, i)) for i in range(e.v.W)])


# ---------------------------------------------------------------------------
# Transition properties
# ---------------------------------------------------------------------------


def markers(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """markers: each seat's marker after the move (see the module docstring), and every
    marker in before the lead (none is out at the deal)."""
    out = []
    for q in range(e.v.P):
        out.append(z3.Implies(z3.Not(s.led), z3.Not(e.v.marker_out(s, q))))
        mover = s.turn == q
        passed = m.kind == PASS
        if e.v.first_turns:  # a pass that ends a first turn (R2.3) puts no marker out
            passed = And(passed, z3.Not(e.v.first_turn(s)))
        put_out = And(mover, Or(passed, m.kind == CONFIRM))
        own = [m.end == i for i, sl in enumerate(e.v.slots) if sl.owner == q]
        taken_in = And(mover, m.kind == PLAY, Or(own)) if own else z3.BoolVal(False)
        out.append(e.v.marker_out(t, q) == z3.If(put_out, z3.BoolVal(True), z3.If(
            taken_in, z3.BoolVal(False), e.v.marker_out(s, q))))
    return And(out)


def doubles_covered(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """doubles-covered: where play goes while slots are pending, and which slots a double
    leaves pending (see the module docstring)."""
    play = And(m.kind == PLAY, s.led)
    lead = And(m.kind == PLAY, z3.Not(s.led))
    double = m.a == m.b
    takes = Or([m.end == i for i, sl in enumerate(e.v.slots) if sl.double_takes > 0])
    others = Or([And(e.v.pending(s, i), m.end != i) for i in range(e.v.W)])
    new = And(play, double, takes, z3.Not(others))
    if e.v.lead_takes:
        opening = And([e.v.pending(t, i) == And(double, t.ends[i] != CLOSED_CODE)
                       for i in range(e.v.W)])
    else:
        opening = z3.Not(e.v.any_pending(t))
    same = [e.v.pending(t, i) == e.v.pending(s, i) for i in range(e.v.W)]
    return And(
        z3.Implies(And(play, e.v.any_pending(s)), _pending_at(e, s, m)),
        z3.Implies(lead, opening),
        z3.Implies(new, And(
            _pending_count(e, t) == 1 + _closed(e, s) - _closed(e, t),
            *[z3.Implies(e.v.pending(t, i), t.ends[i] == m.a) for i in range(e.v.W)])),
        z3.Implies(And(play, z3.Not(new)),
                   _pending_count(e, t) + z3.If(_pending_at(e, s, m), z3.BitVecVal(1, COUNT_WIDTH),
                                                       z3.BitVecVal(0, COUNT_WIDTH))
                   == _pending_count(e, s)),
        z3.Implies(m.kind != PLAY, And(same)),
        # R2.2 (cover_out): a double left to wait is never its player's last tile
        *([z3.Implies(new, z3.Not(e.v.hand_empty(t, s.turn)))] if e.v.cover_out else []))


def spinner_arms(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """spinner-arms: arms wait for their sides, and open with an opening double only."""
    play = And(m.kind == PLAY, s.led)
    lead = And(m.kind == PLAY, z3.Not(s.led))
    out = []
    for i, sl in enumerate(e.v.slots):
        if sl.opens is not Opens.SPINNER:
            continue
        if sl.after:
            out.append(z3.Implies(And(play, m.end == i),
                                  And([e.v.covered(s, j) for j in sl.after])))
        opened = t.ends[i] != CLOSED_CODE
        out.append(z3.Implies(lead, And(opened == (m.a == m.b),
                                        z3.Implies(opened, t.ends[i] == m.a))))
        out.append(z3.Implies(And(z3.Not(lead), s.ends[i] == CLOSED_CODE),
                              t.ends[i] == CLOSED_CODE))
    return And(out)


def train_access(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """train-access: who may play on a train or on a slot that waits for one's own train,
    and when a train counts as started (see the module docstring)."""
    play = And(m.kind == PLAY, s.led)
    own = {sl.owner: i for i, sl in enumerate(e.v.slots) if sl.owner is not None}
    # where a slot waits for one's own train, or first turns last while it has no tile
    started = e.v.first_turns or any(sl.access is Access.STARTED for sl in e.v.slots)
    mover_out = Or([And(s.turn == q, e.v.marker_out(s, q)) for q in range(e.v.P)])
    mover_started = Or([And(s.turn == q, e.v.covered(s, i)) for q, i in own.items()])
    out = []
    for i, sl in enumerate(e.v.slots):
        if sl.access is Access.STARTED:
            out.append(z3.Implies(And(play, m.end == i), mover_started))
        elif sl.owner is not None:
            lets_in = [s.turn == sl.owner]
            if sl.access in (Access.OWNER_OR_MARKER, Access.OWNER_OR_MARKERS):
                lets_in.append(e.v.marker_out(s, sl.owner))
            if sl.access is Access.OWNER_OR_MARKERS:
                lets_in.append(mover_out)
            out.append(z3.Implies(And(play, m.end == i), Or(lets_in)))
            if started:  # the train is started once a tile is laid on it, for good
                laid = And(play, m.end == i)
                out.append(z3.Implies(z3.Not(s.led), z3.Not(e.v.covered(s, i))))
                out.append(e.v.covered(t, i) == Or(e.v.covered(s, i), laid))
    if e.v.first_turns:
        out.append(_first_turn(e, s, m, t, own))
    return And(out)


def _first_turn(e: Encoding, s: StateVars, m: MoveVars, t: StateVars,
                own: dict[int, int]) -> Bool:
    """train-access under first_turn = "own-train" (R2.3): after a play the turn stays
    with its player, their first turn going on, exactly when it is on their own train,
    that train had no tile before the turn and no double is left waiting there (or the
    hand is empty, or a double they play again after); while it goes on, plays go on
    one's own train; a pass ends it and passes the turn; nothing else starts one."""
    play = And(m.kind == PLAY, s.led)
    on_own = Or([And(s.turn == q, m.end == i) for q, i in own.items()])
    untouched = Or([And(s.turn == q, z3.Not(e.v.covered(s, i))) for q, i in own.items()])
    waits = Or([And(m.end == i, e.v.pending(t, i)) for i in own.values()])  # a double
    going = And(play, on_own, Or(e.v.first_turn(s), untouched), z3.Not(waits))
    emptied = e.v.hand_empty(t, s.turn)
    takes = Or([m.end == i for i, sl in enumerate(e.v.slots) if sl.double_takes > 0])
    again = And(m.a == m.b, takes) if e.v.again else z3.BoolVal(False)
    ends = And(m.kind == PASS, e.v.first_turn(s))
    return And(
        z3.Implies(And(play, e.v.first_turn(s)), on_own),
        z3.Implies(play, And(e.v.first_turn(t) == going,
                             (t.turn == s.turn) == Or(going, emptied, again))),
        z3.Implies(ends, And(t.turn == e.preds.next_seat(s.turn), z3.Not(e.v.first_turn(t)))),
        # no other move starts one (a Domino leaves a finished first turn as it was)
        z3.Implies(And(z3.Not(play), e.v.first_turn(t)), e.v.first_turn(s)))


# ---------------------------------------------------------------------------
# At an established block
# ---------------------------------------------------------------------------


def uncoverable_double(e: Encoding, s: StateVars) -> Bool:
    """uncoverable-double: at a block established while slots are pending, the boneyard is
    empty and no hand holds a tile carrying a pending slot's number."""
    covers = Or([And(e.v.held(s, t), e.v.pending(s, i), e.v.carries_at(s, t, i))
                 for t in range(e.v.T) for i in range(e.v.W)])
    return z3.Implies(And(s.status == BLOCKED, e.v.any_pending(s)),
                      And(e.v.boneyard_empty(s), z3.Not(covers)))


def readings_agree(e: Encoding, s: StateVars) -> Bool:
    """readings-agree: at an established block no hand holds a matching tile exactly when
    no player has a legal move (R2.3's two readings)."""
    agree = e.preds.holds_matching_tile(s) == e.preds.has_legal_move(s)
    return z3.Implies(s.status == BLOCKED, agree)


def readings_gap(e: Encoding, s: StateVars) -> Bool:
    """The R2.3 gap in a round being played: no player has a legal move, yet some hand
    holds a tile matching an open end."""
    return And(s.status == PLAYING, s.led, z3.Not(e.preds.has_legal_move(s)),
               e.preds.holds_matching_tile(s))


TransitionFormula = Callable[[Encoding, StateVars, MoveVars, StateVars], Bool]
StateFormula = Callable[[Encoding, StateVars], Bool]

LAYOUT_TRANSITIONS: dict[str, TransitionFormula] = {
    "markers": markers,
    "doubles-covered": doubles_covered,
    "spinner-arms": spinner_arms,
    "train-access": train_access,
}

AT_BLOCK: dict[str, StateFormula] = {
    "uncoverable-double": uncoverable_double,
    "readings-agree": readings_agree,
}

__all__ = ["AT_BLOCK", "LAYOUT_TRANSITIONS", "doubles_covered", "markers", "readings_agree",
           "readings_gap", "spinner_arms", "train_access", "uncoverable_double"]
