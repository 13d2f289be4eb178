"""The verdict shows its evidence (``dominoproof/render/evidence.py``,
``dominoproof/render/concrete.py``,
``dominoproof/report.py``): every VIOLATED check's shortest counterexample as a round that
replays (Z3's bounded model checking runs included), ``verify --traces DIR`` files that
``dominoproof replay`` accepts, counterexamples to induction in domino terms, the
all-sizes counterexample on a concrete table of real tiles, and a search of sampled
deals that says "sampled" and how many, never "exhaustive".

The broken rule sets are ``block.confirmations = "all-others"`` (R4.4: one confirmation
short, so a block is established while a tile is playable) and the faults of
``proofs/faults.py``."""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import variant

from dominoproof import api
from dominoproof.cli import main
from dominoproof.model import MoveKind, Status, Tile, random_round
from dominoproof.model.engine import Trace
from dominoproof.model.errors import IllegalMoveError, TraceError
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import count_deals
from dominoproof.proofs import allsizes
from dominoproof.proofs.allsizes import AbstractCounterexample, prove_all_sizes
from dominoproof.proofs.properties import Result, Verdict
from dominoproof.proofs.search.plans import search_plan
from dominoproof.proofs.search.rounds import judge_round
from dominoproof.proofs.z3.lemmas import BY_ID as LEMMAS
from dominoproof.proofs.z3.queries import TYPE_OK, Prover, Run
from dominoproof.render.concrete import concretise, describe
from dominoproof.render.evidence import of_result
from dominoproof.report import write_traces
from dominoproof.verify import Report
from dominoproof.verify_job import _search_rows, row_of, verify_fault

ALL_OTHERS = {"block.confirmations": "all-others"}
TILE = re.compile(r"\[(\d+)\|(\d+)\]")


@pytest.fixture(scope="module")
def broken() -> Prover:
    return Prover(variant("block-2p-d6", ALL_OTHERS))


# ---------------------------------------------------------------------------
# Z3's VIOLATED rows carry a round that replays and breaks the property
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("pid", ["procedure", "blocked-sound"])
def test_a_z3_violation_prints_a_round_that_replays_and_breaks_the_property(
        broken: Prover, pid: str) -> None:
    res = broken.prove(pid)
    assert res.verdict is Verdict.VIOLATED and isinstance(res.trace, Run)
    row = row_of("v", "z3", res, ("PROVED",), variant=broken.variant)
    assert row.trace is not None
    # the trace in the row replays in the engine, with every legality check
    trace = api.replay(row.trace)
    states = trace.states()
    final, last = states[-1], trace.moves[-1]
    v = broken.variant
    # ... and reaches a state violating the property, judged here from R4.4 and R2 alone
    assert final.status is Status.BLOCKED and last.kind is MoveKind.ESTABLISH
    before = states[-2]
    if pid == "procedure":
        assert before.confirmed < v.players  # not every player confirmed (R4.4)
    else:
        assert not engine_for(v).ends_unplayable(final)  # a hand holds a matching tile (R2.1)
    # the round as printed: the deal, each move with its rule ID, where and what fails
    text = row.round
    assert text.startswith(f"Counterexample to {pid}")
    for hand in trace.deal.hands:
        shown = "".join(Tile.from_index(t).show() for t in range(v.tiles.count)
                        if hand >> t & 1)
        assert shown in text
    assert "Terms" in text and "R4.1" in text and "R4.4" in text
    assert "Where it fails" in text and row.fails in text.replace("\n    ", " ")
    assert f"ends {' and '.join(map(str, final.ends))}" in text
    # the row's detail says what fails, not only "a real round reaches ..."
    assert row.fails and row.fails in row.detail
    assert "only 1 of the 2 players confirmed" in row.fails if pid == "procedure" else \
        "holds a tile matching an open end" in row.fails


