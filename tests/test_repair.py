"""``dominoproof repair`` (:mod:`dominoproof.repair`): the candidates come from the
parameters' metadata, with what is skipped and why; the list is ranked by the number of
changes, then by how little the statistics move; a preset that holds says so at once; a
budget that runs out lists the candidates judged and not judged (exit 3); a file with a
deliberately broken rule is repaired by changing it back; a local Dask cluster gives the
same list as the local processes; the JSON document validates against its schema; bad
input is one line and exit 2.

The broken rule: ``tiny-2p-d3`` whose block is established by one player's call
(``block.confirmations = 1``, as Double Draw's published rules read): the other player
may still hold a matching tile, so ``blocked-sound`` (and with it ``procedure``,
``parity``) is VIOLATED on verify's small configuration.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import jsonschema
import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.jsonout import schema
from dominoproof.model.params import TieRule
from dominoproof.model.variant import Variant, find_variant, load_variant_data
from dominoproof.proofs.analysis.figures import Estimate
from dominoproof.proofs.runner import Runner, open_runner
from dominoproof.repair import Candidate, Change, RepairReport, neighbours, repair
from dominoproof.repair_job import Judged
from dominoproof.verify import OK, Row

BROKEN = """\
base = "tiny-2p-d3"
name = "tiny-one-call"
description = "tiny, but one player's call establishes the block"

