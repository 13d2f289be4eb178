"""``dominoproof bench engine``: complete random rounds per second, deal included.

Our side plays :func:`dominoproof.model.engine.random_rounds` (a seeded deal, then
uniformly random legal moves to the end of the round) on four presets: on the compiled
kernel where it is installed (:mod:`dominoproof.proofs.kernel.playout`, the same rounds
from the same seed; its first call, loading or compiling the machine code, is reported
and kept out of the rates), else, or with ``--python``, on the engine's loop. The peers,
when installed (``pip install 'dominoproof[bench]'``), play the same kind of round
in the same process, interleaved with ours:

* ``open_spiel``: ``pyspiel.load_game("python_block_dominoes")``, the 2-player
  double-6 block game (deal as 14 chance outcomes, then random legal actions),
  compared with our ``block-2p-d6``; target: at least 100 times its rate on the kernel
  (10 times on the Python engine);
* ``dominoes``: ``dominoes.Game.new(starting_domino=6-6)``, the 4-player double-6
  partnership block game (random ``valid_moves`` until ``result``), compared with
  our ``partnership-4p-d6`` (whose holder of 6-6 leads with it); target: at least
  20 times its rate on the kernel (2 times on the Python engine).

Every side picks a uniformly random legal move the same way (``seq[int(rnd() *
len(seq))]`` from a seeded ``random.Random``), the cheapest way there is, so the
peers are not slowed down by our harness. A missing peer is reported and its ratio
skipped (exit 0); ``--check`` makes a missed target exit 1.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import itertools
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import click

from dominoproof.bench import (
    Memory,
    Series,
    Workload,
    fmt_bytes,
    fmt_rate,
    interleave,
    machine,
    max_rss_bytes,
    paired_ratio,
    table,
    traced_peak,
)
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model import engine_for, find_variant, random_rounds
from dominoproof.options import PositiveNumber, verbosity_options
from dominoproof.progress import steps
from dominoproof.proofs import kernel
from dominoproof.proofs.kernel import reason as kernel_reason

#: Our presets, in the order they are reported.
PRESETS = ("block-2p-d6", "partnership-4p-d6", "draw-4p-d12", "draw-8p-d12")

OPENSPIEL = "open_spiel"
DOMINOES = "dominoes"

#: Smoke run (CI): a few milliseconds per sample, two repetitions (both orders).
SMOKE_SECONDS, SMOKE_REPEATS, SMOKE_MEMORY_ROUNDS = 0.005, 2, 3


@dataclass(frozen=True)
class Target:
    """Ours must play at least ``times`` as many rounds per second as the peer."""

    ours: str
    peer: str
    times: float


#: On the engine's Python loop (no ``kernel`` extra, or ``--python``).
TARGETS = (Target("block-2p-d6", OPENSPIEL, 10.0), Target("partnership-4p-d6", DOMINOES, 2.0))
#: On the compiled kernel (numba, a dependency).
KERNEL_TARGETS = (Target("block-2p-d6", OPENSPIEL, 100.0),
                  Target("partnership-4p-d6", DOMINOES, 20.0))


@dataclass(frozen=True)
class Missing:
    """A peer that could not be loaded, and why."""

    name: str
    package: str
    reason: str


# ---------------------------------------------------------------------------
# The workloads
# ---------------------------------------------------------------------------
def ours(preset: str, seed: int, kernel: bool = False) -> tuple[Workload, float | None]:
    """``random_rounds`` on a preset, as one endless seeded stream: on the compiled
    kernel (``kernel``: the same rounds, :mod:`dominoproof.proofs.kernel.playout`) where it
    reads the preset, else the engine's loop. With it, the seconds of the kernel's first
    call (loading its machine code from numba's cache, or compiling it)."""
    variant = find_variant(preset)
    what = (f"dominoproof {variant.players}p double-{variant.tiles.n}, "
            f"drawing: {variant.draw.rule.value}")
    if kernel and not kernel_reason(variant):
        # numba: loaded only where the kernel runs
        from dominoproof.proofs.kernel.playout import KernelRounds

        start = time.perf_counter()
        stream_k = KernelRounds(variant, seed)
        stream_k.moves(1)  # the first call: load (or compile) the machine code
        first = time.perf_counter() - start
        return Workload(preset, stream_k.moves, "ours", what + ", compiled kernel"), first
    rules = engine_for(variant)
    stream = random_rounds(variant, sys.maxsize, seed, rules)

    def run(n: int) -> int:
        moves = 0
        for _, k in itertools.islice(stream, n):
            moves += k
        return moves

    return Workload(preset, run, "ours", what + ", Python engine"), None


def openspiel(seed: int) -> Workload | Missing:
    """OpenSpiel's ``python_block_dominoes``: chance outcomes for the deal, then
    uniformly random legal actions, on a fresh state per round."""

    try:
        pyspiel: Any = importlib.import_module("pyspiel")
        # Importing the module registers the game with pyspiel.
        importlib.import_module("open_spiel.python.games.block_dominoes")
        game = pyspiel.load_game("python_block_dominoes")
    except ImportError as e:
        return Missing(OPENSPIEL, "open-spiel", f"not installed ({e})")
    except Exception as e:  # a peer's own error type (pyspiel.SpielError) or API drift
        return Missing(OPENSPIEL, "open-spiel", f"could not load the game: {e!r}")
    rnd = random.Random(seed).random
    new = game.new_initial_state

    def run(n: int) -> int:
        moves = 0
        for _ in range(n):
            st = new()
            while not st.is_terminal():
                if st.is_chance_node():
                    outcomes = st.chance_outcomes()  # uniform over the undealt tiles
                    st.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                else:
                    actions = st.legal_actions()
                    st.apply_action(actions[int(rnd() * len(actions))])
                    moves += 1
        return moves

    return Workload(OPENSPIEL, run, "peer",
                    f"open-spiel {_version('open-spiel')} pyspiel.load_game("
                    f"'python_block_dominoes'): 2p double-6 block game")


def dominoes_game(seed: int) -> Workload | Missing:
    """The ``dominoes`` package's 4-player partnership game: a new game per round
    (its own shuffle, which uses the global ``random``: seeded here), then random
    ``valid_moves`` until ``result``. Passes are implicit in that package."""

    try:
        dominoes: Any = importlib.import_module("dominoes")
        lead = dominoes.Domino(6, 6)
    except ImportError as e:
        return Missing(DOMINOES, "dominoes", f"not installed ({e})")
    except Exception as e:
        return Missing(DOMINOES, "dominoes", f"could not load the game: {e!r}")
    random.seed(seed)  # dominoes deals with random.shuffle; the caller restores the state
    rnd = random.Random(seed).random
    new = dominoes.Game.new

    def run(n: int) -> int:
        moves = 0
        for _ in range(n):
            g = new(starting_domino=lead)
            while g.result is None:
                valid = g.valid_moves
                g.make_move(*valid[int(rnd() * len(valid))])
            moves += len(g.moves)
        return moves

    return Workload(DOMINOES, run, "peer",
                    f"dominoes {_version('dominoes')} Game.new(starting_domino=6-6): "
                    f"4p double-6 partnership block game")


def _version(dist: str) -> str:

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "(version unknown)"


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------
@dataclass
class Comparison:
    target: Target
    ratio: float | None  #: None: the peer is missing
    reason: str = ""

    @property
    def status(self) -> str:
        if self.ratio is None:
            return "SKIPPED"
        return "PASS" if self.ratio >= self.target.times else "FAIL"

    def to_json(self) -> dict[str, Any]:
        return {"ours": self.target.ours, "peer": self.target.peer,
                "target_times": self.target.times, "ratio": self.ratio,
                "status": self.status, "reason": self.reason}


@dataclass
class Report:
    settings: dict[str, Any]
    series: list[Series]
    memory: dict[str, Memory]
    missing: list[Missing]
    comparisons: list[Comparison]
    kernel: str = ""  #: which path our side ran (dominoproof.proofs.kernel.status)
    first_call: dict[str, float] = field(default_factory=dict)  #: kernel load/compile, s

    def to_json(self) -> dict[str, Any]:

        return {
            "benchmark": "engine",
            "measures": "complete random rounds per second, deal included",
            "settings": self.settings,
            "machine": machine(),
            "results": [{**s.to_json(), "memory": self.memory[s.workload.name].to_json()}
                        for s in self.series],
            "missing_peers": [{"name": m.name, "package": m.package, "reason": m.reason}
                              for m in self.missing],
            "comparisons": [c.to_json() for c in self.comparisons],
            "kernel": self.kernel,
            "kernel_first_call_seconds": self.first_call,
            "max_rss_bytes": max_rss_bytes(),
        }

    def render(self) -> str:

        st = self.settings
        m = machine()
        load = m["load_average"]
        lines = [
            "dominoproof bench engine: complete random rounds per second, deal included",
            f"{st['repeats']} interleaved samples of ~{st['seconds']:g} s per config, medians; "
            f"seed {st['seed']}; Python {m['python']}, {m['cpus']} CPUs"
            + (f", load {load[0]:.2f}" if load else ""),
        ]
        lines.append(self.kernel)
        if self.first_call:
            lines.append("kernel's first call (machine code loaded from the cache, or "
                         "compiled), not in the rates: " + ", ".join(
                             f"{k} {v:.2f} s" for k, v in self.first_call.items()))
        if st["smoke"]:
            lines.append("SMOKE RUN: too short for the figures to mean anything")
        rows = [["config", "side", "rounds/s", "spread", "moves/round", "mem/round",
                 "retained"]]
        for s in self.series:
            mem = self.memory[s.workload.name]
            rows.append([s.workload.name, s.workload.side, fmt_rate(s.median),
                         f"{s.spread:.0%}", f"{s.steps_per_unit:.1f}",
                         fmt_bytes(mem.median_peak), fmt_bytes(mem.retained)])
        lines += ["", table(rows, right=[False, False, True, True, True, True, True]), ""]
        lines += [f"  {s.workload.name}: {s.workload.description}" for s in self.series]
        lines += [
            "  spread: (max - min) / median of the samples; mem/round: median peak of Python",
            f"  allocations during one round; retained: left allocated after "
            f"{st['memory_rounds']} rounds",
            "",
            "ratios, ours / peer (median of the per-repetition ratios):",
        ]
        for c in self.comparisons:
            name = f"  {c.target.ours} / {c.target.peer}"
            if c.ratio is None:
                lines.append(f"{name}: SKIPPED (target >= {c.target.times:g}x): {c.reason}")
            else:
                lines.append(f"{name}: {c.ratio:.2f}x (target >= {c.target.times:g}x) "
                             f"{c.status}")
        for miss in self.missing:
            lines.append(f"peer {miss.name} not measured: {miss.reason}. "
                         f"Install the bench extra: pip install -e '.[bench]'")
        lines.append(f"max RSS of this process: {fmt_bytes(max_rss_bytes())}")
        return "\n".join(lines)


def run_engine_bench(seconds: float, repeats: int, seed: int = 0, memory_rounds: int = 200,
                     smoke: bool = False, with_peers: bool = True,
                     progress: Callable[[str], None] | None = None,
                     python: bool = False) -> Report:
    """Measure our presets and the peers, interleaved, in this process: ours on the
    compiled kernel where it is available (``python``: on the engine's loop)."""

    on_kernel = kernel.available() and not python
    status = kernel.status() if not python else "kernel: not used (--python): the Python path"
    first_call: dict[str, float] = {}
    targets = KERNEL_TARGETS if on_kernel else TARGETS

    saved = random.getstate()  # the dominoes peer seeds the global random
    try:
        workloads: list[Workload] = []
        missing: list[Missing] = []
        peers: dict[str, Workload | Missing] = {}
        if with_peers:
            peers = {OPENSPIEL: openspiel(seed), DOMINOES: dominoes_game(seed)}
        # Each peer right after the preset it is compared with, so that pairs sit
        # side by side in both the A B C and the C B A orders of interleave().
        partner = {t.ours: t.peer for t in targets}
        for preset in PRESETS:
            if progress:
                progress(f"ours: {preset}")
            work, first = ours(preset, seed, on_kernel)
            workloads.append(work)
            if first is not None:
                first_call[preset] = first
            peer = peers.get(partner.get(preset, ""))
            if isinstance(peer, Workload):
                workloads.append(peer)
            elif isinstance(peer, Missing):
                missing.append(peer)
        series = interleave(workloads, repeats, seconds, progress=progress)
        memory = {}
        for w in workloads:
            if progress:
                progress(f"memory: {w.name}")
            memory[w.name] = traced_peak(w.run, memory_rounds)
    finally:
        random.setstate(saved)
    by_name = {s.workload.name: s for s in series}
    comparisons = []
    for t in targets:
        peer = peers.get(t.peer)
        if t.peer in by_name:
            comparisons.append(Comparison(t, paired_ratio(by_name[t.ours], by_name[t.peer])))
        else:
            comparisons.append(Comparison(
                t, None, peer.reason if isinstance(peer, Missing) else "peers not measured"))
    settings = {"seconds": seconds, "repeats": repeats, "seed": seed,
                "memory_rounds": memory_rounds, "smoke": smoke}
    settings["kernel"] = on_kernel
    return Report(settings, series, memory, missing, comparisons, status, first_call)


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source is not click.core.ParameterSource.DEFAULT


@click.command("engine")
@click.option("--seconds", type=PositiveNumber(), default=0.5,
              show_default=True, help="Length of each timed sample, per config.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True,
              help="Interleaved samples per config (the median is reported).")
@click.option("--smoke", is_flag=True,
              help=f"A very short run for CI ({SMOKE_REPEATS} x {SMOKE_SECONDS:g} s unless "
                   "--seconds/--repeats are given): checks it runs, not how fast.")
@json_option
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the deals and moves of every side.")
@click.option("--memory-rounds", type=click.IntRange(min=1), default=200, show_default=True,
              help="Rounds played under tracemalloc, per config, for the memory figure.")
@click.option("--check", is_flag=True, help="Exit 1 if a target is missed.")
@click.option("--python", "python", is_flag=True,
              help="Our side on the engine's Python loop even where the compiled kernel is "
                   "installed (targets 10x and 2x instead of 100x and 20x).")
@verbosity_options
@click.pass_context
def command(ctx: click.Context, seconds: float, repeats: int, smoke: bool, as_json: str | None,
            seed: int, memory_rounds: int, check: bool, python: bool, quiet: bool,
            verbose: bool) -> None:
    """Complete random rounds per second (deal included) on block-2p-d6, partnership-4p-d6,
    draw-4p-d12 and draw-8p-d12, against open-spiel's python_block_dominoes (target 100x
    on the compiled kernel, 10x on the Python engine) and the dominoes package's 4-player
    game (target 20x; 2x), in the same run. On a terminal
    a progress display shows each step; -q hides it, -v prints each step as a line on
    standard error (also when piped)."""
    if smoke:
        seconds = seconds if _given(ctx, "seconds") else SMOKE_SECONDS
        repeats = repeats if _given(ctx, "repeats") else SMOKE_REPEATS
        memory_rounds = memory_rounds if _given(ctx, "memory_rounds") else SMOKE_MEMORY_ROUNDS

    with steps("bench engine", quiet=quiet, verbose=verbose) as step:
        report = run_engine_bench(seconds, repeats, seed, memory_rounds, smoke, progress=step,
                                  python=python)
    if as_json:
        emit("bench-engine", report.to_json(), as_json)
    if text_too(as_json):
        click.echo(report.render())
    if check and any(c.status == "FAIL" for c in report.comparisons):
        ctx.exit(1)



if __name__ == "__main__":  # python bench/engine.py [OPTIONS] is dominoproof bench engine
    command(prog_name="dominoproof bench engine")
