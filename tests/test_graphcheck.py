"""The property catalogue checked on explored graphs (``dominoproof.proofs.search.judge``),
the ``explore`` command and the drawings of tiny state graphs.

The correct rules pass every applicable property on a spread of small variants (every
tie and award rule, fouls, teams, draw-one, tiles left out); parity holds where every
tile is in play and is refuted, with a replayable trace, where tiles are set aside;
a partial search claims nothing; counterexamples are shortest and replay.
"""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from click.testing import CliRunner
from helpers import variant

from dominoproof.cli import main
from dominoproof.model import Status, Trace, engine_for, find_variant
from dominoproof.model.dealtext import parse_deal
from dominoproof.model.engine import init_for, seeded_deal
from dominoproof.model.errors import DominoproofError, TraceError
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import CATALOGUE, Verdict
from dominoproof.proofs.search.check import checked_verdict, round_bound
from dominoproof.proofs.search.rounds import replay
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties, verify
from dominoproof.render.graph import check_tiny, to_dot, to_svg, write_graphml


def verdicts(v: Variant, init: Init, **kw: Any) -> dict[str, Any]:
    return {r.property: r for r in verify(v, init, **kw).results}


BLOCK_D3_H2 = {"set.max": 3, "deal.hand_size": 2}

# (id, preset, overrides, deals): the correct rules pass everything here
CORRECT = [
    ("tiny-one-deal", "tiny-2p-d3", None, "seed 0"),
    ("tiny-free-draw", "tiny-2p-d3", None, "seed 1 free-draw"),
    ("draw-d2-every", "tiny-2p-d3", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"},
     "every"),
    ("tie-none", "block-2p-d6", BLOCK_D3_H2, "every"),
    ("tie-split-others-minus", "block-2p-d6",
     {**BLOCK_D3_H2, "scoring.tie": "split", "scoring.block_award": "others-minus-winner"},
     "every"),
    ("tie-all-win-round-5", "block-2p-d6",
     {**BLOCK_D3_H2, "scoring.tie": "all-win", "scoring.round_to": 5}, "every"),
    ("tie-first-from-proposer", "block-2p-d6",
     {**BLOCK_D3_H2, "scoring.tie": "first-from-proposer"}, "every"),
    ("tie-lightest-all-residuals", "block-2p-d6",
     {**BLOCK_D3_H2, "scoring.tie": "lightest-tile", "scoring.block_award": "all-residuals"},
     "every"),
    ("special-tile-value", "block-2p-d6",
     {**BLOCK_D3_H2, "scoring.tile_values": {"0-0": 25}}, "every"),
    ("all-in-play-d3", "block-2p-d6", {"set.max": 3, "deal.hand_size": 5}, "every"),
    ("fouls-3p", "fouls-4p-d6",
     {"set.max": 3, "deal.players": 3, "deal.hand_size": 3, "lead.tile": "3-3"}, "seed 1"),
    ("team-total-tie", "partnership-4p-d6",
     {"set.max": 4, "deal.hand_size": 3, "lead.tile": "4-4", "partnerships.compare": "player",
      "scoring.tie": "team-total"}, "seed 138"),
    ("teams", "partnership-4p-d6", {"set.max": 4, "deal.hand_size": 3, "lead.tile": "4-4"},
     "seed 2"),
    ("draw-one", "draw-10p-d18",
     {"set.max": 3, "deal.players": 2, "deal.hand_size": 3, "lead.tile": "3-3"},
     "seed 3 free-draw"),
    ("leave-2", "draw-leave2-2p-d6", {"set.max": 3, "deal.hand_size": 3}, "seed 0 free-draw"),
    ("has-legal-move-reading", "block-2p-d6",
     {**BLOCK_D3_H2, "layout.extend": "has-legal-move"}, "every"),
]


@pytest.mark.parametrize(("name", "overrides", "deals"), [c[1:] for c in CORRECT],
                         ids=[c[0] for c in CORRECT])
def test_the_correct_rules_pass_every_applicable_property(name: str, overrides: Any,
                                                          deals: str) -> None:
    v = variant(name, overrides)
    got = verdicts(v, init_for(v, deals))
    for p in CATALOGUE:
        r = got[p.id]
        if p.applies_to(v):
            assert r.verdict is Verdict.HOLDS, (p.id, r.detail)
            assert r.trace is None and r.states and r.states > 1
        else:
            assert r.verdict is Verdict.NOT_APPLICABLE


