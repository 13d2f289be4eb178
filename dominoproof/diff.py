"""``dominoproof diff``: two variants side by side, for a rules designer weighing a change.

Three answers, each from machinery that already exists:

1. **the parameters that differ**, each with the rule ID it realises
   (:meth:`~dominoproof.model.variant.Variant.parameters`, the single source);
2. **the properties whose verdict differs**: both variants go through the verification's
   own checks (:func:`dominoproof.verify.verify`, in this process's forks, no fault
   self-test and no cross-check: the search on small configurations, the Z3 proofs per
   instance and for every size). Where one variant violates a property and the other
   does not, the counterexample round of the one that violates it is the round that
   **separates** them, and it is judged under both (:func:`judge_under`): under the one
   it replays and breaks the property at a given move; under the other it is not a round
   at all (a move its rules forbid, a deal of another size) or a round where the
   property holds at every step;
3. **statistics side by side with 95% intervals**, gathered in one place,
   :func:`gather_figures` (today the Monte-Carlo figures of :mod:`dominoproof.simulate`;
   exact figures and play policies can be added there).

:func:`diff` returns a :class:`DiffReport`; :func:`render` tells it as text and
:meth:`DiffReport.to_json` as the ``dominoproof.diff`` document.
"""

from __future__ import annotations

import builtins
import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from dominoproof.model.engine import Trace
from dominoproof.model.errors import DominoproofError, TraceError
from dominoproof.model.variant import Variant, find_variant, toml_value
from dominoproof.options import WIDTH, indented, resolve_variant
from dominoproof.options import wrap as _wrap
from dominoproof.proofs.analysis.simulate import simulate, wilson
from dominoproof.proofs.budgets import DEFAULT_RLIMIT, DEFAULT_SEED, DEFAULT_TIMEOUT_MS
from dominoproof.proofs.properties import BY_ID, CATALOGUE
from dominoproof.proofs.search.plans import at_sizes, sizes_of
from dominoproof.proofs.search.rounds import Failure, judge_round
from dominoproof.render.text import estimate_text, simple_table, table_text
from dominoproof.verify import verify

__all__ = ["DiffReport", "Figure", "Judgement", "ParameterChange", "PropertyDiff",
           "Separation", "diff", "gather_figures", "judge_under", "pair", "parameter_changes",
           "render"]

#: The parts of the verification compared (the cross-check compares two readings of one
#: variant, not the variant's rules, and the fault self-test is the tool's own).
PARTS = ("search", "z3", "all sizes")
SIDES = ("A", "B")
VIOLATED = "VIOLATED"


# ---------------------------------------------------------------------------
# The two variants
# ---------------------------------------------------------------------------


def pair(first: str, second: str | None, overrides: Sequence[str] = ()) -> tuple[Variant,
                                                                               Variant]:
    """The variants compared: ``first`` and ``second`` (presets or files); with one only,
    ``first`` with the ``-o`` overrides against ``first`` as it is, else a file against
    the preset it names as its ``base``. Bad input is a located
    :class:`~dominoproof.model.errors.DominoproofError`."""
    if second is not None:
        return resolve_variant(first), resolve_variant(second, overrides)
    if overrides:
        return resolve_variant(first), resolve_variant(first, overrides)
    v = resolve_variant(first)
    if not v.base:
        raise DominoproofError(
            f"diff {first}: one variant and no base to compare it with (allowed: two "
            "variants, a file whose `base` key names a preset, or one variant with -o "
            "KEY=VALUE overrides)")
    return find_variant(v.base), v


def _distinct(a: Variant, b: Variant) -> tuple[Variant, Variant]:
    """Two names the verification can tell apart (a file may share its base's name)."""
    if a.name != b.name:
        return a, b
    return (dataclasses.replace(a, name=f"{a.name} (A)"),
            dataclasses.replace(b, name=f"{b.name} (B)"))


# ---------------------------------------------------------------------------
# 1. Parameters
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterChange:
    """One parameter whose value differs, with the rule ID it realises."""

    key: str
    rule: str
    a: Any
    b: Any
    meaning: str

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def parameter_changes(a: Variant, b: Variant) -> list[ParameterChange]:
    """Every parameter whose value differs between ``a`` and ``b``, in the order
    ``dominoproof show`` lists them (derived values included: a block game's
    ``set_aside`` follows its deal)."""
    theirs = {key: value for key, _, value, _ in b.parameters()}
    return [ParameterChange(key, rule, value, theirs[key], doc)
            for key, rule, value, doc in a.parameters() if theirs[key] != value]


