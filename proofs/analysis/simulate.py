"""Monte-Carlo statistics of a variant under uniformly random legal play, or a policy.

:func:`simulate` plays ``rounds`` seeded random rounds with the engine's fast loop
(:func:`~dominoproof.model.engine.random_rounds`), or under another play policy
(:mod:`dominoproof.proofs.analysis.policies`: ``greedy``, ``block-seeking``) with the
policy's loop, and answers the last question of RULES.md: how often does a round block,
what is left in the hands when it does (R5.3), who wins (R5.2, R5.4), how ties are
settled (R5.5), how long rounds last, and which tiles carry the risk of R5.6.

It is a pure function of ``(variant, rounds, seed, policy)``: no printing, no clock, so
the CLI, CI pipelines and tests share it. Pips are ``int`` throughout; only
shares and means are floats. Distributions are kept as histograms of ints, so
medians and percentiles are exact values that occurred (nearest rank), and the
memory used does not grow with ``rounds``.

The per-round work is small next to a playout: a blocked round sums its hands
and counts the tiles left; the full scoring (:func:`~dominoproof.model.outcome.outcome`)
is called only when sides tie for the lowest total, the one case where the
variant's tie rule (R5.5) decides who wins. A round with a single lowest side
is won by it (R5.2); a domino by the side of the player who emptied their hand.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import partial
from typing import Any, TypeVar

from dominoproof.model.engine import random_rounds
from dominoproof.model.fast import engine_for
from dominoproof.model.outcome import Outcome, outcome
from dominoproof.model.state import State, Status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import BlockWinner, Variant
from dominoproof.proofs.analysis.policies import Policy, policy_named, policy_rounds, side_of_seat
from dominoproof.proofs.kernel import reason
from dominoproof.proofs.runner import Runner

__all__ = ["BATCH", "Distribution", "Statistics", "Tally", "TileRisk", "batch_rounds",
           "batch_seed", "batches", "run_batches", "simulate", "tally_batch", "wilson"]

T = TypeVar("T")
#: What a batch is told by (the rounds of the batch done), when anything is.
Tell = Callable[[int], None] | None

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at
    ``k = 0`` and ``k = n``. With no trials, every share is possible: (0, 1).
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    # At k = 0 (k = n) the bound is exactly 0 (1); say so rather than round near it.
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return lo, hi


@dataclass(frozen=True)
class Distribution:
    """An integer quantity over some rounds: count, mean, and order statistics.

    ``median`` is the lower median and ``p95`` the nearest-rank 95th percentile:
    both are values that occurred (ints, never interpolated). ``None`` when empty.
    """

    count: int
    mean: float | None
    min: int | None
    median: int | None
    p95: int | None
    max: int | None
    #: the sample standard deviation (None below two values); derived from the same
    #: histogram, so it takes no part in equality
    stdev: float | None = field(default=None, compare=False)

    @staticmethod
    def of(hist: Mapping[int, int]) -> Distribution:
        n = sum(hist.values())
        if n == 0:
            return Distribution(0, None, None, None, None, None)
        keys = sorted(hist)
        total = sum(k * c for k, c in hist.items())
        mean = total / n
        sd = (math.sqrt(sum(c * (k - mean) ** 2 for k, c in hist.items()) / (n - 1))
              if n > 1 else None)
        return Distribution(n, mean, keys[0], _rank(hist, keys, (n + 1) // 2),
                            _rank(hist, keys, math.ceil(0.95 * n)), keys[-1], sd)

    def mean_ci(self, z: float = Z95) -> tuple[float, float] | None:
        """A 95% interval of the mean (normal approximation, ``z`` standard errors): fit
        for the thousands of rounds a simulation plays; None below two values."""
        if self.mean is None or self.stdev is None:
            return None
        half = z * self.stdev / math.sqrt(self.count)
        return self.mean - half, self.mean + half

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "mean": _r(self.mean), "min": self.min,
                "median": self.median, "p95": self.p95, "max": self.max}


def _rank(hist: Mapping[int, int], keys: list[int], rank: int) -> int:
    """The ``rank``-th smallest value (1-based) of a histogram."""
    seen = 0
    for k in keys:
        seen += hist[k]
        if seen >= rank:
            return k
    return keys[-1]


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


@dataclass(frozen=True)
class TileRisk:
    """R5.6 for one tile: how often it is still in a hand when the round blocks,
    and what it costs the side holding it.

    ``lost`` counts the blocks where it was held by a side that did not win: its
    pips then count against that side (R5.3) and feed the winner's award (R5.4).
    ``mean_cost`` is the pips it cost its holder per block where it was held:
    ``value * lost / held``.
    """

    tile: Tile
    value: int  #: its value at scoring (pips, or the variant's special value, R5.3)
    held: int  #: blocked rounds in which some hand still held it
    held_share: float  #: ``held`` / blocked rounds
    lost: int  #: of those, rounds in which its holder's side did not win
    mean_cost: float  #: pips per block where held: ``value * lost / held``

    def to_json(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "value": self.value, "held": self.held,
                "held_share": _r(self.held_share), "lost": self.lost,
                "mean_cost": _r(self.mean_cost)}


@dataclass(frozen=True)
class Statistics:
    """What :func:`simulate` measured. Counts are exact; shares and means are floats."""

    variant: str
    rounds: int
    seed: int
    blocked: int  #: rounds ended by an established block (R4.4)
    block_share: float
    block_ci: tuple[float, float]  #: 95% Wilson interval of ``block_share``
    residual_total: Distribution  #: R5.3, at a block: pips left in all hands together
    residual_winner: Distribution  #: at a block: the lowest side total (the winner's residual)
    sides: tuple[tuple[int, ...], ...]  #: the sides that score (teams, or one per player)
    wins_blocked: tuple[int, ...]  #: per side, blocked rounds it won (shared wins count)
    wins_domino: tuple[int, ...]  #: per side, rounds it won by a domino
    no_winner: int  #: blocked rounds in which nobody scored (a tie the rule leaves unsettled)
    ties: int  #: blocked rounds in which two or more sides tied for the lowest total
    tie_rule: str  #: R5.5 of the variant
    tie_settled: tuple[tuple[str, int], ...]  #: how the ties were settled, with counts
    length: Distribution  #: moves per round (every move, R4 confirmations included)
    plays: Distribution  #: tiles laid per round
    risk: tuple[TileRisk, ...]  #: R5.6: the tiles most often held at a block
    #: how the players chose their moves (dominoproof.proofs.analysis.policies)
    policy: str = "random"

    @property
    def dominoes(self) -> int:
        return self.rounds - self.blocked

    def to_json(self) -> dict[str, Any]:
        names = ["+".join(f"P{p}" for p in s) for s in self.sides]
        n = self.rounds
        return {
            "variant": self.variant,
            "rounds": n,
            "seed": self.seed,
            "policy": self.policy,
            "blocked": {"count": self.blocked, "share": _r(self.block_share),
                        "ci95": [_r(self.block_ci[0]), _r(self.block_ci[1])]},
            "domino": {"count": self.dominoes, "share": _r(self.dominoes / n if n else 0.0)},
            "residual_at_block": {"all_hands": self.residual_total.to_json(),
                                  "winner": self.residual_winner.to_json()},
            "winners": [
                {"side": name, "blocked": b, "domino": d,
                 "share": _r((b + d) / n if n else 0.0),
                 "share_blocked": _r(b / n if n else 0.0),
                 "share_domino": _r(d / n if n else 0.0)}
                for name, b, d in zip(names, self.wins_blocked, self.wins_domino, strict=True)
            ],
            "no_winner": self.no_winner,
            "ties": {"count": self.ties,
                     "share_of_blocks": _r(self.ties / self.blocked if self.blocked else 0.0),
                     "rule": self.tie_rule,
                     "settled": dict(self.tie_settled)},
            "length": {"moves": self.length.to_json(), "plays": self.plays.to_json()},
            "risk": [r.to_json() for r in self.risk],
        }


def batch_rounds(variant: Variant, chosen: Policy, rounds: int, seed: int, *,
                 kernel: bool | None = None, tell: Tell = None,
                 every: int = 1000) -> Iterator[tuple[State, int]]:
    """The ``rounds`` rounds of one batch, from one seeded stream: (final state, number of
    moves) each. The uniform policy's are the engine's random rounds, on the compiled
    kernel where it runs (``kernel`` not False; the same seed gives the same rounds),
    else the engine's own loop; another policy's are the policy's loop
    (:func:`~dominoproof.proofs.analysis.policies.policy_rounds`). ``tell``, if given, is told the
    rounds done every ``every`` rounds, each once the caller has counted it."""
    played: Iterable[tuple[State, int]]
    if not chosen.uniform:
        played = policy_rounds(variant, chosen, rounds, seed)
    elif kernel is not False and not _kernel_refuses(variant, kernel):
        # the compiled kernel (numba, optional) is loaded only when it plays
        from dominoproof.proofs.kernel.playout import kernel_random_rounds

        played = kernel_random_rounds(variant, rounds, seed)
    else:
        played = random_rounds(variant, rounds, seed, engine_for(variant))
    if tell is None:
        yield from played
        return
    for done, r in enumerate(played, 1):
        yield r
        if done % every == 0:
            tell(done)


def _kernel_refuses(variant: Variant, kernel: bool | None) -> bool:
    """Whether the kernel cannot play ``variant`` (a ``ValueError`` saying why when it
    was asked for: ``kernel`` True)."""
    why = reason(variant)
    if why and kernel:
        raise ValueError(why)
    return bool(why)


#: Rounds per batch. A simulation of more rounds is played in batches of this many, each
#: from a seed of its own (:func:`batch_seed`; the first batch's is the seed itself, so a
#: simulation of up to ``BATCH`` rounds is the one seeded stream it always was), and the
#: batches' counts are added up. Where the batches run -- this process, a local pool, a
#: cluster (:mod:`dominoproof.proofs.runner`) -- changes no figure.
BATCH = 100_000


def batch_seed(seed: int, k: int) -> int:
    """The seed of batch ``k`` of a simulation seeded ``seed``: ``seed`` itself for the
    first, else 64 bits of SHA-256 of both (the same on every machine and Python)."""
    if k == 0:
        return seed
    digest = hashlib.sha256(f"dominoproof batch {seed} {k}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def batches(rounds: int, seed: int, size: int = BATCH) -> list[tuple[int, int]]:
    """The batches of a simulation: (rounds, seed) each, ``size`` rounds but the last."""
    if size < 1:
        raise ValueError("a batch has at least one round")
    return [(min(size, rounds - start), batch_seed(seed, k))
            for k, start in enumerate(range(0, rounds, size))]


@dataclass
class Tally:
    """The whole-number counts of some rounds: what a batch sends back, added up by
    :meth:`merge` (histograms of ints, per-side and per-tile counts). Both the
    simulation's :class:`Statistics` and the sampled figures
    (:func:`~dominoproof.proofs.analysis.stats.sampled_figures`) are read off it."""

    rounds: int
    length: Counter[int]  #: histograms: value -> rounds
    plays: Counter[int]
    res_total: Counter[int]
    res_winner: Counter[int]
    wins_blocked: list[int]
    wins_domino: list[int]
    held: list[int]
    lost: list[int]
    settled: Counter[str]
    blocked: int = 0
    ties: int = 0
    no_winner: int = 0
    #: rounds per award of the winning side (None: nobody scores), where asked for
    awards: Counter[int | None] = field(default_factory=Counter)

    @staticmethod
    def empty(variant: Variant) -> Tally:
        sides, count = len(variant.teams), variant.tiles.count
        return Tally(0, Counter(), Counter(), Counter(), Counter(), [0] * sides, [0] * sides,
                     [0] * count, [0] * count, Counter())

    def merge(self, other: Tally) -> Tally:
        """Every count added up: numbers and histograms as they add, lists item by item."""
        def plus(a: Any, b: Any) -> Any:
            return [x + y for x, y in zip(a, b, strict=True)] if isinstance(a, list) else a + b

        return Tally(*(plus(getattr(self, f.name), getattr(other, f.name))
                       for f in fields(self)))


def simulate(
    variant: Variant,
    rounds: int,
    seed: int,
    *,
    top: int = 10,
    progress: Callable[[int], None] | None = None,
    every: int = 1000,
    policy: str | Policy = "random",
    kernel: bool | None = None,
    runner: Runner | None = None,
    batch: int = BATCH,
) -> Statistics:
    """Play ``rounds`` random rounds of ``variant`` from ``seed`` and measure them.

    ``policy`` (a name or a :class:`~dominoproof.proofs.analysis.policies.Policy`): how every player
    chooses among the legal moves; ``random``, the default, is the engine's own loop.
    ``top``: how many tiles the R5.6 risk table keeps. ``progress``, if given, is
    called with the number of rounds done every ``every`` rounds and at the end (on a
    ``runner`` of several workers: as each batch is done). The rounds are played in
    batches of ``batch`` (:func:`batches`), in this process or on ``runner`` (a local
    pool or a cluster: :mod:`dominoproof.proofs.runner`). The same arguments give the
    same :class:`Statistics`, wherever the batches ran.

    ``kernel``: play the uniform policy's rounds on the compiled kernel
    (:mod:`dominoproof.proofs.kernel.playout`: the same seed gives the same rounds, so the
    same statistics), ``None`` (the default) where it is available, ``False`` never.
    """
    if rounds < 0:
        raise ValueError("rounds must be >= 0")
    chosen = policy_named(policy)
    tally = Tally.empty(variant)
    for t in run_batches(batches(rounds, seed, batch),
                         partial(tally_batch, variant, chosen, every=every, kernel=kernel),
                         runner, progress):
        tally = tally.merge(t)
    return _statistics(variant, tally, seed, top, chosen.name)


def run_batches(plan: list[tuple[int, int]], play: Callable[[int, int, Tell], T],
                runner: Runner | None, progress: Callable[[int], None] | None) -> list[T]:
    """What ``play(rounds, seed, tell)`` counts of each batch of ``plan`` (:func:`batches`),
    in the plan's order. In this process (no ``runner``, or one of one worker) the batches
    run one after the other and each is given a ``tell`` that tells ``progress`` the
    rounds of the whole plan done (``play`` tells it as often as it likes: every
    ``every`` rounds, :func:`batch_rounds`); on ``runner``'s workers each batch is a job
    of its own (``play`` must pickle: a module-level function or a ``partial`` of one),
    given no ``tell``, and ``progress`` is told as each batch is done. ``progress`` is told
    the plan's rounds at the end, unless that was the last thing it was told."""
    total = sum(n for n, _ in plan)
    told = [0]

    def tell(done: int) -> None:
        if progress is not None:
            told[0] = done
            progress(done)

    if runner is None or runner.workers <= 1:
        out: list[T] = []
        before = 0
        for n, seed in plan:
            out.append(play(n, seed, None if progress is None else partial(_plus, before, tell)))
            before += n
    else:
        rounds = [0]

        def done(i: int, _: object) -> None:
            rounds[0] += plan[i][0]
            tell(rounds[0])

        out = runner.map(_run_batch, [(play, n, seed) for n, seed in plan], done=done)
    if told[0] != total:
        tell(total)
    return out


