"""``dominoproof verify``: the main job. Every part of dominoproof, on every variant asked.

For each variant:

1. **search** -- exhaustive search of the variant's rules on small configurations
   (:mod:`dominoproof.proofs.search.plans`), the whole catalogue checked on the graph;
2. **z3** -- the catalogue proved by induction for the variant itself (its real set
   size and players), with the Houdini strengthening, the ranking function and the
   declarative scoring (:mod:`dominoproof.proofs.z3.queries`); then the sanity checks of
   the premises every proof assumes (Init and the invariant satisfiable, successors
   from the invariant, no unfinished state of it without a move): a proof from an
   unsatisfiable premise would pass trivially, so where one fails no proof of the
   variant stands (:func:`_unsound_premises`);
3. **all sizes** -- the core block properties, and the layout's properties where the
   fragment states the layout, for every set size and every number of players under the
   variant's rules (:mod:`dominoproof.proofs.allsizes`);
4. **cross-check** -- the engine's successors against the Z3 transition relation's,
   state by state, on states of the small search (:mod:`dominoproof.proofs.conformance`).

Then, once, **faults**: every deliberately broken rule set of
:mod:`dominoproof.proofs.faults` must be caught by the properties it names -- by the
graph search, by its Z3 twin and, where it has one, by its all-sizes twin. A check that
cannot fail is a defect, so a fault that goes uncaught fails the verification.

Every check has an expected verdict: a property that applies must HOLD (search) or be
PROVED (Z3); one that does not apply is N/A; a fault's properties must be VIOLATED (or,
for the induction-only all-sizes model, NOT INDUCTIVE). The job succeeds when every
verdict is as expected.

Each variant and each fault is one job, run in a process of its own, forked for it
from the parent (which runs no check): no rule book, memo or solver state is carried
from one variant to another, and the verdicts do not depend on which jobs shared a
worker. On a cluster (``--cluster local:N``, ``--scheduler ADDRESS``:
:mod:`dominoproof.proofs.runner`) each job is a task instead: a worker runs one job at a
time and starts it by forgetting every cached rule book, oracle and score reader, as a
fresh process would; a job whose worker dies is run again on another (docs/CLUSTER.md).
A check that crashes is a failed check (verdict ERROR) with its reason, and the
job's other checks still run; a job whose process dies is a failed check too.
A VIOLATED check carries its counterexample: the trace (JSON) and the round as text.
"""

from __future__ import annotations

import builtins
import dataclasses
import os
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from dominoproof.model.variant import Variant
from dominoproof.proofs.budgets import (
    CROSSCHECK_STATES,
    DEFAULT_RLIMIT,
    DEFAULT_TIMEOUT_MS,
    FAULT_STATES,
    VERIFY_SEARCH_SECONDS,
    VERIFY_SEARCH_STATES,
)
from dominoproof.proofs.properties import BY_ID, CATALOGUE, Result, Verdict
from dominoproof.proofs.readings import ReadingsDisagree
from dominoproof.proofs.runner import Runner, fork_each

if TYPE_CHECKING:  # the prover is imported by the jobs that prove (verify_variant)
    from dominoproof.proofs.z3.queries import Prover
    from dominoproof.proofs.z3.session import SanityCheck

OK = (Verdict.HOLDS.value, Verdict.PROVED.value)
NA = (Verdict.NOT_APPLICABLE.value,)
CAUGHT = (Verdict.VIOLATED.value, Verdict.NOT_INDUCTIVE.value)
#: the verdict of a check that crashed (never expected)
ERROR = "ERROR"
#: how verdicts combine over several searches of one property (worst first)
_RANK = {Verdict.VIOLATED: 0, Verdict.NOT_INDUCTIVE: 1, Verdict.UNKNOWN: 2,
         Verdict.HOLDS: 3, Verdict.PROVED: 3, Verdict.NOT_APPLICABLE: 4}

PARTS = ("search", "z3", "all sizes", "cross-check")


