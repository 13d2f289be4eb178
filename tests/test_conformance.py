"""Conformance: the engine against a plain reading of SEMANTICS.md.

On every state the project's exhaustive search visits on small configurations,
the engine's legal moves and their successors must equal those of the plain
reference implementation (``tests/reference_rules.py``, written from
docs/SEMANTICS.md, not from ``model/rules.py``), and both must classify and
score terminal states alike. The check is shown able to fail: it reports a
mismatch for every engine mutant of ``proofs/faults.py`` and every scoring
mutant. Counterexample and witness traces replay in the engine to the states the
search recorded.

Fast tier: samples of deals. Slow tier: every deal of the configuration.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from conformance_kit import SMALL, assert_agree, check, configs, move_kinds, sample
from helpers import variant
from reference_rules import ReferenceOracle

from dominoproof.model import MoveKind, State, Status, random_round
from dominoproof.model.spec import Init, every_deal
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs import kernel
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.mutants import DrawLosesTile
from dominoproof.proofs.search.statespace import explore

# ---------------------------------------------------------------------------
# Engine = reference on small configurations (fast tier: samples)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "overrides", "k", "free"), [
    ("tiny-2p-d3", {}, 120, False),
    ("tiny-2p-d3", {}, 30, True),
    ("block-2p-d6", SMALL, 100, False),
    ("block-2p-d6", {**SMALL, "deal.players": 3}, 30, False),
    ("tiny-2p-d3", {"draw.rule": "one"}, 100, False),
    ("tiny-2p-d3", {"draw.rule": "one"}, 20, True),
    ("fouls-4p-d6", {**SMALL, "deal.players": 2, "lead.tile": "3-3"}, 80, False),
    ("draw-leave2-2p-d6", SMALL, 100, False),
    ("tiny-2p-d3", {"draw.rule": "one", "fouls.rule": "penalised", "fouls.penalty": 5},
     60, False),
    ("tiny-2p-d3", {"draw.when": "any-time"}, 60, False),
    ("tiny-2p-d3", {"draw.rule": "one", "draw.when": "any-time",
                    "fouls.rule": "penalised"}, 20, True),
    ("tiny-2p-d3", {"block.call": "dead-end"}, 80, False),
    ("tiny-2p-d3", {"draw.rule": "one", "block.call": "dead-end"}, 20, True),
    ("tiny-2p-d3", {"lead.fallback": "draw", "lead.player": 1}, 120, False),
    ("tiny-2p-d3", {"lead.rule": "highest-double", "lead.fallback": "draw",
                    "draw.rule": "one", "deal.players": 3, "deal.hand_size": 2}, 40, True),
], ids=["tiny", "tiny-free", "block-d3-2p", "block-d3-3p", "draw-one", "draw-one-free",
        "fouls-2p", "leave2", "fouls-draw-one", "any-time", "any-time-draw-one-fouls-free",
        "call", "call-draw-one-free", "draw-for-lead", "draw-for-double-3p-free"])
def test_engine_matches_reference_on_sampled_deals(name: str, overrides: dict[str, Any],
                                                   k: int, free: bool) -> None:
    v = variant(name, overrides)
    res, _ = check(v, configs(sample(v, k, seed=1), free))
    assert_agree(res)


def test_the_samples_exercise_every_kind_of_move() -> None:
    """The configurations above reach leads, plays, draws, passes, confirmations,
    fouls, establishments and dominoes: the agreement is not vacuous."""
    seen: Counter[str] = Counter()
    for name, overrides in [("tiny-2p-d3", {"draw.rule": "one", "lead.fallback": "draw"}),
                            ("fouls-4p-d6", {**SMALL, "deal.players": 2,
                                             "lead.tile": "3-3"})]:
        v = variant(name, overrides)
        _, states = check(v, configs(sample(v, 40, seed=1)))
        seen += move_kinds(v, states)
    for kind in ("lead", "play", "draw", "pass", "confirm", "foul", "establish", "domino",
                 "blocked", "draw for the lead"):
        assert seen[kind] > 0, (kind, seen)


def test_fouls_three_players_on_a_few_deals() -> None:
    """Penalised false declarations with three players (the state space of one deal is
    large: many seats may each foul once)."""
    v = variant("fouls-4p-d6", {**SMALL, "deal.players": 3, "lead.tile": "3-3"})
    res, states = check(v, configs(sample(v, 2, seed=3)))
    assert_agree(res)
    assert move_kinds(v, states)["foul"] > 0


def test_initial_states_agree_for_every_deal_and_lead_rule() -> None:
    """Init: 1000 deals of double-3 (2 players, 3 tiles) under each lead rule and
    fallback, both deal orders; a voided deal (fallback "redeal") on both sides."""
    lead_rules: list[dict[str, Any]] = [
        {},
        {"lead.fallback": "highest-double"},
        {"lead.fallback": "player", "lead.player": 1},
        {"lead.fallback": "redeal"},
        {"lead.rule": "highest-double", "lead.fallback": "heaviest-tile"},
        {"lead.rule": "highest-double", "lead.fallback": "redeal"},
        {"lead.fallback": "draw", "lead.player": 1},  # R3.6: P1 draws first
        {"lead.rule": "highest-double", "lead.fallback": "draw"},
        {"lead.rule": "player", "lead.player": 1},
        {"deal.order": "round-robin"},
    ]
    voided = 0
    for overrides in lead_rules:
        v = variant("tiny-2p-d3", overrides)
        deals = random.Random(0).sample(list(every_deal(v, True)), 1000)
        ref, eng = ReferenceOracle(v), c.EngineOracle(v)
        res = c.compare_initial(v, deals, eng, ref)
        assert res.ok, res.describe()
        voided += sum(ref.initial(d.hands, d.stack, d.set_aside) is None for d in deals)
    assert voided > 0  # the redeal fallback was exercised


def test_deal_orders_agree_with_semantics() -> None:
    """SEMANTICS Init: "blocks" and "round-robin" dealing of one permutation."""
    from reference_rules import deal_from_order, mask_to_set, tile_of

    for order_name in ("blocks", "round-robin"):
        v = variant("draw-leave2-2p-d6", {**SMALL, "deal.order": order_name})
        rng = random.Random(5)
        for _ in range(50):
            order = list(range(v.tiles.count))
            rng.shuffle(order)
            d = Deal.from_order(v, order)
            hands, stack, aside = deal_from_order(v, order)
            assert [mask_to_set(h) for h in d.hands] == hands
            assert [tile_of(t) for t in d.stack] == stack
            assert mask_to_set(d.set_aside) == aside


# ---------------------------------------------------------------------------
# Scoring (R5): the reference's reading of SEMANTICS "Scoring" against outcome()
# ---------------------------------------------------------------------------

SCORING: list[dict[str, Any]] = [
    {"scoring.tie": "none"},
    {"scoring.tie": "split", "scoring.block_award": "others-minus-winner"},
    {"scoring.tie": "all-win", "scoring.round_to": 5},
    {"scoring.tie": "first-from-proposer", "scoring.block_award": "all-residuals"},
    {"scoring.tie": "lightest-tile", "scoring.tile_values": {"0-0": 25, "1-2": 7}},
    {"scoring.tie": "split", "scoring.domino_award": "others-minus-winner",
     "scoring.round_to": 2},
]


def _terminal_states(v: Variant, k: int) -> list[State]:
    reach = c.reachable_states(v, configs(sample(v, k, seed=2)))
    return [s for s in reach.states if s.status is not Status.PLAYING]


def test_scoring_agrees_under_every_tie_and_award_rule() -> None:
    base = variant("block-2p-d6", {**SMALL, "deal.players": 3})
    terminals = _terminal_states(base, 30)
    ties = 0
    for overrides in SCORING:
        v = variant("block-2p-d6", {**SMALL, "deal.players": 3, **overrides})
        ref = ReferenceOracle(v)
        res = c.compare(v, terminals, c.EngineOracle(v), ref)
        assert res.ok, res.describe()
        ties += sum(len(o["winners"]) != 1 for s in terminals
                    if (o := ref.classify(s)["outcome"]) and o["termination"] == "blocked")
    assert ties > 0  # ties were scored, not only clear wins


@pytest.mark.parametrize("overrides", [
    {},
    {"partnerships.compare": "player", "scoring.tie": "team-total"},
], ids=["team-compare", "team-total-tie"])
def test_partnership_scoring_agrees(overrides: dict[str, Any]) -> None:
    v = variant("partnership-4p-d6",
                {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3", **overrides})
    res, _ = check(v, configs(sample(v, 5, seed=4)))
    assert_agree(res)


# ---------------------------------------------------------------------------
# The check can fail: every mutant is reported
# ---------------------------------------------------------------------------

ENGINE_FAULTS = [f for f in FAULTS if f.engine is not None]
SCORING_FAULTS = [f for f in FAULTS if f.scorer is not None]


def test_every_engine_fault_changes_transitions() -> None:
    """The registry's engine mutants are the ones this check must catch."""
    assert len(ENGINE_FAULTS) >= 8


