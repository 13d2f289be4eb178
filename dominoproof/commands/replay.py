"""``dominoproof replay``: read a JSON trace, replay it with every legality check, tell it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from dominoproof.api import replay
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.errors import TraceError
from dominoproof.render.text import render_round

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace


@click.command("replay",
               short_help="Replay a JSON trace with every legality check, and tell it.")
@click.argument("trace_file", metavar="TRACE.json", type=click.Path(dir_okay=False))
@json_option
def command(trace_file: str, as_json: str | None) -> None:
    """Replay the round recorded in TRACE.json (written by `dominoproof play --json`)
    and print it as `play` does.

    Every move is checked against the rules of the trace's own variant (or, for a
    counterexample `verify --traces` wrote for a deliberately broken rule set, against
    the broken rule book the trace names); the deal must be a deal of that variant (each
    tile once, hands of the right size) and the recorded final state must be reached. A
    trace that does not replay is bad input: one located message, exit code 2.
    """
    try:
        trace = replay(trace_file)  # the deal is the variant's, every move legal
    except (ValueError, KeyError, TypeError, IndexError) as e:
        # whatever the field checks let through is still the trace's fault, not a crash
        raise TraceError(f"{trace_file}: malformed trace ({e!r})") from None
    if as_json:
        emit("replay", {"source": trace_file, "variant": trace.variant.name,
                        "checked_moves": len(trace.moves), "trace": trace.to_json()}, as_json)
    if text_too(as_json):
        click.echo(render_round(trace, title=_title(trace_file, trace)), nl=False)


def _title(path: str, trace: Trace) -> str:
    seed = f", seed {trace.seed}" if trace.seed is not None else ""
    if trace.rules is not None:  # a fault's counterexample: say whose rules it follows
        return (f"Replay of {path}: {trace.variant.name}{seed} under the deliberately "
                f"broken rule book {type(trace.rules).__name__} (a fault's "
                f"counterexample; {len(trace.moves)} moves, each checked legal under it)")
    return (f"Replay of {path}: {trace.variant.name}{seed} "
            f"({len(trace.moves)} moves, each checked legal)")
