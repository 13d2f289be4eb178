"""The layout in the abstract model: the variant's slot data as rigid relations.

The layout is data (``model/layout.py``): a fixed list of slots, each with when it
opens, which half of the opening tile it shows, who may play on it, and whether a
double laid on it must be covered. This module reads that data
(``constants_of(variant).LAYOUT``) and states it over the sort ``End``, so a layout
whose rules fit the fragment needs no new code:

* a constant of sort ``End`` per slot; the axiom ``layout-slots`` says the ends are
  exactly those slots, pairwise distinct (Terms, "Layout");
* ``may_play(p, e)``: seat ``p`` may play on end ``e`` (R2.3), defined by the axiom
  ``slot-access`` from each slot's access rule;
* ``opens_low(e)`` / ``opens_high(e)``: the lead opens ``e`` showing the opening
  tile's first / second number (the slot's ``half``), defined by ``lead-opens-slots``.
  The model has no order on numbers: the lead chooses which of its tile's numbers is
  "first", so both assignments are models (an over-approximation, like the line's
  left and right).

All three are quantified over seats and ends only, with no function: they add no edge
to the sort graph, and every query stays in EPR. A slot feature that cannot be stated
this way makes every property that reads the layout N/A (:func:`unstatable`), with
the reason; docs/ALLSIZES.md says which features are which, and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Access, Opens, SlotLayout

from .vocabulary import Expr, Formula, Vocabulary


def unstatable(data: SlotLayout) -> str | None:
    """Why ``data`` cannot be stated in the all-sizes model (``None``: it can): each slot
    feature outside the fragment, with the slots that have it."""
    by_feature: dict[str, list[str]] = {}
    for sl in data.slots:
        if sl.opens is not Opens.LEAD:
            by_feature.setdefault(
                f"open {sl.opens.value}, not with the lead: a later opening is state the "
                "actions must set, not yet in the model", []).append(sl.name)
        if sl.access is not Access.EVERYONE:
            by_feature.setdefault(
                f"are open to {sl.access.value}: a seat number names a different seat at "
                "each P, and a slot per seat makes the ends and the seats functions of each "
                "other (a cycle Player -> End -> Player, outside EPR)", []).append(sl.name)
        if sl.double_takes:
            by_feature.setdefault(
                f"make a double laid on them take {sl.double_takes} tile(s) before play "
                "moves on, not yet an action of the model", []).append(sl.name)
    why = [f"slots {', '.join(names)} {feature}" for feature, names in by_feature.items()]
    if data.markers:
        why.append("markers (put out by a pass or a confirmation, taken in by a play on "
                   "one's own slot) open a seat's slots to everyone: not yet state of the "
                   "model")
    if data.lead_takes:
        why.append(f"the opening double takes {data.lead_takes} tile(s) before play moves "
                   "on: not yet an action of the model")
    if data.again:
        why.append("the player who lays a double plays again: not yet an action of the model")
    if not data.slots:
        why.append("the layout has no slot")
    return "; ".join(why) or None


@dataclass(frozen=True)
class SlotRelations:
    """The slot data over the sort ``End``: one constant per slot and the rigid
    relations read from the data (see the module docstring)."""

    data: SlotLayout
    slots: tuple[Expr, ...]  #: the End constant of each slot, in the data's order
    may_play: Callable[..., Formula]  #: may_play(p, e): seat p may play on end e (R2.3)
    opens_low: Callable[..., Formula]  #: opens_low(e): the lead shows its first number on e
    opens_high: Callable[..., Formula]  #: opens_high(e): ... its second number

    @staticmethod
    def declare(data: SlotLayout, v: Vocabulary) -> SlotRelations:
        b = z3.BoolSort()
        return SlotRelations(
            data=data,
            slots=tuple(z3.Const(f"slot.{sl.name}", v.end) for sl in data.slots),
            may_play=z3.Function("may_play", v.player, v.end, b),
            opens_low=z3.Function("opens_low", v.end, b),
            opens_high=z3.Function("opens_high", v.end, b),
        )

    def axioms(self, v: Vocabulary) -> list[tuple[str, Formula]]:
        """The axioms generated from the slot data."""
        e, p = z3.Const("E", v.end), z3.Const("Q", v.player)
        named = self.slots

        def among(which: list[Expr]) -> Formula:
            return z3.Or([e == x for x in which]) if which else z3.BoolVal(False)

        distinct = z3.Distinct(*named) if len(named) > 1 else z3.BoolVal(True)
        everyone = [x for x, sl in zip(named, self.data.slots, strict=True)
                    if sl.access is Access.EVERYONE]
        lead = [(x, sl.half) for x, sl in zip(named, self.data.slots, strict=True)
                if sl.opens is Opens.LEAD]
        return [
            ("layout-slots", z3.And(distinct, z3.ForAll([e], among(list(named))))),
            ("slot-access", z3.ForAll([p, e], self.may_play(p, e) == among(everyone))),
            ("lead-opens-slots", z3.ForAll([e], z3.And(
                self.opens_low(e) == among([x for x, h in lead if h == 0]),
                self.opens_high(e) == among([x for x, h in lead if h == 1])))),
        ]

    def lead_shows(self, a: Expr, b: Expr) -> Callable[..., Formula]:
        """``shows`` after the lead with a tile carrying ``a`` and ``b``: each slot the
        lead opens shows the half the data names; the others stay closed."""
        return lambda e, x: z3.Or(z3.And(self.opens_low(e), x == a),
                                  z3.And(self.opens_high(e), x == b))

    def named(self) -> list[tuple[str, Expr]]:
        """Each slot's name and its constant (how a counterexample names the ends)."""
        return [(sl.name, x) for sl, x in zip(self.data.slots, self.slots, strict=True)]

    def describe(self) -> str:
        """The layout in a configuration line (``"one line"``)."""
        return f"one {self.data.kind.value}"
