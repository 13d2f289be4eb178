"""The designer's figures (dominoproof.stats): exact by dynamic programming over the state
graph, sampled from the engine, and the two held to each other.

* Exact figures of single deals worked out by hand, for every policy.
* The dynamic programme against a plain recursion over every round of every deal (no
  graph, no shared states): equal fractions, figure by figure.
* A free draw order and the deal's own draw order give the same fractions.
* Exact against sampled, for every policy, on tiny-2p-d3 and a block game: every exact
  figure inside the sampled interval; and a deliberately broken dynamic programme (a
  policy mismatch, a dropped chance branch, deals weighted wrongly) caught by the same
  comparison.
* Budgets: too many deals is refused (exit 2) with the count; a budget run out is
  UNKNOWN (exit 3), never a figure; a graph with a cycle has no figures.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterator
from fractions import Fraction

import pytest
from click.testing import CliRunner
from helpers import variant

import dominoproof.proofs.analysis.stats as stats
from dominoproof.cli import main
from dominoproof.model import Variant, engine_for
from dominoproof.model.dealtext import parse_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import Move
from dominoproof.model.outcome import outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, init_states
from dominoproof.model.state import Ending, State
from dominoproof.model.tiles import Tile, bits
from dominoproof.proofs.analysis.policies import (
    POLICIES,
    Policy,
    is_chance,
    move_distribution,
    policy_named,
)
from dominoproof.proofs.analysis.stats import (
    FiguresUnknown,
    RoundFigures,
    comparisons,
    disagreements,
    exact_figures,
    figures_on_graph,
    sampled_figures,
    search_graph,
)
from dominoproof.proofs.mutants import ConfirmResets
from dominoproof.proofs.search.result import SearchResult
from dominoproof.proofs.search.statespace import explore

BLOCK_D2 = variant("block-2p-d6", {"set.max": 2, "deal.hand_size": 2})
#: A block game with every tile in play: double-3, five tiles each (252 deals).
BLOCK_D3 = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 5})
#: A draw game on double-2: two tiles each, two in the boneyard (free draw: 180 deals).
DRAW_D2 = variant("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"})
#: Fouls possible (R4.5): three players on double-2, two tiles each.
FOULS_D2 = variant("fouls-4p-d6", {"set.max": 2, "deal.players": 3, "deal.hand_size": 2,
                                   "lead.tile": "2-2"})
TINY = variant("tiny-2p-d3")


def exact(figs: RoundFigures) -> dict[str, Fraction | None]:
    """Every figure of an exact record, by name (the award distribution and the tiles'
    figures included)."""
    out: dict[str, Fraction | None] = {n: e.exact for n, e in figs.scalars()}
    out |= {f"award {a.award}": a.probability.exact for a in figs.awards}
    for c in figs.risk:
        out[f"held {c.tile}"] = c.held.exact
        out[f"cost {c.tile}"] = c.cost.exact
    return out


# ---------------------------------------------------------------------------
# Single deals worked out by hand
# ---------------------------------------------------------------------------


def test_a_deal_worked_by_hand_under_every_policy() -> None:
    """Block game, double-2, P0 leads any tile. P0: 0-0 2-2, P1: 0-1 1-1 (0-2, 1-2 out).

    * P0 leads 0-0: P1 plays 0-1 (its only play), P0 (2-2) confirms, P1 plays 1-1 and
      dominoes: 5 moves; P1 wins P0's 4 pips.
    * P0 leads 2-2: P1 has no 2 and confirms, P0 (0-0) confirms, the block is
      established: 4 moves; P0 (0 pips) beats P1 (0-1 1-1: 3 pips) and wins 3.

    random leads either tile half the time; greedy leads 2-2 (4 pips); block-seeking
    leads 2-2 too (after 0-0 P1 could play). At the block P1, who lost, holds 1-1 (2)
    and 0-1 (1); P0, who won, holds 0-0.
    """
    deal = parse_deal(BLOCK_D2, "P0: 0-0 2-2; P1: 0-1 1-1; aside: 0-2 1-2")
    half = Fraction(1, 2)
    want = {"random": (half, Fraction(9, 2), {3: half, 4: half}, Fraction(7, 2)),
            "greedy": (Fraction(1), Fraction(4), {3: Fraction(1)}, Fraction(3)),
            "block-seeking": (Fraction(1), Fraction(4), {3: Fraction(1)}, Fraction(3))}
    for policy, (blocked, length, awards, mean) in want.items():
        f = exact_figures(BLOCK_D2, policy, deal=deal)
        assert (f.blocked.exact, f.length.exact, f.award_mean.exact) == (blocked, length, mean)
        assert {a.award: a.probability.exact for a in f.awards} == awards
        assert (f.tie.exact, f.residual.exact, f.winner_residual.exact) == (0, 3, 0)
        cost = {str(c.tile): (c.held.exact, c.cost.exact) for c in f.risk}
        assert cost["1-1"] == (1, 2) and cost["0-1"] == (1, 1) and cost["0-0"] == (1, 0)
        assert cost["2-2"] == (0, 0)
        assert [str(c.tile) for c in f.risk[:2]] == ["1-1", "0-1"]  # by cost
        assert f.deals == 1 and f.method == "exact" and f.policy == policy


def test_a_deal_where_greedy_and_block_seeking_part() -> None:
    """P0: 1-2 0-0, P1: 2-2 1-1 (0-1, 0-2 out). Leading 1-2 (greedy: 3 pips) lets P1
    play both doubles and domino (P0's 0-0 never fits): award 0, 5 moves. Leading 0-0
    (block-seeking: P1 holds no 0) blocks at once: P0 (3 pips) beats P1 (6) and wins 6
    in 4 moves. random: each half the time."""
    deal = parse_deal(BLOCK_D2, "P0: 1-2 0-0; P1: 2-2 1-1; aside: 0-1 0-2")
    half = Fraction(1, 2)
    g = exact_figures(BLOCK_D2, "greedy", deal=deal)
    assert (g.blocked.exact, g.length.exact) == (0, 5)
    assert {a.award: a.probability.exact for a in g.awards} == {0: 1}
    assert g.residual.value is None and g.residual.exact is None  # no block: undefined
    b = exact_figures(BLOCK_D2, "block-seeking", deal=deal)
    assert (b.blocked.exact, b.length.exact, b.residual.exact) == (1, 4, 9)
    assert {a.award: a.probability.exact for a in b.awards} == {6: 1}
    assert [(str(c.tile), c.cost.exact) for c in b.risk[:2]] == [("2-2", 4), ("1-1", 2)]
    r = exact_figures(BLOCK_D2, "random", deal=deal)
    assert (r.blocked.exact, r.length.exact, r.award_mean.exact) == (half, Fraction(9, 2), 3)


def test_a_variant_that_never_blocks_by_hand() -> None:
    """One tile each on double-6 (756 deals): the leader lays it and dominoes. The award
    is the other player's tile, a uniformly random other tile: 6 pips on average (the
    set's 168 pips over 28 tiles)."""
    v = variant("block-2p-d6", {"deal.hand_size": 1})
    f = exact_figures(v, "random")
    assert f.deals == 756
    assert (f.blocked.exact, f.tie.exact, f.length.exact, f.award_mean.exact) == (0, 0, 2, 6)
    assert f.residual.exact is None and all(c.cost.exact is None for c in f.risk)


# ---------------------------------------------------------------------------
# The dynamic programme against a plain recursion over every round
# ---------------------------------------------------------------------------


def reference(v: Variant, policy: Policy, free_draw: bool = True) -> dict[str, Fraction | None]:
    """The figures summed over every complete round of every deal, each round weighted by
    its probability (1 / deals times the probability of each move): no graph, no shared
    state, the length counted move by move."""
    rules = engine_for(v)
    deals = list(init_states(v, Init.every(free_draw)))
    ends: list[tuple[Fraction, int, State]] = []

    def walk(s: State, p: Fraction, n: int) -> None:
        if s.is_terminal:
            ends.append((p, n, s))
            return
        moves = rules.moves(s)
        for m, q in zip(moves, move_distribution(policy, rules, s, moves), strict=True):
            if q:
                walk(rules.step(s, m), p * q, n + 1)

    for s in deals:
        walk(s, Fraction(1, len(deals)), 0)
    sides = {p: i for i, team in enumerate(v.teams) for p in team}
    total: dict[str, Fraction] = {}

    def add(key: str, x: Fraction) -> None:
        total[key] = total.get(key, Fraction(0)) + x

    for p, n, s in ends:
        res = outcome(v, s)
        assert res is not None
        add("length", p * n)
        add(f"award {res.awards[res.winners[0]] if res.winners else None}", p)
        if res.winners:
            add("scored", p)
            add("award_sum", p * res.awards[res.winners[0]])
        if res.termination is Ending.BLOCKED:
            add("blocked", p)
            add("tie", p if res.tied else Fraction(0))
            add("residual", p * sum(res.residuals))
            add("winner_residual", p * min(res.totals))
            for seat, hand in enumerate(s.hands):
                for t in bits(hand):
                    tile = Tile.from_index(t)
                    add(f"held {tile}", p)
                    if sides[seat] not in res.winners:
                        add(f"cost {tile}", p * v.tile_value[t])
    b = total.get("blocked", Fraction(0))
    out: dict[str, Fraction | None] = {
        "blocked": b, "tie": total.get("tie", Fraction(0)), "length": total["length"],
        "award_mean": total["award_sum"] / total["scored"] if total.get("scored") else None}
    for key in ("residual", "winner_residual"):
        out[key] = total[key] / b if b else None
    for key, x in total.items():
        if key.startswith("award "):
            out[key] = x
    for t in range(v.tiles.count):
        tile = Tile.from_index(t)
        for key in (f"held {tile}", f"cost {tile}"):
            out[key] = total.get(key, Fraction(0)) / b if b else None
    return out


@pytest.mark.parametrize("config", ["BLOCK_D2", "DRAW_D2", "FOULS_D2"])
@pytest.mark.parametrize("policy", list(POLICIES))
def test_the_dynamic_programme_equals_a_sum_over_every_round(config: str, policy: str) -> None:
    v = globals()[config]
    got = exact(exact_figures(v, policy))
    assert got == reference(v, policy_named(policy))


def first_draw_only(policy: Policy, rules: RuleBook, s: State,
                    moves: tuple[Move, ...]) -> tuple[Fraction, ...]:
    """A broken chance step: the first boneyard tile is always the one drawn."""
    if len(moves) > 1 and is_chance(moves):
        return (Fraction(1),) + (Fraction(0),) * (len(moves) - 1)
    return move_distribution(policy, rules, s, moves)


def first_half_of_the_deals(graph: SearchResult) -> dict[int, int]:
    """Broken deal weights: the later half of the deals forgotten."""
    w = sorted(_deal_weights(graph).items())
    return dict(w[:len(w) // 2])


_deal_weights = stats.deal_weights


def test_the_recursion_catches_a_broken_programme(monkeypatch: pytest.MonkeyPatch) -> None:
    want = reference(DRAW_D2, policy_named("random"))
    with monkeypatch.context() as m:
        m.setattr(stats, "move_distribution", first_draw_only)
        assert exact(exact_figures(DRAW_D2, "random")) != want
    with monkeypatch.context() as m:
        m.setattr(stats, "deal_weights", first_half_of_the_deals)
        assert exact(exact_figures(DRAW_D2, "random")) != want
    assert exact(exact_figures(DRAW_D2, "random")) == want


def test_shared_states_are_weighted_by_every_way_in() -> None:
    """In a free draw order, different deals reach common states (two tiles swapped
    between a hand and the boneyard, then drawn): the graph is smaller than the rounds'
    trees, and the figures are still the average over the deals of each deal's own."""
    graph = search_graph(DRAW_D2)
    per_deal = [exact_figures(DRAW_D2, "random", deal=d) for d in
                _deals(DRAW_D2)]
    assert sum(f.states or 0 for f in per_deal) > graph.size  # states shared by deals
    whole = figures_on_graph(graph, "random")
    n = len(per_deal)
    assert whole.blocked.exact == sum((f.blocked.exact or 0 for f in per_deal), Fraction(0)) / n
    assert whole.length.exact == sum((f.length.exact or 0 for f in per_deal), Fraction(0)) / n


def _deals(v: Variant) -> Iterator[object]:
    from dominoproof.model.engine import deal_of

    for s in init_states(v, Init.every(True)):
        yield deal_of(s)


def draw_orders_agree(v: Variant, deals: tuple[int, int]) -> None:
    """Every tile equally likely to be drawn, or every order of the boneyard a deal of its
    own: the same fractions under every policy (a policy never reads the order)."""
    free, fixed = search_graph(v), search_graph(v, free_draw=False)
    assert fixed.size > free.size
    for policy in POLICIES:
        a, b = figures_on_graph(free, policy), figures_on_graph(fixed, policy)
        assert (a.deals, b.deals) == deals
        assert exact(a) == exact(b)
        assert "each boneyard tile equally likely" in a.configuration
        assert "the deal's own order" in b.configuration


def test_a_free_draw_order_and_the_deals_own_order_agree() -> None:
    deals = math.comb(6, 2) * math.comb(4, 2)  # two hands of 2 of 6 tiles
    draw_orders_agree(DRAW_D2, (deals, deals * 2))  # two tiles in the boneyard: two orders


@pytest.mark.slow
def test_a_free_draw_order_and_the_deals_own_order_agree_on_tiny() -> None:
    deals = math.comb(10, 3) * math.comb(7, 3)  # two hands of 3 of 10 tiles
    draw_orders_agree(TINY, (deals, deals * math.factorial(4)))  # 4 in the boneyard


def test_the_draw_order_comparison_catches_a_dropped_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = figures_on_graph(search_graph(DRAW_D2, free_draw=False), "random")
    monkeypatch.setattr(stats, "move_distribution", first_draw_only)
    assert exact(figures_on_graph(search_graph(DRAW_D2), "random")) != exact(fixed)


# ---------------------------------------------------------------------------
# Exact against sampled
# ---------------------------------------------------------------------------

#: Rounds sampled per policy: enough that a broken programme shows, few enough for the
#: fast tier.
ROUNDS = {"tiny-2p-d3": 10_000, "block-d3": 10_000}
CONFIGS = {"tiny-2p-d3": TINY, "block-d3": BLOCK_D3}


@functools.cache
def graph(name: str) -> SearchResult:
    """The state graph of a configuration, searched once per test process (the figures of
    each policy, exact and sampled, are likewise computed once, when first needed)."""
    return search_graph(CONFIGS[name])


@functools.cache
def exact_of(name: str, policy: str) -> RoundFigures:
    return figures_on_graph(graph(name), policy)


def family_level(figs: RoundFigures) -> float:
    """A confidence for each figure such that all of them hold together at 95% at least
    (Bonferroni over the figures an exact record defines: with ~45 figures at 95% each,
    two or three would fall outside their interval by chance alone)."""
    defined = sum(x is not None for x in exact(figs).values())
    return 1 - 0.05 / defined


@functools.cache
def sampled_of(name: str, policy: str) -> RoundFigures:
    return sampled_figures(CONFIGS[name], policy, ROUNDS[name], seed=7,
                           level=family_level(exact_of(name, policy)))


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("policy", list(POLICIES))
def test_exact_and_sampled_agree(name: str, policy: str) -> None:
    e, s = exact_of(name, policy), sampled_of(name, policy)
    assert len(comparisons(e, s)) > 30  # every figure compared, the tiles' included
    assert disagreements(e, s) == []
    assert e.blocked.value and e.residual.value  # rounds block: the figures at a block count


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_policy_mismatch_is_caught(name: str, policy: str) -> None:
    """The exact figures of one policy against rounds played under another."""
    for other in POLICIES:
        if other != policy:
            assert disagreements(exact_of(name, policy), sampled_of(name, other)), other


@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_dropped_draw_is_caught(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sampled = sampled_of("tiny-2p-d3", policy)
    monkeypatch.setattr(stats, "move_distribution", first_draw_only)
    broken = figures_on_graph(graph("tiny-2p-d3"), policy)
    assert disagreements(broken, sampled)


@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_dropped_deal_is_caught(policy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sampled = sampled_of("block-d3", policy)
    monkeypatch.setattr(stats, "deal_weights", first_half_of_the_deals)
    broken = figures_on_graph(graph("block-d3"), policy)
    assert disagreements(broken, sampled)


def test_sampled_figures_are_a_function_of_their_arguments() -> None:
    a = sampled_figures(TINY, "greedy", 300, 5)
    assert a == sampled_figures(TINY, "greedy", 300, 5)
    assert a != sampled_figures(TINY, "greedy", 300, 6)
    assert a.rounds == 300 and a.exact is False and a.blocked.n == 300
    assert sum(x.probability.value or 0 for x in a.awards) == pytest.approx(1)
    lo, hi = a.blocked.low, a.blocked.high
    assert lo is not None and hi is not None and lo <= (a.blocked.value or 0) <= hi
    costs = [c.cost.value or 0 for c in a.risk]
    assert costs == sorted(costs, reverse=True)


# ---------------------------------------------------------------------------
# Budgets and refusals
# ---------------------------------------------------------------------------


def test_too_many_deals_is_refused_before_any_work() -> None:
    deals = math.comb(28, 7) * math.comb(21, 7)  # two hands of 7 of 28, the rest out
    with pytest.raises(DominoproofError, match=rf"^block-2p-d6: --exact: {deals:,} deals, "
                                               r"more than the 250,000 .* use --sampled"):
        exact_figures(variant("block-2p-d6"), "random")
    with pytest.raises(DominoproofError, match=r"4,200 deals \(each boneyard tile equally "
                                               r"likely to be drawn\), more than the 100 "):
        exact_figures(TINY, "random", max_deals=100)


def test_a_budget_that_runs_out_is_unknown_never_a_figure() -> None:
    with pytest.raises(FiguresUnknown, match="state budget of 5,000 states"):
        exact_figures(TINY, "random", max_states=5_000)
    with pytest.raises(FiguresUnknown, match="time budget"):
        exact_figures(DRAW_D2, "random", max_seconds=1e-9)


def test_a_round_that_need_not_end_has_no_figures() -> None:
    graph = explore(BLOCK_D2, Init.every(), rules=ConfirmResets(BLOCK_D2))
    assert graph.complete
    with pytest.raises(FiguresUnknown, match="cycle"):
        figures_on_graph(graph, "random")


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_stats_exact_text_and_json_agree() -> None:
    code, text, _ = run("stats", "block-2p-d6", "-o", "set.max=2", "-o", "deal.hand_size=2",
                        "--policy", "greedy")
    assert code == 0
    assert "Exact figures of block-2p-d6+set.max=2,deal.hand_size=2\n  policy greedy: " in text
    assert "every deal (90), each equally likely" in text
    code, out, _ = run("stats", "block-2p-d6", "-o", "set.max=2", "-o", "deal.hand_size=2",
                       "--policy", "greedy", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["status"] == "answered" and doc["method"] == "exact"
    f = exact_figures(BLOCK_D2, "greedy")
    assert doc["figures"]["blocked"]["exact"] == str(f.blocked.exact)
    assert f"{100 * f.blocked.value:.2f}%" in text and str(f.blocked.exact) in text


def test_stats_sampled_prints_intervals() -> None:
    code, text, _ = run("stats", "tiny", "--sampled", "-n", "300", "--seed", "3",
                        "--policy", "block-seeking")
    assert code == 0 and "95% interval" in text and "300 rounds from seed 3" in text


def test_stats_is_exact_when_small_else_sampled_saying_which() -> None:
    deals = math.comb(28, 7) * math.comb(21, 7)
    code, text, _ = run("stats", "block-2p-d6", "-n", "200")
    assert code == 0 and "Sampled figures of block-2p-d6" in text  # -n chose --sampled
    code, text, _ = run("stats", "block-2p-d6", "-o", "set.max=2", "-o", "deal.hand_size=2")
    assert code == 0 and text.startswith("Exact figures of")
    code, _, err = run("stats", "tiny", "--max-deals", "100")  # an exact-only option
    assert code == 2 and "4,200 deals" in err and "--max-deals" in err
    code, _, err = run("stats", "block-2p-d6", "--exact")
    assert code == 2 and err.count("\n") == 1
    assert f"{deals:,} deals" in err and "--sampled" in err
    code, _, err = run("stats", "draw-10p-d18", "--exact")
    assert code == 2 and "about 1." in err and " x 10^" in err  # not a 60-digit count


def test_stats_exit_codes() -> None:
    code, text, _ = run("stats", "tiny", "--max-states", "2000")
    assert code == 3 and "UNKNOWN" in text and "0." not in text
    code, out, _ = run("stats", "tiny", "--max-states", "2000", "--json")
    doc = json.loads(out)
    assert code == 3 and doc["status"] == "unknown" and doc["figures"] is None
    for args in (["--policy", "nope"], ["--sampled", "--deal", "P0: 0-0"],
                 ["--exact", "--seed", "3"], ["--sampled", "--max-deals", "9"],
                 ["--seed", "3", "--max-deals", "9"]):
        code, _, err = run("stats", "tiny", *args)
        assert code == 2 and err.startswith("dominoproof: error: ") and err.count("\n") == 1
    assert "--policy nope: no such policy" in run("stats", "tiny", "--policy", "nope")[2]
    assert "--seed: applies to --sampled only" in run("stats", "tiny", "--exact", "--seed",
                                                      "3")[2]


def test_simulate_takes_a_policy() -> None:
    code, text, _ = run("simulate", "tiny", "-n", "200", "--policy", "greedy")
    assert code == 0 and "200 rounds of the greedy policy" in text
    code, out, _ = run("simulate", "tiny", "-n", "200", "--policy", "greedy", "--json")
    assert json.loads(out)["policy"] == "greedy"
    code, _, err = run("simulate", "tiny", "--policy", "nope")
    assert code == 2 and "no such policy" in err
    help_text = run("simulate", "--help")[1]
    assert all(p in help_text for p in POLICIES)


def test_the_api_takes_a_preset_name_and_overrides() -> None:
    from dominoproof import api

    f = api.exact_figures("block-2p-d6", "greedy",
                          overrides={"set.max": 2, "deal.hand_size": 2})
    assert exact(f) == exact(exact_figures(BLOCK_D2, "greedy"))
    s = api.sampled_figures("tiny", "random", 200, 1)
    assert s.rounds == 200 and s == sampled_figures(TINY, "random", 200, 1)
    with pytest.raises(FiguresUnknown):
        api.exact_figures("tiny", max_states=10)
