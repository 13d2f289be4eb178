"""The abstract model of one variant's rules: axioms, Init, the predicates of RULES.md.

Sizes (N, P, hand size, tiles set aside, deal order) are not parameters: they are the
sizes of the sorts and the initial partition, and every model of the axioms is one of
them. The rule parameters that are not sizes are read from the variant's own
``[section] key`` values (``DRAW``, ``C``, ``EMPTY``, ``FOULS``, ``READING``), never
through a helper of another reading, and select the actions (:mod:`.actions`) and their guards; the
layout's slots (``LAYOUT``) become rigid relations and axioms (:mod:`.layout`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import z3  # type: ignore[import-untyped]

from dominoproof.model.layout import OutOnDouble, layout_data
from dominoproof.model.variant import (
    BlockCall,
    DrawRule,
    DrawWhen,
    ExtendReading,
    FoulRule,
    LeadFallback,
    LeadRule,
    Variant,
)
from dominoproof.proofs.z3.lemmas import Lemma, abstract_candidates

from . import actions, twins
from .catalogue import ALL_SIZES, COUNTED, NOT_STATABLE, PER_INSTANCE
from .layout import SlotRelations, unstatable
from .vocabulary import (
    Action,
    AState,
    Expr,
    Formula,
    SortRef,
    Step,
    Vocabulary,
)


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of the inductive invariant: a lemma bound to one abstract model."""

    lemma: Lemma
    formula: Callable[[AState], Formula]

    @property
    def name(self) -> str:
        return self.lemma.id


def _bound(lem: Lemma, m: AbstractModel, s: AState) -> Formula:
    assert lem.abstract is not None, lem.id
    return lem.abstract(m, s)


