"""Budgets of a Z3 check (``proofs/budgets.py``, ``proofs/z3/solver.py``): verdicts that do
not depend on the machine's load.

Every check is bounded by Z3's resource limit (``rlimit``), a deterministic count of
work; the wall clock is only a safety net. An UNKNOWN says which budget ran out, the CLI
exits 3 either way, a budget of zero is rejected (to Z3 it means "no limit"), and the
default limit is far above what the checks of a preset need. The load test (slow) runs
the same verification on a quiet and on a fully loaded machine and compares verdicts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner
from helpers import variant

from dominoproof.cli import main
from dominoproof.proofs.budgets import DEFAULT_RLIMIT, RESOURCE_LIMIT, WALL_CLOCK
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.z3.queries import Prover
from dominoproof.proofs.z3.solver import Optimizer, Solver


def pigeonhole(holes: int) -> list[z3.BoolRef]:
    """``holes + 1`` pigeons in ``holes`` holes, one per hole: unsatisfiable, and hard for
    resolution (exponential), so a small budget cannot decide it."""
    p = [[z3.Bool(f"p{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    out = [z3.Or(row) for row in p]
    for j in range(holes):
        for a in range(holes + 1):
            for b in range(a + 1, holes + 1):
                out.append(z3.Or(z3.Not(p[a][j]), z3.Not(p[b][j])))
    return out


def test_a_check_records_its_work_and_the_same_check_costs_the_same() -> None:
    counts = []
    for _ in range(2):
        s = Solver()
        s.add(*pigeonhole(6))
        c = s.check()
        assert c.unsat and c.rlimit > 0 and c.stats["rlimit"] == c.rlimit
        counts.append(c.rlimit)
    assert counts[0] == counts[1]  # deterministic: the same formula, the same work


def test_the_resource_limit_stops_a_check_and_is_named() -> None:
    s = Solver(rlimit=1_000)
    s.add(*pigeonhole(9))
    c = s.check()
    assert c.unknown and c.hit == RESOURCE_LIMIT
    assert c.reason == f"{RESOURCE_LIMIT} of 1,000 reached"
    assert s.ledger.unknowns == 1


def test_the_wall_clock_safety_net_is_named_apart() -> None:
    s = Solver(timeout_ms=1)
    s.add(*pigeonhole(11))
    c = s.check()
    assert c.unknown and c.hit == WALL_CLOCK
    assert c.reason == f"{WALL_CLOCK} of 1 ms expired"


def test_the_optimiser_has_the_same_budgets() -> None:
    o = Optimizer(rlimit=1_000)
    o.add(*pigeonhole(9))
    o.minimize(z3.Int("x"))
    c = o.check()
    assert c.unknown and c.hit == RESOURCE_LIMIT


@pytest.mark.parametrize("kw", [{"rlimit": 0}, {"timeout_ms": 0}, {"rlimit": -5},
                                {"timeout_ms": -1}])
def test_a_budget_of_zero_or_less_is_refused_never_no_limit(kw: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="must be a positive integer"):
        Solver(**kw)
    with pytest.raises(ValueError, match="must be a positive integer"):
        Optimizer(**kw)


def test_a_prover_out_of_resources_is_unknown_and_says_so() -> None:
    pr = Prover(variant("draw-2p-d6"), rlimit=1)
    for pid in ("blocked-sound", "procedure", "termination", "blocked-complete", "award"):
        r = pr.prove(pid)
        assert r.verdict is Verdict.UNKNOWN, pid
        assert RESOURCE_LIMIT in r.detail and "timed out" not in r.detail, (pid, r.detail)


def test_the_default_limit_is_far_above_what_a_preset_needs() -> None:
    """The calibration, checked on the presets the fast tier can afford: the heaviest
    check is a small fraction of the limit (scripts/calibrate-rlimit measures them all)."""
    for name in ("tiny-2p-d3", "block-2p-d6"):
        pr = Prover(variant(name))
        results = pr.prove_all()
        assert all(r.verdict is not Verdict.UNKNOWN for r in results), name
        heaviest = pr.ledger.stats["max rlimit"]
        assert 0 < heaviest * 10 <= DEFAULT_RLIMIT, (name, heaviest)


@pytest.mark.slow
def test_the_default_limit_is_far_above_the_heaviest_preset() -> None:
    pr = Prover(variant("draw-10p-d18"))
    results = pr.prove_all()
    assert all(r.verdict.ok or r.verdict is Verdict.NOT_APPLICABLE for r in results)
    heaviest = pr.ledger.stats["max rlimit"]
    assert 0 < heaviest * 10 <= DEFAULT_RLIMIT, heaviest


def test_prove_exits_3_when_the_resource_limit_runs_out() -> None:
    r = CliRunner().invoke(main, ["prove", "draw-2p-d6", "-p", "procedure", "--rlimit", "1"])
    assert r.exit_code == 3, r.output
    assert "resource limit of 1 reached" in r.output
    assert "PROVED" not in r.output.split("strengthening")[0]


def test_prove_exits_3_when_a_sanity_check_hits_the_safety_net() -> None:
    """Unanswered sanity checks are UNKNOWN (3), not a failure (1)."""
    r = CliRunner().invoke(main, ["prove", "draw-2p-d6", "-p", "procedure", "--timeout-ms",
                                  "1", "--json"])
    assert r.exit_code == 3, r.output
    out = json.loads(r.output)
    assert any(c["answer"] == "unknown" for c in out["sanity"])
    assert all(c["ok"] or c["answer"] == "unknown" for c in out["sanity"])
    assert any(WALL_CLOCK in c["reason"] for c in out["sanity"])
    assert out["rlimit"] == DEFAULT_RLIMIT


@pytest.mark.parametrize("command", [
    ["prove", "tiny"], ["witness", "tiny", "tie"], ["verify", "tiny", "--no-faults"]])
@pytest.mark.parametrize("option, value", [
    ("--rlimit", "0"), ("--rlimit", "-3"), ("--timeout-ms", "0"), ("--timeout-ms", "-1"),
    ("--rlimit", "nan")])
def test_a_zero_negative_or_nan_budget_is_bad_input(command: list[str], option: str,
                                                    value: str) -> None:
    r = CliRunner().invoke(main, [*command, option, value])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and option in lines[0] and "Traceback" not in r.output


# -- the same verdicts on a loaded machine -------------------------------------------------


@contextmanager
def every_core_busy() -> Iterator[int]:
    """Two busy processes per core for the duration of the block."""
    n = 2 * (os.cpu_count() or 1)
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield n
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def _verdicts(tmp: Path, name: str) -> list[tuple[str, str, str, str]]:
    out = tmp / f"{name}.json"
    # a draw game searched on every deal in every draw order and proved by Z3 with
    # Houdini's lemmas: every budget verify has (states, rlimit, the wall-clock net), on
    # the quickest such preset (tiles set aside too)
    cmd = [sys.executable, "-m", "dominoproof.cli", "verify", "draw-leave2-2p-d6", "--no-faults",
           "--workers", "1", "--json", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=tmp)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = json.loads(out.read_text())["rows"]
    return [(r["subject"], r["part"], r["property"], r["verdict"]) for r in rows]


@pytest.mark.slow
def test_verify_gives_the_same_verdicts_on_a_loaded_machine(tmp_path: Path) -> None:
    quiet = _verdicts(tmp_path, "quiet")
    with every_core_busy():
        loaded = _verdicts(tmp_path, "loaded")
    assert loaded == quiet
    assert {v for *_, v in quiet} <= {"HOLDS", "PROVED", "N/A"}
