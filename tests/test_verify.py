"""``dominoproof verify``: the main job and its report, exit codes, JSON and JUnit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model.variant import find_variant, load_variant
from dominoproof.report import junit_xml
from dominoproof.verify import CAUGHT, Report, Row, verify
from dominoproof.verify_job import verify_fault


def test_a_sound_variant_passes_every_part(tmp_path: Path) -> None:
    out, junit = tmp_path / "v.json", tmp_path / "v.xml"
    res = CliRunner().invoke(main, ["verify", "tiny", "--no-faults", "--crosscheck", "10",
                                    "--json", str(out), "--junit", str(junit), "-v"])
    assert res.exit_code == 0, res.output
    assert "checked tiny-2p-d3 (" in res.stderr  # -v: a line per variant, even piped
    data = json.loads(out.read_text())
    assert data["ok"] and data["failures"] == 0
    parts = {r["part"] for r in data["rows"]}
    assert parts == {"search", "z3", "all sizes", "cross-check"}
    # every property of the catalogue, by each method that states it
    assert {r["property"] for r in data["rows"] if r["part"] == "z3"} >= {
        "blocked-sound", "procedure", "termination", "parity"}
    suites = ET.parse(junit).getroot()
    assert suites.tag == "testsuites" and suites.get("failures") == "0"
    # one suite for the variant, a case per check as the text counts them; its time is
    # the job's measured wall time, and the cases' times are each check's own: they add up
    # to no more than the suite (the search, one pass judging every property, shares its
    # time among them, never repeats it per property)
    (suite,) = suites
    assert suite.get("name") == "tiny-2p-d3"
    measured = data["subject_seconds"]["tiny-2p-d3"]
    assert float(suite.get("time")) == pytest.approx(measured, abs=1e-3)
    assert 0 < measured <= data["seconds"] + 0.01
    cases = list(suite)
    times = [float(c.get("time")) for c in cases]
    assert int(suite.get("tests")) == len(cases) == data["checks"]
    assert sum(times) <= measured + 0.05, (sum(times), measured)
    # a check that only reads what an earlier one computed (a lemma Houdini kept) takes
    # well under a millisecond; every method's work shows
    for part in ("z3", "all sizes", "cross-check"):
        assert sum(t for c, t in zip(cases, times, strict=True)
                   if c.get("classname") == f"tiny-2p-d3.{part}") > 0, part
    search = [c for c in cases if c.get("classname") == "tiny-2p-d3.search"]
    assert len(search) == len({r["property"] for r in data["rows"] if r["part"] == "search"})
    assert 0 < sum(float(c.get("time")) for c in search) < measured
    assert all(c.find("skipped") is not None for c in cases
               if "N/A" in (c.findtext("system-out") or "").split(": ")[1:2])


def test_junit_has_one_suite_per_subject_timed_as_measured() -> None:
    def rows(subject: str) -> list[Row]:
        return [Row(subject, "search", p, "HOLDS", ("HOLDS",), seconds=2.0)
                for p in ("blocked-sound", "procedure")] + [
            Row(subject, "z3", "blocked-sound", "PROVED", ("PROVED",), seconds=0.5),
            Row(subject, "z3", "foul-penalty", "N/A", ("N/A",), seconds=0.0)]

    report = Report(rows("a") + rows("b"), seconds=4.0, subjects=["a", "b"],
                    timings={"a": 3.1, "b": 2.9})
    xml = ET.fromstring(junit_xml(report))
    assert [(s.get("name"), s.get("time"), s.get("tests"), s.get("skipped"))
            for s in xml] == [("a", "3.100", "4", "1"), ("b", "2.900", "4", "1")]
    assert xml.get("time") == "4.000" and xml.get("tests") == str(len(report.rows))
    assert [c.get("time") for c in xml[0]] == ["1.000", "1.000", "0.500", "0.000"]


def test_a_broken_rule_is_a_failure_with_exit_1() -> None:
    # on double-3 itself (its own small analogue): the exit code is the point, not the size
    res = CliRunner().invoke(main, ["verify", "block-2p-d6", "-o",
                                    "block.confirmations=all-others", "-o", "set.max=3",
                                    "-o", "deal.hand_size=3", "-o", "deal.set_aside=4",
                                    "--no-faults", "--crosscheck", "0", "-q"])
    assert res.exit_code == 1
    assert "blocked-sound: VIOLATED" in res.output and "FAILED" in res.output
    assert "property" not in res.stdout.splitlines()[0]  # -q: no tables, the failures only


def test_timeouts_are_unknown_never_proofs_with_exit_3() -> None:
    report = verify([find_variant("tiny")], faults=False, timeout_ms=1, crosscheck=0,
                    workers=1)
    assert report.failures and all(r.verdict == "UNKNOWN" for r in report.failures)
    assert report.exit_code == 3
    # a 1 ms budget proves nothing for every N: the sanity checks cannot even run
    assert all(r.verdict != "PROVED" for r in report.rows if r.part == "all sizes")


def test_a_fault_must_be_caught_by_every_method() -> None:
    rows = verify_fault("draw-loses-tile")
    assert {r.part for r in rows} == {"search", "z3", "all sizes"}
    assert all(r.verdict in CAUGHT and r.ok for r in rows)


def test_an_uncaught_fault_fails_the_job() -> None:
    # what the report does if a check cannot fail: a fault's property comes back proved
    row = Row("fault x", "z3", "conservation", "PROVED", CAUGHT)
    report = Report([row], subjects=["fault x"])
    assert not row.ok and report.exit_code == 1
    xml = ET.fromstring(junit_xml(report))
    assert xml.get("failures") == "1"


@pytest.mark.slow
def test_every_preset_and_fault_is_as_expected() -> None:
    from dominoproof.model.variant import presets

    report = verify(presets().values())
    assert report.exit_code == 0, [(r.subject, r.part, r.property, r.verdict)
                                   for r in report.failures]


@pytest.mark.parametrize(("answer", "verdict", "code"), [("unsat", "ERROR", 1),
                                                        ("unknown", "UNKNOWN", 3)])
def test_a_premise_that_fails_its_sanity_check_leaves_no_proof_standing(
        monkeypatch: pytest.MonkeyPatch, answer: str, verdict: str, code: int) -> None:
    """verify runs the sanity checks of the premises every Z3 proof assumes (the prove
    command's and the pytest plugin's): with Init unsatisfiable every proof would pass
    trivially, so no PROVED verdict stands, and the job fails (or, where the check was
    not answered, is UNKNOWN: exit 3)."""
    from dominoproof.proofs.z3.queries import Prover
    from dominoproof.proofs.z3.session import SanityCheck

    real = Prover.sanity

    def broken(self: Prover) -> list[SanityCheck]:
        first, *rest = real(self)
        assert first.name.startswith("Init is satisfiable") and first.ok
        return [SanityCheck(first.name, False, answer, 0.0, "sat",
                            "rlimit" if answer == "unknown" else ""), *rest]

    sound = verify([find_variant("tiny")], faults=False, crosscheck=0)
    assert sound.exit_code == 0 and not any(r.property == "(sanity)" for r in sound.rows)
    monkeypatch.setattr(Prover, "sanity", broken)
    report = verify([find_variant("tiny")], faults=False, crosscheck=0)
    assert report.exit_code == code
    z3 = [r for r in report.rows if r.part == "z3"]
    (sanity,) = [r for r in z3 if r.property == "(sanity)"]
    assert sanity.verdict == verdict and "Init is satisfiable" in sanity.detail
    assert not any(r.verdict == "PROVED" for r in z3)
    demoted = [r for r in z3 if r.verdict == verdict and r.property != "(sanity)"]
    assert len(demoted) == sum(r.verdict == "PROVED" for r in sound.rows if r.part == "z3")
    assert all(r.detail.startswith("PROVED, but the premises are not shown sound: Init")
               for r in demoted)
    # the search and the other parts are the same as in the sound run
    assert [(r.part, r.property, r.verdict) for r in report.rows if r.part != "z3"] == \
        [(r.part, r.property, r.verdict) for r in sound.rows if r.part != "z3"]


# ---------------------------------------------------------------------------
# Findings: a preset's published rules that violate a property, expected and reported
# ---------------------------------------------------------------------------


def test_a_presets_findings_are_expected_reported_and_would_fail_if_they_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Chicken Foot (dominoproof/expected.toml): the search's VIOLATED rows are as
    expected, say why and carry their round; the same property holding would fail the
    job; a variant with other rules expects it to hold. Its per-instance proofs' findings
    are recorded too (NOT INDUCTIVE where the search's round is beyond the bounded
    search). A preset whose per-instance proofs are deferred (a finding "*" of part z3,
    made here so that the test stays fast) has them UNKNOWN (N/A where the property does
    not apply), saying why."""
    from dominoproof import expected as expected_mod
    from dominoproof.expected import Finding, findings_of
    from dominoproof.proofs.properties import BY_ID
    from dominoproof.verify import OK
    from dominoproof.verify_job import Expectation, expect

    v = find_variant("chickenfoot-4p-d9")
    assert {p: f.verdict for (part, p), f in findings_of(v).items() if part == "z3"} == {
        "blocked-sound": "NOT INDUCTIVE", "readings-agree": "NOT INDUCTIVE"}
    deferred = Finding(v.name, "z3", "*", "UNKNOWN",
                       "too long for the job; run `dominoproof prove chickenfoot-4p-d9`")
    recorded = expected_mod.findings()
    monkeypatch.setattr(expected_mod, "findings", lambda: (*recorded, deferred))
    rows = verify([v], faults=False, crosscheck=0).rows
    search = [r for r in rows if r.part == "search"]
    row = next(r for r in search if r.property == "readings-agree")
    assert row.verdict == "VIOLATED" and row.ok
    assert "finding, as expected" in row.detail and row.round
    assert not Row(v.name, "search", "readings-agree", "HOLDS", row.expected).ok
    assert all(r.ok for r in rows)
    z3 = [r for r in rows if r.part == "z3"]
    assert len(z3) == len(BY_ID)
    for r in z3:
        if BY_ID[r.property].applies_to(v):
            assert r.verdict == "UNKNOWN" and "prove chickenfoot-4p-d9" in r.detail
        else:
            assert r.verdict == "N/A"
    other = v.with_overrides({"deal.hand_size": 6}, source="<test>")
    assert findings_of(other) == {}
    assert expect(other, "search", "readings-agree", OK) == Expectation(OK)


