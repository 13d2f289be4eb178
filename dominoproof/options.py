"""Shared command-line pieces: the variant argument, ``-o`` overrides, seeds, ``--json``.

Every command that works on a variant takes it the same way::

    @click.command("explore")
    @variant_argument
    @overrides_option
    def command(variant: str, overrides: tuple[str, ...]) -> None:
        v = resolve_variant(variant, overrides)

``VARIANT|FILE`` is a preset name, an alias or a path to a TOML file
(:func:`~dominoproof.model.variant.find_variant`). ``-o/--set KEY=VALUE``
(repeatable) overrides one parameter, ``KEY`` as ``section.key``
(``deal.players``) and ``VALUE`` read as a TOML value (``4``, ``true``,
``"6-6"``, ``[[0, 2], [1, 3]]``), falling back to the plain text (``-o
scoring.tie=split``). The result is validated again like a variant file
(:meth:`~dominoproof.model.variant.Variant.with_overrides`), so a bad value gets
the same located message as a bad file. Every error is a
:class:`~dominoproof.model.errors.DominoproofError`: the CLI prints one line and
exits with code 2.

Output fits the terminal: on a terminal, text and tables are as wide as the terminal
(``COLUMNS`` where set, else the terminal's own width: :func:`width`); piped or redirected
output is :data:`WIDTH` columns whatever the environment, and has no colour and no
progress display, so golden transcripts and CI logs are the same everywhere
(:func:`console`). ``-q/--quiet`` and ``-v/--verbose`` (:func:`verbosity_options`) say
how much a long-running command prints.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import os
import pathlib
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click
from rich.console import Console

from dominoproof.model.errors import DominoproofError
from dominoproof.model.reading import read_toml
from dominoproof.model.variant import Variant, find_variant
from dominoproof.proofs.budgets import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from dominoproof.proofs.faults import FAULTS
from dominoproof.proofs.properties import CATALOGUE

__all__ = [
    "SHOWN_AS",
    "WIDTH",
    "aligned",
    "budget_options",
    "check_output_folder",
    "check_output_path",
    "console",
    "counted",
    "indented",
    "overrides_option",
    "parse_override",
    "parse_overrides",
    "policy_option",
    "resolve_variant",
    "seed_option",
    "shown_under",
    "variant_argument",
    "verbosity",
    "verbosity_options",
    "width",
    "wrap",
    "write_out",
]

F = TypeVar("F", bound=Callable[..., Any])

#: The width of output that does not go to a terminal (a pipe, a file): it never
#: depends on the window or the environment (golden transcripts stay byte-identical).
WIDTH = 100
#: The narrowest width output is laid out for, however narrow the terminal says it is.
MIN_WIDTH = 20


#: how a report shows a round or a counterexample under its check
SHOWN_AS = "    | "
#: the columns taken by the prefixes the text being laid out will be shown under
#: (:func:`shown_under`)
_taken = 0


def width(stream: IO[str] | None = None) -> int:
    """The columns output is laid out in: on a terminal (``stream``, default standard
    output) its width -- ``COLUMNS`` where set, else what the terminal says -- and
    :data:`WIDTH` otherwise; less the prefixes it will be shown under
    (:func:`shown_under`)."""
    out = stream if stream is not None else sys.stdout
    if not getattr(out, "isatty", lambda: False)():
        return max(MIN_WIDTH, WIDTH - _taken)
    return max(MIN_WIDTH, shutil.get_terminal_size((WIDTH, 24)).columns - _taken)


def indented(text: str, prefix: str = SHOWN_AS) -> list[str]:
    """``text``'s lines, each under ``prefix`` (default: a round or a counterexample
    shown under its check, :data:`SHOWN_AS`)."""
    return [prefix + line for line in text.rstrip("\n").splitlines()]


@contextmanager
def shown_under(prefix: str = SHOWN_AS) -> Iterator[None]:
    """Lay out what is rendered inside for being shown under ``prefix`` (a round under its
    check): :func:`width` is narrower by the prefix, so the lines with it still fit."""
    global _taken
    _taken += len(prefix)
    try:
        yield
    finally:
        _taken -= len(prefix)


def wrap(text: str, cols: int | None = None, initial_indent: str = "",
         subsequent_indent: str = "") -> list[str]:
    """``text`` laid out in lines of at most ``cols`` columns (default :func:`width`),
    broken at spaces, never at a hyphen. A word longer than a whole line (a file's path,
    which depends on where the user keeps it) is broken too, so the width holds for any
    input, not only for the short words the program writes itself."""
    return textwrap.wrap(text, cols or width(), initial_indent=initial_indent,
                         subsequent_indent=subsequent_indent, break_on_hyphens=False,
                         break_long_words=True)


def aligned(rows: Sequence[Sequence[str]], right: Container[int] = ()) -> list[str]:
    """``rows`` of cells (the first: the header) as lines of columns two spaces apart,
    each as wide as its widest cell: a column whose index is in ``right`` justified
    right, the others left; no trailing spaces."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.rjust(w) if i in right else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]


