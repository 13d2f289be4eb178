"""``dominoproof diff A B`` (``dominoproof/diff.py``) and ``show``'s marks of what a file
changes from its base: exactly the differing parameters with their rule IDs; the
properties whose verdict differs, each with the round that separates them, judged
differently under the two variants; statistics side by side with 95% intervals; JSON;
exit codes 0 (answered) and 2 (bad input, one located line)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from helpers import variant

from dominoproof.cli import main
from dominoproof.diff import (
    DiffReport,
    gather_figures,
    judge_under,
    pair,
    parameter_changes,
    render,
)
from dominoproof.diff import diff as run_diff
from dominoproof.jsonout import dumps, schema
from dominoproof.model import MoveKind, Status, initial_state
from dominoproof.model.engine import Trace
from dominoproof.model.errors import IllegalMoveError
from dominoproof.model.fast import engine_for
from dominoproof.proofs.analysis.simulate import Distribution, wilson
from dominoproof.proofs.properties import CATALOGUE

#: a house variant: the block game with two rule changes (R4.4 and R5.5)
HOUSE = """\
name = "house"
base = "block-2p-d6"

[block]
confirmations = "all-others"

[scoring]
tie = "split"
"""


@pytest.fixture
def house(tmp_path: Path) -> Path:
    p = tmp_path / "house.toml"
    p.write_text(HOUSE)
    return p


# ---------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------


def test_a_file_is_compared_with_its_base_on_exactly_the_parameters_it_changes(
        house: Path) -> None:
    a, b = pair(str(house), None)
    assert a.name == "block-2p-d6" and b.name == "house" and b.base == "block-2p-d6"
    got = {c.key: (c.rule, c.a, c.b) for c in parameter_changes(a, b)}
    assert got == {"block.confirmations": ("R4.4", "all", "all-others"),
                   "scoring.tie": ("R5.5", "none", "split")}


def test_a_parameter_that_follows_from_another_is_listed_when_it_changes(
        tmp_path: Path) -> None:
    """Three players in the block game: set_aside ("rest") follows the deal, 28 - 3 x 7."""
    p = tmp_path / "three.toml"
    p.write_text('base = "block-2p-d6"\n[deal]\nplayers = 3\n')
    a, b = pair(str(p), None)
    got = {c.key: (c.a, c.b) for c in parameter_changes(a, b)}
    assert got == {"deal.players": (2, 3), "deal.set_aside": (14, 28 - 3 * 7)}


def test_no_parameter_differs_between_a_variant_and_itself() -> None:
    v = variant("draw-2p-d6")
    assert parameter_changes(v, v) == []


# ---------------------------------------------------------------------------
# Verdicts and the round that separates them
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def house_diff(tmp_path_factory: pytest.TempPathFactory) -> tuple[DiffReport, dict[str, object],
                                                                  str]:
    """One diff of the house file against its base: the report, its JSON document (as the
    CLI writes it) and its text."""
    folder = tmp_path_factory.mktemp("diff")
    p = folder / "house.toml"
    p.write_text(HOUSE)
    a, b = pair(str(p), None)
    report = run_diff(a, b, rounds=2000, workers=2)
    doc = json.loads(dumps("diff", report.to_json()))
    jsonschema.Draft202012Validator(schema("diff")).validate(doc)
    return report, doc, render(report)


def test_the_properties_whose_verdict_differs_are_listed(
        house_diff: tuple[DiffReport, dict[str, object], str]) -> None:
    report, doc, text = house_diff
    differing = {d.property for d in report.differing}
    # all-others confirmations (R4.4) break exactly the two block properties it touches
    assert differing == {"blocked-sound", "procedure"}
    assert doc["differing"] == sorted(differing, key=[d.property for d in report.properties]
                                      .index)
    for d in report.differing:
        assert set(d.a.values()) <= {"HOLDS", "PROVED"}
        assert "VIOLATED" in d.b.values()
    assert f"Verdicts that differ: 2 of {len(CATALOGUE)}" in text  # the whole catalogue
    assert "Parameters that differ: 2 of" in text


@pytest.mark.parametrize("pid", ["procedure", "blocked-sound"])
def test_the_separating_round_is_judged_differently_under_the_two_variants(
        house_diff: tuple[DiffReport, dict[str, object], str], pid: str) -> None:
    report = house_diff[0]
    d = next(x for x in report.differing if x.property == pid)
    sep = d.separating
    assert sep is not None and sep.violated_in == "B" and sep.part == "z3"
    assert sep.judged["B"].replays and sep.judged["B"].breaks is not None
    assert not (sep.judged["A"].replays and sep.judged["A"].breaks is not None)
    # ... checked here with the engine alone: under B the round replays to an established
    # block with a confirmation short (R4.4); under A its establishment is illegal
    moves = sep.trace.moves
    for v, legal in ((report.b, True), (report.a, False)):
        rules = engine_for(v)
        s = initial_state(v, sep.trace.deal, rules=rules)
        try:
            for m in moves:
                before = s
                s = rules.apply(s, m)
        except IllegalMoveError as e:
            assert not legal and m.kind is MoveKind.ESTABLISH and e.rule == "R4.4"
            continue
        assert legal and s.status is Status.BLOCKED
        assert before.confirmed == v.players - 1
    assert "R4.4" in sep.judged["A"].text and "not a round of block-2p-d6" in \
        sep.judged["A"].text


def test_the_text_shows_each_separating_round_and_its_judgements(
        house_diff: tuple[DiffReport, dict[str, object], str]) -> None:
    _, doc, text = house_diff
    assert text.count("the round that separates them") == 2
    assert "under A: not a round of block-2p-d6" in text
    assert "under B: a round of house, and procedure breaks at move" in text
    assert "| Counterexample to procedure" in text
    props = {p["property"]: p for p in doc["properties"]}  # type: ignore[index, union-attr]
    sep = props["procedure"]["separating"]
    assert sep["violated_in"] == "b" and sep["judged"]["a"]["replays"] is False
    assert Trace.from_json(sep["trace"]).moves  # the JSON round replays too


def test_statistics_side_by_side_with_intervals(
        house_diff: tuple[DiffReport, dict[str, object], str]) -> None:
    _, doc, text = house_diff
    stats = doc["statistics"]
    assert stats["rounds"] == 2000  # type: ignore[index]
    ids = [f["id"] for f in stats["figures"]]  # type: ignore[index]
    assert ids == ["block", "residual", "tie", "length"]
    for f in stats["figures"]:  # type: ignore[index]
        for side in ("a", "b"):
            lo, hi = f[side]["ci95"]
            assert lo <= f[side]["value"] <= hi
    assert "block probability" in text and "95% intervals" in text
    # one confirmation fewer: more rounds block (the intervals are far apart)
    block = stats["figures"][0]  # type: ignore[index]
    assert block["b"]["value"] > block["a"]["value"] and block["apart"]


@pytest.mark.slow
def test_a_difference_without_a_violation_is_explained() -> None:
    """parity applies only where every tile is in play: N/A in the 2-player block game,
    PROVED in the 4-player one; no round separates them, the note says why."""
    a, b = variant("block-2p-d6"), variant("block-4p-d6")
    r = run_diff(a, b, stats=False, workers=2)
    d = next(x for x in r.differing if x.property == "parity")
    assert d.separating is None and "applies to B only" in d.note
    assert d.a["z3"] == "N/A" and d.b["z3"] == "PROVED"


def test_judging_a_round_of_another_size_says_it_is_no_deal_of_it() -> None:
    from dominoproof.model import random_round

    t = random_round(variant("block-2p-d6"), 3)
    j = judge_under(t, variant("block-4p-d6"), "blocked-sound")
    assert not j.replays and "not a deal of block-4p-d6" in j.text
    same = judge_under(t, variant("block-2p-d6"), "blocked-sound")
    assert same.replays and same.breaks is None


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


def test_gather_figures_gives_each_figure_an_interval_around_it() -> None:
    figs = {f.id: f for f in gather_figures(variant("block-2p-d6"), rounds=500, seed=3)}
    assert set(figs) == {"block", "residual", "tie", "length"}
    block = figs["block"]
    assert block.value is not None
    k = round(block.value * 500)
    assert (block.low, block.high) == wilson(k, 500)
    for f in figs.values():
        assert f.low is not None and f.high is not None and f.value is not None
        assert f.low <= f.value <= f.high
    assert gather_figures(variant("block-2p-d6"), rounds=500, seed=3) == list(figs.values())


def test_the_interval_of_a_mean_is_the_normal_one() -> None:
    d = Distribution.of({2: 3, 4: 1})  # 2, 2, 2, 4: mean 2.5, sample variance 1
    assert d.mean == 2.5 and d.stdev == pytest.approx(1.0)
    lo, hi = d.mean_ci() or (0.0, 0.0)
    half = 1.959963984540054 * 1.0 / math.sqrt(4)
    assert (lo, hi) == pytest.approx((2.5 - half, 2.5 + half))
    assert Distribution.of({7: 1}).mean_ci() is None  # one value: no interval


# ---------------------------------------------------------------------------
# Bad input, JSON
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["diff", "nope", "block-2p-d6"], "nope"),
    (["diff", "block-2p-d6"], "no base"),
    (["diff", "block-2p-d6", "-o", "block.confirmations=some"], "block.confirmations"),
    (["diff", "block-2p-d6", "tiny", "--rounds", "0"], "--rounds"),
    (["diff", "block-2p-d6", "tiny", "--no-stats", "-n", "50"], "--rounds"),
    (["diff", "block-2p-d6", "tiny", "--no-stats", "--seed", "3"], "--seed"),
])
def test_bad_input_is_one_located_line_and_exit_2(args: list[str], words: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.output
    assert "checked" not in r.stderr  # no work before the error


def test_an_exhausted_budget_is_not_the_same_verdict_but_exit_3(tmp_path: Path) -> None:
    out = tmp_path / "diff.json"
    r = CliRunner().invoke(main, ["diff", "tiny", "-o", "scoring.tie=split", "--no-stats",
                                  "--rlimit", "1", "--json", str(out)])
    assert r.exit_code == 3, r.output
    doc = json.loads(out.read_text())
    assert doc["exit_code"] == 3 and "termination" in doc["unsettled"]
    # a property is unsettled exactly when a check of A or B said UNKNOWN or ERROR
    for p in doc["properties"]:
        verdicts = {*p["a"].values(), *p["b"].values()}
        assert (p["property"] in doc["unsettled"]) == bool(verdicts & {"UNKNOWN", "ERROR"})
    assert "every property has the same verdict" not in r.stdout
    assert "Not compared:" in r.stdout


def test_no_stats_and_the_same_rules_answer_with_exit_0() -> None:
    r = CliRunner().invoke(main, ["diff", "block", "block-2p-d6", "--no-stats", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["statistics"] is None and doc["parameters"] == [] and doc["differing"] == []
    assert "same rules" in " ".join(doc["notes"])


# ---------------------------------------------------------------------------
# show marks what a file changes from its base
# ---------------------------------------------------------------------------


def test_show_marks_what_a_file_changes_from_its_base(house: Path) -> None:
    r = CliRunner().invoke(main, ["show", str(house)])
    assert r.exit_code == 0, r.output
    marked = {line.split()[1] for line in r.output.splitlines() if line.startswith("*")}
    assert marked == {"confirmations", "tie"}
    assert "* differs from the base preset block-2p-d6 (2 of" in r.output
    assert "base: block-2p-d6" in r.output
    doc = json.loads(CliRunner().invoke(main, ["show", str(house), "--json"]).stdout)
    assert doc["base"]["changed"] == ["block.confirmations", "scoring.tie"]
    assert {p["key"] for p in doc["parameters"] if p["changed"]} == set(doc["base"]["changed"])


def test_show_of_a_preset_marks_nothing() -> None:
    r = CliRunner().invoke(main, ["show", "block-2p-d6"])
    assert not any(line.startswith("*") for line in r.output.splitlines())
    assert "differs from" not in r.output
    doc = json.loads(CliRunner().invoke(main, ["show", "block-2p-d6", "--json"]).stdout)
    assert doc["base"] is None and not any(p["changed"] for p in doc["parameters"])


def test_show_with_overrides_marks_them() -> None:
    r = CliRunner().invoke(main, ["show", "draw-2p-d6", "-o", "draw.rule=one"])
    marked = {line.split()[1] for line in r.output.splitlines() if line.startswith("*")}
    assert marked == {"rule"}
    assert "differs from draw-2p-d6 without the -o overrides" in r.output
