"""``dominoproof bench spin``: exhaustive search of one deal, Spin and dominoproof side by side.

The peer is a Promela model of a 2-player draw round with one fixed deal
(``domino_N{3,4,6}.pml``, copies of ``../shared/peers/spin`` shipped in
``bench/spin_models``; its README states the rules, each
file's header the deal). Both tools explore every reachable state of that round
and check the same property: when the round is declared blocked, the boneyard is
empty and no tile in either hand matches an open end (Spin: the model's
``assert``; dominoproof: ``blocked-sound`` of the catalogue, R1.1/R2/R3).

* **Spin**: ``spin -a`` (generate ``pan.c``), ``gcc -O2 -DSAFETY`` (compile),
  ``./pan`` (search), in a temporary directory; each step is timed and its peak
  memory read from the kernel (``wait4``); states stored, transitions and memory
  are parsed from pan's report.
* **dominoproof**: in a fresh Python process (so that its memory is the search's,
  measured the same way as pan's), where the compiled kernel runs (the ``kernel`` extra,
  one worker, the default then): :func:`dominoproof.proofs.search.compiled.check_blocks`,
  the kernel's sweep, which holds two levels' keys and hash tables at a time and judges
  blocked-sound's conditions at each established block as it goes, and where one fails,
  the breadth-first search for the shortest trace (the verdict, timed); then, untimed,
  the graph search and the catalogue's own ``blocked-sound``, which must agree, over
  as many states. The first run uses an empty numba cache, so the kernel is compiled inside the
  timed wall time (as pan.c is compiled by gcc): the "compiled in the run" wall time.
  On double-6, a second empty cache is then filled by the double-3 deal's verdict, and
  the double-6 deal's verdict runs on it: the wall time of "a model never run". Spin
  compiles pan.c for every model; the kernel reads a model as data (its table), so the
  machine code one model's run compiled serves every other.
  Without the kernel: :func:`dominoproof.proofs.search.statespace.explore` on the same deal,
  then :func:`dominoproof.proofs.search.check.check_properties` for ``blocked-sound``
  (more workers: the partitioned search).

The same game. The variant is the 2-player double-N draw game (``draw-2p-d6`` with
``set.max = N``), hands as in the header, the holder of N-N leads with it, the
boneyard a fixed stack in the header's order, a player who cannot play draws until
playable (R3.1), and a round ends blocked when both players in succession could not
play with the boneyard empty: Spin's two passes are our two R4 confirmations. Our
model has states Spin's does not: the deal before the lead (Spin opens inside its
initial ``d_step``), and at each end of a round one state more (a player has emptied
their hand, or both have confirmed: the ``Domino`` / ``Establish`` move is explicit).
Spin, for its part, stores three more control points per terminal position (after
``break``, after ``assert``, at the end of the process) and its state before
``init``. So, with ``P`` the play positions (ends, hands, boneyard, turn, passes,
status: what Spin's variables hold) and ``T`` the terminal ones, read off our graph::

    ours:  1 + P + T states          Spin:  1 + P + 3T states stored
    ours:  E transitions             Spin:  E + 1 + 2T transitions

The benchmark computes P, T, E from our search and checks both Spin figures exactly:
that is how it knows the two tools explored the same game.

Figures: wall time (Spin's ``spin -a`` and ``gcc`` included; for us the Python
process, start-up included), states per second of the checking run, peak memory
of the checking process, bytes per stored state (pan's "actual memory usage for states"
per state stored, its hash table not counted; ours: the keys and hash tables of the
sweep's two levels when they were largest, per state they held then), and their ratios
(ours / Spin). The target:
dominoproof's verdict on the double-6 deal takes no more wall time than Spin takes
to compile and run the same check. Without Spin (or gcc) the benchmark says so,
runs our side alone, and exits 0.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import click

from dominoproof.bench import Step, measured, table
from dominoproof.bench.promela import (
    MODELS_ENV,
    SIZES,
    PromelaDeal,
    load_deal,
    model_path,
    variant_for,
)
from dominoproof.bench.spin_ours import (
    Position,
    check_ours,
    deal_json,
    run_ours,
    spin_positions,
)
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.errors import DominoproofError
from dominoproof.options import verbosity_options
from dominoproof.progress import steps
from dominoproof.proofs.kernel import available
from dominoproof.proofs.search.statespace import kernel_reason

#: our side lives in :mod:`.spin_ours` (the child process); its names are read from here too
__all__ = ["Comparison", "Position", "SpinRun", "Step", "check_ours", "command", "compare",
           "parse_pan", "run_ours", "run_spin", "same_game", "spin_missing", "spin_positions"]


# ---------------------------------------------------------------------------
# Spin's side
# ---------------------------------------------------------------------------


@dataclass
class SpinRun:
    steps: list[Step]
    stored: int  #: "states, stored"
    matched: int
    transitions: int
    errors: int
    depth: int
    state_vector: int  #: bytes
    memory_mb: float  #: pan's "total actual memory usage"
    states_mb: float  #: pan's "actual memory usage for states"
    pan_seconds: float  #: pan's own "elapsed time"
    version: str = ""

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.steps)

    def step(self, name: str) -> Step:
        return next(s for s in self.steps if s.name == name)


def spin_missing() -> str | None:
    """Why Spin cannot run here (None when ``spin`` and ``gcc`` are on the PATH)."""
    if shutil.which("spin") is None:
        return "spin not installed (Debian/Ubuntu: apt-get install spin)"
    if shutil.which("gcc") is None:
        return "gcc not installed (Spin's pan.c must be compiled)"
    return None


def parse_pan(output: str) -> dict[str, Any]:
    """The figures of pan's report (a ``DominoproofError`` if it has none)."""
    def num(pattern: str, cast: Any = int, default: Any = None) -> Any:
        m = re.search(pattern, output)
        if m is None:
            if default is not None:
                return default
            raise DominoproofError(f"pan's report has no '{pattern}':\n{output[-2000:]}")
        return cast(m.group(1))

    return {
        "stored": num(r"(\d+) states, stored"),
        "matched": num(r"(\d+) states, matched"),
        "transitions": num(r"(\d+) transitions \(= stored\+matched\)"),
        "errors": num(r"errors: (\d+)"),
        "depth": num(r"depth reached (\d+)"),
        "state_vector": num(r"State-vector (\d+) byte"),
        "memory_mb": num(r"([\d.]+)\s+total actual memory usage", float),
        "states_mb": num(r"([\d.]+)\s+actual memory usage for states", float),
        "pan_seconds": num(r"pan: elapsed time ([\d.e+-]+) seconds", float, 0.0),
    }


