"""The state graph of a tiny configuration, drawn for a student: DOT, GraphML, SVG, PNG.

Each state is a box showing what decides the future of the round (STYLE 1): the
open ends, who is to move, every hand, the boneyard, the R4 confirmations so far.
Each edge is a move, in words (``P0 leads [3|3]``, ``P1 confirms they cannot
play``). Initial states are drawn bold, blocked states red with a double border,
dominoes green, and a state still being played with no move (which the correct
rules never reach) orange.

* :func:`to_dot` writes Graphviz DOT text (no dependency);
* :func:`write_graphml` writes GraphML through networkx (for Gephi, yEd, ...);
* :func:`to_svg` and :func:`graph_scene` (SVG or PNG) draw it here, with no system tool: one row of
  boxes per distance from the deal (BFS depth), each box under its BFS parent where it
  can be, a legend of what the fills, borders and arrows mean, and a path drawn over
  the graph (:class:`Highlight`): a property's counterexample, or a witness round
  (:func:`highlight_for`). The SVG is self-contained with a ``viewBox``, so it scales;
  the PNG is the same :class:`~dominoproof.render.scene.Scene` drawn by matplotlib (the
  ``plots`` extra). Graphviz users lay the DOT text out with ``dot`` themselves.

Only tiny graphs are drawn (:data:`TINY`, by default): a picture of thousands of
states teaches nothing, and the search must never build a large networkx graph.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import layout_of
from dominoproof.model.moves import Move, MoveKind, said
from dominoproof.model.state import State
from dominoproof.model.tiles import show_tiles
from dominoproof.proofs.properties import Result, Verdict, find_property
from dominoproof.proofs.search.result import SearchResult
from dominoproof.render.scene import Scene

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace
    from dominoproof.proofs.search.verification import Verification

__all__ = ["HIGHLIGHTS", "TINY", "Highlight", "check_tiny", "graph_scene", "highlight_for",
           "path_of_trace", "state_label", "to_dot", "to_svg", "write_graphml"]

#: The largest graph (in states) that is drawn.
TINY = 400

_FILL = {"blocked": "#f4cccc", "stuck": "#fce5cd", "unexplored": "#eeeeee",
         "domino": "#d9ead3"}


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


def _box_lines(result: SearchResult, i: int) -> list[str]:
    """The lines of state ``i``'s box: its title (blocked, domino, ...), then its label."""
    title = _title(result, i)
    return ([title] if title else []) + state_label(result.state(i)).split("\n")


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(result: SearchResult, limit: int = TINY, highlight: Highlight | None = None) -> str:
    """The explored graph as Graphviz DOT (``highlight``: its states and moves drawn
    thick and blue, its label under the title)."""
    check_tiny(result, limit)
    v = result.variant
    title = result.figures.configuration
    if highlight is not None:
        title += f"\nblue: {highlight.label}"
    on_path = highlight.edges() if highlight else set()
    path_nodes = set(highlight.ids) if highlight else set()
    out = [
        "digraph states {",
        f'  label="{_dot_text(title)}"; labelloc=t; fontsize=12;',
        '  node [shape=box, style="rounded,filled", fillcolor=white, fontname="monospace", '
        "fontsize=10];",
        '  edge [fontname="sans-serif", fontsize=9];',
    ]
    for i in range(result.size):
        kind = _kind(result, i)
        label = "\n".join(_box_lines(result, i))
        attrs = [f'label="{_dot_text(label)}"']
        if kind in _FILL:
            attrs.append(f'fillcolor="{_FILL[kind]}"')
        if kind == "blocked":
            attrs.append("peripheries=2")
        if kind == "unexplored":
            attrs.append('style="rounded,filled,dashed"')
        if i in path_nodes:
            attrs.append(f'color="{_PATH}", penwidth=4')
        elif i < result.roots:
            attrs.append("penwidth=2.5")
        out.append(f"  s{i} [{', '.join(attrs)}];")
    for i, m, j, text in _said_edges(result):
        attrs = [f'label="{_dot_text(text)}"']
        if m.kind is MoveKind.CONFIRM:
            attrs.append("style=dashed")
        elif m.kind is MoveKind.ESTABLISH:
            attrs.append('color="#cc0000", penwidth=2')
        if (i, j) in on_path:
            attrs.append(f'color="{_PATH}", fontcolor="{_PATH}", penwidth=3.5')
        out.append(f"  s{i} -> s{j} [{', '.join(attrs)}];")
    out.append(f'  // {v.name}: {result.size} states, {len(result.edge_to)} transitions')
    out.append("}")
    return "\n".join(out) + "\n"


def write_graphml(result: SearchResult, path: str | Path, limit: int = TINY) -> None:
    """The explored graph as GraphML (node attributes: label, kind, depth, initial;
    edge attributes: move, kind)."""
    check_tiny(result, limit)
    g = result.to_networkx(limit=None)
    layout = layout_of(result.variant)
    states = {}
    for i, data in g.nodes(data=True):
        s = data.pop("state")
        states[i] = s
        data["label"] = state_label(s)
        data["initial"] = i < result.roots
    for i, _j, data in g.edges(data=True):
        m = data.pop("move")
        data["move"] = said(layout, states[i], m)
        data["kind"] = m.kind.label
    nx.write_graphml(g, str(path))


