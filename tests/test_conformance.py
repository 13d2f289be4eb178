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
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from helpers import variant
from reference_rules import ReferenceOracle

from dominoproof.model import MoveKind, State, Status, random_round
from dominoproof.model.fast import engine_for
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init, every_deal
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant
from dominoproof.proofs import conformance as c
from dominoproof.proofs import kernel
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.mutants import DrawLosesTile
from dominoproof.proofs.search.statespace import explore

SMALL = {"set.max": 3, "deal.hand_size": 3}


def sample(v: Variant, k: int, seed: int, *, shuffle_stack: bool = True) -> list[Deal]:
    """``k`` deals of ``v`` (distinct hands), each boneyard in a random draw order."""
    rng = random.Random(seed)
    deals = list(every_deal(v, True))
    picked = rng.sample(deals, min(k, len(deals)))
    if not shuffle_stack:
        return picked
    out = []
    for d in picked:
        stack = list(d.stack)
        rng.shuffle(stack)
        out.append(Deal(d.hands, tuple(stack), d.set_aside))
    return out


def configs(deals: Iterable[Deal], free_draw: bool = False) -> list[Init]:
    return [Init.one(d, free_draw) for d in deals]


def check(v: Variant, inits: Init | list[Init], *, rules: RuleBook | None = None,
          scorer: Any = None) -> tuple[c.Comparison, list[State]]:
    """Explore with the project's search, then compare the engine with the reference and
    (for the correct rules) with the specification's named actions, on every state."""
    reach = c.reachable_states(v, inits, rules=rules)
    assert reach.complete and reach.method == "statespace.explore"
    engine = c.EngineOracle(v, rules, scorer)
    others: list[c.Oracle] = [ReferenceOracle(v)]
    if rules is None and scorer is None:
        others.append(c.get_oracle("spec", v))
        if kernel.available() and not kernel.reason(v):  # tests/test_kernel.py
            others.append(c.get_oracle("kernel", v))
    res, *more = c.compare_all(v, reach.states, engine, others)  # the engine asked once
    for m in more:
        res.merge(m)
    return res, reach.states