@dataclass
class Row:
    """One verdict of the verification, with what was expected of it."""

    subject: str  #: a variant's name, or "fault <id>"
    part: str  #: "search", "z3", "all sizes", "cross-check"
    property: str
    verdict: str
    expected: tuple[str, ...]
    method: str = ""
    configuration: str = ""
    detail: str = ""
    seconds: float = 0.0
    trace: dict[str, Any] | None = None
    #: a VIOLATED check's counterexample, as a round for people, and where it fails
    round: str = ""
    #: a NOT INDUCTIVE check's counterexample to induction, in domino terms
    cti: str = ""
    fails: str = ""  #: what fails, one sentence in domino terms (VIOLATED, NOT INDUCTIVE)
    #: a search's deals: every deal, or sampled and how many (proofs.coverage)
    coverage: dict[str, Any] | None = None

    @builtins.property  # the field ``property`` shadows the builtin in this class body
    def ok(self) -> bool:
        return self.verdict in self.expected

    @builtins.property
    def replayable(self) -> bool:
        """A VIOLATED check whose trace ``dominoproof replay`` replays."""
        return (self.verdict == Verdict.VIOLATED.value and self.trace is not None
                and "variant" in self.trace)

    @staticmethod
    def of(subject: str, part: str, res: Result, expected: tuple[str, ...], *,
           variant: Variant | None = None, scorer: Any = None,
           rules: Any = None) -> Row:
        """A row for ``res``. A VIOLATED or NOT INDUCTIVE result carries its evidence
        (:mod:`dominoproof.render.evidence`); ``variant`` is the one a per-instance CTI belongs
        to, ``scorer`` and ``rules`` a fault's scoring and rule book (the round's trace
        then names the rule book, so that ``dominoproof replay`` replays it)."""
        from dominoproof.render.evidence import of_result, round_of

        if rules is not None and res.verdict is Verdict.VIOLATED:
            found = round_of(res)
            if found is not None and found.rules is None and res.trace is found:
                res.trace = dataclasses.replace(found, rules=rules)
        has_trace = res.trace is not None and hasattr(res.trace, "to_json")
        trace = res.trace.to_json() if has_trace else None
        row = Row(subject, part, res.property, res.verdict.value, expected, res.method,
                  res.configuration, res.detail, round(res.seconds, 3), trace)
        try:
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

    @staticmethod
    def crashed(subject: str, part: str, what: str, error: BaseException) -> Row:
        """A check that raised: a failed check whose detail is the error and where; two
        readings that disagree are named as such, not as a crash."""
        if isinstance(error, ReadingsDisagree):
            return Row(subject, part, what, ERROR, OK, "", "", str(error))
        where = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
        at = f" (at {os.path.basename(where[0].filename)}:{where[0].lineno})" if where else ""
        return Row(subject, part, what, ERROR, OK, "", "",
                   f"the check crashed: {type(error).__name__}: {error}{at}")


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    seconds: float = 0.0
    subjects: list[str] = field(default_factory=list)
    #: the measured wall time of each subject's job (its own process), by subject
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def failures(self) -> list[Row]:
        return [r for r in self.rows if not r.ok]

    @property
    def exit_code(self) -> int:
        """0 every verdict as expected; 1 a violation or an uncaught fault; 3 only
        UNKNOWN verdicts stand between the job and success."""
        bad = self.failures
        if not bad:
            return 0
        if all(r.verdict == Verdict.UNKNOWN.value for r in bad):
            return 3
        return 1

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": not self.failures,
            "exit_code": self.exit_code,
            "seconds": round(self.seconds, 2),
            "checks": len(self.rows),
            "failures": len(self.failures),
            "subjects": self.subjects,
            "subject_seconds": {k: round(v, 3) for k, v in self.timings.items()},
            "rows": [asdict(r) | {"ok": r.ok} for r in self.rows],
        }


# ---------------------------------------------------------------------------
# Jobs (each runs in a worker process)
# ---------------------------------------------------------------------------


