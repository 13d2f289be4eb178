"""``dominoproof explore``: every reachable state of a small configuration, the figures of
the search and the verdict of every property of the catalogue.

Which initial states (``Init``, docs/SEMANTICS.md):

* default: one deal, the deal of ``dominoproof play --seed S`` (``--seed``, 0), with
  its boneyard in the order it was shuffled;
* ``--deal TEXT|FILE``: one deal written out, ``"P0: 6-6 0-3 ...; P1: 0-2 ...;
  stack: 3-6 3-3 ...; aside: ..."`` (the stack is the boneyard, top first; a Spin
  model's header can be pasted as it is), or a JSON file holding a trace's
  ``deal``;
* ``--all-deals``: every deal of the set (only for small sets: the number of deals
  is computed first, and a configuration with too many is refused with advice);
* ``--free-draw`` (with any of the above): a draw may take any boneyard tile, so
  every draw order is explored.

``--set-max N``, ``--players P`` and ``--hand-size H`` are shorthands for ``-o
set.max=N``, ``-o deal.players=P``, ``-o deal.hand_size=H``; where the variant's
lead names a tile the smaller set lacks, the lead tile becomes the set's highest
double (said in the output). ``--fault ID`` explores a deliberately broken rule
set of ``proofs/faults.py`` instead of the variant's own.

Exit codes: 0 every applicable property holds, 1 one is violated, 2 bad input, 3 one
is UNKNOWN (a budget stopped the search).
"""

from __future__ import annotations

import dataclasses
import os
import textwrap
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table
from rich.text import Text

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.dealtext import format_deal, parse_deal
from dominoproof.model.engine import seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import system_under_test
from dominoproof.model.layout import layout_of
from dominoproof.model.moves import said
from dominoproof.model.spec import Init, count_deals
from dominoproof.model.tiles import tile_count
from dominoproof.model.variant import DrawRule, Sizes
from dominoproof.options import (
    PositiveNumber,
    check_output_path,
    cluster_options,
    indented,
    overrides_option,
    resolve_variant,
    variant_argument,
    verbosity,
    verbosity_options,
    width,
    write_out,
)
from dominoproof.progress import progress
from dominoproof.proofs.budgets import EXPLORE_MAX_STATES, EXPLORE_POOL_FROM, FEASIBLE_DEALS
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import BY_ID, Verdict, find_property
from dominoproof.proofs.runner import cluster_spec
from dominoproof.proofs.search.check import checked_verdict, round_bound
from dominoproof.proofs.search.statespace import feasibility
from dominoproof.proofs.search.verification import verify
from dominoproof.render.graph import (
    HIGHLIGHTS,
    check_tiny,
    graph_scene,
    highlight_for,
    to_dot,
    write_graphml,
)
from dominoproof.render.scene import require_matplotlib
from dominoproof.render.text import final_table, simple_table, table_text

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace
    from dominoproof.model.variant import Variant
    from dominoproof.proofs.properties import Result
    from dominoproof.proofs.search.verification import Verification

#: Below this many deals, --all-deals runs in one process (a pool costs more than it saves).
POOL_FROM = EXPLORE_POOL_FROM


@click.command("explore", short_help="Exhaustive search of a small configuration: figures "
               "and the verdict of every property.")
@variant_argument
@overrides_option
@click.option("--set-max", type=int, default=None, metavar="N",
              help="The set is double-N (shorthand for -o set.max=N).")
@click.option("--players", type=int, default=None, metavar="P",
              help="Number of players (shorthand for -o deal.players=P).")
@click.option("--hand-size", type=int, default=None, metavar="H",
              help="Tiles dealt to each player (shorthand for -o deal.hand_size=H).")
@click.option("--seed", type=int, default=None,
              help="One deal: the deal of `dominoproof play --seed S` [default: 0].")
@click.option("--deal", "deal_text", default=None, metavar="TEXT|FILE",
              help="One deal written out: 'P0: 6-6 0-3 ...; P1: ...; stack: 3-6 ...' "
                   "(stack = the boneyard, top first; aside = tiles set aside), or a JSON "
                   "file holding a trace's deal.")
