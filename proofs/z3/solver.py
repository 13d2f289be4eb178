"""A small Z3 solver wrapper: fixed seed, resource limit, push/pop frames, statistics.

Every query of dominoproof goes through :class:`Solver` (or :class:`Optimizer`):
a fixed random seed, incremental frames with push/pop in ``try/finally``
(:meth:`Solver.frame`), the time, the work and Z3's statistics of each check recorded
in a :class:`Check`, and the mapping from ``sat``/``unsat``/``unknown`` to a
:class:`~dominoproof.proofs.properties.Verdict` — where ``unknown`` is always UNKNOWN,
never PROVED. Nothing here is global: each wrapper owns its Z3 solver and its
parameters (mypyvy's layering, STYLE 8).

Budgets (:mod:`~dominoproof.proofs.budgets`): a check is bounded by Z3's deterministic
resource limit (``rlimit``) first and by the wall clock only as a safety net; an unknown
names the budget it ran out of in :attr:`Check.reason`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

import z3  # type: ignore[import-untyped]

from dominoproof.proofs.budgets import (
    DEFAULT_RLIMIT,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    RESOURCE_LIMIT,
    WALL_CLOCK,
    check_budget,
)

__all__ = ["DEFAULT_RLIMIT", "DEFAULT_SEED", "DEFAULT_TIMEOUT_MS", "RESOURCE_LIMIT", "WALL_CLOCK",
           "Check", "Ledger", "Optimizer", "Solver", "check_budget"]

Answer = Literal["sat", "unsat", "unknown"]

#: Z3 statistics worth keeping in a result (the rest is noise for a report).
_KEPT_STATS = ("conflicts", "decisions", "propagations", "sat conflicts", "sat decisions",
               "sat propagations 2ary", "sat propagations nary", "memory", "max memory",
               "bv bit2core", "restarts", "sat restarts")


@dataclass
class Check:
    """One ``check``: the answer, its time and Z3's statistics (and the model if sat)."""

    answer: Answer
    seconds: float
    stats: dict[str, float] = field(default_factory=dict)
    reason: str = ""  #: why Z3 said unknown (:data:`RESOURCE_LIMIT`, :data:`WALL_CLOCK`, ...)
    model: Any = None
    rlimit: int = 0  #: the work the check took, in Z3's resource units

    @property
    def hit(self) -> str | None:
        """Which budget stopped the check: :data:`RESOURCE_LIMIT`, :data:`WALL_CLOCK` or
        None (an answer, or an unknown for another reason, e.g. incompleteness)."""
        for budget in (RESOURCE_LIMIT, WALL_CLOCK):
            if self.reason.startswith(budget):
                return budget
        return None

    @property
    def sat(self) -> bool:
        return self.answer == "sat"

    @property
    def unsat(self) -> bool:
        return self.answer == "unsat"

    @property
    def unknown(self) -> bool:
        return self.answer == "unknown"


def _stats(st: Any) -> dict[str, float]:
    return {k: float(st.get_key_value(k))
            for k in st.keys() if k in _KEPT_STATS}  # noqa: SIM118 (not a mapping)


def _work(st: Any) -> int:
    """Z3's resource count so far (it counts for the whole context, across checks)."""
    keys = st.keys()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in keys else 0


def _checked(z: Any, run: Any, *, rlimit: int, timeout_ms: int, ledger: Ledger,
             sat_model: bool) -> Check:
    """Run one check of the Z3 object ``z`` (``run()``) and record it.

    The work is the difference of Z3's resource count around the check. An unknown is
    named after the budget it exhausted: the resource limit when the work reached it, the
    wall-clock safety net when Z3 says timeout or cancelled (or the time reached it)."""
    before = _work(z.statistics())
    t0 = time.perf_counter()
    r = run()
    dt = time.perf_counter() - t0
    answer: Answer = "sat" if r == z3.sat else "unsat" if r == z3.unsat else "unknown"
    st = z.statistics()
    work = max(0, _work(st) - before)
    reason = ""
    model = None
    if answer == "unknown":
        why = z.reason_unknown()
        if work >= rlimit or "resource limit" in why:
            reason = f"{RESOURCE_LIMIT} of {rlimit:,} reached"
        elif why in ("timeout", "canceled") or dt * 1000 >= timeout_ms:
            reason = f"{WALL_CLOCK} of {timeout_ms:,} ms expired"
        else:
            reason = why
    if answer == "sat" or (sat_model and answer == "unknown"):
        try:
            model = z.model()
        except z3.Z3Exception:
            model = None
    stats = _stats(st)
    stats["rlimit"] = float(work)
    c = Check(answer, dt, stats, reason, model, work)
    ledger.record(c)
    return c


#: statistics a ledger keeps the largest of (the others are summed)
_MAXED = ("memory", "max memory", "max rlimit")


