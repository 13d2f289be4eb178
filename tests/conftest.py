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

settings.register_profile(
    "dev", max_examples=60, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci", max_examples=300, derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--tier", choices=("fast", "slow", "all"), default="fast",
                     help="which tier of tests to run (default: fast; CI: all)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tier = config.getoption("--tier")
    if tier == "all":
        return
    want_slow = tier == "slow"
    skip = pytest.mark.skip(reason=f"not in the {tier} tier (use --tier=all)")
    for item in items:
        if ("slow" in item.keywords) != want_slow:
            item.add_marker(skip)