def fault_deals(fault: Any, v: Variant) -> tuple[Init, list[Deal]]:
    """The fault's demo configuration (``Fault.init``) and its deals."""
    init = fault.init(v)
    deals = [init.deal] if init.deal is not None else list(every_deal(v, init.free_draw))
    return init, deals


@pytest.mark.parametrize("fault", ENGINE_FAULTS, ids=lambda f: f.id)
def test_conformance_reports_each_engine_mutant(fault: Any) -> None:
    """On the fault's demo configuration, explored as the mutant plays, the mutant
    disagrees with the reference (in a transition, or already in Init)."""
    v = fault.variant()
    rules = fault.engine_for(v)
    init, deals = fault_deals(fault, v)
    res, _ = check(v, init, rules=rules)
    first = c.compare_initial(v, deals, c.EngineOracle(v, rules), ReferenceOracle(v),
                              free_draw=init.free_draw)
    assert not (res.ok and first.ok), f"{fault.id} went unnoticed"
    text = res.describe() if not res.ok else first.describe()
    assert "DISAGREE" in text and "in the state" in text


@pytest.mark.parametrize("fault", SCORING_FAULTS, ids=lambda f: f.id)
def test_conformance_reports_each_scoring_mutant(fault: Any) -> None:
    v = fault.variant()
    res, _ = check(v, fault.init(v), scorer=fault.scorer)
    assert not res.ok, f"{fault.id} went unnoticed"
    assert all(m.kind == "classification" and m.detail.startswith("outcome")
               for m in res.mismatches)


