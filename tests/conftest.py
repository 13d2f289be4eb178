"""Test configuration: tiers, and Hypothesis profiles with fixed seeds.

Tiers: ``pytest`` runs the fast tier; ``pytest --tier=slow`` the long searches and
proofs (marked ``@pytest.mark.slow``); ``pytest --tier=all`` both (what CI runs).

Hypothesis profiles (``HYPOTHESIS_PROFILE`` selects one): ``dev`` (default, fewer
examples) and ``ci`` (more examples); both derandomized, so every run draws the
same examples. Z3 queries fix their own seed and timeout.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.internal.conjecture import providers as hypothesis_providers

from dominoproof import progress

settings.register_profile(
    "dev", max_examples=60, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci", max_examples=300, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# Derandomized examples must not depend on what the process imported before the test.
# Hypothesis (since 6.131) also draws constants it reads from every local module in
# sys.modules, so a test drew other examples once another test had imported more of the
# package: a state machine that must reach a rare block passed alone and failed after
# test_conventions.py in the same session. The pool of local constants stays empty, so a
# test draws the same examples in any order and any selection of tests.
# tests/test_hypothesis_examples.py fails if this stops taking effect.
LOCAL_CONSTANTS = hypothesis_providers.Constants()
hypothesis_providers._get_local_constants = lambda: LOCAL_CONSTANTS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--tier", choices=("fast", "slow", "all"), default="fast",
                     help="which tier of tests to run (default: fast; CI: all)")


#: The longest tests, longest first (measured 2026-12-02 with ``--durations`` on two
#: workers: the whole verification about 340 s, the conformance suite's every-deal
#: draw-one trains 130 s, the README's slow blocks 100 s, the other every-deal checks and
#: the heaviest proofs 20-60 s each). Run first, so that on ``-n auto`` no long test
#: starts last and leaves the other workers idle; the rest of the slow tier follows, then
#: the fast tier.
LONGEST_FIRST = (
    "tests/test_verify.py::test_every_preset_and_fault_is_as_expected",
    "tests/test_conformance_layouts.py::test_engine_matches_reference_on_every_deal_of_each_layout",
    "tests/test_docs.py::test_page_runs_with_its_slow_blocks",
    "tests/test_conformance.py::test_engine_matches_reference_on_every_deal",
    "tests/test_kernel.py::test_kernel_successors_equal_the_rules_on_every_deal",
    "tests/test_outcome_readings.py::test_no_memo_is_carried_from_one_variant_to_the_next",
    "tests/test_queries.py::test_parity_is_proved_for_every_set_size_up_to_double_18",
    "tests/test_graphcheck.py::test_parity_holds_on_double_6_and_double_5_three_players",
    "tests/test_report_page.py::test_the_report_command_end_to_end",
    "tests/test_stats.py::test_a_free_draw_order_and_the_deals_own_order_agree_on_tiny",
    "tests/test_kernel.py::test_kernel_search_is_the_python_search_on_every_deal",
)


def _rank(item: pytest.Item) -> tuple[int, int]:
    """Where ``item`` runs: the longest first, then the rest of the slow tier, then the
    fast tier (a stable sort keeps each group's own order)."""
    for i, prefix in enumerate(LONGEST_FIRST):
        if item.nodeid.startswith(prefix + "[") or item.nodeid == prefix:
            return 0, i
    return (1 if "slow" in item.keywords else 2), 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tier = config.getoption("--tier")
    if tier != "fast":
        items.sort(key=_rank)
    if tier == "all":
        return
    want_slow = tier == "slow"
    skip = pytest.mark.skip(reason=f"not in the {tier} tier (use --tier=all)")
    for item in items:
        if ("slow" in item.keywords) != want_slow:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_heartbeat_by_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command run in a test is piped: after ``PIPED_AFTER`` seconds it says it is still
    working, so on a loaded machine a test that expects an empty standard error would
    fail by the clock. The heartbeat waits for ever here; tests/test_progress_lines.py
    sets its own threshold to test it."""
    monkeypatch.setattr(progress, "PIPED_AFTER", float("inf"))
