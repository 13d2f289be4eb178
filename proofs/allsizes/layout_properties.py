"""The layout's properties of the catalogue, stated for every N and P.

They read the slot relations of :mod:`.layout` (the slot constants, which slots an arm
waits for, on which slots a double takes tiles) and the state relations ``covered`` and
``pending``; like the per-instance formulas (``proofs/z3/layout_properties.py``) they
restate the rule from the slot data, not the model's effects:

* ``doubles-covered`` [R2.2] (every move): a play while slots are pending goes on a
  pending slot; after a play the slots pending are the slot played on alone if the tile
  is a double, the slot's doubles take tiles and no other slot was pending, else those
  pending before but the slot played on; after the lead they are the slots it opened if
  it is a double that takes tiles (``lead_double_takes``), else none; no other move
  changes them; where out_on_double is "covered", a play of a double left pending leaves
  its player a tile;
* ``spinner-arms`` [Terms, R2.2] (every move): no play goes on an arm while a side it
  waits for is uncovered; a play covers its slot and nothing else changes what is
  covered; the lead opens each arm exactly when it is a double, showing its number; no
  other move opens a closed arm;
* ``uncoverable-double`` [R1.1, R4.4] (at a block): established while slots are pending,
  the boneyard is empty and no hand holds a tile carrying a pending slot's number;
* ``readings-agree`` [R2.3, R4.4] (at a block): no hand holds a tile matching an open end
  exactly when no seat has a legal move.

Every formula is a quantifier-free combination over the slot constants, or quantified at
its top only, so each query's sort graph gains no edge (:mod:`.fragment`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import MoveKind

from .vocabulary import AState, Expr, Formula

if TYPE_CHECKING:
    from .model import AbstractModel


@dataclass(frozen=True)
class Move:
    """What a transition property reads of the action taken: its kind and parameters."""

    kind: MoveKind
    params: dict[str, Expr]

    @property
    def play(self) -> bool:
        """A tile laid on an open end (the action has the end ``e`` and tile ``t``)."""
        return self.kind is MoveKind.PLAY and "e" in self.params and "t" in self.params

    @property
    def lead(self) -> bool:
        """The opening tile (the action has its two numbers ``a``, ``b``)."""
        return self.kind is MoveKind.PLAY and "a" in self.params and "b" in self.params


def doubles_covered(m: AbstractModel, s: AState, s2: AState, mv: Move) -> Formula:
    lay = m.layout
    f = z3.Const("f_dc", m.v.end)
    x = z3.Const("x_dc", m.v.value)
    if mv.play:
        e, t = mv.params["e"], mv.params["t"]

        def rest(g: Expr) -> Formula:
            return z3.And(s.pending(g), g != e)
        new = z3.And(m.v.double(t), lay.among(e, lay.takers), z3.Not(lay.any_pending(rest)))
        out = [z3.Implies(lay.any_pending(s.pending), s.pending(e)),
               z3.ForAll([f], s2.pending(f) == z3.If(new, f == e, rest(f)))]
        if m.COVER_OUT:  # R2.2: a double left waiting is never its player's last tile
            out.append(z3.Implies(new, m.has_tile(s2, s.turn)))
        return z3.And(*out)
    if mv.lead:
        a, b = mv.params["a"], mv.params["b"]
        if lay.data.lead_takes:
            return z3.ForAll([f], s2.pending(f) == z3.And(
                a == b, z3.Exists([x], s2.shows(f, x))))
        return z3.ForAll([f], z3.Not(s2.pending(f)))
    return z3.ForAll([f], s2.pending(f) == s.pending(f))


def spinner_arms(m: AbstractModel, s: AState, s2: AState, mv: Move) -> Formula:
    lay = m.layout
    f = z3.Const("f_sa", m.v.end)
    x = z3.Const("x_sa", m.v.value)
    out = []
    if mv.lead:
        a, b = mv.params["a"], mv.params["b"]
        out += [z3.ForAll([x], s2.shows(arm, x) == z3.And(a == b, x == a)) for arm in lay.arms]
    else:
        out += [z3.Implies(z3.ForAll([x], z3.Not(s.shows(arm, x))),
                           z3.ForAll([x], z3.Not(s2.shows(arm, x)))) for arm in lay.arms]
    if lay.waits:
        if mv.play:
            e = mv.params["e"]
            out += [z3.Implies(e == arm, z3.And([s.covered(side) for side in sides]))
                    for arm, sides in lay.waiting]
            out.append(z3.ForAll([f], s2.covered(f) == z3.Or(s.covered(f), f == e)))
        else:
            out.append(z3.ForAll([f], s2.covered(f) == s.covered(f)))
    return z3.And(*out, m.v.ctx)


def uncoverable_double(m: AbstractModel, s: AState) -> Formula:
    v = m.v
    q, t = z3.Const("q_ud", v.player), z3.Const("t_ud", v.tile)
    f, x = z3.Const("f_ud", v.end), z3.Const("x_ud", v.value)
    covers = z3.And(s.holds(q, t), s.pending(f), s.shows(f, x), v.carries(t, x))
    return z3.Implies(z3.And(s.blocked, m.layout.any_pending(s.pending)),
                      z3.And(m.bone_empty(s), z3.ForAll([q, t, f, x], z3.Not(covers))))


def readings_agree(m: AbstractModel, s: AState) -> Formula:
    """Written as two implications, not an equivalence: each side then has one polarity,
    and its quantifiers add no Skolem function under another quantifier."""
    q = z3.Const("q_ra", m.v.player)
    no_match = z3.ForAll([q], m.holds_no_match(s, q))
    no_move = z3.ForAll([q], m.stuck(s, q))
    return z3.Implies(s.blocked, z3.And(z3.Implies(no_match, no_move),
                                        z3.Implies(no_move, no_match)))


TransitionFormula = Callable[["AbstractModel", AState, AState, Move], Formula]
StateFormula = Callable[["AbstractModel", AState], Formula]

TRANSITIONS: dict[str, TransitionFormula] = {
    "doubles-covered": doubles_covered,
    "spinner-arms": spinner_arms,
}

AT_BLOCK: dict[str, StateFormula] = {
    "uncoverable-double": uncoverable_double,
    "readings-agree": readings_agree,
}
