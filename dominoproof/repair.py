"""``dominoproof repair``: the nearest variants under which every property holds.

``verify`` says that a rule set fails, and shows the round; ``repair`` searches the
variants near it for one that does not fail. Everything it judges is judged as ``verify``
judges a variant on its small configurations: the same search plan, the same judge, the
same rows and evidence (:func:`dominoproof.verify_job.search_rows`), each candidate a job
run as verify runs its jobs (:func:`dominoproof.verify.run_jobs`: a forked process per
job, or a task of a Dask cluster), its graph explored on the compiled kernel where it runs.

1. **The variant itself**, on the whole catalogue: the properties it violates are the
   ones to repair (a published preset's expected findings included: a designer wants them
   fixed). None: it holds everything, and ``repair`` says so at once.
2. **Every single change** (:func:`neighbours`): each parameter of
   :mod:`dominoproof.model.params` set to each other value its metadata allows -- every
   value of an enumeration, a bool flipped, every value of a small integer range
   (:data:`~dominoproof.proofs.budgets.REPAIR_RANGE`), every number of confirmations.
   A change is skipped, and the report says why (:class:`Skipped`), when the validator
   rejects it in that variant; when it has no effect there (the validator's own warning
   names the changed key); when it is one of the sizes (the set, the players, the hands,
   the tiles set aside: the search replaces them by its small configuration's, so the
   judge would not see the change); when it is what makes the game rather than a rule
   of it (the layout's topology: ``game`` metadata); when the configurations the search
   judges stay exactly as they were, or as an earlier candidate's; and when it is a scoring
   parameter (rule R5) while every failing property is read off the graph's states and
   moves, which scoring does not change (only a terminal property reads R5).
   Each candidate is judged on the failing properties only; first the changes of a
   parameter whose rule ID a failing property checks, the parameters with the fewest
   values to try first.
3. **Pairs**, only when no single change makes every property hold: two single changes
   of different parameters, each of which makes some failing property hold on its own
   (``all_pairs``: any two), the pairs that leave the fewest properties failing under
   both changes alone first (what neither fixes, a pair is least likely to fix).
4. **Confirmation**: the best candidates (fewest failing, fewest changes;
   :data:`~dominoproof.proofs.budgets.REPAIR_CONFIRM`) are judged again on the whole
   catalogue (a change may break what held), with their statistics (block probability,
   mean residual at a block, 95% intervals: :func:`~dominoproof.proofs.analysis.stats.
   sampled_figures`, uniformly random rounds from a fixed seed) and the variant's.

A property the variant violates "holds" under a candidate when no row of it fails and
one holds or proves it: N/A on every row is no repair (the change took away what the
property is about -- the markers, the doubles to cover -- and with it the question).

The list: the confirmed candidates with the fewest failing properties (none: repairs),
ranked by the number of changes, then by how little the statistics move
(:meth:`Candidate.move`); and for each property the variant violates, the nearest
candidates under which it holds (:attr:`RepairReport.per_property`), for a rule set no
one candidate repairs whole (Mexican Train: its sound establishment repairs
blocked-sound, not blocked-complete). A budget (candidates judged, a wall-clock safety
net) that runs out is reported with the candidates judged and those not judged: never "no repair".
"""

from __future__ import annotations

import dataclasses
import enum
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.params import SECTIONS, Confirmations, Sizes
from dominoproof.model.variant import Variant, toml_value
from dominoproof.options import counted
from dominoproof.proofs.budgets import (
    REPAIR_CANDIDATE_SECONDS,
    REPAIR_CANDIDATES,
    REPAIR_CONFIRM,
    REPAIR_RANGE,
    REPAIR_ROUNDS,
    REPAIR_SECONDS,
)
from dominoproof.proofs.properties import BY_ID, Kind, Verdict
from dominoproof.proofs.runner import Runner
from dominoproof.proofs.search.plans import configurations
from dominoproof.repair_job import POLICY, Judged
from dominoproof.verify import Job, Row, run_jobs

