"""Test configuration: Hypothesis profiles with fixed seeds, and the slow tier.

Profiles (``HYPOTHESIS_PROFILE`` selects one): ``dev`` (default, few examples),
``ci`` (more examples, derandomized: the same examples every run).
Z3 queries fix their own seed and timeout (``dominoproof.proofs.solver``).
"""

from __future__ import annotations

import os

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
