"""The figures a rules designer asks for, under a play policy: exact, or sampled.

How often does a round block (R1.1, R4.4)? What is left in the hands when it does
(R5.3)? How often do sides tie for the lowest total (R5.5)? How long is a round? What
does the winner get (R5.4)? Which tiles cost their holder most at a block (R5.6)? Two
functions answer them, in the same typed record (:class:`RoundFigures`):

* :func:`exact_figures`: exact, by dynamic programming over the state graph of the
  exhaustive search (:func:`dominoproof.proofs.search.statespace.explore`), for
  configurations small enough to enumerate. Every deal of the configuration is equally
  likely (the engine's uniform shuffle; deals a ``redeal`` lead voids are dealt again, so
  they are left out); in a draw game, with a free draw order each boneyard tile is equally
  likely to be drawn, with the deal's own order the draw is part of the deal. Every other
  move is drawn from the policy (:mod:`dominoproof.proofs.analysis.policies`). The
  arithmetic is rational (:class:`fractions.Fraction`): the figures are exact, not
  estimates.
* :func:`sampled_figures`: the same figures measured on ``rounds`` rounds the engine
  plays from a seed, each with an interval (95% by default): Wilson intervals for
  probabilities, normal intervals (sample standard deviation) for means.

The dynamic programme goes forward in a topological order of the graph: the probability
of reaching a state is the sum, over its predecessors, of their probability times the
probability of the move between them, so a state reached from several deals, or by
several paths, adds up every way in (deals weighted by how many of them lead to each
initial state, :func:`deal_weights`). The probability of ending in a terminal state
gives every figure of the round's end, and the expected length is the probability mass
of every state still being played (each is left by exactly one move).

A budget that runs out (states, seconds) raises :class:`FiguresUnknown`, never a
figure; a configuration with more deals than ``max_deals`` is refused up front
(:func:`check_enumerable`), naming its count and suggesting the sampled figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from dominoproof.model.errors import DominoproofError
from dominoproof.model.outcome import Outcome
from dominoproof.model.spec import Init, count_deals, init_states
from dominoproof.model.state import Ending, State
from dominoproof.model.tiles import Tile, bits
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.figures import (
    AwardShare,
    Estimate,
    RoundFigures,
    TileCost,
    award_order,
    by_risk,
    comparisons,
    disagreements,
    draws_from_boneyard,
    variant_of,
    z_of,
)
from dominoproof.proofs.analysis.policies import (
    Policy,
    move_distribution,
    policy_named,
    side_of_seat,
)
from dominoproof.proofs.analysis.simulate import BATCH, Tally, batches, run_batches, tally_batch
from dominoproof.proofs.budgets import CLOCK_EVERY, STATS_EXACT_DEALS, STATS_EXACT_STATES
from dominoproof.proofs.runner import Runner
from dominoproof.proofs.search.statespace import explore

if TYPE_CHECKING:
    from dominoproof.model.outcome import Scorer
    from dominoproof.model.state import Deal
    from dominoproof.proofs.search.result import SearchResult

__all__ = [
    "DEFAULT_MAX_STATES",
    "MAX_EXACT_DEALS",
    "AwardShare",
    "Estimate",
    "FiguresUnknown",
    "RoundFigures",
    "TileCost",
    "check_enumerable",
    "comparisons",
    "deal_count",
    "deal_weights",
    "disagreements",
    "exact_figures",
    "figures_on_graph",
    "sampled_figures",
    "search_graph",
    "terminal_masses",
]

#: the budgets of an exact run (why their values: ``proofs/budgets.py``)
MAX_EXACT_DEALS = STATS_EXACT_DEALS
DEFAULT_MAX_STATES = STATS_EXACT_STATES


class FiguresUnknown(Exception):
    """The exact figures could not be computed: a budget ran out (or the graph is not
    one a round always leaves). ``reason`` says which; it is never a figure."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# -- Exact figures: dynamic programming over the state graph ---------------------------


def deal_count(n: int) -> str:
    """A number of deals as text: in full up to 15 digits, else its order of magnitude."""
    if n < 10**15:
        return f"{n:,}"
    power = len(str(n)) - 1
    return f"about {n / 10**power:.1f} x 10^{power}"