def test_the_tie_checks_see_ties() -> None:
    """The tie configurations above do reach ties, so the tie oracle is exercised."""
    for cid, name, overrides, deals in CORRECT:
        if cid.startswith("tie-") or cid == "team-total-tie":
            v = variant(name, overrides)
            (r,) = check_properties(explore(v, init_for(v, deals)), ["tie"])
            assert r.stats["ties"] > 0, cid


# ---------------------------------------------------------------------------
# Parity: holds with every tile in play, refuted with tiles out of play
# ---------------------------------------------------------------------------

PARITY_HOLDS = [
    ("N=2 every deal", "block-2p-d6", {"set.max": 2, "deal.hand_size": 3}, "every"),
    ("N=3 every deal", "block-2p-d6", {"set.max": 3, "deal.hand_size": 5}, "every"),
    ("N=4 one deal", "draw-2p-d6", {"set.max": 4, "deal.hand_size": 7}, "seed 0"),
    ("N=4 3 players", "block-2p-d6", {"set.max": 4, "deal.players": 3, "deal.hand_size": 5},
     "seed 0"),
    ("N=5 one deal", "draw-2p-d6", {"set.max": 5, "deal.hand_size": 7}, "seed 0"),
]


@pytest.mark.parametrize(("name", "overrides", "deals"), [c[1:] for c in PARITY_HOLDS],
                         ids=[c[0] for c in PARITY_HOLDS])
def test_parity_holds_with_every_tile_in_play(name: str, overrides: Any, deals: str) -> None:
    v = variant(name, overrides)
    assert v.all_in_play
    (r,) = check_properties(explore(v, init_for(v, deals)), ["parity"])
    assert r.verdict is Verdict.HOLDS, r.detail
    assert r.stats["parity blocks"] > 0  # blocks were reached and examined


@pytest.mark.slow
def test_parity_holds_on_double_6_and_double_5_three_players() -> None:
    v = find_variant("draw-2p-d6")
    deal = parse_deal(v, "P0: 6-6 0-3 3-4 1-6 1-2 1-4 2-3; P1: 0-2 1-3 5-6 2-6 2-2 4-6 2-4; "
                         "stack: 3-6 3-3 3-5 1-5 0-4 4-4 5-5 1-1 0-5 0-1 4-5 2-5 0-0 0-6")
    (r,) = check_properties(explore(v, Init.one(deal)), ["parity"])
    assert r.verdict is Verdict.HOLDS and r.stats["parity blocks"] > 1000
    v5 = variant("block-2p-d6", {"set.max": 5, "deal.players": 3, "deal.hand_size": 7})
    (r,) = check_properties(explore(v5, init_for(v5, "seed 0")), ["parity"])
    assert r.verdict is Verdict.HOLDS and r.stats["parity blocks"] > 1000


@pytest.mark.parametrize(("overrides", "deals"), [
    ({"set.max": 3, "deal.hand_size": 3}, "every"),
    ({"set.max": 4, "deal.hand_size": 7}, "seed 0"),
])
def test_parity_is_refuted_where_tiles_are_out_of_play(overrides: Any, deals: str) -> None:
    v = variant("block-2p-d6", overrides)
    assert not v.all_in_play
    result = explore(v, init_for(v, deals))
    (na,) = check_properties(result, ["parity"])
    assert na.verdict is Verdict.NOT_APPLICABLE and na.trace is None
    (r,) = check_properties(result, ["parity"], inapplicable=True)
    assert r.verdict is Verdict.NOT_APPLICABLE and checked_verdict(r) is Verdict.VIOLATED
    trace = Trace.loads(r.trace.dumps())  # the engine replays it, with every check
    final = trace.final
    assert final.status is Status.BLOCKED
    lo, hi = final.ends
    suits = v.tiles.suit[lo] | v.tiles.suit[hi]
    assert suits & ~final.table or (lo == hi) != (v.n % 2 == 0)
    assert len(trace.moves) == result.depth[r.stats["state"]]  # a shortest one


# ---------------------------------------------------------------------------
# Counterexamples, partial searches, bounds
# ---------------------------------------------------------------------------


