"""The layout in the abstract model: the variant's slot data as rigid relations.

The layout is data (``model/layout.py``): a fixed list of slots, each with when it
opens, which half of the opening tile it shows, who may play on it, which slots it waits
for, and whether a double laid on it must be covered. This module reads that data
(``model.layout.layout_data``) and states it over the sort ``End``, so a layout
whose rules fit the fragment needs no new code:

* a constant of sort ``End`` per slot; the axiom ``layout-slots`` says the ends are
  exactly those slots, pairwise distinct (Terms, "Layout"): ``End`` is a finite sort of
  named slots;
* ``may_play(p, e)``: seat ``p`` may play on end ``e`` (R2.3), defined by the axiom
  ``slot-access`` from each slot's access rule;
* ``opens_low(e)`` / ``opens_high(e)``: the lead opens ``e`` showing the opening
  tile's first / second number (the slot's ``half``), defined by ``lead-opens-slots``.
  The model has no order on numbers: the lead chooses which of its tile's numbers is
  "first", so both assignments are models (an over-approximation, like the line's
  left and right);
* a spinner's arms (``opens = spinner``): they open with an opening double, showing its
  number (:meth:`SlotRelations.lead_shows`), and the slots an arm waits for (``after``)
  must be covered -- the state relation ``covered(e)``, set by a play on ``e`` -- before
  anyone plays on it (:meth:`SlotRelations.waits_ok`, R2.2);
* doubles that must be covered (``double_takes`` > 0, ``lead_double_takes`` > 0): the
  state relation ``pending(e)``; while some slot is pending every play goes on a pending
  slot (:meth:`SlotRelations.pending_ok`), a double laid on a slot whose doubles take
  tiles with nothing else pending makes its slot pending, the opening double makes the
  slots it opened pending (R2.2); where the variant says so its player plays again.

Every formula that reads the slots one by one (an arm's sides, "some slot is pending") is
a finite disjunction or conjunction over the slot constants, never a quantifier over
ends: nested in "no seat can play" (a ``forall`` over ends) an ``exists`` over ends would
be a Skolem function End -> End, a cycle. The relations are quantified over seats and
ends only, with no function: they add no edge to the sort graph, and every query stays
in EPR. A slot feature that cannot be stated this way makes every property that reads the
layout N/A (:func:`unstatable`), with the reason; docs/ALLSIZES.md says which features
are which, and why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import Access, Opens, SlotLayout

from .vocabulary import Expr, Formula, Vocabulary

#: Why owned slots (trains) are outside the fragment, in the N/A texts and the docs.
OWNED_SLOTS = (
    "a seat number names a different seat at each P, and one slot per seat owned by it "
    "makes the slot of a seat and the owner of a slot functions of each other (Player -> "
    "End and End -> Player, a cycle of the sort graph, outside EPR)")
#: Why markers are outside the fragment.
MARKERS = (
    "a marker opens the slots its seat owns to everyone, so it needs the owner of a slot "
    "(End -> Player) with the slot of every seat (Player -> End): the same cycle")
#: Why first turns laid on one's own train (R2.3) are outside the fragment.
FIRST_TURNS = (
    "a first turn goes on while the mover's own slot (Player -> End) has had no tile, and a "
    "play keeps it going when its slot's owner (End -> Player) is the mover: the same cycle")
#: Why Matador matching (R2.1, ``[layout] match = "matador"``) is outside the fragment.
MATADOR = (
    "a tile fits an end when a half of it and the end's number sum to N+1, and the "
    "matadors are the tiles whose halves sum to N+1: addition on numbers, and N+1 names a "
    "different number at each N; the complement of a number is a function Value -> Value, "
    "a cycle of the sort graph, outside EPR")
#: Why toes are outside the fragment.
TOES = (
    "a double laid during play opens 'the first k - 1 closed toes': a count of slots, and "
    "the number of toe slots grows with N (k - 1 per double of the set), so the slots are "
    "not a fixed finite list for every N")


def unstatable(data: SlotLayout) -> str | None:
    """Why ``data`` cannot be stated in the all-sizes model (``None``: it can): each slot
    feature outside the fragment, with the slots that have it."""
    by_feature: dict[str, list[str]] = {}
    for sl in data.slots:
        if sl.opens is Opens.TOE:
            by_feature.setdefault(f"open as toes of a later double: {TOES}",
                                  []).append(sl.name)
        if sl.access is not Access.EVERYONE:
            by_feature.setdefault(f"are open to {sl.access.value}: {OWNED_SLOTS}",
                                  []).append(sl.name)
    why = [f"slots {', '.join(names)} {feature}" for feature, names in by_feature.items()]
    if data.markers:
        why.append(f"markers (put out by a pass or a confirmation, taken in by a play on "
                   f"one's own slot): {MARKERS}")
    if data.first_turn:
        why.append(f"first turns that lay tile after tile on one's own slot: {FIRST_TURNS}")
    if data.match_total:
        why.append(f"Matador matching (R2.1), touching halves summing to N+1: {MATADOR}")
    if not data.slots:
        why.append("the layout has no slot")
    return "; ".join(why) or None


@dataclass(frozen=True)
class SlotRelations:
    """The slot data over the sort ``End``: one constant per slot and the rigid
    relations read from the data (see the module docstring)."""

    data: SlotLayout
    ctx: Any  #: the model's Z3 context (:class:`~.vocabulary.Vocabulary`)
    slots: tuple[Expr, ...]  #: the End constant of each slot, in the data's order
    may_play: Callable[..., Formula]  #: may_play(p, e): seat p may play on end e (R2.3)
    opens_low: Callable[..., Formula]  #: opens_low(e): the lead shows its first number on e
    opens_high: Callable[..., Formula]  #: opens_high(e): ... its second number

    @staticmethod
    def declare(data: SlotLayout, v: Vocabulary) -> SlotRelations:
        b = z3.BoolSort(v.ctx)
        return SlotRelations(
            data=data, ctx=v.ctx,
            slots=tuple(z3.Const(f"slot.{sl.name}", v.end) for sl in data.slots),
            may_play=z3.Function("may_play", v.player, v.end, b),
            opens_low=z3.Function("opens_low", v.end, b),
            opens_high=z3.Function("opens_high", v.end, b),
        )

    # -- what the slot data has ----------------------------------------------------------
    @property
    def arms(self) -> tuple[Expr, ...]:
        """The spinner's arms: the slots an opening double opens (``opens = spinner``)."""
        return tuple(x for x, sl in zip(self.slots, self.data.slots, strict=True)
                     if sl.opens is Opens.SPINNER)

    @property
    def waiting(self) -> tuple[tuple[Expr, tuple[Expr, ...]], ...]:
        """Each arm that waits, with the slots it waits for (``after``)."""
        return tuple((x, tuple(self.slots[j] for j in sl.after))
                     for x, sl in zip(self.slots, self.data.slots, strict=True) if sl.after)

    @property
    def takers(self) -> tuple[Expr, ...]:
        """The slots on which a double laid during play takes tiles (``double_takes``)."""
        return tuple(x for x, sl in zip(self.slots, self.data.slots, strict=True)
                     if sl.double_takes)

    @property
    def double_rules(self) -> bool:
        """Some double takes tiles before play moves on: slots can be pending."""
        return self.data.lead_takes > 0 or bool(self.takers)

    @property
    def waits(self) -> bool:
        """Some arm waits for other slots: slots can be covered or not."""
        return bool(self.waiting)

    def among(self, e: Expr, which: tuple[Expr, ...] | list[Expr]) -> Formula:
        """``e`` is one of the slots ``which`` (a finite disjunction)."""
        return z3.Or([e == x for x in which]) if which else z3.BoolVal(False, self.ctx)

    # -- the axioms ------------------------------------------------------------------
    def axioms(self, v: Vocabulary) -> list[tuple[str, Formula]]:
        """The axioms generated from the slot data."""
        e, p = z3.Const("E", v.end), z3.Const("Q", v.player)
        named = self.slots

        distinct = z3.Distinct(*named) if len(named) > 1 else z3.BoolVal(True, v.ctx)
        everyone = [x for x, sl in zip(named, self.data.slots, strict=True)
                    if sl.access is Access.EVERYONE]
        lead = [(x, sl.half) for x, sl in zip(named, self.data.slots, strict=True)
                if sl.opens is Opens.LEAD]
        return [
            ("layout-slots", z3.And(distinct, z3.ForAll([e], self.among(e, list(named))))),
            ("slot-access", z3.ForAll([p, e], self.may_play(p, e) == self.among(e, everyone))),
            ("lead-opens-slots", z3.ForAll([e], z3.And(
                self.opens_low(e) == self.among(e, [x for x, h in lead if h == 0]),
                self.opens_high(e) == self.among(e, [x for x, h in lead if h == 1])))),
        ]

    # -- the lead ---------------------------------------------------------------------
    def lead_shows(self, a: Expr, b: Expr) -> Callable[..., Formula]:
        """``shows`` after the lead with a tile carrying ``a`` and ``b``: each slot the
        lead opens shows the half the data names; an opening double (``a = b``) also opens
        the spinner's arms, showing its number; the others stay closed."""
        arms = self.arms
        if not arms:
            return lambda e, x: z3.Or(z3.And(self.opens_low(e), x == a),
                                      z3.And(self.opens_high(e), x == b))
        return lambda e, x: z3.Or(z3.And(self.opens_low(e), x == a),
                                  z3.And(self.opens_high(e), x == b),
                                  z3.And(self.among(e, arms), a == b, x == a))

    def lead_opens(self, e: Expr, a: Expr, b: Expr) -> Formula:
        """The lead with ``a``-``b`` opens slot ``e``."""
        return z3.Or(self.opens_low(e), self.opens_high(e),
                     z3.And(self.among(e, self.arms), a == b))

    # -- who may play where, now ------------------------------------------------------
    def waits_ok(self, covered: Callable[..., Formula], e: Expr) -> Formula:
        """Every slot ``e`` waits for is covered (true of a slot that waits for none)."""
        return z3.And([z3.Implies(e == arm, z3.And([covered(f) for f in sides], self.ctx))
                       for arm, sides in self.waiting], self.ctx)

    def any_pending(self, pending: Callable[..., Formula]) -> Formula:
        """Some slot is pending (a disjunction over the slots)."""
        return (z3.Or([pending(x) for x in self.slots]) if self.slots
                else z3.BoolVal(False, self.ctx))

    def pending_ok(self, pending: Callable[..., Formula], e: Expr) -> Formula:
        """Play may go on ``e``: it is pending, or nothing is (R2.2)."""
        return z3.Or(pending(e), z3.Not(self.any_pending(pending)))

    def named(self) -> list[tuple[str, Expr]]:
        """Each slot's name and its constant (how a counterexample names the ends)."""
        return [(sl.name, x) for sl, x in zip(self.data.slots, self.slots, strict=True)]

    def describe(self) -> str:
        """The layout in a configuration line (``"one line"``, ``"one spinner, arms
        waiting for its sides"``)."""
        parts = [(True, f"one {self.data.kind.value}"),
                 (self.waits, "arms waiting for its sides"),
                 (self.data.lead_takes, "the opening double taking a tile on each slot it "
                                        "opens"),
                 (self.takers, "doubles covered before play moves on"),
                 (self.data.again, "a double's player playing again")]
        return ", ".join(text for has, text in parts if has)