@click.option("--all-deals", is_flag=True, help="Every deal of the set (small sets only).")
@click.option("--free-draw", is_flag=True,
              help="Every draw order: a draw may take any boneyard tile.")
@click.option("--max-states", type=click.IntRange(min=1), default=EXPLORE_MAX_STATES,
              show_default=True, help="State budget: beyond it the search stops, UNKNOWN.")
@click.option("--max-seconds", type=PositiveNumber(), default=None,
              help="Time budget in seconds: beyond it the search stops, UNKNOWN.")
@click.option("--workers", type=click.IntRange(min=0), default=0, show_default=True,
              help="Processes for --all-deals (0: the machine's cores when there are at "
                   f"least {POOL_FROM:,} deals, else 1).")
@cluster_options
@click.option("--parts", type=click.IntRange(min=1), default=None, metavar="N",
              help="--all-deals: split the deals into N parts (default: one per worker); "
                   "the figures and verdicts depend on the parts, never on where they ran.")
@click.option("--scratch", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="--all-deals by parts: the folder of the parts' files for the exact "
                   "merge (default: a temporary folder here; on a cluster of several "
                   "machines, a folder every worker shares).")
@click.option("-p", "--property", "property_ids", multiple=True, metavar="ID",
              help="Check only this property (repeatable; default: the whole catalogue).")
@click.option("--fault", "fault_id", default=None, metavar="ID",
              help="Explore a broken rule set of proofs/faults.py (engine, scoring or "
                   "variant fault) instead of the variant's own rules.")
@click.option("--dot", "dot_file", type=click.Path(dir_okay=False), default=None,
              help="Write the state graph as Graphviz DOT (tiny configurations).")
@click.option("--svg", "svg_file", type=click.Path(dir_okay=False), default=None,
              help="Write the state graph as SVG, drawn by dominoproof (no Graphviz "
                   "needed): a legend, a viewBox, the --highlight path.")
@click.option("--png", "png_file", type=click.Path(dir_okay=False), default=None,
              help="Write the same picture as PNG (needs the plots extra: pip install "
                   "'dominoproof[plots]').")
@click.option("--highlight", default="auto", show_default=True, metavar="WHAT",
              help="The path drawn over the graph: auto (the first counterexample, else a "
                   "shortest blocked round), blocked or domino (a shortest round ending so: "
                   "a witness), a property ID (its counterexample), or none.")
@click.option("--graphml", "graphml_file", type=click.Path(dir_okay=False), default=None,
              help="Write the state graph as GraphML (tiny configurations).")
@click.option("--traces", "trace_dir", type=click.Path(file_okay=False), default=None,
              help="Write each counterexample as a JSON trace into this folder.")