def _plus(before: int, tell: Callable[[int], None], done: int) -> None:
    tell(before + done)


def _run_batch(job: tuple[Callable[[int, int, Tell], T], int, int]) -> T:
    """One batch, on a worker: what ``play`` counts of it."""
    play, n, seed = job
    return play(n, seed, None)


def tally_batch(variant: Variant, chosen: Policy, rounds: int, seed: int, tell: Tell, *,
                every: int, kernel: bool | None = None,
                award: Callable[[Outcome], int | None] | None = None) -> Tally:
    """Play the ``rounds`` rounds of one batch (:func:`batch_rounds`) and count them;
    with ``award`` (the award of a round's :class:`~dominoproof.model.outcome.Outcome`),
    also how many rounds gave each award (every round then scored in full)."""
    value = variant.tile_value
    side_of = side_of_seat(variant)
    nsides = len(variant.teams)
    t = Tally.empty(variant)
    length, plays, res_total, res_winner = t.length, t.plays, t.res_total, t.res_winner
    wins_blocked, wins_domino, held, lost, settled, awards = (
        t.wins_blocked, t.wins_domino, t.held, t.lost, t.settled, t.awards)
    blocked = ties = no_winner = 0
    blocked_status = Status.BLOCKED
    tie_rule = variant.scoring.tie.value
    by_tiles = variant.scoring.block_winner is BlockWinner.FEWEST_TILES

    done = 0
    for final, moves in batch_rounds(variant, chosen, rounds, seed, kernel=kernel, tell=tell,
                                     every=every):
        done += 1
        if award is not None:
            res = outcome(variant, final)
            assert res is not None
            a = award(res)
            awards[a] += 1
        length[moves] += 1
        k = final.table.bit_count()
        plays[k] += 1
        if final.status is blocked_status:
            blocked += 1
            totals = [0] * nsides
            held_by: list[list[int]] = []
            everyone = 0
            for p, h in enumerate(final.hands):
                r = 0
                tiles: list[int] = []
                while h:  # the bits of h, inline: this loop runs for every tile left
                    low = h & -h
                    tile = low.bit_length() - 1
                    r += value[tile]
                    held[tile] += 1
                    tiles.append(tile)
                    h ^= low
                totals[side_of[p]] += r
                everyone += r
                held_by.append(tiles)
            low_total = min(totals)
            res_total[everyone] += 1
            res_winner[low_total] += 1
            # R5.2a: the winner has the fewest pips, or the fewest tiles left in hand
            counts = totals if not by_tiles else [0] * nsides
            if by_tiles:
                for p, tiles in enumerate(held_by):
                    counts[side_of[p]] += len(tiles)
            low_count = min(counts)
            lowest = [i for i, x in enumerate(counts) if x == low_count]
            if len(lowest) == 1:
                winners: tuple[int, ...] = (lowest[0],)
            else:  # R5.5: the variant's tie rule decides
                ties += 1
                winners = _settled(variant, final, settled, tie_rule)
            if not winners:
                no_winner += 1
            for w in winners:
                wins_blocked[w] += 1
            for p, tiles in enumerate(held_by):
                if side_of[p] not in winners:
                    for tile in tiles:
                        lost[tile] += 1
        else:
            wins_domino[side_of[final.turn]] += 1
    t.rounds, t.blocked, t.ties, t.no_winner = done, blocked, ties, no_winner
    return t


