"""When the kernel's reading of the rules disagrees with the specification's, ``verify``
names the two readings, the state and the move, and exits 1: an internal disagreement,
never a crashed check nor a verdict about the variant (issue 29, section 6).

The slip is planted in the kernel alone: the table the kernel search reads says the
draw game does not draw (``tables.DRAW``), as a slip in the kernel's reading of the
variant's draw rule would. The specification, the engine and the Z3 relation are
untouched.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.proofs import kernel

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

if kernel.available():
    from dominoproof.proofs.kernel import tables as kt
    from dominoproof.proofs.search import compiled


def no_draw(v: Any) -> Any:
    """The kernel's table of ``v``, but read as if the game did not draw."""
    tb = kt.tables_for(v)
    k = tb.k.copy()
    k[kt.DRAW] = kt.DRAW_NONE
    return dataclasses.replace(tb, k=k)


def test_a_slip_in_the_kernel_is_an_internal_disagreement_kernel_vs_specification(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "tables_for", no_draw)
    res = CliRunner().invoke(main, ["verify", "tiny-2p-d3", "--no-faults", "--crosscheck",
                                    "0", "--workers", "1"])
    assert res.exit_code == 1, res.output
    text = " ".join(res.output.split())  # the detail is wrapped to the width
    line = text[text.index("internal disagreement"):]
    assert "kernel vs specification on [" in line
    assert "Move." in line  # the move they disagree on
    assert "crashed" not in res.output
    assert "VIOLATED" not in res.output  # no verdict about the variant


def test_explore_names_the_disagreement_in_one_line_and_exits_1(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "tables_for", no_draw)
    res = CliRunner().invoke(main, ["explore", "tiny-2p-d3"])
    assert res.exit_code == 1, res.output
    assert "dominoproof: internal disagreement: kernel vs specification on [" in res.output
    assert "Traceback" not in res.output
