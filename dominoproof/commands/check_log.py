"""``dominoproof check-log``: another engine's rounds, checked against a variant."""

from __future__ import annotations

import click

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.options import overrides_option, resolve_variant


@click.command("check-log", short_help="Check another engine's logged rounds against a "
               "variant: agrees, or the first deviation and its rule.")
@click.option("--format", "fmt", type=click.Choice(["trace"]), default="trace",
              show_default=True, help="How the log is written (trace: dominoproof's trace "
                                      "JSON, a list of them, or JSON Lines).")
@click.argument("log_file", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("variant", metavar="VARIANT|FILE")
@overrides_option
@json_option
def command(fmt: str, log_file: str, variant: str, overrides: tuple[str, ...],
            as_json: str | None) -> None:
    """Replay every round of FILE under VARIANT, from its logged deal. Moves the rules
    force and the log leaves out (R4.2 confirmations, the R4.4 establishment, the domino)
    are inserted. Per round: agrees, or the first step that deviates, with the rule ID,
    the logged move and its mover, the legal moves and the open ends. Exit code: 0 every
    round agrees, 1 one deviates, 2 bad input.
    """
    from pathlib import Path

    from dominoproof.checklog import check_log
    from dominoproof.model.errors import TraceError

    v = resolve_variant(variant, overrides)
    try:
        text = Path(log_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TraceError(f"{log_file}: cannot read the log ({e.__class__.__name__})") from None
    report = check_log(v, text, log_file, fmt)
    if as_json:
        emit("check-log", report.to_json(), as_json)
    if text_too(as_json):
        lines = [f"check-log {log_file} against {v.name}: {len(report.rounds)} round(s)"]
        for r in report.rounds:
            if r.deviation is None:
                lines.append(f"  round {r.index}: agrees ({r.moves} moves, {r.expanded} "
                             f"implicit, {r.status})")
                continue
            d = r.deviation
            who = f"P{d.mover}" if d.mover is not None else "-"
            lines.append(f"  round {r.index}: DEVIATES at step {d.step} ({d.rule}): "
                         f"{d.message}")
            lines.append(f"    logged: {d.logged} (mover {who}); ends {d.ends or '-'}; "
                         f"legal: {', '.join(d.legal) or 'none'}")
            if d.score:
                lines.append(f"    score: logged {d.score['logged']}, ours {d.score['ours']}")
        by = report.deviations
        lines.append(f"summary: {len(report.rounds) - sum(by.values())} agree, "
                     f"{sum(by.values())} deviate"
                     + ("" if not by else " (" + ", ".join(f"{k}: {n}" for k, n in
                                                          sorted(by.items())) + ")"))
        click.echo("\n".join(lines))
    raise SystemExit(report.exit_code)