def run_spin(pml: Path, workdir: str | Path) -> SpinRun:
    """``spin -a``, ``gcc -O2 -DSAFETY -o pan pan.c``, ``./pan`` in ``workdir``."""
    work = Path(workdir)
    shutil.copy(pml, work / pml.name)
    steps = []
    for name, argv in (("spin -a", ["spin", "-a", pml.name]),
                       ("gcc", ["gcc", "-O2", "-DSAFETY", "-o", "pan", "pan.c"]),
                       ("pan", ["./pan"])):
        st = measured(name, argv, work)
        steps.append(st)
        if st.returncode != 0:
            raise DominoproofError(f"{name} failed (exit {st.returncode}):\n"
                                   + st.output[-2000:])
    version = subprocess.run(["spin", "-V"], capture_output=True, text=True).stdout.strip()
    return SpinRun(steps, version=version, **parse_pan(steps[-1].output))


# ---------------------------------------------------------------------------
# Side by side
# ---------------------------------------------------------------------------


def same_game(ours: dict[str, Any], spin: SpinRun) -> tuple[bool, str]:
    """Whether Spin's state and transition counts are exactly those our graph predicts."""
    p, t, e = ours["positions"], ours["terminal_positions"], ours["transitions"]
    want_states, want_trans = 1 + p + 3 * t, e + 1 + 2 * t
    ok = (spin.stored == want_states and spin.transitions == want_trans
          and ours["states"] == 1 + p + t)
    text = (f"Spin stored {spin.stored:,} states; 1 + P + 3T = {want_states:,} "
            f"(P = {p:,} play positions, T = {t:,} terminal ones, from our graph of "
            f"{ours['states']:,} = 1 + P + T states); Spin's {spin.transitions:,} "
            f"transitions; E + 1 + 2T = {want_trans:,} (E = our {e:,})")
    return ok, text


