"""The lemmas' formulas for every set size and player count: each one of
:data:`~dominoproof.proofs.z3.lemmas.LEMMAS`' all-sizes readings, a formula over one abstract
state ``s`` of the model ``m`` (uninterpreted sorts; :mod:`dominoproof.proofs.allsizes`).
The per-instance formula of the same lemma sits beside it in ``LEMMAS``, and so does a
one-line formula (or the test of which rules it is a candidate for) of either reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import z3  # type: ignore[import-untyped]

from dominoproof.proofs.z3.terms import And, Or

if TYPE_CHECKING:
    from dominoproof.proofs.allsizes.model import AbstractModel
    from dominoproof.proofs.allsizes.vocabulary import AState

# ---------------------------------------------------------------------------
# Formulas for every N and P (uninterpreted sorts; see proofs/allsizes)
# ---------------------------------------------------------------------------
#
# Each is a formula over one abstract state ``s`` of the model ``m``; the bound
# variables keep the names of the model's invariant (``q_j``, ``t_j``, ...).


def a_vars(m: AbstractModel) -> tuple[Any, Any, Any, Any, Any]:
    v = m.v
    return (z3.Const("q_j", v.player), z3.Const("t_j", v.tile), z3.Const("e_j", v.end),
            z3.Const("x_j", v.value), z3.Const("y_j", v.value))


def a_tile_placed(m: AbstractModel, s: AState) -> Any:
    q, t, _, _, _ = a_vars(m)
    return m.placed(s, q, t)


def a_conservation(m: AbstractModel, s: AState) -> Any:
    """The partition of the tiles (the rest of TypeOK holds by construction here: the
    seat to move is a seat, the run a set of seats)."""
    q, t = z3.Const("q_c", m.v.player), z3.Const("t_c", m.v.tile)
    return And(m.placed(s, q, t), m.disjoint(s), m.one_holder(s))


def a_closed_before_lead(m: AbstractModel, s: AState) -> Any:
    _, t, e, x, _ = a_vars(m)
    return z3.Implies(z3.Not(s.opened), And(z3.ForAll([t], z3.Not(s.on_table(t))),
                                            z3.ForAll([e, x], z3.Not(s.shows(e, x)))))


def a_table_after_lead(m: AbstractModel, s: AState) -> Any:
    _, t, _, _, _ = a_vars(m)
    return z3.Implies(s.opened, z3.Exists([t], s.on_table(t)))


def a_end_shows_one_number(m: AbstractModel, s: AState) -> Any:
    """After the lead every slot the lead opens shows one number; a spinner's arm (open
    only after an opening double) shows at most one. (The line's formula is built exactly
    as it always was: Z3's choice of counterexample depends on the order terms are made.)"""
    _, _, e, x, y = a_vars(m)
    if not m.layout.arms:
        return z3.Implies(s.opened, z3.ForAll([e], And(
            z3.Exists([x], s.shows(e, x)),
            z3.ForAll([x, y], z3.Implies(And(s.shows(e, x), s.shows(e, y)), x == y)))))
    opens = Or(m.layout.opens_low(e), m.layout.opens_high(e))
    return z3.Implies(s.opened, z3.ForAll([e], And(
        z3.Implies(opens, z3.Exists([x], s.shows(e, x))),
        z3.ForAll([x, y], z3.Implies(And(s.shows(e, x), s.shows(e, y)), x == y)))))


def a_confirmed_after_lead(m: AbstractModel, s: AState) -> Any:
    q, _, _, _, _ = a_vars(m)
    return z3.ForAll([q], z3.Implies(s.confirmed(q), s.opened))


def a_confirmed_hold_nothing(m: AbstractModel, s: AState) -> Any:
    """No confirmed seat has a legal play (R2.2: a last double left waiting is none)."""
    q, t, e, x, _ = a_vars(m)
    return z3.ForAll([q, t, e, x], z3.Not(And(
        s.confirmed(q), s.holds(q, t), m.v.carries(t, x), s.shows(e, x),
        m.may_play_now(s, q, e), *m.not_going_out(s, q, t, e))))


def a_confirmed_empty_boneyard(m: AbstractModel, s: AState) -> Any:
    q, t, _, _, _ = a_vars(m)
    return z3.ForAll([q, t], z3.Implies(s.confirmed(q), z3.Not(s.in_boneyard(t))))


def a_run_has_proposer(m: AbstractModel, s: AState) -> Any:
    q, _, _, _, _ = a_vars(m)
    return z3.ForAll([q], z3.Implies(s.confirmed(q), s.confirmed(s.proposer)))


def a_run_full_at_proposer(m: AbstractModel, s: AState) -> Any:
    q, _, _, _, _ = a_vars(m)
    return z3.Implies(s.confirmed(s.turn), And(s.turn == s.proposer,
                                               z3.ForAll([q], s.confirmed(q))))


def a_run_is_arc(m: AbstractModel, s: AState) -> Any:
    q, _, _, _, _ = a_vars(m)
    return z3.Implies(And(s.confirmed(s.proposer), z3.Not(s.confirmed(s.turn))),
                      z3.ForAll([q], s.confirmed(q) == Or(
                          q == s.proposer, m.v.btw(s.proposer, q, s.turn))))


def a_marks_typed(m: AbstractModel, s: AState) -> Any:
    """Before the lead no slot is covered or pending; a pending slot is open."""
    _, _, e, x, _ = a_vars(m)
    none = []
    if m.waits:
        none.append(z3.Not(s.covered(e)))
    if m.doubles:
        none.append(z3.Not(s.pending(e)))
    out = [z3.Implies(z3.Not(s.opened), z3.ForAll([e], And(*none, m.v.ctx)))]
    if m.doubles:
        out.append(z3.ForAll([e], z3.Implies(s.pending(e), z3.Exists([x], s.shows(e, x)))))
    return And(*out)


def a_waiting_arms(m: AbstractModel, s: AState) -> Any:
    """While a side an arm waits for is uncovered, the arm shows nothing that side does
    not show (one conjunct per arm and side: the slots are constants)."""
    _, _, _, x, _ = a_vars(m)
    return And([z3.Implies(z3.Not(s.covered(side)), z3.ForAll([x], z3.Implies(
        s.shows(arm, x), s.shows(side, x))))
        for arm, sides in m.layout.waiting for side in sides])


def a_uncovered_pending(m: AbstractModel, s: AState) -> Any:
    """While a side an open arm waits for is uncovered, that side is pending."""
    _, _, _, x, _ = a_vars(m)
    return And([z3.ForAll([x], z3.Implies(And(s.shows(arm, x), z3.Not(s.covered(side))),
                                          s.pending(side)))
                for arm, sides in m.layout.waiting for side in sides])


def a_pending_one_double(m: AbstractModel, s: AState) -> Any:
    _, _, e, x, _ = a_vars(m)
    f = z3.Const("f_j", m.v.end)
    return z3.ForAll([e, f, x], z3.Implies(And(s.pending(e), s.pending(f), s.shows(e, x)),
                                           s.shows(f, x)))


def a_pending_double_on_table(m: AbstractModel, s: AState) -> Any:
    _, t, e, x, _ = a_vars(m)
    return z3.ForAll([t, e, x], z3.Implies(
        And(m.v.double(t), m.v.carries(t, x), s.pending(e), s.shows(e, x)), s.on_table(t)))


def a_blocked_sound(m: AbstractModel, s: AState) -> Any:
    """R2 in the variant's R2.3 reading (:meth:`AbstractModel.nobody_can_play`)."""
    return z3.Implies(s.blocked, And(s.opened, m.bone_empty(s), m.nobody_can_play(s)))
