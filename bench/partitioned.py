"""The partitioned search: one configuration's states spread over every core by hash.

:func:`~dominoproof.proofs.search.statespace.explore` walks one configuration in one
process and keeps the whole graph (for traces, path counts, cycles, pictures).
:func:`verify_partitioned` answers the catalogue's *local* properties -- those a
single state or a single transition decides -- on one configuration with
``workers`` processes and no graph. (This is not
:mod:`dominoproof.proofs.search.by_deal`, which gives each process its own deals.)

* Each state is owned by one worker, chosen by the hash of its packed record
  (:meth:`~dominoproof.proofs.search.codec.Codec.pack`, the bytes whose integer is
  the search's code). A worker keeps the exact set of the records it owns (no hash
  compaction) and expands its share of each BFS level.
  A successor owned by another worker is sent to it as a code at the end of the
  level; the owner deduplicates it and expands it at the next level. The search
  is level-synchronous, so it is a breadth-first search split by state, and every
  state is counted once, by its owner.
* The :class:`~dominoproof.proofs.search.judge.Judge` (the one judge, as the graph
  search's) runs on every state a worker discovers and every transition it takes.
* A property that fails is searched again with :func:`explore` (one process,
  with its BFS tree) to report the shortest counterexample as a replayable trace.
  Properties that need the whole graph (``blocked-complete``: bounded paths;
  ``termination``: cycles and the longest round) are not decided here: UNKNOWN,
  with the reason.
* Budgets (``max_states``, ``max_seconds``) are checked between levels; a
  stopped search is partial and its verdicts UNKNOWN.

Workers are forked (``multiprocessing``'s fork context), so they share the
parent's imported modules and the rule book's class; only codes and counts
cross between processes.
"""

from __future__ import annotations

import gc
import itertools
import multiprocessing as mp
import os
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import system_under_test
from dominoproof.model.outcome import Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, init_states, spec_for
from dominoproof.model.state import Ending, State, Status
from dominoproof.model.variant import Variant
from dominoproof.proofs.properties import Property, Result, Verdict
from dominoproof.proofs.search.check import blocked_sound_detail, partial_detail, selected
from dominoproof.proofs.search.codec import Codec
from dominoproof.proofs.search.coverage import METHOD
from dominoproof.proofs.search.judge import Findings, Judge
from dominoproof.proofs.search.result import (
    Figures,
    kind_code,
    kind_label,
    over_kind,
    peak_rss_mb,
)
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties, unjudged
from dominoproof.proofs.z3.scoring import score_reader

__all__ = ["GLOBAL", "PartitionedFigures", "verify_partitioned"]

#: properties a partitioned search cannot decide: they need paths through the graph
GLOBAL = frozenset({"blocked-complete", "termination"})


@dataclass
class PartitionedFigures(Figures):
    """What a partitioned run measured: the figures of the one-process search, less
    what needs the graph (complete rounds, longest rounds, acyclicity: ``None``), plus
    how the states and the memory were shared among the workers. ``seconds`` is the
    run's wall time, ``peak_rss_mb`` the largest worker's and ``visited_mb`` the
    estimated size of the workers' sets of codes (there is no graph)."""

    per_worker_states: list[int] = field(default_factory=list)
    total_rss_mb: float = 0.0  #: the workers' peak resident memories, summed


@dataclass(frozen=True)
class _Done:
    """What a worker reports when the search stops."""

    deals: int  #: initial states it owns
    states: int  #: states it owns (its visited set)
    expanded: int  #: of them, those whose successors it generated
    transitions: int
    terminals: dict[str, int]  #: by kind, as the graph search counts them
    shortest: dict[str, int]  #: by kind, the BFS level where it was first met
    found: dict[str, str]  #: the first failure of each property
    counts: dict[str, int]
    peak_rss_mb: float
    visited_bytes: int  #: estimated size of its sets of codes


_MIX = 0x9E3779B97F4A7C15  # Fibonacci hashing: codes' low bits are far from uniform


def _owner(code: bytes, workers: int) -> int:
    """The worker that owns the state with this code."""
    return (hash(code) * _MIX >> 32) % workers


def _set_bytes(codes: set[bytes]) -> int:
    """An estimate of the memory a set of codes takes: its table and, from a sample,
    its bytes objects."""
    sample = list(itertools.islice(codes, 1000))
    each = sum(map(sys.getsizeof, sample)) / len(sample) if sample else 0.0
    return int(codes.__sizeof__() + each * len(codes))


