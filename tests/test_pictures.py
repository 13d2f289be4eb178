"""Pictures: the layout as it lies on the table, and the state graph with a path over it.

The layout picture is checked against readings it does not share code with: the line
rebuilt by ``render.LineOfPlay`` (the text renderer's), the tiles on the table and the
open ends read off the *state* (masks and slot values), and plain geometry (no two tiles
overlap; each tile touches the one before it on its arm, by halves showing the same
number). The geometric checkers are shown to fail on pictures broken on purpose. A
four-arm and a five-arm layout are hand-made slot data with hand-made placements: the
drawing needs no engine support. The state graph's path is checked against the search
(a fault's counterexample from ``proofs/faults.py``; a shortest blocked round's length
from the search's own figures).
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import variant

from dominoproof.cli import main
from dominoproof.model import random_round
from dominoproof.model.engine import Trace, seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import LINE, Access, LayoutKind, Slot, SlotLayout, layout_of
from dominoproof.model.moves import LEAD, MoveKind
from dominoproof.model.spec import Init
from dominoproof.model.tiles import Tile, bits
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.search.verification import verify
from dominoproof.render.graph import graph_scene, highlight_for
from dominoproof.render.narrate import LineOfPlay
from dominoproof.render.table import (
    LINE_REACH,
    Arms,
    Placed,
    arms_of,
    geometry,
    round_arms,
    round_scene,
    table_scene,
)

SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def svg_root(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and len(root.get("viewBox", "").split()) == 4
    return root


def of_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def text_of(e: ET.Element) -> str:
    """A text element's own words (its ``<title>`` tooltip left out)."""
    return (e.text or "") + "".join(child.tail or "" for child in e)


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


needs_matplotlib = pytest.mark.skipif(not has_matplotlib(), reason="PNG pictures need "
                                      "matplotlib: pip install 'dominoproof[plots]'")


# ---------------------------------------------------------------------------
# Plain geometry, independent of the drawing code
# ---------------------------------------------------------------------------


def overlapping(placed: list[Placed]) -> list[tuple[int, int]]:
    """Pairs of tiles whose boxes overlap (touching edges allowed)."""
    out = []
    for (i, a), (j, b) in itertools.combinations(enumerate(placed), 2):
        ax0, ay0, ax1, ay1 = a.box()
        bx0, by0, bx1, by1 = b.box()
        if min(ax1, bx1) - max(ax0, bx0) > 1e-6 and min(ay1, by1) - max(ay0, by0) > 1e-6:
            out.append((i, j))
    return out