def check_enumerable(variant: Variant, free_draw: bool, max_deals: int = MAX_EXACT_DEALS
                     ) -> int:
    """The number of deals an exact run enumerates, or a located
    :class:`DominoproofError` when there are more than ``max_deals``."""
    n = count_deals(variant, free_draw)
    if n > max_deals:
        order = ("" if not draws_from_boneyard(variant) else
                 " (each boneyard tile equally likely to be drawn)" if free_draw
                 else " (each draw order a deal of its own)")
        raise DominoproofError(
            f"{variant.name}: --exact: {deal_count(n)} deals{order}, more than the "
            f"{max_deals:,} "
            "an exact run enumerates (--max-deals); use --sampled for Monte-Carlo figures "
            "with 95% intervals, or a smaller configuration (-o set.max=3 "
            "-o deal.hand_size=3)")
    return n


def search_graph(variant: Variant | str, *, free_draw: bool = True, deal: Deal | None = None,
                 max_deals: int = MAX_EXACT_DEALS, max_states: int | None = DEFAULT_MAX_STATES,
                 max_seconds: float | None = None) -> SearchResult:
    """The complete state graph the exact figures are computed on: every deal (or the one
    ``deal``), every state reachable under any policy. :class:`FiguresUnknown` when a
    budget stops the search. One graph serves every policy (:func:`figures_on_graph`)."""
    v = variant_of(variant)
    if deal is None:
        check_enumerable(v, free_draw, max_deals)
        init = Init.every(free_draw)
    else:
        init = Init.one(deal, free_draw)
    r = explore(v, init, max_states=max_states, max_seconds=max_seconds)
    if not r.complete:
        raise FiguresUnknown(f"the search of {init.describe()} stopped: {r.stop_reason}")
    return r


def deal_weights(graph: SearchResult) -> dict[int, int]:
    """Per initial state id, how many deals of the configuration lead to it (each deal is
    equally likely; deals a ``redeal`` lead voids have no initial state)."""
    counts: dict[int, int] = {}
    for s in init_states(graph.variant, graph.init, graph.rules):
        i = graph.id_of(s)
        if i is None:  # pragma: no cover - the search starts from these very states
            raise AssertionError(f"an initial state the search did not list: {s!r}")
        counts[i] = counts.get(i, 0) + 1
    return counts


class _Ends:
    """The probability mass of the terminal states, read into the figures (exact)."""

    def __init__(self, variant: Variant, scorer: Scorer) -> None:
        self.variant = variant
        self.scorer = scorer
        self.side = side_of_seat(variant)
        n = variant.tiles.count
        self.blocked = self.tie = self.residual = self.winner = Fraction(0)
        self.awards: dict[int | None, Fraction] = {}
        self.held = [Fraction(0)] * n
        self.lost = [Fraction(0)] * n

    def add(self, s: State, w: Fraction) -> None:
        res = self.scorer(self.variant, s)
        assert res is not None
        key = _award_of(res)
        self.awards[key] = self.awards.get(key, Fraction(0)) + w
        if res.termination is not Ending.BLOCKED:
            return
        self.blocked += w
        if res.tied:
            self.tie += w
        self.residual += w * sum(res.residuals)
        self.winner += w * min(res.totals)
        for p, hand in enumerate(s.hands):
            lost = self.side[p] not in res.winners
            for t in bits(hand):
                self.held[t] += w
                if lost:
                    self.lost[t] += w


def _award_of(res: Outcome) -> int | None:
    """The award of the winning side (every winner's is the same), ``None``: nobody."""
    return res.awards[res.winners[0]] if res.winners else None


def figures_on_graph(graph: SearchResult, policy: str | Policy, *,
                     deadline: float | None = None) -> RoundFigures:
    """The exact figures of ``policy`` on a complete state graph (:func:`search_graph`).

    ``deadline`` (a ``time.perf_counter()`` value): past it, :class:`FiguresUnknown`."""
    pol = policy_named(policy)
    ends = _Ends(graph.variant, graph.scorer)  # the engine's outcome(), unless the graph
    deals, finals, length = terminal_masses(graph, pol, deadline=deadline)  # says otherwise
    for i, m in finals:
        ends.add(graph.state(i), m)
    return _exact_record(graph, pol, deals, ends, length)