def test_a_file_built_on_a_preset_inherits_its_findings(tmp_path: Path) -> None:
    """A designer's file on top of Double Draw (through a second file) that changes a rule
    of its own: the preset's findings are expected of it as well as the default, and a row
    that shows one says it is inherited from the base; a row that holds says nothing.
    The preset itself keeps its findings as its own; a file on a preset without findings
    expects the default."""
    from dominoproof.verify import OK
    from dominoproof.verify_job import Expectation, _noted, expect

    (tmp_path / "mid.toml").write_text('base = "double-draw-2p-d6"\nname = "mid"\n')
    (tmp_path / "house.toml").write_text(
        'base = "mid.toml"\nname = "house"\n[scoring]\nround_to = 5\n')
    v = load_variant(tmp_path / "house.toml")
    e = expect(v, "search", "blocked-sound", OK)
    assert e.verdicts == (*OK, "VIOLATED") and e.when == ("VIOLATED",)
    assert e.why.startswith("inherited from the base double-draw-2p-d6")
    shown = _noted(Row(v.name, "search", "blocked-sound", "VIOLATED", e.verdicts), e)
    assert shown.ok and "inherited from the base" in shown.detail
    holds = _noted(Row(v.name, "search", "blocked-sound", "HOLDS", e.verdicts), e)
    assert holds.ok and holds.detail == ""
    assert expect(v, "search", "termination", OK) == Expectation(OK)
    own = expect(find_variant("double-draw-2p-d6"), "search", "blocked-sound", OK)
    assert own.verdicts == ("VIOLATED",) and own.why.startswith("finding, as expected")
    (tmp_path / "plain.toml").write_text('base = "block-2p-d6"\n[scoring]\nround_to = 5\n')
    assert expect(load_variant(tmp_path / "plain.toml"), "search", "blocked-sound",
                  OK) == Expectation(OK)