@pytest.mark.parametrize("fault", ENGINE_FAULTS + SCORING_FAULTS, ids=lambda f: f.id)
def test_the_same_configurations_agree_without_the_mutants(fault: Any) -> None:
    """Control: on each mutant's demo configuration the real engine agrees."""
    v = fault.variant()
    init, deals = fault_deals(fault, v)
    res, _ = check(v, init)
    assert res.ok, f"{fault.id}: {res.describe()}"
    first = c.compare_initial(v, deals, c.EngineOracle(v), ReferenceOracle(v),
                              free_draw=init.free_draw)
    assert first.ok, first.describe()


# ---------------------------------------------------------------------------
# The report is readable
# ---------------------------------------------------------------------------


class DropsDraws:
    """An oracle that forgets every draw and names its own mistake."""

    name = "drops-draws"

    def __init__(self, v: Variant) -> None:
        self.inner = c.EngineOracle(v)

    def successors(self, state: State) -> set[c.Transition]:
        return {(m, k) for m, k in self.inner.successors(state)
                if m.kind is not MoveKind.DRAW}

    def classify(self, state: State) -> Mapping[str, Any]:
        return self.inner.classify(state)


def test_report_names_the_state_and_the_move_only_one_side_has() -> None:
    v = variant("tiny-2p-d3")
    deal = sample(v, 1, seed=11)[0]
    reach = c.reachable_states(v, Init.one(deal))
    res = c.compare(v, reach.states, ReferenceOracle(v), DropsDraws(v), keep=3)
    assert not res.ok and len(res.mismatches) == 3
    first = res.mismatches[0]
    assert first.kind == "move only in A"
    text = res.describe()
    assert "move only in reference: Move.draw(" in text
    assert "in the state State(" in text and "boneyard:" in text


def test_report_names_the_fields_of_a_differing_successor() -> None:
    v = variant("tiny-2p-d3")
    reach = c.reachable_states(v, Init.one(sample(v, 1, seed=3)[0]))
    res = c.compare(v, reach.states, c.EngineOracle(v, DrawLosesTile(v)), ReferenceOracle(v))
    diffs = [m for m in res.mismatches if m.kind == "successor differs"]
    assert diffs and "after Move.draw(" in diffs[0].detail and "hands:" in diffs[0].detail


# ---------------------------------------------------------------------------
# Traces replay in the engine to the recorded states
# ---------------------------------------------------------------------------