def terminal_masses(graph: SearchResult, policy: str | Policy, *,
                    deadline: float | None = None
                    ) -> tuple[int, list[tuple[int, Fraction]], Fraction]:
    """The forward dynamic programme of :func:`figures_on_graph`: the number of deals,
    each terminal state's probability under ``policy`` (state id, probability; those of
    probability zero left out) and the expected number of moves."""
    pol = policy_named(policy)
    rules = graph.rules
    if not graph.complete:
        raise FiguresUnknown(f"the search stopped: {graph.stop_reason}")
    order = graph.topological_order()
    if order is None:
        raise FiguresUnknown("the state graph has a cycle: a round need not end, so the "
                             "figures are not a finite sum over rounds")
    weights = deal_weights(graph)
    deals = sum(weights.values())
    mass: list[Fraction] = [Fraction(0)] * graph.size
    for i, k in weights.items():
        mass[i] = Fraction(k, deals)
    finals: list[tuple[int, Fraction]] = []
    length = Fraction(0)
    ptr, to = graph.edge_ptr, graph.edge_to
    for done, i in enumerate(order):
        if deadline is not None and not done % CLOCK_EVERY and time.perf_counter() > deadline:
            raise FiguresUnknown("the time budget ran out during the dynamic programme")
        m = mass[i]
        if not m:
            continue
        a, b = ptr[i], ptr[i + 1]
        if a == b:  # the round is over here (a complete graph expanded every state)
            if graph.ending_of(i) is Ending.STUCK:
                raise FiguresUnknown(f"state {i} is still being played but has no legal "
                                     "move: the rules are broken")
            finals.append((i, m))
            continue
        length += m  # every visit of a state still being played is one move
        if b - a == 1:
            mass[to[a]] += m
            continue
        s = graph.state(i)
        moves = rules.moves(s)
        if len(moves) != b - a:  # pragma: no cover - Rules.moves is a pure function
            raise AssertionError(f"state {i}: {len(moves)} moves now, {b - a} when explored")
        for e, p in zip(range(a, b), move_distribution(pol, rules, s, moves), strict=True):
            if p:
                mass[to[e]] += m * p
    return deals, finals, length


def _exact_record(graph: SearchResult, pol: Policy, deals: int, ends: _Ends,
                  length: Fraction) -> RoundFigures:
    v = graph.variant
    blocked = ends.blocked

    def at_block(x: Fraction) -> Fraction | None:
        return x / blocked if blocked else None

    scoring = {a: p for a, p in ends.awards.items() if a is not None}
    won = sum(scoring.values(), Fraction(0))
    award_mean = (sum((a * p for a, p in scoring.items()), Fraction(0)) / won
                  if won else None)
    value = v.tile_value
    risk = [TileCost(Tile.from_index(t), value[t], Tile.from_index(t).is_double,
                     Estimate.of(at_block(ends.held[t])),
                     Estimate.of(at_block(value[t] * ends.lost[t])))
            for t in range(v.tiles.count)]
    init = graph.init
    draw = ("" if not draws_from_boneyard(v) else
            "; each boneyard tile equally likely to be drawn" if init.free_draw
            else "; the boneyard drawn in the deal's own order")
    what = (f"every deal ({deals:,}), each equally likely" if init.deal is None
            else "one deal")
    return RoundFigures(
        variant=v.name, policy=pol.name, method="exact", configuration=what + draw,
        level=1.0, deals=deals, states=graph.size, rounds=None, seed=None,
        blocked=Estimate.of(blocked), tie=Estimate.of(ends.tie),
        residual=Estimate.of(at_block(ends.residual)),
        winner_residual=Estimate.of(at_block(ends.winner)),
        length=Estimate.of(length), award_mean=Estimate.of(award_mean),
        awards=tuple(AwardShare(a, Estimate.of(p)) for a, p in
                     sorted(ends.awards.items(), key=lambda kv: award_order(kv[0]))),
        risk=by_risk(risk))


