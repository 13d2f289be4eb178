"""The state graph of a tiny configuration, drawn for a student: DOT, GraphML, SVG.

Each state is a box showing what decides the future of the round (STYLE 1): the
open ends, who is to move, every hand, the boneyard, the R4 confirmations so far.
Each edge is a move, in words (``P0 leads [3|3]``, ``P1 confirms they cannot
play``). Initial states are drawn bold, blocked states red with a double border,
dominoes green, and a state still being played with no move (which the correct
rules never reach) orange.

* :func:`to_dot` writes Graphviz DOT text (no dependency);
* :func:`write_graphml` writes GraphML through networkx (for Gephi, yEd, ...);
* :func:`to_svg` runs Graphviz's ``dot`` when it is installed, and otherwise
  draws the graph itself, in layers by distance from the deal, so that SVG needs
  nothing beyond pip. ``engine="dot"`` insists on Graphviz and fails with a clear
  message when ``dot`` is missing.

Only tiny graphs are drawn (:data:`TINY`, by default): a picture of thousands of
states teaches nothing, and the search must never build a large networkx graph.
"""

from __future__ import annotations

import html
import shutil
import subprocess
from pathlib import Path

from dominoproof.model.errors import DominoproofError
from dominoproof.model.moves import MoveKind
from dominoproof.model.state import State
from dominoproof.model.tiles import show_tiles
from dominoproof.proofs.statespace import SearchResult

__all__ = ["TINY", "check_tiny", "state_label", "to_dot", "to_svg", "write_graphml"]

#: The largest graph (in states) that is drawn.
TINY = 400

_FILL = {"blocked": "#f4cccc", "stuck": "#fce5cd", "unexplored": "#eeeeee"}
_DOMINO_FILL = "#d9ead3"


def check_tiny(result: SearchResult, limit: int = TINY) -> None:
    """Refuse a graph that is not tiny, saying how to get a smaller one."""
    if result.size > limit:
        raise DominoproofError(
            f"the state graph has {result.size:,} states; drawing is for tiny configurations "
            f"(at most {limit:,} states): try one deal of a smaller set, e.g. "
            "`dominoproof explore tiny --dot graph.dot` or --set-max 2 --hand-size 2")


def state_label(s: State) -> str:
    """The lines of a state's box: ends and turn, each hand, boneyard, the R4 count."""
    ends = "|".join(str(e) for e in s.open_ends) if s.led else "none"
    lines = [f"ends {ends}   P{s.turn} to move"]
    lines += [f"P{p} {show_tiles(h)}" for p, h in enumerate(s.hands)]
    stock = f"boneyard {s.boneyard.bit_count()}"
    if s.set_aside:
        stock += f", aside {s.set_aside.bit_count()}"
    lines.append(stock)
    if s.confirmed:
        lines.append(f"R4: {s.confirmed} confirmed, proposed by P{s.proposer}")
    if s.fouls:
        lines.append("fouls: " + " ".join(f"P{p}" for p in range(s.players) if s.fouls >> p & 1))
    return "\n".join(lines)


def _kind(result: SearchResult, i: int) -> str:
    k = result.kind_of(i)
    return "domino" if k.startswith("domino") else k


def _title(result: SearchResult, i: int) -> str:
    k = result.kind_of(i)
    return {"blocked": "BLOCKED", "stuck": "STUCK (no move)"}.get(
        k, k.upper() if k.startswith("domino") else "")


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(result: SearchResult, limit: int = TINY) -> str:
    """The explored graph as Graphviz DOT."""
    check_tiny(result, limit)
    v = result.variant
    out = [
        "digraph states {",
        f'  label="{_dot_text(result.figures.configuration)}"; labelloc=t; fontsize=12;',
        '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="monospace", '
        "fontsize=10];",
        '  edge [fontname="sans-serif", fontsize=9];',
    ]
    for i in range(result.size):
        s = result.state(i)
        kind = _kind(result, i)
        title = _title(result, i)
        label = (title + "\n" if title else "") + state_label(s)
        attrs = [f'label="{_dot_text(label)}"']
        if kind == "domino":
            attrs.append(f'fillcolor="{_DOMINO_FILL}"')
        elif kind in _FILL:
            attrs.append(f'fillcolor="{_FILL[kind]}"')
        if kind == "blocked":
            attrs.append("peripheries=2")
        if kind == "unexplored":
            attrs.append('style="rounded,filled,dashed"')
        if i < result.roots:
            attrs.append("penwidth=2.5")
        out.append(f"  s{i} [{', '.join(attrs)}];")
    for i, m, j in result.edges():
        attrs = [f'label="{_dot_text(str(m))}"']
        if m.kind is MoveKind.CONFIRM:
            attrs.append("style=dashed")
        elif m.kind is MoveKind.ESTABLISH:
            attrs.append('color="#cc0000", penwidth=2')
        out.append(f"  s{i} -> s{j} [{', '.join(attrs)}];")
    out.append(f'  // {v.name}: {result.size} states, {len(result.edge_to)} transitions')
    out.append("}")
    return "\n".join(out) + "\n"


