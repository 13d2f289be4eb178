"""The vocabulary of the abstract round: sorts, rigid relations, one state, an action.

Players, tiles, numbers and open ends are **uninterpreted sorts**: nothing says how many
there are, so a formula true in every model is true at every set size and player count.
The state is a handful of relations over them (``holds(player, tile)``,
``shows(end, value)``, ``confirmed(player)``, ...); an action is a guard and an effect,
written so that the state after is a quantifier-free definition over the state before
(the fragment stays EPR, see :mod:`.fragment`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import MoveKind

#: z3 has no type stubs: its terms are typed through these aliases.
Expr: TypeAlias = Any
Formula: TypeAlias = Any
SortRef: TypeAlias = Any

@dataclass(frozen=True)
class Vocabulary:
    """The sorts and the rigid (never-changing) relations of the tiles and the seats.

    ``carries(t, v)``: tile ``t`` carries the number ``v`` on one of its halves.
    ``double(t)``: tile ``t`` carries one number only (defined by an axiom).
    ``btw(a, b, c)``: going clockwise from seat ``a`` one meets ``b`` before ``c``
    (the ring of seats, axiomatised as in Ivy's and mypyvy's ring examples).
    The layout's rigid relations are read from the slot data (:mod:`.layout`).

    ``ctx``: the Z3 context every term of the model is made in, one of the model's own.
    Z3 numbers its terms in the order a context makes them, and which model a ``sat``
    query returns depends on that numbering: in the process's shared context, the
    counterexample an all-sizes proof shows would depend on whatever ran before it (a
    per-instance proof, its sanity checks). In a context of its own it depends on the
    variant and the query alone.
    """

    ctx: Any  #: z3.Context
    player: SortRef
    tile: SortRef
    value: SortRef
    end: SortRef
    carries: Callable[..., Formula]
    double: Callable[..., Formula]
    btw: Callable[..., Formula]

    @staticmethod
    def declare() -> Vocabulary:
        """The sorts and relations, in a new context."""
        ctx = z3.Context()
        player, tile = z3.DeclareSort("Player", ctx), z3.DeclareSort("Tile", ctx)
        value, end = z3.DeclareSort("Value", ctx), z3.DeclareSort("End", ctx)
        b = z3.BoolSort(ctx)
        return Vocabulary(ctx, player, tile, value, end,
                          z3.Function("carries", tile, value, b),
                          z3.Function("double", tile, b),
                          z3.Function("btw", player, player, player, b))

    def bool(self, value: bool) -> Formula:
        """``true`` or ``false`` in the model's context."""
        return z3.BoolVal(value, self.ctx)


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
    covered: Callable[..., Formula]  #: covered(e): a tile has been laid on slot e
    pending: Callable[..., Formula]  #: pending(e): e must take a tile before play moves on
    turn: Expr  #: the seat to move
    proposer: Expr  #: the first seat of the current run of confirmations (R4.1)
    opened: Formula  #: the lead has been played: the layout has open ends
    drew: Formula  #: draw-one games: the player to move has drawn this turn
    blocked: Formula  #: status BLOCKED (terminal)
    domino: Formula  #: status DOMINO (terminal)

    @staticmethod
    def declare(v: Vocabulary, covered: bool = False, pending: bool = False) -> AState:
        """The pre-state's symbols. ``covered`` / ``pending``: the layout keeps those marks
        (a spinner's waiting arms, doubles that take tiles); without them the relation is
        empty and no symbol is declared (a declaration is a Z3 term: the line's queries,
        and the models Z3 picks for them, stay what they were)."""
        b = z3.BoolSort(v.ctx)

        def mark(name: str, kept: bool) -> Callable[..., Formula]:
            if kept:
                return z3.Function(name, v.end, b)  # type: ignore[no-any-return]
            return lambda e: v.bool(False)
        return AState(
            holds=z3.Function("holds", v.player, v.tile, b),
            in_boneyard=z3.Function("in_boneyard", v.tile, b),
            aside=z3.Function("aside", v.tile, b),
            on_table=z3.Function("on_table", v.tile, b),
            shows=z3.Function("shows", v.end, v.value, b),
            confirmed=z3.Function("confirmed", v.player, b),
            fouls=z3.Function("fouls", v.player, b),
            covered=mark("covered", covered),
            pending=mark("pending", pending),
            turn=z3.Const("turn", v.player),
            proposer=z3.Const("proposer", v.player),
            opened=z3.Bool("opened", v.ctx),
            drew=z3.Bool("drew", v.ctx),
            blocked=z3.Bool("blocked", v.ctx),
            domino=z3.Bool("domino", v.ctx),
        )


@dataclass(frozen=True)
class Step:
    """One instance of an action: its formula, the post-state and its parameters."""

    formula: Formula
    post: AState
    params: dict[str, Expr]


#: An action's guard: (the part without its parameters, the part with them).
Guard: TypeAlias = Callable[[AState, Sequence[Expr]], tuple[Formula, Formula]]
#: An action's effect: (extra constraints, the post-state, fresh constants by name).
Effect: TypeAlias = Callable[[AState, Sequence[Expr], str],
                             tuple[list[Formula], AState, dict[str, Expr]]]


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
    guard: Guard
    effect: Effect

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


# -- Relation updates: quantifier-free definitions over the state before ---------------


def add1(r: Callable[..., Formula], a: Expr) -> Callable[..., Formula]:
    return lambda x: z3.Or(r(x), x == a)


def remove1(r: Callable[..., Formula], a: Expr) -> Callable[..., Formula]:
    return lambda x: z3.And(r(x), x != a)


def add2(r: Callable[..., Formula], a: Expr, b: Expr) -> Callable[..., Formula]:
    return lambda x, y: z3.Or(r(x, y), z3.And(x == a, y == b))


def remove2(r: Callable[..., Formula], a: Expr, b: Expr) -> Callable[..., Formula]:
    return lambda x, y: z3.And(r(x, y), z3.Not(z3.And(x == a, y == b)))