def test_the_judge_finds_nothing_on_the_rounds_of_sound_rules() -> None:
    v = variant("block-2p-d6")
    for seed in range(5):
        t = random_round(v, seed)
        for pid in ("blocked-sound", "procedure", "conservation", "no-false-confirmation",
                    "boneyard-monotone", "opening", "winner-lowest", "award", "pips",
                    "termination", "blocked-complete"):
            assert judge_round(t, pid) is None, (seed, pid)


def test_a_fault_round_is_judged_where_it_breaks() -> None:
    """confirm-while-playable: its search round breaks no-false-confirmation at the move
    where a player confirms holding a playable tile (the judge can fail)."""
    rows = [r for r in verify_fault("confirm-while-playable")
            if r.property == "no-false-confirmation" and r.verdict == "VIOLATED"]
    assert {r.part for r in rows} == {"search", "z3"}
    for r in rows:
        trace = api.replay(r.trace or {})  # under the fault's rule book, which it names
        at = judge_round(trace, "no-false-confirmation")
        assert at is not None and at.transition and at.move == len(trace.moves)
        bad = trace.moves[at.move - 1]
        assert bad.kind is MoveKind.CONFIRM
        assert engine_for(trace.variant).playable_mask(trace.states()[at.move - 1], bad.player)
        assert f"at move {at.move}" in r.round


# ---------------------------------------------------------------------------
# --traces DIR
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, Path]:
    """``verify`` of the broken variant, once: its output, JSON and traces folder."""
    tmp = tmp_path_factory.mktemp("verify")
    out, data = tmp / "traces", tmp / "v.json"
    r = CliRunner().invoke(main, ["verify", "block-2p-d6", "-o",
                                  "block.confirmations=all-others", "--no-faults",
                                  "--crosscheck", "0", "--workers", "1",
                                  "--traces", str(out), "--json", str(data)])
    return r, out, data


def test_verify_traces_writes_every_violation_as_a_trace_replay_accepts(
        verified: tuple[Any, Path, Path]) -> None:
    r, out, data = verified
    assert r.exit_code == 1, r.output
    rows = json.loads(data.read_text())["rows"]
    violated = [x for x in rows if x["verdict"] == "VIOLATED"]
    files = sorted(out.glob("*.json"))
    assert len(files) == len(violated) == 4  # blocked-sound, procedure x search, z3
    for f in files:
        rep = CliRunner().invoke(main, ["replay", str(f)])
        assert rep.exit_code == 0, rep.output
        assert "R4.4" in rep.output and "blocked" in rep.output
    assert "wrote 4 counterexample trace(s)" in r.stderr


def test_traces_of_a_fault_replay_under_the_rule_book_they_name(tmp_path: Path) -> None:
    rows = verify_fault("play-keeps-end") + verify_fault("tie-wrong")
    written, skipped = write_traces(Report(rows, subjects=["x"]), tmp_path)
    assert not skipped and len(written) == sum(r.verdict == "VIOLATED" for r in rows) == 4
    for f in written:
        rep = CliRunner().invoke(main, ["replay", str(f)])
        assert rep.exit_code == 0, rep.output
        named = json.loads(f.read_text()).get("rules")
        assert ("deliberately broken rule book PlayKeepsEnd" in rep.output) == bool(named)
    # the broken rule book lays tiles as no line does: said, not a crash
    assert "no line has them" in CliRunner().invoke(main, ["replay", str(written[0])]).output


