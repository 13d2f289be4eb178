"""``dominoproof check-log``: another engine's rounds, checked against a variant."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from dominoproof.api import check_log
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.options import (
    overrides_option,
    resolve_variant,
    verbosity,
    verbosity_options,
    width,
    wrap,
)
from dominoproof.proofs.analysis.logformats import FORMATS

if TYPE_CHECKING:
    from dominoproof.proofs.analysis.checklog import LogCheck


@click.command("check-log", short_help="Check another engine's logged rounds against a "
               "variant: agrees, or the first deviation and its rule.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="trace",
              show_default=True,
              help="How the log is written: trace (dominoproof's trace JSON, a list of "
                   "them, or JSON Lines), openspiel (OpenSpiel's python_block_dominoes and "
                   "python_team_dominoes: a JSON line per round with the game and its "
                   "action history), dominoes (the dominoes package's Game: a JSON line "
                   "per round with its moves, hands and result); see docs/CHECKLOG.md.")
@click.argument("log_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("variant", metavar="VARIANT|FILE")
@overrides_option
@verbosity_options
@json_option
def command(fmt: str, log_file: str, variant: str, overrides: tuple[str, ...], quiet: bool,
            verbose: bool, as_json: str | None) -> None:
    """Replay every round of FILE under VARIANT, from its logged deal. Moves the rules
    force and the log leaves out (R4.2 confirmations, the R4.4 establishment, the domino)
    are inserted. Per round: agrees, or the first step that deviates, with the rule ID,
    the logged step and its mover, the legal moves, the open ends and the score. -q
    prints the summary only, -v the moves inserted in each round and every legal move.
    Exit code: 0 every round agrees, 1 one deviates, 2 bad input.
    """
    report = check_log(log_file, resolve_variant(variant, overrides), format=fmt)
    if as_json:
        emit("check-log", report.to_json(), as_json)
    if text_too(as_json):
        click.echo(render(report, verbosity(quiet, verbose)))
    raise SystemExit(report.exit_code)


def _implicit(counts: dict[str, int]) -> str:
    names = {"confirm": "R4.2 confirmation(s)", "establish": "R4.4 establishment(s)",
             "domino": "domino(es)"}
    return ", ".join(f"{n} {names.get(k, k)}" for k, n in sorted(counts.items()) if n) \
        or "none"


def render(report: LogCheck, level: int = 0) -> str:
    """The report as text, wrapped to the terminal (:func:`~dominoproof.options.width`):
    ``level`` -1 the summary only, 0 a line per round and each deviation's detail, 1 also
    the moves inserted per round and every legal move."""
    cols = width()
    lines: list[str] = []

    def put(text: str, indent: str = "", more: str = "    ") -> None:
        lines.extend(wrap(text, cols, indent, indent + more))

    if level >= 0:
        put(f"check-log {report.source} ({report.format}) against {report.variant}: "
            f"{len(report.rounds)} round(s)")
    for r in report.rounds if level >= 0 else ():
        at = f" ({r.game}, {r.where.rpartition(': ')[2]})" if r.game != "dominoproof" else ""
        if r.deviation is None:
            put(f"round {r.index}{at}: agrees ({r.moves} moves, {r.expanded} implicit, "
                f"{r.status})", "  ")
        else:
            d = r.deviation
            who = f"P{d.mover}" if d.mover is not None else "-"
            put(f"round {r.index}{at}: DEVIATES at step {d.step} ({d.rule}): {d.message}",
                "  ")
            if d.score:
                put(f"score per {d.score['per']}: logged {d.score['logged']}, ours "
                    f"{d.score['ours']} (ends {d.ends or '-'}, {r.status})", "    ")
            else:
                legal = d.legal if level > 0 or len(d.legal) <= 8 else \
                    [*d.legal[:8], f"... {len(d.legal) - 8} more (-v)"]
                put(f"logged: {d.logged} (mover {who}); ends {d.ends or '-'}; legal: "
                    f"{', '.join(legal) or 'none'}", "    ")
        if level > 0:
            put(f"implicit: {_implicit(r.implicit)}", "    ")
    by = report.deviations
    put(f"summary: {len(report.rounds) - sum(by.values())} agree, {sum(by.values())} "
        "deviate" + ("" if not by else " (" + ", ".join(f"{k}: {n}" for k, n in
                                                       sorted(by.items())) + ")")
        + f"; implicit moves inserted: {_implicit(report.implicit)}")
    return "\n".join(lines)