@dataclass
class Ledger:
    """What a series of checks cost: their number, total time, summed statistics."""

    checks: int = 0
    seconds: float = 0.0
    stats: dict[str, float] = field(default_factory=dict)
    unknowns: int = 0

    def record(self, c: Check) -> None:
        self.merge(Ledger(1, c.seconds, c.stats, int(c.unknown)))
        self.stats["max rlimit"] = max(self.stats.get("max rlimit", 0.0), float(c.rlimit))

    def merge(self, other: Ledger) -> None:
        """Add ``other``'s checks to this ledger."""
        self.checks += other.checks
        self.seconds += other.seconds
        self.unknowns += other.unknowns
        for k, v in other.stats.items():
            if k in _MAXED:
                self.stats[k] = max(self.stats.get(k, 0.0), v)
            else:
                self.stats[k] = self.stats.get(k, 0.0) + v

    def as_dict(self) -> dict[str, float]:
        out = {"checks": float(self.checks), "solver_seconds": round(self.seconds, 4),
               "unknown": float(self.unknowns)}
        out.update({k: round(v, 2) for k, v in self.stats.items()})
        return out


#: The pipeline of the "sat" engine: every check simplifies, substitutes the solved
#: equalities (a frame condition makes most post-state variables copies), bit-blasts and
#: runs the SAT solver (which handles the cardinalities of a deal natively). Z3's default
#: solver keeps none of this preprocessing once push/pop or assumptions are used, and is
#: an order of magnitude slower on these formulas.
SAT_PIPELINE = ("simplify", "propagate-values", "solve-eqs", "simplify", "bit-blast", "sat")


def _make(engine: str, ctx: Any) -> Any:
    if engine == "sat":
        return z3.Then(*SAT_PIPELINE, ctx=ctx).solver()
    if engine == "smt":
        return z3.Solver(ctx=ctx)
    raise ValueError(f"unknown solver engine {engine!r} (sat, smt)")


class _Budgeted:
    """A Z3 solver or optimiser ``z`` with a fixed seed, a resource limit and a wall-clock
    safety net per check (neither zero or less), its checks counted in ``ledger``."""

    def __init__(self, z: Any, *, seed: int, timeout_ms: int, rlimit: int,
                 ledger: Ledger | None) -> None:
        check_budget(rlimit, timeout_ms)
        self.seed = seed
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        self.ledger = ledger if ledger is not None else Ledger()
        self._z = z
        z.set("random_seed", seed)
        z.set("timeout", timeout_ms)
        z.set("rlimit", rlimit)

    def add(self, *constraints: Any) -> None:
        for c in constraints:
            self._z.add(c)


class Solver(_Budgeted):
    """A Z3 solver with a fixed seed, a resource limit and a wall-clock safety net per check.

    ``engine="sat"`` (default): the bit-blasting pipeline :data:`SAT_PIPELINE`, run from
    scratch at each check on everything asserted (push/pop frames still scope the
    assertions); ``engine="smt"``: Z3's incremental default solver. ``ctx``: the Z3
    context of the terms it will be given (default: the process's shared one).
    """

    def __init__(self, *, seed: int = DEFAULT_SEED, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 rlimit: int = DEFAULT_RLIMIT, ledger: Ledger | None = None,
                 engine: str = "sat", ctx: Any = None) -> None:
        super().__init__(_make(engine, ctx), seed=seed, timeout_ms=timeout_ms,
                         rlimit=rlimit, ledger=ledger)

    @contextmanager
    def frame(self) -> Iterator[None]:
        """A push/pop frame: whatever is added inside is gone afterwards, even on error."""
        self._z.push()
        try:
            yield
        finally:
            self._z.pop()

    def check(self, *assumptions: Any) -> Check:
        """One check under ``assumptions``; the model is kept when the answer is sat."""
        return _checked(self._z, lambda: self._z.check(*assumptions), rlimit=self.rlimit,
                        timeout_ms=self.timeout_ms, ledger=self.ledger, sat_model=False)


class Optimizer(_Budgeted):
    """Z3's optimiser with a fixed seed and the same budgets (one objective at a time)."""

    def __init__(self, *, seed: int = DEFAULT_SEED, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 rlimit: int = DEFAULT_RLIMIT, ledger: Ledger | None = None) -> None:
        super().__init__(z3.Optimize(), seed=seed, timeout_ms=timeout_ms, rlimit=rlimit,
                         ledger=ledger)

    def minimize(self, term: Any) -> Any:
        return self._z.minimize(term)

    def check(self) -> Check:
        """One optimisation. A budget may leave a model that is not optimal: the answer is
        then ``unknown`` (the model, if any, is still returned, as a bound only)."""
        return _checked(self._z, self._z.check, rlimit=self.rlimit,
                        timeout_ms=self.timeout_ms, ledger=self.ledger, sat_model=True)
