"""Progress while a command works: a live display on a terminal, plain lines in a pipe.

``verify``, ``prove``, ``witness``, ``explore``, ``simulate``, ``stats``, ``report``,
``diff`` and ``bench`` show progress on standard error while they work, unless ``-q`` was
given. On a terminal it is a rich display, transient: it is gone when the command prints
its result. Piped or redirected (a CI log), it is plain lines, ``dominoproof verify
[12 s]: checked tiny-2p-d3 (3 of 22)``: one per step or phase, and one at least every
:data:`PIPED_EVERY` seconds while a step runs long; none for a command that ends within
:data:`PIPED_AFTER` seconds; never a control character; within 100 columns.
Standard output (the answer, a golden transcript) never holds progress.

    with progress("verify", total=len(jobs), quiet=quiet) as bar:
        ...
        bar.advance(f"checked {name}")
"""

from __future__ import annotations

import sys
import threading
import time
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

from dominoproof.options import WIDTH, console


class Bar:
    """What a command tells the display: a step done, or what it is doing now. A
    silent bar (piped output, ``-q``) takes the same calls and shows nothing."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress, self._task = progress, task

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


#: a piped command says nothing of its progress until it has run this long (seconds)
PIPED_AFTER = 5.0
#: a phase that changes its words often is said at most once in this many seconds, and
#: a step that runs long is said to be running again after as many
PIPED_EVERY = 15.0


class LineBar(Bar):
    """Progress as plain lines on standard error, for output that is not a terminal."""

    def __init__(self, what: str, total: float | None) -> None:
        super().__init__()
        self._what, self._total, self._done = what, total, 0.0
        self._t0, self._last = time.monotonic(), float("-inf")  # _last: the last line
        self._said = self._doing = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)

    def _say(self, text: str, *, every: float = 0.0, again: bool = False) -> None:
        """Say ``text`` unless the command is young, it was just said, or less than
        ``every`` seconds passed since the last line (``again``: the heartbeat)."""
        with self._lock:
            now = time.monotonic()
            if now - self._t0 < PIPED_AFTER or (text == self._said and not again) or (
                    now - self._last < every):
                return
            count = (f" ({self._done:,.0f} of {self._total:,.0f}{' done' if again else ''})"
                     if self._total is not None and every != PIPED_EVERY else "")
            line = f"dominoproof {self._what} [{now - self._t0:,.0f} s]: {text}{count}"
            click.echo(line if len(line) <= WIDTH else line[:WIDTH - 3] + "...",
                       err=True)
            self._said, self._last = text, now

    def _heartbeat(self) -> None:
        """A step that runs long: say every :data:`PIPED_EVERY` seconds that it still runs."""
        while not self._stop.wait(PIPED_EVERY / 3):
            if time.monotonic() - self._last >= PIPED_EVERY:
                self._say(f"still working{', ' + self._doing if self._doing else ''}",
                          again=True)

    def __enter__(self) -> LineBar:
        self._beat.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()

    def advance(self, what: str | None = None, steps: float = 1) -> None:
        self._done += steps
        self._say(what or "working")

    def update(self, what: str | None = None, *, completed: float | None = None,
               total: float | None = None) -> None:
        if total is not None:
            self._total = total
        if completed is not None:
            self._done = completed
        if what:  # a phase: said when it starts
            self._doing = what
            self._say(what)
        elif completed is not None and self._total:  # a count: said now and then
            self._say(f"{self._done:,.0f} of {self._total:,.0f}", every=PIPED_EVERY)


def on_terminal() -> bool:
    """Whether standard error is a terminal (where a progress display belongs)."""
    return bool(getattr(sys.stderr, "isatty", lambda: False)())


@contextmanager
def progress(what: str, *, total: float | None = None, quiet: bool = False) -> Iterator[Bar]:
    """A progress display on standard error: a bar with a count when ``total`` is known,
    else a spinner with the elapsed time; plain lines (:class:`LineBar`) when standard
    error is not a terminal; a silent :class:`Bar` with ``quiet``."""
    if quiet:
        yield Bar()
        return
    if not on_terminal():
        with LineBar(what, total) as lines:
            yield lines
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
    # piped with ``verbose``, the verbose lines are the progress
    with progress(what, total=total, quiet=quiet or (verbose and not on_terminal())) as bar:
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


__all__ = ["PIPED_AFTER", "Bar", "LineBar", "on_terminal", "progress", "steps"]
