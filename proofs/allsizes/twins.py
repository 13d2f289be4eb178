"""The abstract twins of the faults: every all-sizes proof can fail.

A fault of :mod:`dominoproof.proofs.faults` breaks the rules one way. Its twin here
breaks the abstract model the same way, and is registered under the fault's id:

* a fault that is a **variant override** needs no code: the model reads the overridden
  variant like any other (:func:`override_twin`);
* an **engine mutant** is a patch, a function registered with ``@twin("fault-id")``
  that changes the model's actions or effects (adds an action, replaces an effect,
  drops a guard). The model itself never tests which fault it is.

:data:`TWINS` maps each fault id with a twin to what the twin does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import MoveKind
from dominoproof.model.variant import DrawRule
from dominoproof.proofs.faults import FAULTS_BY_ID

from . import actions
from .vocabulary import Action, AState, Expr, Guard, add2, remove1

if TYPE_CHECKING:
    from .model import AbstractModel

#: A patch: changes an abstract model (its actions, effects or guards) in place.
Patch = Callable[["AbstractModel"], None]


@dataclass(frozen=True)
class Twin:
    """The abstract twin of one fault (its id is the fault's)."""

    fault: str
    doc: str  #: what the twin does, in domino terms
    patch: Patch | None = None  #: the change to the model (none for a variant override)
    overrides: Mapping[str, Any] = field(default_factory=dict)  #: the fault's variant

    def apply(self, m: AbstractModel) -> None:
        if self.patch is not None:
            self.patch(m)


_REGISTRY: dict[str, Twin] = {}


def _register(t: Twin) -> None:
    if t.fault not in FAULTS_BY_ID:
        raise ValueError(f"abstract twin of an unknown fault {t.fault!r}")
    if t.fault in _REGISTRY:
        raise ValueError(f"two abstract twins of fault {t.fault!r}")
    _REGISTRY[t.fault] = t


def twin(fault: str, doc: str) -> Callable[[Patch], Patch]:
    """Register the decorated function as the patch of ``fault``'s abstract twin."""
    def register(patch: Patch) -> Patch:
        _register(Twin(fault, doc, patch))
        return patch
    return register


def override_twin(fault: str) -> None:
    """Register ``fault``, a variant override, as its own twin: the model reads the
    overridden variant."""
    overrides = FAULTS_BY_ID[fault].variant_overrides
    if not overrides:
        raise ValueError(f"fault {fault!r} overrides nothing in the variant")
    said = ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in overrides.items())
    _register(Twin(fault, f"the variant override {said}", overrides=dict(overrides)))


def twin_of(fault: str) -> Twin:
    """The abstract twin of ``fault`` (a located error if it has none)."""
    got = _REGISTRY.get(fault)
    if got is None:
        raise DominoproofError(f"fault {fault!r} has no abstract twin; the all-sizes model "
                               "has: " + ", ".join(_REGISTRY))
    return got


def _replace(m: AbstractModel, name: str, **changes: Any) -> None:
    """Replace the action ``name`` of ``m`` by a copy with ``changes`` (if ``m`` has it)."""
    m.actions[:] = [dataclasses.replace(a, **changes) if a.name == name else a
                    for a in m.actions]


# -- The twins -------------------------------------------------------------------------

def _confirm_anyway(m: AbstractModel, name: str, rules: tuple[str, ...], doc: str,
                    guard: Guard) -> None:
    """Add the action ``name``: a player who could lay a tile ``t`` on an end ``e`` showing
    ``x`` (``guard``) confirms instead, and the confirmation counts."""
    confirm = actions.confirm_effect(m)
    m.actions.append(Action(name, MoveKind.CONFIRM, rules, doc,
                            (("t", m.v.tile), ("e", m.v.end), ("x", m.v.value)), guard,
                            lambda s, xs, tag: confirm(s, [], tag)))


@twin("confirm-while-playable", "an extra action confirm_playable: a player holding a "
                                "playable tile confirms, and it counts")
