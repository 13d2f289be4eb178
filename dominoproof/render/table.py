"""The layout as it lies on the table, drawn: tiles with pips, the arms, the open ends.

The layout is slot data (:class:`~dominoproof.model.layout.SlotLayout`): a fixed list of
slots, each an open end with an owner, an access rule (R2.3) and when it opens. The state
keeps only each slot's value, in the layout's canonical form (the line's two ends sorted:
left and right are cosmetic, STYLE 1), so the picture is rebuilt from the moves, as
:class:`dominoproof.render.text.LineOfPlay` rebuilds the line:

* the lead tile lies in the middle; **each slot is an arm** growing from it, showing the
  half of the lead that :attr:`Slot.half` names;
* a tile laid "on the end showing x" goes on an arm of that slot's symmetric group
  whose current end shows x (:meth:`Arms.arm_for`), turned so that its x half touches
  the arm (:class:`Arms`; the one reading of a move's end is :func:`number_played`);
* the arms are laid out from the slot data alone (:func:`table_scene`): two arms make
  one straight line, snaking when it is long; three or four arms grow in a spinner's
  four directions, each folding into its own quarter; more (trains) are parallel rows
  from the lead, joined to it by a trunk, each labelled (its seat, or ``public``). An
  arm with an owner is labelled with the seat, and with a marker when ``State.marks``
  has it. Doubles lie crosswise on a straight run, as at a table. The caption stands
  above everything drawn, and a legend under it says what each colour drawn means
  (:data:`MEANINGS`: one colour a meaning).

So a spinner or trains need slot data, not a new renderer: a picture is
:func:`table_scene` of the slot data, the lead and a list of ``(arm, tile)``
placements (:func:`arms_of`). :func:`round_scene` draws a round (a
:class:`~dominoproof.model.engine.Trace`) after any of its moves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dominoproof.model.engine import Trace
from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import LayoutKind, Opens, Slot, SlotLayout, layout_for, layout_of
from dominoproof.model.moves import MoveKind, said
from dominoproof.model.tiles import Tile
from dominoproof.render.arms import Arms, arm_name, arms_of, follow, number_played, round_arms
from dominoproof.render.scene import Scene

__all__ = ["MEANINGS", "UNIT", "Arms", "Placed", "arms_of", "geometry", "number_played", "pips",
           "round_arms", "round_scene", "table_scene"]

#: Pixels per half tile (a tile is 2 x 1 units).
UNIT = 24.0

E, W, N, S = (1, 0), (-1, 0), (0, -1), (0, 1)
_NAMES = {E: "east", W: "west", N: "north", S: "south"}
#: One colour per meaning, each hue well apart from the others (the tests hold them
#: apart): the tile laid last outlined green, an end that must be covered ringed orange,
#: a marker out red, an open end blue, a spinner's arm waiting grey, a seat purple.
_TILE_FILL, _TILE_EDGE, _LAST_EDGE = "#fffdf4", "#333333", "#2e7d32"
_END_FILL, _OWNER_FILL, _MARK_FILL = "#1565c0", "#4a148c", "#c62828"
_WAIT_FILL, _PENDING_EDGE = "#90a4ae", "#ff8f00"
#: What each colour means, as the legend says it (and tests read it back).
MEANINGS = {
    "open-end": (_END_FILL, "open end: the number it shows"),
    "last": (_LAST_EDGE, "the tile laid last"),
    "pending": (_PENDING_EDGE, "must be covered before play moves on (R2.2)"),
    "waiting": (_WAIT_FILL, "waits until the spinner's sides are covered"),
    "marker": (_MARK_FILL, "marker out: open to everyone (R2.3)"),
}
#: pip colours by number for sets beyond double-6 (as coloured double-9 .. 18 sets)
_PIP_COLOURS = ("#000000", "#1e88e5", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00",
                "#00838f", "#5d4037", "#ad1457", "#283593", "#558b2f", "#e65100",
                "#37474f", "#4527a0", "#00695c", "#9e9d24", "#6d4c41", "#1565c0", "#b71c1c")


# ---------------------------------------------------------------------------
# Geometry: where each tile lies (in units; a half tile is 1 x 1)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A tile as drawn: its two halves' centres and numbers (``near`` touches its arm;
    for the lead, ``near`` is the low half), the arm (-1: the lead)."""

    arm: int
    near: tuple[float, float, int]
    far: tuple[float, float, int]

    def box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the union of the two unit squares."""
        xs = (self.near[0], self.far[0])
        ys = (self.near[1], self.far[1])
        return min(xs) - 0.5, min(ys) - 0.5, max(xs) + 0.5, max(ys) + 0.5

    @property
    def horizontal(self) -> bool:
        return abs(self.near[0] - self.far[0]) > abs(self.near[1] - self.far[1])


def _add(p: tuple[float, float], d: tuple[int, int], k: float) -> tuple[float, float]:
    return p[0] + d[0] * k, p[1] + d[1] * k


def _dot(p: tuple[float, float], d: tuple[int, int]) -> float:
    return p[0] * d[0] + p[1] * d[1]


def _ccw(d: tuple[int, int]) -> tuple[int, int]:
    """A quarter turn anticlockwise as seen on screen (y down): E -> N -> W -> S."""
    return d[1], -d[0]


class _Walker:
    """Lays one arm's tiles from ``origin`` (the middle of the edge it grows from) in
    direction ``d``: a straight run outwards until the coordinate along ``d`` would pass
    ``outer``, then a corner of two tiles towards ``fold``, a run back until it would
    pass ``inner`` (measured the other way), a corner, and so on: a snake."""

    def __init__(self, origin: tuple[float, float], d: tuple[int, int],
                 fold: tuple[int, int], outer: float, inner: float) -> None:
        self.p, self.d, self.run, self.fold = origin, d, d, fold
        self.outer, self.inner = outer, inner
        self.outward = True
        self.corner = 0  #: corner tiles still to lay (0: on a straight run)

    def place(self, arm: int, near: int, far: int) -> Placed:
        double = near == far
        if not self.corner:
            length = 1 if double else 2
            limit = self.outer if self.outward else self.inner
            if _dot(_add(self.p, self.d, length), self.run) > limit + 1e-9:
                self.corner = 2
            else:
                if double:  # crosswise, as doubles lie on a straight run
                    c = _add(self.p, self.d, 0.5)
                    side = (self.d[1], self.d[0])
                    self.p = _add(self.p, self.d, 1)
                    a, b = _add(c, side, -0.5), _add(c, side, 0.5)
                    return Placed(arm, (*a, near), (*b, far))
                a = _add(self.p, self.d, 0.5)
                b = _add(self.p, self.d, 1.5)
                self.p = _add(self.p, self.d, 2)
                return Placed(arm, (*a, near), (*b, far))
        if self.corner == 2:  # the near half beside the end, the far half turned
            a = _add(self.p, self.d, 0.5)
            b = _add(a, self.fold, 1)
            self.p, self.d, self.corner = _add(b, self.fold, 0.5), self.fold, 1
            return Placed(arm, (*a, near), (*b, far))
        a = _add(self.p, self.d, 0.5)  # the second corner tile, then back the other way
        b = _add(a, self.d, 1)
        self.run = (-self.run[0], -self.run[1])
        self.d, self.corner, self.outward = self.run, 0, not self.outward
        self.p = _add(b, self.run, 0.5)
        return Placed(arm, (*a, near), (*b, far))


#: Half-widths (units) before an arm folds: a line, a spinner's east-west and
#: north-south arms, and each train.
LINE_REACH, SPINNER_REACH, SPINNER_REACH_NS, TRAIN_REACH = 13.0, 11.0, 8.0, 22.0
#: The least room (units) a toe's row keeps before it folds; the room (units) a
#: labelled row keeps after its label for the seat's marker (:func:`_label_row`).
TOE_ROOM, MARKER_ROOM = 8.0, 0.95


Point = tuple[float, float]
Heading = tuple[Point, tuple[int, int]]


def geometry(arms: Arms) -> tuple[list[Placed], list[Heading], list[Heading]]:
    """Every tile placed; per arm where it starts, and its open end's point, each with
    its direction."""
    lead = arms.lead
    w = arms.data.width
    assert lead is not None
    placed: list[Placed] = []
    walkers: list[_Walker] = []
    if w <= 2:
        dirs = [W, E] if w == 2 else [E]
        if w == 2 and arms.data.slots[0].half > arms.data.slots[1].half:
            dirs = [E, W]  # the slot showing the low half grows west
        if lead.is_double:  # crosswise
            placed.append(Placed(-1, (0.0, -0.5, lead.lo), (0.0, 0.5, lead.hi)))
            reach = 0.5
        else:
            placed.append(Placed(-1, (-0.5, 0.0, lead.lo), (0.5, 0.0, lead.hi)))
            reach = 1.0
        for d in dirs:
            walkers.append(_Walker(_add((0.0, 0.0), d, reach), d, _ccw(d), LINE_REACH,
                                   LINE_REACH))
    elif not drawn_as_rows(arms.data):
        placed.append(Placed(-1, (0.0, -0.5, lead.lo), (0.0, 0.5, lead.hi)))
        dirs = [W, E, N, S][:w]
        for d in dirs:
            start = _add((0.0, 0.0), d, 1.0 if d in (N, S) else 0.5)
            reach = SPINNER_REACH if d in (E, W) else SPINNER_REACH_NS
            fold = _ccw(d)
            inner = -1.5 if fold in dirs else reach
            walkers.append(_Walker(start, d, fold, reach, inner))
    else:
        return _rows(arms, lead)
    starts = [(wk.p, wk.d) for wk in walkers]
    for i, tiles in enumerate(arms.tiles):
        for near, far in tiles:
            placed.append(walkers[i].place(i, near, far))
    return placed, starts, [(wk.p, wk.d) for wk in walkers]


#: Layouts drawn as rows whatever their width: trains (one row a train, its owner
#: before it) and a chicken foot (its toes under the double they grow from).
_ROWS = frozenset({LayoutKind.TRAINS, LayoutKind.CHICKEN_FOOT})


def drawn_as_rows(data: SlotLayout) -> bool:
    """Whether a layout is drawn as parallel rows: trains, a chicken foot, or more arms
    than a spinner's four directions hold."""
    return data.width > 4 or data.kind in _ROWS


