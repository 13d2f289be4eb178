"""The other side of the witness table: bounds from Z3 over the proved invariant.

The search (``proofs/analysis/witness_search.py``) finds real rounds: an upper bound of a
minimum, a lower bound of a maximum, a proof that a round of a kind exists. This module
gives what search cannot: the bound from the other side, from facts proved about every
reachable state. Every reachable state satisfies the proved invariant (Houdini's lemmas,
inductive and true at Init: :meth:`~dominoproof.proofs.z3.session.ProofSession.strengthening`),
so a statement of the form "no state of the invariant is blocked with ..." holds of every
round of every length:

* ``shortest-block``: the lower bound counted from proved facts
  (:meth:`~dominoproof.proofs.z3.witnesses.WitnessSearch.block_lower_bounds`: plays, draws,
  confirmations and the establishment a block needs, R4.4), then raised depth by depth:
  bounded model checking from Init (each step's state also in the invariant) shows no
  round of ``d`` moves blocks, so the shortest has at least ``d + 1``; a round found at
  the first depth not refuted is the shortest.
* ``max-residual``: the ceiling -- the largest residual (R5.3) any one hand holds in a
  blocked state of the invariant, by bisection on a pseudo-Boolean bound (R5.3 values
  weigh each tile): no reachable block leaves more. Where termination is PROVED with a
  small bound, every round is unrolled, and the best residual known is shown optimal
  or beaten by a round Z3 finds.
* ``tie`` and ``block-before-empty-boneyard``: whether any blocked state of the
  invariant is tied for the lowest total (R5.5), or has a tile left in the boneyard
  (R4.4). Unsatisfiable: no round of any length has one.

:func:`z3_bounds` yields each bound as it is reached (a dictionary), so a caller that
stops it at its budget keeps the best bound reached -- never a bound claimed beyond
what a query answered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.proofs.budgets import WITNESS_EVERY_ROUND
from dominoproof.proofs.z3.encoding import BLOCKED, Bool
from dominoproof.proofs.z3.houdini import prove_relative
from dominoproof.proofs.z3.lemmas import BY_ID, Lemma
from dominoproof.proofs.z3.terms import Or
from dominoproof.proofs.z3.witnesses import WitnessSearch

__all__ = ["hand_size_lemmas", "z3_bounds"]


def z3_bounds(prover: WitnessSearch, question: str,
              floor: Callable[[], int | None] | None = None) -> Iterator[dict[str, Any]]:
    """The bounds of ``question`` from the prover's invariant, one message a step:
    ``invariant`` (lemmas kept), ``lower`` (shortest-block: no block in fewer moves),
    ``round`` and ``value`` (the shortest round, found by Z3), ``ceiling``
    (max-residual: no block leaves more), ``none`` (True: no blocked state of the
    invariant has it; False: one has), ``why`` (words), ``complete`` (the last message:
    nothing more to ask) and ``stop`` (a query UNKNOWN: the bounds reached stand).
    ``floor()``: the best residual known from elsewhere (the search's), asked for when
    Z3 can bound every round (max-residual, where termination's bound is small)."""
    lemmas = prover.session.strengthening()
    yield {"invariant": len(lemmas)}
    if question == "shortest-block":
        yield from _shortest(prover)
    elif question == "max-residual":
        yield from _ceiling(prover, floor or (lambda: None))
    elif question == "tie":
        yield from _none_at_block(prover, lambda s: prover.session.scoring().terms(s).tie,
                                  "is tied for the lowest total (R5.5)")
    elif question == "block-before-empty-boneyard":
        yield from _none_at_block(prover, lambda s: z3.Not(prover.enc.v.boneyard_empty(s)),
                                  "has a tile left in the boneyard (R4.4)")
    else:
        raise ValueError(f"no bound for question {question!r}")


def _shortest(prover: WitnessSearch) -> Iterator[dict[str, Any]]:
    start = 0
    for start, why in prover.block_lower_bounds():  # each as it is proved: the budget
        yield {"lower": start, "why": f"no block in fewer than {start} moves: {why}"}
    path = prover.unroll("w", 0, stutter=False)
    depth = 0
    while True:
        if depth >= start:
            with path.sv.frame():
                path.sv.add(path.states[-1].status == BLOCKED)
                c = path.sv.check()
            if c.sat:
                run = prover.decode_run(c.model, path.states, path.moves)
                fewer = (f"no round of {start}..{depth - 1} moves blocks" if depth > start
                         else f"no block in fewer than {start} moves (counted from proved "
                              "facts)")
                yield {"value": depth, "lower": depth, "round": run,
                       "why": f"Z3: {fewer}, and one of {depth} moves does",
                       "complete": True}
                return
            if not c.unsat:
                yield {"stop": f"the query at depth {depth} was UNKNOWN ({c.reason})"}
                return
            yield {"lower": depth + 1,
                   "why": f"Z3: no round of {start}..{depth} moves blocks (bounded model "
                          "checking over the invariant)"}
        path.extend()
        depth += 1


def _at_least(prover: WitnessSearch, s: Any, k: int) -> Bool:
    """Some hand of ``s`` holds at least ``k`` (R5.3 values; pseudo-Boolean, which the
    SAT pipeline reasons on natively)."""
    w = prover.session.scoring().value
    return Or([z3.PbGe([(x == p, w[t]) for t, x in enumerate(s.loc)], k)
               for p in range(prover.enc.v.P)])


def _largest_hand(prover: WitnessSearch, model: Any, s: Any) -> int:
    w = prover.session.scoring().value
    held = [0] * prover.enc.v.P
    for t, x in enumerate(s.loc):
        p = model.eval(x, True).as_long()
        if p < prover.enc.v.P:
            held[p] += w[t]
    return max(held)


def hand_size_lemmas(prover: WitnessSearch) -> tuple[list[Lemma], str]:
    """hand-size (a hand grows only by drawing), proved relative to the invariant
    (:func:`~dominoproof.proofs.z3.houdini.prove_relative`): ``[lemma]`` and the words, or
    ``[]`` and why not (not inductive, or a query UNKNOWN)."""
    lem = BY_ID["hand-size"]
    ses = prover.session
    got, c, action = prove_relative(prover.enc, lem, ses.strengthening(), ledger=ses.ledger,
                                    **ses.budgets)
    if got == "ok":
        return [lem], "with hand-size (proved inductive relative to the invariant)"
    where = f" ({action})" if action else ""
    return [], f"without hand-size ({got}{where}: {c.reason if c else ''})"


def _ceiling(prover: WitnessSearch, floor: Callable[[], int | None]
             ) -> Iterator[dict[str, Any]]:
    """The ceiling by bisection over the invariant's blocked states; then, with hand-size
    proved relative to the invariant (it may take long: the ceiling reached first
    stands), bisection again below that ceiling; then every round, where it is small."""
    s = prover.enc.v.state("wc")
    sv = prover.session.solver()
    sv.add(*prover.session.inv(s), s.status == BLOCKED)
    c = sv.check()
    if c.unsat:
        yield {"none": True, "why": "no blocked state satisfies the invariant",
               "complete": True}
        return
    if not c.sat:
        yield {"stop": f"the first query was UNKNOWN ({c.reason})"}
        return
    lo, hi = _largest_hand(prover, c.model, s), sum(prover.session.scoring().value)
    yield {"ceiling": hi, "why": "every tile's value (no query answered yet)"}
    for phase in (0, 1):
        if phase == 1:
            extra, with_hs = hand_size_lemmas(prover)
            if not extra:
                yield {"why": f"Z3: no blocked state of the invariant leaves a hand of more "
                              f"than {hi}; {with_hs}"}
                break
            sv.add(*[lem(prover.enc, s) for lem in extra])
            c = sv.check()
            if not c.sat:
                yield {"stop": f"the query with hand-size was {c.answer.upper()}"}
                return
            lo = _largest_hand(prover, c.model, s)
        what = "the invariant" if phase == 0 else f"the invariant ({with_hs})"
        while lo < hi:
            mid = (lo + hi + 1) // 2
            with sv.frame():
                sv.add(_at_least(prover, s, mid))
                c = sv.check()
            if c.sat:
                lo = _largest_hand(prover, c.model, s)
            elif c.unsat:
                hi = mid - 1
                yield {"ceiling": hi, "why": f"Z3: no blocked state of {what} leaves a hand "
                                             f"of {mid} or more"}
            else:
                yield {"stop": f"the query 'a hand of >= {mid}' was UNKNOWN ({c.reason})"}
                return
        yield {"ceiling": hi,
               "why": f"Z3: no blocked state of {what} leaves a hand of more than {hi} (one "
                      f"of its blocked states leaves {hi})"}
    yield from _every_round(prover, floor)


def _every_round(prover: WitnessSearch, floor: Callable[[], int | None]
                 ) -> Iterator[dict[str, Any]]:
    """Where termination is PROVED with a small bound, every round is at most that many
    moves: one query over the relation unrolled that far (finished rounds idling) asks
    for a blocked round leaving a hand above the best known (``floor()``: the search's,
    waited for). Unsatisfiable, the best known is the largest of every round; satisfiable,
    Z3's round is better, and the question is asked again above it."""
    bound = prover.ranking_bound()
    if bound is None or bound > WITNESS_EVERY_ROUND:
        yield {"complete": True}
        return
    path = prover.unroll("m", bound, stutter=True)
    last = path.states[-1]
    path.sv.add(last.status == BLOCKED)
    k = (floor() or 0) + 1
    while True:
        with path.sv.frame():
            path.sv.add(_at_least(prover, last, k))
            c = path.sv.check()
        if c.unsat:
            yield {"ceiling": k - 1, "complete": True,
                   "why": f"Z3: no round leaves a hand of {k} or more (termination PROVED: "
                          f"every round ends within {bound} moves, all unrolled)"}
            return
        if not c.sat:
            yield {"stop": f"the query 'a round of at most {bound} moves leaving a hand of "
                           f">= {k}' was UNKNOWN ({c.reason})"}
            return
        best = _largest_hand(prover, c.model, last)
        yield {"value": best, "round": prover.decode_run(c.model, path.states, path.moves)}
        k = best + 1


def _none_at_block(prover: WitnessSearch, pred: Callable[[Any], Bool],
                   what: str) -> Iterator[dict[str, Any]]:
    """No blocked state of the invariant satisfies ``pred`` (none, proved); else, where
    termination's bound is small, one query over every round: none, or Z3's round."""
    s = prover.enc.v.state("wn")
    sv = prover.session.solver()
    sv.add(*prover.session.inv(s), s.status == BLOCKED, pred(s))
    c = sv.check()
    if c.unsat:
        yield {"none": True, "complete": True,
               "why": f"Z3: no blocked state of the invariant {what}: no round has one"}
        return
    if not c.sat:
        yield {"stop": f"the query was UNKNOWN ({c.reason})"}
        return
    allows = (f"a blocked state of the invariant {what} (not a proof that a round "
              "reaches it)")
    yield {"why": allows}
    bound = prover.ranking_bound()
    if bound is None or bound > WITNESS_EVERY_ROUND:
        yield {"complete": True}
        return
    path = prover.unroll("e", bound, stutter=True)
    path.sv.add(path.states[-1].status == BLOCKED, pred(path.states[-1]))
    c = path.sv.check()
    if c.unsat:
        yield {"none": True, "complete": True,
               "why": f"{allows}; Z3: no round of at most {bound} moves {what}, and "
                      f"termination is PROVED with bound {bound}: no round has one"}
    elif c.sat:
        run = prover.decode_run(c.model, path.states, path.moves)
        yield {"none": False, "value": len(run.moves), "round": run, "complete": True,
               "why": f"Z3: a round of {len(run.moves)} moves {what.replace('is ', '', 1)}"}
    else:
        yield {"stop": f"the query over every round of at most {bound} moves was UNKNOWN "
                       f"({c.reason})"}
