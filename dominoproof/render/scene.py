"""Pictures as plain data: a :class:`Scene` of shapes, written as SVG or drawn as PNG.

Every picture dominoproof makes for people (the layout on the table,
:mod:`dominoproof.render.table`; the state graph, :mod:`dominoproof.render.graph`) is
computed once, as a list of shapes in one coordinate system (x to the right, y down,
as in SVG), and then written by one of two writers:

* :meth:`Scene.svg`: self-contained SVG text (no font, script or file outside it), with a
  ``viewBox``, so it scales to any width; needs nothing beyond Python;
* :meth:`Scene.png`: the same shapes drawn by matplotlib (the ``plots`` extra:
  ``pip install 'dominoproof[plots]'``); without it, a located
  :class:`~dominoproof.model.errors.DominoproofError` naming the extra.

A shape may carry a ``cls`` (the SVG ``class``), ``data`` attributes (``data-tile="2-3"``)
and a ``title`` (a tooltip): what a test, or a person hovering, reads back.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.errors import DominoproofError

__all__ = ["PLOTS_EXTRA", "Scene", "Shape", "data_uri", "require_matplotlib"]

#: How to install what PNG pictures and plots need.
PLOTS_EXTRA = "pip install 'dominoproof[plots]'"

#: SVG units (px) to matplotlib points at 100 dpi.
_PT = 0.72


def require_matplotlib(what: str) -> Any:
    """matplotlib's ``pyplot`` on the non-interactive Agg backend, or a located error
    naming the extra to install."""
    try:
        import matplotlib  # optional: the plots extra
    except ImportError:
        raise DominoproofError(f"{what} needs matplotlib, which is not installed: "
                               f"{PLOTS_EXTRA}") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt  # optional too; after the backend, which comes first

    return plt


@dataclass(frozen=True)
class Shape:
    """One shape: ``kind`` is rect, circle, line, polygon or text; ``geo`` its numbers."""

    kind: str
    geo: tuple[float, ...]
    style: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""
    cls: str = ""
    data: Mapping[str, str] = field(default_factory=dict)
    title: str = ""

    def bounds(self) -> tuple[float, float, float, float]:
        g = self.geo
        if self.kind == "rect":
            return g[0], g[1], g[0] + g[2], g[1] + g[3]
        if self.kind == "circle":
            return g[0] - g[2], g[1] - g[2], g[0] + g[2], g[1] + g[2]
        if self.kind == "text":
            size = float(self.style.get("size", 10))
            w = len(self.text) * size * (0.62 if self.style.get("mono") else 0.56)
            anchor = self.style.get("anchor", "start")
            x0 = g[0] - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
            return x0, g[1] - size, x0 + w, g[1] + size * 0.3
        xs, ys = g[0::2], g[1::2]
        return min(xs), min(ys), max(xs), max(ys)


class Scene:
    """Shapes in order (later ones on top), and a title."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.shapes: list[Shape] = []

    # -- adding shapes ---------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str = "black", width: float = 1.0, rx: float = 0.0,
             dash: str = "", **kw: Any) -> None:
        self._add("rect", (x, y, w, h), dict(fill=fill, stroke=stroke, width=width, rx=rx,
                                             dash=dash), **kw)

    def circle(self, cx: float, cy: float, r: float, *, fill: str = "black",
               stroke: str = "none", width: float = 1.0, **kw: Any) -> None:
        self._add("circle", (cx, cy, r), dict(fill=fill, stroke=stroke, width=width), **kw)

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "black",
             width: float = 1.0, dash: str = "", arrow: bool = False, **kw: Any) -> None:
        self._add("line", (x1, y1, x2, y2), dict(stroke=stroke, width=width, dash=dash,
                                                 arrow=arrow), **kw)

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: str = "black",
                stroke: str = "none", width: float = 1.0, **kw: Any) -> None:
        flat = tuple(c for p in points for c in p)
        self._add("polygon", flat, dict(fill=fill, stroke=stroke, width=width), **kw)

    def text(self, x: float, y: float, text: str, *, size: float = 10.0, anchor: str = "start",
             fill: str = "black", bold: bool = False, mono: bool = False, **kw: Any) -> None:
        self.shapes.append(Shape("text", (x, y), dict(size=size, anchor=anchor, fill=fill,
                                                      bold=bold, mono=mono), text, **kw))

    def _add(self, kind: str, geo: tuple[float, ...], style: dict[str, Any], *,
             cls: str = "", data: Mapping[str, str] | None = None, title: str = "") -> None:
        self.shapes.append(Shape(kind, geo, style, cls=cls, data=dict(data or {}), title=title))

    # -- reading it -------------------------------------------------------------------
    def bounds(self, margin: float = 0.0) -> tuple[float, float, float, float]:
        """(x0, y0, width, height) around every shape, with ``margin`` on each side."""
        if not self.shapes:
            return 0.0, 0.0, 2 * margin + 1, 2 * margin + 1
        boxes = [s.bounds() for s in self.shapes]
        x0 = min(b[0] for b in boxes) - margin
        y0 = min(b[1] for b in boxes) - margin
        x1 = max(b[2] for b in boxes) + margin
        y1 = max(b[3] for b in boxes) + margin
        return x0, y0, x1 - x0, y1 - y0

    # -- SVG ----------------------------------------------------------------------------
    def svg(self, margin: float = 8.0, scale: float = 1.0) -> str:
        """Self-contained SVG: a ``viewBox`` around every shape (so it scales), its
        natural size times ``scale`` as width and height, the title as ``<title>``."""
        x0, y0, w, h = self.bounds(margin)
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x0:.1f} {y0:.1f} '
               f'{w:.1f} {h:.1f}" width="{w * scale:.0f}" height="{h * scale:.0f}" '
               'font-family="DejaVu Sans, Arial, Helvetica, sans-serif">']
        if self.title:
            out.append(f"<title>{_esc(self.title)}</title>")
        if any(s.style.get("arrow") for s in self.shapes):
            colours = sorted({str(s.style["stroke"]) for s in self.shapes
                              if s.style.get("arrow")})
            out.append("<defs>" + "".join(
                f'<marker id="{_marker_id(c)}" viewBox="0 0 10 10" refX="10" refY="5" '
                f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
                f'<path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>' for c in colours)
                + "</defs>")
        out.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{h:.1f}" '
                   'fill="white"/>')
        out += [_svg_shape(s) for s in self.shapes]
        out.append("</svg>")
        return "\n".join(out) + "\n"

    # -- PNG ----------------------------------------------------------------------------
    def png(self, margin: float = 8.0, scale: float = 1.0) -> bytes:
        """The same picture as PNG, drawn by matplotlib (the ``plots`` extra)."""
        plt = require_matplotlib("a PNG picture")
        from matplotlib import lines, patches  # optional (the plots extra), checked above

        x0, y0, w, h = self.bounds(margin)
        dpi = 100.0
        fig = plt.figure(figsize=(w * scale / dpi, h * scale / dpi), dpi=dpi)
        try:
            ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
            ax.set_xlim(x0, x0 + w)
            ax.set_ylim(y0 + h, y0)
            ax.set_axis_off()
            k = _PT * scale
            for z, s in enumerate(self.shapes):
                st, g = s.style, s.geo
                lw = float(st.get("width", 1.0)) * k
                edge = _mpl_colour(st.get("stroke", "none"))
                dash: Any = (0, (3, 2)) if st.get("dash") else "solid"
                # a filled shape: a rect's fill is none unless given, the others' black
                paint: dict[str, Any] = dict(facecolor=_mpl_colour(st.get(
                    "fill", "none" if s.kind == "rect" else "black")), edgecolor=edge,
                    linewidth=lw if edge != "none" else 0, zorder=z)
                if s.kind == "rect":
                    rx = float(st.get("rx", 0.0))
                    box = (f"round,pad=0,rounding_size={rx}" if rx else "square,pad=0")
                    ax.add_patch(patches.FancyBboxPatch(
                        (g[0], g[1]), g[2], g[3], boxstyle=box, linestyle=dash, **paint))
                elif s.kind == "circle":
                    ax.add_patch(patches.Circle((g[0], g[1]), g[2], **paint))
                elif s.kind == "polygon":
                    pts = list(zip(g[0::2], g[1::2], strict=True))
                    ax.add_patch(patches.Polygon(pts, closed=True, **paint))
                elif s.kind == "line":
                    if st.get("arrow"):
                        ax.add_patch(patches.FancyArrowPatch(
                            (g[0], g[1]), (g[2], g[3]), arrowstyle="-|>",
                            mutation_scale=9 * scale, color=edge, linewidth=lw,
                            linestyle=dash, shrinkA=0, shrinkB=0, zorder=z))
                    else:
                        ax.add_line(lines.Line2D([g[0], g[2]], [g[1], g[3]], color=edge,
                                                 linewidth=lw, linestyle=dash, zorder=z))
                else:  # text
                    ha = {"start": "left", "middle": "center", "end": "right"}[
                        str(st.get("anchor", "start"))]
                    ax.text(g[0], g[1], s.text, fontsize=float(st.get("size", 10)) * k,
                            ha=ha, va="baseline", color=_mpl_colour(st.get("fill", "black")),
                            fontweight="bold" if st.get("bold") else "normal",
                            family="monospace" if st.get("mono") else "sans-serif", zorder=z)
            buf = io.BytesIO()
            fig.savefig(buf, format="png", dpi=dpi, facecolor="white")
        finally:
            plt.close(fig)
        return buf.getvalue()