def test_a_rule_finding_is_expected_wherever_the_rule_is_on() -> None:
    """R4.7: a called block promises no empty boneyard, on any preset: with [block] call =
    "dead-end" blocked-sound may be VIOLATED, the row saying why and naming the rule (its
    why first, before a finding the base's rules add); without it, the default."""
    from dominoproof.expected import rule_findings
    from dominoproof.verify import OK
    from dominoproof.verify_job import Expectation, _noted, expect

    v = find_variant("block-2p-d6").with_overrides({"block.call": "dead-end"})
    e = expect(v, "search", "blocked-sound", OK)
    assert e.verdicts == (*OK, "VIOLATED") and e.when == ("VIOLATED",)
    assert e.why.startswith('finding of the rule block.call = "dead-end", as expected')
    shown = _noted(Row(v.name, "search", "blocked-sound", "VIOLATED", e.verdicts), e)
    assert shown.ok and "block.call" in shown.finding
    assert expect(v, "z3", "blocked-sound", OK).verdicts == (*OK, "VIOLATED",
                                                              "NOT INDUCTIVE")
    assert expect(v, "search", "called-block", OK) == Expectation(OK)  # it must hold
    assert rule_findings(find_variant("block-2p-d6")) == {}
    dd = find_variant("double-draw-2p-d6").with_overrides({"block.call": "dead-end"})
    both = expect(dd, "search", "blocked-sound", OK)  # the base's finding, and the rule's
    assert both.verdicts == (*OK, "VIOLATED") and both.why.startswith("finding of the rule")


