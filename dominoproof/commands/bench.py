"""``dominoproof bench``: the benchmarks, one subcommand per benchmark module of
:mod:`dominoproof.bench` (``bench/``; each defines ``command``, a ``click.Command``).

Adding a benchmark is adding its file there and its name to :data:`BENCHMARKS`. A
benchmark's module is imported only when it runs (or when ``--help`` lists it), so it
imports what it needs at its top. Every benchmark runs two things side by side in one
process and prints ratios; the measuring itself (interleaving, medians, memory) is
:mod:`dominoproof.bench`.
"""

from __future__ import annotations

import importlib

import click

#: The modules of ``bench/`` that are benchmarks (the others are what they run).
BENCHMARKS = ("engine", "proofs", "spin")


class _Benchmarks(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(BENCHMARKS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in BENCHMARKS:
            return None
        command: click.Command = importlib.import_module(f"dominoproof.bench.{cmd_name}").command
        return command


@click.group("bench", cls=_Benchmarks)
def command() -> None:
    """Benchmarks: ours and a peer side by side, in the same run, with ratios
    (see bench/README.md). Figures compare only within one run."""