def test_a_play_the_layout_would_not_offer_replays_under_the_rule_book_allowing_it() -> None:
    """The double-left-uncovered counterexample plays elsewhere while a double waits to be
    covered: the layout offers no such slot (reading the written move by the layout
    alone refuses it, R2.1), yet the trace replays, each written play read among the
    fault's own legal moves, to the same moves; under the sound rule book it does not
    replay (no open end it offers shows the number, R2.1)."""
    from dominoproof.model.layout import layout_of
    from dominoproof.model.moves import move_json, read_move, resolve
    from dominoproof.proofs.faults import FAULTS_BY_ID
    from dominoproof.proofs.search.verification import verify

    fault = FAULTS_BY_ID["double-left-uncovered"]
    v = fault.variant()
    ver = verify(v, fault.init(v), engine=fault.engine, properties=list(fault.catches))
    trace = next(r.trace for r in ver.results if isinstance(r.trace, Trace))
    layout = layout_of(v)
    states = trace.states()
    elsewhere = [(s, m) for s, m in zip(states, trace.moves, strict=False)
                 if m.kind is MoveKind.PLAY and m.end >= 0
                 and m.end not in layout.targets(s.ends, m.player, s.marks)]
    assert elsewhere
    for s, m in elsewhere:
        with pytest.raises(IllegalMoveError, match=r"^R2\.1: no open end"):
            resolve(layout, s, read_move(move_json(layout, s, m)))
    data = dataclasses.replace(trace, rules=fault.engine_for(v)).to_json()
    assert data["rules"]
    assert api.replay(data).moves == trace.moves
    with pytest.raises(TraceError, match=r"does not replay: R2\.1: no open end shows"):
        Trace.from_json(data, rules=engine_for)


def test_explore_traces_of_a_fault_replay_too(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["explore", "block-2p-d6", "--set-max", "2", "--hand-size",
                                  "2", "--all-deals", "--fault", "confirm-while-playable",
                                  "--traces", str(tmp_path)])
    assert r.exit_code == 1
    files = sorted(tmp_path.glob("*.json"))
    assert files and any(f.name == "no-false-confirmation.json" for f in files)
    for f in files:
        rep = CliRunner().invoke(main, ["replay", str(f)])
        assert rep.exit_code == 0 and "ConfirmWhilePlayable" in rep.output, rep.output


def test_a_trace_naming_an_unknown_rule_book_is_refused(tmp_path: Path) -> None:
    data = random_round(variant("tiny-2p-d3"), 1).to_json()
    data["rules"] = "MyOwnRules"
    f = tmp_path / "t.json"
    f.write_text(json.dumps(data))
    r = CliRunner().invoke(main, ["replay", str(f)])
    assert r.exit_code == 2 and "MyOwnRules" in r.stderr and "Traceback" not in r.output


def test_traces_must_name_a_folder_before_any_work(tmp_path: Path) -> None:
    f = tmp_path / "file"
    f.write_text("")
    r = CliRunner().invoke(main, ["verify", "tiny", "--traces", str(f)])
    assert r.exit_code == 2 and "not a folder" in r.stderr and "checked" not in r.stderr
    r = CliRunner().invoke(main, ["verify", "tiny", "--traces", str(tmp_path / "a" / "b")])
    assert r.exit_code == 2 and "does not exist" in r.stderr


# ---------------------------------------------------------------------------
# NOT INDUCTIVE per instance: two states and a move, in domino terms
# ---------------------------------------------------------------------------


def test_a_counterexample_to_induction_is_shown_in_domino_terms() -> None:
    pr = Prover(variant("block-2p-d6"))
    assert pr.cti(LEMMAS["blocked-sound"], [LEMMAS[i] for i in TYPE_OK]) is not None
    cti = pr.explain("blocked-sound")[-1][0]  # one with a line on the table
    assert cti.pre.ends
    res = Result("blocked-sound", Verdict.NOT_INDUCTIVE, "induction", "", "", trace=cti)
    ev = of_result(res, pr.variant)
    assert ev is not None and ev.kind == "cti"
    text = ev.text
    flat = " ".join(text.split())
    # what it is, in a few short lines: an unreachable state, the move, what fails, and
    # the lemma the proof would need
    assert flat.startswith("NOT INDUCTIVE: an unreachable state the proof's invariant does "
                           "not exclude (")
    assert len(text.splitlines()) <= 6 and all(len(x) <= 100 for x in text.splitlines())
    assert "the block is established (R4.4)" in flat
    assert f"P{cti.pre.turn} to move" in flat
    assert f"ends {' and '.join(map(str, cti.pre.ends))}" in flat  # ends by number
    assert "hands of " + "/".join(str(h.bit_count()) for h in cti.pre.hands) in flat
    assert "the lemma it needs:" in flat
    # what fails is judged on the two states, not left to the solver's words
    assert "matching an open end (R2.1" in ev.fails and ev.fails in flat
    assert "T0" not in text and "V0" not in text