def move_kinds(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise (so that no check passes vacuously)."""
    rules = engine_for(v)
    seen: Counter[str] = Counter()
    for s in states:
        if s.status is not Status.PLAYING:
            seen[s.status.name.lower()] += 1
        for m in rules.legal_moves(s):
            name = m.kind.label
            if m.kind is MoveKind.CONFIRM and rules.playable_mask(s, s.turn):
                name = "foul"
            if m.kind is MoveKind.PLAY and m.end == -1:
                name = "lead"
            if m.kind is MoveKind.DRAW and not s.led:
                name = "draw for the lead"  # R3.6
            seen[name] += 1
    return seen


def assert_agree(res: c.Comparison) -> None:
    assert res.ok, res.describe()
    assert res.states > 0 and res.transitions > 0 and res.terminal > 0


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
# Layouts of several lines: spinners, trains, chicken feet, doubles that take tiles
# ---------------------------------------------------------------------------

#: The new topologies on double-3, 3 tiles each (4 out of play), the highest double
#: leading (a hub, a spinner or a foot needs an opening double). For these layouts the
#: specification's rule book is the engine's (``FastRules`` inlines the line only), so
#: the reference, reading the slot data on its own terms, is the independent oracle.
_D3 = {**SMALL, "lead.rule": "highest-double"}
#: double-2, 2 tiles each, the [2|2] leading: where every feature of a layout's rule is
#: met on far fewer states than double-3's (the comments give both counts)
_D2 = {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}
LAYOUTS: dict[str, tuple[str, dict[str, Any]]] = {
    "spinner-sides-first": ("block-2p-d6", {**_D3, "layout.kind": "spinner"}),
    "spinner-at-once-takes-4": ("block-2p-d6", {
        **_D3, "layout.kind": "spinner", "layout.spinner_sides_first": False,
        "layout.lead_double_takes": 4}),
    "trains": ("block-2p-d6", {**_D3, "layout.kind": "trains"}),
    # double-2 and three seats (1,989 states): a seat plays again on the double it laid
    "trains-covered-again": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True}),
    # draw one on double-2, 2 tiles each and 2 in the boneyard: every deal in every draw
    # order is 1,670 states (double-3 with 3 each: 576,320, for no feature more)
    "trains-draw-one": ("tiny-2p-d3", {"layout.kind": "trains", "draw.rule": "one",
                                       "lead.rule": "highest-double", **_D2}),
    # R2.3's house rules; three seats, so that a train whose owner's marker is in may be
    # open to a third player whose own marker is out (double-2: 2,019 states)
    "trains-own-marker-out": ("block-2p-d6", {**_D3, **_D2, "deal.players": 3,
                                              "layout.kind": "trains",
                                              "layout.open_trains": "own-marker-out"}),
    "trains-public-after-own": ("block-2p-d6", {**_D3, "layout.kind": "trains",
                                                "layout.public_train": "after-own"}),
    # double-2 (2 tiles each, 2 in the boneyard): every deal in its own draw order stays
    # small (4,826 states) though a player who can play may draw too
    "trains-any-time": ("tiny-2p-d3", {"layout.kind": "trains", "draw.when": "any-time",
                                       "lead.rule": "highest-double", **_D2}),
    "chicken-foot-toes": ("block-2p-d6", {**_D3, "layout.kind": "chicken-foot",
                                          "layout.double_takes": 3}),
    "chicken-foot-lead-takes-4": ("block-2p-d6", {
        **_D3, "layout.kind": "chicken-foot", "layout.lead_double_takes": 4,
        "layout.double_takes": 3}),
    # R3.6 on Chicken Foot's rules (draw one, the top double named, toes): double-3, 4
    # tiles each and 2 in the boneyard (110,708 states; 3 each: 728,765), the centre double
    # taking no tiles first (double-3 has not four of its 3s)
    "chicken-foot-draw-for-root": ("chickenfoot-4p-d9", {
        "set.max": 3, "deal.players": 2, "deal.hand_size": 4, "lead.tile": "3-3",
        "layout.lead_double_takes": 0, "lead.fallback": "draw"}),
    "line-covered": ("block-2p-d6", {**SMALL, **_D2, "layout.double_takes": 1}),
    # R4.4: a confirmation that puts a marker out starts the run again (double-2, three
    # seats: 2,013 states; double-3: 385,242)
    "trains-restart": ("block-2p-d6", {**_D3, **_D2, "layout.kind": "trains",
                                       "deal.players": 3, "block.restart_on_marker": True}),
    "trains-draw-one-restart": ("tiny-2p-d3", {
        "layout.kind": "trains", "draw.rule": "one", "lead.rule": "highest-double",
        "layout.double_takes": 1, "layout.double_again": True,
        "block.restart_on_marker": True, **_D2}),
    # R4.7: a dead end may be called, on trains and on a spinner (double-2, 2 tiles each
    # and 2 in the boneyard: every deal in its own draw order stays small)
    "trains-call": ("tiny-2p-d3", {"layout.kind": "trains", "lead.rule": "highest-double",
                                   "block.call": "dead-end", **_D2}),
    "spinner-call": ("tiny-2p-d3", {"layout.kind": "spinner", "block.call": "dead-end",
                                    **_D2}),
    # R2.2: a double that must be covered is no player's last tile (double-2, three
    # seats: 2,049 and 597 states, where two seats meet no seat playing again)
    "trains-out-covered": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True, "layout.out_on_double": "covered"}),
    "chicken-foot-out-covered": ("block-2p-d6", {
        **_D3, **_D2, "deal.players": 3, "layout.kind": "chicken-foot",
        "layout.double_takes": 3, "layout.out_on_double": "covered"}),
    "line-out-covered": ("tiny-2p-d3", {"layout.double_takes": 1, **_D2,
                                        "layout.out_on_double": "covered"}),
    # R2.3: a first turn lays tile after tile on one's own train; with doubles to cover
    # (a double laid during a first turn ends it; its player covers it); draw-one
    # (double-2: 1,130 states each, every feature met)
    "trains-first-turn": ("block-2p-d6", {**_D3, **_D2, "layout.kind": "trains",
                                          "layout.first_turn": "own-train"}),
    "trains-first-turn-doubles": ("block-2p-d6", {
        **_D3, **_D2, "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True, "layout.first_turn": "own-train"}),
    "trains-first-turn-draw-one": ("tiny-2p-d3", {
        "layout.kind": "trains", "draw.rule": "one", "lead.rule": "highest-double",
        **_D2, "layout.first_turn": "own-train"}),
}
#: what each configuration must exercise (see :func:`layout_features`)
FEATURES: dict[str, set[str]] = {
    "spinner-sides-first": {"arm waiting", "side covered", "play on an arm"},
    "spinner-at-once-takes-4": {"pending", "play on an arm"},
    "trains": {"marker out", "marker in", "play on another's train"},
    "trains-covered-again": {"pending", "plays again", "marker out",
                             "play on another's train"},
    "trains-draw-one": {"pass", "marker out", "play on another's train"},
    "trains-own-marker-out": {"marker out", "play opened by one's own marker"},
    "trains-public-after-own": {"public closed: own train not started",
                                "play on the public train"},
    "trains-any-time": {"draw while able", "marker out", "play on another's train"},
    "chicken-foot-toes": {"toe open", "pending"},
    "chicken-foot-lead-takes-4": {"pending"},
    "chicken-foot-draw-for-root": {"draw for the lead", "toe open", "pending", "pass"},
    "line-covered": {"pending"},
    "trains-restart": {"marker out", "run restarted", "play on another's train"},
    "trains-draw-one-restart": {"pass", "marker out", "run restarted", "pending"},
    "trains-call": {"call", "marker out", "play on another's train"},
    "spinner-call": {"call", "arm waiting", "side covered"},
    "trains-out-covered": {"last double refused", "pending", "plays again", "marker out"},
    "chicken-foot-out-covered": {"last double refused", "toe open", "pending"},
    "line-out-covered": {"last double refused", "pending"},
    "trains-first-turn": {"first turn goes on", "first turn ended", "first turn lays on",
                          "marker out", "play on another's train"},
    "trains-first-turn-doubles": {"first turn goes on", "first turn ended",
                                  "first turn lays on", "a double ends a first turn",
                                  "pending"},
    "trains-first-turn-draw-one": {"first turn goes on", "first turn ended", "pass"},
}


def layout_variant(name: str) -> Variant:
    preset, overrides = LAYOUTS[name]
    return variant(preset, overrides)


def layout_features(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of the layout's rules (so that no agreement is
    vacuous), read off the engine's layout."""
    from dominoproof.model.layout import CLOSED, Access, Opens, layout_of

    lay, rules, data = layout_of(v), engine_for(v), v.slot_layout
    seen: Counter[str] = Counter()
    for s in states:
        marks = s.marks
        if any(sl.opens is Opens.TOE and s.ends[i] != CLOSED for i, sl in enumerate(data.slots)):
            seen["toe open"] += 1
        if any(lay.covered(marks, i) for i in range(lay.width)):
            seen["side covered"] += 1
        if any(sl.after and s.ends[i] != CLOSED and not lay.may_play(i, s.turn, marks)
               for i, sl in enumerate(data.slots)):
            seen["arm waiting"] += 1
        if lay.pending(marks):
            seen["pending"] += 1
        if any(sl.access is Access.STARTED and s.ends[i] != CLOSED
               and not lay.may_play(i, s.turn, marks) for i, sl in enumerate(data.slots)):
            seen["public closed: own train not started"] += 1
        hand = s.hands[s.turn] if s.status is Status.PLAYING and s.led else 0
        if hand and not hand & (hand - 1) and rules.playable_mask(s, s.turn) == 0 and any(
                lay.shows(s.ends, i) in v.tiles.halves[hand.bit_length() - 1]
                for i in lay.targets(s.ends, s.turn, marks)):
            seen["last double refused"] += 1  # R2.2: out_on_double = "covered"
        first = lay.first_turn(marks)  # R2.3: a first turn going on
        for m, t in rules.successors(s):
            if m.kind is MoveKind.PASS:
                seen["first turn ended" if first else "pass"] += 1
            if m.kind is MoveKind.PLAY and lay.first_turn(t.marks):
                seen["first turn lays on" if first else "first turn goes on"] += 1
            elif first and m.kind is MoveKind.PLAY and m.tile in v.tiles.doubles():
                seen["a double ends a first turn"] += 1
            if m.kind is MoveKind.CONFIRM and s.confirmed and t.confirmed == 1:
                seen["run restarted"] += 1  # R4.4 restart_on_marker
            if m.kind is MoveKind.DRAW and s.led and rules.playable_mask(s, m.player):
                seen["draw while able"] += 1  # R3.5
            if m.kind is MoveKind.ESTABLISH and not rules.block_ready(s):
                seen["call"] += 1  # R4.7
            if m.kind is MoveKind.DRAW and not s.led:
                seen["draw for the lead"] += 1  # R3.6
            if lay.marker_out(t.marks, m.player) and not lay.marker_out(marks, m.player):
                seen["marker out"] += 1
            if m.kind is not MoveKind.PLAY or m.end < 0:
                continue
            slot = data.slots[m.end]
            if slot.owner is not None and slot.owner != m.player:
                seen["play on another's train"] += 1
            if slot.owner == m.player and lay.marker_out(marks, m.player):
                seen["marker in"] += 1
            if slot.owner not in (None, m.player) and not lay.marker_out(marks, slot.owner):
                seen["play opened by one's own marker"] += 1
            if slot.access is Access.STARTED:
                seen["play on the public train"] += 1
            if t.turn == m.player and t.hands[m.player]:
                seen["plays again"] += 1
            if slot.opens is Opens.SPINNER:
                seen["play on an arm"] += 1
    return seen


@pytest.mark.parametrize(("name", "k"), [
    ("spinner-sides-first", 60), ("spinner-at-once-takes-4", 60), ("trains", 60),
    ("trains-covered-again", 60), ("trains-draw-one", 20), ("trains-own-marker-out", 40),
    ("trains-public-after-own", 60), ("trains-any-time", 20), ("trains-call", 40),
    ("spinner-call", 60), ("chicken-foot-toes", 60),
    ("chicken-foot-lead-takes-4", 60), ("chicken-foot-draw-for-root", 20),
    ("line-covered", 60), ("trains-restart", 60),
    ("trains-draw-one-restart", 20), ("trains-out-covered", 60),
    ("chicken-foot-out-covered", 60), ("line-out-covered", 60), ("trains-first-turn", 40),
    ("trains-first-turn-doubles", 40), ("trains-first-turn-draw-one", 20)])
def test_engine_matches_reference_on_each_layout(name: str, k: int) -> None:
    """Engine, specification and reference agree on every state of sampled deals of each
    new topology, and the states exercise what makes that topology what it is."""
    v = layout_variant(name)
    res, states = check(v, configs(sample(v, k, seed=1)))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in FEATURES[name]), (name, seen)


