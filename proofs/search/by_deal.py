"""The search over every deal by parts: each part of the deals explored on its own.

Every deal is an independent search, so a configuration of every deal splits
cleanly: :func:`explore_by_deal` cuts the deals into parts
(:meth:`~dominoproof.model.spec.Init.shard`: by the set-aside tiles when there
are any, so the parts reach disjoint states, else by the first hand), runs the
one-process search (:func:`~dominoproof.proofs.search.statespace.explore`) on each part
in a process pool, and merges the figures, counting states that two parts both
reached once (an exact map-reduce over code buckets written to files).

A part (:class:`Part`) is a pure, picklable description -- the variant, the
initial states of the part, the rule book's class, the budgets, where to write
its buckets and what to check on its graph -- so it is the unit a cluster engine
takes over: :meth:`Part.run` is all a node has to do. Where the parts and the
merge run is a :class:`~dominoproof.proofs.runner.Runner`: this process, a
local process pool (the default), or a Dask cluster (docs/CLUSTER.md). A part
writes its buckets into one file of the scratch folder, replaced whole, so a
part run again (its worker died) leaves the same file and nothing is counted
twice; on a cluster of several machines the scratch folder must be shared.

This is not :mod:`dominoproof.bench.partitioned`, which spreads the
states of *one* configuration (one deal, say) over every core by hash.
"""

from __future__ import annotations

import operator
import os
import struct
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from dominoproof.model.fast import system_under_test
from dominoproof.model.outcome import Scorer
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.runner import LocalPool, Runner
from dominoproof.proofs.search import statespace  # explore read at each call: patchable
from dominoproof.proofs.search.result import (
    Figures,
    SearchResult,
    kind_code,
    kind_label,
    peak_rss_mb,
)

__all__ = ["Part", "PartSummary", "explore_by_deal"]

R = TypeVar("R")


@dataclass(frozen=True)
class PartSummary:
    """What a part sends back for the exact merge: its figures, and its visited codes
    written into one file, in ``buckets`` sections (one per reducer, by code modulo the
    bucket count; section ``b`` is ``bounds[b]:bounds[b + 1]``), each record the code,
    the state's out-degree and its kind."""

    figures: Figures
    file: str
    bounds: tuple[int, ...]
    width: int

    def section(self, b: int) -> tuple[str, int, int]:
        """Where bucket ``b`` of this part lies: (file, start, end)."""
        return self.file, self.bounds[b], self.bounds[b + 1]


_REC = struct.Struct("<IB")  # out-degree, kind (result.kind_code), or:
_UNEXPANDED = 128  # the kind of a state the part discovered but did not expand


def write_buckets(r: SearchResult, directory: str, name: str, buckets: int) -> PartSummary:
    """Write ``r``'s visited codes into ``buckets`` files under ``directory``."""
    width = r.codec.width(r.variant.boneyard_size)
    outs: list[list[bytes]] = [[] for _ in range(buckets)]
    ptr = r.edge_ptr
    n = r.expanded
    for i, c in enumerate(r.codes):
        rec = (_REC.pack(ptr[i + 1] - ptr[i], r.kind[i]) if i < n
               else _REC.pack(0, _UNEXPANDED))
        outs[c % buckets].append(c.to_bytes(width, "little") + rec)
    bounds = [0]
    chunks = []
    for recs in outs:
        chunk = b"".join(recs)
        chunks.append(chunk)
        bounds.append(bounds[-1] + len(chunk))
    path = Path(directory) / f"{name}.bin"
    # written under another name, then renamed: a reader never sees half a file, and a
    # part run twice (its first worker died, or was presumed dead) leaves one whole file
    partial = path.with_name(f"{path.name}.{os.getpid()}.{time.monotonic_ns()}.partial")
    with open(partial, "wb") as out:
        for chunk in chunks:
            out.write(chunk)
    os.replace(partial, path)
    return PartSummary(r.figures, str(path), tuple(bounds), width)


