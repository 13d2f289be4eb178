"""Monte-Carlo statistics (dominoproof.simulate): checked against an independent count.

The reference below plays the same seeded stream of rounds as
:func:`~dominoproof.model.engine.random_rounds`, but keeps every round as a
:class:`~dominoproof.model.engine.Trace`, replays it with the legality checks of
``apply`` and scores it with the full :func:`~dominoproof.model.outcome.outcome`
(R5). It counts with plain lists, so it shares nothing with the fast loop of
``simulate`` except the engine that plays the moves.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominoproof.model import (
    Ending,
    MoveKind,
    Trace,
    Variant,
    engine_for,
    find_variant,
    initial_state,
    random_rounds,
    shuffled_deal,
)
from dominoproof.model.engine import playout
from dominoproof.model.outcome import side_of
from dominoproof.model.tiles import Tile, bits
from dominoproof.options import resolve_variant
from dominoproof.proofs.analysis.simulate import Distribution, Statistics, simulate, wilson

# ---------------------------------------------------------------------------
# The reference: traces, replayed and fully scored
# ---------------------------------------------------------------------------


def traces(v: Variant, n: int, seed: int) -> Iterator[Trace]:
    """The rounds of ``random_rounds(v, n, seed)``, each kept as a trace."""
    rules = engine_for(v)
    rng = random.Random(seed)
    for _ in range(n):
        deal = shuffled_deal(v, rng)
        moves: list[Any] = []
        playout(rules, initial_state(v, deal, rules=rules), rng.random, moves)
        yield Trace(v, deal, tuple(moves), None)


@dataclass
class Reference:
    rounds: int = 0
    blocked: int = 0
    residual_total: list[int] = field(default_factory=list)
    residual_winner: list[int] = field(default_factory=list)
    wins_blocked: list[int] = field(default_factory=list)
    wins_domino: list[int] = field(default_factory=list)
    no_winner: int = 0
    ties: int = 0
    length: list[int] = field(default_factory=list)
    plays: list[int] = field(default_factory=list)
    held: dict[Tile, int] = field(default_factory=dict)
    lost: dict[Tile, int] = field(default_factory=dict)


def reference(v: Variant, n: int, seed: int) -> Reference:
    ref = Reference(wins_blocked=[0] * len(v.teams), wins_domino=[0] * len(v.teams))
    finals = [s for s, _ in random_rounds(v, n, seed)]
    for trace, final in zip(traces(v, n, seed), finals, strict=True):
        assert trace.final == final  # the same stream of rounds, replayed legally
        res = trace.outcome
        assert res is not None
        ref.rounds += 1
        ref.length.append(len(trace.moves))
        ref.plays.append(sum(m.kind is MoveKind.PLAY for m in trace.moves))
        if res.termination is Ending.DOMINO:
            (w,) = res.winners
            ref.wins_domino[w] += 1
            continue
        ref.blocked += 1
        ref.residual_total.append(sum(res.residuals))
        ref.residual_winner.append(min(res.totals))
        for w in res.winners:
            ref.wins_blocked[w] += 1
        ref.no_winner += not res.winners
        ref.ties += bool(res.tied)
        for p, hand in enumerate(final.hands):
            for t in bits(hand):
                tile = Tile.from_index(t)
                ref.held[tile] = ref.held.get(tile, 0) + 1
                if side_of(res.sides, p) not in res.winners:
                    ref.lost[tile] = ref.lost.get(tile, 0) + 1
    return ref


def hist(xs: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x in xs:
        out[x] = out.get(x, 0) + 1
    return out


def differences(stats: Statistics, ref: Reference, v: Variant) -> list[str]:
    """Every figure of ``stats`` that the reference count does not confirm."""
    diff = []

    def check(name: str, got: object, want: object) -> None:
        if got != want:
            diff.append(f"{name}: {got!r} != {want!r}")

    check("rounds", stats.rounds, ref.rounds)
    check("blocked", stats.blocked, ref.blocked)
    check("dominoes", stats.dominoes, ref.rounds - ref.blocked)
    check("residual_total", stats.residual_total, Distribution.of(hist(ref.residual_total)))
    check("residual_winner", stats.residual_winner, Distribution.of(hist(ref.residual_winner)))
    check("wins_blocked", list(stats.wins_blocked), ref.wins_blocked)
    check("wins_domino", list(stats.wins_domino), ref.wins_domino)
    check("no_winner", stats.no_winner, ref.no_winner)
    check("ties", stats.ties, ref.ties)
    check("tie_settled total", sum(k for _, k in stats.tie_settled), ref.ties)
    check("length", stats.length, Distribution.of(hist(ref.length)))
    check("plays", stats.plays, Distribution.of(hist(ref.plays)))
    for r in stats.risk:
        check(f"held {r.tile}", r.held, ref.held.get(r.tile, 0))
        check(f"lost {r.tile}", r.lost, ref.lost.get(r.tile, 0))
        check(f"value {r.tile}", r.value, v.tile_value[r.tile.idx])
    # the risk table lists the most held tiles: nothing left out is held more often
    if stats.risk:
        floor = min(r.held for r in stats.risk)
        listed = {r.tile for r in stats.risk}
        check("risk order", [t for t, k in ref.held.items() if k > floor and t not in listed], [])
    return diff


@pytest.mark.parametrize(("name", "n"), [
    ("block-2p-d6", 300), ("block-4p-d6", 300), ("partnership-4p-d6", 200),
    ("fouls-4p-d6", 150), ("draw-2p-d6", 150), ("tiny-2p-d3", 400), ("draw-4p-d9", 60),
])
def test_statistics_agree_with_an_independent_count(name: str, n: int) -> None:
    v = find_variant(name)
    stats = simulate(v, n, seed=11, top=50)
    assert differences(stats, reference(v, n, 11), v) == []


@pytest.mark.parametrize("name", ["block-4p-d6", "partnership-4p-d6"])
def test_a_block_won_by_the_fewest_tiles_is_counted_as_the_outcome_says(name: str) -> None:
    """R5.2a: simulate's own count of the winners follows block_winner = "fewest-tiles"."""
    v = resolve_variant(name, ['scoring.block_winner="fewest-tiles"'])
    stats = simulate(v, 200, seed=11, top=50)
    assert differences(stats, reference(v, 200, 11), v) == []
    pips = find_variant(name)
    assert list(simulate(pips, 200, seed=11, top=50).wins_blocked) != list(stats.wins_blocked)


