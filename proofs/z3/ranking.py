"""Termination [Terms: every round ends]: a ranking function every action decreases,
proved per instance with Z3, and its value at Init, the bound on a round's length.

The measure and the weights that make it decrease are
:func:`~dominoproof.proofs.bounds.ranking_measure` (``proofs/bounds.py`` says how this
bound relates to the search's move count); here they become Z3 terms (:class:`Ranking`)
and the proof (:class:`TerminationProof`).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.engine import shuffled_deal
from dominoproof.proofs.bounds import Measure, ranking_measure
from dominoproof.proofs.properties import Result, Verdict
from dominoproof.proofs.z3.encoding import (
    LOC_BITS,
    NOWHERE,
    PLAYING,
    Encoding,
    MoveVars,
    StateVars,
    popcount,
)
from dominoproof.proofs.z3.induction import InductionProofs
from dominoproof.proofs.z3.terms import And, Or


@dataclass(frozen=True)
class Ranking(Measure):
    """The termination measure, while the round is played:

    ``r = sum over tiles of w(place) + 1 + foul*|seats without a foul| + drew*[drew]
    + marker*|markers in| + first*[first turn going on] + (C - confirmed)``, with ``w``
    = ``bone`` for a boneyard tile, ``hand`` for a tile in a hand, 0 on the table or set
    aside; ``r = 0`` once the round is over.

    Proving ``r' < r`` with the sums inside the solver asks a SAT solver to compare two
    adder trees, which it does badly. Every action moves at most the move's own tile, so
    the proof is split: per action, Z3 proves (a) no other tile changes place, and (b) the
    moved tile's weight change plus the change of the small counters is negative (or the
    round ends). The sum's arithmetic, ``r' - r = w(after) - w(before) + counters' -
    counters``, is then exact.
    """

    W = 16

    def k(self, x: int) -> Any:
        return z3.BitVecVal(x, self.W)

    def weight(self, e: Encoding, place: Any) -> Any:
        """``w``: what a tile at ``place`` contributes to ``r``."""
        return z3.If(place == e.v.BONEYARD, self.k(self.bone),
                     z3.If(z3.ULT(place, e.v.P), self.k(self.hand),
                           z3.If(place == e.v.ASIDE, self.k(self.aside), self.k(0))))

    def counters(self, e: Encoding, s: StateVars) -> Any:
        """The part of ``r`` that is not tiles (the procedure's progress and the flags)."""
        c = self.k(1 + self.needed) - z3.ZeroExt(self.W - s.confirmed.size(), s.confirmed)
        if self.foul:
            c = c + self.k(self.foul) * popcount([z3.Extract(p, p, s.fouls) == 0
                                                  for p in range(e.v.P)], self.W)
        if self.drew:
            c = c + z3.If(s.drew, self.k(self.drew), self.k(0))
        if self.marker:  # R4.4: a confirmation putting a marker out restarts the run
            c = c + self.k(self.marker) * popcount([z3.Not(e.v.marker_out(s, q))
                                                    for q in range(e.v.P)], self.W)
        if self.first:  # R2.3: the pass that ends a first turn changes nothing else
            c = c + z3.If(e.v.first_turn(s), self.k(self.first), self.k(0))
        return c

    def term(self, e: Encoding, s: StateVars) -> Any:
        """``r`` itself (for evaluation on a model)."""
        tiles = z3.Sum([self.weight(e, x) for x in s.loc])
        return z3.If(s.status == PLAYING, tiles + self.counters(e, s), self.k(0))

    def decreases(self, e: Encoding, s: StateVars, m: MoveVars, post: StateVars) -> Any:
        """The per-action obligation: (a) only the move's tile may change place, and (b)
        the round ends, or the moved tile's weight change plus the counters' change is
        negative (``r' < r``)."""
        frame = And([Or(m.tile == t, post.loc[t] == s.loc[t]) for t in range(e.v.T)])

        def at(st: StateVars) -> Any:
            out = z3.BitVecVal(NOWHERE, LOC_BITS)
            for t in range(e.v.T - 1, -1, -1):
                out = z3.If(m.tile == t, st.loc[t], out)
            return out

        smaller = z3.ULT(self.counters(e, post) + self.weight(e, at(post)),
                         self.counters(e, s) + self.weight(e, at(s)))
        ends = And(s.status == PLAYING, post.status != PLAYING)
        return And(frame, Or(ends, And(post.status == PLAYING, smaller)))

    def bound(self, e: Encoding) -> int:
        """``r`` at Init: every deal has the same counts (the ranking bound,
        :meth:`~dominoproof.proofs.bounds.Measure.at_init`)."""
        return self.at_init(e.v.P, e.v.H, e.v.B, e.v.K)

    def describe(self) -> str:
        parts = [f"{self.bone}*|boneyard|", f"{self.hand}*|tiles in hands|"]
        parts += [f"{w}*{what}" for w, what in (
            (self.aside, "|set aside|"), (self.foul, "|seats without a foul|"),
            (self.drew, "[has drawn]"), (self.marker, "|markers in|"),
            (self.first, "[first turn going on]")) if w]
        parts.append(f"({self.needed} - confirmations)")
        return "r = 1 + " + " + ".join(parts) + " while the round is played, 0 after"


def ranking_for(e: Encoding) -> Ranking:
    """The ranking function of ``e``'s rules: the weights that make every action
    decrease ``r`` (:func:`~dominoproof.proofs.bounds.ranking_measure`)."""
    return Ranking(**asdict(ranking_measure(
        e.v.C, e.v.DRAW, e.v.FOULS, aside_drawable=e.may_draw_aside,
        restart=e.v.RESTART and e.v.markers, first_turn=e.v.first_turns)))


class TerminationProof(InductionProofs):
    """Termination by a ranking function, per instance."""

    def prove_termination(self) -> Result:
        """A ranking function that every action decreases, and its bound at Init."""
        t0, led, h = self.begin()
        enc = self.enc
        rank = ranking_for(enc)
        s, m = enc.v.state("r0"), enc.v.move("rm")
        hyps = [lem(enc, s) for lem in h.kept]
        r0 = rank.term(enc, s)
        case = self.per_action(hyps, s, m, lambda post: rank.decreases(enc, s, m, post), led)
        failed = case.failed
        if case.unknown:
            return self.result("termination", Verdict.UNKNOWN, "ranking function",
                               case.unknown, t0, led)
        # Every deal has the same counts (Init fixes them), so r is the same at every
        # initial state; evaluate it on one (a universal query over the deal's cardinality
        # constraints and the adder trees of r is needlessly hard for the SAT solver).
        bound = rank.bound(enc)
        sv = self.session.solver(ledger=led)
        sv.add(enc.init(s, shuffled_deal(self.variant, random.Random(self.session.seed))))
        c = sv.check()
        at_init = int(c.model.eval(r0, True).as_long()) if c.sat else None
        failed_bound = (f"r at an initial state is {at_init}, expected {bound}"
                        if at_init != bound else "")
        if not failed and not failed_bound and not h.unknown:
            detail = (f"{rank.describe()}; every action decreases it "
                      f"(Inv {self.session.lemmas_text(h)}); at Init r = {bound}, "
                      f"so every round ends within {bound} moves")
            return self.result("termination", Verdict.PROVED, "ranking function", detail, t0,
                               led, {"bound": bound, "ranking": rank.describe()})
        if not failed:
            return self.result("termination", Verdict.UNKNOWN, "ranking function",
                               failed_bound or h.incomplete, t0, led)
        lasso = self.search.lasso(ledger=led)
        if lasso.run is not None:
            return self.search.violated("termination", lasso, t0, led, "repeated state (a round "
                                        "that can go on for ever)")
        a, c = failed[0]
        cti = self.decoded_cti("termination", a, c.model, s, m, [lem.id for lem in h.kept])
        return self.result("termination", Verdict.NOT_INDUCTIVE, "ranking function",
                           f"{rank.describe()} does not decrease on "
                           f"{', '.join(x for x, _ in failed)}; no cycle within "
                           f"{lasso.depth} moves", t0, led, cti)


__all__ = ["Ranking", "TerminationProof", "ranking_for"]