def _planted(v: Variant, bug: str) -> RuleBook:
    """The engine with one layout rule planted wrong (the reference must notice)."""
    from dominoproof.model.fast import FastRules
    from dominoproof.model.layout import Layout

    rules = FastRules(v)
    lay = Layout(v.slot_layout, v.players)  # the rule book's own, never the shared one
    if bug == "no toes":  # a double laid during play opens no toe
        lay._toes = ()
    elif bug == "sides never covered":  # a spinner's arms wait for ever
        lay.covered = lambda marks, slot: False  # type: ignore[method-assign]
    elif bug == "last double allowed":  # R2.2: out_on_double = "covered" forgotten
        lay.bars_going_out = lambda marks, slot, tile: False  # type: ignore[method-assign]
    elif bug == "canonical forgets marks":  # a group sorted without its slots' marks
        plain = lay.canonical
        lay.canonical = lambda ends, marks=0: (plain(ends, 0)[0], marks)  # type: ignore
    rules.layout = lay
    if bug == "no playing again":
        step = rules.step

        def no_again(s: State, m: Any) -> State:
            t = step(s, m)
            if m.kind is MoveKind.PLAY and t.turn == m.player and t.hands[m.player]:
                return t._replace(turn=(m.player + 1) % v.players)
            return t
        rules.step = no_again  # type: ignore[method-assign]
    return rules


