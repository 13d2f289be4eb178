"""The record of the figures a rules designer asks for (:class:`RoundFigures`), exact or
sampled, each figure an :class:`Estimate`; and an exact record held against a sampled
one (:func:`comparisons`, :func:`disagreements`). :mod:`dominoproof.proofs.analysis.stats`
computes the records."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import DrawRule, Variant, find_variant
from dominoproof.proofs.analysis.simulate import wilson

__all__ = ["AwardShare", "Estimate", "RoundFigures", "TileCost", "award_order", "by_risk",
           "comparisons", "disagreements", "draws_from_boneyard", "variant_of", "z_of"]


# -- The record ------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """One figure: its value and an interval (sampled), or its exact rational (exact).

    ``value`` is ``None`` when the figure is undefined (a mean at a block when no round
    blocks). ``low``/``high`` bound the interval of a sampled figure (``None`` when too
    few observations give none); for an exact figure both equal ``value``. ``n``: the
    observations a sampled figure rests on."""

    value: float | None
    low: float | None = None
    high: float | None = None
    exact: Fraction | None = None
    n: int | None = None

    @staticmethod
    def of(x: Fraction | None) -> Estimate:
        """An exact figure (``None``: undefined)."""
        if x is None:
            return Estimate(None)
        f = float(x)
        return Estimate(f, f, f, x)

    @staticmethod
    def share(k: int, n: int, z: float) -> Estimate:
        """``k`` of ``n``, with its Wilson interval."""
        if n == 0:
            return Estimate(None, n=0)
        lo, hi = wilson(k, n, z)
        return Estimate(k / n, lo, hi, n=n)

    @staticmethod
    def mean(total: int, squares: int, n: int, z: float) -> Estimate:
        """The mean of ``n`` whole numbers from their sum and sum of squares, with a normal
        interval (sample standard deviation); no interval below two observations."""
        if n == 0:
            return Estimate(None, n=0)
        m = total / n
        if n < 2:
            return Estimate(m, n=n)
        var = max(0, squares * n - total * total) / (n * (n - 1))  # exact in integers
        half = z * math.sqrt(var / n)
        return Estimate(m, m - half, m + half, n=n)

    def scaled(self, k: int) -> Estimate:
        """This figure times the whole number ``k``."""
        def times(x: float | None) -> float | None:
            return None if x is None else x * k

        return Estimate(times(self.value), times(self.low), times(self.high),
                        None if self.exact is None else self.exact * k, self.n)

    @property
    def is_exact(self) -> bool:
        return self.exact is not None

    def contains(self, x: Fraction) -> bool | None:
        """Whether ``x`` lies in the interval (``None``: there is no interval)."""
        if self.low is None or self.high is None:
            return None
        eps = 1e-9 * max(1.0, abs(self.high))
        return self.low - eps <= float(x) <= self.high + eps

    def to_json(self) -> dict[str, Any]:
        return {"value": _r(self.value),
                "interval": None if self.low is None or self.high is None
                else [_r(self.low), _r(self.high)],
                "exact": None if self.exact is None else str(self.exact),
                "n": self.n}


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 9)


@dataclass(frozen=True)
class AwardShare:
    """How likely a round ends with a winning side awarded ``award`` (R5.4; a shared win
    gives every winner the same award, R5.5); ``award`` ``None``: nobody scores."""

    award: int | None
    probability: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"award": self.award, "probability": self.probability.to_json()}


@dataclass(frozen=True)
class TileCost:
    """R5.6 for one tile, per blocked round: ``held``, the probability some hand still
    holds it at the block; ``cost``, its expected cost: its value (R5.3) when its holder's
    side did not win (its pips count against that side and feed the winner's award,
    R5.4; a tie where nobody scores counts as not winning), 0 otherwise."""

    tile: Tile
    value: int
    double: bool
    held: Estimate
    cost: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "value": self.value, "double": self.double,
                "held": self.held.to_json(), "cost": self.cost.to_json()}


@dataclass(frozen=True)
class RoundFigures:
    """The figures of one variant under one policy, exact or sampled.

    Probabilities are over rounds; ``residual``, ``winner_residual`` and the risk table
    are per blocked round (conditional on a block); ``award_mean`` is per round where
    some side scores."""

    variant: str
    policy: str
    method: str  #: "exact" or "sampled"
    configuration: str  #: which deals and draw orders, or which rounds
    level: float  #: the intervals' confidence (1.0: exact figures, no interval needed)
    deals: int | None  #: exact: deals enumerated (each equally likely)
    states: int | None  #: exact: states of the graph
    rounds: int | None  #: sampled: rounds played
    seed: int | None  #: sampled: the seed of the rounds
    blocked: Estimate  #: P(the round ends blocked), R1.1 and R4.4
    tie: Estimate  #: P(it ends blocked with sides tied for the lowest total), R5.5
    residual: Estimate  #: E(pips left in all hands | blocked), R5.3
    winner_residual: Estimate  #: E(the lowest side total | blocked), R5.2
    length: Estimate  #: E(moves in the round), R4 confirmations included
    award_mean: Estimate  #: E(the winner's award | some side scores), R5.4
    awards: tuple[AwardShare, ...]  #: the award's distribution; ``None`` (nobody) first
    risk: tuple[TileCost, ...]  #: R5.6: every tile, by expected cost at a block

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def scalars(self) -> list[tuple[str, Estimate]]:
        """The single-number figures, named."""
        return [("blocked", self.blocked), ("tie", self.tie), ("residual", self.residual),
                ("winner_residual", self.winner_residual), ("length", self.length),
                ("award_mean", self.award_mean)]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "policy": self.policy, "method": self.method,
            "configuration": self.configuration, "level": self.level, "deals": self.deals,
            "states": self.states, "rounds": self.rounds, "seed": self.seed,
            **{name: e.to_json() for name, e in self.scalars()},
            "awards": [a.to_json() for a in self.awards],
            "risk": [t.to_json() for t in self.risk],
        }


def variant_of(v: Variant | str) -> Variant:
    return v if isinstance(v, Variant) else find_variant(v)


def draws_from_boneyard(v: Variant) -> bool:
    """Whether a round of ``v`` can draw from a boneyard (R3.1)."""
    return bool(v.boneyard_size) and v.draw.rule is not DrawRule.NONE


def z_of(level: float) -> float:
    if not 0.0 < level < 1.0:
        raise DominoproofError(f"level = {level!r}: a confidence strictly between 0 and 1")
    return statistics.NormalDist().inv_cdf((1.0 + level) / 2.0)


def by_risk(costs: Iterable[TileCost]) -> tuple[TileCost, ...]:
    """Highest expected cost first; then heavier, then higher index (deterministic)."""
    return tuple(sorted(costs, key=lambda c: (-(c.cost.value or 0.0), -c.value,
                                             -c.tile.idx)))


def award_order(a: int | None) -> tuple[int, int]:
    return (0, 0) if a is None else (1, a)


# -- Exact against sampled -------------------------------------------------------------


def comparisons(exact: RoundFigures, sampled: RoundFigures
                ) -> list[tuple[str, Fraction, Estimate]]:
    """Every figure both records define, as (name, exact value, sampled estimate): the
    single-number figures, the probability of every award either record met (0 where the
    other has none), and each tile's probability of being held and cost at a block."""
    if not exact.exact or sampled.exact:
        raise ValueError("compare an exact record with a sampled one")
    out: list[tuple[str, Fraction, Estimate]] = []
    for (name, e), (_, s) in zip(exact.scalars(), sampled.scalars(), strict=True):
        if e.exact is not None and s.value is not None:
            out.append((name, e.exact, s))
    if sampled.rounds:
        mine = {a.award: a.probability.exact for a in exact.awards}
        theirs = {a.award: a.probability for a in sampled.awards}
        z = z_of(sampled.level)
        for key in sorted(set(mine) | set(theirs), key=award_order):
            out.append((f"award {'nobody' if key is None else key}",
                        mine.get(key) or Fraction(0),
                        theirs.get(key) or Estimate.share(0, sampled.rounds, z)))
    by_tile = {c.tile: c for c in sampled.risk}
    for c in exact.risk:
        other = by_tile[c.tile]
        for name, e, s in (("held", c.held, other.held), ("cost", c.cost, other.cost)):
            if e.exact is not None and s.value is not None:
                out.append((f"{name} {c.tile}", e.exact, s))
    return out


def disagreements(exact: RoundFigures, sampled: RoundFigures) -> list[str]:
    """The figures whose exact value lies outside the sampled interval, one line each
    (an empty list: they agree)."""
    return [f"{name}: exact {float(x):.6f} outside the sampled interval "
            f"[{est.low:.6f}, {est.high:.6f}] (sampled {est.value:.6f})"
            for name, x, est in comparisons(exact, sampled) if est.contains(x) is False]