def test_a_variant_faults_counterexample_replays_in_the_engine() -> None:
    fault = FAULTS_BY_ID["all-others-confirm"]
    v = fault.variant()
    got = verdicts(v, fault.init(v))
    r = got["procedure"]
    assert r.verdict is Verdict.VIOLATED
    trace = Trace.loads(r.trace.dumps())
    assert trace.moves[-1].kind.name == "ESTABLISH"
    assert trace.states()[-2].confirmed == v.players - 1


def test_a_mutants_counterexample_replays_only_under_the_mutant() -> None:
    fault = FAULTS_BY_ID["draw-loses-tile"]
    v = fault.variant()
    got = verdicts(v, fault.init(v), engine=fault.engine)
    trace = got["conservation"].trace
    states = replay(trace, fault.engine_for(v))
    assert states[-1] == trace.final
    assert states[-1].in_hands | states[-1].boneyard | states[-1].table | \
        states[-1].set_aside != v.tiles.full
    # the real rule book, on the same moves, loses nothing
    assert all(s.in_hands | s.boneyard | s.table | s.set_aside == v.tiles.full
               for s in replay(trace))
    # a mutant that allows a move the rules forbid: its trace does not replay at all
    fault = FAULTS_BY_ID["confirm-while-playable"]
    v = fault.variant()
    trace = verdicts(v, fault.init(v), engine=fault.engine)["no-false-confirmation"].trace
    assert replay(trace, fault.engine_for(v))[-1] == trace.final
    with pytest.raises(TraceError, match="not enabled"):
        replay(trace)


def test_a_partial_search_claims_nothing_but_keeps_counterexamples() -> None:
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3})
    got = verdicts(v, Init.every(), max_states=40_000, inapplicable=True)
    for p in CATALOGUE:
        r = got[p.id]
        assert r.verdict is not Verdict.HOLDS
        if p.applies_to(v):
            assert r.verdict is Verdict.UNKNOWN and "partial search" in r.detail
    assert checked_verdict(got["parity"]) is Verdict.VIOLATED  # found before the budget


def test_the_longest_round_is_within_the_bound_from_the_rules() -> None:
    for cid, name, overrides, deals in CORRECT:
        v = variant(name, overrides)
        f = explore(v, init_for(v, deals)).figures
        bound, text = round_bound(v)
        assert f.longest is not None and max(f.longest.values()) <= bound, cid
        assert str(bound) in text
    v = find_variant("fouls-4p-d6")  # I = 28, B = 0, F = 4, P = 4
    assert round_bound(v)[0] == 28 + 0 + 0 + 4 + 4 * (28 + 4 + 1) + 1


def test_unknown_property_is_a_user_error() -> None:
    v = find_variant("tiny-2p-d3")
    with pytest.raises(DominoproofError, match="no property"):
        check_properties(explore(v, init_for(v, "seed 0")), ["no-such"])


def test_parallel_verification_agrees_with_one_process() -> None:
    v = variant("block-2p-d6", BLOCK_D3_H2)
    one = verify(v, Init.every(), inapplicable=True)
    many = verify(v, Init.every(), inapplicable=True, workers=2)
    assert many.figures.states == one.figures.states
    for a, b in zip(one.results, many.results, strict=True):
        assert (a.property, a.verdict, checked_verdict(a)) == \
            (b.property, b.verdict, checked_verdict(b))
        if a.trace is not None:
            assert len(a.trace.moves) == len(b.trace.moves)  # both shortest
    json.dumps(many.to_json(), default=str)


# ---------------------------------------------------------------------------
# Drawings
# ---------------------------------------------------------------------------


def tiny_result() -> Any:
    v = find_variant("tiny-2p-d3")
    return explore(v, Init.one(seeded_deal(v, 0)))


def test_dot_marks_blocked_states_and_labels_moves() -> None:
    r = tiny_result()
    dot = to_dot(r)
    assert dot.count(" -> ") == len(r.edge_to)
    assert dot.count("BLOCKED") == r.figures.terminals["blocked"]
    assert dot.count("peripheries=2") == r.figures.terminals["blocked"]
    assert "P1 leads [2|3]" in dot and "the block is established" in dot


def test_graphml_reads_back(tmp_path: Path) -> None:
    r = tiny_result()
    path = tmp_path / "g.graphml"
    write_graphml(r, path)
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == r.size and g.number_of_edges() == len(r.edge_to)
    kinds = [d["kind"] for _n, d in g.nodes(data=True)]
    assert kinds.count("blocked") == r.figures.terminals["blocked"]