__all__ = ["Candidate", "Change", "RepairReport", "Skipped", "counted", "neighbours", "repair"]

#: the job of every candidate (:mod:`dominoproof.repair_job`), loaded in its own process
JOB = "dominoproof.repair_job:judge_job"
#: the verdicts under which a property does not fail: it holds, or does not apply
FINE = (Verdict.HOLDS.value, Verdict.PROVED.value, Verdict.NOT_APPLICABLE.value)
#: the statistics compared: figure id -> label
FIGURES = {"block": "block probability", "residual": "mean residual at a block (pips)"}


def failing_in(rows: Sequence[Row], repairing: Sequence[str] = ()) -> list[str]:
    """The properties that fail in ``rows``, in order: a row not :data:`FINE`, and each
    of ``repairing`` (those the variant repaired violates) whose every row is N/A -- a
    change under which it no longer applies has not repaired it."""
    out = list(dict.fromkeys(r.property for r in rows if r.verdict not in FINE))
    na = Verdict.NOT_APPLICABLE.value
    for pid in repairing:
        verdicts = [r.verdict for r in rows if r.property == pid]
        if pid not in out and verdicts and all(x == na for x in verdicts):
            out.append(pid)
    return out


@dataclass(frozen=True)
class Change:
    """One parameter set to another value, with the rule ID it realises."""

    key: str
    rule: str
    before: Any
    after: Any

    def text(self) -> str:
        return f"{self.key} {toml_value(self.before)} -> {toml_value(self.after)} ({self.rule})"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Skipped:
    """A change not judged, and why (rejected by the validator, without effect, ...)."""

    key: str
    value: Any
    why: str

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class Candidate:
    """A variant near the one repaired: its changes, and what judging it found."""

    changes: tuple[Change, ...]
    variant: Variant
    #: the properties that fail on the first judgement (the failing ones only); None: not
    #: judged
    failing: list[str] | None = None
    rows: list[Row] = field(default_factory=list)
    confirmed: bool = False  #: judged again on the whole catalogue
    figures: dict[str, Any] | None = None
    seconds: float = 0.0
    #: the properties the variant repaired violates: N/A on every row is no repair
    repairing: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.variant.name

    def text(self) -> str:
        return "; ".join(c.text() for c in self.changes)

    def fails(self) -> list[str]:
        return failing_in(self.rows, self.repairing)

    def helps(self, failing: Sequence[str]) -> bool:
        """Whether some property of ``failing`` holds under it (its first judgement)."""
        return bool(set(failing) - set(self.failing or ()))

    def move(self, base: dict[str, Any] | None) -> float:
        """How far the statistics move from ``base``'s: the change of the block
        probability plus that of the mean residual at a block relative to ``base``'s
        (each in [0, 1] or so, the two weighed alike); a figure missing on either side
        (no round blocked) counts as a full move, 1."""
        if base is None or self.figures is None:
            return float("inf")
        total = 0.0
        for fid in FIGURES:
            a, b = base[fid].value, self.figures[fid].value
            if a is None or b is None:
                total += 0.0 if a is None and b is None else 1.0
            else:
                total += abs(b - a) / (max(abs(a), 1.0) if fid == "residual" else 1.0)
        return total

    def to_json(self, base: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "name": self.name, "changes": [c.to_json() for c in self.changes],
            "judged": self.failing is not None, "confirmed": self.confirmed,
            "failing": self.fails() if self.rows else self.failing,
            "verdicts": [{"property": r.property, "verdict": r.verdict, "detail": r.detail,
                          "round": r.round or None, "fails": r.fails or None}
                         for r in self.rows],
            "statistics": None if self.figures is None else {
                fid: e.to_json() for fid, e in self.figures.items()},
            "move": None if self.move(base) == float("inf") else round(self.move(base), 6),
            "seconds": round(self.seconds, 3)}


