"""CLI conventions (``dominoproof/options.py``, ``dominoproof/progress.py``): output fits
the terminal, -q/-v, and a progress display on a terminal that is silent when piped.

The commands run as a user runs them -- the installed console script in a subprocess --
once with standard output and error piped, once on a pseudo-terminal (``pty``), so
"on a terminal" is a real terminal, not a flag.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominoproof.cli import main

EXE = shutil.which("dominoproof", path=str(Path(sys.executable).parent)) \
    or shutil.which("dominoproof")
pytestmark = pytest.mark.skipif(EXE is None, reason="the dominoproof console script is not "
                                "installed (pip install -e .)")
pty = pytest.importorskip("pty", reason="no pseudo-terminals on this platform")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: what a progress display writes: rich's bar and spinner glyphs, carriage returns and
#: cursor controls
PROGRESS = re.compile("[━╸╺⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏\r]|\x1b\\[")
#: terminal controls: never in piped output
CONTROL = re.compile("[\r\x1b]")
LOGS = Path(__file__).resolve().parent / "data" / "logs"


def run(args: list[str], *, tty_out: bool = False, tty_err: bool = False,
        columns: int | None = None, cwd: Path | None = None) -> tuple[int, str, str]:
    """The console script with ``args``; standard output / error on a pseudo-terminal
    when asked, else piped. ``columns``: COLUMNS in the environment (else unset)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    masters: dict[str, int] = {}
    ends: dict[str, int] = {}
    for name, wanted in (("out", tty_out), ("err", tty_err)):
        if wanted:
            masters[name], ends[name] = pty.openpty()
    assert EXE is not None
    proc = subprocess.Popen([EXE, *args], stdin=subprocess.DEVNULL,
                            stdout=ends.get("out", subprocess.PIPE),
                            stderr=ends.get("err", subprocess.PIPE), env=env, cwd=cwd)
    for fd in ends.values():
        os.close(fd)
    got = {name: b"" for name in masters}
    open_fds = {fd: name for name, fd in masters.items()}
    piped = {name: stream for name, stream in (("out", proc.stdout), ("err", proc.stderr))
             if stream is not None}
    for name, stream in piped.items():
        open_fds[stream.fileno()] = name
        got[name] = b""
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 1.0)
        for fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # a pty's slave side closed
                data = b""
            if data:
                got[open_fds[fd]] += data
            else:
                del open_fds[fd]
    proc.wait(timeout=600)
    for fd in masters.values():
        os.close(fd)
    return proc.returncode, got["out"].decode(), got["err"].decode()


def widest(text: str) -> int:
    return max((len(ANSI.sub("", line).rstrip("\r")) for line in text.splitlines()),
               default=0)


# ---------------------------------------------------------------------------
# Width
# ---------------------------------------------------------------------------
WIDE = [
    ["show", "block-2p-d6"],
    ["play", "block-2p-d6", "--seed", "19"],
    ["check-log", "--format", "openspiel", str(LOGS / "openspiel-team.jsonl"),
     "partnership-4p-d6"],
]


@pytest.mark.parametrize("args", WIDE, ids=[a[0] for a in WIDE])
def test_output_fits_the_terminal_and_piped_output_keeps_its_width(args: list[str]) -> None:
    _, on_tty, _ = run(args, tty_out=True, columns=60)
    assert widest(on_tty) <= 60, [ln for ln in on_tty.splitlines()
                                  if len(ANSI.sub("", ln)) > 60][:3]
    _, piped, _ = run(args, columns=60)
    _, plain, _ = run(args)
    assert piped == plain  # COLUMNS does not reach a pipe: 100 columns, every time
    assert 60 < widest(piped) <= 100


def test_the_rounds_a_report_shows_under_its_checks_fit_with_their_prefix() -> None:
    """A counterexample's round is laid out for the columns left beside the ``    | `` it
    is shown under (it used to be laid out for the whole 100 and overrun by the prefix)."""
    from dominoproof.options import SHOWN_AS

    code, piped, _ = run(["verify", "tiny", "-o", "block.confirmations=all-others"])
    assert code == 1
    shown = [line for line in piped.splitlines() if line.startswith(SHOWN_AS)]
    assert any(line.startswith(SHOWN_AS + "Counterexample to ") for line in shown)
    assert widest("\n".join(shown)) > 90  # laid out to the width, not far short of it
    assert widest(piped) <= 100, [ln for ln in piped.splitlines() if len(ln) > 100][:3]