# ---------------------------------------------------------------------------
# A path to highlight: a counterexample, or a witness round
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Highlight:
    """A path of the graph drawn over it: state ids from an initial state, and what it
    is (a property's counterexample, or a witness round)."""

    ids: tuple[int, ...]
    label: str

    def edges(self) -> set[tuple[int, int]]:
        return set(itertools.pairwise(self.ids))


def path_of_trace(result: SearchResult, trace: Trace) -> tuple[int, ...]:
    """The ids of the states ``trace`` passes through (each must be in the graph)."""
    ids = []
    for k, s in enumerate(trace.states()):
        i = result.id_of(s)
        if i is None:
            raise DominoproofError(f"state {k} of the round is not in the state graph")
        ids.append(i)
    return tuple(ids)


#: The choices of :func:`highlight_for` besides a property id.
HIGHLIGHTS = ("auto", "none", "blocked", "domino")


def highlight_for(ver: Verification, choice: str = "auto") -> Highlight | None:
    """The path to draw over ``ver``'s graph: ``auto``, the first counterexample found
    (a VIOLATED property's round), else a shortest blocked round; ``blocked`` or
    ``domino``, a shortest round ending so (a witness: the search is breadth first);
    a property id, that property's counterexample; ``none``, no path."""
    result = ver.result
    if result is None or choice == "none":
        return None
    if choice not in HIGHLIGHTS:
        find_property(choice)  # an unknown id: a located error listing the known ones
        for r in ver.results:
            if r.property == choice and r.trace is not None:
                return _counterexample(result, r)
        raise DominoproofError(f"--highlight {choice}: the property has no counterexample "
                               "in this graph (it is not VIOLATED here)")
    if choice == "auto":
        for r in ver.results:
            if r.trace is not None and r.verdict is Verdict.VIOLATED:
                return _counterexample(result, r)
    kind = "domino" if choice == "domino" else "blocked"
    for i in range(result.expanded):  # ids are in BFS order: the first is a shortest
        if _kind(result, i) == kind:
            ids = tuple(result.path_to(i))
            what = "a shortest blocked round" if kind == "blocked" else \
                "a shortest round ending in a domino"
            return Highlight(ids, f"{what} (a witness, {len(ids) - 1} moves)")
    return None


def _counterexample(result: SearchResult, r: Result) -> Highlight:
    assert r.trace is not None
    ids = path_of_trace(result, r.trace)
    return Highlight(ids, f"counterexample to {r.property} ({len(ids) - 1} moves)")


# ---------------------------------------------------------------------------
# The drawing: layers by distance from the deal, a legend, the path on top
# ---------------------------------------------------------------------------

_PATH = "#0d47a1"
_EDGE, _ESTABLISH = "#777777", "#cc0000"
_LINE_H, _CHAR_W, _GAP_X, _GAP_Y = 13.0, 6.4, 28.0, 64.0


def _style(result: SearchResult, i: int) -> tuple[str, str]:
    """(fill, dash) of a state's box."""
    kind = _kind(result, i)
    fill = _FILL.get(kind, "#ffffff")
    return fill, "5,3" if kind == "unexplored" else ""