@pytest.mark.parametrize(("bug", "name"), [
    ("no toes", "chicken-foot-toes"), ("sides never covered", "spinner-sides-first"),
    ("canonical forgets marks", "spinner-at-once-takes-4"),
    ("no playing again", "trains-covered-again"),
    ("last double allowed", "trains-out-covered")])
def test_the_reference_notices_a_layout_rule_planted_wrong(bug: str, name: str) -> None:
    """The reference reads each feature itself: toes, covered sides, the marks in the
    canonical form, playing again (markers, pending slots and waiting arms are the
    faults' own: ``test_conformance_reports_each_engine_mutant``)."""
    v = layout_variant(name)
    rules = _planted(v, bug)
    reach = c.reachable_states(v, configs(sample(v, 60, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


#: Larger layouts, too many states to search: every state of random rounds is compared
LARGER: dict[str, tuple[str, dict[str, Any]]] = {
    "all-fives-like-4p": ("draw-2p-d6", {"layout.kind": "spinner", "deal.players": 4,
                                         "deal.hand_size": 5, "lead.rule": "highest-double"}),
    "sebastopol-like": ("block-2p-d6", {
        "layout.kind": "spinner", "layout.spinner_sides_first": False,
        "layout.lead_double_takes": 4, "deal.players": 4, "lead.rule": "highest-double"}),
    "mexican-train-4p-d9": ("draw-2p-d6", {
        "set.max": 9, "deal.players": 4, "deal.hand_size": 10, "draw.rule": "one",
        "lead.rule": "highest-double", "layout.kind": "trains", "layout.double_takes": 1,
        "layout.double_again": True}),
    "chicken-foot-3p-d9": ("draw-2p-d6", {
        "set.max": 9, "deal.players": 3, "deal.hand_size": 10, "lead.rule": "highest-double",
        "layout.kind": "chicken-foot", "layout.double_takes": 3,
        "layout.lead_double_takes": 4}),
}
LARGER_FEATURES: dict[str, set[str]] = {
    "all-fives-like-4p": {"arm waiting", "side covered", "play on an arm"},
    "sebastopol-like": {"pending", "play on an arm"},
    "mexican-train-4p-d9": {"pass", "marker out", "marker in", "play on another's train",
                            "pending", "plays again"},
    "chicken-foot-3p-d9": {"toe open", "pending"},
}


@pytest.mark.parametrize("name", list(LARGER))
def test_engine_matches_reference_on_random_rounds_of_larger_layouts(name: str) -> None:
    """Every state of random rounds of full-size layouts: the engine's successors and
    classification, the reference's and the specification's named actions agree."""
    preset, overrides = LARGER[name]
    v = variant(preset, overrides)
    states = [s for seed in range(8) for s in random_round(v, seed).states()]
    engine = c.EngineOracle(v)
    res = c.compare(v, states, engine, ReferenceOracle(v))
    res.merge(c.compare(v, states, engine, c.get_oracle("spec", v)))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in LARGER_FEATURES[name]), (name, seen)


@pytest.mark.parametrize(("bug", "name"), [
    ("no toes", "chicken-foot-3p-d9"), ("sides never covered", "all-fives-like-4p"),
    ("no playing again", "mexican-train-4p-d9")])
def test_random_rounds_notice_a_layout_rule_planted_wrong(bug: str, name: str) -> None:
    """The same comparison on the same random rounds, with the engine's layout rule
    planted wrong: the reference disagrees."""
    preset, overrides = LARGER[name]
    v = variant(preset, overrides)
    states = [s for seed in range(8) for s in random_round(v, seed).states()]
    res = c.compare(v, states, c.EngineOracle(v, _planted(v, bug)), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_engine_matches_reference_on_every_deal_of_each_layout(name: str) -> None:
    v = layout_variant(name)
    # draw-one trains: every draw order alike (each boneyard tile equally likely drawn)
    res, states = check(v, Init.every(name in ("trains-draw-one", "trains-draw-one-restart",
                                               "trains-first-turn-draw-one")))
    assert_agree(res)
    seen = layout_features(v, states)
    assert all(seen[f] > 0 for f in FEATURES[name]), (name, seen)


# ---------------------------------------------------------------------------
# R2.1, Matador matching: touching halves sum to N+1, the matadors wild
# ---------------------------------------------------------------------------

#: Matador on small sets, every deal: touching halves sum to N+1 (4 on double-3, 3 on
#: double-2), the matadors (0-0 and the tiles summing to N+1) go on any end
MATADOR: dict[str, tuple[str, dict[str, Any], bool]] = {
    # the block game: double-3, 2 tiles each, 6 set aside, no drawing
    "matador-block-d3": ("block-2p-d6", {**SMALL, "deal.hand_size": 2,
                                         "layout.match": "matador"}, False),
    # the draw game: double-2, 2 tiles each, 2 in the boneyard, any draw order
    "matador-draw-d2": ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2,
                                       "lead.tile": "2-2", "layout.match": "matador"}, True),
    # draw one, fouls penalised, a dead end may be called (R4.7 reads what fits an end)
    "matador-draw-one-call": ("tiny-2p-d3", {
        "set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2", "layout.match": "matador",
        "draw.rule": "one", "fouls.rule": "penalised", "block.call": "dead-end"}, True),
}


def matador_features(v: Variant, states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of Matador's matching (no vacuous agreement),
    read off the tiles' halves: a play summing to N+1, a matador laid where it sums with
    nothing, a matador offered both ways round (also where a half of it sums to N+1), a
    non-matador held that carries an end's number yet is not offered, a blank end, a
    block."""
    rules, total = engine_for(v), v.set.max + 1
    halves = v.tiles.halves
    seen: Counter[str] = Counter()
    for s in states:
        if s.status is Status.BLOCKED:
            seen["block"] += 1
        if not s.led or s.status is not Status.PLAYING:
            continue
        if 0 in s.open_ends:
            seen["blank end"] += 1
        ways: dict[tuple[int, int], set[int]] = {}
        for m in rules.legal_moves(s):
            if m.kind is MoveKind.PLAY:
                ways.setdefault((m.tile, m.end), set()).add(m.leaves)
        for t in range(v.tiles.count):
            if not s.hands[s.turn] >> t & 1:
                continue
            a, b = halves[t]
            for e, x in enumerate(s.ends):
                summed = total in (a + x, b + x)
                wild = a + b == total or a == b == 0
                if (t, e) in ways:
                    seen["sums to N+1" if summed else "matador wild"] += 1
                    if ways[t, e] == {a, b} and a != b:  # R2.1: turned either way
                        seen["turned" + (" where a half sums" if summed else "")] += 1
                elif x in (a, b) and not wild and not summed:
                    seen["equal number refused"] += 1
    return seen


@pytest.mark.parametrize("name", list(MATADOR))
def test_engine_matches_reference_under_matador_on_every_deal(name: str) -> None:
    """Engine (its inlined line), specification, kernel and reference agree on every
    state of every deal under Matador matching, and the states exercise it."""
    preset, overrides, free = MATADOR[name]
    v = variant(preset, overrides)
    res, states = check(v, Init.every(free))
    assert_agree(res)
    seen = matador_features(v, states)
    assert all(seen[f] > 0 for f in ("sums to N+1", "matador wild", "equal number refused",
                                      "blank end", "block", "turned",
                                      "turned where a half sums")), (name, seen)


def _matador_planted(v: Variant, bug: str) -> RuleBook:
    """The engine with Matador's matching planted wrong (the reference must notice)."""
    from dominoproof.model.fast import FastRules

    rules = FastRules(v)
    if bug == "blank takes a blank":  # an end showing 0 takes any tile carrying a 0
        rules.fits = (rules.fits[0] | v.tiles.suit[0], *rules.fits[1:])
    elif bug == "an end shows as under equal numbers":
        rules._total = 0  # the inlined line's equal reading of what an end shows
    elif bug == "a matador goes on one way only":  # R2.1: not turned: its first play only
        rules._play = [[ms[:1] for ms in row] for row in rules._play]
    return rules


@pytest.mark.parametrize("bug", ["blank takes a blank", "an end shows as under equal numbers",
                                 "a matador goes on one way only"])
def test_the_reference_notices_matador_planted_wrong(bug: str) -> None:
    preset, overrides, _ = MATADOR["matador-block-d3"]
    v = variant(preset, overrides)
    rules = _matador_planted(v, bug)
    reach = c.reachable_states(v, configs(sample(v, 40, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok, bug
    assert "DISAGREE" in res.describe()


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


# ---------------------------------------------------------------------------
# R5.7, scoring in play: a play scores the ends' count when it is a multiple of 5
# ---------------------------------------------------------------------------

#: Scoring in play on small sets, every deal: Muggins' line and All Fives' spinner
FIVES: dict[str, tuple[str, dict[str, Any], bool]] = {
    # Muggins' line on double-2: 2 tiles each, 2 in the boneyard, seat 0 leads any tile
    "muggins-d2": ("muggins-2p-d6", {"set.max": 2, "deal.hand_size": 2,
                                     "deal.set_aside": 0}, True),
    # the block game on double-3, 2 tiles each, 6 out of play, scoring in play
    "fives-block-d3": ("block-2p-d6", {**SMALL, "deal.hand_size": 2,
                                       "scoring.in_play": "fives"}, False),
    # All Fives' spinner on double-2, 2 tiles each, the 2-2 (else the highest double) leads
    "all-fives-d2": ("all-fives-2p-d6", {"set.max": 2, "deal.hand_size": 2,
                                         "lead.tile": "2-2"}, True),
}


def fives_features(states: Iterable[State]) -> Counter[str]:
    """What the compared states exercise of R5.7 (no vacuous agreement): a play that
    scored, a double counted at an end, a spinner's bare arm, a round that ends with
    points, two ends showing one number that count differently."""
    seen: Counter[str] = Counter()
    for s in states:
        if not s.points:
            continue
        if any(s.points):
            seen["points"] += 1
            if s.status is not Status.PLAYING:
                seen["ended with points"] += 1
        if 2 in s.weights:
            seen["double at an end"] += 1
        if any(w == 0 and x >= 0 for x, w in zip(s.ends, s.weights, strict=True)):
            seen["bare arm"] += 1
        shown = [(x, w) for x, w in zip(s.ends, s.weights, strict=True) if x >= 0 and w]
        if len({x for x, _ in shown}) < len(shown) and len(set(shown)) == len(shown):
            seen["one number, two counts"] += 1
    return seen


@pytest.mark.parametrize("name", list(FIVES))
def test_engine_matches_reference_when_plays_score_on_every_deal(name: str) -> None:
    """Engine, specification and reference agree on every state of every deal where
    plays score (R5.7): the points and the ends' weights are part of each successor, and
    the final scores add the points; the kernel is an oracle too (the points and the
    weights in its frame). The states exercise the rule."""
    preset, overrides, free = FIVES[name]
    v = variant(preset, overrides)
    assert v.scoring.in_play.value == "fives"
    res, states = check(v, Init.every(free))
    assert_agree(res)
    seen = fives_features(states)
    want = ["points", "ended with points", "double at an end",
            *{"muggins-d2": ["one number, two counts"], "all-fives-d2": ["bare arm"]}.get(
                name, [])]
    assert all(seen[f] > 0 for f in want), (name, seen)


@pytest.mark.parametrize("name", ["muggins-d2", "all-fives-d2"])
def test_engine_matches_z3_where_plays_score(name: str) -> None:
    """The Z3 relation states R5.7: on every deal, every successor is compared with its
    points and the ends' weights, two equal ends counting differently being two moves,
    and its reading of R5 adds the state's points to the award. The states exercise the
    rule."""
    preset, overrides, free = FIVES[name]
    v = variant(preset, overrides)
    reach = c.reachable_states(v, Init.every(free))  # every deal: 929 and 710 states
    res = c.compare(v, reach.states, c.EngineOracle(v), c.get_oracle("z3", v))
    assert res.ok, res.describe()
    assert res.terminal > 0
    seen = fives_features(reach.states)
    assert all(seen[f] > 0 for f in ("points", "ended with points", "double at an end",
                                     "one number, two counts")), seen


def test_the_reference_notices_plays_scored_wrong() -> None:
    """The fault fives-any-count (a play scores the count whatever it is) disagrees
    with the reference on every deal of Muggins' small line."""
    from dominoproof.proofs.mutants import ENGINE_MUTANTS

    preset, overrides, _ = FIVES["muggins-d2"]
    v = variant(preset, overrides)
    rules = ENGINE_MUTANTS["fives-any-count"](v)
    reach = c.reachable_states(v, configs(sample(v, 20, seed=1)), rules=rules)
    res = c.compare(v, reach.states, c.EngineOracle(v, rules), ReferenceOracle(v))
    assert not res.ok
    assert "points" in res.describe()
