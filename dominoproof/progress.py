"""Progress on a terminal, silence in a pipe: the display of the commands that can run long.

``verify``, ``prove``, ``witness``, ``explore``, ``simulate`` and ``bench`` show a rich
progress display on standard error while they work, only when standard error is a
terminal and ``-q`` was not given; piped or redirected output (a CI log, a golden
transcript) never holds a progress character. The display is transient: it is gone when
the command prints its result.

    with progress("verify", total=len(jobs), quiet=quiet) as bar:
        ...
        bar.advance(f"checked {name}")
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from dominoproof.options import console


class Bar:
    """What a command tells the display: a step done, or what it is doing now. A
    silent bar (piped output, ``-q``) takes the same calls and shows nothing."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress, self._task = progress, task

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def advance(self, what: str | None = None, steps: float = 1) -> None:
        if self._progress is not None:
            kw = {"description": what} if what else {}
            self._progress.update(self._task, advance=steps, **kw)

    def update(self, what: str | None = None, *, completed: float | None = None,
               total: float | None = None) -> None:
        if self._progress is not None:
            given = {"description": what or None, "completed": completed, "total": total}
            self._progress.update(self._task, **{k: x for k, x in given.items()
                                                 if x is not None})


def on_terminal() -> bool:
    """Whether standard error is a terminal (where a progress display belongs)."""
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


@contextmanager
def progress(what: str, *, total: float | None = None, quiet: bool = False) -> Iterator[Bar]:
    """A progress display on standard error: a bar with a count when ``total`` is known,
    else a spinner with the elapsed time; a silent :class:`Bar` when standard error is
    not a terminal or ``quiet``."""
    if quiet or not on_terminal():
        yield Bar()
        return
    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None:
        columns += [BarColumn(), MofNCompleteColumn()]
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=console(stderr=True), transient=True) as p:
        yield Bar(p, p.add_task(what, total=total))


@contextmanager
def steps(what: str, *, total: float | None = None, quiet: bool = False,
          verbose: bool = False) -> Iterator[Callable[[str], None]]:
    """A function to call with each step of a long job (``"calibrating engine"``): the
    step shows in the progress display (a bar counting the steps when ``total`` is
    known, else a spinner) on a terminal, and with ``verbose`` is also printed as a line
    on standard error, piped or not; ``quiet`` shows nothing."""
    with progress(what, total=total, quiet=quiet) as bar:
        seen = 0

        def step(text: str) -> None:
            nonlocal seen
            if verbose and not quiet:
                click.echo(f"  ... {text}", err=True)
            if total is not None and seen:
                bar.advance(text)
            else:
                bar.update(text)
            seen += 1

        yield step
        if total is not None and seen:
            bar.advance()


__all__ = ["Bar", "on_terminal", "progress", "steps"]