def _rows(arms: Arms, lead: Tile) -> tuple[list[Placed], list[Heading], list[Heading]]:
    """Trains, a chicken foot, any layout of more than four arms: parallel rows going
    east from the lead, each folding south when long. Each toe's row comes right after
    the row of the arm its double lies on and starts under that double; an arm not open
    yet (a toe no double has opened) takes no row."""
    w = arms.data.width
    placed = [Placed(-1, (0.0, -0.5, lead.lo), (0.0, 0.5, lead.hi))]
    walkers = [_Walker((2.0, 0.0), E, S, TRAIN_REACH, -2.0) for _ in range(w)]
    children: dict[int, list[int]] = {}
    for toe, (arm, _) in sorted(arms.parent.items()):
        children.setdefault(arm, []).append(toe)
    order: list[int] = []

    def visit(i: int) -> None:
        order.append(i)
        for toe in children.get(i, []):
            visit(toe)

    for i in range(w):
        if i not in arms.parent and (arms.ends[i] is not None or arms.tiles[i]):
            visit(i)
    on_arm: dict[int, list[Placed]] = {}
    starts: list[Heading] = [((2.0, 0.0), E) for _ in range(w)]
    y = -(len(order) - 1) * 1.5
    first = 2.0
    if _labels_rows(arms.data):  # room for the widest label, then a marker
        widest = max(_label_width(sl) for sl in arms.data.slots if sl.opens is not Opens.TOE)
        first = LABEL_X + widest / UNIT + MARKER_ROOM
    for i in order:
        x = first
        if i in arms.parent:
            arm, j = arms.parent[i]
            double = on_arm[arm][j]
            x = min((double.near[0] + double.far[0]) / 2 - 0.5, TRAIN_REACH - TOE_ROOM)
        walkers[i] = wk = _Walker((x, y), E, S, TRAIN_REACH, -x)
        starts[i] = ((x, y), E)
        on_arm[i] = [wk.place(i, near, far) for near, far in arms.tiles[i]]
        placed += on_arm[i]
        y += 3.0 * _rows_needed(arms.tiles[i], TRAIN_REACH - x)
    return placed, starts, [(wk.p, wk.d) for wk in walkers]


