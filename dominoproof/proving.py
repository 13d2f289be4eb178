"""The API's search and proofs (:mod:`dominoproof.api`): exhaustive search of a small
configuration, and the Z3 proofs of a variant (per instance, and for every size)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominoproof.model.engine import seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.spec import Init
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant
from dominoproof.proofs.allsizes import prove_all_sizes
from dominoproof.proofs.budgets import (
    BMC_SECONDS,
    DEFAULT_RLIMIT,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    EXPLORE_MAX_STATES,
)
from dominoproof.proofs.properties import CATALOGUE, Result, Verdict, find_property
from dominoproof.proofs.runner import Runner
from dominoproof.proofs.search.statespace import feasibility
from dominoproof.proofs.search.verification import Verification
from dominoproof.proofs.search.verification import verify as check
from dominoproof.proofs.z3.encoding_faults import twin_prover
from dominoproof.proofs.z3.queries import Prover, SanityCheck
from dominoproof.proofs.z3.session import premises
from dominoproof.rounds import given_deal, variant


@dataclass
class ProofReport:
    """What :func:`prove` found: a verdict per property (and per property for every size,
    with ``all_sizes``), the sanity checks of the premises, and the prover itself (its
    invariant, lemmas and solver statistics)."""
    prover: Prover
    results: list[Result]
    sizes: list[Result] = field(default_factory=list)
    sanity: list[SanityCheck] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """The CLI's: 1 violated or not inductive (or a sanity check answered wrongly), 3
        UNKNOWN (a verdict or a sanity check: a budget ran out), else 0."""

        verdicts = {r.verdict for r in [*self.results, *self.sizes]}
        sound = premises(self.sanity)
        if verdicts & {Verdict.VIOLATED, Verdict.NOT_INDUCTIVE} or sound == "FAILED":
            return 1
        if Verdict.UNKNOWN in verdicts or sound == "UNKNOWN":
            return 3
        return 0


def prover(spec: Variant | str | Path, *, fault: str | None = None,
           overrides: Mapping[str, Any] | None = None, seed: int = DEFAULT_SEED,
           rlimit: int = DEFAULT_RLIMIT, timeout_ms: int = DEFAULT_TIMEOUT_MS,
           depth: int = 12, together: bool | None = None,
           seconds: float = BMC_SECONDS) -> Prover:
    """The Z3 prover of a variant (or, with ``fault``, of a deliberately broken rule set's
    demo configuration and Z3 twin); ``depth`` and ``seconds`` bound its search for a
    round (the bounded model checking of a witness or a violation)."""
    kw: dict[str, Any] = {"seed": seed, "timeout_ms": timeout_ms, "rlimit": rlimit,
                          "bmc_depth": depth, "bmc_seconds": seconds, "together": together}
    if fault is not None:
        return twin_prover(fault, **kw)
    return Prover(variant(spec, overrides), **kw)


def prove(spec: Variant | str | Path, properties: Sequence[str] | None = None, *,
          fault: str | None = None, all_sizes: bool = False,
          overrides: Mapping[str, Any] | None = None, seed: int = DEFAULT_SEED,
          rlimit: int = DEFAULT_RLIMIT, timeout_ms: int = DEFAULT_TIMEOUT_MS, depth: int = 12,
          together: bool | None = None, workers: int = 1,
          progress: Callable[[str], None] | None = None) -> ProofReport:
    """Prove ``properties`` (default: the catalogue) of a variant by induction with Z3,
    the sanity checks of the premises included; with ``all_sizes``, also for every set
    size and player count at once. ``progress`` is told each phase as it starts."""
    for pid in properties or ():
        find_property(pid)
    ids = list(properties) if properties else [p.id for p in CATALOGUE]
    pr = prover(spec, fault=fault, overrides=overrides, seed=seed, rlimit=rlimit,
                timeout_ms=timeout_ms, depth=depth, together=together)
    t0 = time.perf_counter()
    if progress:
        progress(f"proving {len(ids)} properties of {pr.label} (Z3)")
    results = pr.prove_all(ids, workers=workers, sanity=True)
    sizes: list[Result] = []
    if all_sizes:
        if progress:
            progress("proving them for every set size and player count (Z3)")
        sizes = prove_all_sizes(pr.variant, ids, timeout_ms=timeout_ms, seed=seed,
                                rlimit=rlimit)
    return ProofReport(pr, results, sizes, pr.last_sanity, time.perf_counter() - t0)


def explore(spec: Variant | str | Path, *, seed: int = 0, all_deals: bool = False,
            free_draw: bool = False, properties: Sequence[str] | None = None,
            max_states: int | None = EXPLORE_MAX_STATES, max_seconds: float | None = None,
            overrides: Mapping[str, Any] | None = None, workers: int = 1,
            deal: Deal | Mapping[str, Any] | str | Path | None = None,
            runner: Runner | None = None, parts: int | None = None) -> Verification:
    """Exhaustive search of one seeded deal (or ``deal``, checked by :func:`deal`; or
    ``all_deals``) of a small configuration, every property of the catalogue judged on
    the graph (HOLDS only when every state was examined; a budget is UNKNOWN). Every
    deal with ``workers > 1`` or a ``runner`` (a cluster,
    :mod:`dominoproof.proofs.runner`) is searched by deal, in ``parts``."""
    v = variant(spec, overrides)
    if all_deals and deal is not None:
        raise DominoproofError("explore: all_deals and deal exclude each other")
    one = seeded_deal(v, seed) if deal is None else given_deal(v, deal)
    init = Init.every(free_draw) if all_deals else Init.one(one, free_draw)
    ok, why = feasibility(v, init)
    if not ok:
        raise DominoproofError(f"{v.name}: {why}")
    return check(v, init, properties=properties, max_states=max_states,
                 max_seconds=max_seconds, workers=workers, inapplicable=True,
                 how=None if all_deals else f"the deal of seed {seed}", runner=runner,
                 parts=parts)