def test_the_comparison_catches_a_scoring_difference() -> None:
    # Scored under another tie rule, the same rounds give other winners, and the
    # comparison says so; the rounds themselves (lengths, residuals) are the same.
    base = find_variant("block-4p-d6")  # ties are split: shared wins
    other = resolve_variant("block-4p-d6", ["scoring.tie=none"])
    diff = differences(simulate(other, 300, 11, top=50), reference(base, 300, 11), base)
    assert diff
    kinds = {d.split(":")[0].split()[0] for d in diff}
    assert {"wins_blocked", "no_winner"} <= kinds <= {"wins_blocked", "no_winner", "lost"}


def test_counts_add_up_and_the_interval_contains_the_share() -> None:
    v = find_variant("block-4p-d6")
    s = simulate(v, 500, seed=3)
    assert s.blocked + s.dominoes == s.rounds == 500
    assert sum(s.wins_domino) == s.dominoes  # a domino has exactly one winner
    assert sum(s.wins_blocked) >= s.blocked - s.no_winner  # split ties count for each
    assert s.residual_total.count == s.residual_winner.count == s.blocked
    assert s.length.count == s.plays.count == s.rounds
    lo, hi = s.block_ci
    assert lo < s.block_share < hi
    assert s.block_share == s.blocked / s.rounds
    assert all(r.held_share == r.held / s.blocked for r in s.risk)
    assert [r.held for r in s.risk] == sorted((r.held for r in s.risk), reverse=True)
    assert len(s.risk) == 10
    assert all(isinstance(x, int) for d in (s.residual_total, s.residual_winner)
               for x in (d.min, d.median, d.p95, d.max))


