"""``dominoproof draw``: the layout of a round as it lies on the table, as SVG (or PNG).

The round is a trace file (``play --json``, ``verify --traces``, ``explore --traces``:
a fault's round replays under its rule book) or the seeded round of a variant (the
round of ``dominoproof play VARIANT --seed S``). ``--move N`` draws the layout after
the first N moves (default: the whole round); ``--steps DIR`` writes one picture per
tile laid. The picture is :func:`dominoproof.render.table.round_scene`: tiles with
pips, each slot of the layout an arm from the lead, each open end marked with the number
it shows.
"""

from __future__ import annotations

from pathlib import Path

import click

from dominoproof.api import play, replay
from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import MoveKind
from dominoproof.options import (
    check_output_folder,
    check_output_path,
    overrides_option,
    resolve_variant,
    write_out,
)
from dominoproof.render.scene import require_matplotlib
from dominoproof.render.table import round_scene


@click.command("draw", short_help="The layout of a round (a trace, or a seeded round) as "
                                  "SVG or PNG: tiles with pips, open ends marked.")
@click.argument("source", metavar="TRACE.json|VARIANT|FILE")
@overrides_option
@click.option("--seed", type=int, default=None,
              help="A variant's round: the round of `dominoproof play VARIANT --seed S` "
                   "[default: 0].")
@click.option("--move", "upto", type=click.IntRange(min=0), default=None, metavar="N",
              help="Draw the layout after the first N moves [default: the whole round].")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False), default=None,
              help="Write the picture as SVG [default: SVG on standard output].")
@click.option("--png", "png_file", type=click.Path(dir_okay=False), default=None,
              help="Write the picture as PNG (needs the plots extra: pip install "
                   "'dominoproof[plots]').")
@click.option("--steps", "steps_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR",
              help="Write one SVG per tile laid into DIR (move-007.svg: the layout after "
                   "move 7).")
def command(source: str, overrides: tuple[str, ...], seed: int | None, upto: int | None,
            svg_file: str | None, png_file: str | None, steps_dir: str | None) -> None:
    """Draw the layout of a round: SOURCE is a trace file (a .json file, replayed with
    every legality check) or a variant (a preset, an alias or a TOML file) whose seeded
    round is drawn. Exit codes: 0 drawn, 2 bad input (a trace that does not replay, a
    move beyond the round, a missing output folder)."""

    for out, option in ((svg_file, "--svg"), (png_file, "--png")):
        check_output_path(out, option)
    check_output_folder(steps_dir, "--steps")
    if png_file is not None:
        require_matplotlib("--png")
    if source.endswith(".json"):
        if overrides or seed is not None:
            raise DominoproofError(f"{source}: a trace is drawn as it is (-o and --seed "
                                   "apply to a variant's seeded round)")
        trace = replay(source)
    else:
        trace = play(resolve_variant(source, overrides), seed=seed or 0)
    scene = round_scene(trace, upto)  # a move beyond the round: one located error
    if steps_dir is not None:
        folder = Path(steps_dir)
        pictures = [(n, round_scene(trace, n).svg()) for n, m in
                    enumerate(trace.moves, 1) if m.kind is MoveKind.PLAY]
        folder.mkdir(parents=True, exist_ok=True)
        for n, svg in pictures:
            write_out(folder / f"move-{n:03d}.svg", svg)
        click.echo(f"wrote {len(pictures)} pictures into {folder}", err=True)
    if png_file is not None:
        write_out(png_file, scene.png())
        click.echo(f"wrote {png_file}", err=True)
    if svg_file is not None:
        write_out(svg_file, scene.svg())
        click.echo(f"wrote {svg_file}", err=True)
    if svg_file is None and png_file is None and steps_dir is None:
        click.echo(scene.svg(), nl=False)