def _rows_needed(tiles: Sequence[tuple[int, int]], room: float) -> int:
    length = sum(1 if a == b else 2 for a, b in tiles)
    return max(1, math.ceil((length + 1) / max(room - 2, 1.0)))


# ---------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------


def pips(n: int) -> list[tuple[float, float]]:
    """The pips of a half showing ``n``, upright, in [-1, 1]^2 (as printed on real
    dominoes up to 9; a grid of three columns beyond)."""
    c, tl, tr, bl, br = (0, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)
    ml, mr, tm, bm = (-1, 0), (1, 0), (0, -1), (0, 1)
    six = [tl, ml, bl, tr, mr, br]
    fixed: dict[int, list[tuple[int, int]]] = {
        0: [], 1: [c], 2: [tl, br], 3: [tl, c, br], 4: [tl, tr, bl, br],
        5: [tl, tr, c, bl, br], 6: six, 7: [*six, c], 8: [*six, tm, bm],
        9: [*six, tm, c, bm]}
    if n in fixed:
        return [(float(x), float(y)) for x, y in fixed[n]]
    rows = math.ceil(n / 3)
    out: list[tuple[float, float]] = []
    for r in range(rows):
        k = min(3, n - 3 * r)
        y = -1 + 2 * r / (rows - 1)
        xs = [-1.0, 0.0, 1.0][:k] if k == 3 else [-0.5, 0.5][:k] if k == 2 else [0.0]
        out += [(x, y) for x in xs]
    return out