def counted(n: int, what: str) -> str:
    """``n`` of ``what``, singular for one ("1 candidate", "6 candidates")."""
    return f"{n} {what}{'s' if n != 1 else ''}"


def verbosity_options(f: F) -> F:
    """``-q/--quiet`` and ``-v/--verbose``, passed as ``verbosity: int`` (-1 quiet, 0,
    1 verbose): quiet prints only the verdicts or the summary (and never a progress
    display), verbose adds the details. Both at once is bad input."""
    def pick(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
        if value and ctx.params.get("verbose" if param.name == "quiet" else "quiet"):
            raise click.UsageError("-q/--quiet and -v/--verbose exclude each other", ctx)
        return value

    f = click.option("-v", "--verbose", is_flag=True, callback=pick,
                     help="Print more: every check's detail.")(f)
    return click.option("-q", "--quiet", is_flag=True, callback=pick,
                        help="Print only the verdicts (or the summary), no progress "
                             "display.")(f)


def verbosity(quiet: bool, verbose: bool) -> int:
    """-1 quiet, 0 normal, 1 verbose (:func:`verbosity_options`)."""
    return -1 if quiet else 1 if verbose else 0

_KEY_RE = re.compile(r"[a-z][a-z_]*\.[a-z][a-z_]*")


def variant_argument(f: F) -> F:
    """The positional ``VARIANT|FILE`` argument, passed as ``variant: str``."""
    return click.argument("variant", metavar="VARIANT|FILE")(f)


def overrides_option(f: F) -> F:
    """``-o/--set KEY=VALUE`` (repeatable), passed as ``overrides: tuple[str, ...]``."""
    return click.option(
        "-o", "--set", "overrides", multiple=True, metavar="KEY=VALUE",
        help="Override one variant parameter, e.g. -o deal.players=4 -o scoring.tie=split "
             "(VALUE is read as TOML; repeatable; see `dominoproof show`).",
    )(f)


def seed_option(f: F) -> F:
    """``--seed S`` (an int, default 0), passed as ``seed: int``."""
    return click.option("--seed", type=int, default=0, show_default=True,
                        help="Seed of the random deal and moves (same seed, same output).")(f)


def cluster_options(f: F) -> F:
    """``--cluster local:N`` and ``--scheduler ADDRESS``, passed as ``cluster`` and
    ``scheduler`` (``str | None``): run the command's parts on a Dask cluster started
    here with N worker processes, or on the existing cluster whose scheduler is at
    ADDRESS; neither, the local process pool (docs/CLUSTER.md). Checked, with the
    cluster extra, before any work by :func:`dominoproof.proofs.runner.cluster_spec`."""
    f = click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="Run the parts on the Dask cluster whose scheduler is at ADDRESS "
                          "(tcp://HOST:PORT; needs the cluster extra: pip install "
                          "'dominoproof[cluster]').")(f)
    return click.option("--cluster", default=None, metavar="local:N",
                        help="Start a Dask cluster of N worker processes on this machine "
                             "and run the parts on it (needs the cluster extra).")(f)


def budget_options(f: F) -> F:
    """``--rlimit N`` and ``--timeout-ms MS``, passed as ``rlimit: int`` and
    ``timeout_ms: int``: Z3's deterministic resource limit per query (the budget that
    decides; the same verdict on a loaded machine) and the wall-clock safety net per query.
    Both must be positive (zero would mean *no limit* to Z3)."""
    f = click.option("--timeout-ms", type=click.IntRange(min=1), default=DEFAULT_TIMEOUT_MS,
                     show_default=True, metavar="MS",
                     help="Wall-clock safety net of each Z3 query, only for a machine "
                          "overloaded far beyond the calibration (its expiry is UNKNOWN, "
                          "reported as such, never a proof).")(f)
    return click.option("--rlimit", type=click.IntRange(min=1), default=DEFAULT_RLIMIT,
                        show_default=True, metavar="N",
                        help="Z3's resource limit of each query, in its deterministic work "
                             "units: the budget that decides, so verdicts do not depend on "
                             "the machine's load (running out is UNKNOWN, never a proof)."
                        )(f)