def test_a_layout_the_z3_relation_does_not_state_is_named(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every preset's layout is stated by the Z3 relation; a feature it did not state
    would make the z3 and cross-check columns N/A, saying which."""
    import dominoproof.expected as ex
    from dominoproof.model.variant import presets
    from dominoproof.verify_job import _not_stated_rows

    assert all(ex.z3_unstated(v) is None for v in presets().values())
    monkeypatch.setattr(ex, "Z3_STATES", ex.Z3_STATES - {"markers"})
    v = find_variant("mextrain-4p-d12")
    why = ex.z3_unstated(v)
    assert why is not None and "markers" in why
    rows = _not_stated_rows(v, why, True)
    assert {r.part for r in rows} == {"z3", "cross-check"}
    assert all(r.verdict == "N/A" and r.ok and "not run" in r.detail for r in rows)


def test_a_finding_with_a_typo_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import dominoproof.expected as ex

    class Text:
        def read_text(self, encoding: str) -> str:
            return ('[[finding]]\nvariant = "bergen-2p-d6"\npart = "search"\n'
                    'property = "readings-agre"\nverdict = "VIOLATED"\nwhy = "x"\n')

    class Files:
        def joinpath(self, name: str) -> Text:
            return Text()

    monkeypatch.setattr(ex.resources, "files", lambda pkg: Files())
    ex.findings.cache_clear()
    try:
        with pytest.raises(ValueError, match="no property 'readings-agre'"):
            ex.findings()
    finally:
        ex.findings.cache_clear()


def test_a_second_configuration_of_the_plan_is_searched_and_judged_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan's ``also`` (on the kernel, a 2-player draw game's double-3 configuration
    beside its double-4 one): its states are counted, its configuration and coverage
    named, and a property it violates is violated in the row, though the first
    configuration holds it. Here the second is a draw-one game's, where a round blocks
    with a tile left to draw (blocked-sound VIOLATED), beside tiny's, where none does."""
    import dataclasses

    from dominoproof import verify_job as vm
    from dominoproof.proofs.search import plans

    tiny = find_variant("tiny")
    first = plans.search_plan(tiny, kernel=False)
    second = plans.search_plan(find_variant("double-draw-2p-d6"), kernel=False)
    alone, _ = vm._search_rows(tiny)
    monkeypatch.setattr(plans, "search_plan",
                        lambda v, *a, **k: dataclasses.replace(first, also=second))
    both, _ = vm._search_rows(tiny)

    def row(rows: list[Row], prop: str) -> Row:
        return next(r for r in rows if r.property == prop)

    def states(r: Row) -> int:
        return int(r.detail.split(" states in all")[0].replace(",", ""))

    assert row(alone, "blocked-sound").verdict == "HOLDS"
    assert row(both, "blocked-sound").verdict == "VIOLATED"
    assert states(row(both, "conservation")) > states(row(alone, "conservation"))
    held = row(both, "conservation")
    assert second.coverage is not None
    assert held.configuration.endswith(f"; and double-draw-2p-d6/small: {second.description}")
    assert held.method.endswith(f"; and on double-3, 2 players x 3, 4 in the boneyard: "
                                f"{second.coverage.method()}")


def test_the_report_says_which_search_ran() -> None:
    """One line names the search that ran the variants' searches: the compiled kernel,
    the Python path with why, or each for some; the faults' rows do not count."""
    def rows(*searches: tuple[str, str]) -> Report:
        return Report(rows=[Row(s, "search", "termination", "HOLDS", ("HOLDS",), search=how)
                            for s, how in searches]
                      + [Row("fault x", "search", "termination", "VIOLATED", CAUGHT)])

    assert rows(("a", "kernel"), ("b", "kernel")).search_line() == (
        "search: the compiled kernel ran every variant's search")
    off = "python: kernel: off (DOMINOPROOF_KERNEL=0)"
    assert rows(("a", off)).search_line() == (
        "search: the Python path ran every variant's search (kernel: off "
        "(DOMINOPROOF_KERNEL=0))")
    mixed = rows(("a", "kernel"), ("b", "python: kernel: cannot read toes"))
    assert mixed.search_line().startswith("search: the compiled kernel for 1 variant(s), "
                                          "the Python path for 1 (kernel: cannot read toes)")
    assert mixed.to_json()["search"] == mixed.search_line()
    assert Report().search_line() == ""


@pytest.mark.slow
def test_verify_says_the_python_path_ran_where_the_kernel_is_off() -> None:
    r = CliRunner().invoke(main, ["verify", "tiny-2p-d3", "--no-faults"],
                           env={"DOMINOPROOF_KERNEL": "0"})
    assert r.exit_code == 0, r.output
    assert "search: the Python path ran every variant's search (kernel: off" in r.stdout


def test_several_subjects_are_summed_up_first_and_findings_explained() -> None:
    """Of several variants: one line each first (checks, verdicts, findings), a table only
    for a subject with a check not as expected, every finding explained in words with a
    pointer to its round and to the docs, every line within the width."""
    import io

    from dominoproof.options import console
    from dominoproof.report import print_report

    why = "finding, as expected: a call establishes the block while a tile still fits"
    rows = [Row("fine", "search", "termination", "HOLDS", ("HOLDS",)),
            Row("published", "search", "blocked-sound", "VIOLATED", ("VIOLATED",),
                detail=why, round="a round of 11 moves", finding=why),
            Row("published", "z3", "blocked-sound", "NOT INDUCTIVE", ("NOT INDUCTIVE",),
                detail=why, finding=why),
            Row("broken", "search", "procedure", "VIOLATED", ("HOLDS", "PROVED"),
                detail="only 1 of 2 players confirmed " * 8, round="the round")]
    report = Report(rows=rows, subjects=["fine", "published", "broken"])
    out = io.StringIO()
    print_report(report, console(out), summary=True)
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0] == "fine: 1 checks, as expected (1 HOLDS)"
    assert lines[1] == ("published: 2 checks, as expected (1 VIOLATED, 1 NOT INDUCTIVE); "
                        "1 finding(s), below")
    assert lines[2] == "broken: 1 checks, 1 NOT AS EXPECTED (1 VIOLATED)"
    assert text.count("property") == 1  # one table: the broken subject's
    assert "published / blocked-sound: VIOLATED (search), NOT INDUCTIVE (z3)" in text
    assert "    a call establishes the block while a tile still fits" in text
    assert "its round: with -v" in text and '"Reading a' in text
    assert all(len(line) <= 100 for line in lines)
    one = io.StringIO()  # one subject: its table, and the finding with its round
    print_report(Report(rows=rows[1:3], subjects=["published"]), console(one))
    assert "property" in one.getvalue() and "    | a round of 11 moves" in one.getvalue()


