"""Parts on a cluster (``dominoproof.proofs.runner``): a local Dask cluster of two worker
processes gives what the local process pool gives -- the same figures, verdicts and
shortest counterexample for a search by deal, the same statistics for a simulation and
the sampled figures -- and a worker killed in the middle of a run loses nothing and
counts nothing twice. Each comparison is shown able to fail on a runner that loses or
repeats a part. Without the cluster extra, the options say which extra to install.

The cluster is started once for the module (about 4 s); the tests that need it skip,
saying so, where Dask distributed is not installed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model import find_variant
from dominoproof.model.spec import Init
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.simulate import batches, simulate
from dominoproof.proofs.analysis.stats import sampled_figures
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import Result
from dominoproof.proofs.runner import LocalPool, Runner, cluster_spec, open_runner
from dominoproof.proofs.search.by_deal import explore_by_deal
from dominoproof.proofs.search.result import Figures, SearchResult
from dominoproof.proofs.search.verification import check_properties, verify

T = TypeVar("T")
R = TypeVar("R")

#: what the merged figures of a search must share, wherever it ran
FIGURES = ("deals", "states", "expanded", "transitions", "terminals", "sequences", "shortest",
           "longest", "depth", "acyclic", "complete", "parts", "states_in_parts")


def small() -> Variant:
    """4,200 deals, 64,050 states: a search of a second or two."""
    return find_variant("block-2p-d6").with_overrides(
        {"set.max": 3, "deal.hand_size": 3}, source="<test>")


def same_figures(a: Figures, b: Figures) -> list[str]:
    return [n for n in FIGURES if getattr(a, n) != getattr(b, n)]


def verdicts(results: Sequence[Result]) -> list[tuple[str, str, str, str | None]]:
    """What a run must reproduce: each property's verdict, its detail and its
    counterexample (as a trace file would hold it)."""
    return [(r.property, r.verdict.value, r.detail,
             r.trace.dumps() if r.trace is not None else None) for r in results]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Runner]:
    pytest.importorskip("distributed", reason="the cluster extra is not installed: "
                        "pip install 'dominoproof[cluster]'")
    with open_runner(cluster="local:2") as runner:
        assert runner.workers == 2
        yield runner


# ---------------------------------------------------------------------------
# The same answers as the local pool
# ---------------------------------------------------------------------------


def test_search_by_deal_on_a_cluster_gives_the_pools_figures(cluster: Runner) -> None:
    v = small()
    pool, _ = explore_by_deal(v, Init.every(), workers=2, parts=3)
    seen: list[tuple[int, int]] = []
    there, _ = explore_by_deal(v, Init.every(), runner=cluster, parts=3,
                               on_part=lambda k, n: seen.append((k, n)))
    assert same_figures(pool, there) == []
    assert there.states == 64_050 and there.workers == 2
    assert seen == [(1, 3), (2, 3), (3, 3)]  # the progress display's count of parts done


def test_a_faults_verdicts_and_shortest_counterexample_are_the_pools(cluster: Runner) -> None:
    fault = FAULTS_BY_ID["confirm-while-playable"]
    v = fault.variant()
    pool = verify(v, fault.init(), engine=fault.engine, scorer=fault.scorer, workers=2,
                  parts=3, inapplicable=True)
    there = verify(v, fault.init(), engine=fault.engine, scorer=fault.scorer,
                   runner=cluster, parts=3, inapplicable=True)
    assert same_figures(pool.figures, there.figures) == []
    assert verdicts(pool.results) == verdicts(there.results)
    caught = {r.property for r in there.results if r.verdict.value == "VIOLATED"}
    assert set(fault.catches) <= caught  # the fault is caught, with its counterexample
    assert all(r.trace is not None for r in there.results if r.property in fault.catches)


def test_a_simulation_and_the_sampled_figures_are_the_same_anywhere(cluster: Runner) -> None:
    v = find_variant("tiny-2p-d3")
    here = simulate(v, 2_300, 5, top=50, batch=500)
    assert len(batches(2_300, 5, 500)) == 5
    assert simulate(v, 2_300, 5, top=50, batch=500, runner=cluster) == here
    assert simulate(v, 2_300, 5, top=50, batch=500, runner=LocalPool(2)) == here
    assert here != simulate(v, 2_300, 5, top=50, batch=2_300)  # other batches, other rounds
    one = sampled_figures(v, "greedy", 1_200, 2, batch=400)
    assert sampled_figures(v, "greedy", 1_200, 2, batch=400, runner=cluster) == one


def test_up_to_a_batch_a_simulation_is_the_one_seeded_stream() -> None:
    # the first batch's seed is the seed: a simulation of up to BATCH rounds reads as it
    # always did, and a longer one begins with it
    v = find_variant("tiny-2p-d3")
    whole = simulate(v, 800, 9, top=50)
    assert simulate(v, 800, 9, top=50, batch=800) == whole
    first = simulate(v, 1_000, 9, top=50, batch=800)
    assert first != whole and first.rounds == 1_000


# ---------------------------------------------------------------------------
# A worker killed in the middle of a run
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DiesOnce:
    """A part's check that kills its own worker process (SIGKILL, no goodbye) the first
    time it runs on part ``part``, after the part was explored and before its buckets
    are written; the marker file, holding the killed process's id, says it happened."""

    marker: str
    part: int
    inner: Callable[[SearchResult], Any]

    def __call__(self, r: SearchResult) -> tuple[int, Any]:
        if r.init.part[0] == self.part and not os.path.exists(self.marker):
            Path(self.marker).write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return os.getpid(), self.inner(r)