def _draw_half(sc: Scene, cx: float, cy: float, n: int, horizontal: bool, k: int,
               colour: bool) -> None:
    spots = pips(n)
    big = n > 9
    r = UNIT * (0.075 if big else 0.1)
    spread = UNIT * 0.29
    fill = _PIP_COLOURS[n % len(_PIP_COLOURS)] if colour else "#000000"
    for x, y in spots:
        if horizontal:
            x, y = y, -x  # a tile lying down shows its pips turned a quarter
        sc.circle(cx * UNIT + x * spread * (0.75 if big and horizontal else 1),
                  cy * UNIT + y * spread * (0.75 if big and not horizontal else 1), r,
                  fill=fill, cls="pip", data={"k": str(k), "number": str(n)})


def _draw_tile(sc: Scene, t: Placed, k: int, colour: bool, last: bool, where: str) -> None:
    """Tile ``t``, the ``k``-th drawn, lying ``where`` (the hub, on train P1, ...)."""
    x0, y0, x1, y1 = t.box()
    lo, hi = sorted((t.near[2], t.far[2]))
    sc.rect(x0 * UNIT + 1, y0 * UNIT + 1, (x1 - x0) * UNIT - 2, (y1 - y0) * UNIT - 2,
            fill=_TILE_FILL, stroke=_LAST_EDGE if last else _TILE_EDGE,
            width=2.6 if last else 1.2, rx=4, cls="tile" + (" last" if last else ""),
            data={"k": str(k), "tile": f"{lo}-{hi}", "arm": str(t.arm),
                  "near": str(t.near[2]), "far": str(t.far[2])},
            title=f"[{lo}|{hi}] {where}")
    mx, my = (t.near[0] + t.far[0]) / 2 * UNIT, (t.near[1] + t.far[1]) / 2 * UNIT
    if t.horizontal:
        sc.line(mx, y0 * UNIT + 4, mx, y1 * UNIT - 4, stroke="#555555", width=1)
    else:
        sc.line(x0 * UNIT + 4, my, x1 * UNIT - 4, my, stroke="#555555", width=1)
    for cx, cy, n in (t.near, t.far):
        _draw_half(sc, cx, cy, n, t.horizontal, k, colour)


