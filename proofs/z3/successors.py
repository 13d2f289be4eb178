"""Successors of a concrete state under the Z3 transition relation: the "z3" oracle of
``proofs/conformance.py``, compared transition by transition with the engine's."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import z3  # type: ignore[import-untyped]

from dominoproof.model.moves import Move, MoveKind
from dominoproof.model.state import State
from dominoproof.model.variant import Variant
from dominoproof.proofs.z3.encoding import DRAW, TILE_BITS, Encoding
from dominoproof.proofs.z3.solver import Solver
from dominoproof.proofs.z3.terms import And, Or


class SuccessorOracle:
    """Enumerates the models of ``T`` from concrete states of one variant.

    The transition relation is asserted once; each query fixes the pre-state in a
    push/pop frame and enumerates (move, successor) with blocking clauses. A state
    with a fixed ``stack`` may only draw its top tile.
    """

    def __init__(self, variant: Variant, encoding: Encoding | None = None, *,
                 seed: int = 0, timeout_ms: int = 60_000) -> None:
        self.enc = encoding or Encoding(variant)
        self.s = self.enc.v.state("pre")
        self.s2 = self.enc.v.state("post")
        self.m = self.enc.v.move("mv")
        self.top = z3.BitVec("top", TILE_BITS)
        self.fixed = z3.Bool("fixed_order")
        self.solver = Solver(seed=seed, timeout_ms=timeout_ms)
        acts = self.enc.actions(self.s, self.m, self.s2)
        self.solver.add(Or(list(acts.values())))
        self.solver.add(z3.Implies(And(self.fixed, self.m.kind == DRAW),
                                   self.m.tile == self.top))

    def successors(self, state: State) -> Iterator[tuple[Move, State]]:
        """Every (move, successor) the relation allows from ``state``."""
        enc = self.enc
        with self.solver.frame():
            self.solver.add(*enc.v.equals(self.s, state))
            if state.stack is not None:
                self.solver.add(self.fixed)
                if state.stack:
                    self.solver.add(self.top == state.stack[0])
            else:
                self.solver.add(z3.Not(self.fixed))
            while True:
                res = self.solver.check()
                if res.answer != "sat":
                    if res.answer == "unknown":
                        raise RuntimeError(f"z3 returned unknown ({res.reason}) on {state!r}")
                    return
                model = res.model
                mv = enc.v.decode_move(model, self.s, self.m)
                nxt = enc.v.decode_state(model, self.s2)
                if state.stack is not None:
                    stack = state.stack[1:] if mv.kind is MoveKind.DRAW else state.stack
                    nxt = nxt._replace(stack=stack)
                yield mv, nxt
                same = [model.eval(v, model_completion=True) == v
                        for v in [*self.m.fields().values(), *self.s2.fields().values()]]
                self.solver.add(z3.Not(And(same)))


@cache
def _oracle(variant: Variant) -> SuccessorOracle:
    return SuccessorOracle(variant)


def z3_successors(variant: Variant, state: State) -> set[tuple[Move, tuple[object, ...]]]:
    """The set of ``(move, successor.key())`` the Z3 relation allows from ``state``.

    The conformance framework (``proofs/conformance.py``, oracle "z3") compares it
    with the engine's successors. For a state with a fixed ``stack``, only its top
    may be drawn.
    """
    return {(mv, nxt.key()) for mv, nxt in _oracle(variant).successors(state)}


__all__ = ["SuccessorOracle", "z3_successors"]
