"""The API's statistics (:mod:`dominoproof.api`): simulated rounds, and the exact or
sampled figures of a policy."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis import stats
from dominoproof.proofs.analysis.figures import RoundFigures
from dominoproof.proofs.analysis.policies import Policy
from dominoproof.proofs.analysis.simulate import Statistics
from dominoproof.proofs.analysis.simulate import simulate as run_simulation
from dominoproof.proofs.runner import Runner
from dominoproof.rounds import variant


def simulate(spec: Variant | str | Path, rounds: int = 10_000, *, seed: int = 0,
             top: int = 10, overrides: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None,
             policy: str | Policy = "random", runner: Runner | None = None) -> Statistics:
    """Monte-Carlo statistics of ``rounds`` seeded random rounds (uniformly random moves,
    or those of ``policy``, :mod:`dominoproof.proofs.analysis.policies`), in batches played
    here or on ``runner`` (a pool or a cluster: the same figures)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise DominoproofError(f"rounds = {rounds!r}: must be a whole number >= 1")
    return run_simulation(variant(spec, overrides), rounds, seed, top=top, progress=progress,
                          every=max(1, min(2000, rounds // 100)), policy=policy,
                          runner=runner)


def exact_figures(spec: Variant | str | Path, policy: str | Policy = "random", *,
                  free_draw: bool = True, deal: Deal | None = None,
                  max_deals: int | None = None, max_states: int | None = None,
                  max_seconds: float | None = None,
                  overrides: Mapping[str, Any] | None = None) -> RoundFigures:
    """The exact figures of a small configuration under ``policy``
    (:func:`dominoproof.stats.exact_figures`; ``None`` budgets: the defaults, never "no
    limit"). Too many deals: a DominoproofError; a budget run out:
    :class:`~dominoproof.stats.FiguresUnknown`."""
    return stats.exact_figures(
        variant(spec, overrides), policy, free_draw=free_draw, deal=deal,
        max_deals=stats.MAX_EXACT_DEALS if max_deals is None else max_deals,
        max_states=stats.DEFAULT_MAX_STATES if max_states is None else max_states,
        max_seconds=max_seconds)


def sampled_figures(spec: Variant | str | Path, policy: str | Policy = "random",
                    rounds: int = 10_000, seed: int = 0, *, level: float = 0.95,
                    overrides: Mapping[str, Any] | None = None,
                    runner: Runner | None = None) -> RoundFigures:
    """The same figures measured on ``rounds`` seeded rounds, with ``level`` intervals
    (:func:`dominoproof.stats.sampled_figures`; ``runner``: where the batches run)."""
    return stats.sampled_figures(variant(spec, overrides), policy, rounds, seed, level=level,
                                 runner=runner)
