"""Progress when output is piped (``dominoproof/progress.py``): plain lines on standard
error, one per step or phase, a line while a step runs long, nothing for a quick command,
no control character, within 100 columns; ``-q`` silences them."""

from __future__ import annotations

import re
import time

import pytest

from dominoproof import progress as progress_mod
from dominoproof.progress import Bar, LineBar, progress


def lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line]


def test_piped_progress_is_a_line_per_step_and_phase(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress_mod, "PIPED_AFTER", 0.0)
    monkeypatch.setattr(progress_mod, "PIPED_EVERY", 3600.0)
    with progress("verify", total=3) as bar:
        assert isinstance(bar, LineBar)  # pytest's standard error is not a terminal
        bar.advance("checked tiny-2p-d3")
        bar.advance("checked block-2p-d6 " + "x" * 200)
        bar.update("statistics of A")
        bar.update("statistics of A")  # said once
        bar.update(completed=3)  # a count alone: not within PIPED_EVERY of the last line
    err = capsys.readouterr().err
    got = lines(err)
    assert got[0] == "dominoproof verify [0 s]: checked tiny-2p-d3 (1 of 3)"
    assert got[1].startswith("dominoproof verify [0 s]: checked block-2p-d6 xxx")
    assert got[2] == "dominoproof verify [0 s]: statistics of A (2 of 3)"
    assert len(got) == 3
    assert all(len(line) <= 100 for line in got)
    assert not re.search("[\r\x1b]", err)


def test_a_quick_command_says_nothing_and_quiet_says_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    with progress("simulate", total=2) as bar:  # within PIPED_AFTER: nothing yet
        bar.advance("one")
        bar.update("two")
    with progress("verify", quiet=True) as bar:
        assert type(bar) is Bar
        bar.advance("checked")
    assert capsys.readouterr().err == ""


def test_a_long_step_is_said_to_be_still_running(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress_mod, "PIPED_AFTER", 0.0)
    monkeypatch.setattr(progress_mod, "PIPED_EVERY", 0.05)
    with progress("diff", total=2) as bar:
        bar.update("verifying A and B with the checks of verify")
        deadline = time.monotonic() + 5
        while "still working" not in capsys.readouterr().err and time.monotonic() < deadline:
            time.sleep(0.05)
            bar.update(completed=0)
        err = capsys.readouterr().err
    seen = err + capsys.readouterr().err
    assert time.monotonic() < deadline, "no line while the step ran long"
    assert not re.search("[\r\x1b]", seen)