def _worker(w: int, workers: int, variant: Variant, init: Init, engine: type[RuleBook] | None,
            scorer: Scorer | None, wanted: set[str], inboxes: list[Any], control: Any,
            report: Any) -> None:  # pragma: no cover - runs in a forked process
    try:
        gc.disable()  # states are tuples of ints: no cycles to collect
        rules = system_under_test(variant, engine)
        codec = Codec(variant, init.deal.stack if init.deal is not None and not init.free_draw
                      else None)
        encode, decode = codec.pack, codec.unpack  # packed records: bytes cache their hash
        moves_of, step = rules.moves, rules.step
        playing = Status.PLAYING
        local = Findings(wanted)
        judge = Judge(local, variant, spec_for(variant), scorer or outcome, score_reader)
        transitions_checked = bool(judge.transition_ids)
        visited: set[bytes] = set()
        sent: set[bytes] = set()  # codes already sent to their owners: sent once only
        # by kind, as the graph search counts them (result.kind_label): a round over
        # when discovered, a stuck round (still being played, no move) when expanded;
        # and the shortest round to each kind, the BFS level where it was first met
        terminals: dict[str, int] = {}
        shortest: dict[str, int] = {}
        stuck = kind_label(kind_code(Ending.STUCK))
        transitions = 0
        level = 0  # the BFS level of the states being discovered

        def count_end(label: str, depth: int) -> None:
            terminals[label] = terminals.get(label, 0) + 1
            if depth < shortest.get(label, depth + 1):
                shortest[label] = depth

        every_state = bool(Judge.EVERY_STATE & wanted)
        frontier_next: list[State] = []

        def discover_checks(c: bytes, s: State) -> None:
            judge.state(c, s)
            if s.status is not playing:
                count_end(kind_label(over_kind(s)), level)

        def discover(c: bytes, s: State) -> None:
            visited.add(c)
            frontier_next.append(s)
            if s.status is not playing or every_state:
                discover_checks(c, s)

        for s in init_states(variant, init, rules):
            c = encode(s)
            if _owner(c, workers) == w and c not in visited:
                discover(c, s)
        deals = len(visited)
        while True:
            report.put(("level", w, len(frontier_next), len(visited)))
            if control.get() == "stop":
                break
            frontier, frontier_next = frontier_next, []
            level += 1
            out: list[list[bytes]] = [[] for _ in range(workers)]
            for s in frontier:
                if s.status is not playing:
                    continue
                ms = moves_of(s)
                if not ms:
                    count_end(stuck, level - 1)
                    local.fail("termination", None, "a round still being played where no "
                               "move is enabled: it can never end")
                for m in ms:
                    t = step(s, m)
                    c = encode(t)
                    transitions += 1
                    if transitions_checked:
                        judge.transition(None, s, m, c, t)
                    o = (hash(c) * _MIX >> 32) % workers  # _owner, inlined
                    if o == w:
                        if c not in visited:
                            visited.add(c)  # discover(c, t), inlined
                            frontier_next.append(t)
                            if t.status is not playing or every_state:
                                discover_checks(c, t)
                    elif c not in sent:
                        sent.add(c)
                        out[o].append(c)
            for o in range(workers):
                if o != w:
                    inboxes[o].put(out[o])
            for _ in range(workers - 1):
                for c in inboxes[w].get():
                    if c not in visited:
                        discover(c, decode(c))
        report.put(("done", w, _Done(
            deals, len(visited), len(visited) - len(frontier_next), transitions, terminals,
            shortest, {k: f.why for k, f in local.found.items()}, local.counts, peak_rss_mb(),
            _set_bytes(visited) + _set_bytes(sent))))
    except BaseException:
        report.put(("error", w, traceback.format_exc()))