def table_scene(arms: Arms, *, marks: int = 0, players: int | None = None,
                last: int | None = None, caption: Sequence[str] = (),
                legend: bool = True) -> Scene:
    """The picture of ``arms``: every tile with its pips, each open end marked with the
    number it shows, each owned arm labelled with its seat (and a marker when bit
    ``owner`` of ``marks`` is set), every train of a layout of trains labelled (the
    public one too), ``caption`` lines above everything, and (``legend``) a legend under
    it saying what each colour drawn means. ``last``: the arm whose outermost tile was
    laid last (-1: the lead), drawn outlined."""
    sc = Scene("; ".join(caption) or "the layout")
    if arms.lead is None:
        sc.text(0, 0, "no tile on the table yet", size=13, cls="caption")
        for i, line in enumerate(caption):
            sc.text(0, -22 * (len(caption) - i), line, size=13, cls="caption")
        return sc
    placed, starts, ends = geometry(arms)
    as_rows = drawn_as_rows(arms.data)
    labelled = as_rows and _labels_rows(arms.data)
    if as_rows:
        _connectors(sc, arms, placed, starts)
    colour = max(max(t.near[2], t.far[2]) for t in placed) > 6
    outer = {i: len(arms.tiles[i]) for i in range(len(arms.tiles))}
    shown: set[str] = set()
    for k, t in enumerate(placed):
        is_last = (last == -1 and t.arm == -1) or (
            last is not None and last >= 0 and t.arm == last
            and sum(1 for u in placed[: k + 1] if u.arm == last) == outer[last])
        if is_last:
            shown.add("last")
        name = arm_name(arms.data, t.arm, arms.lead)
        _draw_tile(sc, t, k, colour, is_last, f"(the {name})" if t.arm < 0 else f"on {name}")
    owners = [sl.owner for sl in arms.data.slots if sl.owner is not None]
    seats = players if players is not None else max(owners, default=0) + 1
    layout = layout_for(arms.data, seats)
    rows = _rows_shown(arms)
    width = max((_label_width(arms.data.slots[i]) for i in rows), default=0.0)
    for i, ((px, py), d) in enumerate(ends):
        slot = arms.data.slots[i]
        if arms.ends[i] is not None:
            shown.add("open-end")
            shown.update(_open_end(sc, arms, i, (px + d[0] * 0.55) * UNIT,
                                   (py + d[1] * 0.55) * UNIT, _NAMES[d]))
        marked = slot.owner is not None and layout.marker_out(marks, slot.owner)
        if as_rows:
            if not (labelled and i in rows):
                continue  # no row drawn (a toe, a train not open), or no labels
            _label_row(sc, starts[i], i, slot, width, marked)
        elif slot.owner is not None:
            _label_owner(sc, starts[i], i, slot.name, slot.owner, marked)
        shown.update(("marker",) if marked else ())
    if legend:
        _legend(sc, [key for key in MEANINGS if key in shown])
    _caption(sc, caption)
    return sc


def _labels_rows(data: SlotLayout) -> bool:
    """Whether a layout drawn as rows labels each row (trains: a seat's and the public
    one), which :func:`_rows` leaves room for before the rows."""
    return any(sl.owner is not None for sl in data.slots)


def _rows_shown(arms: Arms) -> list[int]:
    """The arms drawn as rows from the lead (not a toe), open or holding tiles."""
    return [i for i in range(arms.data.width) if i not in arms.parent
            and (arms.ends[i] is not None or arms.tiles[i])]


#: Where the line joining the rows to the lead runs (units right of the lead's centre),
#: and where each row's label starts.
TRUNK_X, LABEL_X = 1.1, 1.4
_LABEL_SIZE = 11.0


def _label_text(slot: Slot) -> str:
    return f"P{slot.owner}" if slot.owner is not None else slot.name


def _label_width(slot: Slot) -> float:
    """The width (px) of a row label's box: its text (bold) and a margin each side."""
    return len(_label_text(slot)) * _LABEL_SIZE * 0.66 + 10