HelpList = Callable[[], tuple[str, list[tuple[str, str]]]]


class ListsInHelp(click.Command):
    """A command whose ``--help`` ends with the lists a user picks from (the property
    ids, the questions, the faults), computed when help is asked for, from the catalogue
    itself."""

    lists: tuple[str | HelpList, ...] = ()

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        for name in self.lists:
            title, items = _HELP_LISTS[name]() if isinstance(name, str) else name()
            with formatter.section(title):
                formatter.write_dl(items)


def _properties() -> tuple[str, list[tuple[str, str]]]:
    return "Properties (--property ID)", [(p.id, f"[{', '.join(p.rules)}] {p.statement}")
                                         for p in CATALOGUE]


def _faults() -> tuple[str, list[tuple[str, str]]]:
    return "Faults (--fault ID)", [(f.id, f.description) for f in FAULTS]


_HELP_LISTS: dict[str, HelpList] = {"properties": _properties, "faults": _faults}


def policy_option(f: F) -> F:
    """``--policy NAME`` (default ``random``), passed as ``policy: str`` and checked by
    :func:`dominoproof.proofs.analysis.policies.policy_named` (an unknown name: one line, exit
    2)."""
    return click.option(
        "--policy", default="random", show_default=True, metavar="NAME",
        help="How every player chooses among the legal moves (the policies are listed "
             "below; chance steps, the deal and the tile drawn, stay uniform).")(f)


def lists_in_help(*names: str | HelpList) -> type[ListsInHelp]:
    """A :class:`ListsInHelp` command class listing ``names`` (properties, faults, or a
    list of its own: the policies' is :func:`dominoproof.proofs.analysis.policies.
    help_list`) at the end of its help."""
    return type("ListsInHelp", (ListsInHelp,), {"lists": names})


class PositiveNumber(click.ParamType[float]):
    """A finite number above zero (``--seconds``): zero, negatives, NaN and infinity are
    rejected, so no budget silently means "no limit" or "nothing"."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        try:
            x = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(x) or x <= 0:
            self.fail(f"{value!r} is not a positive finite number", param, ctx)
        return x


def check_output_path(path: str | os.PathLike[str] | None, option: str) -> None:
    """An output file's folder must exist before any work is done (a long verification
    must not end in a traceback because ``--json out/report.json`` has no ``out/``).
    ``-`` (standard output) and None pass."""
    if path is None or str(path) == "-":
        return
    _check_parent(path, option)
    if pathlib.Path(path).is_dir():
        raise DominoproofError(f"{option} {_plain(str(path))}: is a folder, not a file")


def check_output_folder(path: str | os.PathLike[str] | None, option: str) -> None:
    """An output folder (``--traces DIR``) must be a folder, or not exist yet in a folder
    that does and is writable: checked before any work (the folder is made at the end)."""
    if path is None:
        return
    p = pathlib.Path(path)
    if p.exists():
        if not p.is_dir():
            raise DominoproofError(f"{option} {_plain(str(path))}: not a folder")
        if not os.access(p, os.W_OK):
            raise DominoproofError(f"{option} {_plain(str(path))}: the folder is not "
                                   "writable")
        return
    _check_parent(path, option)


def write_out(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write an output file (text as UTF-8); a failure to write it (a full disk) names the
    file, for the command line's one line (:class:`dominoproof.cli._Group`)."""
    try:
        if isinstance(data, bytes):
            pathlib.Path(path).write_bytes(data)
        else:
            pathlib.Path(path).write_text(data, encoding="utf-8")
    except OSError as e:
        if e.filename is None:
            e.filename = os.fspath(path)
        raise


def _check_parent(path: str | os.PathLike[str], option: str) -> None:
    """The folder ``path`` is to be written in exists and is writable."""
    p = pathlib.Path(path)
    folder = p.parent if str(p.parent) else pathlib.Path(".")
    if not folder.is_dir():
        raise DominoproofError(f"{option} {_plain(str(path))}: the folder "
                               f"{_plain(str(folder))} does not exist (create it first)")
    if not os.access(folder, os.W_OK):
        raise DominoproofError(f"{option} {_plain(str(path))}: the folder "
                               f"{_plain(str(folder))} is not writable")
    longest = os.pathconf(folder, "PC_NAME_MAX")
    if len(os.fsencode(p.name)) > longest:
        raise DominoproofError(f"{option} {_plain(str(path))[:60]}...: the file name is "
                               f"{len(os.fsencode(p.name))} bytes long (allowed: at most "
                               f"{longest} in {_plain(str(folder))})")