# ---------------------------------------------------------------------------
# The all-sizes counterexample on a concrete table
# ---------------------------------------------------------------------------


def _all_sizes(fault: str | None, v: str = "block-2p-d6") -> dict[str, Result]:
    return {r.property: r for r in prove_all_sizes(variant(v), ["blocked-sound", "procedure",
                                                                "no-false-confirmation"],
                                                   fault=fault)}


def _real_tiles(cex: AbstractCounterexample) -> None:
    t = concretise(cex)
    assert t.tiles and all(0 <= x.lo <= x.hi <= t.n for x in t.tiles)
    assert len(set(t.tiles)) == len(t.tiles) and not t.duplicates  # a set has each once
    # every tile, and only tiles of double-n, in the text; seats that exist
    text, _ = describe(cex, cex.query.split()[-1])
    shown = {Tile.of(int(a), int(b)) for a, b in TILE.findall(text)}
    assert shown == set(t.tiles)
    seats = {int(p) for p in re.findall(r"\bP(\d+)\b", text)}
    assert seats == set(range(t.players))
    assert not re.search(r"\b[TVE]\d+\b", text)  # no abstract names left


def test_the_all_sizes_counterexample_names_real_tiles_of_a_small_set() -> None:
    res = _all_sizes("all-others-confirm")
    for pid in ("blocked-sound", "procedure"):
        r = res[pid]
        assert r.verdict is Verdict.NOT_INDUCTIVE and isinstance(r.trace,
                                                                 AbstractCounterexample)
        _real_tiles(r.trace)
        t = concretise(r.trace)
        # the seats run clockwise P0 -> P1 -> ...: the abstract ring, renamed
        order = {name: i for i, name in enumerate(r.trace.clockwise)}
        assert t.before.turn == order[r.trace.pre["turn"]]
    procedure = concretise(res["procedure"].trace)
    missing = [p for p in range(procedure.players) if p not in procedure.before.confirmed]
    _, fails = describe(res["procedure"].trace, "procedure")
    assert missing and f"{', '.join(f'P{p}' for p in missing)} did not; R4.4" in fails


def test_the_distinct_tiles_query_rules_out_a_repeated_tile() -> None:
    """The check above can fail: the abstract model allows two tiles carrying the same
    numbers (Z3's first model for confirm-while-playable had three copies of one tile,
    depending on the solver's history), a decoding then flags them; the second query's
    axiom makes such a model impossible."""
    res = _all_sizes("confirm-while-playable")["no-false-confirmation"]
    _real_tiles(res.trace)
    cex = dataclasses.replace(res.trace, carries={"T0": ["V0", "V1"], "T1": ["V0", "V1"],
                                                  "T2": ["V2"]})
    assert concretise(cex).duplicates == ("[0|1]",)
    assert "appear more than once" in describe(cex, "no-false-confirmation")[0]
    import z3

    m = allsizes.AbstractModel(variant("block-2p-d6"))
    voc = m.v
    t1, t2, x = z3.Const("a", voc.tile), z3.Const("b", voc.tile), z3.Const("x", voc.value)
    twins = z3.And(t1 != t2, z3.ForAll([x], voc.carries(t1, x) == voc.carries(t2, x)))
    s = z3.Solver(ctx=voc.ctx)
    s.set("random_seed", 0, "timeout", 60_000)
    s.add(*[f for _, f in m.axioms], twins)
    assert s.check() == z3.sat  # the model alone allows twin tiles
    s.add(allsizes.distinct_tiles(voc))
    assert s.check() == z3.unsat  # the decoding's query does not