@verbosity_options
@json_option
def command(variant: str, overrides: tuple[str, ...], set_max: int | None,
            players: int | None, hand_size: int | None, seed: int | None,
            deal_text: str | None, all_deals: bool, free_draw: bool, max_states: int,
            max_seconds: float | None, workers: int, cluster: str | None,
            scheduler: str | None, parts: int | None, scratch: str | None,
            property_ids: tuple[str, ...],
            fault_id: str | None, dot_file: str | None, svg_file: str | None,
            png_file: str | None, highlight: str, graphml_file: str | None,
            trace_dir: str | None, quiet: bool, verbose: bool, as_json: str | None) -> None:
    """Explore every reachable state of a configuration of VARIANT (one deal by default;
    --all-deals, --free-draw for more) breadth first, print the figures of the search
    (states, transitions, terminal states by kind, distinct complete rounds, shortest
    and longest round, speed, memory) and the verdict of every property of the
    catalogue: HOLDS (every state examined), VIOLATED (with a shortest counterexample,
    replayable), UNKNOWN (a budget stopped the search) or N/A. --dot/--svg/--png/--graphml
    draw the state graph of a tiny configuration for teaching, with a counterexample or
    a witness round highlighted (--highlight). On a terminal a progress
    display runs during the search (counting the parts done, by parts); -q prints the
    verdicts only, -v each verdict's figures too. --all-deals runs by parts on a local
    process pool (--workers), or on a Dask cluster: --cluster local:N starts one here,
    --scheduler ADDRESS joins one (docs/CLUSTER.md).
    """

    chosen = sum(x is not None and x is not False for x in (seed, deal_text, all_deals or None))
    if chosen > 1:
        raise DominoproofError("--seed, --deal and --all-deals exclude each other: one deal "
                               "(seeded or written out), or every deal")
    spec = cluster_spec(cluster, scheduler)
    for given, option in ((spec.distributed, "--cluster" if cluster else "--scheduler"),
                          (parts is not None, "--parts"), (scratch is not None, "--scratch")):
        if given and not all_deals:
            raise DominoproofError(f"{option}: applies to --all-deals only (one deal is "
                                   "searched in one process)")
    if scratch is not None and not Path(scratch).is_dir():
        raise DominoproofError(f"--scratch {scratch}: no such folder")
    v, notes = _variant(variant, overrides, set_max, players, hand_size)
    engine = scorer = None
    if fault_id is not None:
        fault = FAULTS_BY_ID.get(fault_id)
        if fault is None:
            raise DominoproofError(f"--fault {fault_id!r}: no such fault; known: "
                                   + ", ".join(FAULTS_BY_ID))
        if fault.variant_overrides:
            v = v.with_overrides(dict(fault.variant_overrides), source=f"fault {fault_id}")
        engine, scorer = fault.engine, fault.scorer
        notes.append(f"fault {fault.id}: {fault.description} (caught by: "
                     f"{', '.join(fault.catches)})")
    for pid in property_ids:
        find_property(pid)
    for out_file, option in ((dot_file, "--dot"), (svg_file, "--svg"), (png_file, "--png"),
                             (graphml_file, "--graphml")):
        check_output_path(out_file, option)
    if highlight not in HIGHLIGHTS and highlight not in BY_ID:
        raise DominoproofError(f"--highlight {highlight}: no such choice (allowed: "
                               f"{', '.join(HIGHLIGHTS)} or a property ID: "
                               f"{', '.join(BY_ID)})")
    if png_file is not None:
        require_matplotlib("--png")
    if trace_dir is not None and Path(trace_dir).exists() and not Path(trace_dir).is_dir():
        raise DominoproofError(f"--traces {trace_dir}: not a folder")

    if all_deals:
        init = Init.every(free_draw)
        how = ""
    elif deal_text is not None:
        init = Init.one(parse_deal(v, deal_text, free_draw=free_draw), free_draw)
        how = " (--deal)"
    else:
        init = Init.one(seeded_deal(v, seed or 0), free_draw)
        how = f" (seed {seed or 0})"
    drawing = bool(dot_file or svg_file or png_file or graphml_file)
    if spec.distributed and drawing:
        raise DominoproofError("--dot/--svg/--png/--graphml draw one graph: not with "
                               "--cluster or --scheduler")
    ok, why = feasibility(v, init)
    if not ok and not spec.distributed:
        raise DominoproofError(f"{v.name}: {why}")
    if workers == 0:
        many = init.deal is None and count_deals(v, free_draw) >= POOL_FROM
        workers = (os.cpu_count() or 1) if many and not drawing else 1
    chosen_by = ("the deal given" if deal_text is not None else
                 None if all_deals else f"the deal of seed {seed or 0}")
    with (spec.open() if spec.distributed else nullcontext()) as runner:
        if runner is not None:
            # a cluster takes as many deals per worker as this machine takes in all
            deals = count_deals(v, free_draw)
            if deals > FEASIBLE_DEALS * runner.workers:
                raise DominoproofError(f"{v.name}: {deals:,} deals: too many for "
                                       f"{runner.describe()} (at most {FEASIBLE_DEALS:,} "
                                       "per worker)")
            why = f"{why}; on {runner.describe()}" if ok else f"{deals:,} deals; on " \
                f"{runner.describe()}"
        by_parts = init.deal is None and (workers > 1 or runner is not None
                                          or parts is not None)
        total = parts or (runner.workers if runner is not None else workers)
        with progress(f"exploring {v.name}", total=total if by_parts else None,
                      quiet=quiet) as bar:
            def part_done(k: int, n: int) -> None:
                bar.update(f"exploring {v.name}: {k} of {n} parts done", completed=k)

            ver = verify(v, init, engine=engine, scorer=scorer,
                         properties=property_ids or None, max_states=max_states,
                         max_seconds=max_seconds, workers=workers, inapplicable=True,
                         how=chosen_by, runner=runner, parts=parts, scratch=scratch,
                         on_part=part_done)

    written = _draw(ver, highlight, dot_file, svg_file, png_file, graphml_file) if drawing else []
    if trace_dir is not None:
        folder = Path(trace_dir)
        folder.mkdir(parents=True, exist_ok=True)
        for r in ver.results:
            if r.trace is not None:
                trace = r.trace
                if engine is not None and trace.rules is None:
                    # a fault's round names its rule book, so `dominoproof replay` replays it

                    trace = dataclasses.replace(trace, rules=system_under_test(v, engine))
                path = folder / f"{r.property}.json"
                write_out(path, trace.dumps() + "\n")
                written.append(str(path))

    if as_json:
        data: dict[str, Any] = {"variant": v.to_dict(), "initial_states": init.describe() + how,
                                "feasibility": why, "notes": notes, **ver.to_json()}
        emit("explore", data, as_json)
    if text_too(as_json):
        click.echo(render(v, init, how, why, notes, ver, written,
                          verbosity(quiet, verbose)))
    overall = ver.verdict
    if overall is Verdict.VIOLATED:
        raise SystemExit(1)
    if overall is Verdict.UNKNOWN:
        raise SystemExit(3)


