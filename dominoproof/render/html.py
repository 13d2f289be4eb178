"""One self-contained HTML page about variants: verdicts, counterexamples drawn, figures, plots.

``dominoproof report VARIANT... -o report.html`` writes it (:func:`page`): no network is
needed to read it -- the style sheet is inline and every picture is a ``data:`` URI
(:func:`~dominoproof.render.scene.data_uri`) -- so it can be mailed, attached to a CI run or
opened from a USB stick. It has

1. the **verdict table** of :func:`dominoproof.api.verify`, one table per variant (a
   property per line, a column per method: search, Z3, all sizes, cross-check), and one
   for the deliberately broken rule sets when the self-test ran; each cell coloured
   as expected (green), not as expected (red) or not applicable (grey);
2. every **counterexample** round (a VIOLATED check's trace; rounds shared by several
   checks drawn once), step by step: each move told with its rule ID
   (:func:`dominoproof.render.text.narrate`) and, after each tile laid or marker put
   out or taken in, the layout as it lies on the table
   (:func:`dominoproof.render.table.round_scene`), then where and what fails;
3. the **statistics** of each variant under each play policy
   (:mod:`dominoproof.stats`: exact for small configurations, else sampled with 95%
   intervals);
4. the **plots** (:mod:`dominoproof.render.plots`): the probability of a block by set size and
   by number of players per policy, and the residual at a block. Without matplotlib
   (the ``plots`` extra) the page is written without them and says so.

:func:`gather` computes the statistics and plots; :func:`page` only lays out what it is
given, so a test can build a page from any report.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dominoproof.api import replay
from dominoproof.model.dealtext import format_deal
from dominoproof.model.engine import Trace
from dominoproof.model.errors import DominoproofError
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis import stats
from dominoproof.proofs.analysis.policies import POLICIES
from dominoproof.proofs.properties import Verdict
from dominoproof.render import plots as pl
from dominoproof.render.narrate import narrate
from dominoproof.render.scene import PLOTS_EXTRA, data_uri, require_matplotlib
from dominoproof.render.table import MEANINGS, round_scene
from dominoproof.render.text import figure
from dominoproof.report import grid, rows_of, verdict_line
from dominoproof.verify import Report, Row

__all__ = ["Picture", "Section", "counterexample_rounds", "gather", "page", "verdict_line"]

_ESC = html.escape


@dataclass(frozen=True)
class Picture:
    """A plot: its title, a caption, and the PNG."""

    title: str
    caption: str
    png: bytes


@dataclass
class Section:
    """What the page shows of one variant besides its verdicts."""

    variant: Variant
    figures: list[Any] = field(default_factory=list)  #: RoundFigures, one per policy
    pictures: list[Picture] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Gathering the figures and the plots
# ---------------------------------------------------------------------------


def gather(variants: Sequence[Variant], *, rounds: int, seed: int, max_exact_deals: int,
           stats: bool = True, plots: bool = True,
           progress: Callable[[str], None] | None = None) -> list[Section]:
    """Each variant's figures under every policy and its plots (exact where the
    configuration has at most ``max_exact_deals`` deals, else ``rounds`` sampled rounds
    from ``seed``). ``plots`` without matplotlib: a note instead of the plots."""
    have_mpl = True
    if plots:
        try:
            require_matplotlib("plots")
        except DominoproofError:
            have_mpl = False
    say = progress or (lambda _: None)
    out = []
    for v in variants:
        sec = Section(v)
        if stats:
            say(f"{v.name}: statistics")
            sec.figures = _figures(v, list(POLICIES), rounds, seed, max_exact_deals)
        if plots and not have_mpl:
            sec.notes.append(f"The plots are left out: matplotlib is not installed "
                             f"({PLOTS_EXTRA}).")
        elif plots:
            for axis, label in (("set-size", "set size"), ("players", "number of players")):
                values = pl.default_values(v, axis)
                say(f"{v.name}: P(block) by {label}")
                points = pl.sweep(v, axis, values, list(POLICIES), rounds=rounds, seed=seed,
                                  max_exact_deals=max_exact_deals)
                title = f"P(block) by {label}: {v.name}"
                fig = pl.block_figure(points, title)
                sec.pictures.append(Picture(title, _sweep_caption(points, rounds, seed),
                                            pl.figure_bytes(fig, "png")))
            say(f"{v.name}: residuals at a block")
            dists = pl.residual_distributions(v, list(POLICIES), rounds=rounds, seed=seed,
                                              max_exact_deals=max_exact_deals)
            title = f"The residual at a block: {v.name}"
            sec.pictures.append(Picture(
                title, "Pips left in all hands when the round blocks (R5.3), given a block; "
                + ("exact over every deal." if dists and dists[0].method == "exact" else
                   f"{rounds:,} rounds per policy from seed {seed}, 95% Wilson bands."),
                pl.figure_bytes(pl.residual_figure(dists, title), "png")))
        out.append(sec)
    return out


def _figures(v: Variant, policies: list[str], rounds: int, seed: int,
             max_exact_deals: int) -> list[Any]:
    graph = pl.exact_graph(v, max_exact_deals)
    if graph is not None:
        try:
            return [stats.figures_on_graph(graph, p) for p in policies]
        except stats.FiguresUnknown:
            pass
    return [stats.sampled_figures(v, p, rounds, seed) for p in policies]


def _sweep_caption(points: Sequence[Any], rounds: int, seed: int) -> str:
    exact = sorted({p.value for p in points if p.exact})
    sampled = sorted({p.value for p in points if not p.exact})
    parts = ["Each configuration keeps the variant's rules: " +
             "; ".join(dict.fromkeys(p.what for p in points)) + "."]
    if exact:
        parts.append(f"Exact (squares) at {', '.join(map(str, exact))}.")
    if sampled:
        parts.append(f"Sampled at {', '.join(map(str, sampled))}: {rounds:,} rounds each "
                     f"from seed {seed}, with 95% Wilson intervals.")
    return " ".join(parts)


# ---------------------------------------------------------------------------
# Counterexamples
# ---------------------------------------------------------------------------


def counterexample_rounds(report: Report) -> list[tuple[list[Row], Trace | None, str]]:
    """Each distinct counterexample round of ``report`` (VIOLATED checks with a trace),
    with the checks it breaks, replayed (a fault's under its rule book); a round that
    does not replay comes with the reason instead."""
    groups: dict[str, list[Row]] = {}
    for r in report.rows:
        if r.verdict == Verdict.VIOLATED.value and r.trace is not None and "variant" in r.trace:
            groups.setdefault(json.dumps(r.trace, sort_keys=True), []).append(r)
    out: list[tuple[list[Row], Trace | None, str]] = []
    for rows in groups.values():
        try:
            out.append((rows, replay(rows[0].trace or {}), ""))
        except DominoproofError as e:
            out.append((rows, None, str(e)))
    return out


def _round_html(rows: list[Row], trace: Trace | None, why: str,
                drawn: list[str] | None = None) -> str:
    """A counterexample round step by step; ``drawn`` collects the layout pictures'
    SVG (the page's legend names what they draw)."""
    head = rows[0]
    checks = ", ".join(f"{r.property} ({r.part})" for r in rows)
    expected = "as expected" if all(r.ok for r in rows) else "not as expected"
    out = [f'<section class="round"><h3>{_ESC(head.subject)}: {_ESC(checks)} '
           f'<span class="bad">VIOLATED</span> <small>({expected})</small></h3>']
    if head.fails:
        out.append(f'<p class="fails">What fails: {_ESC(head.fails)}</p>')
    if trace is None:
        out.append(f"<p>The round cannot be replayed: {_ESC(why)}</p></section>")
        return "\n".join(out)
    out.append(f'<p class="deal">Deal: <code>{_ESC(format_deal(trace.deal))}</code></p>')
    out.append('<ol class="steps">')
    for st in narrate(trace):
        pic = ""
        if st.move.kind.name == "PLAY" or st.table:  # a tile laid, or a marker moved
            try:
                svg = round_scene(trace, st.number, caption=False, legend=False).svg()
                if drawn is not None:
                    drawn.append(svg)
                pic = (f'<img class="layout" alt="the layout after move {st.number}" '
                       f'src="{data_uri(svg, "image/svg+xml")}">')
            except DominoproofError as e:
                pic = f'<span class="note">({_ESC(str(e))})</span>'
        out.append(f'<li value="{st.number}"><span class="rule">{_ESC(st.rule)}</span> '
                   f"{_ESC(st.text)}{pic}</li>")
    out.append("</ol>")
    out.append(f'<p class="where">Where it fails: {_ESC(head.detail)}</p></section>')
    return "\n".join(out)


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

_CSS = """
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;margin:24px auto;max-width:1100px;
color:#222;line-height:1.4;padding:0 16px}
h1{font-size:26px;margin-bottom:4px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;
margin-top:36px}h3{font-size:16px;margin:18px 0 6px}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;
padding:3px 8px;font-size:13px;text-align:left}th{background:#f3f3f3}
td.ok{background:#e6f4e6;color:#1b5e20}td.bad{background:#fde0e0;color:#b71c1c;
font-weight:bold}td.na{color:#888}.bad{color:#b71c1c;font-weight:bold}
.ok{color:#1b5e20}.summary{font-size:18px;padding:8px 12px;border-radius:6px;
display:inline-block}.summary.bad{background:#fde0e0}.summary.ok{background:#e6f4e6}
ol.steps li{margin:4px 0}ol.steps .rule{display:inline-block;min-width:48px;
font-family:"DejaVu Sans Mono",monospace;color:#555}img.layout{display:block;
max-width:100%;max-height:260px;margin:4px 0 8px}img.plot{max-width:100%;
border:1px solid #ddd}.note{color:#8d6e00}code{font-size:12px}
section.round{border-left:4px solid #e57373;padding-left:12px;margin:16px 0}
figure{margin:12px 0 24px}pre{font-size:12px;background:#f7f7f7;padding:8px;
overflow-x:auto}figcaption{font-size:13px;color:#444;max-width:760px}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 22px;
font-size:13px}ul.legend .swatch{vertical-align:middle;margin-right:4px}
"""


def _swatch(key: str, colour: str) -> str:
    """A legend's swatch in CSS, in the colour the layout pictures draw it."""
    end = MEANINGS["open-end"][0]
    style = {
        "last": f"width:18px;height:9px;border:3px solid {colour};border-radius:3px;"
                "background:#fffdf4",
        "pending": f"width:10px;height:10px;border:3px solid {colour};border-radius:50%;"
                   f"background:{end}",
        "marker": f"width:0;height:0;border-top:7px solid transparent;border-bottom:7px "
                  f"solid transparent;border-left:12px solid {colour}",
    }.get(key, f"width:14px;height:14px;border-radius:50%;background:{colour}")
    return f'<span class="swatch" style="display:inline-block;{style}"></span>'


#: The class of what each meaning of :data:`MEANINGS` draws in a layout's SVG.
_DRAWN_AS = {"open-end": 'class="open-end', "last": 'class="tile last"',
             "pending": 'class="open-end pending', "waiting": " waiting\"",
             "marker": 'class="marker"'}


def _legend_html(svgs: Sequence[str]) -> str:
    """What each colour of the layout pictures ``svgs`` means, once for the page (the
    pictures of the steps are drawn without their own legend): the meanings drawn."""
    items = "".join(f'<li data-meaning="{key}">{_swatch(key, colour)} {_ESC(words)}</li>'
                    for key, (colour, words) in MEANINGS.items()
                    if any(_DRAWN_AS[key] in svg for svg in svgs))
    return f'<ul class="legend">{items}</ul>' if items else ""


def _cell(row: Row | None) -> str:
    if row is None:
        return "<td></td>"
    cls = "na" if row.verdict == Verdict.NOT_APPLICABLE.value else "ok" if row.ok else "bad"
    mark = "" if row.ok else " !"
    return f'<td class="{cls}" title="{_ESC(row.detail[:300])}">{_ESC(row.verdict)}{mark}</td>'


def _subject_table(report: Report, subject: str) -> str:
    parts, by, props = grid(rows_of(report, subject))
    head = "".join(f"<th>{_ESC(p)}</th>" for p in parts)
    body = "".join(f"<tr><td>{_ESC(pid)}</td>" + "".join(_cell(by.get((pid, p)))
                                                         for p in parts) + "</tr>"
                   for pid in props)
    return (f"<h3>{_ESC(subject)}</h3><table><tr><th>property</th>{head}</tr>{body}"
            "</table>")


def _estimate(e: Any, probability: bool = False) -> str:
    shown = figure(e.value, probability)
    if e.value is None or e.is_exact or e.low is None:
        return shown
    return (f"{shown} <small>[{figure(e.low, probability)}, "
            f"{figure(e.high, probability)}]</small>")


def _figures_table(figures: Sequence[Any]) -> str:
    head = ("<tr><th>policy</th><th>method</th><th>P(block) R1.1, R4.4</th>"
            "<th>P(tie at a block) R5.5</th><th>E(residual | block) R5.3</th>"
            "<th>E(moves)</th><th>E(award | someone scores) R5.4</th></tr>")
    rows = []
    for f in figures:
        rows.append(f"<tr><td>{_ESC(f.policy)}</td><td>{_ESC(f.method)}</td>"
                    f"<td>{_estimate(f.blocked, True)}</td><td>{_estimate(f.tie, True)}</td>"
                    f"<td>{_estimate(f.residual)}</td><td>{_estimate(f.length)}</td>"
                    f"<td>{_estimate(f.award_mean)}</td></tr>")
    how = _ESC(figures[0].configuration) if figures else ""
    return f"<p><small>{how}</small></p><table>{head}{''.join(rows)}</table>"


def page(report: Report, sections: Sequence[Section], *, title: str = "",
         notes: Sequence[str] = (), max_rounds: int = 20) -> str:
    """The whole page, as HTML text with nothing outside it."""
    names = ", ".join(s.variant.name for s in sections) or ", ".join(
        s for s in report.subjects if not s.startswith("fault "))
    title = title or f"dominoproof report: {names}"
    line = verdict_line(report)
    good = report.exit_code == 0
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_ESC(title)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>{_ESC(title)}</h1>",
           f'<p class="summary {"ok" if good else "bad"}" id="verdict">{_ESC(line)}</p>']
    out += [f'<p class="note">{_ESC(n)}</p>' for n in notes]
    out.append("<h2>Verdicts</h2><p>Each property of the catalogue (rule IDs in "
               "docs/RULES.md) by each method: the exhaustive search of small "
               "configurations, Z3's induction on the variant, the proof for every set "
               "size and number of players, and the engine cross-checked against the Z3 "
               "relation. <span class='ok'>Green</span>: as expected; "
               "<span class='bad'>red</span>: not as expected.</p>")
    variants = [s for s in report.subjects if not s.startswith("fault ")]
    faults = [s for s in report.subjects if s.startswith("fault ")]
    out += [_subject_table(report, s) for s in variants]
    if faults:
        out.append("<h3>Every check can fail: deliberately broken rule sets</h3><p>Each "
                   "must be caught (VIOLATED, or NOT INDUCTIVE for the all-sizes model) "
                   "by the properties it names.</p>")
        out += [_subject_table(report, s) for s in faults]
    rounds = counterexample_rounds(report)
    out.append("<h2>Counterexamples, step by step</h2>")
    if not rounds:
        out.append("<p>No check found a counterexample round.</p>")
    else:
        out.append(f"<p>{len(rounds)} distinct round(s) break a property; each move with "
                   "the rule that allows it, and the layout as it lies on the table after "
                   "each tile laid (or marker moved).</p>")
        drawn: list[str] = []
        told = [_round_html(*r, drawn) for r in rounds[:max_rounds]]
        out.append(_legend_html(drawn))
        out += told
        if len(rounds) > max_rounds:
            out.append(f"<p>{len(rounds) - max_rounds} more round(s): see "
                       "<code>dominoproof verify --traces DIR</code>.</p>")
    ctis = [r for r in report.rows if r.verdict == Verdict.NOT_INDUCTIVE.value and r.cti]
    if ctis:
        out.append("<h3>Counterexamples to induction</h3><p>Not rounds: two states and a "
                   "move the induction step could not rule out (not necessarily "
                   "reachable), in domino terms.</p>")
        out += [f"<details><summary>{_ESC(r.subject)} / {_ESC(r.part)} / "
                f"{_ESC(r.property)}: NOT INDUCTIVE</summary><pre>{_ESC(r.cti)}</pre>"
                "</details>" for r in ctis]
    for sec in sections:
        out.append(f"<h2>{_ESC(sec.variant.name)}: statistics and plots</h2>")
        if sec.variant.description:
            out.append(f"<p>{_ESC(sec.variant.description)}</p>")
        if sec.figures:
            out.append(_figures_table(sec.figures))
        out += [f'<p class="note">{_ESC(n)}</p>' for n in sec.notes]
        for pic in sec.pictures:
            out.append(f'<figure><img class="plot" alt="{_ESC(pic.title)}" '
                       f'src="{data_uri(pic.png, "image/png")}"><figcaption>'
                       f"{_ESC(pic.caption)}</figcaption></figure>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
