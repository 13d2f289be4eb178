"""The parity theorem (one line, every tile in play) proved per instance for every set
size from double-1 to double-18: the instance of each size is draw-2p-d6 on that set."""

from __future__ import annotations

from collections.abc import Sequence

from dominoproof.model.tiles import tile_count
from dominoproof.model.variant import Variant, find_variant
from dominoproof.proofs.budgets import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from dominoproof.proofs.properties import Result
from dominoproof.proofs.z3.queries import Prover


def parity_variant(n: int) -> Variant:
    """The instance of the parity theorem for double-``n``: draw-2p-d6 (2 players, every
    tile in play, draw until playable) on double-``n``, its hand size capped at half the
    set's ``T`` tiles, every other tile in the boneyard."""
    base = find_variant("draw-2p-d6")
    hand = min(base.deal.hand_size, tile_count(n) // 2)
    return base.with_overrides({"set.max": n, "deal.hand_size": hand},
                               source=f"parity instance double-{n}")


def prove_parity(ns: Sequence[int] = range(1, 19), *, seed: int = 0,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS,
                 rlimit: int = DEFAULT_RLIMIT) -> list[Result]:
    """The parity theorem (one line, every tile in play), proved by induction for each
    set size in ``ns`` (:func:`parity_variant`)."""
    out = []
    for n in ns:
        r = Prover(parity_variant(n), seed=seed, timeout_ms=timeout_ms,
                   rlimit=rlimit).prove("parity")
        r.configuration = f"double-{n}: " + r.configuration
        out.append(r)
    return out


__all__ = ["parity_variant", "prove_parity"]