@dataclass
class RepairReport:
    variant: Variant
    failing: list[str]  #: the properties the variant violates
    rows: list[Row]  #: the variant's own verdicts (the search, the whole catalogue)
    figures: dict[str, Any] | None = None
    candidates: list[Candidate] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    #: why the search stopped short ("" it did not): a budget, named
    stopped: str = ""
    pairs_searched: bool = False
    rounds: int = 0
    seed: int = 0
    seconds: float = 0.0

    @property
    def judged(self) -> list[Candidate]:
        return [c for c in self.candidates if c.failing is not None]

    @property
    def not_judged(self) -> list[Candidate]:
        return [c for c in self.candidates if c.failing is None]

    @property
    def best(self) -> list[Candidate]:
        """The confirmed candidates with the fewest failing properties, nearest first."""
        done = [c for c in self.candidates if c.confirmed]
        if not done:
            return []
        fewest = min(len(c.fails()) for c in done)
        return sorted((c for c in done if len(c.fails()) == fewest),
                      key=lambda c: (len(c.changes), c.move(self.figures), c.name))

    @property
    def repairs(self) -> list[Candidate]:
        return [c for c in self.best if not c.fails()]

    @property
    def per_property(self) -> dict[str, list[Candidate]]:
        """Each property the variant violates, and the nearest candidates judged under
        which it holds: fewest changes, confirmed on the whole catalogue first, then the
        fewest failing, then how little the statistics move."""
        def holds(c: Candidate, pid: str) -> bool:  # judged so, not a job that failed
            return (any(r.property == pid for r in c.rows)
                    and pid not in failing_in(c.rows, (pid,)))
        return {pid: sorted((c for c in self.judged if holds(c, pid)),
                            key=lambda c: (len(c.changes), not c.confirmed, len(c.fails()),
                                           c.move(self.figures), c.name))
                for pid in self.failing}

    @property
    def exit_code(self) -> int:
        """0 the variant holds, or the search ran to its end and found a repair of every
        property it violates (one candidate for all, or each its own); 3 a budget ran out
        first; 1 the search ended with a property no candidate repairs."""
        if not self.failing:
            return 0
        if self.stopped:
            return 3
        return 0 if self.repairs or all(self.per_property.values()) else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": {"name": self.variant.name, "source": self.variant.source,
                        "base": self.variant.base or None},
            "holds": not self.failing, "failing": self.failing,
            "verdicts": [{"property": r.property, "verdict": r.verdict} for r in self.rows],
            "statistics": None if self.figures is None else {
                "rounds": self.rounds, "seed": self.seed, "policy": POLICY,
                "figures": {fid: e.to_json() for fid, e in self.figures.items()}},
            "repairs": [c.name for c in self.repairs],
            "per_property": {pid: [c.name for c in cands]
                             for pid, cands in self.per_property.items()},
            "best": [c.to_json(self.figures) for c in self.best],
            "candidates": [c.to_json(self.figures) for c in self.candidates],
            "judged": len(self.judged), "not_judged": [c.name for c in self.not_judged],
            "skipped": [s.to_json() for s in self.skipped],
            "pairs_searched": self.pairs_searched, "stopped": self.stopped or None,
            "exit_code": self.exit_code, "seconds": round(self.seconds, 2)}


# ---------------------------------------------------------------------------
# The candidates: every allowed value of every parameter, from params.py's metadata
# ---------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Confirmations):
        return value.plain()
    return value


