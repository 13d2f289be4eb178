"""verify: explore a configuration (by deal in parts where there are many), check, merge.

:func:`verify` is the one call the CLI makes for a search: explore (in a process pool,
or on a cluster, by deal when there are many deals), check the catalogue on each part's
graph where it was explored (:func:`~dominoproof.proofs.search.check.check_properties`),
and merge, returning the figures and the verdicts (:class:`Verification`).

Here the terminal properties are judged against the declarative reading of R5, a Z3
encoding (:func:`~dominoproof.proofs.z3.scoring.score_reader`): :func:`check_properties`
and :func:`unjudged` are :mod:`.check`'s with that reader, for whoever judges them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from dominoproof.model.fast import system_under_test
from dominoproof.model.outcome import Scorer
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.properties import Property, Result, Verdict
from dominoproof.proofs.runner import Runner
from dominoproof.proofs.search import (
    check,
    statespace,  # explore read at each call: patchable
)
from dominoproof.proofs.search.by_deal import explore_by_deal
from dominoproof.proofs.search.check import checked_verdict, partial_detail, selected
from dominoproof.proofs.search.coverage import Coverage, of_init
from dominoproof.proofs.search.result import Figures, SearchResult
from dominoproof.proofs.z3.scoring import score_reader

__all__ = ["Verification", "check_properties", "unjudged", "verify"]

check_properties = partial(check.check_properties, reader=score_reader)
unjudged = partial(check.unjudged, reader=score_reader)


@dataclass
class Verification:
    """Figures and verdicts of one configuration."""

    figures: Figures
    results: list[Result]
    result: SearchResult | None = None  #: the explored graph (one-process runs only)
    check_seconds: float = 0.0  #: checking the properties (summed over the parts)
    coverage: Coverage | None = None  #: every deal, or sampled and how many

    @property
    def verdict(self) -> Verdict:
        """VIOLATED if any property is, else UNKNOWN if any is, else HOLDS."""
        got = {r.verdict for r in self.results}
        for v in (Verdict.VIOLATED, Verdict.UNKNOWN):
            if v in got:
                return v
        return Verdict.HOLDS

    def to_json(self) -> dict[str, Any]:
        return {"figures": self.figures.to_json(), "check_seconds": round(self.check_seconds, 3),
                "coverage": self.coverage.to_json() if self.coverage is not None else None,
                "results": [r.to_json() for r in self.results]}


def _merge_results(per_part: Sequence[list[Result]], figures: Figures) -> list[Result]:
    """One result per property from the parts' results: a counterexample of any part
    (the shortest), else UNKNOWN if any part was cut short, else the parts' verdict."""
    out = []
    for column in zip(*per_part, strict=True):
        found = {checked_verdict(r) for r in column}
        violated = [r for r in column if checked_verdict(r) is Verdict.VIOLATED]
        if violated:
            merged = min(violated, key=lambda r: len(r.trace.moves) if r.trace else 0)
        else:
            merged = column[0]
            stats: dict[str, Any] = {}
            for r in column:
                for k, n in r.stats.items():
                    stats[k] = stats.get(k, 0) + n if isinstance(n, int) else n
            merged.stats = stats
            if Verdict.UNKNOWN in found:
                merged.detail = partial_detail(figures.stop_reason, figures.states)
                if merged.verdict is not Verdict.NOT_APPLICABLE:
                    merged.verdict = Verdict.UNKNOWN
                else:
                    merged.stats["checked anyway"] = Verdict.UNKNOWN.value
            elif Verdict.HOLDS in found:
                merged.detail = (f"holds in each of the {len(column)} parts of the deals; "
                                 f"{figures.states:,} distinct states, "
                                 f"{figures.transitions:,} transitions in all")
        merged.configuration = figures.configuration
        merged.states = figures.states
        out.append(merged)
    return out


def verify(variant: Variant, init: Init, *, engine: type[RuleBook] | None = None,
           scorer: Scorer | None = None,
           properties: Iterable[str | Property] | None = None,
           max_states: int | None = None, max_seconds: float | None = None,
           workers: int = 1, inapplicable: bool = False, how: str | None = None,
           runner: Runner | None = None, parts: int | None = None, scratch: str | None = None,
           on_part: Callable[[int, int], None] | None = None) -> Verification:
    """Explore ``init`` under ``engine`` (default: the variant's rules) and check the
    catalogue: in this process, or, for every deal with ``workers > 1`` or a ``runner``
    (a cluster: :mod:`dominoproof.proofs.runner`), by deal in ``parts`` (default: one
    per worker) with the figures merged exactly (``on_part(done, total)`` as each part
    is done). Each result's method says which deals were searched: exhaustive over
    every deal, else sampled and how many (``how``: how the one deal was chosen, e.g.
    "the deal of seed 0")."""
    ver = _verify(variant, init, engine, scorer, properties, max_states, max_seconds,
                  workers, inapplicable, _ByParts(runner, parts, scratch, on_part))
    ver.coverage = of_init(variant, init, how)
    for r in ver.results:
        r.method = ver.coverage.method()
    return ver


@dataclass(frozen=True)
class _ByParts:
    """How a search by deal is split and where its parts run."""

    runner: Runner | None = None
    parts: int | None = None
    scratch: str | None = None
    on_part: Callable[[int, int], None] | None = None


def _verify(variant: Variant, init: Init, engine: type[RuleBook] | None, scorer: Scorer | None,
            properties: Iterable[str | Property] | None, max_states: int | None,
            max_seconds: float | None, workers: int, inapplicable: bool,
            by: _ByParts) -> Verification:
    ids = tuple(p.id for p in selected(properties)) if properties is not None else None
    if init.deal is None and (workers > 1 or by.runner is not None or by.parts is not None):
        n = by.parts if by.parts is not None else (
            by.runner.workers if by.runner is not None else workers)
        figures, got = explore_by_deal(
            variant, init, engine=engine, scorer=scorer, max_states=max_states,
            max_seconds=max_seconds, workers=workers, parts=n,
            # the check of each part's graph, in the worker that explored it (picklable)
            check=partial(check_properties, properties=ids, inapplicable=inapplicable),
            runner=by.runner, scratch=by.scratch, on_part=by.on_part)
        per_part = cast("list[list[Result]]", got)  # the check ran on every part
        spent = sum(part[0].seconds for part in per_part if part)
        return Verification(figures, _merge_results(per_part, figures), None, spent)
    r = statespace.explore(variant, init, rules=system_under_test(variant, engine),
                           scorer=scorer, max_states=max_states, max_seconds=max_seconds)
    results = check_properties(r, ids, inapplicable=inapplicable)
    return Verification(r.figures, results, r, results[0].seconds if results else 0.0)

