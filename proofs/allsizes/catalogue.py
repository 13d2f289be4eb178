"""The catalogue in the abstract model: which properties are stated, how, and why the
others cannot be.

The state properties (``blocked-sound``, ``conservation``) are stated with the lemmas
(:mod:`dominoproof.proofs.z3.lemmas`, their all-sizes formula); the transition
properties and the layout's properties at a block are here. The layout's properties
(:data:`LAYOUT`) read the slot relations of :mod:`.layout`: they are stated wherever the
model states the variant's layout and the property applies (a spinner, doubles that take
tiles). Every other property of the catalogue is N/A with the reason
(:data:`NOT_STATABLE`) and a pointer to the per-instance proofs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import MoveKind
from dominoproof.proofs.z3.lemmas import abstract_statement

from . import layout_properties
from .vocabulary import AState, Formula

#: What a transition property reads of the action: its kind and parameters by name.
Move = layout_properties.Move

if TYPE_CHECKING:
    from .model import AbstractModel

METHOD = "all sizes"
ALL_SIZES = "every N >= 0, every P >= 2"

#: The properties stated and proved in the abstract model.
CORE: tuple[str, ...] = ("blocked-sound", "procedure", "no-false-confirmation",
                         "boneyard-monotone", "conservation")

PER_INSTANCE = "per instance: see `dominoproof prove`"

#: The layout's properties stated here, where the model states the layout (not trains:
#: ``markers`` is in :data:`NOT_STATABLE`) and the property applies to the variant.
LAYOUT: tuple[str, ...] = ("doubles-covered", "spinner-arms", "uncoverable-double",
                           "readings-agree")

#: Why each other catalogue property cannot be stated over uninterpreted sorts.
NOT_STATABLE: dict[str, str] = {
    "blocked-complete": (
        "bounded liveness: 'within one round of turns' counts turns (at most P "
        "confirmations), which first-order logic over an uninterpreted sort of players "
        f"cannot; {PER_INSTANCE}"),
    "termination": (
        "a ranking function over tile counts needs arithmetic, outside the decidable "
        f"fragment; {PER_INSTANCE}"),
    "opening": (
        "the lead rules name tiles by value (highest double, heaviest tile), which needs "
        "an order on numbers and pip arithmetic; the all-sizes model lets any player lead "
        f"with any tile (an over-approximation); {PER_INSTANCE}"),
    "winner-lowest": f"scoring sums pips: arithmetic, outside EPR; {PER_INSTANCE}",
    "award": f"scoring sums pips: arithmetic, outside EPR; {PER_INSTANCE}",
    "tie": f"scoring sums pips: arithmetic, outside EPR; {PER_INSTANCE}",
    "pips": f"residuals are sums of a+b: arithmetic, outside EPR; {PER_INSTANCE}",
    "foul-penalty": f"penalties are numbers charged at scoring: arithmetic, outside EPR; "
                    f"{PER_INSTANCE}",
    "final-scores": f"scores are awards less penalties: arithmetic, outside EPR; "
                    f"{PER_INSTANCE}",
    "points-in-fives": (
        "points in play sum the ends' numbers and test them modulo 5: arithmetic, outside "
        "EPR; the abstract model has no points (R5.7); per instance the search judges it "
        "and the Z3 relation's induction proves it (`dominoproof verify`, `dominoproof "
        "prove`)"),
    "parity": (
        "the parity argument counts halves modulo 2 (odd or even N), which first-order "
        "logic over uninterpreted sorts cannot; its first half (every tile of an end's "
        "suit is on the table at a block when nothing is set aside) follows from "
        f"blocked-sound and conservation; {PER_INSTANCE}"),
    # R4.7: the model states the call (its guard: every tile of the end's number on the
    # table), but not the property: its negation needs a tile for every end and number
    "called-block": (
        "'no open end is dead' says: for every end and number, some tile carrying it is "
        "not on the table -- a function Value -> Tile, which with 'every tile carries a "
        f"number' (Tile -> Value) is a cycle outside EPR; {PER_INSTANCE}"),
    # the one layout property no layout the model states has: markers belong to trains,
    # whose owned slots leave the fragment (proofs/allsizes/layout.py, ``unstatable``)
    "markers": (
        "markers belong to trains, whose slots are owned by seats: 'the owner of a slot' "
        "and 'the train of a seat' are functions End -> Player and Player -> End, a cycle "
        f"outside EPR; {PER_INSTANCE}"),
    # R2.3's house rules of trains: the same owned slots, and 'the mover's own train'
    "train-access": (
        "who may play on a train (its owner, the owner's marker, the mover's own marker) and "
        "on the public train (the mover's own train started) needs the owner of a slot and "
        "the train of a seat, End -> Player and Player -> End, a cycle outside EPR; "
        f"{PER_INSTANCE}"),
}

#: Properties whose statement involves the number of confirmations (R4.4).
COUNTED = frozenset({"blocked-sound", "procedure"})


@dataclass(frozen=True)
class StateProperty:
    id: str
    formula: Callable[[AState], Formula]


@dataclass(frozen=True)
class TransitionProperty:
    """A property of every transition of the actions of the given kinds: a formula over
    the state before, the state after and the move (the action's kind and parameters by
    name: a play's ``t``, ``e``, ``x``, ``y``; the lead's ``t``, ``a``, ``b``)."""

    id: str
    kinds: frozenset[MoveKind]
    formula: Callable[[AState, AState, Move], Formula]


def state_property(m: AbstractModel, pid: str) -> StateProperty | None:
    """The state property ``pid`` stated in ``m`` (None if it is not one): the lemma of
    :data:`~dominoproof.proofs.z3.lemmas.LEMMAS` that is the property, its formula for
    every N and P, or a layout property at a block (:mod:`.layout_properties`)."""
    at_block = layout_properties.AT_BLOCK.get(pid)
    if at_block is not None:
        return StateProperty(pid, lambda s: at_block(m, s))
    lem = abstract_statement(pid)
    if lem is None or lem.abstract is None:
        return None
    statement = lem.abstract
    return StateProperty(pid, lambda s: statement(m, s))


def transition_property(m: AbstractModel, pid: str) -> TransitionProperty | None:
    """The transition property ``pid`` stated in ``m`` (None if it is not one)."""
    v = m.v
    if pid == "procedure":
        q = z3.Const("q_p", v.player)
        return TransitionProperty(pid, frozenset({MoveKind.ESTABLISH}), lambda s, _, __: z3.And(
            z3.ForAll([q], s.confirmed(q)), s.turn == s.proposer, s.opened,
            m.bone_empty(s), m.nobody_can_play(s)))
    if pid == "no-false-confirmation":
        q = z3.Const("q_f", v.player)

        def nfc(s: AState, s2: AState, _: Move) -> Formula:
            ok = m.stuck(s, s.turn)
            if m.fouls_possible:
                recorded = z3.And(s2.fouls(s.turn), z3.Not(s.fouls(s.turn)),
                                  z3.ForAll([q], z3.Not(s2.confirmed(q))))
                ok = z3.Or(ok, recorded)
            return ok
        return TransitionProperty(pid, frozenset({MoveKind.CONFIRM}), nfc)
    if pid == "boneyard-monotone":
        p, t = z3.Const("p_m", v.player), z3.Const("t_m", v.tile)
        return TransitionProperty(pid, frozenset(MoveKind), lambda s, s2, _: z3.And(
            z3.ForAll([t], z3.Implies(s2.in_boneyard(t), s.in_boneyard(t))),
            z3.Implies(m.bone_empty(s), m.bone_empty(s2)),
            z3.ForAll([p, t], z3.Implies(z3.And(s2.holds(p, t), z3.Not(s.holds(p, t))),
                                         s.in_boneyard(t)))))
    step = layout_properties.TRANSITIONS.get(pid)
    if step is not None:
        return TransitionProperty(pid, frozenset(MoveKind),
                                  lambda s, s2, ps: step(m, s, s2, ps))
    return None