def _values(f: dataclasses.Field[Any], value: Any, v: Variant) -> list[Any] | str:
    """Every other value ``f`` allows, or why there is no list of them to try."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, enum.Enum):
        return [m for m in type(value) if m is not value]
    if isinstance(value, Confirmations):
        every = [Confirmations.ALL, Confirmations.ALL_OTHERS,
                 *(Confirmations("count", k) for k in range(1, v.players + 1))]
        return [c for c in every if c != value]
    if isinstance(value, int) and "range" in f.metadata:
        lo, hi = f.metadata["range"]
        if hi - lo + 1 > REPAIR_RANGE:
            return f"its range {lo}..{hi} has more than {REPAIR_RANGE} values to try"
        return [k for k in range(lo, hi + 1) if k != value]
    return "a free-form value (a tile, teams, a table of values): no list of values to try"


#: sizes no parameter has: a parameter whose shrink gives one of them is a size
_PROBE = Sizes(-101, -102, -103, -104)


def _is_size(f: dataclasses.Field[Any], value: Any, v: Variant) -> bool:
    """Whether the search replaces ``f`` by one of its configuration's sizes (its
    ``shrink`` metadata takes it from the sizes, whatever its value)."""
    shrink = f.metadata.get("shrink")
    return shrink is not None and shrink(value, _PROBE, v) in _PROBE


def _no_effect(changed: Variant, before: Variant, sec: str, name: str) -> str:
    """The validator's warning that the changed parameter has no effect, or ""."""
    for w in changed.warnings:
        if w not in before.warnings and f"[{sec}] {name} " in w.split(" has no effect")[0]:
            return "no effect: " + w.split(": ", 1)[-1]
    return ""


def _make(v: Variant, changes: Sequence[Change]) -> Variant:
    return v.with_overrides({c.key: c.after for c in changes},
                            source=f"{v.source} with " + ", ".join(
                                f"{c.key}={toml_value(c.after)}" for c in changes))


def neighbours(v: Variant, failing: Sequence[str]) -> tuple[list[Candidate], list[Skipped]]:
    """Every single change of ``v`` worth judging for the ``failing`` properties, and
    every change skipped with why (see the module docstring)."""
    scoring_matters = any(BY_ID[p].kind is Kind.TERMINAL for p in failing)
    seen = {configurations(v): "the variant itself"}
    out: list[Candidate] = []
    skipped: list[Skipped] = []
    for sec in SECTIONS:
        spec = getattr(v, sec)
        for f in dataclasses.fields(spec):
            key, value, rule = f"{sec}.{f.name}", getattr(spec, f.name), f.metadata["rule"]
            if _is_size(f, value, v):
                skipped.append(Skipped(key, None, "a size, not a rule: the search replaces "
                                       "it by its small configuration's"))
                continue
            if "game" in f.metadata:  # what makes the game, not a rule of it (params.py)
                skipped.append(Skipped(key, None, f"not a rule: {f.metadata['game']} "
                                       "(compare one with diff)"))
                continue
            values = _values(f, value, v)
            if isinstance(values, str):
                skipped.append(Skipped(key, None, values))
                continue
            if rule.startswith("R5") and not scoring_matters:
                skipped.append(Skipped(key, None, f"scores a finished round ({rule}): no "
                                       "failing property is a terminal one, and the "
                                       "states and moves do not read it"))
                continue
            for new in values:
                change = Change(key, rule, _plain(value), _plain(new))
                why, cand = _try(v, (change,), seen)
                if cand is None:
                    skipped.append(Skipped(key, change.after, why))
                else:
                    out.append(cand)
    checked = {rule for p in failing for rule in BY_ID[p].rules}
    tries = Counter(c.changes[0].key for c in out)
    # first the changes of a rule a failing property checks, and of these the parameters
    # with the fewest values to try (a budget reaches them first)
    out.sort(key=lambda c: (c.changes[0].rule not in checked, tries[c.changes[0].key]))
    return out, skipped


def _try(v: Variant, changes: tuple[Change, ...],
         seen: dict[tuple[Variant, ...], str]) -> tuple[str, Candidate | None]:
    """The candidate ``changes`` make, or why it is skipped."""
    try:
        changed = _make(v, changes)
    except DominoproofError as e:
        return f"rejected by the validator: {str(e).split(': ', 1)[-1]}", None
    for c in changes:
        sec, _, name = c.key.partition(".")
        why = _no_effect(changed, v, sec, name)
        if why:
            return why, None
    try:
        judged = configurations(changed)
    except DominoproofError as e:
        return f"no small configuration to judge it on: {str(e).split(': ', 1)[-1]}", None
    if judged in seen:
        return f"the search would judge the same configurations as {seen[judged]}", None
    seen[judged] = "; ".join(c.text() for c in changes)
    return "", Candidate(changes, changed)