class AbstractModel:
    """The round as a transition system over uninterpreted sorts, for one variant's rules.

    The layout is the variant's slot data, stated as rigid relations (:mod:`.layout`);
    R2 is read in the variant's R2.3 reading (``READING``). The lead rule is
    abstracted: any player may be first to move and lead with any tile they hold.
    ``fault`` names a fault of :mod:`~dominoproof.proofs.faults` whose abstract twin
    (:mod:`.twins`) is applied to the model.

    ``axioms``, ``conjuncts`` and ``actions`` are plain lists, so that a test
    can break the model on purpose (a false axiom, a missing conjunct).
    """

    def __init__(self, variant: Variant, fault: str | None = None) -> None:
        twin = twins.twin_of(fault) if fault is not None else None
        if twin is not None and twin.overrides:
            variant = variant.with_overrides(twin.overrides, source=f"fault {fault}")
        self.variant = variant
        self.fault = fault
        self.DRAW: DrawRule = variant.draw.rule
        #: R3.5: a mover who can play may draw too
        self.ANY_TIME: bool = variant.draw.when is DrawWhen.ANY_TIME
        self.EMPTY: bool = variant.block.boneyard_must_be_empty
        #: R4.7: a dead end may be called
        self.CALL: bool = variant.block.call is BlockCall.DEAD_END
        #: R3.6: before the lead, the players may draw for the tile the lead rule names
        self.SEEKS: bool = (variant.lead.fallback is LeadFallback.DRAW
                            and variant.lead.rule is not LeadRule.PLAYER)
        # R4.4's restart_on_marker is not read here: it acts only where a layout has
        # markers, and this model refuses those layouts (trains: N/A, layout.py says why);
        # nor R2.3's first_turn, which acts only on trains too
        self.P: int = variant.deal.players
        conf = variant.block.confirmations
        # R4.4 at this P: every seat, every seat but the proposer, or a number
        self.C: int = (self.P if conf.rule == "all" else self.P - 1
                       if conf.rule == "all-others" else conf.count)
        #: R4.4 as first-order logic: "all" and "all-others" are statements about every
        #: seat; a number of confirmations ("count") means a different rule at each P (so
        #: it is read from the variant's rule, not from C, which is this P's number)
        self.confirmations = variant.block.confirmations.rule
        self.fouls_possible = variant.fouls.rule is FoulRule.PENALISED
        self.READING: ExtendReading = variant.layout.extend
        #: R4.4: the establishment requires an empty boneyard (a twin may break it)
        self.ready_checks_boneyard = self.EMPTY
        self.v = Vocabulary.declare()
        # the layout's slots as data, from [layout] (shared geometry: a second copy of
        # each topology's slots would add nothing; the rules on them are stated here)
        data = layout_data(variant)
        self.pre = AState.declare(
            self.v, covered=any(sl.after for sl in data.slots),
            pending=data.lead_takes > 0 or any(sl.double_takes for sl in data.slots))
        self.layout: SlotRelations = SlotRelations.declare(data, self.v)
        #: why the layout's slots cannot be stated here (None: they can)
        self.layout_problem = unstatable(data)
        #: the layout's marks the model keeps: covered slots (arms that wait for them),
        #: pending slots (doubles that take tiles)
        self.waits: bool = self.layout.waits
        self.doubles: bool = self.layout.double_rules
        #: R2.2 as the guards read it (a fault twin may break either): an arm waits for
        #: its sides to be covered; while slots are pending, play goes on a pending slot
        self.arms_wait = True
        self.pending_restricts = True
        #: R2.2 ([layout] out_on_double = "covered", where doubles laid in play take tiles):
        #: a double that would wait to be covered is no player's last tile; the guards read
        #: ``bars_last_double`` (a fault twin may drop it), the property reads the rule
        self.COVER_OUT: bool = (variant.layout.out_on_double is OutOnDouble.COVERED
                                and bool(self.layout.takers))
        self.bars_last_double = self.COVER_OUT
        self.axioms: list[tuple[str, Formula]] = self._axioms()
        self.actions: list[Action] = actions.build(self)
        self.conjuncts: list[Conjunct] = self._conjuncts()
        if twin is not None:
            twin.apply(self)
        self._steps: dict[tuple[str, int], tuple[Action, Step]] = {}

    # -- cached instances (z3 terms are costly to build from Python) ------------
    def step(self, action: Action) -> Step:
        """The action's formula and post-state from :attr:`pre` (built once)."""
        key = (action.name, id(action))
        got = self._steps.get(key)
        if got is None or got[0] is not action:
            got = self._steps[key] = (action, action.step(self.pre))
        return got[1]

    def action(self, name: str) -> Action | None:
        """The action called ``name``, if the variant's rules have it."""
        return next((a for a in self.actions if a.name == name), None)

    # -- description -----------------------------------------------------
    def rules_text(self) -> str:
        v = self.variant
        when = ", any time" if self.ANY_TIME else ""
        call = ", a dead end may be called" if self.CALL else ""
        text = (f"{v.name} rules: draw {self.DRAW.value}{when}, confirmations "
                f"{v.block.confirmations!s}{call}, boneyard_must_be_empty "
                f"{str(self.EMPTY).lower()}, fouls {v.fouls.rule.value}; "
                f"{self.layout.describe()}; "
                f"lead abstracted (any player, any tile"
                f"{'; first, draws for it' if self.SEEKS else ''})")
        if self.fault:
            text += f"; abstract twin of fault {self.fault}"
        return text

    def configuration(self) -> str:
        return f"{self.rules_text()}; {ALL_SIZES}"

    def statable(self, pid: str) -> str | None:
        """``None`` if ``pid`` is stated in this model, else why not (the N/A reason)."""
        if pid in NOT_STATABLE:
            return NOT_STATABLE[pid]
        if self.layout_problem is not None:
            return (f"the layout's slots cannot be stated for every N and P "
                    f"({self.layout_problem}); {PER_INSTANCE}")
        if pid in COUNTED and self.confirmations == "count":
            return (f"confirmations = {self.C} is a count, which first-order logic over an "
                    f"uninterpreted sort of players cannot state for every P (at this "
                    f"variant's P = {self.P} it is not the same rule as at "
                    f"other P); state \"all\" to prove it for every P, or {PER_INSTANCE}")
        return None

    # -- helpers (formulas over one state) -----------------------------------
    def vars(self, *spec: tuple[str, SortRef]) -> list[Expr]:
        return [z3.Const(n, s) for n, s in spec]

    def may_play_now(self, s: AState, p: Expr, e: Expr) -> Formula:
        """R2.3 with R2.2: ``p`` may play on end ``e`` in state ``s``: the slot's access
        rule, every slot it waits for covered (a spinner's arm), and, while slots are
        pending, ``e`` one of them. On a layout without waiting arms or double rules it
        is ``may_play(p, e)`` alone (the line's formulas are unchanged)."""
        parts = [self.layout.may_play(p, e)]
        if self.waits and self.arms_wait:
            parts.append(self.layout.waits_ok(s.covered, e))
        if self.doubles and self.pending_restricts:
            parts.append(self.layout.pending_ok(s.pending, e))
        return parts[0] if len(parts) == 1 else z3.And(*parts)

    def not_going_out(self, s: AState, p: Expr, t: Expr, e: Expr) -> list[Formula]:
        """R2.2 (``bars_last_double``): ``[not (t is p's last tile and a double that would
        wait on e)]`` -- e's doubles take tiles, no other slot is pending: no legal play
        (the "last tile" a ``forall`` over tiles, negative wherever a play is offered);
        ``[]`` where the rule is off (no term made: Z3's models depend on the terms)."""
        if not self.bars_last_double:
            return []
        u = z3.Const("u_lw", self.v.tile)
        lay = self.layout

        def rest(f: Expr) -> Formula:
            return z3.And(s.pending(f), f != e)
        return [z3.Not(z3.And(self.v.double(t), lay.among(e, lay.takers),
                              z3.Not(lay.any_pending(rest)),
                              z3.ForAll([u], z3.Implies(s.holds(p, u), u == t))))]

    def any_pending(self, s: AState) -> Formula:
        """Some slot is pending (false on a layout without double rules)."""
        return self.layout.any_pending(s.pending) if self.doubles else self.v.bool(False)

    def stuck(self, s: AState, p: Expr) -> Formula:
        """``p`` holds no tile carrying a number an open end ``p`` may play on now shows,
        but a last double that would wait there (R2.1, R2.2, R2.3, R4.2): ``p`` has no
        legal play."""
        t, e, x = self.vars(("t_s", self.v.tile), ("e_s", self.v.end), ("x_s", self.v.value))
        return z3.ForAll([t, e, x], z3.Not(z3.And(
            s.holds(p, t), self.v.carries(t, x), s.shows(e, x), self.may_play_now(s, p, e),
            *self.not_going_out(s, p, t, e))))

    def holds_no_match(self, s: AState, p: Expr) -> Formula:
        """``p`` holds no tile carrying a number any open end shows, whoever may play
        there (R2.1)."""
        t, e, x = self.vars(("t_s", self.v.tile), ("e_s", self.v.end), ("x_s", self.v.value))
        return z3.ForAll([t, e, x], z3.Not(z3.And(s.holds(p, t), self.v.carries(t, x),
                                                  s.shows(e, x))))

    def nobody_can_play(self, s: AState) -> Formula:
        """R2 (R2.1, R2.2) in the variant's R2.3 reading: "holds a matching tile" (no hand
        holds a tile carrying a number an end shows) or "has a legal move" (no seat holds
        a tile carrying a number an end it may play on shows). Where every slot is open to
        everyone the axioms make the two formulas equivalent."""
        q = z3.Const("q_np", self.v.player)
        if self.READING is ExtendReading.HOLDS_MATCHING_TILE:
            return z3.ForAll([q], self.holds_no_match(s, q))
        return z3.ForAll([q], self.stuck(s, q))

    def placed(self, s: AState, q: Expr, t: Expr) -> Formula:
        """Every tile is in a hand, the boneyard, aside or on the table (the one
        ``forall t. exists p`` of the model: the sort edge Tile -> Player)."""
        return z3.ForAll([t], z3.Or(z3.Exists([q], s.holds(q, t)), s.in_boneyard(t),
                                    s.aside(t), s.on_table(t)))

    def disjoint(self, s: AState) -> Formula:
        """No tile is in two of those places."""
        q, t = z3.Const("q_d", self.v.player), z3.Const("t_d", self.v.tile)
        return z3.ForAll([q, t], z3.And(
            z3.Implies(s.holds(q, t), z3.Not(z3.Or(s.in_boneyard(t), s.aside(t),
                                                    s.on_table(t)))),
            z3.Implies(s.in_boneyard(t), z3.Not(z3.Or(s.aside(t), s.on_table(t)))),
            z3.Implies(s.aside(t), z3.Not(s.on_table(t)))))

    def one_holder(self, s: AState) -> Formula:
        """No tile is held by two seats."""
        p, q = z3.Const("p_o", self.v.player), z3.Const("q_o", self.v.player)
        t = z3.Const("t_o", self.v.tile)
        return z3.ForAll([p, q, t], z3.Implies(z3.And(s.holds(p, t), s.holds(q, t)), p == q))

    def bone_empty(self, s: AState) -> Formula:
        """R3: the boneyard supplies nothing."""
        t = z3.Const("t_b", self.v.tile)
        return z3.ForAll([t], z3.Not(s.in_boneyard(t)))

    def dead(self, s: AState, x: Expr) -> Formula:
        """R4.7: every tile carrying the number ``x`` is on the table."""
        t = z3.Const("t_dd", self.v.tile)
        return z3.ForAll([t], z3.Implies(self.v.carries(t, x), s.on_table(t)))

    def has_tile(self, s: AState, p: Expr) -> Formula:
        t = z3.Const("t_h", self.v.tile)
        return z3.Exists([t], s.holds(p, t))

    def run_started(self, s: AState) -> Formula:
        q = z3.Const("q_r", self.v.player)
        return z3.Exists([q], s.confirmed(q))

    def succ(self, p: Expr, n: Expr) -> Formula:
        """``n`` is the seat clockwise after ``p`` (no seat between them)."""
        z = z3.Const("z_succ", self.v.player)
        return z3.And(p != n, z3.ForAll([z], z3.Implies(z3.And(z != p, z != n),
                                                         self.v.btw(p, n, z))))

    def other_half(self, t: Expr, x: Expr, y: Expr) -> Formula:
        """Matching ``t`` on ``x`` leaves ``y`` showing: its other number, or ``x``
        again for a double."""
        return z3.And(self.v.carries(t, x), self.v.carries(t, y),
                      z3.Or(y != x, self.v.double(t)))

    def confirmations_ready(self, s: AState) -> Formula:
        """R4.4: enough confirmations. "all": every seat; "all-others": every seat but
        the one to move; a count: over-approximated by "some seat" (see :meth:`statable`)."""
        q = z3.Const("q_c", self.v.player)
        if self.confirmations == "all":
            return z3.ForAll([q], s.confirmed(q))
        if self.confirmations == "all-others":
            return z3.ForAll([q], z3.Implies(q != s.turn, s.confirmed(q)))
        return self.run_started(s)

    def ready(self, s: AState) -> Formula:
        """R4.4 ``block_ready``: the confirmations, and the boneyard still empty."""
        if self.ready_checks_boneyard:
            return z3.And(self.confirmations_ready(s), self.bone_empty(s))
        return self.confirmations_ready(s)

    def not_ready(self, s: AState) -> Formula:
        """The guard order: guard 3 (establish) comes first. With a numeric count the
        establishment is a free choice (an over-approximation), so nothing is excluded."""
        if self.confirmations == "count":
            return self.v.bool(True)
        return z3.Not(self.ready(s))

    def live(self, s: AState) -> Formula:
        return z3.Not(z3.Or(s.blocked, s.domino))

    def moving(self, s: AState) -> Formula:
        """Guards 1-3 do not apply: the round is on, the mover holds a tile, no block is
        ready."""
        return z3.And(self.live(s), self.has_tile(s, s.turn), self.not_ready(s))

    # -- the axioms ------------------------------------------------------
    def _axioms(self) -> list[tuple[str, Formula]]:
        v = self.v
        w, x, y, zz = self.vars(("W", v.player), ("X", v.player), ("Y", v.player),
                                ("Z", v.player))
        t, u = z3.Const("T", v.tile), z3.Const("U", v.tile)
        a, b, c = self.vars(("A", v.value), ("B", v.value), ("C", v.value))
        btw = v.btw
        return [
            ("ring-transitive", z3.ForAll([w, x, y, zz], z3.Implies(
                z3.And(btw(w, x, y), btw(w, y, zz)), btw(w, x, zz)))),
            ("ring-acyclic", z3.ForAll([w, x, y], z3.Implies(btw(w, x, y),
                                                             z3.Not(btw(w, y, x))))),
            ("ring-total", z3.ForAll([w, x, y], z3.Or(
                btw(w, x, y), btw(w, y, x), w == x, w == y, x == y))),
            ("ring-cyclic", z3.ForAll([x, y, zz], z3.Implies(btw(x, y, zz), btw(y, zz, x)))),
            ("two-or-more-players", z3.Exists([x, y], x != y)),
            ("tile-carries-a-number", z3.ForAll([t], z3.Exists([a], v.carries(t, a)))),
            ("tile-carries-at-most-two", z3.ForAll([t, a, b, c], z3.Implies(
                z3.And(v.carries(t, a), v.carries(t, b), v.carries(t, c)),
                z3.Or(a == b, a == c, b == c)))),
            ("double-defined", z3.ForAll([t], v.double(t) == z3.ForAll([a, b], z3.Implies(
                z3.And(v.carries(t, a), v.carries(t, b)), a == b)))),
            *self.layout.axioms(v),
            # R2.2 (out_on_double = "covered"): which double waits is read off the one
            # double of its number, so that a last double never covers a pending slot
            *([("one-double-per-number", z3.ForAll([t, u, a], z3.Implies(
                z3.And(v.double(t), v.double(u), v.carries(t, a), v.carries(u, a)), t == u)))]
              if self.COVER_OUT else []),
        ]

    # -- Init --------------------------------------------------------------
    def init(self, s: AState) -> Formula:
        """A deal: every tile in exactly one hand, the boneyard or aside; nothing on the
        table, no open end, no confirmation, no foul, round on. Hand sizes, the boneyard's
        size and the leader are free (every deal of every size is a model)."""
        v = self.v
        t, q, e, x = self.vars(("t_i", v.tile), ("q_i", v.player), ("e_i", v.end),
                               ("x_i", v.value))
        parts = [
            self.placed(s, q, t), self.disjoint(s), self.one_holder(s),
            z3.ForAll([t], z3.Not(s.on_table(t))),
            z3.ForAll([e, x], z3.Not(s.shows(e, x))),
            z3.ForAll([q], z3.And(z3.Not(s.confirmed(q)), z3.Not(s.fouls(q)))),
            z3.Not(s.opened), z3.Not(s.drew), z3.Not(s.blocked), z3.Not(s.domino),
        ]
        if self.DRAW is DrawRule.NONE:
            parts.append(self.bone_empty(s))  # every undealt tile is set aside
        if self.waits:
            parts.append(z3.ForAll([e], z3.Not(s.covered(e))))
        if self.doubles:
            parts.append(z3.ForAll([e], z3.Not(s.pending(e))))
        return z3.And(*parts)

    # -- the candidate inductive invariant -------------------------------------
    def _conjuncts(self) -> list[Conjunct]:
        """The lemmas of :data:`~dominoproof.proofs.z3.lemmas.LEMMAS` stated for every N and
        P that apply to these rules, each bound to this model."""
        return [Conjunct(lem, functools.partial(_bound, lem, self))
                for lem in abstract_candidates(self)]
