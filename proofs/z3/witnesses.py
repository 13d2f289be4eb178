"""Witnesses: the questions a rules designer asks, answered with a round Z3 finds.

Each question (:data:`QUESTIONS`) is a bounded search (``proofs/z3/bmc.py``) for a round
that replays in the engine -- the shortest blocked round, the largest residual at a
block, a tie, a block before the boneyard is empty, a refutation of the parity theorem, a
state where R2.3's two readings differ (no legal move, yet a matching tile in hand) -- or,
when none is found, the depth searched and whether every depth was answered. The search
for the shortest block starts at a lower bound counted from proved facts
(:meth:`WitnessSearch.block_lower_bound`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.errors import DominoproofError
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.z3.bmc import BMCResult, BoundedSearch, Run
from dominoproof.proofs.z3.encoding import BLOCKED, SEAT_BITS, Bool
from dominoproof.proofs.z3.layout_properties import readings_gap
from dominoproof.proofs.z3.lemmas import parity_conclusion
from dominoproof.proofs.z3.terms import And, Or


class WitnessSearch(BoundedSearch):
    """The bounded searches behind the witnesses, and the lower bound they start from."""

    def block_lower_bound(self) -> tuple[int, str]:
        """Rounds shorter than this cannot block, by counting moves from proved facts:
        the last of :meth:`block_lower_bounds`."""
        *_, last = self.block_lower_bounds()  # (it yields at least one)
        return last

    def block_lower_bounds(self) -> Iterator[tuple[int, str]]:
        """Rounds shorter than these cannot block, by counting moves from proved facts;
        each bound as it is proved, rising (a caller stopped at its budget keeps the
        last one).

        Each move does one thing. A block needs: every tile on the table placed by its
        own play; every boneyard tile drawn (the boneyard is empty at a block where
        blocked-sound is PROVED, and only a draw takes a tile out of it); ``C``
        confirmations and the establishment. The fewest tiles on the table at a block is
        asked of Z3 (:meth:`fewest_on_table_at_blocks`): no state of the proved invariant
        is blocked with fewer. Yields 0 alone when blocked-sound is not proved (a broken
        rule set)."""
        if self.session.prove("blocked-sound").verdict is not Verdict.PROVED:
            yield 0, "blocked-sound not proved: no lower bound"
            return
        enc = self.enc
        draws = enc.v.B if enc.v.EMPTY else 0
        for plays, why in self.fewest_on_table_at_blocks():
            bound = plays + draws + enc.v.C + 1
            yield bound, (f"{plays} play{'' if plays == 1 else 's'} ({why}) + {draws} "
                          f"draws (the whole boneyard) + {enc.v.C} confirmations + the "
                          f"establishment = {bound}")

    def fewest_on_table_at_block(self) -> tuple[int, str]:
        """The last of :meth:`fewest_on_table_at_blocks`."""
        *_, last = self.fewest_on_table_at_blocks()  # (it yields at least one)
        return last

    def fewest_on_table_at_blocks(self) -> Iterator[tuple[int, str]]:
        """Lower bounds on the tiles on the table in any reachable blocked state, and why:
        each as it is proved, rising.

        Every reachable state satisfies the proved invariant (Houdini's lemmas: among
        them, where it applies, parity -- every tile of the ends' suits on the table --
        and, in the type invariant, that a number shows on an odd number of ends exactly
        when an odd number of its non-double tiles are on the table). So if no state of
        the invariant is blocked with at most ``k`` tiles on the table (unsat), no round
        blocks with fewer than ``k + 1`` plays. The bound is raised from 1 (the lead) by
        bisection between the proved bound and the count in a blocked state Z3
        exhibits, until the two meet (the bound is then the best the invariant gives)
        or a query is UNKNOWN (the bound proved so far stands). The queries near the
        answer are the hard ones, so each bound is yielded as soon as it is proved. For a
        one-line double-6 game with every tile in play: 10 tiles, not the 7 of the suit
        alone (three of its joints need a connecting tile each)."""
        enc = self.enc
        inv = self.session.strengthening()
        if not inv:
            yield 1, "the lead; Houdini gave no invariant to count from"
            return
        s = enc.v.state("lb")
        sv = self.session.solver()
        sv.add(*[lem(enc, s) for lem in inv], s.status == BLOCKED)
        table = [enc.v.on_table(s, t) for t in range(enc.v.T)]

        def count(model: Any) -> int:
            return sum(1 for b in table if z3.is_true(model.eval(b, True)))

        def proved(k: int, end: str) -> tuple[int, str]:
            if k <= 1:
                return 1, "the lead"
            return k, ("Z3: no state of the proved invariant is blocked with fewer than "
                       f"{k} tiles on the table{end}")

        c = sv.check()
        if not c.sat:
            yield 1, "the lead"
            return
        lo, hi = 0, count(c.model)  # no block with fewer than lo; one with hi exists
        while lo < hi:
            mid = (lo + hi) // 2
            with sv.frame():
                sv.add(z3.PbLe([(b, 1) for b in table], mid))
                c = sv.check()
            if c.unsat:
                lo = mid + 1
                if lo < hi:
                    yield proved(lo, f"; one is with {hi}")
            elif c.sat:
                hi = count(c.model)
            else:
                yield proved(lo, f"; whether {mid} tiles can be is UNKNOWN ({c.reason})")
                return
        yield proved(lo, f", and one is with {lo}")

    def shortest_block(self, max_depth: int | None = None, *,
                       start: int = 0) -> BMCResult:
        """The shortest blocked round: the first depth, from ``start`` (a proved lower
        bound), at which BLOCKED is reachable."""
        if max_depth is None:
            max_depth = start + self.session.bmc_depth
        return self.bmc(lambda ss, ms: ss[-1].status == BLOCKED, max_depth=max_depth,
                        min_depth=start, past_unknown=True)

    def max_residual(self, depth: int) -> tuple[BMCResult, int | None]:
        """The largest residual count of one player at a block, among rounds of at most
        ``depth`` moves (finished rounds idle to the horizon).

        Optimised with Z3 by bisection on the objective: each step asks for a blocked
        round where some player holds at least ``k`` (the SAT pipeline, fixed seed and
        timeout); the last unsat step proves the bound. (``z3.Optimize`` runs on Z3's SMT
        core, far slower on these formulas.) The result is optimal when ``complete``."""
        enc = self.enc
        led = self.session.ledger
        t0 = time.perf_counter()
        deadline = t0 + self.session.bmc_seconds
        path = self.unroll("o", depth, ledger=led)
        sv, states, moves = path.sv, path.states, path.moves
        last = states[-1]
        who = z3.BitVec("who", SEAT_BITS)
        sv.add(last.status == BLOCKED, z3.ULT(who, enc.v.P))
        value = self.session.scoring().residual(last, who)
        weights = self.session.scoring().value

        def at_least(k: int) -> Bool:
            """Some player holds at least ``k`` (pseudo-Boolean: the SAT solver reasons on
            weighted sums natively, where adder circuits defeat it)."""
            return Or([And(who == p, z3.PbGe([(x == p, weights[t])
                                               for t, x in enumerate(last.loc)], k))
                       for p in range(enc.v.P)])

        c = sv.check()
        if not c.sat:
            return BMCResult(None, depth, c.unsat, time.perf_counter() - t0, led,
                             stop="" if c.unsat else f"the first query was UNKNOWN "
                                                     f"({c.reason})"), None
        model = c.model
        lo = int(model.eval(value, True).as_long())
        hi = sum(self.enc.v.VALUE)
        optimal = True
        stop = ""
        while lo < hi:
            if time.perf_counter() > deadline:
                optimal, stop = False, f"the budget of {deadline - t0:g} s ran out at >= {lo}"
                break
            mid = lo + 1  # upwards: far above the optimum, unsat is as hard as it gets
            with sv.frame():
                sv.add(at_least(mid))
                c = sv.check()
            if c.sat:
                model = c.model
                lo = int(model.eval(value, True).as_long())
            elif c.unsat:
                hi = mid - 1
            else:
                optimal, stop = False, f"the query 'some player holds >= {mid}' was UNKNOWN " \
                                       f"({c.reason})"
                break
        run = self.decode_run(model, states, moves)
        return BMCResult(run, len(run.moves), optimal, time.perf_counter() - t0, led,
                         model, states, stop), lo


QUESTIONS: dict[str, str] = {
    "shortest-block": "the shortest possible blocked round",
    "max-residual": "the largest residual count of one player at a block",
    "tie": "a block where two or more sides tie for the lowest total",
    "block-before-empty-boneyard": "a block established while the boneyard still holds tiles",
    "parity-refuted": "a block that breaks the parity theorem (tiles set aside)",
    "readings-differ": "a round being played where no player has a legal move while a hand "
                       "holds a tile matching an open end (R2.3)",
}


@dataclass
class Witness:
    """The answer to a question: a round that replays in the engine, or the depth searched."""

    question: str
    configuration: str
    run: Run | None
    depth: int  #: moves of the round found, or the last depth searched without one
    complete: bool  #: every depth up to ``depth`` was answered
    seconds: float
    figures: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    stats: dict[str, float] = field(default_factory=dict)
    stop: str = ""  #: why the search stopped early, when it did

    @property
    def found(self) -> bool:
        return self.run is not None

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "configuration": self.configuration,
                "found": self.found, "depth": self.depth, "complete": self.complete,
                "seconds": round(self.seconds, 3), "figures": self.figures,
                "note": self.note, "stop": self.stop, "stats": self.stats,
                "round": self.run.to_json() if self.run else None}


def searched(what: str, res: BMCResult, start: int = 0) -> str:
    """What a bounded search that found nothing has shown, in words: nothing up to the
    depth answered, or (stopped before the first depth was answered) nothing at all."""
    if res.depth < start:
        return f"UNKNOWN, nothing shown: {res.stop or 'the search stopped'}"
    span = f"of at most {res.depth} moves" if start == 0 else f"of {start}..{res.depth} moves"
    return f"{what} {span}" + ("" if res.complete else
                               f"; beyond, UNKNOWN: {res.stop or 'the search stopped'}")


def witness(prover: WitnessSearch, question: str, *, depth: int | None = None) -> Witness:
    """Answer ``question`` (a key of :data:`QUESTIONS`) for the prover's variant by
    bounded model checking (``depth``: the largest round length searched; for
    ``max-residual``, the horizon of the optimisation, default the shortest block's)."""
    if question not in QUESTIONS:
        raise DominoproofError(f"no question {question!r}; ask one of: {', '.join(QUESTIONS)}")
    t0 = time.perf_counter()
    enc = prover.enc
    before = prover.session.ledger.as_dict()
    figures: dict[str, Any] = {}
    note = ""

    def done(res: BMCResult) -> Witness:
        stats = {k: v - before.get(k, 0.0) for k, v in prover.session.ledger.as_dict().items()}
        return Witness(question, prover.session.configuration(), res.run, res.depth, res.complete,
                       time.perf_counter() - t0, figures, note, stats, res.stop)

    if question in ("shortest-block", "max-residual"):
        start, why = prover.block_lower_bound()
        figures["lower_bound"] = start
        note = f"no block is possible in fewer than {start} moves: {why}"
    if question == "shortest-block":
        res = prover.shortest_block(depth, start=start)
        if res.run:
            figures["moves"] = res.depth
            figures["proved_shortest"] = res.complete
            if not res.complete:
                note += (f"; a round of {res.depth} moves exists, but it is not shown to be "
                         f"the shortest: {res.stop}")
            else:
                note += ("; a round of that length exists" if res.depth == start else
                         f"; none of {start}..{res.depth - 1} moves either (searched)")
        else:
            note += "; " + searched("no blocked round", res, start)
        return done(res)
    if question == "max-residual":
        first = prover.shortest_block(depth, start=start)
        if first.run is None:
            note += "; " + searched("no blocked round", first, start)
            return done(first)
        horizon = depth if depth is not None else first.depth
        figures["shortest"] = first.depth
        res, best = prover.max_residual(horizon)
        if res.run is not None and best is not None:
            final = res.run.states[-1]
            scored = prover.session.scoring().evaluate(final)
            assert scored is not None  # a blocked round is over
            who = max(range(enc.v.P), key=lambda p: (scored.residuals[p], -p))
            figures.update(residual=best, player=who, horizon=horizon, moves=len(res.run.moves),
                           optimal=res.complete)
            note = (f"largest residual among blocked rounds of at most {horizon} moves"
                    + ("" if res.complete else f" (the search stopped early -- "
                                               f"{res.stop or 'stopped'} -- so it is a "
                                               "lower bound)"))
        return done(res)
    if question == "tie":
        sc = prover.session.scoring()
        res = prover.bmc(lambda ss, ms: And(ss[-1].status == BLOCKED,
                                            sc.terms(ss[-1]).tie), max_depth=depth)
        if res.run:
            figures["moves"] = res.depth
        else:
            note = searched("no tied block", res)
        return done(res)
    if question == "block-before-empty-boneyard":
        res = prover.bmc(lambda ss, ms: And(ss[-1].status == BLOCKED,
                                            z3.Not(enc.v.boneyard_empty(ss[-1]))),
                         max_depth=depth)
        if res.run:
            figures.update(moves=res.depth,
                           boneyard=res.run.states[-1].boneyard.bit_count())
        else:
            note = (searched("none", res) + "; blocked-sound proves it impossible at any "
                    "length where it is PROVED")
        return done(res)
    if question == "readings-differ":
        res = prover.bmc(lambda ss, ms: readings_gap(enc, ss[-1]), max_depth=depth)
        if res.run:
            final = res.run.states[-1]
            figures.update(moves=res.depth, ends=list(final.open_ends),
                           boneyard=final.boneyard.bit_count())
        else:
            note = searched("no such state", res) + (
                "; on this layout the two readings are one formula (every open end is open "
                "to every player at every moment)" if enc.v.readings_coincide else "")
        return done(res)
    # parity-refuted
    res = prover.bmc(lambda ss, ms: And(ss[-1].status == BLOCKED,
                                        z3.Not(parity_conclusion(enc, ss[-1]))),
                     max_depth=depth)
    if res.run:
        final = res.run.states[-1]
        figures.update(moves=res.depth, ends=list(final.ends),
                       set_aside=final.set_aside.bit_count())
    else:
        note = (searched("no refutation", res)
                + ("; with every tile in play the theorem is proved (prove --property parity)"
                   if prover.variant.all_in_play else ""))
    return done(res)


__all__ = ["QUESTIONS", "Witness", "WitnessSearch", "searched", "witness"]