[block]
confirmations = 1
"""
FAILING = ["blocked-sound", "procedure", "parity"]


@pytest.fixture(scope="module")
def broken_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    p = tmp_path_factory.mktemp("repair") / "one-call.toml"
    p.write_text(BROKEN)
    return str(p)


def broken() -> Variant:
    return load_variant_data({"base": "tiny-2p-d3", "name": "tiny-one-call",
                              "block": {"confirmations": 1}}, source="<test>")


# ---------------------------------------------------------------------------
# The candidates, from params.py's metadata (no search)
# ---------------------------------------------------------------------------


def test_every_allowed_value_is_a_candidate_or_skipped_with_why() -> None:
    v = broken()
    cands, skipped = neighbours(v, FAILING)
    tried = {(c.changes[0].key, c.changes[0].after) for c in cands}
    tried |= {(s.key, s.value) for s in skipped}
    # every enumeration's other values, a bool flipped, every count of confirmations
    for tie in TieRule:
        if tie is not v.scoring.tie:
            assert ("scoring.tie", tie.value) in tried
    assert ("block.boneyard_must_be_empty", False) in tried
    assert {("block.confirmations", x) for x in ("all", "all-others", 2)} <= tried
    assert ("block.confirmations", 1) not in tried  # the value it has
    # a small range at every value, a large one skipped, saying why
    assert {("layout.double_takes", k) for k in (1, 2, 3)} <= tried
    why = {s.key: s.why for s in skipped if s.value is None}
    assert "more than" in why["fouls.penalty"]
    assert "free-form" in why["lead.tile"]
    assert "a size" in why["set.max"] and "a size" in why["deal.players"]
    # the layout's topology makes the game: another one is not a repair of its rules
    assert "another game" in why["layout.kind"]
    assert not any(c.changes[0].key == "layout.kind" for c in cands)
    # scoring cannot repair a property read off states and moves... but parity is terminal
    assert "scoring.tie" not in why
    only_states = neighbours(v, ["blocked-sound", "procedure"])[1]
    assert "R5" in {s.key: s.why for s in only_states}["scoring.tie"]
    # without effect in this variant: the validator's own warning names the key
    noeffect = {s.key: s.why for s in skipped if s.value is not None}
    assert noeffect["layout.double_again"].startswith("no effect")
    # the change that repairs it is a candidate, with its rule ID
    fix = next(c for c in cands if c.changes[0] == Change("block.confirmations", "R4.4",
                                                             1, "all"))
    assert fix.variant.block.confirmations.rule == "all"
    # nothing judged twice: every candidate a different configuration of the search
    assert len({c.variant for c in cands}) == len(cands)


def test_a_change_the_validator_rejects_is_skipped_saying_so() -> None:
    v = find_variant("tiny-2p-d3")
    _, skipped = neighbours(v, ["blocked-sound"])
    rejected = [s for s in skipped if s.why.startswith("rejected by the validator")]
    assert rejected, "tiny's lead rule 'tile' leaves some change the validator refuses"
    for s in rejected:
        with pytest.raises(Exception):  # noqa: B017 - the validator's own error
            v.with_overrides({s.key: s.value})


# ---------------------------------------------------------------------------
# The ranking
# ---------------------------------------------------------------------------


def _cand(v: Variant, keys: list[str], fails: list[str], block: float,
          residual: float) -> Candidate:
    changes = tuple(Change(k, "R0", 0, 1) for k in keys)
    rows = [Row(v.name, "search", p, "VIOLATED" if p in fails else "HOLDS", OK)
            for p in FAILING]
    c = Candidate(changes, v.with_overrides({"scoring.round_to": 1 + len(keys) + int(block * 50)}))
    c.failing, c.rows, c.confirmed = fails, rows, True
    c.figures = {"block": Estimate(block, block - .01, block + .01),
                 "residual": Estimate(residual, residual - 1, residual + 1)}
    return c


def test_ranked_by_changes_then_by_how_little_the_statistics_move() -> None:
    v = broken()
    r = RepairReport(v, FAILING, [], figures={"block": Estimate(0.3), "residual":
                                              Estimate(10.0)})
    far1 = _cand(v, ["a"], [], 0.5, 10.0)     # one change, block moves 0.2
    near1 = _cand(v, ["b"], [], 0.31, 11.0)   # one change, moves 0.01 + 0.1
    two = _cand(v, ["c", "d"], [], 0.3, 10.0)  # two changes, no move at all
    still = _cand(v, ["e"], ["parity"], 0.3, 10.0)  # one property still fails
    r.candidates = [far1, two, still, near1]
    assert [c.changes[0].key for c in r.best] == ["b", "a", "c"]
    assert r.repairs == r.best and r.exit_code == 0
    assert near1.move(r.figures) == pytest.approx(0.01 + 0.1)
    # no repair: the fewest failing are listed, and the search's end is exit 1
    r.candidates = [still]
    assert r.best == [still] and r.repairs == [] and r.exit_code == 1
    r.stopped = "the budget of 1 candidates ran out"
    assert r.exit_code == 3  # never "no repair exists"


def test_each_failing_property_has_its_nearest_repairs_and_all_covered_is_exit_0() -> None:
    v = broken()
    r = RepairReport(v, FAILING, [], figures={"block": Estimate(0.3), "residual":
                                              Estimate(10.0)})
    sound = _cand(v, ["a"], ["parity"], 0.3, 10.0)  # repairs blocked-sound and procedure
    parity2 = _cand(v, ["b", "c"], ["procedure"], 0.3, 10.0)  # repairs parity (two changes)
    parity1 = _cand(v, ["d"], ["blocked-sound", "procedure"], 0.5, 10.0)  # parity, nearer
    crashed = _cand(v, ["e"], [], 0.3, 10.0)  # a job that died judged nothing
    crashed.rows = [Row(v.name, "search", "(job)", "ERROR", OK)]
    r.candidates = [sound, parity2, parity1, crashed]
    assert r.repairs == []  # no one candidate repairs all three
    per = r.per_property
    assert per["blocked-sound"] == [sound, parity2] and per["procedure"] == [sound]
    assert per["parity"] == [parity1, parity2]  # fewest changes first
    assert r.exit_code == 0  # every failing property has a repair of its own
    r.candidates = [sound]
    assert r.per_property["parity"] == [] and r.exit_code == 1


def test_a_property_that_no_longer_applies_is_not_repaired() -> None:
    """A change under which a violated property is N/A on every row (its subject gone:
    no markers, no doubles to cover) has not repaired it: it still counts as failing."""
    v = broken()
    r = RepairReport(v, FAILING, [], figures={"block": Estimate(0.3), "residual":
                                              Estimate(10.0)})
    gone = _cand(v, ["a"], [], 0.3, 10.0)
    gone.rows = [dataclasses.replace(row, verdict="N/A") if row.property == "parity"
                 else row for row in gone.rows]
    gone.repairing = tuple(FAILING)
    sound = _cand(v, ["b", "c"], [], 0.3, 10.0)
    r.candidates = [gone, sound]
    assert gone.fails() == ["parity"]
    assert r.best == [sound] and r.repairs == [sound]
    assert r.per_property["parity"] == [sound]
    assert gone in r.per_property["blocked-sound"]  # what it does repair, it repairs
    # a property the variant did not violate may well not apply under a candidate
    other = _cand(v, ["d"], [], 0.3, 10.0)
    other.rows.append(Row(v.name, "search", "markers", "N/A", OK))
    other.repairing = tuple(FAILING)
    assert other.fails() == []


def test_only_candidates_that_repair_something_are_confirmed() -> None:
    from dominoproof.repair import _confirm

    v = broken()
    r = RepairReport(v, FAILING, [], figures={"block": Estimate(0.3), "residual":
                                              Estimate(10.0)})
    helps = _cand(v, ["a"], ["parity"], 0.3, 10.0)
    nothing = _cand(v, ["b"], list(FAILING), 0.3, 10.0)
    helps.confirmed = nothing.confirmed = False
    judged: list[str] = []

    class Jobs:
        def run(self, stage: str, subjects: list[tuple[Candidate, Variant]], *a: object,
                **k: object) -> list[Judged]:
            judged.extend(c.changes[0].key for c, _ in subjects)
            return [Judged([]) for _ in subjects]

    _confirm(Jobs(), r, [helps, nothing])  # type: ignore[arg-type]
    assert judged == ["a"] and helps.confirmed and not nothing.confirmed


def test_pairs_are_of_changes_that_each_repair_something_least_overlap_first() -> None:
    from dominoproof.repair import Skipped, pairs

    v = broken()
    singles, _ = neighbours(v, FAILING)
    a, b, c, d = singles[:4]
    a.failing, b.failing = ["parity"], ["blocked-sound", "procedure"]  # complementary
    c.failing, d.failing = ["blocked-sound", "parity"], list(FAILING)  # d repairs nothing
    skipped: list[Skipped] = []
    got = pairs(v, [a, b, c, d], skipped, FAILING)
    keys = [{x.key for x in p.changes} for p in got]
    assert all(d.changes[0].key not in k for k in keys)  # d repairs nothing on its own
    if a.changes[0].key != b.changes[0].key:
        assert keys[0] == {a.changes[0].key, b.changes[0].key}  # nothing failing in both
    assert any("--all-pairs" in s.why and s.key.endswith(" pairs") for s in skipped)
    every = pairs(v, [a, b, c, d], [], FAILING, every=True)
    assert len(every) > len(got)


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def test_a_preset_that_holds_says_so_at_once() -> None:
    seen: list[str] = []
    r = repair(find_variant("tiny-2p-d3"), workers=1,
               progress=lambda stage, c, rows: seen.append(stage))
    assert r.failing == [] and r.exit_code == 0 and r.candidates == []
    assert seen == ["variant"]  # the variant alone was judged: no candidate
    out = CliRunner().invoke(main, ["repair", "tiny", "-q"])
    assert out.exit_code == 0, out.output
    assert "every property holds" in out.stdout and "nothing to repair" in out.stdout


def test_a_budget_that_runs_out_lists_judged_and_not_judged(broken_file: str) -> None:
    out = CliRunner().invoke(main, ["repair", broken_file, "--max-candidates", "2",
                                    "--rounds", "200", "--workers", "2", "--json"])
    assert out.exit_code == 3, out.output
    doc = json.loads(out.stdout)
    jsonschema.Draft202012Validator(schema("repair")).validate(doc)
    assert doc["failing"] == FAILING and doc["exit_code"] == 3
    assert doc["judged"] == 2 and doc["stopped"].startswith("the budget of 2")
    judged = [c["name"] for c in doc["candidates"] if c["judged"]]
    assert len(judged) == 2 and doc["not_judged"]
    assert set(judged).isdisjoint(doc["not_judged"])
    assert len(judged) + len(doc["not_judged"]) == len(doc["candidates"])
    assert not doc["pairs_searched"]
    # the text says the same, and never that no repair exists
    text = CliRunner().invoke(main, ["repair", broken_file, "--max-candidates", "1",
                                     "--rounds", "200", "-q"])
    assert text.exit_code == 3
    assert "not a proof that no repair exists" in text.stdout
    assert "not judged: " in text.stdout


@pytest.mark.parametrize("args, what", [
    (["--max-candidates", "0"], "--max-candidates"),
    (["--max-seconds", "0"], "--max-seconds"),
    (["--rounds", "0"], "--rounds"),
    (["--cluster", "remote"], "--cluster"),
])
def test_bad_input_is_one_line_and_exit_2(broken_file: str, args: list[str],
                                          what: str) -> None:
    out = CliRunner().invoke(main, ["repair", broken_file, *args])
    assert out.exit_code == 2, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and what in lines[0] and "Traceback" not in out.output


def test_an_unknown_variant_is_bad_input() -> None:
    out = CliRunner().invoke(main, ["repair", "no-such-preset"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1


def test_the_api_refuses_a_zero_budget() -> None:
    from dominoproof.model.errors import DominoproofError
    with pytest.raises(DominoproofError, match="max_candidates"):
        repair(broken(), max_candidates=0)


def test_the_schema_is_listed_and_rejects_another_version() -> None:
    out = CliRunner().invoke(main, ["schema"])
    assert "repair" in out.stdout.split()
    v = jsonschema.Draft202012Validator(schema("repair"))
    assert not v.is_valid({"format": "dominoproof.repair", "version": 2})


# ---------------------------------------------------------------------------
# Heavy: the broken rule found back; the same list on a Dask cluster
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_broken_rule_is_changed_back(broken_file: str) -> None:
    # the changes of a rule a failing property checks come first, the parameters with
    # the fewest values first: confirmations (R4.4, 3 values) is among the first six
    out = CliRunner().invoke(main, ["repair", broken_file, "--rounds", "500", "--json",
                                    "--max-candidates", "6"])
    assert out.exit_code == 3, out.output  # the other candidates are not judged
    doc = json.loads(out.stdout)
    jsonschema.Draft202012Validator(schema("repair")).validate(doc)
    assert doc["repairs"] and not doc["pairs_searched"] and doc["judged"] == 6
    fixes = [[(c["key"], c["after"]) for c in b["changes"]] for b in doc["best"]]
    assert [("block.confirmations", "all")] in fixes
    for b in doc["best"]:
        assert b["confirmed"] and not b["failing"]
        assert {v["verdict"] for v in b["verdicts"]} <= {"HOLDS", "N/A"}
        assert set(b["statistics"]) == {"block", "residual"}
    ranks = [(len(b["changes"]), b["move"]) for b in doc["best"]]
    assert ranks == sorted(ranks)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Runner]:
    pytest.importorskip("distributed", reason="the cluster extra is not installed: "
                        "pip install 'dominoproof[cluster]'")
    with open_runner(cluster="local:2") as runner:
        yield runner


def _listed(r: RepairReport) -> list[tuple[str, list[str] | None, list[tuple[str, str]]]]:
    return [(c.name, c.failing, [(row.property, row.verdict) for row in c.rows])
            for c in r.candidates] + [("best", [c.name for c in r.best], [])]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_list(cluster: Runner) -> None:
    v = broken()
    here = repair(v, max_candidates=4, rounds=300, workers=2)
    there = repair(v, max_candidates=4, rounds=300, runner=cluster)
    assert _listed(there) == _listed(here)
    assert [c.figures for c in there.best] == [c.figures for c in here.best]
    assert there.exit_code == here.exit_code == 3


def test_tie_rule_and_sizes_are_read_from_the_metadata() -> None:
    # a parameter added to params.py is found without a line of repair's: here, the
    # enumerations it reads are the very classes of params.py
    cands, skipped = neighbours(broken(), FAILING)
    ties = {c.changes[0].after for c in cands if c.changes[0].key == "scoring.tie"}
    ties |= {s.value for s in skipped if s.key == "scoring.tie"}
    assert ties == {t.value for t in TieRule} - {"none"}
