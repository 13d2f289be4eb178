"""The benchmarks: the measuring library on a fake clock, and smoke runs of
``dominoproof bench engine`` with a tiny budget. Nothing here asserts a duration
or a speed: whether a target is met is the benchmark's output, not a test."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from dominoproof import bench
from dominoproof.bench import engine
from dominoproof.cli import main
from dominoproof.proofs import kernel

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ["block-2p-d6", "partnership-4p-d6", "draw-4p-d12", "draw-8p-d12"]
TINY = ["--smoke", "--memory-rounds", "1"]  # and --smoke's 2 x 0.005 s samples


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, ["bench", "engine", *args], catch_exceptions=False)


def run_json(*args: str) -> dict[str, Any]:
    result = invoke(*TINY, "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture
def no_peers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make both peers unimportable, whether or not they are installed."""
    for name in ("pyspiel", "open_spiel", "dominoes"):
        monkeypatch.setitem(sys.modules, name, None)


# ---------------------------------------------------------------------------
# The library, on a fake clock
# ---------------------------------------------------------------------------
class FakeClock:
    """A clock that only moves when a workload says how long it took."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def workload(name: str, clock: FakeClock, cost: float, log: list[str] | None = None,
             steps: int = 3) -> bench.Workload:
    def run(n: int) -> int:
        if log is not None:
            log.append(name)
        clock.now += n * cost
        return n * steps

    return bench.Workload(name, run)


def test_calibrate_picks_a_batch_that_fills_the_budget() -> None:
    clock = FakeClock()
    assert bench.calibrate(workload("w", clock, 1e-4).run, 0.5, clock) == 5000
    assert bench.calibrate(workload("w", clock, 2.0).run, 0.5, clock) == 1


def test_interleave_alternates_the_order_and_reports_medians() -> None:
    clock, log = FakeClock(), list[str]()
    ws = [workload("a", clock, 1e-3, log), workload("b", clock, 4e-3, log, steps=5)]
    series = bench.interleave(ws, 3, 0.1, clock)
    timed = log[-6:]  # after calibration: one batch per workload per repetition
    assert timed == ["a", "b", "b", "a", "a", "b"]
    a, b = series
    assert [len(s.samples) for s in series] == [3, 3]
    assert a.median == pytest.approx(1000) and b.median == pytest.approx(250)
    assert a.spread == pytest.approx(0)
    assert b.steps_per_unit == pytest.approx(5)
    assert bench.paired_ratio(a, b) == pytest.approx(4)
    assert a.to_json()["moves_per_round"] == pytest.approx(3)


def test_paired_ratio_is_the_median_of_per_repetition_ratios() -> None:
    w = bench.Workload("w", lambda n: 0)
    a = bench.Series(w, 1, [bench.Sample(10, 0, 1.0), bench.Sample(10, 0, 2.0),
                            bench.Sample(10, 0, 1.0)])
    b = bench.Series(w, 1, [bench.Sample(1, 0, 1.0), bench.Sample(1, 0, 1.0),
                            bench.Sample(1, 0, 0.5)])
    # per repetition: 10/1, 5/1, 10/2 -> 10, 5, 5
    assert bench.paired_ratio(a, b) == pytest.approx(5)


def test_interleave_rejects_no_repeats() -> None:
    with pytest.raises(ValueError):
        bench.interleave([], 0, 0.1)


KEEP: list[bytes] = []


def test_traced_peak_sees_working_memory_and_what_stays() -> None:
    def transient(n: int) -> int:
        for _ in range(n):
            block = bytes(100_000)
            del block
        return 0

    def leaky(n: int) -> int:
        KEEP.extend(bytes(10_000) for _ in range(n))
        return 0

    m = bench.traced_peak(transient, 4)
    assert m.units == 4 and 100_000 <= m.median_peak <= m.peak < 150_000
    assert m.retained < 10_000
    KEEP.clear()
    m = bench.traced_peak(leaky, 4)
    assert m.retained >= 4 * 10_000  # the four traced units; the untraced warm-up not
    assert m.peak >= 10_000
    KEEP.clear()


def test_table_aligns_columns() -> None:
    text = bench.table([["a", "n"], ["long", "1"], ["b", "100"]], right=[False, True])
    assert text.splitlines() == ["a       n", "----  ---", "long    1", "b     100"]


# ---------------------------------------------------------------------------
# dominoproof bench engine, smoke runs
# ---------------------------------------------------------------------------
def test_bench_group_discovers_the_engine_benchmark() -> None:
    result = CliRunner().invoke(main, ["bench", "--help"])
    assert result.exit_code == 0
    assert "engine" in result.output


def test_engine_smoke_prints_rates_and_ratios_or_says_a_peer_is_missing() -> None:
    result = invoke(*TINY)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "SMOKE RUN" in out
    for preset in PRESETS:
        assert preset in out
    # on the compiled kernel the targets are 100x and 20x; on the Python engine 10x and 2x
    fast = kernel.available()
    assert ("kernel: compiled by numba" in out) == fast
    for peer, module, times in (("open_spiel", "pyspiel", "100x" if fast else "10x"),
                                ("dominoes", "dominoes", "20x" if fast else "2x")):
        line = next(x for x in out.splitlines() if f"/ {peer}:" in x)
        assert f"target >= {times}" in line
        if installed(module):
            assert ("PASS" in line) != ("FAIL" in line)
        else:
            assert "SKIPPED" in line
            assert f"peer {peer} not measured" in out


def test_engine_smoke_json_has_a_figure_for_every_config() -> None:
    random.seed(1234)
    state = random.getstate()
    data = run_json("--repeats", "3")
    assert random.getstate() == state  # the dominoes peer seeds the global random: restored
    assert data["benchmark"] == "engine" and data["settings"]["smoke"] is True
    results = {r["name"]: r for r in data["results"]}
    assert [r["name"] for r in data["results"] if r["side"] == "ours"] == PRESETS
    for r in results.values():
        assert len(r["samples_per_s"]) == 3  # an explicit --repeats wins over --smoke
        assert r["median_per_s"] > 0 and r["moves_per_round"] > 1
        if "compiled kernel" in r["description"]:
            # the kernel's rounds allocate nothing in Python: their arrays are made once
            assert r["memory"]["median_peak_bytes_per_unit"] == 0
        else:
            assert r["memory"]["median_peak_bytes_per_unit"] > 0
    comparisons = {c["ours"]: c for c in data["comparisons"]}
    assert set(comparisons) == {"block-2p-d6", "partnership-4p-d6"}
    for c in comparisons.values():
        if c["peer"] in results:
            assert c["ratio"] > 0 and c["status"] in ("PASS", "FAIL")
            assert c["status"] == ("PASS" if c["ratio"] >= c["target_times"] else "FAIL")
        else:
            assert c["ratio"] is None and c["status"] == "SKIPPED"


@pytest.mark.usefixtures("no_peers")
def test_missing_peers_are_reported_and_skipped() -> None:
    data = run_json("--repeats", "1")
    assert {m["package"] for m in data["missing_peers"]} == {"open-spiel", "dominoes"}
    assert [c["status"] for c in data["comparisons"]] == ["SKIPPED", "SKIPPED"]
    assert [r["name"] for r in data["results"]] == PRESETS
    result = invoke(*TINY, "--repeats", "1", "--check")
    assert result.exit_code == 0  # a missing peer is not a missed target
    assert "peer open_spiel not measured" in result.stdout
    assert "pip install -e '.[bench]'" in result.stdout


@pytest.mark.parametrize("on_kernel", [False, True])
def test_our_workloads_replay_with_the_same_seed(on_kernel: bool) -> None:
    def moves(seed: int) -> int:
        work, first = engine.ours("block-2p-d6", seed, on_kernel and kernel.available())
        assert (first is not None) == (on_kernel and kernel.available())
        return work.run(20)

    assert moves(7) == moves(7)
    assert moves(7) != moves(8)
    # the kernel's rounds are the engine's: the same moves from the same seed
    assert engine.ours("block-2p-d6", 7, True)[0].run(20) == \
        engine.ours("block-2p-d6", 7, False)[0].run(20)


def test_engine_bench_python_flag_runs_the_engine_loop() -> None:
    result = invoke(*TINY, "--python")
    assert result.exit_code == 0, result.output
    assert "kernel: not used (--python)" in result.stdout
    assert "target >= 10x" in result.stdout and "target >= 2x" in result.stdout


def test_check_exits_1_when_a_target_is_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    target = engine.Target("block-2p-d6", "open_spiel", 10.0)
    report = engine.Report({"seconds": 0.1, "repeats": 1, "seed": 0, "memory_rounds": 1,
                            "smoke": False}, [], {}, [], [engine.Comparison(target, 9.9)])
    monkeypatch.setattr(engine, "run_engine_bench", lambda *a, **k: report)
    assert invoke("--check").exit_code == 1
    assert invoke().exit_code == 0
    assert engine.Comparison(target, 10.0).status == "PASS"
    assert engine.Comparison(target, None, "not installed").status == "SKIPPED"


@pytest.mark.parametrize("args", [["--seconds", "0"], ["--repeats", "0"],
                                  ["--memory-rounds", "0"]])
def test_bad_budgets_are_usage_errors(args: list[str]) -> None:
    assert invoke(*args).exit_code == 2


def test_the_bench_script_is_the_cli_command() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), *TINY, "--json", "--seconds",
         "0.001", "--repeats", "1"],
        capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["benchmark"] == "engine"