def test_witness_traces_of_the_search_replay_to_the_same_states() -> None:
    """A shortest path to every terminal state of a search replays in the engine,
    move by move, through the very states the search recorded."""
    v = variant("tiny-2p-d3")
    result = explore(v, Init.one(sample(v, 1, seed=5)[0]))
    ends = [i for i in range(result.expanded) if result.kind_of(i) != "playing"]
    assert ends
    for i in ends:
        path = result.path_to(i)
        got = c.replay(result.trace_to(i), [result.state(k) for k in path])
        assert got.ok, got.detail
        assert got.steps == len(path) - 1


def test_a_counterexample_of_a_variant_fault_replays() -> None:
    """A property violation found by the search (variant fault: confirmations count
    while the boneyard has stock) comes with a trace that replays in the engine."""
    from dominoproof.proofs.search.verification import check_properties

    fault = next(f for f in FAULTS if f.id == "boneyard-check-off")
    v = fault.variant()
    for deal in sample(v, 40, seed=12):
        result = explore(v, Init.one(deal))
        violated = [r for r in check_properties(result) if r.verdict.value == "VIOLATED"]
        if violated:
            break
    assert violated
    for r in violated:
        recorded = c.recorded_states(result, r.trace)
        got = c.replay(r.trace, recorded)
        assert got.ok, (r.property, got.detail)
        assert recorded[-1].key() == r.trace.final.key()


def test_replay_notices_a_recorded_state_that_the_engine_does_not_reach() -> None:
    trace = random_round(variant("tiny-2p-d3"), seed=4)
    states = trace.states()
    assert c.replay(trace, states).ok
    bad = list(states)
    bad[3] = bad[3]._replace(turn=1 - bad[3].turn)
    got = c.replay(trace, bad)
    assert not got.ok and got.steps == 3 and "turn:" in got.detail


def test_replay_rejects_a_mutant_trace_in_the_real_engine() -> None:
    """A trace made by the DrawLosesTile mutant does not replay in the real engine."""
    v = variant("tiny-2p-d3")
    mutant = DrawLosesTile(v)
    for deal in sample(v, 20, seed=6):
        result = explore(v, Init.one(deal), rules=mutant)
        drawn = next((j for _, m, j in result.edges() if m.kind is MoveKind.DRAW), None)
        if drawn is not None:
            break
    assert drawn is not None
    trace = result.trace_to(drawn)
    assert c.replay(trace, rules=mutant).ok
    got = c.replay(trace)
    assert not got.ok and "states differ" in got.detail


# ---------------------------------------------------------------------------
# Other oracles
# ---------------------------------------------------------------------------


def test_the_search_graph_records_the_engines_transitions() -> None:
    v = variant("tiny-2p-d3", {"draw.rule": "one"})
    result = explore(v, Init.one(sample(v, 1, seed=8)[0], free_draw=True))
    graph, states = c.graph_oracle(result)
    res = c.compare(v, states, c.EngineOracle(v), graph)
    assert_agree(res)
    # ... and a lost edge is noticed
    k = states[0].key()
    graph.edges[k] = set(list(graph.edges[k])[1:])  # type: ignore[index]
    assert not c.compare(v, states[:1], c.EngineOracle(v), graph).ok


@pytest.mark.parametrize("fault", ENGINE_FAULTS, ids=lambda f: f.id)
def test_the_named_actions_catch_each_engine_mutant(fault: Any) -> None:
    """The specification's rule book (named actions, no fast path) is an oracle of its
    own: a broken fast path is reported against it, as against the reference."""
    v = fault.variant()
    reach = c.reachable_states(v, fault.init(v), rules=fault.engine_for(v))
    res = c.compare(v, reach.states, c.EngineOracle(v, fault.engine_for(v)),
                    c.get_oracle("spec", v))
    assert not res.ok


@pytest.mark.skipif(not kernel.available(), reason=kernel.status())
@pytest.mark.parametrize("fault", ENGINE_FAULTS, ids=lambda f: f.id)
def test_the_kernel_catches_each_engine_mutant(fault: Any) -> None:
    """The compiled kernel is an oracle too: each broken engine is reported against it
    (fives-any-count's too: the kernel reads scoring in play, R5.7)."""
    v = fault.variant()
    if kernel.reason(v):
        pytest.skip(kernel.reason(v))
    reach = c.reachable_states(v, fault.init(v), rules=fault.engine_for(v))
    res = c.compare(v, reach.states, c.EngineOracle(v, fault.engine_for(v)),
                    c.get_oracle("kernel", v))
    assert not res.ok


