"""R5.7: scoring in play (All Fives, Muggins), stated once for the specification.

Where ``[scoring] in_play = "fives"`` a state carries two more fields: ``weights``, per
slot of the layout, how many times the number it shows counts -- 0 (closed, or a
spinner's arm with no tile on it yet), 1, or 2 (a double lies at that end, counted by
both halves) -- and ``points``, per seat, what its plays have scored. Elsewhere both are
``()``, so no other variant's states change.

The **count** of a layout is the sum over its slots of weight times number. A lone
opening double counts its pips once (both its halves show, each once); once a tile is
laid on one of its halves, the half still uncovered is a double at an end (weight 2).
After a play (the lead included) its player scores the count when it is a multiple of
5 -- the count itself, 5, 10, 15 ... (pagat's All Fives and Muggins) -- and nothing
else. The final scores add each side's points to its award (R5.7,
:mod:`~dominoproof.model.outcome`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .layout import CLOSED, Layout, Opens
from .tiles import Tile

if TYPE_CHECKING:
    from .state import State

__all__ = ["STEP", "count", "initial", "laid", "scored"]

STEP = 5  #: R5.7: a play scores when the count is a multiple of this


def initial(layout: Layout, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(points, weights)`` (``State``'s order) before the lead: nobody has scored,
    nothing counts."""
    return (0,) * players, (0,) * layout.width


def count(ends: tuple[int, ...], weights: tuple[int, ...]) -> int:
    """R5.7: the layout's count: each slot's number times its weight."""
    return sum(w * v for v, w in zip(ends, weights, strict=True) if v != CLOSED)


def scored(total: int) -> int:
    """R5.7: what a play scores when it leaves the count ``total``."""
    return total if total % STEP == 0 else 0


def laid(layout: Layout, before: State, after: State, slot: int, tile: tuple[int, int],
         player: int) -> State:
    """``after``, the state a play left with its layout not yet in canonical form, once
    ``player`` has laid ``tile`` (its halves) on ``slot`` of ``before`` (the lead where
    ``slot`` is negative): the layout and its weights in canonical form, and the play's
    score added to ``player``'s points."""
    raw, raw_marks = after.ends, after.marks
    data = layout.data.slots
    if slot < 0:  # the lead: its halves count once each, a spinner's arms not yet
        weights = [1 if sl.opens is Opens.LEAD and raw[i] != CLOSED else 0
                   for i, sl in enumerate(data)]
    else:
        weights = list(before.weights)
        weights[slot] = 2 if tile[0] == tile[1] else 1
        table = before.table
        one = Tile.from_index(table.bit_length() - 1)
        if table & (table - 1) == 0 and one.lo == one.hi:
            # a lone opening double: its halves still uncovered are a double at an end
            for i, sl in enumerate(data):
                if i != slot and sl.opens is Opens.LEAD and weights[i]:
                    weights[i] = 2
    ends, marks = layout.canonical(raw, raw_marks)
    out = _canonical(layout, raw, raw_marks, tuple(weights), ends, marks)
    points = list(before.points)
    points[player] += scored(count(ends, out))
    return after._replace(ends=ends, marks=marks, weights=out, points=tuple(points))


def _canonical(layout: Layout, raw: tuple[int, ...], raw_marks: int,
               weights: tuple[int, ...], ends: tuple[int, ...], marks: int
               ) -> tuple[int, ...]:
    """``weights`` moved with their slots into the layout's canonical form: within each
    symmetric group the canonical slots are sorted by what the layout sorts by, and
    among slots equal in that, by weight."""
    out = list(weights)
    for g in layout.data.symmetric:
        before = sorted((layout.sort_key(raw, raw_marks, i), weights[i]) for i in g)
        after = sorted(g, key=lambda i: layout.sort_key(ends, marks, i))
        for dest, (_, w) in zip(after, before, strict=True):
            out[dest] = w
    return tuple(out)
