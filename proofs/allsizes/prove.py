"""The all-sizes proofs: Houdini over the candidate conjuncts, the sanity checks, the
properties' obligations, and the verdicts.

Every query goes through :class:`Checker` (a fresh solver holding the axioms, a fixed
seed, Z3's resource limit and a wall-clock safety net) and records its answer, time,
statistics and fragment (:func:`~.fragment.fragment_of`). ``unknown`` is never PROVED;
a proof from an unsatisfiable premise is caught by the sanity checks.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.variant import Variant
from dominoproof.proofs.properties import CATALOGUE, Kind, Result, Verdict, find_property
from dominoproof.proofs.z3.solver import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Check, Ledger, Solver

from .catalogue import METHOD, Move, state_property, transition_property
from .decode import AbstractCounterexample, Decoder, distinct_tiles
from .fragment import Edge, FragmentCache, fragment_of
from .model import AbstractModel, Conjunct
from .vocabulary import AState, Formula, Step


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


class Checker:
    """Every query through the shared wrapper (:class:`~dominoproof.proofs.z3.solver.Solver`:
    fixed seed, timeout, push/pop frame, statistics): a fresh solver per query, so
    that a verdict never depends on the order of queries, holding the axioms, with
    the query's own formulas in a frame that is always popped."""

    def __init__(self, axioms: Sequence[Formula], timeout_ms: int, seed: int,
                 rlimit: int = DEFAULT_RLIMIT, ctx: Any = None) -> None:
        self.axioms = list(axioms)
        self.ctx = ctx  #: the model's Z3 context (None: the process's shared one)
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
                   ledger=self.ledger, engine="smt", ctx=self.ctx)
        s.add(*self.axioms)
        with s.frame():
            s.add(*formulas)
            c = self._solve(name, s)
        q = Query(name, c.answer, c.seconds, epr, edges, dict(c.stats), c.reason, c.model)
        self.log.append(q)
        return q


def _decoder(m: AbstractModel, model: Any) -> Decoder:
    """The decoder of a model of one of ``m``'s queries: ends named by their slots."""
    marks = [k for k, kept in (("covered", m.waits), ("pending", m.doubles)) if kept]
    return Decoder(m.v, model, m.layout.named(), marks)


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


def _houdini(m: AbstractModel, chk: Checker) -> _Invariant:
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
                    cti = _decoder(m, q.model).decode(q.name, pre, step,
                                                      where if step else None)
                found[c.name] = _Failure(where, q, cti)
        return found

    init = m.init(pre)
    q = chk.check("init => Inv", init,
                  z3.Not(z3.And([c.formula(pre) for c in kept], m.v.ctx)))
    if q.answer != "unsat":
        dropped.update(culprits("init", [init], pre, None))
        kept = [c for c in kept if c.name not in dropped]
    while True:
        inv = [c.formula(pre) for c in kept]
        failed: dict[str, _Failure] = {}
        for a in m.actions:
            st = steps[a.name]
            q = chk.check(f"{a.name} preserves Inv", *inv, st.formula,
                          z3.Not(z3.And([c.formula(st.post) for c in kept], m.v.ctx)))
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


def _sanity(m: AbstractModel, chk: Checker, inv: _Invariant) -> _Sanity:
    """The sanity checks: the premises are satisfiable, every action has a successor from some
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
    # R4.7's call is offered beside the action that decides, never alone: leaving it out
    # keeps its guard's "every tile of x" from being negated (a Value -> Tile function)
    expect("unsat", "every live Inv state enables an action", *invf, m.live(pre),
           *[z3.Not(a.enabled(pre)) for a in m.actions if a.name != "call"])
    return _Sanity(not problems, problems, chk.log[start:], time.perf_counter() - t0)


def _decoded(m: AbstractModel, chk: Checker, q: Query, formulas: Sequence[Formula],
             pre: AState, step: Step | None = None,
             action: str | None = None) -> AbstractCounterexample:
    """The counterexample of the sat query ``q`` (``formulas``), decoded. The verdict rests
    on ``q``; for the decoding, the same query is asked again with every tile distinct
    (:func:`~.decode.distinct_tiles`), so that the counterexample reads as real tiles of a
    small set; if that one is not sat, ``q``'s own model is decoded."""
    again = chk.check(f"{q.name} (again, tiles distinct, to decode)", *formulas,
                      distinct_tiles(m.v))
    model = again.model if again.answer == "sat" and again.model is not None else q.model
    return _decoder(m, model).decode(q.name, pre, step, action)


def _property_queries(m: AbstractModel, chk: Checker, pid: str, inv: _Invariant
                      ) -> tuple[str, list[Query], AbstractCounterexample | None, str]:
    """Check one property against the invariant. Returns the answer ("unsat" when
    proved), its queries, a decoded counterexample and the failing place."""
    pre = m.pre
    invf = [c.formula(pre) for c in inv.kept]
    start = len(chk.log)
    sp = state_property(m, pid)
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
    tp = transition_property(m, pid)
    assert tp is not None, pid
    worst = "unsat"
    for a in m.actions:
        if a.kind not in tp.kinds:
            continue
        st = m.step(a)
        fs = [*invf, st.formula, z3.Not(tp.formula(pre, st.post, Move(a.kind, st.params)))]
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
        chk = Checker([f for _, f in model.axioms], timeout_ms, seed, rlimit, model.v.ctx)
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
                  or state_property(model, pid) is not None
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
        # dominoproof.render.concrete: real tiles, seats and numbers of a small table)
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

    The core properties (:data:`~.catalogue.CORE`) are stated in the abstract model; the
    others, and those that depend on a numeric count of confirmations, are
    NOT_APPLICABLE with the reason and a pointer to the per-instance proofs.
    ``fault`` selects the abstract twin of a fault of :mod:`~dominoproof.proofs.faults`
    (:data:`~.twins.TWINS`), to show the proofs can fail. Every query has ``rlimit``,
    ``timeout_ms`` and ``seed``; ``unknown`` is never PROVED.
    """
    return prove_model(AbstractModel(variant, fault), property_ids,
                       timeout_ms=timeout_ms, seed=seed, rlimit=rlimit)
