"""Bounded model checking on the Z3 encoding: paths from Init, the shortest round that
reaches a goal, lassos, and the rounds found decoded and replayed in the engine.

A round Z3 finds is a :class:`Run`: its decoded states and moves, the deal it starts
from (the boneyard stacked in the order the round draws it) and the engine's replay of
it -- a violation is reported only as a real round of a real deal. When termination is
PROVED with a small bound, bounded model checking is complete
(:meth:`BoundedSearch.exhaust`): one query over every round settles a property that is
not inductive with the lemmas found (:meth:`BoundedSearch.refute`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import is_own
from dominoproof.model.layout import layout_of
from dominoproof.model.moves import Move, MoveKind, move_json
from dominoproof.model.state import Deal, State
from dominoproof.model.tiles import bits
from dominoproof.proofs.budgets import EXHAUST_LIMIT
from dominoproof.proofs.properties import Result, Verdict
from dominoproof.proofs.z3.constants import read_constants
from dominoproof.proofs.z3.encoding import (
    PLAYING,
    STUTTER,
    Bool,
    Encoding,
    MoveVars,
    StateVars,
    popcount,
)
from dominoproof.proofs.z3.lemmas import Lemma
from dominoproof.proofs.z3.session import ProofSession
from dominoproof.proofs.z3.solver import Ledger, Solver
from dominoproof.proofs.z3.terms import And, Or

#: A bounded search's goal: a formula over the path's states and moves.
Goal = Callable[[list[StateVars], list[MoveVars]], Bool]


@dataclass
class Run:
    """A round found by bounded model checking: the decoded states and moves, and the
    engine's replay of it (a :class:`Trace` from a real deal)."""

    states: list[State]
    moves: list[Move]
    trace: Trace
    replayed: bool  #: the engine (or the fault's rule book) replays it to the same states
    mismatch: str = ""  #: why not, if not
    loop_from: int | None = None  #: a lasso: the last state repeats state ``loop_from``

    def to_json(self) -> dict[str, Any]:
        layout = layout_of(self.trace.variant)
        out: dict[str, Any] = self.trace.to_json() if self.replayed else {
            "deal": self.trace.deal.to_json(),
            "moves": [move_json(layout, s, m) for s, m in zip(self.states, self.moves,
                                                              strict=False)]}
        # where the round came from, kept in the trace's ``origin`` (a trace document
        # accepts it; every other key it does not know is an error)
        origin: dict[str, Any] = {"by": "Z3 bounded model checking", "replayed": self.replayed}
        if self.loop_from is not None:
            origin["loop_from"] = self.loop_from
        out["origin"] = origin
        return out


@dataclass
class Unrolling:
    """A path of the transition relation from ``Init`` in one solver, grown a step at a
    time: ``states[0]`` is initial, ``moves[i]`` leads from ``states[i]`` to
    ``states[i + 1]``; with ``stutter`` a finished round may idle; every state after the
    first also satisfies the lemmas ``inv`` (the proved invariant, where it is used)."""

    enc: Encoding
    sv: Solver
    prefix: str
    stutter: bool
    inv: list[Lemma]
    states: list[StateVars]
    moves: list[MoveVars] = field(default_factory=list)

    def extend(self, steps: int = 1) -> None:
        enc = self.enc
        for _ in range(steps):
            i = len(self.moves)
            here = self.states[-1]
            m, nxt = enc.v.move(f"{self.prefix}{i}"), enc.v.state(f"{self.prefix}{i + 1}")
            step = enc.trans(here, m, nxt)
            if self.stutter:
                step = Or(step, enc.stutter(here, m, nxt))
            self.sv.add(step, *[lem(enc, nxt) for lem in self.inv])
            self.moves.append(m)
            self.states.append(nxt)