def test_a_not_inductive_row_carries_the_search_s_real_round() -> None:
    from dominoproof.verify_job import _with_real_rounds

    rows = [Row("v", "search", "blocked-sound", "VIOLATED", ("VIOLATED",), round="R"),
            Row("v", "z3", "blocked-sound", "NOT INDUCTIVE", ("NOT INDUCTIVE",), cti="C"),
            Row("v", "z3", "procedure", "NOT INDUCTIVE", ("HOLDS",), cti="D")]
    _with_real_rounds(rows)
    assert rows[1].round == "R" and "breaks it for real" in rows[1].detail
    assert rows[2].round == ""  # the search found no round of procedure


_WARMED_JOBS = '''
import os
from dominoproof.verify import Row, OK

LOG = {log!r}


def warm():
    with open(LOG, "a") as f:
        f.write(f"warm {{os.getpid()}}\\n")


def job(name):
    with open(LOG, "a") as f:
        f.write(f"job {{os.getpid()}}\\n")
    return [Row(name, "search", "p", "HOLDS", OK)]


def cold(fn, args):
    return fn == "cold_job"


PARENT = os.getpid()  # imported by the parent first


def cold_warm():
    """warm(), which in a forked process waits (10 s at most) for a cold job to run."""
    import time
    for _ in range(1000):
        if os.getpid() == PARENT or "cold" in open(LOG).read():
            break
        time.sleep(0.01)
    plain_warm()  # noqa: F821 - the module's own warm(), renamed where this one is warm()


def cold_job(name):
    with open(LOG, "a") as f:
        f.write(f"cold {{os.getpid()}}\\n")
    return [Row(name, "search", "p", "HOLDS", OK)]
'''


