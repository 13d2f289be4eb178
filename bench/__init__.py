"""Measuring things side by side: the library behind ``dominoproof bench``.

A benchmark compares workloads (ours and a peer's) *in the same process and the
same run*, so that whatever the machine is doing hits both sides alike:

1. each :class:`Workload` is calibrated once: the batch size ``n`` that takes
   about ``seconds`` (:func:`calibrate`);
2. the timed samples are interleaved, A B C / C B A / A B C ..., one batch per
   workload per repetition (:func:`interleave`); ``gc.collect()`` runs before
   every sample, the garbage collector stays on while timing (as in real use);
3. a rate is the median of the samples (:attr:`Series.median`), and a ratio is
   the median of the per-repetition ratios (:func:`paired_ratio`): each ratio
   compares two samples taken moments apart;
4. memory is measured apart from time, because tracing slows everything down:
   :func:`traced_peak` runs units one at a time under :mod:`tracemalloc` and
   reports the peak of Python allocations during one unit, above the level
   before it, and what the batch left allocated.

Nothing here asserts a duration; benchmarks print figures and ratios.
"""

from __future__ import annotations

import array
import gc
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: A workload's body: do ``n`` units of work (rounds), return a secondary count (moves).
Runner = Callable[[int], int]

_MAX_BATCH = 1 << 24


@dataclass(frozen=True)
class Workload:
    """Something to time: ``run(n)`` does ``n`` units (e.g. rounds) of work and returns
    how many steps (e.g. moves) they took, so a report can show steps per unit."""

    name: str
    run: Runner
    side: str = "ours"  #: "ours" or "peer"
    description: str = ""
    unit: str = "rounds"
    step: str = "moves"


@dataclass(frozen=True)
class Sample:
    """One timed batch."""

    units: int
    steps: int
    seconds: float

    @property
    def rate(self) -> float:
        """Units per second (``inf`` if the clock did not advance)."""
        return self.units / self.seconds if self.seconds > 0 else float("inf")


@dataclass
class Series:
    """The samples of one workload, in the order they were taken."""

    workload: Workload
    batch: int = 0
    samples: list[Sample] = field(default_factory=list)

    @property
    def rates(self) -> list[float]:
        return [s.rate for s in self.samples]

    @property
    def median(self) -> float:
        """The median rate (units per second)."""
        return statistics.median(self.rates)

    @property
    def low(self) -> float:
        return min(self.rates)

    @property
    def high(self) -> float:
        return max(self.rates)

    @property
    def spread(self) -> float:
        """(max - min) / median of the rates: 0.05 means the samples lie within 5%."""
        med = self.median
        return (self.high - self.low) / med if med else 0.0

    @property
    def steps_per_unit(self) -> float:
        units = sum(s.units for s in self.samples)
        return sum(s.steps for s in self.samples) / units if units else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.workload.name,
            "side": self.workload.side,
            "description": self.workload.description,
            "unit": self.workload.unit,
            "batch": self.batch,
            "median_per_s": self.median,
            "min_per_s": self.low,
            "max_per_s": self.high,
            "spread": self.spread,
            f"{self.workload.step}_per_{self.workload.unit[:-1] or 'unit'}": self.steps_per_unit,
            "samples_per_s": self.rates,
        }


def time_batch(run: Runner, n: int, clock: Callable[[], float] = time.perf_counter,
               collect: bool = True) -> Sample:
    """Time one call ``run(n)``, after a ``gc.collect()`` (unless ``collect`` is false)
    so that garbage left by whatever ran before is not billed to this batch."""
    if collect:
        gc.collect()
    t0 = clock()
    steps = run(n)
    return Sample(n, steps, clock() - t0)


def calibrate(run: Runner, seconds: float, clock: Callable[[], float] = time.perf_counter,
              start: int = 1) -> int:
    """The batch size whose call takes about ``seconds`` (at least 1).

    Doubles ``n`` until a call takes a tenth of the budget or more, then scales;
    the calls made here also warm the workload up (caches, imports, JIT-free
    interpreters' inline caches) before any timed sample.
    """
    n = max(1, start)
    while True:
        sample = time_batch(run, n, clock, collect=False)
        if sample.seconds >= seconds / 10 or n >= _MAX_BATCH:
            break
        n *= 2 if sample.seconds <= 0 else max(2, min(16, int(seconds / 10 / sample.seconds)))
    if sample.seconds <= 0:
        return n
    return max(1, min(_MAX_BATCH, round(n * seconds / sample.seconds)))