def test_same_seed_same_statistics() -> None:
    v = find_variant("tiny")
    a, b = simulate(v, 200, 5), simulate(v, 200, 5)
    assert a == b and a.to_json() == b.to_json()
    assert simulate(v, 200, 6) != a


def test_a_variant_that_never_blocks() -> None:
    # One tile each: the leader lays it and dominoes at once, in every round.
    v = resolve_variant("block-2p-d6", ["deal.hand_size=1"])
    s = simulate(v, 200, seed=1)
    assert s.blocked == 0 and s.block_share == 0.0 and s.dominoes == 200
    assert s.block_ci[0] == 0.0 and 0.0 < s.block_ci[1] < 0.03
    assert s.wins_domino == (200, 0)  # P0 leads (lead rule "player")
    assert s.risk == () and s.residual_total == Distribution(0, None, None, None, None, None)
    assert s.length == Distribution(200, 2.0, 2, 2, 2, 2)  # the lead, then the domino
    assert s.to_json()["blocked"]["ci95"][0] == 0.0


def test_progress_is_reported() -> None:
    seen: list[int] = []
    simulate(find_variant("tiny"), 250, 1, progress=seen.append, every=100)
    assert seen == [100, 200, 250]


def test_simulate_and_the_sampled_figures_run_their_batches_alike() -> None:
    """One dispatch of batches serves both tallies: in this process each batch tells the
    rounds done every ``every`` rounds of its own (the batches before added), and the
    total once at the end; on a pool of workers, as each batch is done, and the figures
    are the same as here."""
    from dominoproof.proofs.analysis.stats import sampled_figures
    from dominoproof.proofs.runner import LocalPool

    v = find_variant("tiny")
    told: dict[str, list[int]] = {"simulate": [], "stats": [], "pool": []}
    here = simulate(v, 250, 1, progress=told["simulate"].append, every=100, batch=120)
    one = sampled_figures(v, "random", 250, 1, progress=told["stats"].append, every=100,
                          batch=120)
    assert told["simulate"] == told["stats"] == [100, 220, 250]
    assert simulate(v, 250, 1, batch=120, runner=LocalPool(2)) == here
    pooled = sampled_figures(v, "random", 250, 1, progress=told["pool"].append, batch=120,
                             runner=LocalPool(2))
    assert pooled == one
    assert told["pool"] == sorted(told["pool"]) and told["pool"][-1] == 250
    assert len(told["pool"]) == 3  # a batch done, a report: the last is the total


def test_run_batches_keeps_the_plans_order_and_tells_the_total() -> None:
    from dominoproof.proofs.analysis.simulate import batches, run_batches
    from dominoproof.proofs.runner import LocalPool

    plan = batches(25, 3, 10)
    for runner in (None, LocalPool(2)):
        seen: list[int] = []
        got = run_batches(plan, _echo, runner, seen.append)
        assert got == plan
        assert seen[-1] == 25 and seen == sorted(seen)
    assert run_batches([], _echo, None, None) == []


def _echo(n: int, seed: int, tell: Any) -> tuple[int, int]:
    """A batch's "count": the batch itself (telling nothing)."""
    return n, seed


# ---------------------------------------------------------------------------
# The pieces: Wilson interval, distributions
# ---------------------------------------------------------------------------


def test_wilson_known_values() -> None:
    # Reference values of the Wilson score interval at 95%.
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 10**6), st.floats(0, 1))
def test_wilson_contains_the_share(n: int, p: float) -> None:
    k = round(p * n)
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo2, hi2 = wilson(4 * k, 4 * n)  # more trials, same share: a narrower interval
    assert hi2 - lo2 <= hi - lo + 1e-12


@given(st.lists(st.integers(0, 300), min_size=1, max_size=200))
def test_distribution_matches_a_sorted_list(xs: list[int]) -> None:
    d = Distribution.of(hist(xs))
    s = sorted(xs)
    assert d.count == len(xs)
    assert d.min == s[0] and d.max == s[-1]
    assert d.median == statistics.median_low(xs)
    assert d.p95 == s[math.ceil(0.95 * len(s)) - 1]  # nearest rank
    assert d.mean == pytest.approx(statistics.fmean(xs))
