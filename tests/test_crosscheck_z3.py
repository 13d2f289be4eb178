"""The three-way cross-check of the Z3 reading against the engine and exhaustive search.

* Transition level: on every state the exhaustive search visits (small configurations),
  the engine's successors equal the models of the Z3 transition relation from that
  state, both inclusions (``z3_successors`` enumerates them with blocking clauses).
* Trace level: every Z3 witness and counterexample replays in the engine to the same
  states; a counterexample to induction (an unreachable state) is one engine step.
* Verdict level: each property's verdict from Z3 and from exhaustive search agree, for
  the correct rules and for every broken rule set of ``proofs/faults.py``.
* Scoring: the declarative R5 scoring of the encoding gives the engine's outcome on
  every terminal state of the searched graphs (every tie and award rule).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import awaiting_z3_twin, variant, with_z3_twin, z3_unstated

from dominoproof.model.engine import seeded_deal
from dominoproof.model.fast import engine_for
from dominoproof.model.outcome import outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.properties import LAYOUT_PROPERTIES, Verdict
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import verify
from dominoproof.proofs.z3.encoding import Encoding
from dominoproof.proofs.z3.encoding_faults import twin_prover
from dominoproof.proofs.z3.queries import QUESTIONS, Prover, witness
from dominoproof.proofs.z3.scoring import Scoring
from dominoproof.proofs.z3.successors import z3_successors

# (preset, overrides, free draw order): every draw rule, fouls, teams, leads, set-aside
SLOW = pytest.mark.slow
SMALL = [
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}, True),
    pytest.param("tiny-2p-d3", None, False, marks=SLOW),
    ("tiny-2p-d3", {"draw.rule": "one", "set.max": 2, "deal.hand_size": 2,
                    "lead.tile": "2-2"}, True),
    pytest.param("block-2p-d6", {"set.max": 3, "deal.hand_size": 3}, False, marks=SLOW),
    ("fouls-4p-d6", {"set.max": 3, "deal.players": 3, "deal.hand_size": 2,
                     "lead.tile": "3-3"}, False),
    # a foul by a player who has just drawn (draw-one): SEMANTICS forgot drew' = false
    ("tiny-2p-d3", {"draw.rule": "one", "fouls.rule": "penalised", "lead.rule": "player"},
     True),
    # R3.5: a player who can play may draw too (draw-one, and until playable)
    ("tiny-2p-d3", {"draw.rule": "one", "draw.when": "any-time", "set.max": 2,
                    "deal.hand_size": 2, "lead.tile": "2-2"}, True),
    ("tiny-2p-d3", {"draw.when": "any-time", "layout.kind": "trains",
                    "lead.rule": "highest-double"}, False),
    # R4.7: a dead end may be called (on a line, and on trains)
    ("tiny-2p-d3", {"block.call": "dead-end"}, True),
    ("tiny-2p-d3", {"block.call": "dead-end", "layout.kind": "trains",
                    "lead.rule": "highest-double"}, False),
    # R3.6: nobody was dealt 3-3 (seed 0): the players draw for it, P1 first in the
    # deal's draw order; every draw order under draw-one
    ("tiny-2p-d3", {"lead.fallback": "draw", "lead.player": 1}, False),
    ("tiny-2p-d3", {"lead.fallback": "draw", "draw.rule": "one"}, True),
    # R2.2: a double that must be covered is no player's last tile (trains, two tiles each)
    ("tiny-2p-d3", {"layout.kind": "trains", "deal.hand_size": 2, "layout.double_takes": 1,
                    "layout.double_again": True, "layout.out_on_double": "covered",
                    "lead.rule": "highest-double"}, True),
    # R2.3: first turns lay tile after tile on one's own train (doubles to cover, too)
    ("tiny-2p-d3", {"layout.first_turn": "own-train", "layout.kind": "trains",
                    "lead.rule": "highest-double"}, False),
    ("tiny-2p-d3", {"layout.first_turn": "own-train", "layout.kind": "trains",
                    "lead.rule": "highest-double", "layout.double_takes": 1,
                    "layout.double_again": True, "draw.rule": "one"}, True),
    # R5.7: plays score (the points and the ends' weights part of every successor):
    # Muggins' line, All Fives' spinner whose arms open once both sides are covered
    ("muggins-2p-d6", {"set.max": 3, "deal.hand_size": 3, "scoring.in_play": "fives"},
     True),
    ("all-fives-2p-d6", {"set.max": 3, "deal.hand_size": 3, "lead.tile": "3-3"}, True),
    pytest.param("draw-leave2-2p-d6", {"set.max": 3, "deal.hand_size": 3}, True, marks=SLOW),
    pytest.param("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"},
                 False, marks=SLOW),
    pytest.param("draw-8p-d12", {"set.max": 3, "deal.players": 3, "deal.hand_size": 2}, True,
                 marks=SLOW),
]


def _states(v: Variant, free: bool, seed: int, limit: int) -> list[Any]:
    res = explore(v, Init.one(seeded_deal(v, seed), free_draw=free), max_states=limit)
    return list(res.states())


@pytest.mark.parametrize(("name", "overrides", "free"), SMALL)
def test_transition_level_on_every_state_searched(name: str, overrides: dict[str, Any] | None,
                                                  free: bool) -> None:
    v = variant(name, overrides)
    rules = engine_for(v)
    states = _states(v, free, 0, 400)
    assert states
    for s in states:
        engine = {(m, t.key()) for m, t in rules.successors(s)}
        z3s = z3_successors(v, s)
        assert engine <= z3s, ("the relation misses", s, engine - z3s)
        assert z3s <= engine, ("the engine misses", s, z3s - engine)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "overrides", "free"), [
    x.values if hasattr(x, "values") else x for x in SMALL])
def test_transition_level_on_larger_searches(name: str, overrides: dict[str, Any] | None,
                                             free: bool) -> None:
    v = variant(name, overrides)
    rules = engine_for(v)
    for seed in (1,):
        for s in _states(v, free, seed, 1_500):
            assert {(m, t.key()) for m, t in rules.successors(s)} == z3_successors(v, s)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["block-2p-d6", "tiny-2p-d3"])
def test_trace_level_witnesses_replay(name: str) -> None:
    pr = Prover(variant(name))
    for q in QUESTIONS:
        if q == "max-residual":
            continue  # tests/test_bmc.py
        w = witness(pr, q, depth=16)
        if w.run is None:
            continue
        assert w.run.replayed, (q, w.run.mismatch)
        states = w.run.trace.states()
        assert [s.key()[:-1] for s in states] == [s.key()[:-1] for s in w.run.states]


def test_trace_level_counterexamples_to_induction_are_engine_steps() -> None:
    """A CTI is not reachable, but its step is a step of the rules: the engine applies
    the move to the state before and gets the state after."""
    for name in ("block-2p-d6",):
        pr = Prover(variant(name))
        rules = engine_for(pr.variant)
        chain = pr.explain("blocked-sound")
        assert chain
        for cti, _ in chain:
            got = rules.apply(cti.pre, cti.move)
            assert got.key() == cti.post.key(), (name, cti.describe())


@pytest.mark.slow
def test_trace_level_fault_ctis_are_steps_of_the_faults_engine() -> None:
    for f in FAULTS:
        if f.engine is None or awaiting_z3_twin(f.id) or z3_unstated(f.id):  # no twin
            continue
        pr = twin_prover(f)
        rules: RuleBook = f.engine_for(pr.variant)
        for pid in f.catches:
            lem = next((c for c in pr.candidates if c.property == pid), None)
            if lem is None:
                continue
            cti = pr.cti(lem, [x for x in pr.invariant().kept if x is not lem])
            if cti is None:
                continue
            assert rules.step(cti.pre, cti.move).key() == cti.post.key(), (f.id, pid)


def _agree(g: Verdict, z: Verdict) -> bool:
    return g.ok == z.ok and (g is Verdict.VIOLATED) == (z is Verdict.VIOLATED) and (
        (g is Verdict.NOT_APPLICABLE) == (z is Verdict.NOT_APPLICABLE))


CORRECT = [
    pytest.param("block-2p-d6", {"set.max": 3, "deal.hand_size": 3}, marks=SLOW),
    pytest.param("block-2p-d6", {"set.max": 3, "deal.hand_size": 5}, marks=SLOW),
    ("tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}),
    pytest.param("fouls-4p-d6", {"set.max": 2, "deal.players": 2, "deal.hand_size": 2,
                                 "lead.tile": "2-2"}, marks=SLOW),
    pytest.param("draw-leave2-2p-d6", {"set.max": 2, "deal.hand_size": 2}, marks=SLOW),
    # R5.7: points-in-fives HOLDS in the search and is PROVED by Z3
    ("muggins-2p-d6", {"set.max": 2, "deal.hand_size": 2, "deal.set_aside": 0,
                       "scoring.in_play": "fives"}),
]


@pytest.mark.parametrize(("name", "overrides"), CORRECT)
def test_verdict_level_correct_rules(name: str, overrides: dict[str, Any]) -> None:
    v = variant(name, overrides)
    ver = verify(v, Init.every(), max_states=300_000)
    assert ver.figures.complete
    graph = {r.property: r.verdict for r in ver.results}
    z3v = {r.property: r.verdict for r in Prover(v).prove_all()}
    for pid, g in graph.items():
        assert _agree(g, z3v[pid]), (pid, g, z3v[pid])


#: a known disagreement, kept visible: the twin of ``tiles-counted-as-pips`` states the fault
#: in the winner alone, and proves ``award`` against its own winner, while the search's
#: judge reads the award against the correct reading's winner (VIOLATED); strict, so a
#: fix of either side shows
_AWARD_READS_DIFFER = pytest.mark.xfail(strict=True, reason="award: the twin reads its own "
                                        "winner, the search the correct one")


@pytest.mark.parametrize("fault", [
    f.id if f.id in ("confirm-resets", "tie-wrong") else with_z3_twin(
        f.id, marks=[SLOW, _AWARD_READS_DIFFER] if f.id == "tiles-counted-as-pips" else SLOW)
    for f in FAULTS])
def test_verdict_level_broken_rules(fault: str) -> None:
    """Each broken rule set: where exhaustive search is complete, Z3 (the twin) gives the
    same verdict on every property; the graph search's broken rule sets are caught by Z3.
    Z3 reasons about every deal: a layout's fault, whose demo searches one deal chosen
    where the correct rules pass (docs/LAYOUTS.md: some layouts' blocks break a layout
    property under the correct rules), is compared with a search of every deal."""
    f = next(x for x in FAULTS if x.id == fault)
    v = f.variant()
    init = Init.every() if set(f.catches) & set(LAYOUT_PROPERTIES) else f.init()
    ver = verify(v, init, engine=f.engine, scorer=f.scorer, max_states=200_000)
    graph = {r.property: r.verdict for r in ver.results}
    z3v = {r.property: r.verdict for r in twin_prover(f).prove_all()}
    for pid in f.catches:
        assert z3v[pid] is Verdict.VIOLATED, (pid, z3v[pid])
    if not ver.figures.complete:
        pytest.skip(f"exhaustive search incomplete ({ver.figures.states} states)")
    for pid, g in graph.items():
        assert _agree(g, z3v[pid]), (pid, g, z3v[pid])


SCORING = [
    ("block-2p-d6", {"set.max": 3, "deal.hand_size": 3}),  # tie none
    pytest.param("block-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"},
                 marks=SLOW),  # split
    ("fouls-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"}),  # first-from
    pytest.param("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"},
                 marks=SLOW),
    ("draw-4p-d9", {"set.max": 3, "deal.players": 3, "deal.hand_size": 2}),  # lightest
    ("partnership-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3",
                           "partnerships.compare": "player", "scoring.tie": "team-total",
                           "scoring.block_award": "others-minus-winner",
                           "scoring.round_to": 5}),
    ("draw-10p-d18", {"set.max": 3, "deal.players": 3, "deal.hand_size": 2,
                      "lead.tile": "3-3", "scoring.block_award": "all-residuals"}),  # all-win
    ("block-2p-d6", {"set.max": 3, "deal.hand_size": 3,
                     "scoring.tile_values": {"0-0": 25}}),
]


@pytest.mark.parametrize(("name", "overrides"), SCORING)
def test_declarative_scoring_matches_the_engine(name: str, overrides: dict[str, Any]) -> None:
    v = variant(name, overrides)
    scoring = Scoring(Encoding(v))
    seen = 0
    for seed in range(3):
        res = explore(v, Init.one(seeded_deal(v, seed)), max_states=20_000)
        for s in res.states():
            if not s.is_terminal:
                continue
            want = outcome(v, s)
            assert want is not None
            got = scoring.evaluate(s)
            assert got is not None
            assert got.residuals == want.residuals, s
            assert got.totals == want.totals, s
            assert got.winners == want.winners, (s, want.explanation)
            assert got.awards == want.awards, (s, want.explanation)
            assert got.penalties == want.penalties, s
            assert got.scores == want.scores, s
            seen += 1
    assert seen