@dataclass
class Comparison:
    n: int
    deal: PromelaDeal
    ours_step: Step
    ours: dict[str, Any]
    spin: SpinRun | None
    missing: str | None
    runs: int = 1
    ours_seconds_runs: list[float] = field(default_factory=list)
    spin_seconds_runs: list[float] = field(default_factory=list)
    #: our wall time with the kernel compiled from scratch in the run (an empty cache)
    ours_cold_seconds: float | None = None
    #: that run was skipped (``--no-cold``): the wall-time target is not judged
    cold_skipped: bool = False
    #: our wall time on this deal with the machine code another model's run compiled
    #: (an empty cache, filled by the double-3 deal's verdict): the kernel is compiled
    #: once, not per model as pan.c is (double-6 only)
    ours_other_model_seconds: float | None = None

    @property
    def ours_seconds(self) -> float:
        return statistics.median(self.ours_seconds_runs or [float(self.ours["verdict_wall"])])

    @property
    def spin_seconds(self) -> float | None:
        if self.spin is None:
            return None
        return statistics.median(self.spin_seconds_runs or [self.spin.seconds])

    @property
    def ours_rate(self) -> float:
        busy = self.ours["search_seconds"] + self.ours["check_seconds"]
        return self.ours["states"] / busy if busy > 0 else float("inf")

    @property
    def spin_rate(self) -> float | None:
        if self.spin is None:
            return None
        pan = self.spin.step("pan").seconds
        return self.spin.stored / pan if pan > 0 else float("inf")

    @property
    def ours_bytes_per_state(self) -> float | None:
        b, held = self.ours.get("stored_bytes"), self.ours.get("stored_states")
        return b / held if b and held else None

    @property
    def spin_bytes_per_state(self) -> float | None:
        """pan's "actual memory usage for states" per stored state (its hash table not
        counted; ours counts its own)."""
        if self.spin is None or not self.spin.stored:
            return None
        return self.spin.states_mb * 2**20 / self.spin.stored

    def ratios(self) -> dict[str, float | None]:
        if self.spin is None:
            return {"wall_time": None, "wall_time_compiled": None,
                    "wall_time_other_model": None, "states_per_second": None,
                    "memory": None, "bytes_per_state": None}
        spin_rate = self.spin_rate or 0.0
        spin_wall = self.spin_seconds or 1.0
        ours_b, spin_b = self.ours_bytes_per_state, self.spin_bytes_per_state
        return {
            "wall_time": self.ours_seconds / spin_wall,
            "wall_time_compiled": (self.ours_cold_seconds / spin_wall
                                   if self.ours_cold_seconds is not None else None),
            "wall_time_other_model": (self.ours_other_model_seconds / spin_wall
                                      if self.ours_other_model_seconds is not None else None),
            "states_per_second": self.ours_rate / spin_rate if spin_rate else None,
            "memory": self.ours["verdict_rss_mb"] / self.spin.step("pan").peak_rss_mb,
            "bytes_per_state": ours_b / spin_b if ours_b and spin_b else None,
        }

    def targets(self) -> dict[str, str]:
        """For the double-6 deal: our verdict within Spin's compile + run (the kernel
        compiled in the run, where it runs); and on the kernel, at least 3 times pan's
        states per second, at most a quarter of its bytes per stored state."""
        if self.spin is None or self.n != 6 or self.cold_skipped:
            return {"wall_time": "SKIPPED"}
        r = self.ratios()
        wall = r["wall_time_compiled"] if r["wall_time_compiled"] is not None \
            else r["wall_time"]
        out = {"wall_time": "MET" if wall is not None and wall <= 1.0 else "MISSED"}
        if self.ours.get("search") == "kernel":
            rate, size = r["states_per_second"], r["bytes_per_state"]
            out["states_per_second"] = "MET" if rate is not None and rate >= 3.0 else "MISSED"
            out["bytes_per_state"] = "MET" if size is not None and size <= 0.25 else "MISSED"
        return out

    def target(self) -> str:
        """Every target of :meth:`targets` met (SKIPPED without Spin or off double-6)."""
        t = self.targets()
        if "SKIPPED" in t.values():
            return "SKIPPED"
        return "MET" if all(x == "MET" for x in t.values()) else "MISSED"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n, "deal": deal_json(self.deal), "runs": self.runs,
            "ours": {**{k: v for k, v in self.ours.items() if k != "variant"},
                     "wall_seconds": self.ours_seconds,
                     "wall_seconds_runs": self.ours_seconds_runs,
                     "process": asdict(self.ours_step) | {"output": None},
                     "states_per_second": self.ours_rate},
            "variant": self.ours["variant"],
            "spin": None, "missing": self.missing, "ratios": self.ratios(),
            "target": self.target(), "targets": self.targets(),
            "kernel": self.ours.get("kernel", ""),
            "ours_compiled_wall_seconds": self.ours_cold_seconds,
            "ours_other_model_wall_seconds": self.ours_other_model_seconds,
            "bytes_per_state": {"ours": self.ours_bytes_per_state,
                                "spin": self.spin_bytes_per_state},
        }
        if self.spin is not None:
            ok, why = same_game(self.ours, self.spin)
            out["spin"] = {
                **{k: v for k, v in asdict(self.spin).items() if k != "steps"},
                "steps": [asdict(s) | {"output": None} for s in self.spin.steps],
                "wall_seconds": self.spin_seconds, "wall_seconds_runs": self.spin_seconds_runs,
                "states_per_second": self.spin_rate,
                "verdict": "HOLDS" if self.spin.errors == 0 else "VIOLATED",
            }
            out["same_game"] = {"ok": ok, "detail": why}
            out["verdicts_agree"] = (self.spin.errors == 0) == (self.ours["verdict"] == "HOLDS")
        return out

    def render(self) -> str:
        o = self.ours
        lines = [
            f"Spin vs dominoproof: double-{self.n}, 2 players, draw until playable, "
            f"P0 leads [{self.n}|{self.n}], one fixed deal (exhaustive search)",
            f"  deal: {self.deal.describe()}",
        ]
        if self.spin is None:
            lines.append(f"  {self.missing}: only dominoproof's side was run")
            lines.append(f"  verdict: dominoproof blocked-sound {o['verdict']}")
        else:
            ok, why = same_game(o, self.spin)
            lines.append(f"  same game: {'yes' if ok else 'NO'} -- {why}")
            spin_v = "holds" if self.spin.errors == 0 else f"VIOLATED ({self.spin.errors})"
            lines.append(f"  verdicts: Spin's assert {spin_v}; dominoproof blocked-sound "
                         f"{o['verdict']}")
        steps = "" if self.spin is None else ", ".join(
            f"{s.name} {s.seconds:.2f}" for s in self.spin.steps)
        busy = o["search_seconds"] + o["check_seconds"]
        if o.get("workers", 1) > 1:
            ours_parts = (f"partitioned search and verdict on {o['workers']} processes "
                          f"{o['search_seconds']:.2f}, start-up {o['verdict_wall'] - busy:.2f}")
        elif o.get("search") == "kernel":
            load = o.get("kernel_load_seconds", 0.0)
            ours_parts = (f"kernel sweep judging as it goes {o['search_seconds']:.2f}, "
                          f"machine code loaded {load:.2f}, start-up "
                          f"{o['verdict_wall'] - busy - load:.2f}")
        else:
            ours_parts = (f"search {o['search_seconds']:.2f}, verdict "
                          f"{o['check_seconds']:.2f}, start-up {o['verdict_wall'] - busy:.2f}")
        r = self.ratios()

        def ratio(x: float | None) -> str:
            return "-" if x is None else f"{x:.2f}"

        spin_states = "-" if self.spin is None else f"{self.spin.stored:,}"
        spin_rate = "-" if self.spin_rate is None else f"{self.spin_rate:,.0f}"
        spin_mem = "-" if self.spin is None else (
            f"{self.spin.step('pan').peak_rss_mb:.1f} MB (pan reports "
            f"{self.spin.memory_mb:.1f}, states {self.spin.states_mb:.1f})")
        spin_wall = "-" if self.spin_seconds is None else f"{self.spin_seconds:.2f} s ({steps})"
        rows = [
            ("", "spin", "dominoproof", "ours/spin"),
            ("wall time", spin_wall, f"{self.ours_seconds:.2f} s ({ours_parts})",
             ratio(r["wall_time"])),
            *([("wall, compiled in the run", spin_wall,
                f"{self.ours_cold_seconds:.2f} s (kernel compiled from an empty cache)",
                ratio(r["wall_time_compiled"]))] if self.ours_cold_seconds is not None
              else []),
            *([("wall, a model never run", spin_wall,
                f"{self.ours_other_model_seconds:.2f} s (machine code compiled by the "
                "double-3 deal's run)", ratio(r["wall_time_other_model"]))]
              if self.ours_other_model_seconds is not None else []),
            ("states", spin_states, f"{o['states']:,}", ""),
            ("bytes/state", "-" if self.spin_bytes_per_state is None
             else f"{self.spin_bytes_per_state:.1f} (pan's states)",
             "-" if self.ours_bytes_per_state is None
             else f"{self.ours_bytes_per_state:.1f} (keys {o['key_bytes']} and hash "
                  f"tables of two levels: {o['stored_states']:,} states held at the peak)",
             ratio(r["bytes_per_state"])),
            ("states/s", spin_rate, f"{self.ours_rate:,.0f}", ratio(r["states_per_second"])),
            ("peak memory", spin_mem,
             f"{o['verdict_rss_mb']:.1f} MB (every process, summed)" if o.get("workers", 1) > 1
             else f"{o['verdict_rss_mb']:.1f} MB (the sweep's two levels at most "
                  f"{o['stored_bytes'] / 2**20:.1f})" if o.get("stored_bytes")
             else f"{o['verdict_rss_mb']:.1f} MB (visited set and graph "
                  f"~{o['visited_mb']:.1f})", ratio(r["memory"])),
        ]
        lines.append("")
        lines += ["  " + line for line in table([list(x) for x in rows]).splitlines()]
        lines.append("")
        if self.runs > 1:
            lines.append(f"  wall times: medians of {self.runs} runs, alternating Spin/ours")
        lines.append("  wall time: Spin's three processes; ours from launching the Python process "
                     "to the verdict")
        lines.append("  states/s: states of the checking run (pan; our search + verdict) per "
                     "second of it; memory: peak RSS of that process up to the verdict")
        lines.append("  " + str(o.get("kernel", "")))
        if self.spin is not None and self.n == 6:
            lines.append("  targets (double-6): " + ", ".join(
                f"{k} {v}" for k, v in self.targets().items())
                + " (wall: within Spin's compile + run, our kernel compiled in the run; "
                  "states/s >= 3x; bytes/state <= 1/4)")
        elif self.spin is not None:
            lines.append("  target: stated for the double-6 deal (--n 6)")
        return "\n".join(lines)