def graph_scene(result: SearchResult, highlight: Highlight | None = None,
                limit: int = TINY) -> Scene:
    """The state graph as a :class:`~dominoproof.render.scene.Scene`: one row of boxes per BFS
    depth (each under its BFS parent where it can), every move an arrow, a legend,
    and ``highlight`` drawn over it."""
    check_tiny(result, limit)
    sc = Scene(f"state graph: {result.figures.configuration}")
    labels = {i: _box_lines(result, i) for i in range(result.size)}
    box_w = max(len(line) for ls in labels.values() for line in ls) * _CHAR_W + 16
    rows: dict[int, list[int]] = {}
    for i in range(result.size):
        rows.setdefault(result.depth[i], []).append(i)
    width = max(len(ids) for ids in rows.values()) * (box_w + _GAP_X) - _GAP_X
    y = _legend(sc, result, highlight, max(width, 900.0))
    pos: dict[int, tuple[float, float]] = {}
    h = {i: len(labels[i]) * _LINE_H + 10 for i in labels}
    for d in sorted(rows):
        ids = rows[d]
        if d:  # under their BFS parents, to keep edges short
            ids.sort(key=lambda i: (pos[result.parent[i]][0], i))
        row_w = len(ids) * (box_w + _GAP_X) - _GAP_X
        x0 = (width - row_w) / 2
        for k, i in enumerate(ids):
            pos[i] = (x0 + k * (box_w + _GAP_X), y)
        y += max(h[i] for i in ids) + _GAP_Y
    on_path = highlight.edges() if highlight else set()
    path_nodes = set(highlight.ids) if highlight else set()
    drawn_path = []
    for i, m, j, text in _said_edges(result):
        (x1, y1), (x2, y2) = pos[i], pos[j]
        a = (x1 + box_w / 2, y1 + h[i])
        b = (x2 + box_w / 2, y2) if y2 > y1 else (x2 + box_w / 2, y2 + h[j])
        if (i, j) in on_path:
            drawn_path.append((a, b, m, text))
            continue
        est = m.kind is MoveKind.ESTABLISH
        sc.line(*a, *b, stroke=_ESTABLISH if est else _EDGE, width=1.6 if est else 1,
                dash="4,3" if m.kind is MoveKind.CONFIRM else "", arrow=True, cls="edge",
                data={"from": str(i), "to": str(j), "move": m.kind.label}, title=text)
        sc.text((a[0] + b[0]) / 2 + 3, (a[1] + b[1]) / 2, text, size=8, fill="#444444",
                cls="edge-label")
    for a, b, m, text in drawn_path:
        sc.line(*a, *b, stroke=_PATH, width=3.5, arrow=True, cls="edge path",
                data={"move": m.kind.label}, title=text)
        sc.text((a[0] + b[0]) / 2 + 3, (a[1] + b[1]) / 2, text, size=9, fill=_PATH,
                bold=True, cls="edge-label path")
    for i in range(result.size):
        x, y0 = pos[i]
        fill, dash = _style(result, i)
        root = i < result.roots
        mine = i in path_nodes
        sc.rect(x, y0, box_w, h[i], fill=fill, stroke=_PATH if mine else "black",
                width=4 if mine else 2.5 if root else 1, rx=6, dash=dash,
                cls="state" + (" path" if mine else "") + (" initial" if root else ""),
                data={"id": str(i), "kind": _kind(result, i)})
        if _kind(result, i) == "blocked":
            sc.rect(x + 3, y0 + 3, box_w - 6, h[i] - 6, rx=4, stroke="black")
        for k, text in enumerate(labels[i]):
            sc.text(x + 8, y0 + 16 + k * _LINE_H, text, size=10, mono=True,
                    bold=k == 0 and text == _title(result, i) and bool(text))
    return sc


def _said_edges(result: SearchResult) -> list[tuple[int, Move, int, str]]:
    """Every edge with its move as a person says it (a play's end by its number)."""
    layout = layout_of(result.variant)
    out = []
    for i in range(result.expanded):
        s = result.state(i)
        out += [(i, m, j, said(layout, s, m)) for m, j in result.successors(i)]
    return out


def _legend(sc: Scene, result: SearchResult, highlight: Highlight | None,
            width: float) -> float:
    """The title and the legend above the graph; returns where the graph starts."""
    sc.text(0, 0, result.figures.configuration, size=14, bold=True, cls="graph-title")
    sc.text(0, 20, f"{result.size} states, {len(result.edge_to)} moves; each box a state "
            "(open ends, who moves, hands, boneyard, R4 count), each arrow a move",
            size=11, cls="graph-subtitle")
    y = 36.0
    boxes = [("initial state (a deal)", "#ffffff", 2.5, ""),
             ("being played", "#ffffff", 1.0, ""),
             ("BLOCKED (R1.1, R4.4)", _FILL["blocked"], 1.0, ""),
             ("domino (a hand emptied)", _FILL["domino"], 1.0, ""),
             ("stuck: no move (broken rules)", _FILL["stuck"], 1.0, ""),
             ("not expanded (budget)", _FILL["unexplored"], 1.0, "5,3")]
    x = 0.0
    for text, fill, w, dash in boxes:
        sc.rect(x, y, 22, 14, fill=fill, stroke="black", width=w, rx=3, dash=dash,
                cls="legend")
        if text.startswith("BLOCKED"):
            sc.rect(x + 2.5, y + 2.5, 17, 9, rx=2, stroke="black", cls="legend")
        sc.text(x + 28, y + 11, text, size=11, cls="legend")
        x += 36 + len(text) * 6.3
        if x > width - 150:
            x, y = 0.0, y + 22
    x, y = 0.0, y + 26
    arrows = [("a move", _EDGE, 1.0, ""),
              ("a confirmation of inability (R4.1, R4.2)", _EDGE, 1.0, "4,3"),
              ("the block established (R4.4)", _ESTABLISH, 1.6, "")]
    if highlight is not None:
        arrows.append((highlight.label, _PATH, 3.5, ""))
    for text, colour, w, dash in arrows:
        sc.line(x, y + 7, x + 34, y + 7, stroke=colour, width=w, dash=dash, arrow=True,
                cls="legend" + (" path" if colour == _PATH else ""))
        sc.text(x + 42, y + 11, text, size=11, cls="legend",
                bold=colour == _PATH, fill=colour if colour == _PATH else "black")
        x += 56 + len(text) * 6.3
        if x > width - 150:
            x, y = 0.0, y + 22
    return y + 44


def to_svg(result: SearchResult, highlight: Highlight | None = None,
           limit: int = TINY) -> str:
    """The state graph as self-contained SVG (a ``viewBox``, so it scales), drawn by
    dominoproof in layers: no Graphviz needed."""
    return graph_scene(result, highlight, limit).svg()