def _connectors(sc: Scene, arms: Arms, placed: Sequence[Placed],
                starts: Sequence[Heading]) -> None:
    """Rows start apart from the lead: a trunk right of the lead joins every row to it
    (a line along the trunk, then along the row to where it starts), and a line joins a
    toe's row to the double it grows from."""
    rows = _rows_shown(arms)
    if rows:
        ys = [starts[i][0][1] for i in rows] + [0.0]
        sc.line(0.5 * UNIT, 0, TRUNK_X * UNIT, 0, stroke="#9e9e9e", width=2,
                cls="connector-trunk")
        sc.line(TRUNK_X * UNIT, min(ys) * UNIT, TRUNK_X * UNIT, max(ys) * UNIT,
                stroke="#9e9e9e", width=2, cls="connector-trunk")
    for i in rows:
        (px, py), _d = starts[i]
        sc.line(TRUNK_X * UNIT, py * UNIT, px * UNIT, py * UNIT, stroke="#9e9e9e", width=2,
                cls="connector", data={"arm": str(i)})
    for i, (a, j) in sorted(arms.parent.items()):
        (px, py), _d = starts[i]
        double = [t for t in placed if t.arm == a][j]
        fx, fy = (double.near[0] + double.far[0]) / 2, double.box()[3]
        sc.line(fx * UNIT, fy * UNIT, px * UNIT, py * UNIT, stroke="#9e9e9e", width=2,
                cls="connector toe", data={"arm": str(i)})


def _label_row(sc: Scene, start: Heading, arm: int, slot: Slot, width: float,
               marked: bool) -> None:
    """A row's label on the line that joins it to the lead: the seat owning it (``P1``)
    or its name (``public``), in a box, and after it the seat's marker when it is out
    (R2.3: the train is then open to everyone)."""
    (_px, py), _d = start
    x, y = LABEL_X * UNIT, py * UNIT
    text = _label_text(slot)
    owned = slot.owner is not None
    tip = (f"{slot.name}: P{slot.owner}'s train" if owned
           else f"{slot.name}: the public train, open to everyone")
    sc.rect(x, y - 9, width, 18, fill="white", stroke=_OWNER_FILL, width=1.2, rx=4,
            cls="label-box", data={"arm": str(arm)})
    sc.text(x + width / 2, y + 4, text, size=_LABEL_SIZE, anchor="middle", fill=_OWNER_FILL,
            bold=True, cls="arm-label" + (" owner" if owned else " public"),
            data={"arm": str(arm), **({"seat": str(slot.owner)} if owned else {})},
            title=tip)
    if marked:
        mx = x + width + 5
        sc.polygon([(mx, y - 7), (mx + 13, y), (mx, y + 7)], fill=_MARK_FILL,
                   cls="marker", data={"seat": str(slot.owner)},
                   title=f"P{slot.owner}'s marker is out: the train is open to everyone "
                         "(R2.3)")