def write_graphml(result: SearchResult, path: str | Path, limit: int = TINY) -> None:
    """The explored graph as GraphML (node attributes: label, kind, depth, initial;
    edge attributes: move, kind)."""
    import networkx as nx

    check_tiny(result, limit)
    g = result.to_networkx(limit=None)
    for i, data in g.nodes(data=True):
        s = data.pop("state")
        data["label"] = state_label(s)
        data["initial"] = i < result.roots
    for _i, _j, data in g.edges(data=True):
        m = data.pop("move")
        data["move"] = str(m)
        data["kind"] = m.kind.label
    nx.write_graphml(g, str(path))


def to_svg(result: SearchResult, limit: int = TINY, engine: str = "auto") -> str:
    """The explored graph as SVG: by Graphviz ``dot`` when installed (``engine`` "auto"
    or "dot"), else (or with ``engine="builtin"``) drawn here in layers."""
    dot_text = to_dot(result, limit)
    exe = shutil.which("dot") if engine in ("auto", "dot") else None
    if exe is None and engine == "dot":
        raise DominoproofError(
            "SVG by Graphviz needs its `dot` program, which is not installed (Debian/Ubuntu: "
            "apt-get install graphviz); --dot FILE writes the DOT text, and without "
            "Graphviz the SVG is drawn by dominoproof itself")
    if exe is not None:
        run = subprocess.run([exe, "-Tsvg"], input=dot_text, capture_output=True, text=True,
                             check=False)
        if run.returncode != 0:
            raise DominoproofError(f"dot failed: {run.stderr.strip()[:500]}")
        return run.stdout
    return _layered_svg(result)


def _layered_svg(result: SearchResult) -> str:
    """A plain SVG without Graphviz: one row of boxes per BFS depth, edges as lines."""
    box_w, line_h, gap_x, gap_y = 230, 13, 30, 60
    labels = {}
    for i in range(result.size):
        title = _title(result, i)
        labels[i] = ([title] if title else []) + state_label(result.state(i)).split("\n")
    rows: dict[int, list[int]] = {}
    for i in range(result.size):
        rows.setdefault(result.depth[i], []).append(i)
    heights = {d: max(len(labels[i]) for i in ids) * line_h + 10 for d, ids in rows.items()}
    width = max(len(ids) for ids in rows.values()) * (box_w + gap_x) + gap_x
    pos: dict[int, tuple[float, float]] = {}
    y = 40.0
    for d in sorted(rows):
        ids = rows[d]
        if d:  # under their BFS parents, to keep edges short
            ids.sort(key=lambda i: (pos[result.parent[i]][0], i))
        row_w = len(ids) * (box_w + gap_x) - gap_x
        x0 = (width - row_w) / 2
        for k, i in enumerate(ids):
            pos[i] = (x0 + k * (box_w + gap_x), y)
        y += heights[d] + gap_y
    h = {i: len(labels[i]) * line_h + 10 for i in labels}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{y:.0f}" '
        'font-family="monospace" font-size="10">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>',
        f'<text x="10" y="20" font-family="sans-serif" font-size="12">'
        f"{html.escape(result.figures.configuration)}</text>",
    ]
    for i, m, j in result.edges():
        (x1, y1), (x2, y2) = pos[i], pos[j]
        x1, y1, x2 = x1 + box_w / 2, y1 + h[i], x2 + box_w / 2
        dash = ' stroke-dasharray="4,3"' if m.kind is MoveKind.CONFIRM else ""
        colour = "#cc0000" if m.kind is MoveKind.ESTABLISH else "#555555"
        parts.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                     f'stroke="{colour}"{dash} marker-end="url(#arrow)"><title>'
                     f"{html.escape(str(m))}</title></line>")
        parts.append(f'<text x="{(x1 + x2) / 2 + 3:.0f}" y="{(y1 + y2) / 2:.0f}" '
                     f'font-family="sans-serif" font-size="8" fill="#333333">'
                     f"{html.escape(str(m))}</text>")
    for i in range(result.size):
        x, y0 = pos[i]
        kind = _kind(result, i)
        fill = _DOMINO_FILL if kind == "domino" else _FILL.get(kind, "#ffffff")
        stroke_w = 2.5 if i < result.roots else 1
        parts.append(f'<rect x="{x:.0f}" y="{y0:.0f}" width="{box_w}" height="{h[i]}" rx="6" '
                     f'fill="{fill}" stroke="black" stroke-width="{stroke_w}"/>')
        if kind == "blocked":
            parts.append(f'<rect x="{x + 3:.0f}" y="{y0 + 3:.0f}" width="{box_w - 6}" '
                         f'height="{h[i] - 6}" rx="4" fill="none" stroke="black"/>')
        for k, text in enumerate(labels[i]):
            parts.append(f'<text x="{x + 8:.0f}" y="{y0 + 16 + k * line_h:.0f}">'
                         f"{html.escape(text)}</text>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