def stock_count(enc: Encoding, s: StateVars) -> Any:
    """How many tiles the boneyard of ``s`` holds: the very term Init counts the deal's
    boneyard with (:func:`~dominoproof.proofs.z3.vocabulary.count_is`)."""
    width = max(enc.v.B, enc.v.T).bit_length() + 1
    return popcount([x == enc.v.BONEYARD for x in s.loc], width)


@dataclass
class BMCResult:
    """The outcome of a bounded search: a run reaching the goal, or the depth searched."""

    run: Run | None
    depth: int  #: the depth of the run, or the last depth checked without one
    complete: bool  #: every depth up to ``depth`` was answered (no unknown, no deadline)
    seconds: float
    ledger: Ledger
    #: the model of the run and the path's state variables, to evaluate terms of the path
    #: on. (They live as long as the result: Z3 reuses the ids of the terms Python frees,
    #: and the models later queries return depend on those ids.)
    model: Any = None
    states: list[StateVars] = field(default_factory=list)
    stop: str = ""  #: why the search stopped early (``complete`` is False), in words
    #: the first depth a round reaching the goal can have, as the boneyard says
    #: (:meth:`BoundedSearch.goal_floor`; 0: none shown): the depths below it were not
    #: queried, being proved empty of such rounds
    floor: int = 0

    @property
    def floor_note(self) -> str:
        """Why the depths below the floor needed no query ("" without a floor)."""
        if not self.floor:
            return ""
        return (f" (none can before move {self.floor}: a violation needs the boneyard "
                "drawn empty, a tile a move)")


