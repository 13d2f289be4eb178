"""``dominoproof replay``: read a JSON trace, replay it with every legality check, tell it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from dominoproof.jsonout import emit, json_option, text_too

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace


@click.command("replay",
               short_help="Replay a JSON trace with every legality check, and tell it.")
@click.argument("trace_file", metavar="TRACE.json", type=click.Path(dir_okay=False))
@json_option
def command(trace_file: str, as_json: str | None) -> None:
    """Replay the round recorded in TRACE.json (written by `dominoproof play --json`)
    and print it as `play` does.

    Every move is checked against the rules of the trace's own variant; the deal
    must be a deal of that variant (each tile once, hands of the right size) and
    the recorded final state must be reached. A trace that does not replay is
    bad input: one located message, exit code 2.
    """
    from dominoproof.model.engine import Trace
    from dominoproof.model.errors import TraceError
    from dominoproof.render import render_round

    path = Path(trace_file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TraceError(f"{trace_file}: cannot read the trace ({e.__class__.__name__}: "
                         f"{getattr(e, 'strerror', None) or e})") from None
    try:
        trace = Trace.loads(text, source=trace_file)  # checks the deal is the variant's
        trace.states()  # every move replayed with apply's checks (cached for rendering)
    except TraceError as e:
        msg = str(e)
        raise TraceError(msg if msg.startswith(trace_file) else f"{trace_file}: {msg}") from None
    except (ValueError, KeyError, TypeError, IndexError) as e:
        # A deal naming tiles outside the set, and the like: still the trace's fault.
        raise TraceError(f"{trace_file}: malformed trace ({e!r})") from None
    if as_json:
        emit("replay", {"source": trace_file, "variant": trace.variant.name,
                        "checked_moves": len(trace.moves), "trace": trace.to_json()}, as_json)
    if text_too(as_json):
        click.echo(render_round(trace, title=_title(trace_file, trace)), nl=False)


def _title(path: str, trace: Trace) -> str:
    seed = f", seed {trace.seed}" if trace.seed is not None else ""
    return (f"Replay of {path}: {trace.variant.name}{seed} "
            f"({len(trace.moves)} moves, each checked legal)")