def _read(section: tuple[str, int, int]) -> bytes:
    file, start, end = section
    with open(file, "rb") as f:
        f.seek(start)
        return f.read(end - start)


def reduce_bucket(args: tuple[tuple[tuple[str, int, int], ...], int]
                  ) -> tuple[int, int, int, dict[str, int]]:
    """Merge one bucket of every part (its sections: file, start, end): (distinct
    states, of them expanded, transitions, terminal states by kind). A state two parts
    both reached counts once."""
    sections, width = args
    seen: dict[bytes, tuple[int, int]] = {}
    step = width + _REC.size
    for section in sections:
        data = _read(section)
        for o in range(0, len(data), step):
            code = data[o:o + width]
            deg, k = _REC.unpack_from(data, o + width)
            old = seen.get(code)
            if old is None or old[1] == _UNEXPANDED:
                seen[code] = (deg, k)
    expanded = transitions = 0
    terminals: dict[str, int] = {}
    being_played = kind_code(None)
    for deg, k in seen.values():
        if k == _UNEXPANDED:
            continue
        expanded += 1
        transitions += deg
        if k != being_played:
            label = kind_label(k)
            terminals[label] = terminals.get(label, 0) + 1
    return len(seen), expanded, transitions, terminals


def merge_figures(parts: Sequence[Figures], merged: Sequence[tuple[int, int, int,
                                                                   dict[str, int]]],
                  configuration: str, workers: int, seconds: float) -> Figures:
    """The figures of the whole configuration from its parts and the bucket merge.

    Sums of paths and extremes of round lengths combine exactly (every round starts
    at one deal, in one part); distinct states, transitions and terminal states come
    from the merge."""
    complete = all(f.complete for f in parts)
    acyclic = (None if not complete else all(f.acyclic for f in parts))
    stops = sorted({f.stop_reason for f in parts if f.stop_reason})
    terminals = _per_kind([t for _, _, _, t in merged], operator.add)
    shortest = _per_kind([f.shortest for f in parts], min)
    assert terminals is not None and shortest is not None
    return Figures(
        configuration=configuration, complete=complete, stop_reason="; ".join(stops),
        deals=sum(f.deals for f in parts), states=sum(m[0] for m in merged),
        expanded=sum(m[1] for m in merged), transitions=sum(m[2] for m in merged),
        terminals=terminals, shortest=shortest,
        sequences=_per_kind([f.sequences for f in parts], operator.add) if complete else None,
        longest=_per_kind([f.longest for f in parts], max) if complete else None,
        depth=max((f.depth for f in parts), default=0), acyclic=acyclic,
        seconds=sum(f.seconds for f in parts), wall_seconds=seconds,
        peak_rss_mb=max([peak_rss_mb(), *(f.peak_rss_mb for f in parts)]),
        visited_mb=sum(f.visited_mb for f in parts), workers=workers, parts=len(parts),
        states_in_parts=sum(f.states for f in parts))


def _per_kind(figures: Sequence[dict[str, int] | None],
              combine: Callable[[int, int], int]) -> dict[str, int] | None:
    """The parts' figures per kind of end combined (sums, least or greatest), sorted by
    kind; None where some part cannot say."""
    out: dict[str, int] = {}
    for got in figures:
        if got is None:
            return None
        for k, v in got.items():
            out[k] = combine(out[k], v) if k in out else v
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Part(Generic[R]):
    """One part of a search by deal: everything a worker (or a cluster node) needs.

    ``check`` (picklable: a module-level function or an instance of a module-level
    class) runs on the part's explored graph, in the worker, and its result travels
    back with the part's summary."""

    variant: Variant
    init: Init
    engine: type[RuleBook] | None = None
    scorer: Scorer | None = None
    max_states: int | None = None
    max_seconds: float | None = None
    directory: str = ""
    buckets: int = 1
    check: Callable[[SearchResult], R] | None = None

    def explore(self) -> SearchResult:
        return statespace.explore(self.variant, self.init,
                                  rules=system_under_test(self.variant, self.engine),
                                  scorer=self.scorer, max_states=self.max_states,
                                  max_seconds=self.max_seconds)

    def run(self) -> tuple[PartSummary, R | None]:
        """Explore the part, run ``check`` on its graph, and write its buckets (the one
        place they are written): the part's summary and the check's result."""
        r = self.explore()
        got = self.check(r) if self.check is not None else None
        return write_buckets(r, self.directory, f"part{self.init.part[0]}", self.buckets), got