def _plain(text: str) -> str:
    """Text for a one-line message: control characters (a newline) shown escaped."""
    return text if text.isprintable() else repr(text)[1:-1]


def parse_override(text: str) -> tuple[str, Any]:
    """One ``KEY=VALUE`` into ``("section.key", value)``.

    ``VALUE`` is read as a TOML value (int, bool, string, list, inline table);
    text that is not TOML (``split``, ``6-6``) is kept as a string. Dates and
    times, which TOML also reads, are kept as the text too: no parameter is one.
    Raises :class:`DominoproofError` naming the option when the shape is wrong.
    """
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not _KEY_RE.fullmatch(key):
        output = (" -- a file to write is --output FILE" if not sep and "." in text
                  and not _KEY_RE.fullmatch(text) else "")
        raise DominoproofError(
            f"-o {_plain(text)!r}: expected KEY=VALUE with KEY as section.key "
            "(e.g. -o deal.players=4, -o scoring.tie=split; `dominoproof show VARIANT` "
            f"lists every key){output}"
        )
    raw = raw.strip()
    if not raw.isprintable():
        # TOML would read "4\nx = 5" as 4 and drop the rest without a word
        raise DominoproofError(
            f"-o {key}={_plain(raw)}: a newline or other control character in the value "
            "(allowed: one TOML value on one line, e.g. 4, true, \"6-6\", [[0, 2], [1, 3]])")
    try:
        value: Any = read_toml(f"v = {raw}", f"-o {key}", DominoproofError)["v"]
    except DominoproofError as e:
        if "not valid TOML" not in str(e):
            raise  # nested too deeply, or a number of thousands of digits
        value = raw
    if isinstance(value, datetime.date | datetime.time):
        value = raw
    return key, value


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """Every ``KEY=VALUE`` in order (a key given twice: the last one counts)."""
    return dict(parse_override(item) for item in items)


def resolve_variant(name: str, overrides: Iterable[str] = ()) -> Variant:
    """The variant named on the command line, with its ``-o`` overrides applied.

    ``name``: a preset, an alias or a TOML file. ``overrides``: the raw
    ``KEY=VALUE`` strings of ``-o``. Every failure is a located
    :class:`DominoproofError` (:class:`~dominoproof.model.errors.VariantError`
    for the variant itself).
    """
    items = list(overrides)
    variant = find_variant(name)
    if not items:
        return _warned(variant)
    source = f"{variant.source} with -o " + " -o ".join(items)
    changed = variant.with_overrides(parse_overrides(items), source=source)
    # The base's description no longer tells the whole story: say what changed.
    note = "Overridden: " + ", ".join(items) + "."
    text = f"{changed.description} {note}" if changed.description else note
    return _warned(dataclasses.replace(changed, description=text))


def _warned(v: Variant) -> Variant:
    """Print each of ``v``'s warnings (a parameter without effect, naming both keys) on
    standard error, one line each."""
    for w in v.warnings:
        click.echo(f"dominoproof: warning: {_plain(w)}", err=True)
    return v


def console(stream: IO[str] | None = None, *, stderr: bool = False,
            markup: bool = True) -> Console:
    """A rich console on ``stream`` (default: stdout/stderr), :func:`width` columns wide.

    On a terminal: its width, long lines wrapped to it, colour unless ``NO_COLOR`` is set,
    terminal controls (a progress display). Otherwise plain text of :data:`WIDTH`
    columns, lines never wrapped, so piped output and golden transcripts are the same
    everywhere.
    ``markup=False`` prints text as it is (rich would read ``[has drawn]`` as a tag).
    """
    out = stream if stream is not None else (sys.stderr if stderr else sys.stdout)
    tty = bool(getattr(out, "isatty", lambda: False)())
    colour = tty and not os.environ.get("NO_COLOR")  # https://no-color.org
    return Console(file=out, width=width(out), force_terminal=tty, no_color=not colour,
                   color_system="auto" if colour else None, highlight=False,
                   soft_wrap=not tty, emoji=False, markup=markup)