def _variant(name: str, overrides: tuple[str, ...], set_max: int | None,
             players: int | None, hand_size: int | None) -> tuple[Variant, list[str]]:
    """The variant with -o applied, then resized by the shorthands: every parameter that
    depends on the sizes follows them as its own metadata says (a lead tile the smaller
    set lacks becomes its highest double, ...), each change a note."""
    v = resolve_variant(name, list(overrides))
    if set_max is None and players is None and hand_size is None:
        return v, []
    n = v.n if set_max is None else set_max
    p = v.players if players is None else players
    hand = v.deal.hand_size if hand_size is None else hand_size
    rest = v.draw.rule is DrawRule.NONE or v.raw.get("deal", {}).get("set_aside") == "rest"
    aside = max(0, tile_count(n) - p * hand) if rest else v.deal.set_aside
    return v.resized(Sizes(n, p, hand, aside), source="<command line>")


def _draw(ver: Verification, highlight: str, dot_file: str | None, svg_file: str | None,
          png_file: str | None, graphml_file: str | None) -> list[str]:
    result = ver.result
    if result is None:  # pragma: no cover - drawing runs in one process
        raise DominoproofError("the state graph is drawn only from a one-process search")
    check_tiny(result)
    path = highlight_for(ver, highlight)
    out = []
    if dot_file:
        write_out(dot_file, to_dot(result, highlight=path))
        out.append(dot_file)
    if svg_file or png_file:
        scene = graph_scene(result, path)
        if svg_file:
            write_out(svg_file, scene.svg())
            out.append(svg_file)
        if png_file:
            write_out(png_file, scene.png())
            out.append(png_file)
    if path is not None:
        out.append(f"(highlighted: {path.label})")
    if graphml_file:
        write_graphml(result, graphml_file)
        out.append(graphml_file)
    return out


def _kinds(d: dict[str, int] | None, unit: str = "") -> str:
    if d is None:
        return "unknown (partial search)"
    if not d:
        return "none"
    return " · ".join(f"{k} {v:,}{unit}" for k, v in d.items())


