"""One job of ``dominoproof verify`` (:mod:`dominoproof.verify`): a variant's checks, or a
fault's, run in the job's own process, which loads this module by name
(:data:`dominoproof.verify.JOBS`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from dominoproof.expected import (
    findings_of,
    inherited_findings,
    rule_findings,
    z3_deferred,
    z3_unstated,
)
from dominoproof.model.fast import engine_for
from dominoproof.model.variant import Variant, find_variant
from dominoproof.options import shown_under
from dominoproof.proofs import space
from dominoproof.proofs.allsizes import TWINS, prove_all_sizes
from dominoproof.proofs.budgets import (
    CROSSCHECK_ROOTS,
    CROSSCHECK_STATES,
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    FAULT_STATES,
    VERIFY_SEARCH_SECONDS,
    VERIFY_SEARCH_STATES,
)
from dominoproof.proofs.conformance import compare, get_oracle
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import BY_ID, CATALOGUE, Result, Verdict
from dominoproof.proofs.search import check, plans
from dominoproof.proofs.search.coverage import of_init
from dominoproof.proofs.search.judge import Judge
from dominoproof.proofs.search.statespace import explore, kernel_reason
from dominoproof.proofs.search.verification import check_properties
from dominoproof.proofs.z3 import scoring, successors
from dominoproof.proofs.z3.encoding_faults import Z3_UNSTATED, twin_prover
from dominoproof.proofs.z3.queries import Prover
from dominoproof.proofs.z3.session import SanityCheck, premises
from dominoproof.render.evidence import of_result, round_of
from dominoproof.verify import CAUGHT, ERROR, NA, OK, SPACE_SUBJECT, Row

#: how verdicts combine over several searches of one property (worst first)
_RANK = {Verdict.VIOLATED: 0, Verdict.NOT_INDUCTIVE: 1, Verdict.UNKNOWN: 2,
         Verdict.HOLDS: 3, Verdict.PROVED: 3, Verdict.NOT_APPLICABLE: 4}


def row_of(subject: str, part: str, res: Result, expected: tuple[str, ...], *,
           variant: Variant | None = None, scorer: Any = None,
           rules: Any = None) -> Row:
    """A row for ``res``. A VIOLATED or NOT INDUCTIVE result carries its evidence
    (:mod:`dominoproof.render.evidence`); ``variant`` is the one a per-instance CTI belongs
    to, ``scorer`` and ``rules`` a fault's scoring and rule book (the round's trace
    then names the rule book, so that ``dominoproof replay`` replays it)."""
    if rules is not None and res.verdict is Verdict.VIOLATED:
        found = round_of(res)
        if found is not None and found.rules is None and res.trace is found:
            res.trace = dataclasses.replace(found, rules=rules)
    trace = res.trace.to_json() if hasattr(res.trace, "to_json") else None
    row = Row(subject, part, res.property, res.verdict.value, expected, res.method,
              res.configuration, res.detail, round(res.seconds, 3), trace)
    try:
        with shown_under():  # a report shows it under its check (SHOWN_AS): it fits with it
            ev = of_result(res, variant, scorer=scorer)
    except Exception as e:  # the verdict stands; say why its evidence is missing
        row.fails = f"(the counterexample cannot be shown: {type(e).__name__}: {e})"
        return row
    if ev is not None:
        row.fails = ev.fails
        if ev.kind == "round" and ev.at is not None and ev.fails not in row.detail:
            row.detail += f"; {ev.at.where()}: {ev.fails}"  # Z3's run: what fails
        if ev.kind == "round":
            row.round = ev.text
        else:
            row.cti = ev.text
    return row


def _worst(results: Sequence[Result]) -> Result:
    return min(results, key=lambda r: _RANK[r.verdict])


@dataclasses.dataclass(frozen=True)
class Expectation:
    """The verdicts expected of one check, and the words its row says when it shows
    one of ``when`` (every verdict when ``None``)."""

    verdicts: tuple[str, ...]
    why: str = ""
    when: tuple[str, ...] | None = None


def expect(v: Variant, part: str, pid: str, default: tuple[str, ...],
           found: dict[tuple[str, str], Any] | None = None) -> Expectation:
    """The verdicts expected of ``part`` on ``pid`` for ``v``: ``default``, unless a
    finding of :mod:`dominoproof.expected` records the verdict the variant's published
    rules get, with why; a finding ``v`` inherits from the preset it builds on, and one of a
    rule ``v`` has on, add their verdicts to ``default``, said where the row shows one
    (the rule's why first: it names the cause)."""
    f = (found if found is not None else findings_of(v)).get((part, pid))
    if f is not None:
        return Expectation((f.verdict,), f"finding, as expected: {f.why}")
    base, inherited = inherited_findings(v)
    g = inherited.get((part, pid))
    r = rule_findings(v).get((part, pid))
    more = (*(r.verdicts if r is not None else ()), *((g.verdict,) if g is not None else ()))
    verdicts = tuple(dict.fromkeys((*default, *more)))
    if r is not None:
        return Expectation(verdicts, f"finding of the rule {r.rule} = \"{r.value}\", as "
                           f"expected: {r.why}", r.verdicts)
    if g is None:
        return Expectation(default)
    return Expectation(verdicts,
                       f"inherited from the base {base}, a finding of its rules that this "
                       f"file's changes leave standing: {g.why}", (g.verdict,))


def _noted(row: Row, e: Expectation) -> Row:
    """``row`` with the finding it is expected to show said in its detail."""
    if e.why and (e.when is None or row.verdict in e.when):
        row.detail = f"{e.why}; {row.detail}" if row.detail else e.why
        row.finding = e.why
    return row


def _search_rows(v: Variant, properties: Sequence[str] | None = None,
                 seconds: float | None = None) -> tuple[list[Row], Any]:
    """The search's rows for ``v``: every property of the catalogue, or those of
    ``properties`` (ids) only (``dominoproof repair`` judges a candidate on the properties
    that failed first). ``seconds``: the time all of its searches share (``repair``'s
    budget of a candidate); a search that runs out of it is partial, its properties
    UNKNOWN. None: each search has :data:`VERIFY_SEARCH_SECONDS` of its own."""
    chosen = [p for p in CATALOGUE if properties is None or p.id in properties]
    plan = plans.search_plan(v)
    per_property: dict[str, list[Result]] = {}
    # one search judges every property in one pass over each graph: each row carries
    # the time of that whole pass (the JUnit report shares it among them)
    first = None
    states = 0
    t0 = time.perf_counter()
    todo = plan.searches()
    while todo:
        variant, init, budget = todo.pop(0)
        left: float = VERIFY_SEARCH_SECONDS
        if seconds is not None:
            left = max(0.0, min(left, seconds - (time.perf_counter() - t0)))
        r = explore(variant, init, max_states=budget or VERIFY_SEARCH_STATES,
                    max_seconds=left)
        if budget is not None and r.stop_reason.startswith("state budget"):
            # every deal is beyond the budget: the sampled deals instead, and it says so
            plan = plan.fallback()
            todo = plan.searches()
            continue
        first = first or r
        states += r.size
        for res in check_properties(r, None if properties is None else
                                    [p.id for p in chosen]):
            per_property.setdefault(res.property, []).append(res)
    also = plan.also
    rows = []
    cover = plan.coverage
    method = cover.method() if cover is not None else "search"
    configuration = f"{plan.variant.name}: {plan.description}"
    if also is not None:
        configuration += f"; and {also.variant.name}: {also.description}"
        if also.coverage is not None:
            method += f"; and on {plans.shape(also.variant)}: {also.coverage.method()}"
    found = findings_of(v)
    searched = ("kernel" if first is not None and first.on_kernel
                else f"python: {kernel_reason(plan.variant) or 'the kernel is not used'}")
    for p in chosen:
        res = _worst(per_property[p.id])
        res.configuration = configuration
        res.method = method
        if res.verdict is Verdict.HOLDS:
            res.detail = f"{states:,} states in all; " + res.detail
        res.seconds = time.perf_counter() - t0
        e = expect(v, "search", p.id, OK if p.applies_to(plan.variant) else NA, found)
        row = row_of(v.name, "search", res, e.verdicts, variant=plan.variant)
        row.coverage = cover.to_json() if cover is not None else None
        row.search = searched
        rows.append(_noted(row, e))
    return rows, (plan.variant, first)


#: the search's rows of a variant (and its graph), public for ``dominoproof repair``'s job
search_rows = _search_rows


def _crosscheck_row(v: Variant, small: Variant, result: Any, sample: int) -> Row:
    """The engine against the Z3 relation and the declarative scoring: ``sample`` states
    spread over the search, and as many of its terminal states (whose outcomes are
    compared: winners, awards, penalties, final scores)."""
    t0 = time.perf_counter()
    n = result.size
    step = max(1, n // sample)
    ids = list(range(0, n, step))[:sample]
    ends = result.over()
    ids += ends[::max(1, len(ends) // sample)][:sample]
    states = [result.state(i) for i in dict.fromkeys(ids)]
    # the first initial state of each case of the lead rule the search reached (the named
    # tile dealt, its fallback...): a sample spread over the ids can miss a rare case
    cases: dict[str, Any] = {}
    for i in range(min(result.roots, CROSSCHECK_ROOTS)):
        s = result.state(i)
        cases.setdefault(plans.lead_case(small, s.hands), s)
    states += [s for s in cases.values() if s not in states]
    cmp = compare(small, states, get_oracle("engine", small), get_oracle("z3", small))
    verdict = Verdict.HOLDS if cmp.ok else Verdict.VIOLATED
    detail = cmp.summary() if cmp.ok else cmp.describe(limit=2)
    res = Result("transitions", verdict,
                 "engine vs Z3 transition relation (both inclusions) and scoring",
                 f"{small.name}: {len(states)} of {n:,} searched states (the first initial "
                 f"state of each of the {len(cases)} case(s) of the lead rule reached "
                 "among them)", detail,
                 states=len(states), seconds=time.perf_counter() - t0)
    e = expect(v, "cross-check", "transitions", OK)
    return _noted(row_of(v.name, "cross-check", res, e.verdicts), e)


def _not_stated_rows(v: Variant, why: str, crosscheck: bool) -> list[Row]:
    """The Z3 checks of a variant whose layout the Z3 relation does not state yet
    (:func:`dominoproof.expected.z3_unstated`): each N/A, saying why, never run."""
    rows = [Row(v.name, "z3", p.id, NA[0], NA, "not run", f"{v.name}: {why}", why)
            for p in CATALOGUE]
    if crosscheck:
        rows.append(Row(v.name, "cross-check", "transitions", NA[0], NA, "not run",
                        f"{v.name}: engine vs Z3 {why}", f"engine vs Z3 {why}"))
    return rows


def _deferred_rows(v: Variant, why: str) -> list[Row]:
    """The per-instance Z3 proofs of a variant that ``verify`` does not run within its
    budget (:func:`dominoproof.expected.z3_deferred`): UNKNOWN where the property
    applies, N/A where it does not, each saying why; ``dominoproof prove`` runs them."""
    out = []
    for p in CATALOGUE:
        if p.applies_to(v):
            out.append(Row(v.name, "z3", p.id, Verdict.UNKNOWN.value,
                           (Verdict.UNKNOWN.value,), "not run", v.name,
                           f"not run by verify: {why}"))
        else:
            out.append(Row(v.name, "z3", p.id, NA[0], NA, "not run", v.name,
                           p.not_applicable()))
    return out


def _fresh_rule_books() -> None:
    """Forget every cached rule book and Z3 oracle: a check starts from nothing."""
    engine_for.cache_clear()
    successors._oracle.cache_clear()
    scoring._classifier.cache_clear()
    scoring.score_reader.cache_clear()


def verify_variant(v: Variant, *, seed: int = 0, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                   crosscheck: int = CROSSCHECK_STATES, rlimit: int = DEFAULT_RLIMIT) -> list[Row]:
    """Every part of the verification for one variant (see :mod:`dominoproof.verify`). A part
    that crashes is one ERROR row; the other parts still run."""
    _fresh_rule_books()
    rows: list[Row] = []
    small = first = None
    try:
        got, (small, first) = _search_rows(v)
        rows += got
    except Exception as e:
        rows.append(Row.crashed(v.name, "search", "(search)", e))
    unstated = z3_unstated(v)
    if unstated is not None:
        rows += _not_stated_rows(v, unstated, crosscheck > 0)
    deferred = z3_deferred(v)
    if deferred is not None:
        rows += _deferred_rows(v, deferred)
    try:
        if unstated is None and deferred is None:
            rows += _z3_rows(v, Prover(v, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit))
    except Exception as e:
        rows.append(Row.crashed(v.name, "z3", "(z3)", e))
    try:
        for res in prove_all_sizes(v, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit):
            # N/A: the property is not stated in the decidable fragment (instances are
            # proved by z3 above); anything else must be a proof, unless a finding records
            # that the rules do not satisfy it at every size
            want = expect(v, "all sizes", res.property, OK + NA)
            rows.append(_noted(row_of(v.name, "all sizes", res, want.verdicts, variant=v),
                               want))
    except Exception as e:
        rows.append(Row.crashed(v.name, "all sizes", "(all sizes)", e))
    _with_real_rounds(rows)
    if crosscheck and first is not None and small is not None and unstated is None:
        try:
            rows.append(_crosscheck_row(v, small, first, crosscheck))
        except Exception as e:
            rows.append(Row.crashed(v.name, "cross-check", "transitions", e))
    return rows


def _with_real_rounds(rows: list[Row]) -> None:
    """A NOT INDUCTIVE row of a property the search found VIOLATED gets the search's
    round beside its counterexample to induction: a real round, not only a state no
    round is known to reach."""
    real = {r.property: r.round for r in rows
            if r.part == "search" and r.verdict == Verdict.VIOLATED.value and r.round}
    for r in rows:
        if r.verdict == Verdict.NOT_INDUCTIVE.value and not r.round and r.property in real:
            r.round = real[r.property]
            r.detail += "; the search's round (VIOLATED) breaks it for real"


def _z3_rows(v: Variant, prover: Prover) -> list[Row]:
    """The catalogue proved by induction for ``v`` itself, then the sanity checks of the
    premises every proof assumes (:func:`_unsound_premises`)."""
    rows = []
    for res in prover.prove_all(sanity=True):
        e = expect(v, "z3", res.property, OK if BY_ID[res.property].applies_to(v) else NA)
        rows.append(_noted(row_of(v.name, "z3", res, e.verdicts, variant=v), e))
    return rows + _unsound_premises(v.name, prover.last_sanity, rows)


def _unsound_premises(subject: str, checks: Sequence[SanityCheck], rows: list[Row]
                      ) -> list[Row]:
    """Where a sanity check of the premises fails, no proof of the variant stands: each
    PROVED row becomes UNKNOWN (a check Z3 did not answer: a budget ran out) or ERROR (a
    check answered wrongly: the premise is unsatisfiable, or an unfinished state of the
    invariant has no move), saying which check; and one row ``(sanity)`` names them.
    Nothing when every check passes."""
    bad = [c for c in checks if not c.ok]
    if not bad:
        return []
    text = "; ".join(c.describe() for c in bad)
    verdict = Verdict.UNKNOWN.value if premises(bad) == "UNKNOWN" else ERROR
    for row in rows:
        if row.verdict == Verdict.PROVED.value:
            row.verdict = verdict
            row.detail = f"PROVED, but the premises are not shown sound: {text}; {row.detail}"
    return [Row(subject, "z3", "(sanity)", verdict, OK, "", "",
                f"a sanity check of the premises every proof assumes failed (a proof from "
                f"an unsatisfiable premise passes trivially): {text}")]


def verify_fault(fault_id: str, *, seed: int = 0, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 rlimit: int = DEFAULT_RLIMIT) -> list[Row]:
    """A fault must be caught by every property it names, by every method that models it."""
    _fresh_rule_books()
    f = FAULTS_BY_ID[fault_id]
    v = f.variant()
    subject = f"fault {f.id}"
    rows = []
    book = f.engine_for(v) if f.engine is not None else None
    try:
        init = f.init()
        cover = of_init(v, init, how="the demo deal" if init.deal is not None else None)
        r = explore(v, init, rules=f.engine_for(v), scorer=f.scorer, max_states=FAULT_STATES)
        for res in check_properties(r, f.catches, inapplicable=True):
            if res.verdict is Verdict.NOT_APPLICABLE:  # checked anyway (parity's premise)
                res.verdict = Verdict(res.stats.get("checked anyway", res.verdict.value))
            res.method = cover.method()
            row = row_of(subject, "search", res, CAUGHT, variant=v, scorer=f.scorer,
                         rules=book)
            row.coverage = cover.to_json()
            rows.append(row)
    except Exception as e:
        rows.append(Row.crashed(subject, "search", "(search)", e))
    try:
        if f.id not in Z3_UNSTATED:  # no twin: the relation has no variable it breaks
            for res in twin_prover(f, seed=seed, timeout_ms=timeout_ms,
                                   rlimit=rlimit).prove_all(f.catches):
                rows.append(row_of(subject, "z3", res, CAUGHT, variant=v, scorer=f.scorer))
    except Exception as e:
        rows.append(Row.crashed(subject, "z3", "(z3)", e))
    if f.id in TWINS:
        try:
            for res in prove_all_sizes(v, f.catches, seed=seed, timeout_ms=timeout_ms,
                                       fault=f.id, rlimit=rlimit):
                if res.verdict is Verdict.NOT_APPLICABLE:
                    continue  # not stated in the fragment: the other methods catch it
                rows.append(row_of(subject, "all sizes", res, CAUGHT, variant=v))
        except Exception as e:
            rows.append(Row.crashed(subject, "all sizes", "(all sizes)", e))
    return rows


#: the variant whose small search loads the kernel before the jobs are forked
WARM = "tiny-2p-d3"


def cold(fn: str, args: Any) -> bool:
    """Whether job ``fn(args)`` never loads the kernel -- a fault whose search runs its
    own rule book, which the kernel does not state (:func:`kernel_reason`) -- and so may
    run while :func:`warm` compiles it (:func:`dominoproof.verify.run_jobs`)."""
    if fn != "fault_job":
        return False
    f = FAULTS_BY_ID[args[0]]
    v = f.variant()
    return bool(kernel_reason(v, f.engine_for(v)))


def warm() -> None:
    """Run once in the parent before many jobs are forked (:func:`dominoproof.verify.
    run_jobs`): the compiled kernel's machine code loaded -- compiled, the first time on a
    machine -- by the first search of :data:`WARM`'s plan and its judge, so that every
    job inherits it instead of loading (or compiling) it itself. Nothing else is kept:
    the rule books and oracles it built are forgotten, as each job starts without them.

    It makes no Z3 term: the judge checks every property but R5's, which are read through
    Z3 (:data:`~dominoproof.proofs.search.judge.Judge.TERMINAL`), and which load no
    machine code of their own. Z3 numbers the terms of a process as they are made, and a
    model it picks can depend on those numbers; a job forked after this ran must see the
    same Z3 as one forked before it (a cold job, :func:`cold`), or a counterexample would
    depend on which of the two a job was."""
    v = find_variant(WARM)
    if kernel_reason(v):  # the Python path: nothing to load
        return
    variant, init, budget = plans.search_plan(v).searches()[0]
    ids = [p.id for p in CATALOGUE if p.id not in Judge.TERMINAL]
    check.check_properties(explore(variant, init, max_states=budget or VERIFY_SEARCH_STATES),
                           ids)
    _fresh_rule_books()


def variant_job(args: tuple[Variant, int, int, int, int]) -> list[Row]:
    v, seed, timeout_ms, crosscheck, rlimit = args
    return verify_variant(v, seed=seed, timeout_ms=timeout_ms, crosscheck=crosscheck,
                          rlimit=rlimit)


def fault_job(args: tuple[str, int, int, int]) -> list[Row]:
    fid, seed, timeout_ms, rlimit = args
    return verify_fault(fid, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit)


def space_job(args: tuple[int, int]) -> list[Row]:
    """The readings compared on a seeded sample of the whole parameter space
    (:mod:`dominoproof.proofs.space`): one row, HOLDS when the specification, the Z3
    relation and the kernel agree on every state compared, else VIOLATED naming the
    variant, the two readings and the first difference."""
    count, seed = args
    _fresh_rule_books()
    t0 = time.perf_counter()
    rep = space.self_test(count, seed)
    ok = not rep.disagreement
    return [Row(SPACE_SUBJECT, "cross-check", "readings",
                (Verdict.HOLDS if ok else Verdict.VIOLATED).value, OK,
                "the specification against the Z3 relation and the kernel, transition by "
                "transition and on terminal outcomes, on one seeded deal's search",
                f"{rep.variants} variants of the whole parameter space, seed {seed}",
                rep.summary() + ("; agree" if ok else f"; DISAGREE: {rep.disagreement}"),
                time.perf_counter() - t0)]