@pytest.mark.parametrize(("jobs", "workers", "warmed"), [(5, 2, True), (2, 2, False)])
def test_a_job_modules_warm_runs_once_in_the_parent_before_many_jobs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int, workers: int,
        warmed: bool) -> None:
    """run_jobs loads what a job module's warm() loads once, in the parent, where there are
    more jobs than workers to fork (each job inherits it); a few jobs fork without it."""
    import os

    from dominoproof.verify import run_jobs

    log, module = tmp_path / "log", f"warmed_jobs_{jobs}_{workers}"  # a module of its own
    (tmp_path / f"{module}.py").write_text(_WARMED_JOBS.format(log=str(log)))
    monkeypatch.syspath_prepend(str(tmp_path))
    got = run_jobs([(f"s{i}", f"{module}:job", f"s{i}") for i in range(jobs)],
                   workers=workers)
    assert [rows[0].subject for rows, _ in got] == [f"s{i}" for i in range(jobs)]
    lines = log.read_text().splitlines()
    warms = [line for line in lines if line.startswith("warm")]
    assert warms == ([f"warm {os.getpid()}"] if warmed else [])
    assert lines[:len(warms)] == warms  # before any job
    ran = [line for line in lines if line.startswith("job")]
    assert len(ran) == jobs and f"job {os.getpid()}" not in ran  # each job forked