def test_the_all_sizes_counterexample_is_indented_with_the_rest(
        verified: tuple[Any, Path, Path]) -> None:
    r = verified[0]
    assert r.exit_code == 1
    after = r.output.split("/ all sizes / blocked-sound: NOT INDUCTIVE")[1]
    block = after.split("\n")[1:12]
    assert all(line.startswith("    ") for line in block), block
    assert any("read on a small table" in line for line in block)
    assert "T0=" not in r.output


# ---------------------------------------------------------------------------
# Sampled deals are "sampled", with how many; never "exhaustive"
# ---------------------------------------------------------------------------


def python_path_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plans as on the Python path: the 4-player analogues' 113,400 deals sampled."""
    from dominoproof.proofs.search import plans

    monkeypatch.setattr(plans, "PLAN_DEALS_KERNEL", plans.PLAN_DEALS)


def test_a_sampled_search_says_sampled_and_how_many(monkeypatch: pytest.MonkeyPatch) -> None:
    python_path_plans(monkeypatch)
    v = variant("block-4p-d6")
    plan = search_plan(v)
    total = count_deals(plan.variant, True)
    assert plan.sampled and plan.coverage is not None
    rows, _ = _search_rows(v)
    for r in rows:
        assert "exhaustive" not in r.method and "sampled" in r.method
        assert f"{len(plan.inits):,} deals of {total:,}" in r.method
        assert r.coverage == {"sampled": True, "deals_searched": len(plan.inits),
                              "deals_total": total, "every_draw_order": False,
                              "how": r.coverage["how"], "fixed_order_deals": 0}


def test_every_deal_beyond_the_state_budget_gives_way_to_sampled_deals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the kernel every deal of the 4-player analogues is tried within PLAN_STATES;
    a search that reaches it is given up for the sampled deals, and the rows say why."""
    from dominoproof.proofs import kernel
    from dominoproof.proofs.search import plans

    if not kernel.available():
        pytest.skip(kernel.status())
    monkeypatch.setattr(plans, "PLAN_STATES", 20_000)  # every deal is 878,344 states
    rows, _ = _search_rows(variant("block-4p-d6"))
    for r in rows:
        assert r.coverage is not None and r.coverage["sampled"]
        assert "sampled" in r.method and "exhaustive" not in r.method
        assert "every deal is more than 20,000 states" in (r.configuration or "")
    monkeypatch.setattr(plans, "PLAN_STATES", 2_000_000)
    rows, _ = _search_rows(variant("block-4p-d6"))
    assert all(r.method == "exhaustive search: every deal (113,400)" for r in rows)


def test_every_deal_of_double_4_beyond_the_budget_gives_way_to_double_3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 2-player block game's double-4 analogue (1,450,920 states) with a smaller
    budget: every deal of double-3 instead, and the rows say why."""
    from dominoproof.proofs import kernel
    from dominoproof.proofs.search import plans

    if not kernel.available():
        pytest.skip(kernel.status())
    monkeypatch.setattr(plans, "PLAN_STATES", 100_000)
    rows, (small, _) = _search_rows(variant("block-2p-d6"))
    assert small.n == 3
    for r in rows:
        assert r.method == "exhaustive search: every deal (4,200)"
        assert (r.configuration or "").endswith(
            "every deal of double-4, 2 players x 3, 9 set aside is more than 100,000 "
            "states, the budget of one preset's search")


def test_every_deal_is_exhaustive_and_says_how_many() -> None:
    rows, _ = _search_rows(variant("block-2p-d6"))
    total = count_deals(search_plan(variant("block-2p-d6")).variant, True)
    assert all(r.method == f"exhaustive search: every deal ({total:,})" for r in rows)
    assert all(r.coverage and not r.coverage["sampled"] for r in rows)


