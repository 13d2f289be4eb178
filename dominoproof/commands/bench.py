"""``dominoproof bench``: the benchmarks, one subcommand per module of
:mod:`dominoproof.benchmarks` (each defines ``command``, a ``click.Command``).

Adding a benchmark is adding a file there. Benchmark modules are imported when the
CLI starts, so they import their heavy dependencies (the peers, z3) inside their
functions. Every benchmark runs two things side by side in one process and prints
ratios; the measuring itself (interleaving, medians, memory) is
:mod:`dominoproof.bench`.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from dominoproof import bench as benchmarks


@click.group("bench")
def command() -> None:
    """Benchmarks: ours and a peer side by side, in the same run, with ratios
    (see bench/README.md). Figures compare only within one run."""


for _info in sorted(pkgutil.iter_modules(benchmarks.__path__), key=lambda i: i.name):
    _module = importlib.import_module(f"{benchmarks.__name__}.{_info.name}")
    _cmd = getattr(_module, "command", None)
    if isinstance(_cmd, click.Command):
        command.add_command(_cmd)