def test_cold_jobs_run_while_warm_compiles_in_a_process_of_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs a module's cold() names need nothing warm() loads: they run beside a forked
    process that runs warm() first (on a first run it compiles and caches); then warm()
    runs in the parent, and the other jobs follow it, never before."""
    import os

    from dominoproof.verify import run_jobs

    log, module = tmp_path / "log", "warmed_jobs_cold"
    (tmp_path / f"{module}.py").write_text(_WARMED_JOBS.format(log=str(log))
                                           + "\nwarm, plain_warm = cold_warm, warm\n")
    log.write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    jobs = [(f"s{i}", f"{module}:job", f"s{i}") for i in range(3)]
    jobs += [(f"c{i}", f"{module}:cold_job", f"c{i}") for i in range(3)]
    got = run_jobs(jobs, workers=2)
    assert [rows[0].subject for rows, _ in got] == [name for name, _, _ in jobs]
    lines = log.read_text().splitlines()
    warms = [k for k, line in enumerate(lines) if line.startswith("warm")]
    assert len(warms) == 2 and lines[warms[0]] != f"warm {os.getpid()}"  # forked first
    assert lines[warms[1]] == f"warm {os.getpid()}"  # then here
    assert sum(line.startswith("cold") for line in lines) == 3
    assert all(k > warms[1] for k, line in enumerate(lines) if line.startswith("job"))
    assert any(line.startswith("cold") for line in lines[:warms[1]])  # beside warm()


def test_verify_s_warm_makes_no_z3_term(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent's warm() loads the kernel's machine code without making a Z3 term: Z3
    numbers a process's terms as they are made and may pick a model by those numbers, so
    a job forked after warm() (most) and one forked before it (a cold job, while warm()
    compiles) see the same Z3, and a counterexample of ``verify`` does not depend on
    which it was, nor on the timing. The count is shown to count: the same search
    judged for R5 too, as a job judges it, makes terms."""
    import z3  # type: ignore[import-untyped]

    from dominoproof import verify_job
    from dominoproof.proofs.budgets import VERIFY_SEARCH_STATES
    from dominoproof.proofs.search import plans
    from dominoproof.proofs.search.statespace import explore
    from dominoproof.proofs.search.verification import check_properties

    made: list[int] = []
    real = z3.AstRef.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(z3.AstRef, "__init__", counting)
    verify_job.warm()
    assert made == []
    variant, init, budget = plans.search_plan(find_variant(verify_job.WARM)).searches()[0]
    check_properties(explore(variant, init, max_states=budget or VERIFY_SEARCH_STATES))
    verify_job._fresh_rule_books()
    assert len(made) > 100


_PARENT_MODULES = """
import json, sys
from click.testing import CliRunner
from dominoproof.cli import main
r = CliRunner().invoke(main, ["verify", "tiny-2p-d3", "-q"])
print(r.exit_code, json.dumps(sorted(m for m in sys.modules if m.startswith("dominoproof"))))
"""


def test_verify_s_parent_loads_at_most_35_of_the_package_s_modules() -> None:
    """The parent only forks jobs and reports: the search, Z3, the renderers and the
    analysis load in the job's process (docs/ARCHITECTURE.md's figure)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _PARENT_MODULES], capture_output=True,
                         text=True, check=True).stdout
    code, _, names = out.partition(" ")
    loaded = json.loads(names)
    assert code == "0" and "dominoproof.verify" in loaded
    assert len(loaded) <= 35, loaded
    assert not any(m.startswith(("dominoproof.proofs.z3", "dominoproof.proofs.search",
                                 "dominoproof.render", "dominoproof.proofs.analysis"))
                   for m in loaded)