def _confirm_while_playable(m: AbstractModel) -> None:
    _confirm_anyway(m, "confirm_playable", ("R4.3", "R4.5"),
                    "FAULT: a player holding a playable tile confirms, and it counts",
                    actions.playable_guard(m, need_empty=True, first_foul=False))


@twin("establish-without-boneyard-check", "an extra action confirm_instead_of_draw, and the "
                                          "establishment ignores the boneyard")
def _establish_without_boneyard_check(m: AbstractModel) -> None:
    m.ready_checks_boneyard = False
    if m.DRAW is DrawRule.NONE:
        return
    m.actions.append(Action(
        "confirm_instead_of_draw", MoveKind.CONFIRM, ("R4.1",),
        "FAULT: a stuck player confirms instead of drawing", (),
        lambda s, _: (z3.And(m.moving(s), s.opened, m.stuck(s, s.turn),
                             z3.Not(m.bone_empty(s)), z3.Not(s.drew)), m.v.bool(True)),
        actions.confirm_effect(m)))


override_twin("boneyard-check-off")
override_twin("all-others-confirm")


@twin("draw-loses-tile", "the draw removes the tile from the boneyard and gives it to nobody")
def _draw_loses_tile(m: AbstractModel) -> None:
    draw = m.action("draw")
    if draw is None:
        return
    effect = draw.effect

    def lose(s: AState, xs: Sequence[Expr], tag: str) -> actions.Outcome:
        extra, post, fresh = effect(s, xs, tag)
        return extra, dataclasses.replace(post, holds=s.holds), fresh
    _replace(m, "draw", effect=lose)


@twin("draw-from-empty-boneyard", "an extra action draw_aside: with the boneyard empty, a "
                                  "stuck player takes a set-aside tile")
def _draw_from_empty_boneyard(m: AbstractModel) -> None:
    m.actions.append(Action(
        "draw_aside", MoveKind.DRAW, ("R3.1", "R3.2"),
        "FAULT: with the boneyard empty, a stuck player takes a set-aside tile",
        (("t", m.v.tile),),
        lambda s, xs: (z3.And(m.moving(s), s.opened, m.stuck(s, s.turn), m.bone_empty(s),
                              z3.Not(m.run_started(s))), s.aside(xs[0])),
        lambda s, xs, _: ([], dataclasses.replace(
            s, holds=add2(s.holds, s.turn, xs[0]), aside=remove1(s.aside, xs[0])), {})))


# -- the layout's faults (R2.2) ----------------------------------------------------------


@twin("double-left-uncovered", "while slots are pending, play may go on any slot (the "
                               "pending slots restrict nothing; a double still makes its "
                               "slot pending)")
def _double_left_uncovered(m: AbstractModel) -> None:
    m.pending_restricts = False


@twin("arms-open-early", "a spinner's arms may be played on as soon as they open, before "
                         "the sides they wait for are covered")
def _arms_open_early(m: AbstractModel) -> None:
    m.arms_wait = False


@twin("out-on-waiting-double", "a double that would wait to be covered may be its "
                               "player's last tile all the same (out_on_double = "
                               '"covered" forgotten by the guards)')
def _out_on_waiting_double(m: AbstractModel) -> None:
    m.bars_last_double = False


@twin("confirm-past-double", "an extra action confirm_past_double: with the boneyard empty "
                             "and slots pending, a player holding a tile that covers a "
                             "pending slot confirms, and it counts")
def _confirm_past_double(m: AbstractModel) -> None:
    if not m.doubles:
        return
    playable = actions.playable_guard(m, need_empty=True, first_foul=False)

    def guard(s: AState, xs: Sequence[Expr]) -> tuple[z3.BoolRef, z3.BoolRef]:
        common, pick = playable(s, xs)
        return z3.And(common, m.any_pending(s)), pick

    _confirm_anyway(m, "confirm_past_double", ("R1.1", "R4.4"), "FAULT: a player holding a "
                    "tile that covers a pending slot confirms, and it counts", guard)


#: Each fault with an abstract twin, and what the twin does.
TWINS: dict[str, str] = {f: t.doc for f, t in _REGISTRY.items()}