def test_a_path_longer_than_the_terminal_still_fits(tmp_path: Path) -> None:
    """Output that echoes a file's path fits however deep the user keeps the file: the
    path of a fresh clone (or of pytest's own temporary folder) varies in length from one
    machine and run to the next, and a width that held only for short paths made this
    file's check-log case pass or fail with the clone's location."""
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4) / "logs"
    deep.mkdir(parents=True)
    log = deep / "openspiel-team.jsonl"
    log.write_bytes((LOGS / "openspiel-team.jsonl").read_bytes())
    args = ["check-log", "--format", "openspiel", str(log), "partnership-4p-d6"]
    assert len(str(log)) > 100
    _, on_tty, _ = run(args, tty_out=True, columns=60)
    assert widest(on_tty) <= 60
    _, piped, _ = run(args)
    assert widest(piped) <= 100
    assert str(log) in "".join(piped.split())  # the whole path, broken across lines


# ---------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------
LONG = {
    "simulate": ["simulate", "tiny", "-n", "20000"],
    "explore": ["explore", "tiny"],
    "prove": ["prove", "tiny", "-p", "conservation", "--workers", "1"],
    "witness": ["witness", "tiny", "shortest-block"],
}
SLOW = {
    "verify": ["verify", "tiny", "--no-faults", "--crosscheck", "0", "--workers", "1"],
    "bench engine": ["bench", "engine", "--smoke"],
    "bench proofs": ["bench", "proofs", "--preset", "tiny-2p-d3", "--workers", "1"],
    "bench spin": ["bench", "spin", "--n", "3", "--no-cold"],
    "repair": ["repair", "tiny", "--workers", "1"],
}


def check_progress(args: list[str], tmp_path: Path) -> None:
    rc_pipe, out_pipe, err_pipe = run(args, cwd=tmp_path)
    assert not PROGRESS.search(err_pipe), err_pipe[:200]
    assert not CONTROL.search(out_pipe)  # (tables may draw their rules with ━ there)
    rc_tty, out_tty, err_tty = run(args, tty_err=True, columns=80, cwd=tmp_path)
    assert rc_tty == rc_pipe
    assert PROGRESS.search(err_tty), err_tty[:200]  # the display showed on the terminal
    def gist(text: str) -> list[str]:  # the first line, measured times aside
        return [re.sub(r"[\d.]+", "#", line) for line in text.splitlines()[:1]]

    assert gist(out_tty) == gist(out_pipe)  # the same answer
    rc_q, _, err_q = run([*args, "-q"], tty_err=True, columns=80, cwd=tmp_path)
    assert rc_q == rc_pipe and not PROGRESS.search(err_q)  # -q: no display, even here


@pytest.mark.parametrize("name", list(LONG))
def test_progress_shows_on_a_terminal_only(name: str, tmp_path: Path) -> None:
    check_progress(LONG[name], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SLOW))
def test_progress_of_the_longer_commands(name: str, tmp_path: Path) -> None:
    check_progress(SLOW[name], tmp_path)


# ---------------------------------------------------------------------------
# -q and -v
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["verify", "prove", "witness", "explore", "simulate",
                                     "check-log", "bench engine", "bench proofs",
                                     "bench spin", "repair"])
def test_quiet_and_verbose_exclude_each_other(command: str) -> None:
    r = CliRunner().invoke(main, [*command.split(), "-q", "-v"])
    assert r.exit_code == 2 and "-q/--quiet and -v/--verbose exclude each other" in r.output


def test_quiet_and_verbose_say_less_and_more() -> None:
    normal = CliRunner().invoke(main, ["explore", "tiny"]).stdout
    quiet = CliRunner().invoke(main, ["explore", "tiny", "-q"]).stdout
    verbose = CliRunner().invoke(main, ["explore", "tiny", "-v"]).stdout
    assert quiet.splitlines() and all(re.fullmatch(r"[a-z-]+: [A-Z/ ]+", ln)
                                      for ln in quiet.splitlines())
    assert len(quiet) < len(normal) < len(verbose)
    assert "R2.3 readings compared = " in verbose and "R2.3 readings compared = " not in normal
    sim = CliRunner().invoke(main, ["simulate", "tiny", "-n", "300", "-q"]).stdout
    assert "blocked (R1.1, R4.4)" in sim and "R5.6" not in sim
    log = str(LOGS / "openspiel-block.jsonl")
    q = CliRunner().invoke(main, ["check-log", "--format", "openspiel", log, "block-2p-d6",
                                  "-q"]).stdout
    v = CliRunner().invoke(main, ["check-log", "--format", "openspiel", log, "block-2p-d6",
                                  "-v"]).stdout
    assert q.startswith("summary: 40 agree") and "implicit: " in v
    w = CliRunner().invoke(main, ["witness", "tiny", "shortest-block", "-q"]).stdout
    (line,) = w.strip().splitlines()
    assert line.startswith("witness shortest-block for tiny-2p-d3: found: a round of ")
    doc = json.loads(CliRunner().invoke(main, ["simulate", "tiny", "-n", "50", "-q",
                                               "--json"]).stdout)
    assert doc["rounds"] == 50  # -q changes the text, never the JSON
