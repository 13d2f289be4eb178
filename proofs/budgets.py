"""The budgets of a Z3 check, apart from Z3 itself (the CLI reads them without importing it).

A check is bounded first by Z3's *resource limit* (``rlimit``): a count of the solver's
elementary steps, the same on a quiet and on a loaded machine, so the same seed and
inputs give the same verdict however busy the machine is. The wall clock is only an
outer safety net against a check that would run for hours; each budget that runs out
is named in the verdict (:data:`RESOURCE_LIMIT`, :data:`WALL_CLOCK`). Zero is never
"no limit" (it is to Z3): both budgets must be positive.
"""

from __future__ import annotations

DEFAULT_SEED = 0
#: Z3's resource limit per check. ``scripts/calibrate-rlimit`` measured the largest count
#: one check of ``dominoproof verify`` (every preset and every fault, 4,210 checks) uses:
#: 10,219,133 (draw-10p-d18, about 2 s); this is about 20 times it. At the slowest rate
#: measured (1.3 million units a second) a check that spends it all takes 150 s.
DEFAULT_RLIMIT = 200_000_000
#: The wall-clock safety net per check: four times what a check spending the whole
#: resource limit takes at the slowest rate measured, so only a machine overloaded many
#: times over reaches it (and the verdict then says so).
DEFAULT_TIMEOUT_MS = 600_000

#: The two budgets a check can exhaust, as a verdict's reason names them.
RESOURCE_LIMIT = "resource limit"
WALL_CLOCK = "wall-clock safety net"


def check_budget(rlimit: int, timeout_ms: int) -> None:
    """Both budgets must be positive integers: zero would mean *no limit* to Z3."""
    for name, v in (("rlimit", rlimit), ("timeout_ms", timeout_ms)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a positive integer, not {v!r}")