def verify_partitioned(variant: Variant, init: Init,
                       properties: Iterable[str | Property] | None = None, *,
                       engine: type[RuleBook] | None = None, scorer: Scorer | None = None,
                       workers: int | None = None, max_states: int | None = None,
                       max_seconds: float | None = None,
                       ) -> tuple[PartitionedFigures, list[Result]]:
    """The local properties of the catalogue on ``init``, searched by ``workers``
    processes (default: the machine's cores). See the module docstring."""
    chosen = selected(properties)
    applies = {p.id: p.applies_to(variant) for p in chosen}
    wanted = {p.id for p in chosen if applies[p.id]}
    cannot = unjudged(variant, wanted)
    wanted -= set(cannot)
    workers = max(1, workers or os.cpu_count() or 1)
    ctx = mp.get_context("fork")
    inboxes = [ctx.Queue() for _ in range(workers)]
    controls = [ctx.Queue() for _ in range(workers)]
    report = ctx.Queue()
    start = time.perf_counter()
    deadline = start + max_seconds if max_seconds is not None else None
    procs = [ctx.Process(target=_worker, args=(w, workers, variant, init, engine, scorer,
                                               wanted, inboxes, controls[w], report),
                         daemon=True) for w in range(workers)]
    for p in procs:
        p.start()
    levels = 0
    stop = ""
    done: dict[int, _Done] = {}
    try:
        while True:
            frontier = visited = 0
            for _ in range(workers):
                msg = report.get()
                if msg[0] == "error":
                    raise DominoproofError(f"search worker {msg[1]} failed:\n{msg[2]}")
                frontier += msg[2]
                visited += msg[3]
            if frontier == 0:
                verdict = "stop"
            elif max_states is not None and visited >= max_states:
                stop, verdict = f"state budget of {max_states:,} states reached", "stop"
            elif deadline is not None and time.perf_counter() > deadline:
                stop, verdict = f"time budget of {max_seconds:g} s reached", "stop"
            else:
                verdict = "go"
                levels += 1
            for q in controls:
                q.put(verdict)
            if verdict == "stop":
                break
        while len(done) < workers:
            msg = report.get()
            if msg[0] == "error":
                raise DominoproofError(f"search worker {msg[1]} failed:\n{msg[2]}")
            done[msg[1]] = msg[2]
    finally:
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():  # pragma: no cover - only after an error
                p.terminate()
    seconds = time.perf_counter() - start
    parts = [done[w] for w in range(workers)]
    terminals: dict[str, int] = {}
    shortest: dict[str, int] = {}
    found: dict[str, str] = {}
    counts: dict[str, int] = {}
    for d in parts:
        for k, n in d.terminals.items():
            terminals[k] = terminals.get(k, 0) + n
        for k, n in d.shortest.items():
            shortest[k] = min(shortest.get(k, n), n)
        for k, why in d.found.items():
            found.setdefault(k, why)
        for k, n in d.counts.items():
            counts[k] = counts.get(k, 0) + n
    figures = PartitionedFigures(
        configuration=f"{variant.name}: {init.describe()}", complete=not stop,
        stop_reason=stop, deals=sum(d.deals for d in parts),
        states=sum(d.states for d in parts), expanded=sum(d.expanded for d in parts),
        transitions=sum(d.transitions for d in parts),
        terminals=dict(sorted(terminals.items())), sequences=None,
        shortest=dict(sorted(shortest.items())), longest=None,
        # the last level expanded discovers nothing when the search completes
        depth=max(levels - 1, 0) if not stop else levels, acyclic=None, seconds=seconds,
        peak_rss_mb=max(d.peak_rss_mb for d in parts),
        visited_mb=sum(d.visited_bytes for d in parts) / 2**20, workers=workers,
        total_rss_mb=sum(d.peak_rss_mb for d in parts),
        per_worker_states=[d.states for d in parts])
    out = _results(variant, init, chosen, applies, found, counts, figures, engine, scorer,
                   max_states, max_seconds)
    for res in out:
        if res.property in cannot:
            res.verdict, res.detail = Verdict.UNKNOWN, cannot[res.property]
    return figures, out


def _results(variant: Variant, init: Init, chosen: list[Property], applies: dict[str, bool],
             found: dict[str, str], counts: dict[str, int], f: PartitionedFigures,
             engine: type[RuleBook] | None, scorer: Scorer | None, max_states: int | None,
             max_seconds: float | None) -> list[Result]:
    method = f"{METHOD}, partitioned over {f.workers} processes"
    out: list[Result] = []
    failing = [p.id for p in chosen if p.id in found and p.id not in GLOBAL]
    traces: dict[str, Result] = {}
    if failing:  # the shortest counterexample, from the one-process search and its BFS tree
        # (within the run's budgets: a search cut short may not reach it, and the
        # worker's finding then stands without a trace)
        r = explore(variant, init, rules=system_under_test(variant, engine), scorer=scorer,
                    max_states=max_states, max_seconds=max_seconds)
        traces = {res.property: res for res in check_properties(r, failing)
                  if res.verdict is Verdict.VIOLATED}
    for p in chosen:
        res = Result(p.id, Verdict.NOT_APPLICABLE, method, f.configuration, states=f.states,
                     seconds=f.seconds)
        out.append(res)
        if not applies[p.id]:
            res.detail = p.not_applicable()
        elif p.id in GLOBAL:
            res.verdict = Verdict.UNKNOWN
            res.detail = ("needs paths through the whole graph (bounded walks, cycles, the "
                          "longest round): run the one-process search")
            if p.id in found:
                res.verdict = Verdict.VIOLATED
                res.detail = found[p.id]
        elif p.id in found:
            res.verdict = Verdict.VIOLATED
            one = traces.get(p.id)
            res.detail = one.detail if one is not None else found[p.id]
            res.trace = one.trace if one is not None else None
        elif f.complete:
            res.verdict = Verdict.HOLDS
            if p.id == "blocked-sound":
                res.detail = blocked_sound_detail(counts, f.terminals, f"{f.states:,} states")
            else:
                res.detail = f"{f.states:,} states, {f.transitions:,} transitions"
        else:
            res.verdict = Verdict.UNKNOWN
            res.detail = partial_detail(f.stop_reason, f.states)
        res.stats.update({"workers": f.workers})
    return out
