"""Proofs for every set size and every player count at once (issue 4 §3).

The per-instance encoding (``proofs/encoding.py``) fixes N and P and asks Z3
about one finite round. Here nothing is fixed: players, tiles, numbers and open
ends are **uninterpreted sorts**, the state is a handful of **relations** over
them (``holds(player, tile)``, ``in_boneyard(tile)``, ``shows(end, value)``,
``confirmed(player)``, ...), and each action of ``docs/SEMANTICS.md`` is a
two-state formula. A proof is an inductive invariant, written with quantifiers,
whose three obligations are unsatisfiable::

    Init & ~Inv                 (it holds after every deal)
    Inv & T_a & ~Inv'           (every action a preserves it; one query per
                                 action, then per conjunct where one fails, so a
                                 failure names both)
    Inv & ~Prop   or   Inv & T_a & ~Prop(pre, post)     (it implies the property)

Every query lies in many-sorted EPR (the Bernays-Schönfinkel-Ramsey class with
a stratified sort graph): after negation and Skolemisation, the only functions
are constants and ``Tile -> Player``, ``Tile -> Value``, ``End -> Value``
(acyclic), so Z3's model-based instantiation decides them. :func:`fragment_of`
checks this for every query and records it. The model and its invariant are
explained for a teacher in ``docs/ALLSIZES.md``.

The rule *parameters* that are not sizes select the actions and guards:
``draw.rule`` (R3.1), ``block.confirmations`` and
``block.boneyard_must_be_empty`` (R4.4), ``fouls.rule`` (R4.5). ``"all"``
confirmations is ``forall p. confirmed(p)``; ``"all-others"`` is
``forall p. p != turn -> confirmed(p)`` (and is shown unsound); a numeric count
is not first-order over an uninterpreted sort of players, so the properties
that depend on it are N/A here and proved per instance (``dominoproof prove``).

Honesty (issue 4 §7): every query has a timeout and a fixed seed; ``unknown``
gives UNKNOWN, never PROVED; ``Init``, ``Inv`` and every action are checked
satisfiable (a proof from an empty premise is a defect), and every live state
of ``Inv`` enables some action. Each result records the solver's time and
statistics of the queries it rests on.

The abstract twins of the faults of :mod:`dominoproof.proofs.faults` (see
:data:`TWINS`) show that each proof can fail.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import MoveKind
from dominoproof.model.variant import DrawRule, FoulRule, Variant
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import CATALOGUE, Kind, Result, Verdict, find_property
from dominoproof.proofs.solver import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Check, Ledger, Solver

__all__ = [
    "CORE",
    "METHOD",
    "NOT_STATABLE",
    "TWINS",
    "AbstractCounterexample",
    "AbstractModel",
    "Query",
    "fragment_of",
    "prove_all_sizes",
    "prove_model",
]

#: z3 has no type stubs: its terms are typed through these aliases.
Expr: TypeAlias = Any
Formula: TypeAlias = Any
SortRef: TypeAlias = Any

METHOD = "all sizes"
TRUE: Formula = z3.BoolVal(True)
ALL_SIZES = "every N >= 0, every P >= 2"

#: The properties stated and proved in the abstract model.
CORE: tuple[str, ...] = ("blocked-sound", "procedure", "no-false-confirmation",
                         "boneyard-monotone", "conservation")

_PER_INSTANCE = "per instance: see `dominoproof prove`"

#: Why each other catalogue property cannot be stated over uninterpreted sorts.
NOT_STATABLE: dict[str, str] = {
    "blocked-complete": (
        "bounded liveness: 'within one round of turns' counts turns (at most P "
        "confirmations), which first-order logic over an uninterpreted sort of players "
        f"cannot; {_PER_INSTANCE}"),
    "termination": (
        "a ranking function over tile counts needs arithmetic, outside the decidable "
        f"fragment; {_PER_INSTANCE}"),
    "opening": (
        "the lead rules name tiles by value (highest double, heaviest tile), which needs "
        "an order on numbers and pip arithmetic; the all-sizes model lets any player lead "
        f"with any tile (an over-approximation); {_PER_INSTANCE}"),
    "winner-lowest": f"scoring sums pips: arithmetic, outside EPR; {_PER_INSTANCE}",
    "award": f"scoring sums pips: arithmetic, outside EPR; {_PER_INSTANCE}",
    "tie": f"scoring sums pips: arithmetic, outside EPR; {_PER_INSTANCE}",
    "pips": f"residuals are sums of a+b: arithmetic, outside EPR; {_PER_INSTANCE}",
    "foul-penalty": f"penalties are numbers charged at scoring: arithmetic, outside EPR; "
                    f"{_PER_INSTANCE}",
    "final-scores": f"scores are awards less penalties: arithmetic, outside EPR; "
                    f"{_PER_INSTANCE}",
    "parity": (
        "the parity argument counts halves modulo 2 (odd or even N), which first-order "
        "logic over uninterpreted sorts cannot; its first half (every tile of an end's "
        "suit is on the table at a block when nothing is set aside) follows from "
        f"blocked-sound and conservation; {_PER_INSTANCE}"),
}

#: Properties whose statement involves the number of confirmations (R4.4).
_COUNTED = frozenset({"blocked-sound", "procedure"})


# ---------------------------------------------------------------------------
# Vocabulary: sorts, rigid relations and one state
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    """The sorts and the rigid (never-changing) relations.

    ``carries(t, v)``: tile ``t`` carries the number ``v`` on one of its halves.
    ``double(t)``: tile ``t`` carries one number only (defined by an axiom).
    ``btw(a, b, c)``: going clockwise from seat ``a`` one meets ``b`` before ``c``
    (the ring of seats, axiomatised as in Ivy's and mypyvy's ring examples).
    """

    player: SortRef
    tile: SortRef
    value: SortRef
    end: SortRef
    carries: Callable[..., Formula]
    double: Callable[..., Formula]
    btw: Callable[..., Formula]

    @staticmethod
    def declare() -> Vocabulary:
        player, tile = z3.DeclareSort("Player"), z3.DeclareSort("Tile")
        value, end = z3.DeclareSort("Value"), z3.DeclareSort("End")
        b = z3.BoolSort()
        return Vocabulary(player, tile, value, end,
                          z3.Function("carries", tile, value, b),
                          z3.Function("double", tile, b),
                          z3.Function("btw", player, player, player, b))


@dataclass(frozen=True)
class AState:
    """One state of the abstract round: relations as callables, plus constants.

    The pre-state is backed by declared symbols; a post-state replaces the
    relations an action changes by quantifier-free definitions over the
    pre-state (so ``Inv'`` stays in the same fragment as ``Inv``) and the
    constants it changes by fresh constants constrained by the action.
    """

    holds: Callable[..., Formula]  #: holds(p, t): seat p holds tile t
    in_boneyard: Callable[..., Formula]  #: in_boneyard(t): the drawable stock
    aside: Callable[..., Formula]  #: aside(t): out of play, never drawn
    on_table: Callable[..., Formula]  #: on_table(t): part of the layout
    shows: Callable[..., Formula]  #: shows(e, v): open end e shows the number v
    confirmed: Callable[..., Formula]  #: confirmed(p): p confirmed in the current run
    fouls: Callable[..., Formula]  #: fouls(p): p made a false declaration (R4.5)
    turn: Expr  #: the seat to move
    proposer: Expr  #: the first seat of the current run of confirmations (R4.1)
    opened: Formula  #: the lead has been played: the layout has open ends
    drew: Formula  #: draw-one games: the player to move has drawn this turn
    blocked: Formula  #: status BLOCKED (terminal)
    domino: Formula  #: status DOMINO (terminal)

    @staticmethod
    def declare(v: Vocabulary) -> AState:
        b = z3.BoolSort()
        return AState(
            holds=z3.Function("holds", v.player, v.tile, b),
            in_boneyard=z3.Function("in_boneyard", v.tile, b),
            aside=z3.Function("aside", v.tile, b),
            on_table=z3.Function("on_table", v.tile, b),
            shows=z3.Function("shows", v.end, v.value, b),
            confirmed=z3.Function("confirmed", v.player, b),
            fouls=z3.Function("fouls", v.player, b),
            turn=z3.Const("turn", v.player),
            proposer=z3.Const("proposer", v.player),
            opened=z3.Bool("opened"),
            drew=z3.Bool("drew"),
            blocked=z3.Bool("blocked"),
            domino=z3.Bool("domino"),
        )


@dataclass(frozen=True)
class Step:
    """One instance of an action: its formula, the post-state and its parameters."""

    formula: Formula
    post: AState
    params: dict[str, Expr]


@dataclass(frozen=True)
class Action:
    """A named action: a guard over the pre-state and its parameters, and an effect.

    ``params`` are the action's existential parameters (the tile played, the end
    it goes on, ...). The guard is a pair: the part that does not mention the
    parameters, and the part that does (kept apart so that "no action is
    enabled" stays in EPR). The effect may add constraints and fresh constants
    (the next seat, the new proposer), which are not part of the guard: the
    guard alone decides whether the action is enabled (:meth:`enabled`).
    """

    name: str
    kind: MoveKind
    rules: tuple[str, ...]
    doc: str
    params: tuple[tuple[str, SortRef], ...]
    guard: Callable[[AState, Sequence[Expr]], tuple[Formula, Formula]]
    effect: Callable[[AState, Sequence[Expr], str], tuple[list[Formula], AState,
                                                          dict[str, Expr]]]

    def step(self, pre: AState) -> Step:
        xs = [z3.Const(f"{self.name}.{n}", s) for n, s in self.params]
        extra, post, fresh = self.effect(pre, xs, self.name)
        params = {n: x for (n, _), x in zip(self.params, xs, strict=True)}
        common, pick = self.guard(pre, xs)
        return Step(z3.And(common, pick, *extra), post, {**params, **fresh})

    def enabled(self, pre: AState) -> Formula:
        xs = [z3.Const(f"{self.name}.{n}?", s) for n, s in self.params]
        common, pick = self.guard(pre, xs)
        return z3.And(common, z3.Exists(xs, pick) if xs else pick)


@dataclass(frozen=True)
class Conjunct:
    """One conjunct of the inductive invariant, with the rules it stands for."""

    name: str
    rules: tuple[str, ...]
    doc: str
    formula: Callable[[AState], Formula]


@dataclass(frozen=True)
class StateProperty:
    id: str
    formula: Callable[[AState], Formula]


@dataclass(frozen=True)
class TransitionProperty:
    """A property of every transition of the actions of the given kinds."""

    id: str
    kinds: frozenset[MoveKind]
    formula: Callable[[AState, AState], Formula]


# ---------------------------------------------------------------------------
# The abstract model of one variant's rules
# ---------------------------------------------------------------------------

#: Faults of :mod:`dominoproof.proofs.faults` with an abstract twin here: engine
#: mutants rewritten as actions, and variant overrides applied to the variant.
TWINS: dict[str, str] = {
    "confirm-while-playable": "an extra action confirm_playable: a player holding a "
                              "playable tile confirms, and it counts",
    "establish-without-boneyard-check": "an extra action confirm_instead_of_draw, and the "
                                        "establishment ignores the boneyard",
    "boneyard-check-off": "the variant override draw.rule = one, "
                          "block.boneyard_must_be_empty = false",
    "all-others-confirm": "the variant override block.confirmations = all-others",
    "draw-loses-tile": "the draw removes the tile from the boneyard and gives it to nobody",
    "draw-from-empty-boneyard": "an extra action draw_aside: with the boneyard empty, a "
                                "stuck player takes a set-aside tile",
}


class AbstractModel:
    """The round as a transition system over uninterpreted sorts, for one variant's rules.

    Sizes (N, P, hand size, tiles set aside, deal order) are not parameters:
    they are the sizes of the sorts and the initial partition, and every model
    of the axioms is one of them. The layout is the one line with its two open
    ends (R2.3's two readings coincide there). The lead rule is abstracted:
    any player may be first to move and lead with any tile they hold.

    ``axioms``, ``conjuncts`` and ``actions`` are plain lists, so that a test
    can break the model on purpose (a false axiom, a missing conjunct).
    """

    def __init__(self, variant: Variant, fault: str | None = None) -> None:
        if fault is not None and fault not in TWINS:
            raise DominoproofError(
                f"fault {fault!r} has no abstract twin; the all-sizes model has: "
                + ", ".join(TWINS))
        if fault is not None and FAULTS_BY_ID[fault].variant_overrides:
            variant = variant.with_overrides(FAULTS_BY_ID[fault].variant_overrides,
                                             source=f"fault {fault}")
        self.variant = variant
        self.fault = fault
        self.draw = variant.draw.rule
        c = variant.block.confirmations
        self.confirmations = c.rule  # "all", "all-others" or "count"
        self.must_be_empty = variant.block.boneyard_must_be_empty
        self.fouls_possible = variant.fouls.rule is FoulRule.PENALISED
        self.v = Vocabulary.declare()
        self.pre = AState.declare(self.v)
        self.axioms: list[tuple[str, Formula]] = self._axioms()
        self.actions: list[Action] = self._actions()
        self.conjuncts: list[Conjunct] = self._conjuncts()
        self._steps: dict[tuple[str, int], tuple[Action, Step]] = {}

    # -- cached instances (z3 terms are costly to build from Python) ------------
    def step(self, action: Action) -> Step:
        """The action's formula and post-state from :attr:`pre` (built once)."""
        key = (action.name, id(action))
        got = self._steps.get(key)
        if got is None or got[0] is not action:
            got = self._steps[key] = (action, action.step(self.pre))
        return got[1]

    # -- description -----------------------------------------------------
    def rules_text(self) -> str:
        v = self.variant
        text = (f"{v.name} rules: draw {self.draw.value}, confirmations "
                f"{v.block.confirmations!s}, boneyard_must_be_empty "
                f"{str(self.must_be_empty).lower()}, fouls {v.fouls.rule.value}; one line; "
                f"lead abstracted (any player, any tile)")
        if self.fault:
            text += f"; abstract twin of fault {self.fault}"
        return text

    def configuration(self) -> str:
        return f"{self.rules_text()}; {ALL_SIZES}"

    def statable(self, pid: str) -> str | None:
        """``None`` if ``pid`` is stated in this model, else why not (the N/A reason)."""
        if pid in NOT_STATABLE:
            return NOT_STATABLE[pid]
        if pid in _COUNTED and self.confirmations == "count":
            n = self.variant.block.confirmations
            return (f"confirmations = {n} is a count, which first-order logic over an "
                    f"uninterpreted sort of players cannot state for every P (at this "
                    f"variant's P = {self.variant.players} it is not the same rule as at "
                    f"other P); state \"all\" to prove it for every P, or {_PER_INSTANCE}")
        return None

    # -- helpers (formulas over one state) -----------------------------------
    def _vars(self, *spec: tuple[str, SortRef]) -> list[Expr]:
        return [z3.Const(n, s) for n, s in spec]

    def stuck(self, s: AState, p: Expr) -> Formula:
        """``p`` holds no tile carrying a number an open end shows (R2.1, R4.2)."""
        t, e, x = self._vars(("t_s", self.v.tile), ("e_s", self.v.end),
                             ("x_s", self.v.value))
        return z3.ForAll([t, e, x], z3.Not(z3.And(s.holds(p, t), self.v.carries(t, x),
                                                  s.shows(e, x))))

    def nobody_can_play(self, s: AState) -> Formula:
        """R2 on the one line: no hand holds a tile carrying an end's number (R2.1, R2.2);
        the R2.3 reading "has a legal move" is the same formula here."""
        q = z3.Const("q_np", self.v.player)
        return z3.ForAll([q], self.stuck(s, q))

    def bone_empty(self, s: AState) -> Formula:
        """R3: the boneyard supplies nothing."""
        t = z3.Const("t_b", self.v.tile)
        return z3.ForAll([t], z3.Not(s.in_boneyard(t)))

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
        ignore_boneyard = self.fault == "establish-without-boneyard-check"
        if self.must_be_empty and not ignore_boneyard:
            return z3.And(self.confirmations_ready(s), self.bone_empty(s))
        return self.confirmations_ready(s)

    def not_ready(self, s: AState) -> Formula:
        """The guard order: guard 3 (establish) comes first. With a numeric count the
        establishment is a free choice (an over-approximation), so nothing is excluded."""
        if self.confirmations == "count":
            return z3.BoolVal(True)
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
        w, x, y, zz = self._vars(("W", v.player), ("X", v.player), ("Y", v.player),
                                 ("Z", v.player))
        t = z3.Const("T", v.tile)
        a, b, c = self._vars(("A", v.value), ("B", v.value), ("C", v.value))
        e, e1, e2 = self._vars(("E", v.end), ("E1", v.end), ("E2", v.end))
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
            ("line-has-two-ends", z3.Exists([e1, e2], z3.And(
                e1 != e2, z3.ForAll([e], z3.Or(e == e1, e == e2))))),
        ]

    # -- Init --------------------------------------------------------------
    def init(self, s: AState) -> Formula:
        """A deal: every tile in exactly one hand, the boneyard or aside; nothing on the
        table, no open end, no confirmation, no foul, round on. Hand sizes, the boneyard's
        size and the leader are free (every deal of every size is a model)."""
        v = self.v
        t, q, e, x = self._vars(("t_i", v.tile), ("q_i", v.player), ("e_i", v.end),
                                ("x_i", v.value))
        parts = [
            placed(s, v, q, t), disjoint(s, v), one_holder(s, v),
            z3.ForAll([t], z3.Not(s.on_table(t))),
            z3.ForAll([e, x], z3.Not(s.shows(e, x))),
            z3.ForAll([q], z3.And(z3.Not(s.confirmed(q)), z3.Not(s.fouls(q)))),
            z3.Not(s.opened), z3.Not(s.drew), z3.Not(s.blocked), z3.Not(s.domino),
        ]
        if self.draw is DrawRule.NONE:
            parts.append(self.bone_empty(s))  # every undealt tile is set aside
        return z3.And(*parts)

    # -- the actions (docs/SEMANTICS.md, guards 1-8 in order) --------------------
    def _actions(self) -> list[Action]:
        v, f = self.v, self.fault
        acts = [
            Action("domino", MoveKind.DOMINO, ("Terms",),
                   "guard 2: the mover's hand is empty: the round ends by a domino",
                   (), lambda s, _: (z3.And(self.live(s), z3.Not(self.has_tile(s, s.turn))),
                                     TRUE),
                   lambda s, _, __: ([], dataclasses.replace(s, domino=z3.BoolVal(True)),
                                     {})),
            Action("establish", MoveKind.ESTABLISH, ("R4.4", "R5.1"),
                   "guard 3: block_ready: the block is established",
                   (), lambda s, _: (z3.And(self.live(s), self.has_tile(s, s.turn),
                                            self.ready(s)), TRUE),
                   lambda s, _, __: ([], dataclasses.replace(s, blocked=z3.BoolVal(True)),
                                     {})),
            Action("lead", MoveKind.PLAY, ("Terms",),
                   "guard 4: no open end yet: the mover leads with a tile of their hand",
                   (("t", v.tile), ("a", v.value), ("b", v.value), ("e", v.end)),
                   self._lead_guard, self._lead_effect),
            Action("play", MoveKind.PLAY, ("R2.1", "R4.3"),
                   "guard 5: the mover lays a tile carrying the number an end shows; "
                   "that end then shows the tile's other number",
                   (("t", v.tile), ("e", v.end), ("x", v.value), ("y", v.value)),
                   self._play_guard, self._play_effect),
        ]
        if self.fouls_possible:
            acts.append(Action(
                "foul", MoveKind.CONFIRM, ("R4.5",),
                "guard 5, fouls penalised: a false declaration of inability, recorded as "
                "a foul; it breaks the run", (("t", v.tile), ("e", v.end), ("x", v.value)),
                self._playable_guard(need_empty=True, first_foul=True), self._foul_effect))
        if self.draw is not DrawRule.NONE:
            acts.append(Action(
                "draw", MoveKind.DRAW, ("R3.1",),
                "guard 6: a stuck mover draws a tile from the boneyard (any tile: every "
                "draw order)", (("t", v.tile),), self._draw_guard, self._draw_effect))
        if self.draw is DrawRule.ONE:
            acts.append(Action(
                "pass", MoveKind.PASS, ("R3.1",),
                "guard 7: draw-one, drawn and still stuck: the turn passes", (),
                self._pass_guard, self._pass_effect))
        acts.append(Action(
            "confirm", MoveKind.CONFIRM, ("R4.1", "R4.2"),
            "guard 8: stuck with the boneyard empty: the mover confirms (the first of a "
            "run proposes the block)", (), self._confirm_guard, self._confirm_effect))
        # -- abstract twins of engine faults (proofs/faults.py) --
        if f == "confirm-while-playable":
            acts.append(Action(
                "confirm_playable", MoveKind.CONFIRM, ("R4.3", "R4.5"),
                "FAULT: a player holding a playable tile confirms, and it counts",
                (("t", v.tile), ("e", v.end), ("x", v.value)),
                self._playable_guard(need_empty=True, first_foul=False),
                lambda s, xs, tag: self._confirm_effect(s, [], tag)))
        if f == "establish-without-boneyard-check" and self.draw is not DrawRule.NONE:
            acts.append(Action(
                "confirm_instead_of_draw", MoveKind.CONFIRM, ("R4.1",),
                "FAULT: a stuck player confirms instead of drawing", (),
                lambda s, _: (z3.And(self.moving(s), s.opened, self.stuck(s, s.turn),
                                     z3.Not(self.bone_empty(s)), z3.Not(s.drew)), TRUE),
                self._confirm_effect))
        if f == "draw-from-empty-boneyard":
            acts.append(Action(
                "draw_aside", MoveKind.DRAW, ("R3.1", "R3.2"),
                "FAULT: with the boneyard empty, a stuck player takes a set-aside tile",
                (("t", v.tile),),
                lambda s, xs: (z3.And(self.moving(s), s.opened, self.stuck(s, s.turn),
                                      self.bone_empty(s), z3.Not(self.run_started(s))),
                               s.aside(xs[0])),
                lambda s, xs, _: ([], dataclasses.replace(
                    s, holds=_add2(s.holds, s.turn, xs[0]),
                    aside=_remove1(s.aside, xs[0])), {})))
        return acts

    def _next_seat(self, s: AState, tag: str) -> tuple[Formula, Expr]:
        n = z3.Const(f"{tag}.next", self.v.player)
        return self.succ(s.turn, n), n

    def _after_play(self, s: AState, tag: str, post: AState) -> tuple[list[Formula], AState,
                                                                     dict[str, Expr]]:
        """A play passes the turn clockwise, unless the hand is now empty (a domino
        follows); the run of confirmations and the draw-one flag are reset."""
        nxt_ok, nxt = self._next_seat(s, tag)
        turn2 = z3.Const(f"{tag}.turn'", self.v.player)
        left = self.has_tile(post, s.turn)
        pick = z3.Or(z3.And(left, turn2 == nxt), z3.And(z3.Not(left), turn2 == s.turn))
        post = dataclasses.replace(post, turn=turn2, drew=z3.BoolVal(False),
                                   confirmed=lambda p: z3.BoolVal(False))
        return [nxt_ok, pick], post, {"next": nxt, "turn'": turn2}

    def _lead_guard(self, s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        t, a, b, _ = xs
        return (z3.And(self.moving(s), z3.Not(s.opened)),
                z3.And(s.holds(s.turn, t), self.other_half(t, a, b)))

    def _lead_effect(self, s: AState, xs: Sequence[Expr], tag: str
                     ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        t, a, b, e1 = xs
        post = dataclasses.replace(
            s, holds=_remove2(s.holds, s.turn, t), on_table=_add1(s.on_table, t),
            shows=lambda e, x: z3.If(e == e1, x == a, x == b), opened=z3.BoolVal(True))
        return self._after_play(s, tag, post)

    def _play_guard(self, s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        t, e, x, y = xs
        return (z3.And(self.moving(s), s.opened),
                z3.And(s.holds(s.turn, t), s.shows(e, x), self.other_half(t, x, y)))

    def _play_effect(self, s: AState, xs: Sequence[Expr], tag: str
                     ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        t, e, _, y = xs
        post = dataclasses.replace(
            s, holds=_remove2(s.holds, s.turn, t), on_table=_add1(s.on_table, t),
            shows=lambda f, w: z3.If(f == e, w == y, s.shows(f, w)))
        return self._after_play(s, tag, post)

    def _playable_guard(self, *, need_empty: bool, first_foul: bool
                        ) -> Callable[[AState, Sequence[Expr]], tuple[Formula, Formula]]:
        def guard(s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
            t, e, x = xs
            parts = [self.moving(s), s.opened]
            if need_empty:
                parts.append(self.bone_empty(s))
            if first_foul:
                parts.append(z3.Not(s.fouls(s.turn)))
            return z3.And(*parts), z3.And(s.holds(s.turn, t), self.v.carries(t, x),
                                          s.shows(e, x))
        return guard

    def _foul_effect(self, s: AState, xs: Sequence[Expr], tag: str
                     ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        nxt_ok, nxt = self._next_seat(s, tag)
        post = dataclasses.replace(s, fouls=_add1(s.fouls, s.turn), turn=nxt,
                                   drew=z3.BoolVal(False),
                                   confirmed=lambda p: z3.BoolVal(False))
        return [nxt_ok], post, {"next": nxt}

    def _stuck_guard(self, s: AState) -> Formula:
        return z3.And(self.moving(s), s.opened, self.stuck(s, s.turn))

    def _draw_guard(self, s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        return z3.And(self._stuck_guard(s), z3.Not(s.drew)), s.in_boneyard(xs[0])

    def _draw_effect(self, s: AState, xs: Sequence[Expr], tag: str
                     ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        t = xs[0]
        holds = s.holds if self.fault == "draw-loses-tile" else _add2(s.holds, s.turn, t)
        post = dataclasses.replace(s, holds=holds, in_boneyard=_remove1(s.in_boneyard, t),
                                   drew=z3.BoolVal(self.draw is DrawRule.ONE))
        return [], post, {}

    def _pass_guard(self, s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        return z3.And(self._stuck_guard(s), z3.Not(self.bone_empty(s)), s.drew), TRUE

    def _pass_effect(self, s: AState, xs: Sequence[Expr], tag: str
                     ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        if self.must_be_empty:
            nxt_ok, nxt = self._next_seat(s, tag)
            post = dataclasses.replace(s, turn=nxt, drew=z3.BoolVal(False),
                                       confirmed=lambda p: z3.BoolVal(False))
            return [nxt_ok], post, {"next": nxt}
        return self._confirm_effect(s, xs, tag)  # a pass counts as a confirmation

    def _confirm_guard(self, s: AState, xs: Sequence[Expr]) -> tuple[Formula, Formula]:
        return z3.And(self._stuck_guard(s), self.bone_empty(s)), TRUE

    def _confirm_effect(self, s: AState, xs: Sequence[Expr], tag: str
                        ) -> tuple[list[Formula], AState, dict[str, Expr]]:
        """The mover joins the run (the first one proposes the block) and the turn
        passes clockwise."""
        nxt_ok, nxt = self._next_seat(s, tag)
        prop2 = z3.Const(f"{tag}.proposer'", self.v.player)
        run = self.run_started(s)
        pick = z3.Or(z3.And(run, prop2 == s.proposer), z3.And(z3.Not(run), prop2 == s.turn))
        post = dataclasses.replace(s, confirmed=_add1(s.confirmed, s.turn), proposer=prop2,
                                   turn=nxt, drew=z3.BoolVal(False))
        return [nxt_ok, pick], post, {"next": nxt, "proposer'": prop2}

    # -- the candidate inductive invariant -------------------------------------
    def _conjuncts(self) -> list[Conjunct]:
        v = self.v
        q, t, e = z3.Const("q_j", v.player), z3.Const("t_j", v.tile), z3.Const("e_j", v.end)
        x, y = z3.Const("x_j", v.value), z3.Const("y_j", v.value)
        out = [
            Conjunct("tile-placed", ("Terms",), "every tile is in a hand, the boneyard, "
                     "aside or on the table", lambda s: placed(s, v, q, t)),
            Conjunct("places-disjoint", ("Terms",), "no tile is in two of those places",
                     lambda s: disjoint(s, v)),
            Conjunct("one-holder", ("Terms",), "no tile is held by two players",
                     lambda s: one_holder(s, v)),
        ]
        if self.draw is DrawRule.NONE:
            out.append(Conjunct("no-stock", ("R3.1",), "a block game has no boneyard",
                                self.bone_empty))
        if self.draw is not DrawRule.ONE:
            out.append(Conjunct("never-drew", ("R3.1",), "only draw-one games set drew",
                                lambda s: z3.Not(s.drew)))
        out += [
            Conjunct("closed-before-lead", ("Terms",),
                     "before the lead the table is empty and no end shows a number",
                     lambda s: z3.Implies(z3.Not(s.opened), z3.And(
                         z3.ForAll([t], z3.Not(s.on_table(t))),
                         z3.ForAll([e, x], z3.Not(s.shows(e, x)))))),
            Conjunct("table-after-lead", ("Terms",), "after the lead a tile is on the table",
                     lambda s: z3.Implies(s.opened, z3.Exists([t], s.on_table(t)))),
            Conjunct("end-shows-one-number", ("Terms",),
                     "after the lead each open end shows exactly one number",
                     lambda s: z3.Implies(s.opened, z3.ForAll([e], z3.And(
                         z3.Exists([x], s.shows(e, x)),
                         z3.ForAll([x, y], z3.Implies(z3.And(s.shows(e, x), s.shows(e, y)),
                                                      x == y)))))),
            Conjunct("run-after-lead", ("R4.1",), "confirmations come after the lead",
                     lambda s: z3.ForAll([q], z3.Implies(s.confirmed(q), s.opened))),
            Conjunct("run-stuck", ("R4.2", "R4.3"),
                     "a player who confirmed in the current run holds no tile carrying a "
                     "number an end shows",
                     lambda s: z3.ForAll([q, t, e, x], z3.Not(z3.And(
                         s.confirmed(q), s.holds(q, t), v.carries(t, x), s.shows(e, x))))),
            Conjunct("run-empty-boneyard", ("R4.4",),
                     "while a run is under way the boneyard is empty",
                     lambda s: z3.ForAll([q, t], z3.Implies(s.confirmed(q),
                                                             z3.Not(s.in_boneyard(t))))),
            Conjunct("run-has-proposer", ("R4.1",), "a run under way includes its proposer",
                     lambda s: z3.ForAll([q], z3.Implies(s.confirmed(q),
                                                         s.confirmed(s.proposer)))),
            Conjunct("run-full-at-proposer", ("R4.2", "R4.4"),
                     "if the seat to move has confirmed, the run went round the whole "
                     "table and is back at the proposer",
                     lambda s: z3.Implies(s.confirmed(s.turn), z3.And(
                         s.turn == s.proposer, z3.ForAll([q], s.confirmed(q))))),
            Conjunct("run-is-arc", ("R4.2",),
                     "otherwise the run is the seats from the proposer, clockwise, up to "
                     "the seat to move: confirmations in succession",
                     lambda s: z3.Implies(
                         z3.And(s.confirmed(s.proposer), z3.Not(s.confirmed(s.turn))),
                         z3.ForAll([q], s.confirmed(q) == z3.Or(
                             q == s.proposer, v.btw(s.proposer, q, s.turn))))),
            Conjunct("blocked-was-ready", ("R4.4", "R5.1"),
                     "a blocked state is frozen in the state that established it",
                     lambda s: z3.Implies(s.blocked, self.ready(s))),
        ]
        return out

    # -- the properties ---------------------------------------------------
    def state_property(self, pid: str) -> StateProperty | None:
        v = self.v
        if pid == "blocked-sound":
            return StateProperty(pid, lambda s: z3.Implies(s.blocked, z3.And(
                s.opened, self.bone_empty(s), self.nobody_can_play(s))))
        if pid == "conservation":
            q, t = z3.Const("q_c", v.player), z3.Const("t_c", v.tile)
            return StateProperty(pid, lambda s: z3.And(placed(s, v, q, t), disjoint(s, v),
                                                       one_holder(s, v)))
        return None

    def transition_property(self, pid: str) -> TransitionProperty | None:
        v = self.v
        if pid == "procedure":
            q = z3.Const("q_p", v.player)
            return TransitionProperty(pid, frozenset({MoveKind.ESTABLISH}),
                                      lambda s, _: z3.And(
                z3.ForAll([q], s.confirmed(q)), s.turn == s.proposer, s.opened,
                self.bone_empty(s), self.nobody_can_play(s)))
        if pid == "no-false-confirmation":
            q = z3.Const("q_f", v.player)

            def nfc(s: AState, s2: AState) -> Formula:
                ok = self.stuck(s, s.turn)
                if self.fouls_possible:
                    recorded = z3.And(s2.fouls(s.turn), z3.Not(s.fouls(s.turn)),
                                      z3.ForAll([q], z3.Not(s2.confirmed(q))))
                    ok = z3.Or(ok, recorded)
                return ok
            return TransitionProperty(pid, frozenset({MoveKind.CONFIRM}), nfc)
        if pid == "boneyard-monotone":
            p, t = z3.Const("p_m", v.player), z3.Const("t_m", v.tile)
            return TransitionProperty(pid, frozenset(MoveKind), lambda s, s2: z3.And(
                z3.ForAll([t], z3.Implies(s2.in_boneyard(t), s.in_boneyard(t))),
                z3.Implies(self.bone_empty(s), self.bone_empty(s2)),
                z3.ForAll([p, t], z3.Implies(z3.And(s2.holds(p, t), z3.Not(s.holds(p, t))),
                                             s.in_boneyard(t)))))
        return None


def placed(s: AState, v: Vocabulary, q: Expr, t: Expr) -> Formula:
    """Every tile is somewhere: a hand, the boneyard, aside or the table (the one
    ``forall t. exists p`` of the model: the sort edge Tile -> Player)."""
    return z3.ForAll([t], z3.Or(z3.Exists([q], s.holds(q, t)), s.in_boneyard(t),
                                s.aside(t), s.on_table(t)))


def disjoint(s: AState, v: Vocabulary) -> Formula:
    q, t = z3.Const("q_d", v.player), z3.Const("t_d", v.tile)
    return z3.ForAll([q, t], z3.And(
        z3.Implies(s.holds(q, t), z3.Not(z3.Or(s.in_boneyard(t), s.aside(t),
                                                s.on_table(t)))),
        z3.Implies(s.in_boneyard(t), z3.Not(z3.Or(s.aside(t), s.on_table(t)))),
        z3.Implies(s.aside(t), z3.Not(s.on_table(t)))))


def one_holder(s: AState, v: Vocabulary) -> Formula:
    p, q, t = z3.Const("p_o", v.player), z3.Const("q_o", v.player), z3.Const("t_o", v.tile)
    return z3.ForAll([p, q, t], z3.Implies(z3.And(s.holds(p, t), s.holds(q, t)), p == q))


def _add1(r: Callable[..., Formula], a: Expr) -> Callable[..., Formula]:
    return lambda x: z3.Or(r(x), x == a)


def _remove1(r: Callable[..., Formula], a: Expr) -> Callable[..., Formula]:
    return lambda x: z3.And(r(x), x != a)


def _add2(r: Callable[..., Formula], a: Expr, b: Expr) -> Callable[..., Formula]:
    return lambda x, y: z3.Or(r(x, y), z3.And(x == a, y == b))


def _remove2(r: Callable[..., Formula], a: Expr, b: Expr) -> Callable[..., Formula]:
    return lambda x, y: z3.And(r(x, y), z3.Not(z3.And(x == a, y == b)))


# ---------------------------------------------------------------------------
# The fragment: is a query in (stratified, many-sorted) EPR?
# ---------------------------------------------------------------------------


Edge: TypeAlias = tuple[str, str]
#: Memo of :func:`fragment_of`: (AST id, polarity, enclosing universal sorts) ->
#: (the term, kept alive so that its id stays its own; its sort edges).
FragmentCache: TypeAlias = dict[tuple[int, int, tuple[str, ...]], tuple[Expr, frozenset[Edge]]]


def fragment_of(formulas: Iterable[Formula], cache: FragmentCache | None = None,
                ) -> tuple[bool, list[Edge]]:
    """Whether the conjunction of ``formulas`` is in stratified many-sorted EPR.

    Walks each formula with its polarity; an existential (a positive ``exists``
    or a negative ``forall``) under universals of sorts ``S`` becomes a Skolem
    function from ``S`` to its sort: an edge ``S -> sort``. Uninterpreted
    functions add edges from their arguments to their result. The query is in
    the fragment, and Z3 decides it, when this sort graph has no cycle.
    Returns ``(ok, sorted edges)``. ``cache`` memoises shared subterms (formulas
    are DAGs: a guard or a conjunct recurs in many queries).
    """
    memo: FragmentCache = {} if cache is None else cache
    empty: frozenset[Edge] = frozenset()

    def walk(e: Expr, pol: int, univ: tuple[str, ...]) -> frozenset[Edge]:
        key = (e.get_id(), pol, univ)
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out: set[Edge] = set()
        if z3.is_quantifier(e):
            sorts = [e.var_sort(i).name() for i in range(e.num_vars())]
            fa = e.is_forall()
            as_exists = pol == 0 or (pol > 0) != fa
            as_forall = pol == 0 or (pol > 0) == fa
            if as_exists:
                out.update((u, s) for u in univ for s in sorts)
            out |= walk(e.body(), pol, univ + tuple(sorts) if as_forall else univ)
        elif z3.is_app(e) and e.num_args() > 0:
            k = e.decl().kind()
            kids = e.children()
            if k == z3.Z3_OP_NOT:
                out |= walk(kids[0], -pol, univ)
            elif k in (z3.Z3_OP_AND, z3.Z3_OP_OR):
                for c in kids:
                    out |= walk(c, pol, univ)
            elif k == z3.Z3_OP_IMPLIES:
                out |= walk(kids[0], -pol, univ) | walk(kids[1], pol, univ)
            elif k == z3.Z3_OP_ITE and z3.is_bool(e):
                out |= walk(kids[0], 0, univ) | walk(kids[1], pol, univ)
                out |= walk(kids[2], pol, univ)
            else:
                if k == z3.Z3_OP_UNINTERPRETED and not z3.is_bool(e):
                    d = e.decl()
                    rng = d.range().name()
                    out.update((d.domain(i).name(), rng) for i in range(d.arity()))
                for c in kids:
                    out |= walk(c, 0, univ)
        got = frozenset(out) if out else empty
        memo[key] = (e, got)
        return got

    edges: set[Edge] = set()
    for f in formulas:
        edges |= walk(f, 1, ())
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)

    def cyclic() -> bool:
        state: dict[str, int] = {}

        def visit(n: str) -> bool:
            state[n] = 1
            for m in graph.get(n, ()):
                if state.get(m) == 1 or (m not in state and visit(m)):
                    return True
            state[n] = 2
            return False
        return any(n not in state and visit(n) for n in list(graph))

    return not cyclic(), sorted(edges)


# ---------------------------------------------------------------------------
# The solver wrapper and counterexamples
# ---------------------------------------------------------------------------


@dataclass
class Query:
    """One Z3 query: its answer, time, statistics and fragment."""

    name: str
    answer: str  #: "sat", "unsat" or "unknown"
    seconds: float
    epr: bool
    edges: list[Edge]
    statistics: dict[str, Any] = field(default_factory=dict)
    reason: str = ""  #: why unknown, when it is
    model: Any = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"query": self.name, "answer": self.answer, "seconds": round(self.seconds, 4),
                "fragment": "EPR" if self.epr else "outside EPR (MBQI, timeout)",
                "sort_edges": [f"{a}->{b}" for a, b in self.edges],
                "reason": self.reason, "statistics": self.statistics}


class _Checker:
    """Every query through the shared wrapper (:class:`~dominoproof.proofs.solver.Solver`:
    fixed seed, timeout, push/pop frame, statistics): a fresh solver per query, so
    that a verdict never depends on the order of queries, holding the axioms, with
    the query's own formulas in a frame that is always popped."""

    def __init__(self, axioms: Sequence[Formula], timeout_ms: int, seed: int,
                 rlimit: int = DEFAULT_RLIMIT) -> None:
        self.axioms = list(axioms)
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        self.seed = seed
        self.ledger = Ledger()
        self.log: list[Query] = []
        self._fragments: FragmentCache = {}

    def _solve(self, name: str, solver: Solver) -> Check:
        """The one call to Z3 (a test replaces it to simulate ``unknown``)."""
        return solver.check()

    def check(self, name: str, *formulas: Formula) -> Query:
        epr, edges = fragment_of([*self.axioms, *formulas], self._fragments)
        # Z3's default solver: the quantified (EPR) formulas need its MBQI, not bit-blasting
        s = Solver(seed=self.seed, timeout_ms=self.timeout_ms, rlimit=self.rlimit,
                   ledger=self.ledger,
                   engine="smt")
        s.add(*self.axioms)
        with s.frame():
            s.add(*formulas)
            c = self._solve(name, s)
        q = Query(name, c.answer, c.seconds, epr, edges, dict(c.stats), c.reason, c.model)
        self.log.append(q)
        return q


@dataclass
class AbstractCounterexample:
    """A model of a failed query, decoded: a (pre-)state of the abstract round, and
    for a transition the action, its parameters and the post-state.

    A counterexample to induction need not be reachable; its sorts are small
    finite sets (``P0, P1`` seats, ``T0..`` tiles, ``V0..`` numbers, ``E0, E1``
    ends), one instance of "every N, every P".
    """

    query: str
    action: str | None
    universe: dict[str, list[str]]
    carries: dict[str, list[str]]
    clockwise: list[str]
    pre: dict[str, Any]
    post: dict[str, Any] | None = None
    params: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def __str__(self) -> str:
        tiles = ", ".join(f"{t}={'/'.join(vs)}" for t, vs in self.carries.items())
        lines = [f"{self.query}: seats {' -> '.join(self.clockwise)} (clockwise); "
                 f"tiles {tiles}"]
        lines.append(f"  before: {_state_text(self.pre)}")
        if self.action is not None:
            ps = ", ".join(f"{k}={v}" for k, v in self.params.items())
            lines.append(f"  action: {self.action}({ps})")
        if self.post is not None:
            lines.append(f"  after:  {_state_text(self.post)}")
        return "\n".join(lines)


def _state_text(st: dict[str, Any]) -> str:
    def braces(xs: Iterable[str]) -> str:
        return "{" + ",".join(xs) + "}"
    hands = " ".join(f"{p}:{braces(ts)}" for p, ts in st["hands"].items())
    ends = " ".join(f"{e}:{'/'.join(vs) or '-'}" for e, vs in st["shows"].items())
    flags = [k for k in ("opened", "drew", "blocked", "domino") if st[k]]
    return (f"turn {st['turn']}, hands {hands}, boneyard {braces(st['boneyard'])}, "
            f"aside {braces(st['aside'])}, table {braces(st['table'])}, ends {ends}, "
            f"confirmed {braces(st['confirmed'])} (proposer {st['proposer']}), "
            f"fouls {braces(st['fouls'])}" + (f"; {' '.join(flags)}" if flags else ""))


class _Decoder:
    def __init__(self, m: AbstractModel, model: Any) -> None:
        self.model = model
        self.names: dict[str, str] = {}
        self.universe: dict[str, list[Expr]] = {}
        for sort, prefix in ((m.v.player, "P"), (m.v.tile, "T"), (m.v.value, "V"),
                             (m.v.end, "E")):
            elems = model.get_universe(sort) or []
            self.universe[sort.name()] = list(elems)
            for i, el in enumerate(elems):
                self.names[str(el)] = f"{prefix}{i}"
        self.m = m

    def name(self, e: Expr) -> str:
        val = self.model.eval(e, model_completion=True)
        return self.names.get(str(val), str(val))

    def true(self, f: Formula) -> bool:
        return bool(z3.is_true(self.model.eval(f, model_completion=True)))

    def els(self, sort: SortRef) -> list[Expr]:
        return self.universe[sort.name()]

    def set1(self, r: Callable[..., Formula], sort: SortRef) -> list[str]:
        return [self.name(x) for x in self.els(sort) if self.true(r(x))]

    def state(self, s: AState) -> dict[str, Any]:
        v = self.m.v
        return {
            "turn": self.name(s.turn), "proposer": self.name(s.proposer),
            "hands": {self.name(p): [self.name(t) for t in self.els(v.tile)
                                     if self.true(s.holds(p, t))] for p in self.els(v.player)},
            "boneyard": self.set1(s.in_boneyard, v.tile),
            "aside": self.set1(s.aside, v.tile),
            "table": self.set1(s.on_table, v.tile),
            "shows": {self.name(e): [self.name(x) for x in self.els(v.value)
                                     if self.true(s.shows(e, x))] for e in self.els(v.end)},
            "confirmed": self.set1(s.confirmed, v.player),
            "fouls": self.set1(s.fouls, v.player),
            **{k: self.true(getattr(s, k)) for k in ("opened", "drew", "blocked", "domino")},
        }

    def clockwise(self) -> list[str]:
        ps = self.els(self.m.v.player)
        if not ps:
            return []
        first, rest = ps[0], ps[1:]

        def cmp(a: Expr, b: Expr) -> int:
            return -1 if self.true(self.m.v.btw(first, a, b)) else 1
        return [self.name(p) for p in [first, *sorted(rest, key=functools.cmp_to_key(cmp))]]

    def decode(self, query: str, pre: AState, step: Step | None = None,
               action: str | None = None) -> AbstractCounterexample:
        v = self.m.v
        return AbstractCounterexample(
            query=query, action=action,
            universe={k: [self.names.get(str(x), str(x)) for x in xs]
                      for k, xs in self.universe.items()},
            carries={self.name(t): [self.name(x) for x in self.els(v.value)
                                    if self.true(v.carries(t, x))] for t in self.els(v.tile)},
            clockwise=self.clockwise(),
            pre=self.state(pre),
            post=self.state(step.post) if step is not None else None,
            params={k: self.name(x) for k, x in step.params.items()} if step else {},
        )


# ---------------------------------------------------------------------------
# The proof
# ---------------------------------------------------------------------------


@dataclass
class _Failure:
    where: str  #: "init" or an action name
    query: Query
    cti: AbstractCounterexample | None


@dataclass
class _Invariant:
    """The outcome of the invariant search (Houdini over the candidate conjuncts)."""

    kept: list[Conjunct]
    dropped: dict[str, _Failure]
    queries: list[Query]
    seconds: float
    problems: list[str] = field(default_factory=list)  #: the solver contradicted itself

    @property
    def unknown(self) -> list[str]:
        return [n for n, f in self.dropped.items() if f.query.answer == "unknown"]


def _houdini(m: AbstractModel, chk: _Checker) -> _Invariant:
    """The largest subset of the candidate conjuncts that holds initially and is
    preserved by every action (Houdini). Each round asks one query per action,
    ``Inv & T_a & ~Inv'``; only when it is not ``unsat`` is each conjunct asked
    on its own, to name the conjuncts that fail there. A conjunct whose own
    query is ``unknown`` is dropped too, and remembered as such."""
    start = len(chk.log)
    t0 = time.perf_counter()
    pre = m.pre
    steps = {a.name: m.step(a) for a in m.actions}
    kept = list(m.conjuncts)
    dropped: dict[str, _Failure] = {}
    problems: list[str] = []

    def culprits(where: str, premise: list[Formula], post: AState,
                 step: Step | None) -> dict[str, _Failure]:
        found: dict[str, _Failure] = {}
        for c in kept:
            q = chk.check(f"{where} preserves {c.name}" if step else f"init => {c.name}",
                          *premise, z3.Not(c.formula(post)))
            if q.answer != "unsat":
                cti = None
                if q.model is not None:
                    cti = _Decoder(m, q.model).decode(q.name, pre, step,
                                                      where if step else None)
                found[c.name] = _Failure(where, q, cti)
        return found

    init = m.init(pre)
    q = chk.check("init => Inv", init, z3.Not(z3.And(*[c.formula(pre) for c in kept])))
    if q.answer != "unsat":
        dropped.update(culprits("init", [init], pre, None))
        kept = [c for c in kept if c.name not in dropped]
    while True:
        inv = [c.formula(pre) for c in kept]
        failed: dict[str, _Failure] = {}
        for a in m.actions:
            st = steps[a.name]
            q = chk.check(f"{a.name} preserves Inv", *inv, st.formula,
                          z3.Not(z3.And(*[c.formula(st.post) for c in kept])))
            if q.answer != "unsat":
                found = culprits(a.name, [*inv, st.formula], st.post, st)
                if q.answer == "sat" and not found:
                    problems.append(f"{q.name}: sat, yet every conjunct alone is preserved")
                for name, f in found.items():
                    failed.setdefault(name, f)
        if not failed:
            break
        dropped.update(failed)
        kept = [c for c in kept if c.name not in failed]
    return _Invariant(kept, dropped, chk.log[start:], time.perf_counter() - t0, problems)


@dataclass
class _Sanity:
    ok: bool
    problems: list[str]
    queries: list[Query]
    seconds: float


def _sanity(m: AbstractModel, chk: _Checker, inv: _Invariant) -> _Sanity:
    """§7: the premises are satisfiable, every action has a successor from some
    state of the invariant, and every live state of the invariant enables some
    action (the next seat aside: its existence in a finite ring is not first-order)."""
    start = len(chk.log)
    t0 = time.perf_counter()
    pre = m.pre
    invf = [c.formula(pre) for c in inv.kept]
    problems: list[str] = list(inv.problems)

    def expect(answer: str, name: str, *fs: Formula) -> None:
        q = chk.check(name, *fs)
        if q.answer != answer:
            problems.append(f"{name}: expected {answer}, got {q.answer}"
                            + (f" ({q.reason})" if q.reason else ""))

    expect("sat", "axioms satisfiable")
    expect("sat", "Init satisfiable", m.init(pre))
    expect("sat", "Inv satisfiable", *invf)
    for a in m.actions:
        expect("sat", f"{a.name} has a successor from Inv", *invf, m.step(a).formula)
    expect("unsat", "every live Inv state enables an action", *invf, m.live(pre),
           *[z3.Not(a.enabled(pre)) for a in m.actions])
    return _Sanity(not problems, problems, chk.log[start:], time.perf_counter() - t0)


def distinct_tiles(v: Vocabulary) -> Formula:
    """Two tiles carrying the same numbers are the same tile, as in every real set (the
    model does not need it: it is added only to decode a counterexample into real tiles;
    in EPR, its Skolem function is ``Tile x Tile -> Value``, in the same stratum)."""
    t1, t2, x = z3.Const("t_d1", v.tile), z3.Const("t_d2", v.tile), z3.Const("x_d", v.value)
    return z3.ForAll([t1, t2], z3.Implies(
        z3.ForAll([x], v.carries(t1, x) == v.carries(t2, x)), t1 == t2))


def _decoded(m: AbstractModel, chk: _Checker, q: Query, formulas: Sequence[Formula],
             pre: AState, step: Step | None = None,
             action: str | None = None) -> AbstractCounterexample:
    """The counterexample of the sat query ``q`` (``formulas``), decoded. The verdict rests
    on ``q``; for the decoding, the same query is asked again with every tile distinct
    (:func:`distinct_tiles`), so that the counterexample reads as real tiles of a small set;
    if that one is not sat, ``q``'s own model is decoded."""
    again = chk.check(f"{q.name} (again, tiles distinct, to decode)", *formulas,
                      distinct_tiles(m.v))
    model = again.model if again.answer == "sat" and again.model is not None else q.model
    return _Decoder(m, model).decode(q.name, pre, step, action)


def _property_queries(m: AbstractModel, chk: _Checker, pid: str, inv: _Invariant
                      ) -> tuple[str, list[Query], AbstractCounterexample | None, str]:
    """Check one property against the invariant. Returns the answer ("unsat" when
    proved), its queries, a decoded counterexample and the failing place."""
    pre = m.pre
    invf = [c.formula(pre) for c in inv.kept]
    start = len(chk.log)
    sp = m.state_property(pid)
    if sp is not None:
        q = chk.check(f"Inv => {pid}", *invf, z3.Not(sp.formula(pre)))
        if q.answer != "sat":
            return q.answer, chk.log[start:], None, ""
        # Name the action: where does the property itself fail to be preserved?
        init_f = [m.init(pre), z3.Not(sp.formula(pre))]
        qi = chk.check(f"init => {pid}", *init_f)
        if qi.answer == "sat":
            return "sat", chk.log[start:], _decoded(m, chk, qi, init_f, pre), "init"
        for a in m.actions:
            st = m.step(a)
            fs = [*invf, sp.formula(pre), st.formula, z3.Not(sp.formula(st.post))]
            qa = chk.check(f"{a.name} preserves {pid}", *fs)
            if qa.answer == "sat":
                return ("sat", chk.log[start:], _decoded(m, chk, qa, fs, pre, st, a.name),
                        a.name)
        return ("sat", chk.log[start:],
                _decoded(m, chk, q, [*invf, z3.Not(sp.formula(pre))], pre), "Inv")
    tp = m.transition_property(pid)
    assert tp is not None, pid
    worst = "unsat"
    for a in m.actions:
        if a.kind not in tp.kinds:
            continue
        st = m.step(a)
        fs = [*invf, st.formula, z3.Not(tp.formula(pre, st.post))]
        q = chk.check(f"{a.name} => {pid}", *fs)
        if q.answer == "sat":
            return ("sat", chk.log[start:], _decoded(m, chk, q, fs, pre, st, a.name),
                    a.name)
        if q.answer == "unknown":
            worst = "unknown"
    return worst, chk.log[start:], None, ""


def _summary(queries: Sequence[Query]) -> dict[str, Any]:
    return {"queries": len(queries), "seconds": round(sum(q.seconds for q in queries), 4),
            "max_seconds": round(max((q.seconds for q in queries), default=0.0), 4),
            "all_epr": all(q.epr for q in queries),
            "unknown": [q.name for q in queries if q.answer == "unknown"]}


def prove_model(model: AbstractModel, property_ids: Sequence[str] | None = None, *,
                timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
                rlimit: int = DEFAULT_RLIMIT) -> list[Result]:
    """Prove the given properties (default: the whole catalogue) in ``model``.

    PROVED only when every obligation is ``unsat`` and every sanity check passed;
    NOT_INDUCTIVE with a decoded counterexample when a needed query is ``sat``;
    UNKNOWN when a query that decides the verdict is ``unknown``; N/A (with the
    reason and the instances proved instead) for properties outside the fragment.
    """
    ids = list(property_ids) if property_ids is not None else [p.id for p in CATALOGUE]
    config = model.configuration()
    results: dict[str, Result] = {}
    todo = []
    for pid in ids:
        prop = find_property(pid)
        why = model.statable(pid)
        if why is None and not prop.applies_to(model.variant):
            why = f"does not apply to this variant: {prop.applies_doc}"
        if why is not None:
            results[pid] = Result(pid, Verdict.NOT_APPLICABLE, METHOD, config, detail=why)
        else:
            todo.append(pid)
    if todo:
        chk = _Checker([f for _, f in model.axioms], timeout_ms, seed, rlimit)
        inv = _houdini(model, chk)
        sanity = _sanity(model, chk, inv)
        # the invariant and the sanity checks serve every property: their time is
        # counted once, with the first property proved (the instance proofs do the same
        # with Houdini), so the properties' times add up to the work done
        shared_seconds = inv.seconds + sanity.seconds
        for pid in todo:
            t0 = time.perf_counter()
            answer, queries, cti, where = _property_queries(model, chk, pid, inv)
            own = time.perf_counter() - t0
            results[pid] = _verdict(model, pid, answer, queries, cti, where, inv, sanity,
                                    own + shared_seconds, config)
            shared_seconds = 0.0
    return [results[pid] for pid in ids]


def _verdict(model: AbstractModel, pid: str, answer: str, queries: list[Query],
             cti: AbstractCounterexample | None, where: str, inv: _Invariant,
             sanity: _Sanity, seconds: float, config: str) -> Result:
    kind = find_property(pid).kind
    stats: dict[str, Any] = {
        "invariant": [c.name for c in inv.kept],
        "dropped": {n: {"at": f.where, "answer": f.query.answer} for n, f in
                    inv.dropped.items()},
        "queries": [q.to_json() for q in queries],
        "invariant_queries": _summary(inv.queries),
        "sanity_queries": _summary(sanity.queries),
        "fragment": ("EPR" if all(q.epr for q in [*queries, *inv.queries, *sanity.queries])
                     else "not all EPR"),
    }
    dropped_text = "; ".join(
        f"conjunct {n} not preserved by {f.where}" + (" (unknown)" if f.query.answer ==
                                                       "unknown" else "")
        for n, f in inv.dropped.items())
    how = ("the invariant's conjuncts all hold initially and are preserved by every action"
           if not inv.dropped else
           f"the invariant kept {len(inv.kept)} of {len(model.conjuncts)} conjuncts "
           f"({dropped_text})")
    obligation = ("Inv => property" if kind is Kind.STATE
                  else "Inv & action => property, for every action it constrains")
    if not sanity.ok:
        verdict = Verdict.UNKNOWN
        detail = "sanity check failed, nothing is claimed: " + "; ".join(sanity.problems)
    elif answer == "unsat":
        verdict = Verdict.PROVED
        detail = f"{how}; {obligation}: unsat"
    elif answer == "sat" and not inv.unknown:
        verdict = Verdict.NOT_INDUCTIVE
        # the counterexample itself is the result's trace (decoded for people by
        # dominoproof.concrete: real tiles, seats and numbers of a small table)
        detail = (f"{how}; {obligation} fails at {where}: a counterexample in the abstract "
                  f"model (not necessarily reachable)")
    else:
        verdict = Verdict.UNKNOWN
        unk = [q.name for q in queries if q.answer == "unknown"] + inv.unknown
        detail = f"{how}; the solver answered unknown on: {', '.join(unk)}"
    return Result(pid, verdict, METHOD, config, detail=detail, seconds=seconds,
                  trace=cti if verdict is Verdict.NOT_INDUCTIVE else None, stats=stats)


def prove_all_sizes(variant: Variant, property_ids: Sequence[str] | None = None, *,
                    timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
                    fault: str | None = None, rlimit: int = DEFAULT_RLIMIT) -> list[Result]:
    """Prove ``property_ids`` (default: the whole catalogue) for ``variant``'s rules at
    every set size N and every number of players P >= 2 at once.

    The core properties (:data:`CORE`) are stated in the abstract model; the
    others, and those that depend on a numeric count of confirmations, are
    NOT_APPLICABLE with the reason and a pointer to the per-instance proofs.
    ``fault`` selects the abstract twin of a fault of :mod:`~dominoproof.proofs.faults`
    (:data:`TWINS`), to show the proofs can fail. Every query has ``rlimit``,
    ``timeout_ms`` and ``seed``; ``unknown`` is never PROVED.
    """
    return prove_model(AbstractModel(variant, fault), property_ids,
                       timeout_ms=timeout_ms, seed=seed, rlimit=rlimit)
