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
   variant stands (:func:`dominoproof.verify_job._unsound_premises`);
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
worker. Before forking many jobs the parent loads the compiled kernel's machine code
once (:func:`dominoproof.verify_job.warm`), which every job inherits; it makes no Z3
term doing so, so a job's counterexamples are those of the same job run alone, whenever
it was forked. On a cluster
(``--cluster local:N``, ``--scheduler ADDRESS``:
:mod:`dominoproof.proofs.runner`) each job is a task instead: a worker runs one job at a
time and starts it by forgetting every cached rule book, oracle and score reader, as a
fresh process would; a job whose worker dies is run again on another (docs/CLUSTER.md).
A check that crashes is a failed check (verdict ERROR) with its reason, and the
job's other checks still run; a job whose process dies is a failed check too.
A VIOLATED check carries its counterexample: the trace (JSON) and the round as text.
"""

from __future__ import annotations

import builtins
import importlib
import os
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dominoproof.model.variant import Variant, find_variant, presets
from dominoproof.proofs.budgets import (
    CROSSCHECK_STATES,
    DEFAULT_RLIMIT,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    SPACE_VARIANTS,
)
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.readings import ReadingsDisagree
from dominoproof.proofs.runner import ForkEach, Runner, Warming, fork_each

OK = (Verdict.HOLDS.value, Verdict.PROVED.value)
NA = (Verdict.NOT_APPLICABLE.value,)
CAUGHT = (Verdict.VIOLATED.value, Verdict.NOT_INDUCTIVE.value)
#: the verdict of a check that crashed (never expected)
ERROR = "ERROR"
PARTS = ("search", "z3", "all sizes", "cross-check")
#: the self-test's subject that compares the readings over the whole parameter space
SPACE_SUBJECT = "parameter space"


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
    #: which search ran (search rows): "kernel", or "python" and why not the kernel
    search: str = ""
    #: a finding the verdict is expected to show: why, in domino terms, and whose rules
    #: (the variant's own, or inherited from its base) -- "" for none
    finding: str = ""

    @builtins.property  # the field ``property`` shadows the builtin in this class body
    def ok(self) -> bool:
        return self.verdict in self.expected

    @builtins.property
    def replayable(self) -> bool:
        """A VIOLATED check whose trace ``dominoproof replay`` replays."""
        return (self.verdict == Verdict.VIOLATED.value and self.trace is not None
                and "variant" in self.trace)

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

    def search_line(self) -> str:
        """Which search ran the variants' searches: the compiled kernel, the Python path
        (and why), or each for some (the faults' mutants always run the Python path)."""
        ran = {r.subject: r.search for r in self.rows if r.part == "search" and r.search}
        on_kernel = sum(1 for how in ran.values() if how == "kernel")
        why = sorted({how.removeprefix("python: ") for how in ran.values() if how != "kernel"})
        if not ran:
            return ""
        if not why:
            return "search: the compiled kernel ran every variant's search"
        if not on_kernel:
            return f"search: the Python path ran every variant's search ({'; '.join(why)})"
        return (f"search: the compiled kernel for {on_kernel} variant(s), the Python path for "
                f"{len(ran) - on_kernel} ({'; '.join(why)})")

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": not self.failures,
            "search": self.search_line(),
            "exit_code": self.exit_code,
            "seconds": round(self.seconds, 2),
            "checks": len(self.rows),
            "failures": len(self.failures),
            "subjects": self.subjects,
            "subject_seconds": {k: round(v, 3) for k, v in self.timings.items()},
            "rows": [asdict(r) | {"ok": r.ok} for r in self.rows],
        }


# ---------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------


#: The module that runs a job (:mod:`dominoproof.verify_job`), loaded by name in the job's
#: own process: the parent, which runs no check, never loads what a check needs.
JOBS = "dominoproof.verify_job"
#: a job: its subject, the function of :data:`JOBS` that runs it, and that function's argument
Job = tuple[str, str, Any]


def _timed(job: Job) -> tuple[list[Row], float]:
    """A job's rows and its measured wall time; a job that raises is one failed check.
    The job's function is one of :data:`JOBS`, or ``"module:function"`` elsewhere (loaded,
    as :data:`JOBS` is, in the job's own process)."""
    name, fn, args = job
    home, _, fn = fn.rpartition(":")
    t0 = time.perf_counter()
    try:
        rows = getattr(importlib.import_module(home or JOBS), fn)(args)
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