def _worst(results: Sequence[Result]) -> Result:
    return min(results, key=lambda r: _RANK[r.verdict])


def expect(v: Variant, part: str, pid: str, default: tuple[str, ...],
           found: dict[tuple[str, str], Any] | None = None) -> tuple[tuple[str, ...], str]:
    """The verdicts expected of ``part`` on ``pid`` for ``v``: ``default``, unless a
    finding of :mod:`dominoproof.expected` records the verdict the variant's published
    rules get, with why (the second value; "" without a finding)."""
    from dominoproof.expected import findings_of

    f = (found if found is not None else findings_of(v)).get((part, pid))
    if f is None:
        return default, ""
    return (f.verdict,), f"finding, as expected: {f.why}"


def _noted(row: Row, why: str) -> Row:
    """``row`` with the finding it is expected to show said in its detail."""
    if why:
        row.detail = f"{why}; {row.detail}" if row.detail else why
    return row


def _search_rows(v: Variant) -> tuple[list[Row], Any]:
    from dominoproof.expected import findings_of
    from dominoproof.proofs.search.check import check_properties
    from dominoproof.proofs.search.plans import search_plan, shape
    from dominoproof.proofs.search.statespace import explore

    plan = search_plan(v)
    per_property: dict[str, list[Result]] = {}
    # one search judges every property in one pass over each graph: each row carries
    # the time of that whole pass (the JUnit report makes it one test case)
    first = None
    states = 0
    t0 = time.perf_counter()
    todo = plan.searches()
    while todo:
        variant, init, budget = todo.pop(0)
        r = explore(variant, init, max_states=budget or VERIFY_SEARCH_STATES,
                    max_seconds=VERIFY_SEARCH_SECONDS)
        if budget is not None and r.stop_reason.startswith("state budget"):
            # every deal is beyond the budget: the sampled deals instead, and it says so
            plan = plan.fallback()
            todo = plan.searches()
            continue
        first = first or r
        states += r.size
        for res in check_properties(r):
            per_property.setdefault(res.property, []).append(res)
    also = plan.also
    rows = []
    cover = plan.coverage
    method = cover.method() if cover is not None else "search"
    configuration = f"{plan.variant.name}: {plan.description}"
    if also is not None:
        configuration += f"; and {also.variant.name}: {also.description}"
        if also.coverage is not None:
            method += f"; and on {shape(also.variant)}: {also.coverage.method()}"
    found = findings_of(v)
    for p in CATALOGUE:
        res = _worst(per_property[p.id])
        res.configuration = configuration
        res.method = method
        if res.verdict is Verdict.HOLDS:
            res.detail = f"{states:,} states in all; " + res.detail
        res.seconds = time.perf_counter() - t0
        expected, why = expect(v, "search", p.id,
                               OK if p.applies_to(plan.variant) else NA, found)
        row = Row.of(v.name, "search", res, expected, variant=plan.variant)
        row.coverage = cover.to_json() if cover is not None else None
        rows.append(_noted(row, why))
    return rows, (plan.variant, first)