def _parts_wanted(n: int, only: Sequence[int] | None) -> list[int]:
    if only is None:
        return list(range(n))
    wanted = sorted(set(only))
    if not wanted or wanted[0] < 0 or wanted[-1] >= n:
        raise ValueError(f"only: part numbers between 0 and {n - 1}, not {list(only)!r}")
    return wanted


def explore_by_deal(variant: Variant, init: Init, *, engine: type[RuleBook] | None = None,
                    scorer: Scorer | None = None, max_states: int | None = None,
                    max_seconds: float | None = None, workers: int | None = None,
                    parts: int | None = None,
                    check: Callable[[SearchResult], R] | None = None,
                    runner: Runner | None = None, scratch: str | None = None,
                    only: Sequence[int] | None = None,
                    on_part: Callable[[int, int], None] | None = None,
                    ) -> tuple[Figures, list[R | None]]:
    """Every deal of ``init``, split into ``parts`` (default: one per worker) explored on
    ``runner`` (default: a local process pool of ``workers``, the machine's cores).

    ``check(result)`` runs in the worker on each part's explored graph (the property
    verdicts, :mod:`dominoproof.proofs.search.judge`); without it the parts are only
    explored. ``max_states`` is shared out among the parts. Returns the merged figures
    (exact distinct counts) and the checks' results, in part order (``None`` without a
    check). The figures and the checks' results depend on the parts, never on where
    they ran.

    ``scratch``: the folder of the parts' bucket files (default: a temporary folder of
    this machine; on a cluster of several machines, a folder they all share). The exact
    merge has a reducer per part run. ``only``: run these parts of the ``parts`` alone
    (a measured slice; the figures are the slice's). ``on_part(done, total)`` is called
    as each part is done.
    """
    if init.deal is not None:
        raise ValueError("explore_by_deal splits every deal; use explore for one deal")
    own = runner is None
    if runner is not None:
        workers = runner.workers
    elif workers is None:
        workers = os.cpu_count() or 1
    n = parts if parts is not None else workers
    if n < 1 or workers < 1:  # zero is not "the default": there is no part to run
        raise ValueError(f"parts and workers must be positive, not {n} and {workers}")
    wanted = _parts_wanted(n, only)
    b = len(wanted)
    per_part = -(-max_states // n) if max_states is not None else None
    start = time.perf_counter()
    pool = runner if runner is not None else LocalPool(workers)
    try:
        with tempfile.TemporaryDirectory(prefix="dominoproof-", dir=scratch) as tmp:
            work = [Part(variant, init.shard(i, n), engine, scorer, per_part, max_seconds,
                         tmp, b, check) for i in wanted]
            done = pool.map(Part.run, work, done=_counting(on_part, len(work)))
            summaries = [d[0] for d in done]
            width = max(s.width for s in summaries)
            if any(s.width != width for s in summaries):  # pragma: no cover - same variant
                raise AssertionError("parts disagree on the code width")
            merged = pool.map(reduce_bucket, [(tuple(s.section(k) for s in summaries), width)
                                              for k in range(b)])
    finally:
        if own:
            pool.close()
    figures = merge_figures([s.figures for s in summaries], merged,
                            f"{variant.name}: {init.describe()}", pool.workers,
                            time.perf_counter() - start)
    return figures, [d[1] for d in done]


def _counting(on_part: Callable[[int, int], None] | None,
              total: int) -> Callable[[int, object], None] | None:
    if on_part is None:
        return None
    finished = [0]

    def done(_: int, __: object) -> None:
        finished[0] += 1
        on_part(finished[0], total)

    return done