def touching(a: tuple[float, float, int], b: tuple[float, float, int]) -> bool:
    """Two unit squares (by their centres) share a stretch of an edge."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (abs(dx - 1) < 1e-6 and dy < 1 - 1e-6) or (abs(dy - 1) < 1e-6 and dx < 1 - 1e-6)


def broken_joints(placed: list[Placed], lead_halves: set[tuple[float, float, int]] | None
                  ) -> list[str]:
    """Each arm's tiles must join: the first tile's near half touching a half of the lead
    showing the same number (``lead_halves`` None: trains, joined to the lead by a line),
    every later tile's near half touching the far half of the tile before it (either
    half of a double), showing the same number."""
    out = []
    by_arm: dict[int, list[Placed]] = {}
    for t in placed:
        if t.arm >= 0:
            by_arm.setdefault(t.arm, []).append(t)
    for arm, tiles in by_arm.items():
        prev: list[tuple[float, float, int]] = list(lead_halves or ())
        for k, t in enumerate(tiles):
            joined = any(touching(t.near, h) and h[2] == t.near[2] for h in prev)
            if (k or lead_halves is not None) and not joined:
                out.append(f"arm {arm} tile {k}")
            prev = [t.far] if t.near[2] != t.far[2] else [t.far, t.near]
    return out


def check_geometry(arms: Arms, joined_to_lead: bool = True) -> list[Placed]:
    placed, _starts, _ends = geometry(arms)
    assert not overlapping(placed)
    lead = next(t for t in placed if t.arm < 0)
    assert not broken_joints(placed, {lead.near, lead.far} if joined_to_lead else None)
    return placed


def test_the_geometry_checks_fail_on_broken_pictures() -> None:
    arms = arms_of(LINE, "3-4", [(1, "4-5"), (1, "5-6"), (0, "3-3")])
    placed, _, _ = geometry(arms)
    assert not overlapping(placed) and not broken_joints(placed, {placed[0].near,
                                                                    placed[0].far})
    moved = [*placed[:-1], Placed(placed[-1].arm, placed[1].near, placed[1].far)]
    assert overlapping(moved)  # a tile drawn on top of another
    lead, west, a, b = placed  # the lead, [3|3] west, then [4|5] and [5|6] east
    assert (west.arm, a.arm, b.arm) == (0, 1, 1)
    swapped = [lead, west, Placed(1, (*b.near[:2], a.near[2]), (*b.far[:2], a.far[2])),
               Placed(1, (*a.near[:2], b.near[2]), (*a.far[:2], b.far[2]))]
    assert broken_joints(swapped, {lead.near, lead.far})  # drawn out of order
    wrong = [lead, west, Placed(1, (*a.near[:2], 0), a.far), b]
    assert broken_joints(wrong, {lead.near, lead.far})  # numbers that differ


# ---------------------------------------------------------------------------
# The line, rebuilt from the moves
# ---------------------------------------------------------------------------


def line_of_play(trace: Trace) -> list[tuple[int, int]]:
    """The line as the text renderer rebuilds it, left to right."""
    layout = layout_of(trace.variant)
    line = LineOfPlay()
    states = trace.states()
    for s, m in zip(states, trace.moves, strict=False):
        if m.kind is MoveKind.PLAY:
            line.lay(Tile.from_index(m.tile),
                     LEAD if m.end == LEAD else layout.shows(s.ends, m.end))
    return line.tiles


@pytest.mark.parametrize("name", ["block-2p-d6", "draw-2p-d6", "draw-4p-d9",
                                  "partnership-4p-d6"])
def test_the_arms_of_a_line_are_the_line_of_play(name: str) -> None:
    v = variant(name)
    for seed in range(4):
        trace = random_round(v, seed)
        arms, final = round_arms(trace)
        west, east = arms.tiles
        assert arms.lead is not None
        rebuilt = ([(far, near) for near, far in reversed(west)]
                   + [(arms.lead.lo, arms.lead.hi)] + list(east))
        assert rebuilt == line_of_play(trace)
        assert sorted(e for e in arms.ends if e is not None) == sorted(final.open_ends)
        check_geometry(arms)


def test_the_svg_shows_the_tables_tiles_pips_and_open_ends_after_every_move() -> None:
    v = variant("draw-2p-d6")
    trace = random_round(v, 3)
    states = trace.states()
    for k in range(len(trace.moves) + 1):
        root = svg_root(round_scene(trace, k).svg())
        s = states[k]
        tiles = of_class(root, "tile")
        assert sorted(t.get("data-tile") for t in tiles) == sorted(
            f"{Tile.from_index(i).lo}-{Tile.from_index(i).hi}" for i in bits(s.table))
        pips = of_class(root, "pip")
        for t in tiles:
            a, b = map(int, (t.get("data-tile") or "").split("-"))
            assert sum(p.get("data-k") == t.get("data-k") for p in pips) == a + b
        ends = sorted(int(e.get("data-number") or -1) for e in of_class(root, "open-end"))
        assert ends == sorted(s.open_ends)
        last = of_class(root, "last")
        m = trace.moves[k - 1] if k else None
        assert len(last) == (1 if m is not None and m.kind is MoveKind.PLAY else 0)
        if last:
            assert last[0].get("data-tile") == str(Tile.from_index(trace.moves[k - 1].tile))
    captions = [text_of(t) for t in of_class(svg_root(round_scene(trace, 1).svg()), "caption")]
    assert captions[0].startswith("after move 1: P")


def test_a_long_line_snakes_within_its_width() -> None:
    v = variant("draw-4p-d12")
    trace = next(t for t in (random_round(v, s) for s in range(30))
                 if t.final.table.bit_count() >= 50)
    arms, _ = round_arms(trace)
    placed = check_geometry(arms)
    xs = [x for t in placed for x in (t.box()[0], t.box()[2])]
    assert max(xs) - min(xs) <= 2 * LINE_REACH + 4  # it folds instead of running off
    rows = {round(t.near[1]) for t in placed if t.horizontal}
    assert len(rows) >= 3
    assert len(placed) == trace.final.table.bit_count()


def test_a_broken_rule_book_is_said_not_drawn() -> None:
    fault = FAULTS_BY_ID["play-keeps-end"]
    v = variant(fault.demo, dict(fault.demo_overrides))
    ver = verify(v, Init.one(seeded_deal(v, 0)), engine=fault.engine, scorer=fault.scorer,
                 properties=list(fault.catches))
    trace = next(r.trace for r in ver.results if r.trace is not None)
    plays = [k for k, m in enumerate(trace.moves, 1)
             if m.kind is MoveKind.PLAY and m.end != LEAD]
    assert plays
    round_scene(trace, plays[0] - 1)  # up to the first play on an end it can be drawn
    with pytest.raises(DominoproofError, match=r"layout cannot be drawn.*no layout has"):
        round_scene(trace, plays[0])


# ---------------------------------------------------------------------------
# More arms: hand-made slot data, no engine
# ---------------------------------------------------------------------------

SPINNER = SlotLayout(LayoutKind.LINE, (
    Slot("west"), Slot("east"),
    Slot("north", owner=1, access=Access.OWNER_OR_MARKER),
    Slot("south", owner=2, access=Access.OWNER)), markers=True)


def spinner_arms() -> Arms:
    east = ["6-2", "2-2", "2-5", "5-5", "5-0", "0-0", "0-3", "3-4", "4-4", "4-1", "1-2",
            "2-3"]
    return arms_of(SPINNER, "6-6", [(0, "6-1"), (2, "6-3"), (3, "6-4"), (0, "1-1"),
                                    (0, "1-5"), (2, "3-3"), (2, "3-5"), (3, "4-0")]
                   + [(1, t) for t in east])


def test_four_arms_grow_in_four_directions_with_owners_and_markers() -> None:
    arms = spinner_arms()
    assert arms.ends == [5, 3, 5, 0]
    placed = check_geometry(arms)
    first = {t.arm: t for t in reversed(placed) if t.arm >= 0}
    assert first[0].near[0] < 0 and first[1].near[0] > 0  # west, east
    assert first[2].near[1] < 0 and first[3].near[1] > 0  # north, south (y down)
    plain = svg_root(table_scene(arms).svg())
    marked = svg_root(table_scene(arms, marks=0b10).svg())
    for root in (plain, marked):
        ends = {e.get("data-slot"): int(e.get("data-number") or -1)
                for e in of_class(root, "open-end")}
        assert ends == {"west": 5, "east": 3, "north": 5, "south": 0}
        assert sorted(text_of(o) for o in of_class(root, "owner")) == ["P1", "P2"]
        assert len(of_class(root, "tile")) == arms.count == 21
    assert not of_class(plain, "marker")
    (mark,) = of_class(marked, "marker")
    assert mark.get("data-seat") == "1"


def test_trains_five_arms_each_a_row_of_its_own() -> None:
    owned = [Slot(f"train P{p}", owner=p, access=Access.OWNER_OR_MARKER) for p in range(4)]
    trains = SlotLayout(LayoutKind.LINE, (*owned, Slot("public")), markers=True)
    chain = ["6-1", "1-2", "2-3", "3-4", "4-5", "5-0", "0-1", "1-3", "3-5", "5-2", "2-4",
             "4-0", "0-2", "2-6", "6-3"]
    placements = [(arm, t) for arm in range(5) for t in chain[: 3 + 3 * arm]]
    arms = arms_of(trains, "6-6", placements)
    placed = check_geometry(arms, joined_to_lead=False)
    assert len(placed) == 1 + sum(3 + 3 * a for a in range(5))
    root = svg_root(table_scene(arms, marks=0b1001).svg())
    assert len(of_class(root, "open-end")) == 5 and len(of_class(root, "marker")) == 2
    assert len(of_class(root, "connector")) == 5  # each train joined to the lead


def test_a_tile_that_does_not_fit_its_arm_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no such half|does not|has no"):
        arms_of(LINE, "3-4", [(1, "5-6")])


# ---------------------------------------------------------------------------
# The draw command
# ---------------------------------------------------------------------------


def test_draw_a_seeded_round_a_trace_and_its_steps(tmp_path: Path) -> None:
    r = run("draw", "block-2p-d6", "--seed", "1", "--move", "3")
    assert r.exit_code == 0, r.output
    root = svg_root(r.stdout)
    trace = random_round(variant("block-2p-d6"), 1)
    assert len(of_class(root, "tile")) == trace.states()[3].table.bit_count()
    path = tmp_path / "t.json"
    path.write_text(trace.dumps(), encoding="utf-8")
    steps = tmp_path / "steps"
    r = run("draw", str(path), "--svg", str(tmp_path / "end.svg"), "--steps", str(steps))
    assert r.exit_code == 0, r.output
    plays = [n for n, m in enumerate(trace.moves, 1) if m.kind is MoveKind.PLAY]
    assert sorted(p.name for p in steps.iterdir()) == [f"move-{n:03d}.svg" for n in plays]
    end = svg_root((tmp_path / "end.svg").read_text(encoding="utf-8"))
    assert len(of_class(end, "tile")) == trace.final.table.bit_count()


@pytest.mark.parametrize("args, needle", [
    (["draw", "block", "--move", "999"], "--move 999: the round has"),
    (["draw", "block", "--svg", "{missing}/x.svg"], "does not exist"),
    (["draw", "block", "--steps", "{missing}/deeper/dir"], "does not exist"),
    (["draw", "{tmp}/nothing.json"], "nothing.json"),
    (["draw", "no-such-variant"], "no-such-variant"),
])
def test_draw_bad_input_is_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    r = run(*[a.format(missing=tmp_path / "no-such-folder", tmp=tmp_path) for a in args])
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert needle in r.stderr and not list(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# The state graph, with a legend, a viewBox and a path
# ---------------------------------------------------------------------------


def fault_verification(fault_id: str) -> Any:
    fault = FAULTS_BY_ID[fault_id]
    v = variant("tiny")
    return verify(v, Init.one(seeded_deal(v, 0)), engine=fault.engine, scorer=fault.scorer,
                  inapplicable=True)


def test_a_faults_counterexample_is_the_highlighted_path() -> None:
    ver = fault_verification("confirm-while-playable")
    result = ver.result
    bad = next(r for r in ver.results if r.trace is not None)
    path = highlight_for(ver)
    assert path is not None and bad.property in path.label
    assert len(path.ids) == len(bad.trace.moves) + 1 and path.ids[0] < result.roots
    assert result.state(path.ids[-1]) == bad.trace.states()[-1]
    root = svg_root(graph_scene(result, path).svg())
    edges = [e for e in of_class(root, "edge") if "path" in (e.get("class") or "")]
    assert len(edges) == len(bad.trace.moves)
    boxes = [e for e in of_class(root, "state") if "path" in (e.get("class") or "")]
    assert sorted(int(b.get("data-id") or -1) for b in boxes) == sorted(set(path.ids))
    assert len(of_class(root, "state")) == result.size
    legend = " ".join(text_of(t) for t in of_class(root, "legend") if t.tag == f"{SVG}text")
    for words in ("initial state", "BLOCKED", "domino", "confirmation", "established",
                  f"counterexample to {bad.property}"):
        assert words in legend


def test_without_a_violation_a_shortest_blocked_round_is_the_witness() -> None:
    v = variant("tiny")
    ver = verify(v, Init.one(seeded_deal(v, 0)), inapplicable=True)
    assert not any(r.trace is not None for r in ver.results)
    path = highlight_for(ver)
    assert path is not None and "witness" in path.label
    shortest = ver.result.figures.shortest["blocked"]  # the search's own figure
    assert len(path.ids) - 1 == shortest
    assert ver.result.kind_of(path.ids[-1]) == "blocked"
    assert highlight_for(ver, "none") is None
    with pytest.raises(DominoproofError, match="not VIOLATED here"):
        highlight_for(ver, "procedure")


def test_explore_writes_svg_png_and_dot_with_the_path(tmp_path: Path) -> None:
    svg, dot = tmp_path / "g.svg", tmp_path / "g.dot"
    args = ["explore", "tiny", "--fault", "confirm-while-playable", "--svg", str(svg),
            "--dot", str(dot), "-q"]
    png = tmp_path / "g.png"
    if has_matplotlib():
        args += ["--png", str(png)]
    r = run(*args)
    assert r.exit_code == 1, r.output  # the fault's violations
    root = svg_root(svg.read_text(encoding="utf-8"))
    assert of_class(root, "path") and of_class(root, "legend")
    assert 'color="#0d47a1", penwidth=4' in dot.read_text(encoding="utf-8")
    if has_matplotlib():
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, needle", [
    (["explore", "tiny", "--highlight", "nope", "--svg", "{tmp}/g.svg"], "--highlight nope"),
    (["explore", "tiny", "--png", "{missing}/g.png"], "does not exist"),
])
def test_explore_picture_bad_input(tmp_path: Path, args: list[str], needle: str) -> None:
    r = run(*[a.format(missing=tmp_path / "no-such-folder", tmp=tmp_path) for a in args])
    assert r.exit_code == 2 and needle in r.stderr and not list(tmp_path.iterdir())


def test_png_without_matplotlib_names_the_extra(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    for args in (["explore", "tiny", "--png", str(tmp_path / "g.png")],
                 ["draw", "tiny", "--png", str(tmp_path / "d.png")]):
        r = run(*args)
        assert r.exit_code == 2 and "pip install 'dominoproof[plots]'" in r.stderr
    assert not list(tmp_path.iterdir())


@needs_matplotlib
def test_png_pictures_are_drawn() -> None:
    trace = random_round(variant("block-2p-d6"), 2)
    png = round_scene(trace).png()
    from io import BytesIO

    from PIL import Image

    im = Image.open(BytesIO(png)).convert("RGB")
    colours = im.getcolors(maxcolors=1 << 20) or []
    dark = sum(n for n, c in colours if sum(c) < 200)
    assert im.size[0] > 200 and dark > 500  # pips and outlines, not a blank picture