def pairs(v: Variant, singles: Sequence[Candidate], skipped: list[Skipped],
          failing: Sequence[str], every: bool = False) -> list[Candidate]:
    """Two single changes of different parameters, each of which makes a failing property
    hold on its own (``every``: any two judged); first the pairs that leave the fewest
    properties failing under both changes alone, then the fewest failing in all."""
    judged = [c for c in singles if c.failing is not None]
    useful = [c for c in judged if c.helps(failing)]
    if not every and len(useful) < len(judged):
        left = len(list(combinations(judged, 2))) - len(list(combinations(useful, 2)))
        skipped.append(Skipped(f"{left} pairs", None, "a change of the pair makes no failing "
                               "property hold on its own (--all-pairs judges them)"))
    seen = {configurations(c.variant): c.text() for c in singles}
    seen[configurations(v)] = "the variant itself"
    ranked = sorted(combinations(judged if every else useful, 2), key=lambda ab: (
        len(set(ab[0].failing or ()) & set(ab[1].failing or ())),
        len(ab[0].failing or ()) + len(ab[1].failing or ())))
    out = []
    for a, b in ranked:
        if a.changes[0].key == b.changes[0].key:
            continue
        why, cand = _try(v, a.changes + b.changes, seen)
        if cand is None:
            skipped.append(Skipped(f"{a.changes[0].key} + {b.changes[0].key}",
                                   [a.changes[0].after, b.changes[0].after], why))
        else:
            out.append(cand)
    return out


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


#: what the caller is told as each candidate is judged: (stage, candidate or None for the
#: variant itself, its rows)
Progress = Callable[[str, "Candidate | None", list[Row]], None]


class _Jobs:
    """Runs judgements as verify runs its jobs, and counts the candidates judged."""

    def __init__(self, workers: int | None, runner: Runner | None, deadline: float,
                 seconds: float, rounds: int, seed: int, progress: Progress | None) -> None:
        self.workers, self.runner, self.deadline = workers, runner, deadline
        self.seconds, self.rounds, self.seed, self.progress = seconds, rounds, seed, progress
        self.late = False

    def run(self, stage: str, subjects: Sequence[tuple[Candidate | None, Variant]],
            properties: tuple[str, ...] | None, search: bool = True,
            figures: bool = False, budget: bool = True) -> list[Judged]:
        # a candidate's searches share its budget (``budget``); the variant's own, and a
        # confirmation's, are verify's
        seconds = self.seconds if budget else None
        jobs: list[Job] = [(v.name, JOB, (v, properties, search,
                                          self.rounds if figures else 0, self.seed,
                                          self.deadline, None if c is None else seconds))
                           for c, v in subjects]
        index = {name: i for i, (name, _, _) in enumerate(jobs)}
        answers: dict[int, Judged] = {}

        def done(name: str, answer: Any, seconds: float) -> None:
            i = index[name]
            answers[i] = _judged(answer)
            if answers[i].late:
                self.late = True
                return
            cand = subjects[i][0]
            if cand is not None:
                cand.seconds += seconds
            if self.progress is not None:
                self.progress(stage, cand, answers[i].rows)

        run_jobs(jobs, workers=self.workers, runner=self.runner, done=done)
        return [answers[i] for i in range(len(jobs))]


def _judged(answer: Any) -> Judged:
    """A job's answer: a :class:`Judged`, or the failed check verify's runner makes of a
    job that raised or died."""
    return answer if isinstance(answer, Judged) else Judged(list(answer))