def compare(n: int, models: str | Path | None = None, runs: int = 1,
            use_spin: bool = True, workers: int = 1, cold: bool = True) -> Comparison:
    """Run both sides on the model ``domino_N{n}.pml`` (Spin only where installed);
    ``cold``: first a run of ours with the kernel compiled from an empty cache."""
    deal = load_deal(n, models)
    missing = spin_missing() if use_spin else "spin not requested"
    spin: SpinRun | None = None
    ours_runs: list[float] = []
    spin_runs: list[float] = []
    ours_step: Step | None = None
    ours: dict[str, Any] = {}
    cold_seconds: float | None = None
    other_seconds: float | None = None
    with tempfile.TemporaryDirectory(prefix="dominoproof-spin-") as tmp:
        cache = None
        if cold and workers == 1 and not kernel_reason(variant_for(deal)):
            # once with an empty cache: the kernel compiled in the timed run; the runs
            # after it load the machine code from that cache, as an installed kernel does
            cache = Path(tmp) / "numba-cache"
            cache.mkdir()
            _, first = run_ours(deal, cwd=tmp, workers=workers, numba_cache=cache)
            cold_seconds = float(first["verdict_wall"])
            if n == 6:
                other_seconds = _other_model_wall(deal, models, Path(tmp))
        for k in range(runs):
            order = ("spin", "ours") if k % 2 == 0 else ("ours", "spin")
            for side in order:
                if side == "ours":
                    ours_step, ours = run_ours(deal, cwd=tmp, workers=workers,
                                               numba_cache=cache)
                    ours_runs.append(ours["verdict_wall"])
                elif missing is None:
                    work = Path(tmp) / f"run{k}"
                    work.mkdir()
                    spin = run_spin(model_path(n, models), work)
                    spin_runs.append(spin.seconds)
    assert ours_step is not None
    return Comparison(n, deal, ours_step, ours, spin, missing, runs, ours_runs, spin_runs,
                      cold_seconds, cold_skipped=not cold,
                      ours_other_model_seconds=other_seconds)