def test_verify_of_a_sampled_variant_never_says_exhaustive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python_path_plans(monkeypatch)
    data, junit = tmp_path / "v.json", tmp_path / "v.xml"
    r = CliRunner().invoke(main, ["verify", "block-4p-d6", "--no-faults", "--crosscheck", "0",
                                  "--workers", "1", "--json", str(data), "--junit", str(junit)])
    assert r.exit_code == 0, r.output
    assert "exhaustive" not in r.output
    assert "search (sampled)" in r.output
    assert re.search(r"search: .*sampled, \d+ of [\d,]+ deals", r.output)
    search = [x for x in json.loads(data.read_text())["rows"] if x["part"] == "search"]
    assert search and all("sampled" in x["method"] and "exhaustive" not in x["method"]
                          and x["coverage"]["sampled"] for x in search)
    outs = [c.find("system-out") for c in ET.parse(junit).getroot().iter("testcase")
            if c.get("classname", "").endswith(".search")]
    assert outs and all(o is not None and "sampled" in (o.text or "")
                        and "exhaustive" not in (o.text or "") for o in outs)


def test_explore_of_one_deal_says_sampled() -> None:
    r = CliRunner().invoke(main, ["explore", "tiny", "--seed", "1", "--json"])
    doc = json.loads(r.stdout)
    assert doc["coverage"]["sampled"] and doc["coverage"]["deals_searched"] == 1
    assert all("exhaustive" not in x["method"] and "1 deal of 4,200" in x["method"]
               for x in doc["results"])
    text = CliRunner().invoke(main, ["explore", "tiny", "--seed", "1"]).output
    assert "exhaustive" not in text and "sampled deals: 1 deal of 4,200" in text
    every = CliRunner().invoke(main, ["explore", "block-2p-d6", "--set-max", "2",
                                      "--hand-size", "2", "--all-deals", "--json"])
    total = count_deals(variant("block-2p-d6", {"set.max": 2, "deal.hand_size": 2}), True)
    assert all(x["method"] == f"exhaustive search: every deal ({total:,})"
               for x in json.loads(every.stdout)["results"])


def test_a_fault_searched_on_one_demo_deal_says_sampled() -> None:
    rows = [r for r in verify_fault("boneyard-check-off") if r.part == "search"]
    assert rows and all("sampled" in r.method and "exhaustive" not in r.method for r in rows)


# ---------------------------------------------------------------------------
# Every fault's violations (slow: the whole self-test)
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_every_fault_violation_carries_a_judged_round_that_replays(tmp_path: Path) -> None:
    from dominoproof.proofs.faults import FAULTS

    for f in FAULTS:
        rows = verify_fault(f.id)
        for r in rows:
            if r.verdict == "VIOLATED":
                assert r.round and "Where it fails" in r.round, (f.id, r.part, r.property)
                assert "at move" in r.round or "after move" in r.round, (f.id, r.property)
                t = api.replay(r.trace or {})
                assert isinstance(t, Trace) and len(t.moves) > 0
            elif r.verdict == "NOT INDUCTIVE":
                assert r.cti and ("fails   " in r.cti or r.cti.startswith(
                    "NOT INDUCTIVE: an unreachable state")), (f.id, r.property)
                assert "fails in the abstract model here" not in r.fails, (f.id, r.property)
        written, skipped = write_traces(Report(rows, subjects=[f.id]), tmp_path / f.id)
        assert not skipped, skipped
        for path in written:
            assert CliRunner().invoke(main, ["replay", str(path)]).exit_code == 0, path


def test_the_round_is_illegal_under_the_sound_rules() -> None:
    """The all-others round is no round of the preset: its establishment is refused
    (R4.4), which is what makes it a counterexample to the variant, not to the rules."""
    pr = Prover(variant("block-2p-d6", ALL_OTHERS))
    run = pr.prove("procedure").trace
    assert isinstance(run, Run) and run.replayed
    sound = engine_for(variant("block-2p-d6"))
    s = sound.opening(run.trace.deal.hands)  # the same leader
    assert s[0] == run.states[0].turn
    state = run.states[0]
    with pytest.raises(IllegalMoveError, match=r"^R4\.4"):
        for m in run.moves:
            state = sound.apply(state, m)