def _judge(jobs: _Jobs, stage: str, todo: list[Candidate], failing: tuple[str, ...]) -> None:
    for cand, got in zip(todo, jobs.run(stage, [(c, c.variant) for c in todo], failing),
                         strict=True):
        if not got.late:
            cand.rows, cand.repairing = got.rows, failing
            cand.failing = failing_in(got.rows, failing)


def _confirm(jobs: _Jobs, report: RepairReport, pool: Sequence[Candidate]) -> None:
    """The best of ``pool`` judged on the whole catalogue, with statistics (and the
    variant's statistics, the first time): candidates under which some failing property
    holds (one that repairs nothing is no answer, and its judgement may be long)."""
    best = sorted((c for c in pool if c.failing is not None and not c.confirmed
                   and c.helps(report.failing)),
                  key=lambda c: (len(c.failing or ()), len(c.changes)))[:REPAIR_CONFIRM]
    if report.figures is None:  # the variant's own verdicts are known: its statistics
        own = jobs.run("variant", [(None, report.variant)], None, search=False,
                       figures=True)[0]
        if not own.late:
            report.figures = own.figures
    # a few candidates, judged as verify judges (its budgets, not a candidate's)
    got = jobs.run("confirm", [(c, c.variant) for c in best], None, figures=True,
                   budget=False)
    for cand, judged in zip(best, got, strict=True):
        if not judged.late:
            cand.rows, cand.figures, cand.confirmed = judged.rows, judged.figures, True


def repair(v: Variant, *, max_candidates: int = REPAIR_CANDIDATES,
           max_seconds: float = REPAIR_SECONDS,
           candidate_seconds: float = REPAIR_CANDIDATE_SECONDS, all_pairs: bool = False,
           rounds: int = REPAIR_ROUNDS, seed: int = 0,
           workers: int | None = None, runner: Runner | None = None,
           progress: Progress | None = None) -> RepairReport:
    """Search the variants near ``v`` for the nearest under which every property that
    ``v`` violates on verify's small configurations holds (module docstring). At most
    ``max_candidates`` candidates are judged, none starts after ``max_seconds``, and each
    candidate's searches share ``candidate_seconds``."""
    for name, x in (("max_candidates", max_candidates), ("max_seconds", max_seconds),
                    ("candidate_seconds", candidate_seconds), ("rounds", rounds)):
        if isinstance(x, bool) or x < 1:
            raise DominoproofError(f"repair: {name} = {x!r}: must be at least 1")
    t0 = time.perf_counter()
    jobs = _Jobs(workers, runner, time.time() + max_seconds, candidate_seconds, rounds, seed,
                 progress)
    own = jobs.run("variant", [(None, v)], None)[0]
    report = RepairReport(v, [r.property for r in own.rows
                              if r.verdict == Verdict.VIOLATED.value], own.rows,
                          rounds=rounds, seed=seed)
    if report.failing:
        _search(jobs, report, max_candidates, all_pairs)
    report.seconds = time.perf_counter() - t0
    return report


def _search(jobs: _Jobs, report: RepairReport, budget: int, all_pairs: bool) -> None:
    v, failing = report.variant, tuple(report.failing)
    singles, report.skipped = neighbours(v, failing)
    report.candidates = list(singles)
    _judge(jobs, "single", singles[:budget], failing)
    if len(singles) > budget:
        report.stopped = (f"the budget of {counted(budget, 'candidate')} ran out among the "
                          "single changes (pairs not searched)")
    budget -= min(budget, len(singles))
    _confirm(jobs, report, singles)
    if not any(c.confirmed and not c.fails() for c in singles) and not report.stopped:
        report.pairs_searched = True
        two = pairs(v, singles, report.skipped, failing, all_pairs)
        report.candidates += two
        _judge(jobs, "pair", two[:budget], failing)
        if len(two) > budget:
            report.stopped = (f"the budget of {counted(len(report.judged), 'candidate')} "
                              "ran out among the pairs")
        _confirm(jobs, report, two)
    if jobs.late:
        report.stopped = "the wall-clock safety net ran out: candidates left not judged"