class BoundedSearch:
    """Bounded model checking for a proof session: the paths it unrolls, the searches
    along them, and the verdicts a search settles."""

    def __init__(self, session: ProofSession) -> None:
        self.session = session
        self.variant, self.enc = session.variant, session.enc
        self.result = session.result  #: a verdict with its time and solver statistics

    def unroll(self, prefix: str, steps: int = 0, *, ledger: Ledger | None = None,
               deal: Deal | None = None, stutter: bool = True,
               strengthen: bool = True) -> Unrolling:
        """A path of ``steps`` steps from ``Init`` (or from ``deal``) in a fresh solver,
        each state after the first constrained by the proved invariant when
        ``strengthen`` (it holds in every reachable state, so no real round is lost)."""
        x0 = self.enc.v.state(f"{prefix}0")
        sv = self.session.solver(ledger=ledger)
        sv.add(self.enc.init(x0, deal))
        path = Unrolling(self.enc, sv, prefix, stutter,
                         self.session.strengthening() if strengthen else [], [x0])
        path.extend(steps)
        return path

    def stock_floor(self, deal: Deal | None = None) -> int:
        """The boneyard's size at the deal (``deal``'s, else every deal's), ``B``, when
        two facts are proved (each query UNSAT): the deal leaves exactly ``B`` tiles in
        the boneyard (a given deal's are counted), and a tile leaves it only as the
        move's tile, so no move takes more than one. Then after ``i`` moves at least
        ``B - i`` tiles are left, in every round: an empty boneyard -- every block, every
        confirmation -- is at least ``B`` moves deep (:meth:`goal_floor`), a counting
        argument the solver would otherwise have to rediscover at every depth. 0 when
        ``B`` is 0 or a query is not UNSAT (nothing is claimed then)."""
        if self.session._stock_floor is None:
            self.session._stock_floor = self._prove_stock_floor()
        if not self.session._stock_floor:
            return 0
        return self.session._stock_floor if deal is None else len(deal.stack)

    def goal_floor(self, goal: Goal, window: int, *, tail: int = 0, deal: Deal | None = None,
                   ledger: Ledger | None = None) -> int:
        """The first depth at which a round can reach ``goal`` as far as the boneyard
        says (0: no floor shown). ``window``: how many of the path's last states
        ``goal`` reads. One query on ``window`` free states of the proved invariant, each
        a step from the last: if ``goal`` holds there only with the last state's boneyard
        empty (UNSAT otherwise), every round reaching it has drawn the whole boneyard
        first (:meth:`stock_floor`), so no depth below ``B - tail`` can reach it."""
        stock = self.stock_floor(deal)
        if stock <= tail or window < 1:
            return 0
        enc = self.enc
        inv = self.session.strengthening()
        ws = [enc.v.state(f"w{i}") for i in range(window)]
        ms = [enc.v.move(f"wm{i}") for i in range(window - 1)]
        sv = self.session.solver(ledger=ledger)
        for x in ws:
            sv.add(*[lem(enc, x) for lem in inv])
        for a, m, b in zip(ws, ms, ws[1:], strict=False):
            sv.add(enc.trans(a, m, b))
        sv.add(goal(ws, ms), z3.Not(enc.v.boneyard_empty(ws[-1])))
        return stock - tail if sv.check().unsat else 0

    def _prove_stock_floor(self) -> int:
        # the session's variant's B: a twin encoding that deals otherwise fails the facts
        enc, b = self.enc, read_constants(self.variant).B
        if b <= 0:
            return 0
        led = Ledger()
        s, m = enc.v.state("f0"), enc.v.move("fm")
        sv = self.session.solver(ledger=led)
        sv.add(enc.init(s), stock_count(enc, s) != b)
        ok = sv.check().unsat
        for guard, post in enc.steps(s, m).values() if ok else ():
            # a tile leaves the boneyard only as the move's tile: at most one a move
            sv = self.session.solver(ledger=led)
            sv.add(guard, Or([And(enc.v.in_boneyard(s, t), z3.Not(enc.v.in_boneyard(post, t)),
                                  m.tile != t) for t in range(enc.v.T)]))
            ok = ok and sv.check().unsat
        self.session.ledger.merge(led)
        return b if ok else 0

    def bmc(self, goal: Goal, *,
            max_depth: int | None = None, min_depth: int = 0, ledger: Ledger | None = None,
            tail: int = 0, deal: Deal | None = None, strengthen: bool = True,
            past_unknown: bool = False, window: int | None = None) -> BMCResult:
        """The shortest round (from any deal, or ``deal``) whose states and moves satisfy
        ``goal`` at its last state, searching depth after depth up to ``max_depth``.
        ``past_unknown``: a depth whose query is UNKNOWN does not end the search; a round
        found deeper is returned with ``complete`` False (it exists; that it is the
        shortest is not shown) and ``stop`` naming the depths left UNKNOWN.
        ``tail``: the goal looks ``tail`` moves past the depth counted (those moves are
        part of the run). ``strengthen``: every state also satisfies the proved invariant
        (it holds in every reachable state, so no real round is lost, and it prunes the
        search).
        ``window``: ``goal`` reads only the path's last ``window`` states (and the moves
        between them); then the depths below :meth:`goal_floor` are proved to hold no
        such round and are not queried (None: every depth is queried)."""
        led = ledger if ledger is not None else self.session.ledger
        max_depth = self.session.bmc_depth if max_depth is None else max_depth
        deadline = time.perf_counter() + self.session.bmc_seconds
        t0 = time.perf_counter()
        floor = 0 if window is None else self.goal_floor(goal, window, tail=tail, deal=deal,
                                                         ledger=led)
        if floor > max_depth:  # every depth searched is proved empty of such rounds
            return BMCResult(None, max_depth, True, time.perf_counter() - t0, led,
                             floor=floor)
        path = self.unroll("b", tail, ledger=led, deal=deal, stutter=False,
                           strengthen=strengthen)
        sv, states, moves = path.sv, path.states, path.moves
        last = -1
        unknown: list[int] = []  # depths whose query was UNKNOWN
        reason = ""
        budget = ""

        def why() -> str:
            if not unknown:
                return budget
            runs: list[list[int]] = []
            for d in unknown:
                if runs and runs[-1][-1] == d - 1:
                    runs[-1].append(d)
                else:
                    runs.append([d])
            ds = ", ".join(f"{r[0]}" if len(r) == 1 else f"{r[0]}..{r[-1]}" for r in runs)
            what = (f"the query at depth {ds} was" if len(unknown) == 1
                    else f"the queries at depths {ds} were")
            return f"{what} UNKNOWN ({reason})" + (f"; then {budget}" if budget else "")

        for d in range(0, max_depth + 1):
            if d > 0:
                path.extend()
            if d < min_depth:
                continue
            if d < floor:  # proved empty of such rounds (:meth:`goal_floor`)
                last = d
                continue
            if time.perf_counter() > deadline:
                budget = (f"the search's budget of {deadline - t0:g} s ran out before depth "
                          f"{d}")
                break
            with sv.frame():
                sv.add(goal(states, moves))
                c = sv.check()
            if c.sat:
                run = self.decode_run(c.model, states, moves)
                return BMCResult(run, d, not unknown, time.perf_counter() - t0, led, c.model,
                                 states, why(), floor)
            if c.unknown:
                unknown.append(d)
                reason = reason or c.reason
                if not past_unknown:
                    break
                continue
            if not unknown:
                last = d
        return BMCResult(None, last, not unknown and not budget, time.perf_counter() - t0,
                         led, stop=why(), floor=floor)

    def lasso(self, *, ledger: Ledger | None = None) -> BMCResult:
        """A reachable state that comes back: a round that can go on for ever."""
        same = self.enc.same
        res = self.bmc(lambda ss, ms: And(ss[-1].status == PLAYING, Or(
            [same(x, ss[-1]) for x in ss[:-1]]) if len(ss) > 1 else z3.BoolVal(False)),
            min_depth=1, ledger=ledger)
        if res.run is not None:
            end = res.run.states[-1].key()
            res.run.loop_from = next(i for i, x in enumerate(res.run.states[:-1])
                                     if x.key() == end)
        return res

    def decode_run(self, model: Any, states: list[StateVars], moves: list[MoveVars]) -> Run:
        """Decode a BMC model into states and moves, make the deal it starts from (the
        boneyard stacked in the order the run draws it), and replay it in the engine."""
        enc = self.enc
        # a stuttering tail (a finished round idling to the horizon) is padding, not moves
        real = [m for m in moves if model.eval(m.kind, True).as_long() != STUTTER]
        ds = [enc.v.decode_state(model, x) for x in states[:len(real) + 1]]
        ms = [enc.v.decode_move(model, x, m) for x, m in zip(states, real, strict=False)]
        s0 = ds[0]
        order = [mv.tile for mv in ms if mv.kind is MoveKind.DRAW and s0.boneyard >> mv.tile & 1]
        rest = [t for t in bits(s0.boneyard) if t not in order]
        deal = Deal(s0.hands, tuple(order + rest), s0.set_aside)
        own = is_own(self.session.rules)  # else a fault's rule book: the trace carries it
        trace = Trace(self.variant, deal, tuple(ms), rules=None if own else self.session.rules)
        replayed, why = True, ""
        try:
            s = initial_state(self.variant, deal, rules=self.session.rules)
            if s.turn != s0.turn:
                raise DominoproofError(f"the engine's leader is P{s.turn}, Z3's P{s0.turn}")
            got = [s]
            for mv in ms:
                s = self.session.rules.apply(s, mv)
                got.append(s)
            # compared without the draw order (the key's last field); R5.7's points and
            # weights too, where plays score
            for i, (a, b) in enumerate(zip(got, ds, strict=True)):
                if a.key()[:-1] != b.key()[:-1]:
                    raise DominoproofError(f"state {i} differs: engine {a!r} vs Z3 {b!r}")
        except DominoproofError as e:
            replayed, why = False, str(e)
        return Run(ds, ms, trace, replayed, why)

    def ranking_bound(self) -> int | None:
        """Every round ends within this many moves: the ranking function's value at Init
        (:meth:`~dominoproof.proofs.z3.ranking.Ranking.bound`), or None when termination is
        not PROVED."""
        r = self.session.prove("termination")
        return int(r.trace["bound"]) if r.verdict is Verdict.PROVED else None

    def exhaust(self, bad: Goal, *, ledger: Ledger | None = None) -> BMCResult | None:
        """Bounded model checking made complete: when termination is PROVED with a bound
        ``R <= EXHAUST_LIMIT``, every round is at most ``R`` moves, so one query over
        ``R`` steps (finished rounds idle) decides whether any round reaches ``bad``
        (given every state and real move of the unrolling). None when not applicable."""
        bound = self.ranking_bound()
        if bound is None or bound > EXHAUST_LIMIT:
            return None
        led = ledger if ledger is not None else self.session.ledger
        t0 = time.perf_counter()
        path = self.unroll("x", bound, ledger=led)
        sv, states, moves = path.sv, path.states, path.moves
        sv.add(bad(states, moves))
        c = sv.check()
        if c.unknown:
            return BMCResult(None, bound, False, time.perf_counter() - t0, led,
                             stop=f"the query to depth {bound} was UNKNOWN ({c.reason})")
        if c.unsat:
            return BMCResult(None, bound, True, time.perf_counter() - t0, led)
        run = self.decode_run(c.model, states, moves)
        return BMCResult(run, len(run.moves), True, time.perf_counter() - t0, led, c.model,
                         states)

    # -- verdicts a search settles ----------------------------------------------------
    def refute(self, pid: str, what: str, goal: Goal, anywhere: Goal, t0: float,
               led: Ledger, method: str, explain: Callable[[BMCResult], tuple[str, Any]], *,
               min_depth: int = 0, needs_trace: bool = False) -> Result:
        """A property whose proof (by ``method``) failed, settled by search where search
        can: the shortest real round whose last step reaches ``goal`` (a ``what``
        violating it) is VIOLATED; else, where :meth:`exhaust` applies, one complete
        query for a round with ``anywhere`` in it gives VIOLATED or PROVED (bounded,
        complete); else NOT_INDUCTIVE, ``explain(found)`` giving its detail, given what
        the bounded search showed, and its counterexample to induction (UNKNOWN where it
        ``needs_trace`` and has none)."""
        found = self.bmc(goal, min_depth=min_depth, ledger=led, window=min_depth + 1)
        if found.run is not None:
            return self.violated(pid, found, t0, led, what)
        done = self._exhausted(pid, self.exhaust(anywhere, ledger=led), t0, led, what)
        if done is not None:
            return done
        detail, cti = explain(found)
        verdict = Verdict.UNKNOWN if needs_trace and cti is None else Verdict.NOT_INDUCTIVE
        return self.result(pid, verdict, method, detail, t0, led, cti)

    def _exhausted(self, pid: str, res: BMCResult | None, t0: float, led: Ledger,
                   what: str) -> Result | None:
        """The verdict of :meth:`exhaust`, or None to fall back to NOT_INDUCTIVE."""
        if res is None or not res.complete:
            return None
        if res.run is not None:
            return self.violated(pid, res, t0, led, what)
        return self.result(pid, Verdict.PROVED, f"bounded to depth {res.depth} (complete)",
                           f"not inductive with the lemmas found, but no round of up to "
                           f"{res.depth} moves breaks it, and termination (PROVED) bounds "
                           f"every round by {res.depth} moves", t0, led)

    def violated(self, pid: str, found: BMCResult, t0: float, led: Ledger, what: str) -> Result:
        """VIOLATED by the round ``found``, which reaches a ``what`` violating ``pid``."""
        run = found.run
        assert run is not None
        why = "" if run.replayed else f" (engine replay differs: {run.mismatch})"
        return self.result(pid, Verdict.VIOLATED, f"bounded to depth {found.depth}",
                           f"a real round reaches a {what} violating it in {found.depth} "
                           f"moves{why}", t0, led, run)


__all__ = ["BMCResult", "BoundedSearch", "Goal", "Run", "Unrolling"]
