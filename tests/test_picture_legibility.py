"""Pictures a person can read: nothing written over anything else, one colour a meaning,
every train labelled, and the score that counts where nobody is awarded anything.

The layout pictures are read back from their SVG text with a reader of their own (no
code shared with the renderer): each element's box from its attributes, a text's box
from its font size and a generous width per character. Then: a caption (the title)
overlaps nothing; a label (a seat, ``public``), a marker and the legend overlap no
tile, no open end, no other label; the meanings the legend names have colours of
hues well apart; every train of a Mexican Train layout carries a label. The score
table under award "nothing" (Mexican Train, Chicken Foot) shows each player's own pips
as the score that counts against them. The plots: no two text boxes of the set-size
plot overlap; the residual plot of a double-12 variant has few enough bars to read.
"""

from __future__ import annotations

import colorsys
import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import needs_matplotlib, variant

from dominoproof.api import play
from dominoproof.model.layout import Access, LayoutKind, Slot, SlotLayout
from dominoproof.model.moves import MoveKind
from dominoproof.model.outcome import outcome
from dominoproof.render.table import arms_of, round_scene, table_scene
from dominoproof.render.text import render_round

SVG = "{http://www.w3.org/2000/svg}"
Box = tuple[float, float, float, float]


def classes(e: ET.Element) -> set[str]:
    return set((e.get("class") or "").split())


def own_text(e: ET.Element) -> str:
    return (e.text or "") + "".join(child.tail or "" for child in e)


def box_of(e: ET.Element) -> Box | None:
    """An element's box as its SVG attributes say, a text's from its font size: at most
    0.66 of the size per character (bold DejaVu Sans is narrower), from the size above
    the baseline to a third of it below."""
    tag = e.tag.removeprefix(SVG)
    f = lambda k: float(e.get(k) or 0)  # noqa: E731
    if tag == "rect":
        return f("x"), f("y"), f("x") + f("width"), f("y") + f("height")
    if tag == "circle":
        r = f("r")
        return f("cx") - r, f("cy") - r, f("cx") + r, f("cy") + r
    if tag == "polygon":
        pts = [tuple(map(float, p.split(","))) for p in (e.get("points") or "").split()]
        return (min(p[0] for p in pts), min(p[1] for p in pts),
                max(p[0] for p in pts), max(p[1] for p in pts))
    if tag == "text":
        size = f("font-size")
        w = len(own_text(e)) * size * 0.66
        x = f("x") - {"end": w, "middle": w / 2}.get(e.get("text-anchor") or "", 0.0)
        return x, f("y") - size, x + w, f("y") + size / 3
    return None  # lines: the connectors run through label boxes on purpose


def overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


#: What must stand clear of everything else.
WORDS = {"caption", "owner", "arm-label", "legend", "marker"}


def clashes(svg: str) -> list[str]:
    """Each pair of elements whose boxes overlap where one of them is a caption, a label,
    a marker or a legend entry (a label in its own box, the legend's swatch beside its
    words, the background, are no clash)."""
    root = ET.fromstring(svg)
    elements = [e for e in root.iter() if e.get("class") and e.tag != f"{SVG}title"]
    boxes = [(e, b) for e in elements if (b := box_of(e)) is not None]
    out = []
    words = [(i, e, a) for i, (e, a) in enumerate(boxes) if classes(e) & WORDS]
    pairs = [((e, a), (g, b)) for i, e, a in words for j, (g, b) in enumerate(boxes)
             if j != i and not (j < i and classes(g) & WORDS)]  # each pair once
    for (e, a), (g, b) in pairs:
        ce, cg = classes(e), classes(g)
        if not overlap(a, b):
            continue
        if {"label-box"} & (ce | cg) and e.get("data-arm") == g.get("data-arm") \
                and not {"marker"} & (ce | cg):
            continue  # a row's label inside its box
        if {"pip"} & (ce | cg):
            continue  # pips lie inside tiles, which are checked
        out.append(f"{' '.join(sorted(ce))} {own_text(e)!r} over "
                   f"{' '.join(sorted(cg))} {own_text(g)!r}")
    return out


