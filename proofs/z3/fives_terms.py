"""R5.7 as Z3 terms: scoring in play (All Fives, Muggins), for the transition relation.

Part of the declarative reading of docs/SEMANTICS.md ("Scoring in play"), stated from the
variant's constants (``FIVES``, the slot data) and not from the specification's
``model/fives.py``: the two are tied by the cross-check (``tests/test_crosscheck_z3.py``,
the conformance suite's "z3" oracle). Where plays score, a state holds each seat's
``points`` and each slot's ``weight`` (:mod:`.vocabulary`); a play (the lead too) sets
the weights of the slots it lays on (:func:`lead_weights`, :func:`play_weights`), the
layout's canonical form carries them with their slots
(:meth:`~.layout_terms.LayoutTerms.canonical`), and its player scores the layout's count
when it is a multiple of 5 (:func:`scored_points`). :func:`points_in_fives` is the
property of the catalogue as a transition formula.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Opens
from dominoproof.proofs.z3.terms import And, Or
from dominoproof.proofs.z3.vocabulary import (
    BV,
    CLOSED_CODE,
    PLAY,
    POINT_BITS,
    WEIGHT_BITS,
    Bool,
    MoveVars,
    StateVars,
    Vocabulary,
    count_is,
)

if TYPE_CHECKING:
    from dominoproof.proofs.z3.encoding import Encoding


def _w(x: int) -> BV:
    return z3.BitVecVal(x, WEIGHT_BITS)


def lead_weights(v: Vocabulary) -> list[BV]:
    """The weights the lead gives, slot by slot (before the canonical form): each slot the
    lead opens counts once -- a lone opening double its pips once, by its two halves --
    a spinner's arms not at all until a tile is on them, every other slot nothing."""
    return [_w(1 if sl.opens is Opens.LEAD else 0) for sl in v.slots]


def play_weights(v: Vocabulary, s: StateVars, m: MoveVars) -> list[BV]:
    """The weights after ``m.tile`` is laid on slot ``m.end`` of ``s`` (before the
    canonical form): that slot counts once, twice where the tile is a double (a double at
    an end); where the table held one tile and it is a double (the lone opening double),
    every other slot the lead opened and still counting counts twice (the double is now
    at an end, by both halves)."""
    doubles = [t for t, (a, b) in enumerate(v.halves) if a == b]
    lone = And(count_is([v.on_table(s, t) for t in range(v.T)], 1),
               Or([v.on_table(s, t) for t in doubles]))
    laid = z3.If(m.a == m.b, _w(2), _w(1))
    out = []
    for i, sl in enumerate(v.slots):
        w = s.weights[i]
        if sl.opens is Opens.LEAD:
            w = z3.If(And(lone, w != 0), _w(2), w)
        out.append(z3.If(m.end == i, laid, w))
    return out


def count(ends: tuple[BV, ...], weights: list[BV] | tuple[BV, ...]) -> BV:
    """The layout's count: each open slot's number times its weight."""
    total = z3.BitVecVal(0, POINT_BITS)
    for x, w in zip(ends, weights, strict=True):
        wide = z3.ZeroExt(POINT_BITS - x.size(), x)
        total = total + z3.If(x == CLOSED_CODE, z3.BitVecVal(0, POINT_BITS),
                              z3.If(w == 2, wide + wide, z3.If(w == 1, wide,
                                                               z3.BitVecVal(0, POINT_BITS))))
    return total


def scored_points(e: Encoding, s: StateVars, ends: tuple[BV, ...],
                  weights: list[BV]) -> tuple[BV, ...]:
    """Each seat's points once the player to move of ``s`` has made a play leaving
    ``ends`` and ``weights`` (canonical): the mover adds the count where it scores
    (:meth:`~.encoding.Encoding.in_play_scores`); nobody else's change."""
    c = count(ends, weights)
    gain = z3.If(e.in_play_scores(c), c, z3.BitVecVal(0, POINT_BITS))
    return tuple(z3.If(s.turn == q, x + gain, x) for q, x in enumerate(s.points))


def points_in_fives(e: Encoding, s: StateVars, m: MoveVars, t: StateVars) -> Bool:
    """points-in-fives [R5.7]: a play adds a multiple of 5 (or nothing) to its player's
    points, and no move changes anyone else's (no other move anyone's). (Its terminal
    half, the final scores adding the points, is the declarative scoring's reading.)"""
    if not e.v.FIVES:
        return z3.BoolVal(True)
    five = z3.BitVecVal(e.v.FIVES, POINT_BITS)
    return And([z3.If(And(m.kind == PLAY, s.turn == q),
                      z3.URem(b - a, five) == 0, b == a)
                for q, (a, b) in enumerate(zip(s.points, t.points, strict=True))])


__all__ = ["count", "lead_weights", "play_weights", "points_in_fives", "scored_points"]