# ---------------------------------------------------------------------------
# 2. Verdicts, and the round that separates them
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """How one variant judges a round: whether it is a round of that variant at all
    (deal and every move), and where the property breaks in it, if it does."""

    variant: str
    replays: bool
    breaks: Failure | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "replays": self.replays,
                "breaks": self.breaks is not None,
                "at": self.breaks.move if self.breaks is not None else None,
                "text": self.text}


def _round_under(trace: Trace, variant: Variant) -> Trace:
    """``trace``'s deal and moves as a round of ``variant``, replayed with every legality
    check (a :class:`TraceError` names the first move its rules forbid, or why the deal is
    not one of its deals)."""
    data = trace.to_json()
    for key in ("final", "rules", "origin"):
        data.pop(key, None)
    data["variant"] = variant.to_dict()
    return Trace.from_json(data, source=f"the round under {variant.name}")


def judge_under(trace: Trace, variant: Variant, pid: str) -> Judgement:
    """The round ``trace`` judged under ``variant``: is it one of its rounds, and does
    ``pid`` break in it (:func:`dominoproof.proofs.search.rounds.judge_round`, the
    search's judge)?"""
    try:
        t = _round_under(trace, variant)
    except TraceError as e:
        why = str(e).removeprefix(f"the round under {variant.name}: ")
        return Judgement(variant.name, False, None,
                         f"not a round of {variant.name}: {why}")
    at = judge_round(t, pid)
    if at is None:
        return Judgement(variant.name, True, None,
                         f"a round of {variant.name} too (every move legal), and {pid} "
                         "holds at every state and move of it")
    return Judgement(variant.name, True, at,
                     f"a round of {variant.name}, and {pid} breaks {at.where()}: {at.why}")


@dataclass
class Separation:
    """The counterexample round of the variant that violates a property, judged under
    both variants."""

    violated_in: str  #: "A" or "B"
    part: str  #: the check that found it: "search" (a small configuration) or "z3"
    trace: Trace
    round: str  #: the round for people, and where it fails
    judged: dict[str, Judgement]

    def to_json(self) -> dict[str, Any]:
        return {"violated_in": self.violated_in.lower(), "part": self.part,
                "moves": len(self.trace.moves), "round": self.round,
                "trace": self.trace.to_json(),
                "judged": {side.lower(): j.to_json() for side, j in self.judged.items()}}


@dataclass
class PropertyDiff:
    """One property's verdicts under A and B, part by part."""

    property: str
    a: dict[str, str]  #: part -> verdict
    b: dict[str, str]
    note: str = ""  #: why they differ, when no round shows it (N/A, UNKNOWN, ...)
    separating: Separation | None = None

    @builtins.property  # the field ``property`` shadows the builtin in this class body
    def rules(self) -> tuple[str, ...]:
        return BY_ID[self.property].rules

    @builtins.property
    def differs(self) -> bool:
        return self.a != self.b

    def to_json(self) -> dict[str, Any]:
        return {"property": self.property, "rules": list(self.rules), "differs": self.differs,
                "a": self.a, "b": self.b, "note": self.note,
                "separating": self.separating.to_json() if self.separating else None}