def verify(variants: Iterable[Variant | str | Path] | None = None, *, faults: bool = True,
           seed: int = DEFAULT_SEED, timeout_ms: int = DEFAULT_TIMEOUT_MS,
           crosscheck: int = CROSSCHECK_STATES, workers: int | None = None,
           rlimit: int = DEFAULT_RLIMIT,
           progress: Callable[[str, list[Row]], None] | None = None,
           runner: Runner | None = None) -> Report:
    """Verify ``variants`` (Variants, preset names or aliases, TOML paths; default: every
    preset) and, with ``faults``, that every fault is caught: each variant and each fault
    a job, run in a process of its own forked from this one, ``workers`` at a time, or,
    given a ``runner`` (a cluster: :mod:`dominoproof.proofs.runner`), each a task of the
    cluster (a job starts by forgetting every cached rule book and oracle, as a fresh
    process would). The report's ``exit_code`` is the CLI's (0 every verdict as expected,
    1 a violation or an uncaught fault, 3 only UNKNOWN)."""
    start = time.perf_counter()
    chosen = ([v if isinstance(v, Variant) else find_variant(str(v)) for v in variants]
              if variants is not None else list(presets().values()))
    jobs: list[Job] = [(v.name, "variant_job", (v, seed, timeout_ms, crosscheck, rlimit))
                       for v in chosen]
    if faults:
        # a slip in a rule no preset uses: the readings compared over the parameter space
        # (before the faults: the faults are the shortest jobs, best left to fill the end)
        jobs.append((SPACE_SUBJECT, "space_job", (SPACE_VARIANTS, seed)))
        jobs += [(f"fault {f.id}", "fault_job", (f.id, seed, timeout_ms, rlimit))
                 for f in FAULTS]
    report = Report(subjects=[name for name, _, _ in jobs])

    def landed(name: str, rows: list[Row], seconds: float) -> None:
        report.timings[name] = seconds
        if progress:
            progress(name, rows)

    for rows, _ in run_jobs(jobs, workers=workers, runner=runner, done=landed):
        report.rows.extend(rows)
    report.seconds = time.perf_counter() - start
    return report


def run_jobs(jobs: Sequence[Job], *, workers: int | None = None, runner: Runner | None = None,
             done: Callable[[str, list[Row], float], None] | None = None
             ) -> list[tuple[list[Row], float]]:
    """Run ``jobs`` as :func:`verify` runs its own: each in a process of its own forked
    from this one, ``workers`` at a time, or each a task of ``runner`` (a cluster). Their
    rows and wall times, in the jobs' order; ``done(subject, rows, seconds)`` as each
    finishes. A job whose process dies is one failed check saying so."""
    workers = max(1, workers or os.cpu_count() or 1)

    def landed(i: int, answer: tuple[list[Row], float]) -> None:
        if done:
            done(jobs[i][0], *answer)

    def died(i: int, code: int | None, seconds: float) -> tuple[list[Row], float]:
        return [Row(jobs[i][0], "job", "(job)", ERROR, OK, "", "",
                    f"the check's process died (exit code {code})")], seconds

    if runner is not None:
        return runner.map(_timed, jobs, done=landed)
    pool = fork_each(workers, died)
    warming = _warming(jobs) if len(jobs) > workers else None
    if isinstance(pool, ForkEach):
        return pool.map(_guarded, jobs, done=landed, warming=warming)
    if warming is not None:  # pragma: no cover - no fork on this system
        warming.prepare()
    return pool.map(_guarded, jobs, done=landed)


def _warming(jobs: Sequence[Job]) -> Warming | None:
    """Many jobs to fork: their modules loaded here once, and what a module's ``warm()``
    loads (the kernel's machine code), so that every job inherits it instead of loading
    it -- or, on a first run, compiling it -- itself. The jobs a module's ``cold(fn,
    args)`` names need none of it: they run while it compiles
    (:class:`~dominoproof.proofs.runner.Warming`)."""
    where = [fn.rpartition(":") for _, fn, _ in jobs]
    homes = {home: importlib.import_module(home or JOBS) for home, _, _ in where}
    warms = [w for w in (getattr(m, "warm", None) for m in homes.values()) if w is not None]
    if not warms:
        return None

    def is_cold(i: int) -> bool:
        home, _, fn = where[i]
        test = getattr(homes[home], "cold", None)
        return test is not None and bool(test(fn, jobs[i][2]))

    cold = frozenset(i for i in range(len(jobs)) if is_cold(i))

    def prepare() -> None:
        for w in warms:
            w()

    return Warming(prepare, cold)