def _other_model_wall(deal: PromelaDeal, models: str | Path | None, tmp: Path) -> float:
    """Our wall time on ``deal`` where the kernel's machine code was compiled by another
    model's run: the double-3 deal's verdict with an empty cache, then ``deal``'s on
    that cache. Spin compiles pan.c for every model; the kernel reads a model as data
    (its table), so what one model's run compiled serves every other."""
    cache = tmp / "numba-cache-other-model"
    cache.mkdir()
    run_ours(load_deal(3, models), cwd=tmp, numba_cache=cache)
    _, got = run_ours(deal, cwd=tmp, numba_cache=cache)
    return float(got["verdict_wall"])


@click.command("spin")
@click.option("--n", "n", type=click.Choice([str(s) for s in SIZES]), default="6",
              show_default=True, help="The model: domino_N<n>.pml (double-n).")
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Run both sides this many times, alternating, and report medians.")
@click.option("--models", type=click.Path(file_okay=False), default=None,
              help=f"Folder of the Promela models (default: ${MODELS_ENV} or the copies "
                   "shipped with dominoproof).")
@click.option("--check", is_flag=True,
              help="Exit 1 if the two tools did not explore the same game, disagree on the "
                   "verdict, or the wall-time target is missed.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Our side's processes (default: 1 where the compiled kernel runs, else "
                   "the machine's cores): 1 is the kernel's search judging blocked-sound as "
                   "it goes (without the kernel: explore, then check_properties); more is "
                   "the partitioned search (dominoproof.bench.partitioned), every "
                   "core on the one deal.")