def _verdicts(rows: Sequence[Any], subject: str) -> dict[str, dict[str, Any]]:
    """property -> part -> row, for one subject of a verification report."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.subject == subject and r.part in PARTS:
            out.setdefault(r.property, {})[r.part] = r
    return out


def _separation(pid: str, side: str, row: Any, variants: dict[str, Variant]) -> Separation | None:
    """The round of ``row`` (``side``'s violation of ``pid``) judged under both variants:
    the search's round under both variants at the sizes of the configuration it was
    found in (the search's plan), Z3's under both variants themselves."""
    if not row.replayable or row.trace is None:
        return None
    try:
        trace = Trace.from_json(row.trace)
    except TraceError:
        return None
    judged = {}
    for s in SIDES:
        other = (variants[s] if row.part != "search"
                 else at_sizes(variants[s], sizes_of(trace.variant)))
        judged[s] = judge_under(trace, other, pid)
    return Separation(side, row.part, trace, row.round, judged)


def _note(pid: str, a: dict[str, str], b: dict[str, str], rows: dict[str, dict[str, Any]],
          variants: dict[str, Variant]) -> str:
    """Why the verdicts differ, when no round separates them."""
    prop = BY_ID[pid]
    notes = []
    applies = {s: prop.applies_to(variants[s]) for s in SIDES}
    if applies["A"] != applies["B"]:
        only = "A" if applies["A"] else "B"
        notes.append(f"{pid} applies to {only} only ({prop.applies_doc})")
    for s, verdicts in (("A", a), ("B", b)):
        for part, verdict in verdicts.items():
            if verdict in ("NOT INDUCTIVE", "UNKNOWN", "ERROR"):
                r = rows[s][part]
                why = r.fails or r.detail.splitlines()[0] if (r.fails or r.detail) else ""
                notes.append(f"{s} {part}: {verdict}" + (f": {why}" if why else ""))
    return "; ".join(notes)


def _compare(report: Any, names: dict[str, str],
             variants: dict[str, Variant]) -> list[PropertyDiff]:
    per = {s: _verdicts(report.rows, names[s]) for s in SIDES}
    out = []
    for p in CATALOGUE:
        a = {part: r.verdict for part, r in per["A"].get(p.id, {}).items()}
        b = {part: r.verdict for part, r in per["B"].get(p.id, {}).items()}
        d = PropertyDiff(p.id, a, b)
        out.append(d)
        if not d.differs:
            continue
        for part in ("z3", "search"):  # the variant itself first, then its small analogue
            va, vb = a.get(part), b.get(part)
            if (va == VIOLATED) == (vb == VIOLATED):
                continue
            side = "A" if va == VIOLATED else "B"
            d.separating = _separation(p.id, side, per[side][p.id][part], variants)
            if d.separating is not None:
                break
        d.note = _note(p.id, a, b, {s: per[s].get(p.id, {}) for s in SIDES}, variants)
    return out


# ---------------------------------------------------------------------------
# 3. Statistics
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One statistic of a variant, with its 95% interval and where it comes from."""

    id: str
    label: str
    rules: tuple[str, ...]
    unit: str  #: "share" (a probability) or a count ("pips", "moves")
    value: float | None
    low: float | None
    high: float | None
    source: str  #: how it was measured

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)
        return {"id": self.id, "label": self.label, "rules": list(self.rules),
                "unit": self.unit, "value": r(self.value),
                "ci95": [r(self.low), r(self.high)], "source": self.source}


def gather_figures(variant: Variant, *, rounds: int, seed: int) -> list[Figure]:
    """Every statistic ``diff`` shows for one variant, each with its 95% interval.

    The one place these figures are gathered: today the Monte-Carlo figures of
    :func:`dominoproof.simulate.simulate` (``rounds`` uniformly random rounds from
    ``seed``): the block probability and the tie probability with Wilson intervals, the
    mean residual at a block and the mean length with normal intervals. Exact figures
    (and figures under play policies) belong here too, appended with their own ``source``
    and ids, so that the report shows them side by side without other changes."""
    st = simulate(variant, rounds, seed, top=0)
    how = f"Monte-Carlo: {rounds:,} uniformly random rounds, seed {seed}"
    n = st.rounds
    block_lo, block_hi = wilson(st.blocked, n)
    tie_lo, tie_hi = wilson(st.ties, n)
    res_lo, res_hi = st.residual_total.mean_ci() or (None, None)
    len_lo, len_hi = st.length.mean_ci() or (None, None)
    return [
        Figure("block", "block probability", ("R1.1", "R4.4"), "share",
               st.blocked / n if n else None, block_lo, block_hi, how),
        Figure("residual", "mean residual at a block, all hands (pips)", ("R5.3",), "pips",
               st.residual_total.mean, res_lo, res_hi, how),
        Figure("tie", "tie probability (a block tied for the lowest)", ("R5.5",), "share",
               st.ties / n if n else None, tie_lo, tie_hi, how),
        Figure("length", "mean length (moves, R4 confirmations included)", ("R4.2",),
               "moves", st.length.mean,
               len_lo, len_hi, how),
    ]


def _apart(a: Figure, b: Figure) -> bool:
    """The two 95% intervals do not overlap."""
    if None in (a.low, a.high, b.low, b.high):
        return False
    assert a.low is not None and a.high is not None and b.low is not None \
        and b.high is not None
    return a.high < b.low or b.high < a.low


# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------


@dataclass
class DiffReport:
    a: Variant
    b: Variant
    parameters: list[ParameterChange]
    properties: list[PropertyDiff]
    figures: dict[str, list[Figure]] | None = None  #: "A"/"B" -> figures; None: no stats
    rounds: int = 0
    seed: int = 0
    seconds: float = 0.0
    checks: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def differing(self) -> list[PropertyDiff]:
        return [p for p in self.properties if p.differs]

    @property
    def unsettled(self) -> list[str]:
        """The properties a check did not settle on either side (UNKNOWN: a budget ran
        out; ERROR): their verdicts being the same says nothing."""
        return [p.property for p in self.properties
                if {*p.a.values(), *p.b.values()} & {"UNKNOWN", "ERROR"}]

    @property
    def exit_code(self) -> int:
        """0 answered; 3 a check was not settled (a budget ran out), so the comparison is
        not complete."""
        return 3 if self.unsettled else 0

    def to_json(self) -> dict[str, Any]:
        def side(v: Variant) -> dict[str, Any]:
            return {"name": v.name, "source": v.source, "base": v.base or None}
        stats = None
        if self.figures is not None:
            stats = {"rounds": self.rounds, "seed": self.seed, "figures": [
                {"id": fa.id, "label": fa.label, "rules": list(fa.rules), "unit": fa.unit,
                 "source": fa.source, "a": fa.to_json(), "b": fb.to_json(),
                 "apart": _apart(fa, fb)}
                for fa, fb in zip(self.figures["A"], self.figures["B"], strict=True)]}
        return {"a": side(self.a), "b": side(self.b),
                "parameters": [c.to_json() for c in self.parameters],
                "properties": [p.to_json() for p in self.properties],
                "differing": [p.property for p in self.differing],
                "unsettled": self.unsettled, "exit_code": self.exit_code,
                "statistics": stats, "checks": self.checks,
                "seconds": round(self.seconds, 2), "notes": self.notes}


def diff(a: Variant, b: Variant, *, stats: bool = True, rounds: int = 10_000,
         seed: int = 0, z3_seed: int = DEFAULT_SEED, rlimit: int = DEFAULT_RLIMIT,
         timeout_ms: int = DEFAULT_TIMEOUT_MS, workers: int | None = None,
         progress: Callable[[str, list[Any]], None] | None = None,
         phase: Callable[[str], None] | None = None) -> DiffReport:
    """Compare ``a`` and ``b``: parameters, verdicts (with the separating rounds) and,
    with ``stats``, statistics from ``rounds`` random rounds of each (``seed``).
    ``progress`` hears of each variant checked, ``phase`` of each phase as it starts."""
    t0 = time.perf_counter()
    a, b = _distinct(a, b)
    variants = {"A": a, "B": b}
    same = a == b  # the same rules: the same checks give the same verdicts, run once
    say = phase or (lambda what: None)
    say(f"verifying {'A' if same else 'A and B'} with the checks of verify")
    report = verify([a] if same else [a, b], faults=False, seed=z3_seed,
                    timeout_ms=timeout_ms, crosscheck=0, workers=workers, rlimit=rlimit,
                    progress=progress)
    if same:
        report.rows += [dataclasses.replace(r, subject=b.name) for r in report.rows]
    props = _compare(report, {"A": a.name, "B": b.name}, variants)
    figures = None
    if stats:
        figures = {}
        for s in SIDES:
            say(f"statistics of {s} ({variants[s].name}): {rounds:,} rounds")
            figures[s] = gather_figures(variants[s], rounds=rounds, seed=seed)
    notes = []
    if same:
        notes.append("A and B have the same rules (every parameter equal): checked once")
    return DiffReport(a, b, parameter_changes(a, b), props, figures, rounds, seed,
                      time.perf_counter() - t0, len(report.rows), notes)


# ---------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------


def _cell(x: Any) -> str:
    return toml_value(x) if x is not None else "-"


def _value(f: Figure) -> str:
    return estimate_text(f.value, f.low, f.high, probability=f.unit == "share")


def render(r: DiffReport) -> str:
    """The report as text, :data:`~dominoproof.options.WIDTH` columns."""
    out = [f"diff  A: {r.a.name}   B: {r.b.name}"]
    for s, v in (("A", r.a), ("B", r.b)):
        base = f", base {v.base}" if v.base else ""
        out += _wrap(f"{s}: {v.name} ({v.source}{base})"
                     + (f": {v.description}" if v.description else ""), WIDTH,
                     initial_indent="  ", subsequent_indent="     ")
    out += [f"  note: {n}" for n in r.notes]
    total = len(r.a.parameters())
    out += ["", f"Parameters that differ: {len(r.parameters)} of {total}"]
    if r.parameters:
        t = simple_table()
        for col in ("parameter", "rule", "A", "B"):
            t.add_column(col, no_wrap=col in ("parameter", "rule"), overflow="fold",
                         max_width=None if col in ("parameter", "rule") else 22)
        t.add_column("meaning", ratio=1)
        for c in r.parameters:
            t.add_row(Text(c.key), Text(c.rule), Text(_cell(c.a)), Text(_cell(c.b)),
                      Text(c.meaning))
        out += indented(table_text(t), "  ")
    else:
        out.append("  none: the rules are the same")
    out.append("")
    out += _wrap(f"Verdicts that differ: {len(r.differing)} of {len(r.properties)} properties "
                 f"({r.checks} checks: the search on small configurations, Z3 per instance "
                 "and for every size)", WIDTH, subsequent_indent="  ")
    if r.differing:
        t = simple_table("property")
        t.add_column("rules", max_width=20)
        for part in PARTS:
            t.add_column(f"A {part}", no_wrap=True)
        for part in PARTS:
            t.add_column(f"B {part}", no_wrap=True)
        for d in r.differing:
            t.add_row(Text(d.property), Text(" ".join(d.rules)),
                      *[Text(d.a.get(p, "-")) for p in PARTS],
                      *[Text(d.b.get(p, "-")) for p in PARTS])
        out += indented(table_text(t), "  ")
    elif not r.unsettled:
        out.append("  none: every property has the same verdict under A and B")
    else:
        out.append("  none among the checks that settled")
    if r.unsettled:
        out += _wrap(f"Not compared: {len(r.unsettled)} properties ({', '.join(r.unsettled)})"
                     ": a check of A or B did not settle (UNKNOWN: a budget ran out, or "
                     "ERROR), so the same verdict says nothing; raise the budget (--rlimit, "
                     "--timeout-ms) to compare them", WIDTH, initial_indent="  ",
                     subsequent_indent="    ")
    for d in r.differing:
        out.append("")
        out += _wrap(f"{d.property} ({', '.join(d.rules)}): A "
                     f"{_verdict_text(d.a)}; B {_verdict_text(d.b)}", WIDTH,
                     initial_indent="  ", subsequent_indent="    ")
        if d.note:
            out += _wrap(d.note, WIDTH, initial_indent="    ", subsequent_indent="    ")
        sep = d.separating
        if sep is None:
            continue
        where = "its small configuration's search" if sep.part == "search" else "Z3"
        out += _wrap(f"the round that separates them: {sep.violated_in}'s "
                     f"counterexample (found by {where}), {len(sep.trace.moves)} "
                     "moves, judged under both variants:", WIDTH,
                     initial_indent="    ", subsequent_indent="    ")
        for s in SIDES:
            out += _wrap(f"under {s}: {sep.judged[s].text}", WIDTH,
                         initial_indent="      ", subsequent_indent="        ")
        out += indented(sep.round)
    if r.figures is not None:
        out += ["", f"Statistics, side by side with 95% intervals "
                f"({r.figures['A'][0].source if r.figures['A'] else ''})"]
        t = simple_table()
        t.add_column("figure", ratio=1)
        t.add_column("rules", max_width=9)
        for col in ("A", "B", ""):
            t.add_column(col, no_wrap=True)
        for fa, fb in zip(r.figures["A"], r.figures["B"], strict=True):
            t.add_row(Text(fa.label), Text(" ".join(fa.rules)), Text(_value(fa)),
                      Text(_value(fb)), Text("apart" if _apart(fa, fb) else ""))
        out += indented(table_text(t), "  ")
        out.append("  apart: the two 95% intervals do not overlap")
    out += ["", f"answered in {r.seconds:.1f} s"]
    return "\n".join(out) + "\n"


def _verdict_text(v: dict[str, str]) -> str:
    return ", ".join(f"{part} {verdict}" for part, verdict in v.items()) or "not checked"
