"""One job of ``dominoproof repair`` (:mod:`dominoproof.repair`): a candidate variant judged
by verify's own search and judge (:func:`dominoproof.verify_job.search_rows`), and, when
asked, its statistics; run in the job's own process (or a cluster's task) as verify's jobs
are (:func:`dominoproof.verify.run_jobs`), which loads this module by name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.figures import Estimate
from dominoproof.proofs.analysis.stats import sampled_figures
from dominoproof.verify import Row
from dominoproof.verify_job import search_rows, warm

#: the policy of the statistics: every legal move equally likely (as ``diff`` samples)
POLICY = "random"


@dataclass
class Judged:
    """What a candidate's job found: the search's rows, its statistics (by figure id,
    ``"block"`` and ``"residual"``) or None, and whether it started after the wall-clock
    safety net (then nothing was judged)."""

    rows: list[Row]
    figures: dict[str, Estimate] | None = None
    late: bool = False


def judge_job(args: tuple[Variant, tuple[str, ...] | None, bool, int, int, float,
                          float | None]) -> Judged:
    """``(variant, property ids or None for the catalogue, whether to search at all,
    rounds of statistics (0: none), their seed, the deadline as time.time(), the seconds
    the searches share or None for verify's own budgets)``."""
    v, properties, search, rounds, seed, deadline, seconds = args
    if time.time() > deadline:
        return Judged([], None, late=True)
    rows = search_rows(v, properties, seconds)[0] if search else []
    figures = None
    if rounds:
        f = sampled_figures(v, POLICY, rounds, seed)
        figures = {"block": f.blocked, "residual": f.residual}
    return Judged(rows, figures)


__all__ = ["POLICY", "Judged", "judge_job", "warm"]