def interleave(workloads: Sequence[Workload], repeats: int, seconds: float,
               clock: Callable[[], float] = time.perf_counter,
               progress: Callable[[str], None] | None = None) -> list[Series]:
    """Time every workload ``repeats`` times, interleaved.

    Repetition ``r`` runs the workloads in order when ``r`` is even and in reverse
    when odd (A B C, C B A, ...), so slow drift in the machine's speed is spread
    evenly instead of always favouring whoever runs first. Each sample is one batch
    of the calibrated size, about ``seconds`` long.
    """
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    series = [Series(w) for w in workloads]
    for s in series:
        if progress:
            progress(f"calibrating {s.workload.name}")
        s.batch = calibrate(s.workload.run, seconds, clock)
    for r in range(repeats):
        if progress:
            progress(f"repetition {r + 1}/{repeats}")
        for s in series if r % 2 == 0 else reversed(series):
            s.samples.append(time_batch(s.workload.run, s.batch, clock))
    return series


def paired_ratio(a: Series, b: Series) -> float:
    """How many times faster ``a`` is than ``b``: the median over repetitions of
    ``rate_a / rate_b``, each pair measured moments apart in the same run."""
    pairs = [x / y for x, y in zip(a.rates, b.rates, strict=True) if y > 0]
    return statistics.median(pairs) if pairs else float("inf")


@dataclass(frozen=True)
class Memory:
    """Python allocations while running units one at a time (bytes).

    For each unit: the highest level reached while it ran, above the level just
    before it (the working memory of one round). ``median_peak`` and ``peak`` (the
    largest) summarise these; ``retained`` is what the whole batch left allocated
    once garbage is collected (caches that grow, leaks).
    """

    units: int
    peak: int
    median_peak: float
    retained: int

    def to_json(self) -> dict[str, Any]:
        return {"units": self.units, "peak_bytes_per_unit": self.peak,
                "median_peak_bytes_per_unit": self.median_peak,
                "retained_bytes": self.retained}


def traced_peak(run: Runner, n: int) -> Memory:
    """Run ``n`` units one by one under :mod:`tracemalloc` (see :class:`Memory`).

    The units are run once untraced first, and the collector is paused while
    tracing: a full collection empties the interpreter's free lists (up to 2000
    spare tuples per size, ...), and refilling them would otherwise be billed to
    whichever unit ran next. ``retained`` is measured after a final collection,
    so it counts what really stays (caches that grow, leaks), not free lists or
    garbage. Only allocations made through Python's allocator are seen: memory a
    C or C++ extension allocates itself (e.g. ``pyspiel``'s C++ objects) is not.
    If tracing is already on (``python -X tracemalloc``), it is left on.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    was_tracing, was_collecting = tracemalloc.is_tracing(), gc.isenabled()
    gc.collect()
    run(n)
    peaks = array.array("q", bytes(8 * n))  # allocated before tracing: not billed
    if not was_tracing:
        tracemalloc.start()
    try:
        gc.disable()
        base = tracemalloc.get_traced_memory()[0]
        for i in range(n):
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            run(1)
            peaks[i] = tracemalloc.get_traced_memory()[1] - before
        gc.collect()
        current = tracemalloc.get_traced_memory()[0]
    finally:
        if was_collecting:
            gc.enable()
        if not was_tracing:
            tracemalloc.stop()
    return Memory(n, max(peaks), statistics.median(peaks), max(0, current - base))


def max_rss_bytes() -> int:
    """The process's peak resident set size so far (bytes)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss if sys.platform == "darwin" else rss * 1024


def machine() -> dict[str, Any]:
    """What the figures were measured on (they only compare within one run)."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def fmt_rate(x: float) -> str:
    """``12345.6`` -> ``"12,346"``; ``inf`` -> ``"inf"``."""
    return "inf" if x == float("inf") else f"{x:,.0f}"


def fmt_bytes(n: float) -> str:
    """Bytes in KiB or MiB, one decimal."""
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MiB"
    return f"{n / 1024:.1f} KiB"


def table(rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None) -> str:
    """A plain aligned text table (first row: the header)."""
    if not rows:
        return ""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = right or [False] * len(widths)
    lines = []
    for k, r in enumerate(rows):
        cells = [c.rjust(w) if right[i] else c.ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


@dataclass
class Step:
    """One child process: wall time, CPU time, peak resident memory."""

    name: str
    seconds: float
    cpu_seconds: float
    peak_rss_mb: float
    returncode: int
    output: str = field(default="", repr=False)


def measured(name: str, argv: list[str], cwd: str | Path, stdin: str | None = None,
              env: dict[str, str] | None = None) -> Step:
    """Run ``argv`` in ``cwd`` (``stdin`` written to it): wall time, and CPU time and peak
    resident memory from ``wait4`` (this child's own rusage, not its siblings')."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdin is not None and proc.stdout is not None
    if stdin:
        proc.stdin.write(stdin.encode())
    proc.stdin.close()
    out = proc.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stdout.close()
    return Step(name, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                proc.returncode, out)