def render(v: Variant, init: Init, how: str, feasible: str, notes: list[str],
           ver: Verification, written: list[str], level: int = 0) -> str:
    """The figures, the verdicts and the counterexamples, as text: ``level`` -1 the
    verdicts only, 1 each verdict's figures too."""
    if level < 0:
        return "\n".join(f"{r.property}: {r.verdict.value}" for r in ver.results)

    f = ver.figures
    out = [f"{v.name}: {init.describe()}{how}"]
    if v.description:
        out += textwrap.wrap(v.description, width(), initial_indent="  ", subsequent_indent="  ")
    if init.deal is not None:
        out += textwrap.wrap(format_deal(init.deal), width(), initial_indent="  deal: ",
                             subsequent_indent="        ")
    out.append(f"  initial states: {feasible}")
    out += [f"  note: {n}" for n in notes]
    out.append("")

    status = "complete" if f.complete else f"PARTIAL: {f.stop_reason}"
    bound, _ = round_bound(v)
    rows = [
        ("search", f"{status}; breadth first, exact visited set"
         + (f"; {f.parts} parts on {f.workers} processes" if f.parts > 1 else "")),
        ("deals", f"{f.deals:,} initial state(s)" + (
            f"; {ver.coverage.method()}" if ver.coverage is not None else "")),
        ("states", f"{f.states:,} ({f.expanded:,} expanded)"
         + (f"; {f.states_in_parts:,} summed over the parts" if f.states_in_parts else "")),
        ("transitions", f"{f.transitions:,}"),
        ("terminal states", _kinds(f.terminals)),
        ("complete rounds", _kinds(f.sequences)
         + (f" ({f.sequences_total:,} in all)" if f.sequences else "")),
        ("shortest round", _kinds(f.shortest, " moves")),
        ("longest round", _kinds(f.longest, " moves") + f" (bound from the rules: {bound})"),
        ("BFS depth", f"{f.depth}"),
        ("acyclic", {True: "yes", False: "NO: a round can go on for ever",
                     None: "unknown"}[f.acyclic]),
        ("time", f"search {f.seconds:.2f} s ({f.states_per_second:,.0f} states/s); "
         f"properties {ver.check_seconds:.2f} s"
         + (f"; {f.wall_seconds:.2f} s wall on {f.workers} processes, merge included"
            if f.wall_seconds is not None else "")),
        ("memory", f"peak RSS {f.peak_rss_mb:,.0f} MiB; visited set and graph "
         f"≈ {f.visited_mb:,.1f} MiB"),
    ]
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    for k, val in rows:
        table.add_row(Text(k), Text(val))
    out.append(table_text(table))
    out.append("")

    verdicts = simple_table("property", "verdict")
    verdicts.add_column("rules", max_width=18)
    verdicts.add_column("detail", ratio=1)
    for r in ver.results:
        shown = r.verdict.value
        if "checked anyway" in r.stats:
            shown += f" ({checked_verdict(r).value} if checked)"
        verdicts.add_row(Text(r.property), Text(shown), Text(" ".join(BY_ID[r.property].rules)),
                         Text(r.detail))
    out.append(table_text(verdicts))
    if level > 0:
        out.append("")
        out += [f"{r.property}: " + ", ".join(f"{k} = {x}" for k, x in sorted(r.stats.items()))
                for r in ver.results if r.stats]
    for r in ver.results:
        if r.trace is not None:
            out.append("")
            out += _counterexample(r, r.trace)
    if written:
        out.append("")
        out += [w if w.startswith("(") else f"wrote {w}" for w in written]
    return "\n".join(out)


def _counterexample(r: Result, trace: Trace) -> list[str]:
    states = trace.states()
    lines = [f"counterexample to {r.property}: {len(trace.moves)} move(s) from the deal"]
    lines += textwrap.wrap(format_deal(trace.deal), width(), initial_indent="  deal: ",
                           subsequent_indent="        ")
    layout = layout_of(trace.variant)
    for n, m in enumerate(trace.moves, 1):
        lines.append(f"  {n:3}. {said(layout, states[n - 1], m)}")
    lines.append("  where it fails:")
    lines += indented(states[-1].describe(), "    ")
    lines += final_table(trace)
    lines += textwrap.wrap(r.detail, width(), initial_indent="  why: ",
                           subsequent_indent="       ")
    return lines
