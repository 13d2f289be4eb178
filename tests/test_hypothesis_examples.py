"""The examples Hypothesis draws do not depend on what the process imported before
(tests/conftest.py keeps its pool of constants read from local modules empty)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from hypothesis.internal.conjecture import providers


def test_importing_a_module_adds_no_constants_to_draw_from(tmp_path: Path) -> None:
    # a fresh local module full of distinctive constants, imported mid-session
    (tmp_path / "constants_here.py").write_text(
        "A = 918_273_645\nB = 'a rare string of ours'\nC = 0.0918273645\n")
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module("constants_here")
        pool = providers._get_local_constants()
        assert 918_273_645 not in pool.integers
        assert "a rare string of ours" not in pool.strings
        assert len(pool.integers) == len(pool.strings) == len(pool.floats) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("constants_here", None)