def data_uri(content: str | bytes, mime: str) -> str:
    """``content`` as a ``data:`` URI (base64): a picture inside an HTML page."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    return f"data:{mime};base64,{base64.b64encode(raw).decode('ascii')}"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _marker_id(colour: str) -> str:
    return "arrow-" + "".join(c for c in colour if c.isalnum())


def _attrs(s: Shape) -> str:
    out = f' class="{_esc(s.cls)}"' if s.cls else ""
    for k, v in s.data.items():
        out += f' data-{k}="{_esc(v)}"'
    return out


def _stroke(st: Mapping[str, Any]) -> str:
    out = f' stroke="{st.get("stroke", "none")}"'
    if st.get("stroke", "none") != "none":
        out += f' stroke-width="{float(st.get("width", 1.0)):g}"'
    if st.get("dash"):
        out += f' stroke-dasharray="{st["dash"]}"'
    return out


def _svg_shape(s: Shape) -> str:
    st, g = s.style, s.geo
    tip = f"<title>{_esc(s.title)}</title>" if s.title else ""
    if s.kind == "rect":
        rx = f' rx="{float(st["rx"]):g}"' if st.get("rx") else ""
        body = (f'<rect x="{g[0]:.1f}" y="{g[1]:.1f}" width="{g[2]:.1f}" height="{g[3]:.1f}"'
                f'{rx} fill="{st.get("fill", "none")}"{_stroke(st)}{_attrs(s)}')
    elif s.kind == "circle":
        body = (f'<circle cx="{g[0]:.2f}" cy="{g[1]:.2f}" r="{g[2]:.2f}" '
                f'fill="{st.get("fill", "black")}"{_stroke(st)}{_attrs(s)}')
    elif s.kind == "polygon":
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(g[0::2], g[1::2], strict=True))
        body = (f'<polygon points="{pts}" fill="{st.get("fill", "black")}"{_stroke(st)}'
                f"{_attrs(s)}")
    elif s.kind == "line":
        arrow = (f' marker-end="url(#{_marker_id(str(st["stroke"]))})"'
                 if st.get("arrow") else "")
        body = (f'<line x1="{g[0]:.1f}" y1="{g[1]:.1f}" x2="{g[2]:.1f}" y2="{g[3]:.1f}"'
                f"{_stroke(st)}{arrow}{_attrs(s)}")
    else:
        weight = ' font-weight="bold"' if st.get("bold") else ""
        family = ' font-family="DejaVu Sans Mono, monospace"' if st.get("mono") else ""
        return (f'<text x="{g[0]:.1f}" y="{g[1]:.1f}" font-size="{float(st["size"]):g}" '
                f'text-anchor="{st.get("anchor", "start")}" fill="{st.get("fill", "black")}"'
                f'{weight}{family}{_attrs(s)}>{tip}{_esc(s.text)}</text>')
    return body + (f">{tip}</{s.kind}>" if tip else "/>")


def _mpl_colour(c: Any) -> str:
    return "none" if c in (None, "", "none") else str(c)