def test_svg_needs_no_graphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    r = tiny_result()
    monkeypatch.setattr(shutil, "which", lambda name: None)
    svg = to_svg(r)  # drawn by dominoproof itself, whatever is installed
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and svg.count("<rect") >= r.size
    assert len(root.get("viewBox", "").split()) == 4


def test_only_tiny_graphs_are_drawn() -> None:
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3})
    r = explore(v, Init.every())
    with pytest.raises(DominoproofError, match="tiny"):
        check_tiny(r)


# ---------------------------------------------------------------------------
# The explore command
# ---------------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["explore", *args])


def test_explore_one_deal_prints_figures_and_verdicts() -> None:
    res = run("tiny")
    assert res.exit_code == 0, res.output
    out = res.output
    for label in ("states", "transitions", "terminal states", "complete rounds",
                  "shortest round", "longest round", "states/s", "peak RSS"):
        assert label in out
    for p in CATALOGUE:
        assert p.id in out
    assert "deal: P0: 0-2 2-2 1-3; P1: 1-1 1-2 2-3; stack: 3-3 0-1 0-3 0-0" in out


def test_explore_shorthands_and_every_deal() -> None:
    res = run("block-4p-d6", "--set-max", "2", "--players", "2", "--hand-size", "3",
              "--all-deals")
    assert res.exit_code == 0, res.output
    assert "lead tile 6-6 -> 2-2" in res.output and "every deal" in res.output


def test_explore_a_fault_is_caught() -> None:
    res = run("block", "--set-max", "2", "--hand-size", "2", "--all-deals",
              "--fault", "confirm-resets")
    assert res.exit_code == 1
    assert "counterexample to termination" in res.output
    assert "NO: a round can go on for ever" in res.output


def test_explore_budget_is_unknown() -> None:
    res = run("tiny", "--max-states", "20")
    assert res.exit_code == 3 and "UNKNOWN" in res.output and "PARTIAL" in res.output


def test_explore_refuses_infeasible_and_bad_input() -> None:
    res = run("draw-2p-d6", "--all-deals")
    assert res.exit_code == 2 and "too many" in res.output
    res = run("tiny", "--deal", "P0: 0-0")
    assert res.exit_code == 2 and "--deal" in res.output
    res = run("tiny", "--seed", "1", "--all-deals")
    assert res.exit_code == 2
    res = run("tiny", "--fault", "nope")
    assert res.exit_code == 2 and "no such fault" in res.output


def test_explore_the_spin_deal_is_accepted(tmp_path: Path) -> None:
    header = tmp_path / "spin.txt"
    header.write_text("P0: [6|6] [0|3] [3|4] [1|6] [1|2] [1|4] [2|3]\n"
                      "P1: [0|2] [1|3] [5|6] [2|6] [2|2] [4|6] [2|4]\n"
                      "boneyard (draw order): [3|6] [3|3] [3|5] [1|5] [0|4] [4|4] [5|5] [1|1] "
                      "[0|5] [0|1] [4|5] [2|5] [0|0] [0|6] */\n")
    res = run("draw-2p-d6", "--deal", str(header), "--max-states", "2000", "-p",
              "blocked-sound")
    assert res.exit_code == 3, res.output  # the budget stops it: UNKNOWN, not HOLDS
    assert "PARTIAL" in res.output and "stack: 3-6 3-3 3-5" in res.output


def test_explore_json_and_files(tmp_path: Path) -> None:
    dot, svg, gml = tmp_path / "g.dot", tmp_path / "g.svg", tmp_path / "g.graphml"
    res = run("tiny", "--json", "--dot", str(dot), "--svg", str(svg), "--graphml", str(gml))
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["figures"]["states"] == 71
    assert {r["property"] for r in data["results"]} == {p.id for p in CATALOGUE}
    assert dot.read_text().startswith("digraph") and "<svg" in svg.read_text()
    assert nx.read_graphml(gml).number_of_nodes() == 71


def test_explore_writes_replayable_traces(tmp_path: Path) -> None:
    res = run("block", "--set-max", "3", "--hand-size", "3", "--traces", str(tmp_path))
    assert res.exit_code == 0, res.output  # parity is N/A here: refuted, not failed
    assert "N/A (VIOLATED if checked)" in res.output
    trace = Trace.loads((tmp_path / "parity.json").read_text())
    assert trace.final.status is Status.BLOCKED
    assert engine_for(trace.variant).is_blocked(trace.final)