def _legend(sc: Scene, keys: Sequence[str]) -> None:
    """Under the picture, what each colour drawn means (only those drawn), in aligned
    columns no wider than the picture (or 420 px)."""
    if not keys:
        return
    x0, y0, w, h = sc.bounds()
    size = 11.0
    column = max(22 + len(MEANINGS[k][1]) * size * 0.62 for k in keys) + 24
    across = max(1, int(max(w, 420.0) // column))
    for n, key in enumerate(keys):
        colour, words = MEANINGS[key]
        x = x0 + column * (n % across)
        y = y0 + h + 26 + 20 * (n // across)
        cx, cy = x + 9, y - 4
        data = {"meaning": key, "colour": colour}
        if key == "last":
            sc.rect(cx - 9, cy - 6, 18, 12, fill=_TILE_FILL, stroke=colour, width=2.6, rx=3,
                    cls="legend swatch", data=data)
        elif key == "marker":
            sc.polygon([(cx - 6, cy - 7), (cx + 7, cy), (cx - 6, cy + 7)], fill=colour,
                       cls="legend swatch", data=data)
        elif key == "pending":
            sc.circle(cx, cy, 7, fill=_END_FILL, stroke=colour, width=3,
                      cls="legend swatch", data=data)
        else:
            sc.circle(cx, cy, 7, fill=colour, cls="legend swatch", data=data)
        sc.text(x + 22, y, words, size=size, cls="legend", data={"meaning": key})


def _caption(sc: Scene, caption: Sequence[str]) -> None:
    """The caption's lines above everything drawn (labels, markers and open ends
    included), the first in bold."""
    if not caption:
        return
    x0, y0, _w, _h = sc.bounds()
    for i, line in enumerate(caption):
        sc.text(x0, y0 - 10 - 20 * (len(caption) - 1 - i), line, size=13, bold=i == 0,
                cls="caption")


def _open_end(sc: Scene, arms: Arms, i: int, cx: float, cy: float, growing: str) -> set[str]:
    """Arm ``i``'s open end: the number it shows, ringed when it must take a tile before
    play moves on (R2.2), pale while it waits for a spinner's sides (Terms). Returns
    what it drew that the legend names (``pending``, ``waiting``)."""
    slot, number = arms.data.slots[i], arms.ends[i]
    waits = arms.waits(i)
    pending = i in arms.pending
    said = f"open end ({slot.name}, growing {growing}): shows {number}"
    if pending:
        said += "; must take a tile before play moves elsewhere (R2.2)"
    if waits:
        sides = " and ".join(arms.data.slots[j].name for j in waits)
        said += f"; waits until {sides} {'is' if len(waits) == 1 else 'are'} covered"
    cls = "open-end" + (" pending" if pending else "") + (" waiting" if waits else "")
    sc.circle(cx, cy, UNIT * 0.42, fill=_WAIT_FILL if waits else _END_FILL,
              stroke=_PENDING_EDGE if pending else "white", width=3 if pending else 1.5,
              cls=cls, data={"arm": str(i), "number": str(number), "slot": slot.name},
              title=said)
    sc.text(cx, cy + 4.5, str(number), size=12, anchor="middle", fill="white",
            bold=True, cls="open-end-number")
    return {k for k, on in (("pending", pending), ("waiting", bool(waits))) if on}


def _label_owner(sc: Scene, start: Heading, arm: int, name: str, owner: int,
                 marked: bool) -> None:
    """The seat owning an arm of a line or a spinner, beside where it starts, and its
    marker when it is out (R2.3: the arm is then open to everyone)."""
    (px, py), d = start
    side = (d[1], d[0]) if d in (E, W) else (-d[1], d[0])
    x = (px + d[0] * 0.5 + side[0] * 1.3) * UNIT
    y = (py + d[1] * 0.5 + side[1] * 1.3) * UNIT
    sc.text(x, y + 4, f"P{owner}", size=11, anchor="middle", fill=_OWNER_FILL, bold=True,
            cls="owner", data={"arm": str(arm), "seat": str(owner)},
            title=f"arm {arm} ({name}) belongs to P{owner}")
    if marked:  # on the label's far side from the arm (after it, beside a row)
        mx = x + 14 if side[0] >= 0 else x - 26
        sc.polygon([(mx, y - 6), (mx + 12, y - 1), (mx, y + 4)], fill=_MARK_FILL,
                   cls="marker", data={"seat": str(owner)},
                   title=f"P{owner}'s marker is out: the arm is open to everyone (R2.3)")


def round_scene(trace: Trace, upto: int | None = None, *, caption: bool = True,
                legend: bool = True) -> Scene:
    """The layout of ``trace`` after ``upto`` moves (the end by default), the tile laid
    last outlined, with a caption saying which move it follows and the open ends, and a
    legend (a page that shows many layouts says it once instead). A broken rule book
    whose ends no layout has raises a :class:`DominoproofError`."""
    k = len(trace.moves) if upto is None else upto
    if not 0 <= k <= len(trace.moves):
        raise DominoproofError(f"--move {k}: the round has {len(trace.moves)} moves "
                               f"(allowed: 0..{len(trace.moves)})")
    try:
        built, state = follow(trace, k)
    except ValueError as e:
        raise DominoproofError(f"the layout cannot be drawn: {e}") from None
    states = trace.states()
    layout = layout_of(trace.variant)
    last = None
    lines: list[str] = []
    if k:
        m = trace.moves[k - 1]
        before = states[k - 1]
        if m.kind is MoveKind.PLAY:
            last = built.last
        lines.append(f"after move {k}: {said(layout, before, m)}")
    else:
        lines.append("the deal: no move yet")
    ends = " and ".join(str(e) for e in state.open_ends)
    lines.append(f"open ends: {ends}" if ends else "no open end yet")
    return table_scene(built.arms, marks=state.marks, players=trace.variant.players, last=last,
                       caption=lines if caption else (), legend=legend)