def _crosscheck_row(v: Variant, small: Variant, result: Any, sample: int) -> Row:
    """The engine against the Z3 relation and the declarative scoring: ``sample`` states
    spread over the search, and as many of its terminal states (whose outcomes are
    compared: winners, awards, penalties, final scores)."""
    from dominoproof.proofs.conformance import compare, get_oracle

    t0 = time.perf_counter()
    n = result.size
    step = max(1, n // sample)
    ids = list(range(0, n, step))[:sample]
    ends = [i for i in range(result.expanded) if result.ending_of(i) is not None]
    ids += ends[::max(1, len(ends) // sample)][:sample]
    states = [result.state(i) for i in dict.fromkeys(ids)]
    cmp = compare(small, states, get_oracle("engine", small), get_oracle("z3", small))
    verdict = Verdict.HOLDS if cmp.ok else Verdict.VIOLATED
    detail = cmp.summary() if cmp.ok else cmp.describe(limit=2)
    res = Result("transitions", verdict,
                 "engine vs Z3 transition relation (both inclusions) and scoring",
                 f"{small.name}: {len(states)} of {n:,} searched states", detail,
                 states=len(states), seconds=time.perf_counter() - t0)
    expected, why = expect(v, "cross-check", "transitions", OK)
    return _noted(Row.of(v.name, "cross-check", res, expected), why)


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
    from dominoproof.model.fast import engine_for
    from dominoproof.proofs.z3 import scoring, successors

    engine_for.cache_clear()
    successors._oracle.cache_clear()
    scoring._classifier.cache_clear()
    scoring.score_reader.cache_clear()


def verify_variant(v: Variant, *, seed: int = 0, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                   crosscheck: int = CROSSCHECK_STATES, rlimit: int = DEFAULT_RLIMIT) -> list[Row]:
    """Every part of the verification for one variant (see the module docstring). A part
    that crashes is one ERROR row; the other parts still run."""
    from dominoproof.expected import z3_deferred, z3_unstated
    from dominoproof.proofs.allsizes import prove_all_sizes
    from dominoproof.proofs.z3.queries import Prover

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
            expected, why = expect(v, "all sizes", res.property, OK + NA)
            rows.append(_noted(Row.of(v.name, "all sizes", res, expected, variant=v), why))
    except Exception as e:
        rows.append(Row.crashed(v.name, "all sizes", "(all sizes)", e))
    if crosscheck and first is not None and small is not None and unstated is None:
        try:
            rows.append(_crosscheck_row(v, small, first, crosscheck))
        except Exception as e:
            rows.append(Row.crashed(v.name, "cross-check", "transitions", e))
    return rows


def _z3_rows(v: Variant, prover: Prover) -> list[Row]:
    """The catalogue proved by induction for ``v`` itself, then the sanity checks of the
    premises every proof assumes (:func:`_unsound_premises`)."""
    rows = []
    for res in prover.prove_all(sanity=True):
        expected, why = expect(v, "z3", res.property,
                               OK if BY_ID[res.property].applies_to(v) else NA)
        rows.append(_noted(Row.of(v.name, "z3", res, expected, variant=v), why))
    return rows + _unsound_premises(v.name, prover.last_sanity, rows)


def _unsound_premises(subject: str, checks: Sequence[SanityCheck], rows: list[Row]
                      ) -> list[Row]:
    """Where a sanity check of the premises fails, no proof of the variant stands: each
    PROVED row becomes UNKNOWN (a check Z3 did not answer: a budget ran out) or ERROR (a
    check answered wrongly: the premise is unsatisfiable, or an unfinished state of the
    invariant has no move), saying which check; and one row ``(sanity)`` names them.
    Nothing when every check passes."""
    from dominoproof.proofs.z3.session import premises

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
    from dominoproof.proofs.allsizes import TWINS, prove_all_sizes
    from dominoproof.proofs.faults import FAULTS_BY_ID
    from dominoproof.proofs.search.check import check_properties
    from dominoproof.proofs.search.coverage import of_init
    from dominoproof.proofs.search.statespace import explore
    from dominoproof.proofs.z3.encoding_faults import twin_prover

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
            row = Row.of(subject, "search", res, CAUGHT, variant=v, scorer=f.scorer,
                         rules=book)
            row.coverage = cover.to_json()
            rows.append(row)
    except Exception as e:
        rows.append(Row.crashed(subject, "search", "(search)", e))
    try:
        for res in twin_prover(f, seed=seed, timeout_ms=timeout_ms,
                               rlimit=rlimit).prove_all(f.catches):
            rows.append(Row.of(subject, "z3", res, CAUGHT, variant=v, scorer=f.scorer))
    except Exception as e:
        rows.append(Row.crashed(subject, "z3", "(z3)", e))
    if f.id in TWINS:
        try:
            for res in prove_all_sizes(v, f.catches, seed=seed, timeout_ms=timeout_ms,
                                       fault=f.id, rlimit=rlimit):
                if res.verdict is Verdict.NOT_APPLICABLE:
                    continue  # not stated in the fragment: the other methods catch it
                rows.append(Row.of(subject, "all sizes", res, CAUGHT, variant=v))
        except Exception as e:
            rows.append(Row.crashed(subject, "all sizes", "(all sizes)", e))
    return rows


# ---------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------


Job = tuple[str, Callable[[Any], list[Row]], Any]


def _variant_job(args: tuple[Variant, int, int, int, int]) -> list[Row]:
    v, seed, timeout_ms, crosscheck, rlimit = args
    return verify_variant(v, seed=seed, timeout_ms=timeout_ms, crosscheck=crosscheck,
                          rlimit=rlimit)


def _fault_job(args: tuple[str, int, int, int]) -> list[Row]:
    fid, seed, timeout_ms, rlimit = args
    return verify_fault(fid, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit)


def _timed(job: Job) -> tuple[list[Row], float]:
    """A job's rows and its measured wall time; a job that raises is one failed check."""
    name, fn, args = job
    t0 = time.perf_counter()
    try:
        rows = fn(args)
    except Exception as e:  # the job's own guards failed: still one failed check
        rows = [Row.crashed(name, "job", "(job)", e)]
    return rows, time.perf_counter() - t0


def _guarded(job: Job) -> tuple[list[Row], float]:  # pragma: no cover - a forked process
    """:func:`_timed` in a job's own process: not even an Exception (a SystemExit) goes
    unanswered."""
    t0 = time.perf_counter()
    try:
        return _timed(job)
    except BaseException as e:
        return [Row.crashed(job[0], "job", "(job)", e)], time.perf_counter() - t0


def verify(variants: Iterable[Variant], *, faults: bool = True, seed: int = 0,
           timeout_ms: int = DEFAULT_TIMEOUT_MS, crosscheck: int = CROSSCHECK_STATES,
           workers: int | None = None, rlimit: int = DEFAULT_RLIMIT,
           progress: Callable[[str, list[Row]], None] | None = None,
           runner: Runner | None = None) -> Report:
    """Verify ``variants`` (and, with ``faults``, that every fault is caught): each
    variant and each fault a job, run in a process of its own forked from this one,
    ``workers`` at a time, or, given a ``runner`` (a cluster:
    :mod:`dominoproof.proofs.runner`), each a task of the cluster (a job starts by
    forgetting every cached rule book and oracle, as a fresh process would)."""
    from dominoproof.proofs.faults import FAULTS

    start = time.perf_counter()
    variants = list(variants)
    jobs: list[Job] = [(v.name, _variant_job, (v, seed, timeout_ms, crosscheck, rlimit))
                       for v in variants]
    if faults:
        jobs += [(f"fault {f.id}", _fault_job, (f.id, seed, timeout_ms, rlimit))
                 for f in FAULTS]
    report = Report(subjects=[name for name, _, _ in jobs])
    workers = max(1, workers or os.cpu_count() or 1)
    done: dict[str, list[Row]] = {}

    def finished(name: str, rows: list[Row], seconds: float) -> None:
        done[name] = rows
        report.timings[name] = seconds
        if progress:
            progress(name, rows)

    def landed(i: int, answer: tuple[list[Row], float]) -> None:
        finished(jobs[i][0], *answer)

    def died(i: int, code: int | None, seconds: float) -> tuple[list[Row], float]:
        return [Row(jobs[i][0], "job", "(job)", ERROR, OK, "", "",
                    f"the check's process died (exit code {code})")], seconds

    if runner is not None:
        runner.map(_timed, jobs, done=landed)
    else:
        fork_each(workers, died).map(_guarded, jobs, done=landed)
    for name, _, _ in jobs:
        report.rows.extend(done[name])
    report.seconds = time.perf_counter() - start
    return report