def _statistics(variant: Variant, t: Tally, seed: int, top: int, policy: str) -> Statistics:
    value = variant.tile_value
    held, lost, blocked, rounds = t.held, t.lost, t.blocked, t.rounds
    order = sorted((i for i in range(variant.tiles.count) if held[i]),
                   key=lambda i: (-held[i], -value[i], -i))[:top]
    risk = tuple(
        TileRisk(Tile.from_index(i), value[i], held[i], held[i] / blocked, lost[i],
                 value[i] * lost[i] / held[i])
        for i in order)
    return Statistics(
        variant=variant.name, rounds=rounds, seed=seed, blocked=blocked,
        block_share=blocked / rounds if rounds else 0.0, block_ci=wilson(blocked, rounds),
        residual_total=Distribution.of(t.res_total),
        residual_winner=Distribution.of(t.res_winner), sides=variant.teams,
        wins_blocked=tuple(t.wins_blocked), wins_domino=tuple(t.wins_domino),
        no_winner=t.no_winner, ties=t.ties, tie_rule=variant.scoring.tie.value,
        tie_settled=tuple(sorted(t.settled.items())),
        length=Distribution.of(t.length), plays=Distribution.of(t.plays), risk=risk,
        policy=policy,
    )


def _settled(variant: Variant, final: State, settled: Counter[str], rule: str) -> tuple[int, ...]:
    """The winners of a tied block under R5.5, and how the tie was settled."""
    res = outcome(variant, final)
    assert res is not None
    k = len(res.winners)
    if k == 0:
        settled["nobody scores"] += 1
    elif k == 1:
        settled[f"one side wins ({rule})"] += 1
    else:
        settled[f"shared by {k} sides ({rule})"] += 1
    return res.winners