def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(cluster: Runner,
                                                               tmp_path: Path) -> None:
    fault = FAULTS_BY_ID["confirm-while-playable"]
    v, init = fault.variant(), fault.init()
    check = partial(check_properties, inapplicable=True)
    args: dict[str, Any] = {"engine": fault.engine, "scorer": fault.scorer, "parts": 3}
    pool, expected = explore_by_deal(v, init, workers=2, check=check, **args)
    marker = tmp_path / "killed"
    there, got = explore_by_deal(v, init, runner=cluster, check=DiesOnce(str(marker), 1, check),
                                 **args)
    assert marker.exists(), "the part never killed its worker"
    killed = int(marker.read_text())
    assert got[1] is not None and got[1][0] != killed  # part 1 ran again, elsewhere
    assert same_figures(pool, there) == []
    assert [verdicts(e) for e in expected if e is not None] == \
        [verdicts(g[1]) for g in got if g is not None]


# ---------------------------------------------------------------------------
# The comparisons can fail: a runner that loses a part, or counts one twice
# ---------------------------------------------------------------------------


class Repeats(LocalPool):
    """A broken runner: the result of part 0 stands in for part 1's (part 1 is lost and
    part 0 counted twice), in the first map (the parts), not in the merge."""

    def __init__(self) -> None:
        super().__init__(1)
        self.calls = 0

    def map(self, job: Callable[[T], R], items: Sequence[T], *,
            done: Callable[[int, R], None] | None = None) -> list[R]:
        out = super().map(job, items, done=done)
        self.calls += 1
        if self.calls == 1 and len(out) > 1:
            out[1] = out[0]
        return out


def test_a_lost_or_repeated_part_is_seen_by_the_comparisons() -> None:
    fault = FAULTS_BY_ID["confirm-while-playable"]
    right = verify(fault.variant(), fault.init(), engine=fault.engine, scorer=fault.scorer,
                   workers=1, parts=3, inapplicable=True)
    wrong = verify(fault.variant(), fault.init(), engine=fault.engine, scorer=fault.scorer,
                   runner=Repeats(), parts=3, inapplicable=True)
    assert {"states", "transitions", "states_in_parts"} <= set(
        same_figures(right.figures, wrong.figures))
    assert verdicts(right.results) != verdicts(wrong.results)


# ---------------------------------------------------------------------------
# The command line: bad options, the missing extra, one run end to end
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "tiny", "--cluster", "local:0"], "--cluster local:0: allowed is local:N"),
    (["simulate", "tiny", "--cluster", "remote"], "--cluster remote: allowed is local:N"),
    (["stats", "tiny", "--sampled", "--cluster", "local:2", "--scheduler", "tcp://h:1"],
     "exclude each other"),
    (["stats", "tiny", "--exact", "--cluster", "local:2"],
     "--cluster: applies to --sampled only"),
    (["explore", "tiny", "--cluster", "local:2"], "--cluster: applies to --all-deals only"),
    (["explore", "tiny", "--parts", "3"], "--parts: applies to --all-deals only"),
    (["explore", "tiny", "--all-deals", "--scratch", "/no/such/folder"],
     "--scratch /no/such/folder: no such folder"),
])
def test_bad_cluster_options_are_one_line_and_exit_2(args: list[str], says: str) -> None:
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], r.output


@pytest.mark.parametrize("args", [
    ["simulate", "tiny", "-n", "10", "--cluster", "local:2"],
    ["stats", "tiny", "--sampled", "-n", "10", "--scheduler", "tcp://127.0.0.1:8786"],
    ["explore", "tiny", "--all-deals", "--cluster", "local:2"],
    ["verify", "tiny", "--cluster", "local:2"],
])
def test_without_the_extra_the_options_name_it(args: list[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1, r.output
    assert "needs the cluster extra" in lines[0]
    assert "pip install 'dominoproof[cluster]'" in lines[0]
    with pytest.raises(Exception, match="cluster extra"):
        cluster_spec(scheduler="tcp://127.0.0.1:8786")


@pytest.mark.slow
def test_explore_all_deals_on_a_local_cluster_answers_as_the_pool(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    base = ["explore", "block-2p-d6", "--set-max", "3", "--hand-size", "2", "--all-deals",
            "--fault", "confirm-while-playable", "--json", "-"]
    pool = CliRunner().invoke(main, [*base, "--workers", "2"])
    there = CliRunner().invoke(main, [*base, "--cluster", "local:2", "--scratch",
                                      str(tmp_path)])
    assert pool.exit_code == there.exit_code == 1, there.output  # the fault is caught
    a, b = json.loads(pool.output), json.loads(there.output)
    assert [(r["property"], r["verdict"], r["detail"], r.get("trace")) for r in a["results"]] \
        == [(r["property"], r["verdict"], r["detail"], r.get("trace")) for r in b["results"]]
    assert {k: a["figures"][k] for k in FIGURES} == {k: b["figures"][k] for k in FIGURES}
    assert "local Dask cluster" in b["feasibility"]
    assert list(tmp_path.iterdir()) == []  # the parts' files are gone with the run