def test_unknown_oracle_names_are_reported() -> None:
    with pytest.raises(c.OracleUnavailable, match="known: engine"):
        c.get_oracle("nope", variant("tiny-2p-d3"))


def test_engine_matches_z3_on_one_small_deal() -> None:
    v = variant("tiny-2p-d3")
    z3 = c.get_oracle("z3", v)
    reach = c.reachable_states(v, Init.one(sample(v, 1, seed=9)[0]))
    res = c.compare(v, reach.states, c.EngineOracle(v), z3)
    assert res.ok, res.describe()


# ---------------------------------------------------------------------------
# Slow tier: every deal
# ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("name", "overrides", "free"), [
    ("tiny-2p-d3", {}, True),
    ("tiny-2p-d3", {"draw.rule": "one"}, True),
    ("block-2p-d6", SMALL, False),
    ("block-2p-d6", {**SMALL, "deal.players": 3}, False),
    ("fouls-4p-d6", {**SMALL, "deal.players": 2, "lead.tile": "3-3"}, False),
    # R3.5 on double-2: every deal in every draw order stays small, players draw while able
    ("tiny-2p-d3", {"draw.rule": "one", "draw.when": "any-time", "set.max": 2,
                    "deal.hand_size": 2, "lead.tile": "2-2"}, True),
    ("tiny-2p-d3", {"block.call": "dead-end"}, True),
], ids=["tiny-free", "draw-one-free", "block-d3-2p", "block-d3-3p", "fouls-2p",
        "any-time-draw-one-free", "call-free"])
def test_engine_matches_reference_on_every_deal(name: str, overrides: dict[str, Any],
                                                free: bool) -> None:
    v = variant(name, overrides)
    res, _ = check(v, Init.every(free))
    assert_agree(res)


@pytest.mark.slow
def test_engine_matches_reference_on_every_deal_in_its_own_draw_order() -> None:
    """tiny-2p-d3: every deal, the boneyard fixed in one draw order per deal."""
    v = variant("tiny-2p-d3")
    res, _ = check(v, configs(every_deal(v, True)))
    assert_agree(res)


# ---------------------------------------------------------------------------
# dominoproof crosscheck
# ---------------------------------------------------------------------------


def crosscheck(*args: str) -> Any:
    from click.testing import CliRunner

    from dominoproof.cli import main

    return CliRunner().invoke(main, ["crosscheck", *args])


def test_crosscheck_agrees_on_one_deal_with_z3() -> None:
    res = crosscheck("tiny", "--seed", "2", "--with", "z3")
    assert res.exit_code == 0, res.output
    assert "engine vs graph:" in res.output and "engine vs z3:" in res.output
    assert "transitions" in res.output and "replay in the engine" in res.output
    assert res.output.rstrip().endswith("result: agree")


def test_crosscheck_every_deal_as_json() -> None:
    import json

    res = crosscheck("block", "-o", "set.max=2", "-o", "deal.hand_size=2", "--all-deals",
                     "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["search"]["complete"] and data["verdict"] == "agree"
    (graph,) = data["comparisons"]
    assert graph["b"] == "graph" and graph["states"] == data["search"]["expanded"]
    assert graph["mismatches"] == 0 and data["replays"]["traces"] > 0


def test_crosscheck_fails_on_an_engine_mutant() -> None:
    res = crosscheck("tiny", "--seed", "0", "--fault", "confirm-resets", "--with", "z3")
    assert res.exit_code == 1, res.output
    assert "engine[confirm-resets] vs z3:" in res.output and "DISAGREE" in res.output
    assert "successor differs: after Move.confirm(" in res.output
    assert "result: MISMATCH" in res.output


def test_crosscheck_partial_search_is_unknown() -> None:
    res = crosscheck("tiny", "--max-states", "10")
    assert res.exit_code == 3, res.output
    assert "partial" in res.output and "UNKNOWN" in res.output


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "1", "--all-deals"], "exclude each other"),
    (["--fault", "tie-wrong"], "not an engine mutant"),
    (["--fault", "nope"], "no such fault"),
    (["--with", "engine"], "not an oracle"),
    (["--all-deals", "-o", "set.max=6"], "too many"),
])
def test_crosscheck_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    res = crosscheck("tiny", *args)
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