def test_the_clash_reader_sees_a_clash() -> None:
    """The reader fails on a picture broken on purpose: a caption over a tile."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><rect class="tile" x="0" y="0" '
           'width="48" height="24"/><text class="caption" x="2" y="20" font-size="13">'
           "after move 1</text></svg>")
    assert clashes(svg)


def plays(trace: object) -> Iterator[int]:
    for k, m in enumerate(trace.moves, 1):  # type: ignore[attr-defined]
        if m.kind is MoveKind.PLAY:
            yield k


@pytest.mark.parametrize("name, seed", [("block-2p-d6", 1), ("draw-4p-d12", 0),
                                        ("all-fives-2p-d6", 3), ("sebastopol-4p-d6", 2),
                                        ("chickenfoot-4p-d9", 1), ("mextrain-4p-d12", 12)])
def test_no_caption_label_marker_or_legend_is_drawn_over_anything(name: str,
                                                                  seed: int) -> None:
    trace = play(variant(name), seed=seed)
    for k in plays(trace):
        assert not clashes(round_scene(trace, k).svg()), (name, seed, k)


SPINNER = SlotLayout(LayoutKind.LINE, (
    Slot("west"), Slot("east"),
    Slot("north", owner=1, access=Access.OWNER_OR_MARKER),
    Slot("south", owner=2, access=Access.OWNER)), markers=True)


def test_a_spinner_with_owners_markers_and_a_caption_is_clear() -> None:
    arms = arms_of(SPINNER, "6-6", [(0, "6-1"), (2, "6-3"), (3, "6-4"), (2, "3-3"),
                                    (2, "3-5"), (2, "5-5"), (2, "5-2")])
    svg = table_scene(arms, marks=0b110, caption=["after move 8", "open ends: 1, 6, 2, 4"],
                      last=2).svg()
    assert not clashes(svg)


def test_rows_keep_room_for_their_widest_label_and_a_marker() -> None:
    """Hand-made trains whose public train has a long name: every label and marker
    stays clear of the tiles."""
    owned = [Slot(f"train P{p}", owner=p, access=Access.OWNER_OR_MARKER) for p in range(3)]
    trains = SlotLayout(LayoutKind.TRAINS, (*owned, Slot("Mexican train")), markers=True)
    chain = ["6-1", "1-2", "2-3", "3-4"]
    arms = arms_of(trains, "6-6", [(a, t) for a in range(4) for t in chain])
    svg = table_scene(arms, marks=0b111, players=3, caption=["five trains"]).svg()
    assert not clashes(svg)
    root = ET.fromstring(svg)
    assert "Mexican train" in [own_text(e) for e in root.iter() if "public" in classes(e)]


# ---------------------------------------------------------------------------
# One colour a meaning
# ---------------------------------------------------------------------------


def hue(colour: str) -> tuple[float, float]:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, _l, s = colorsys.rgb_to_hls(r, g, b)
    return h * 360, s


def apart(a: str, b: str) -> bool:
    """Two colours a person tells apart at a glance: hues at least 30 degrees apart, or
    one of them grey (little saturation) and the other not."""
    (ha, sa), (hb, sb) = hue(a), hue(b)
    if (sa < 0.25) != (sb < 0.25):
        return True
    d = abs(ha - hb) % 360
    return min(d, 360 - d) >= 30


def mextrain_scene() -> str:
    """Mexican Train, seed 12 after move 14: P0's and P2's markers out, P3's double
    [0|0] laid last and still to be covered, three tiles on the public train."""
    return round_scene(play(variant("mextrain-4p-d12"), seed=12), 14).svg()


def test_each_meaning_has_its_own_colour_and_the_legend_says_it() -> None:
    root = ET.fromstring(mextrain_scene())
    last = [e for e in root.iter() if {"tile", "last"} <= classes(e)]
    pending = [e for e in root.iter() if {"open-end", "pending"} <= classes(e)]
    markers = [e for e in root.iter() if classes(e) == {"marker"}]
    assert len(last) == 1 and len(pending) == 1 and len(markers) == 2
    drawn = {"last": last[0].get("stroke"), "pending": pending[0].get("stroke"),
             "marker": markers[0].get("fill"),
             "open-end": next(e for e in root.iter() if classes(e) == {"open-end"}).get("fill")}
    assert last[0].get("data-tile") == "0-0"
    for (m, a), (n, b) in itertools.combinations(drawn.items(), 2):
        assert a and b and apart(a, b), f"{m} {a} and {n} {b} look alike"
    legend = {e.get("data-meaning"): e for e in root.iter() if "swatch" in classes(e)}
    words = {e.get("data-meaning"): own_text(e) for e in root.iter()
             if classes(e) == {"legend"}}
    assert set(legend) == set(drawn) == set(words)
    assert legend["last"].get("stroke") == drawn["last"]
    assert legend["pending"].get("stroke") == drawn["pending"]
    assert legend["marker"].get("fill") == drawn["marker"]
    assert "laid last" in words["last"] and "R2.2" in words["pending"]
    assert "R2.3" in words["marker"]


def test_the_apart_check_tells_two_oranges_alike() -> None:
    assert not apart("#e65100", "#ff8f00")  # the old "laid last" and "must be covered"
    assert apart("#2e7d32", "#ff8f00") and apart("#90a4ae", "#1565c0")


# ---------------------------------------------------------------------------
# Every train labelled
# ---------------------------------------------------------------------------


def test_every_train_is_labelled_the_public_one_too() -> None:
    root = ET.fromstring(mextrain_scene())
    labels = {e.get("data-arm"): own_text(e) for e in root.iter()
              if "arm-label" in classes(e)}
    assert labels == {"0": "P0", "1": "P1", "2": "P2", "3": "P3", "4": "public"}
    (public,) = [e for e in root.iter() if {"arm-label", "public"} <= classes(e)]
    assert "public train" in "".join(public.itertext())
    seats = sorted(e.get("data-seat") or "" for e in root.iter() if classes(e) == {"marker"})
    assert seats == ["0", "2"]  # each marker beside its own seat's label


# ---------------------------------------------------------------------------
# The score that counts under award "nothing"
# ---------------------------------------------------------------------------


def score_rows(text: str) -> dict[str, list[str]]:
    part = text[text.index("\nResult"):]
    return {m.group(1): m.group(0).split() for m in re.finditer(r"^  (P\d)\s{2,}.*$", part, re.M)}


@pytest.mark.parametrize("name, seed", [("mextrain-4p-d12", 0), ("chickenfoot-4p-d9", 0)])
def test_under_award_nothing_the_score_is_ones_own_pips(name: str, seed: int) -> None:
    v = variant(name)
    trace = play(v, seed=seed)
    res = outcome(v, trace.final)
    assert res is not None and set(res.awards) == {0}
    text = render_round(trace)
    assert "score: own pips" in text and "against" in text
    assert "lowest score is best" in text
    rows = score_rows(text)
    assert len(rows) == v.players
    for p in range(v.players):
        cells = rows[f"P{p}"]
        score = res.residuals[p] + res.penalties[p]
        numbers = [c for c in cells if c.isdigit()]
        # residual, award, penalty, score: the score is the residual (and any penalty)
        assert numbers[-4:] == [str(res.residuals[p]), "0", str(res.penalties[p]),
                                str(score)], cells
    assert any(r for r in res.residuals)  # someone's pips count, where the award is 0


def test_where_pips_are_awarded_the_score_is_the_award() -> None:
    v = variant("block-2p-d6")
    trace = play(v, seed=19)
    res = outcome(v, trace.final)
    assert res is not None
    text = render_round(trace)
    assert "score: own pips" not in text and "lowest score is best" not in text
    for i, side in enumerate(res.sides):
        (p,) = side
        assert score_rows(text)[f"P{p}"][-1 if i not in res.winners else -2] == str(
            res.scores[i])


# ---------------------------------------------------------------------------
# The plots: no text over text, and a residual plot of double-12 one can read
# ---------------------------------------------------------------------------



def text_clashes(fig: Any) -> list[tuple[str, str]]:
    """Pairs of the figure's texts (title, axis labels, tick labels, legend) whose boxes,
    as matplotlib lays them out, overlap."""
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2)
            if ba.overlaps(bb) and ba.width and bb.width]


@needs_matplotlib
def test_the_set_size_plot_has_no_text_over_text() -> None:
    """tiny-2p-d3 by set size: double-2's configuration changes the lead tile too (a
    note after the hand size), which once ran into every tick label."""
    from dominoproof.render.plots import block_figure, configuration, sweep

    points = sweep(variant("tiny"), "set-size", list(range(2, 10)), ["random", "greedy"],
                   rounds=30, seed=0, max_exact_deals=100)
    assert "lead tile 3-3 -> 2-2" in points[0].what
    fig = block_figure(points, "P(block) by set size: tiny-2p-d3")
    assert not text_clashes(fig)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    hands = [configuration(variant("tiny"), set_max=n)[0].deal.hand_size for n in (2, 3)]
    assert labels[:2] == [f"2\nH={hands[0]}", f"3\nH={hands[1]}"]  # the hand size alone


@needs_matplotlib
def test_the_residual_plot_of_double_12_is_binned_and_clear() -> None:
    """draw-4p-d12: the pips left at a block spread over hundreds of values; the plot
    bins them (at most 30 bars a line), keeps each policy's whole share, and writes no
    text over text."""
    from dominoproof.render.plots import (
        RESIDUAL_BINS,
        bin_width,
        binned,
        residual_distribution,
        residual_figure,
    )

    d = residual_distribution(variant("draw-4p-d12"), "block-seeking", rounds=150, seed=0)
    assert d.method == "sampled" and d.n and d.shares[-1][0] - d.shares[0][0] > 100
    width = bin_width([d])
    bins = binned(d, width)
    assert width > 1 and len(bins) <= RESIDUAL_BINS
    assert sum(b[1] for b in bins) == pytest.approx(1.0)
    assert all(b[2] <= b[1] <= b[3] for b in bins)
    fig = residual_figure([d], "The residual at a block: draw-4p-d12")
    (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "-"]
    assert len(line.get_xdata()) == len(bins) <= RESIDUAL_BINS
    assert f"bins of {width} pips" in fig.axes[0].get_xlabel()
    assert not text_clashes(fig)
