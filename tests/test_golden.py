"""Golden transcripts: the exact output of a few commands, kept in ``tests/golden/*.txt``.

The first line of each file is the command that made it (``$ dominoproof play
block-2p-d6 --seed 19``); the rest is its standard output, byte for byte. The
test runs the command again and compares. The rounds were chosen to show
something: a block game with proposals that turn out false (R4.3), a draw game
that empties the boneyard (R3.1), fouls (R4.5), a partnership scored on team
totals (R5.2), a teaching-size round, draw-one passes through ``-o``.

After an intended change of output, rewrite them and read the diff::

    DOMINOPROOF_UPDATE_GOLDEN=1 pytest tests/test_golden.py
    git diff tests/golden

To add one, create ``tests/golden/<name>.txt`` holding only the command line and
run the same. Any change to the engine's random stream, the rules or the
rendering shows up here first.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominoproof.cli import main

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("DOMINOPROOF_UPDATE_GOLDEN") == "1"
FILES = sorted(GOLDEN.glob("*.txt"))


def command_of(path: Path) -> list[str]:
    """The arguments of the command on the file's first line (``$ dominoproof ...``)."""
    first = path.read_text(encoding="utf-8").partition("\n")[0]
    words = shlex.split(first)
    assert words[:2] == ["$", "dominoproof"], f"{path.name}: first line must be the command"
    return words[2:]


def transcript(path: Path) -> str:
    args = command_of(path)
    r = CliRunner().invoke(main, args, catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return f"$ dominoproof {shlex.join(args)}\n{r.stdout}"


def test_there_are_goldens() -> None:
    names = " ".join(p.name for p in FILES)
    for preset in ("block-2p-d6", "draw-2p-d6", "fouls-4p-d6", "partnership-4p-d6",
                   "tiny-2p-d3"):
        assert f"play-{preset}" in names


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path: Path) -> None:
    got = transcript(path)
    if UPDATE:
        path.write_text(got, encoding="utf-8")
        return
    want = path.read_text(encoding="utf-8")
    assert got == want, f"{path.name} differs; DOMINOPROOF_UPDATE_GOLDEN=1 rewrites it"


def test_golden_through_the_installed_command(tmp_path: Path) -> None:
    """The console script writing to a pipe gives the same bytes as the test runner,
    whatever the terminal settings in the environment."""
    exe = shutil.which("dominoproof", path=str(Path(sys.executable).parent)) \
        or shutil.which("dominoproof")
    if exe is None:
        pytest.skip("the dominoproof console script is not installed")
    path = GOLDEN / "play-fouls-4p-d6-seed7.txt"
    env = {**os.environ, "COLUMNS": "37", "TERM": "xterm-256color", "FORCE_COLOR": "1"}
    out = subprocess.run([exe, *command_of(path)], capture_output=True, text=True, check=True,
                         cwd=tmp_path, env=env, encoding="utf-8").stdout
    assert path.read_text(encoding="utf-8").partition("\n")[2] == out


def test_a_changed_transcript_is_caught(tmp_path: Path) -> None:
    # The comparison can fail: the same command with another seed is not the golden.
    path = GOLDEN / "play-tiny-2p-d3-seed41.txt"
    other = tmp_path / "x.txt"
    other.write_text("$ dominoproof play tiny-2p-d3 --seed 42\n", encoding="utf-8")
    assert transcript(other).partition("\n")[2] != path.read_text(
        encoding="utf-8").partition("\n")[2]