@click.option("--cold/--no-cold", default=True, show_default=True,
              help="First run our side once with the kernel compiled from an empty cache "
                   "(about 10 s), for the wall time compilation included. --no-cold skips "
                   "it: quicker, and the targets are then not judged (SKIPPED).")
@verbosity_options
@json_option
def command(n: str, runs: int, models: str | None, check: bool, workers: int | None,
            cold: bool, quiet: bool, verbose: bool, as_json: str | None) -> None:
    """Spin and dominoproof on the same 2-player draw round and fixed deal: exhaustive
    search and the blocked-sound check, side by side. Prints the ratios of wall time
    (Spin's compile included), states per second and memory, and checks from the state
    counts that both explored the same game. Without Spin: says so, exit 0. On a terminal
    a progress display runs meanwhile; -q hides it, -v says each step on standard error."""
    with steps(f"bench spin: domino_N{n}", quiet=quiet, verbose=verbose) as step:
        step(f"both sides on domino_N{n}.pml, {runs} run(s)")
        default = 1 if available() else os.cpu_count() or 1
        cmp = compare(int(n), models, runs, workers=workers or default, cold=cold)
    if as_json:
        emit("bench-spin", cmp.to_json(), as_json)
    if text_too(as_json):
        click.echo(cmp.render())
    if check and cmp.spin is not None:
        data = cmp.to_json()
        bad = (not data["same_game"]["ok"] or not data["verdicts_agree"]
               or (cmp.n == 6 and cmp.target() == "MISSED"))
        if bad:
            click.get_current_context().exit(1)
