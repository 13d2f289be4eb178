"""The ``dominoproof`` command line.

Every command lives in ``dominoproof/commands/<name>.py`` (``check-log`` in
``check_log.py``) and is loaded by name when it runs, so one command loads only the
modules it needs.
Errors a user can cause (a bad variant file, an unknown preset, an illegal
move in a trace) are printed as one located message with exit code 2 and no
traceback; nothing is written when the input is bad.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import Any, NoReturn

import click

from dominoproof import __version__, commands
from dominoproof.model.errors import DominoproofError, one_line
from dominoproof.proofs.readings import ReadingsDisagree

#: Exit codes: 0 success; 1 a property is violated (or not as expected); 2 bad input;
#: 3 a verdict is UNKNOWN (budget or timeout), where the command reports verdicts.
EXIT_VIOLATED, EXIT_USAGE, EXIT_UNKNOWN = 1, 2, 3


class _Group(click.Group):
    """The commands of ``dominoproof/commands/``, each module loaded when its command
    runs (or when ``--help`` lists it); turns every DominoproofError, and every usage
    error click finds (a bad option value, an unknown option or command), into one line
    and exit code 2; two readings of the rules that disagree into one line naming them
    and exit code 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(info.name.replace("_", "-")
                      for info in pkgutil.iter_modules(commands.__path__))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.list_commands(ctx):
            return None
        module = importlib.import_module(f"{commands.__name__}.{cmd_name.replace('-', '_')}")
        command: click.Command = module.command
        return command

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            _usage(e, info_name or "dominoproof")

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            _usage(e, ctx.command_path)
        except DominoproofError as e:
            click.echo(f"dominoproof: error: {one_line(str(e))}", err=True)
            ctx.exit(EXIT_USAGE)
        except ReadingsDisagree as e:  # a defect of the tool, named: never a traceback
            click.echo(f"dominoproof: {one_line(str(e))}", err=True)
            ctx.exit(EXIT_VIOLATED)
        except OSError as e:  # an output that cannot be written after the work: a full disk
            where = f"{e.filename}: " if e.filename else ""
            click.echo(f"dominoproof: error: could not write {one_line(where)}"
                       f"{e.strerror or e}", err=True)
            ctx.exit(EXIT_USAGE)


def _usage(e: click.UsageError, path: str) -> NoReturn:
    where = e.ctx.command_path if e.ctx is not None else path
    click.echo(f"dominoproof: error: {where}: {one_line(e.format_message())} "
               f"(see {where} --help)", err=True)
    sys.exit(EXIT_USAGE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="dominoproof")
def main() -> None:
    """Make the rules of a domino round, above all how it ends blocked, executable,
    checkable and provable (rule IDs refer to RULES.md)."""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