def exact_figures(variant: Variant | str, policy: str | Policy, *, free_draw: bool = True,
                  deal: Deal | None = None, max_deals: int = MAX_EXACT_DEALS,
                  max_states: int | None = DEFAULT_MAX_STATES,
                  max_seconds: float | None = None) -> RoundFigures:
    """The exact figures of ``variant`` under ``policy`` (a name or a :class:`Policy`).

    Every deal (or the one ``deal``) equally likely; ``free_draw``: in a draw game each
    boneyard tile is equally likely to be drawn (else the deal's own draw order, every
    order a deal of its own: the same figures, from a graph many times larger).
    More than ``max_deals`` deals: a :class:`DominoproofError`, before any work. The
    state budget ``max_states`` or the time budget ``max_seconds`` (search and dynamic
    programme together) running out: :class:`FiguresUnknown`."""
    start = time.perf_counter()
    graph = search_graph(variant, free_draw=free_draw, deal=deal, max_deals=max_deals,
                         max_states=max_states, max_seconds=max_seconds)
    deadline = start + max_seconds if max_seconds is not None else None
    return figures_on_graph(graph, policy, deadline=deadline)


# -- Sampled figures: rounds played by the engine --------------------------------------


def sampled_figures(variant: Variant | str, policy: str | Policy, rounds: int, seed: int, *,
                    level: float = 0.95, progress: Callable[[int], None] | None = None,
                    every: int = 1000, runner: Runner | None = None,
                    batch: int = BATCH, kernel: bool | None = None) -> RoundFigures:
    """The figures measured on ``rounds`` rounds the engine plays under ``policy`` from
    ``seed`` (uniformly random deals; draws from the deal's own shuffled order, which
    is a uniformly random draw), each with a ``level`` interval. ``progress`` is called
    with the rounds done every ``every`` rounds (on a ``runner`` of several workers: as
    each batch is done). The rounds are played in batches of ``batch`` as
    :func:`~dominoproof.simulate.simulate` plays them, here or on ``runner`` (a pool or
    a cluster), the uniform policy's on the compiled kernel where it runs (``kernel``:
    ``None`` where available, ``False`` never, ``True`` or a ``ValueError``; the same
    seed gives the same rounds). Same arguments, same record, wherever the batches ran."""
    v = variant_of(variant)
    pol = policy_named(policy)
    z = z_of(level)
    if rounds < 1:
        raise DominoproofError(f"rounds = {rounds!r}: must be a whole number >= 1")
    tally = Tally.empty(v)
    for part in run_batches(batches(rounds, seed, batch),
                            partial(tally_batch, v, pol, every=every, kernel=kernel,
                                    award=_award_of), runner, progress):
        tally = tally.merge(part)
    n, b = tally.rounds, tally.blocked
    value = v.tile_value
    risk = [TileCost(Tile.from_index(t), value[t], Tile.from_index(t).is_double,
                     Estimate.share(tally.held[t], b, z),
                     Estimate.share(tally.lost[t], b, z).scaled(value[t]))
            for t in range(v.tiles.count)]
    return RoundFigures(
        variant=v.name, policy=pol.name, method="sampled",
        configuration=f"{n:,} rounds from seed {seed}, uniformly random deals",
        level=level, deals=None, states=None, rounds=n, seed=seed,
        blocked=Estimate.share(b, n, z), tie=Estimate.share(tally.ties, n, z),
        residual=_mean(tally.res_total, z), winner_residual=_mean(tally.res_winner, z),
        length=_mean(tally.length, z),
        award_mean=_mean({a: k for a, k in tally.awards.items() if a is not None}, z),
        awards=tuple(AwardShare(a, Estimate.share(k, n, z)) for a, k in
                     sorted(tally.awards.items(), key=lambda kv: award_order(kv[0]))),
        risk=by_risk(risk))


def _mean(hist: dict[int, int], z: float) -> Estimate:
    """The mean of a histogram (value -> rounds) with its interval."""
    return Estimate.mean(sum(x * k for x, k in hist.items()),
                         sum(x * x * k for x, k in hist.items()), sum(hist.values()), z)
