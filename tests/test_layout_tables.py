"""Readable tables of layouts of several lines: ``play``, ``replay``, every counterexample
and the SVG picture draw the spinner's arms, each train with its owner and marker, and
the chicken foot's toes.

Each rendering is checked against readings it does not share code with: the tiles on
the table and the numbers the open ends show read off the *state* (masks and slot
values), the markers out, covered sides and pending slots read through the plain
reference's translation of ``State.marks`` (``tests/reference_layout.py``), and plain
chains (each tile of an arm joins the one before it by a half showing the same number,
the first joins the lead's number, or the double a toe grows from). The checks are
shown to fail on a table rendered wrong on purpose.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest
import reference_layout as ref
from click.testing import CliRunner
from helpers import variant

from dominoproof.cli import main
from dominoproof.model import random_round
from dominoproof.model.engine import Trace
from dominoproof.model.layout import CLOSED, Opens
from dominoproof.model.moves import MoveKind
from dominoproof.model.state import State
from dominoproof.model.tiles import Tile, bits
from dominoproof.model.variant import Variant
from dominoproof.options import WIDTH
from dominoproof.render.narrate import ArmRow, narrate
from dominoproof.render.table import geometry, round_arms, round_scene
from dominoproof.render.text import render_round

SVG = "{http://www.w3.org/2000/svg}"

#: a configuration of each kind, on the draw game (rounds long enough to show it all)
KINDS: dict[str, dict[str, Any]] = {
    "spinner-sides-first": {"layout.kind": "spinner", "lead.rule": "highest-double"},
    "spinner-takes-4": {"layout.kind": "spinner", "lead.rule": "highest-double",
                        "layout.spinner_sides_first": False, "layout.lead_double_takes": 4},
    "trains": {"layout.kind": "trains", "lead.rule": "highest-double", "draw.rule": "one",
               "deal.players": 3, "deal.hand_size": 5, "layout.double_takes": 1,
               "layout.double_again": True},
    "chicken-foot": {"layout.kind": "chicken-foot", "lead.rule": "highest-double",
                     "set.max": 9, "deal.players": 3, "deal.hand_size": 10,
                     "layout.double_takes": 3, "layout.lead_double_takes": 4},
}
#: what the rounds of each configuration must show somewhere (so no check is vacuous)
SHOWN: dict[str, set[str]] = {
    "spinner-sides-first": {"waits until", "shows"},
    "spinner-takes-4": {"must be covered first"},
    "trains": {"marker out", "must be covered first"},
    "chicken-foot": {"grows from the", "must be covered first", "not open yet"},
}
SEEDS = range(6)


def kind_variant(name: str) -> Variant:
    return variant("draw-2p-d6", KINDS[name])


def rounds(name: str) -> list[Trace]:
    v = kind_variant(name)
    return [random_round(v, seed) for seed in SEEDS]


# ---------------------------------------------------------------------------
# What a table must say, read off the state
# ---------------------------------------------------------------------------

_TILE = re.compile(r"\[(\d+)\|(\d+)\]")


def halves(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in _TILE.findall(text)]


def marks_of(v: Variant, s: State) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """(markers out, covered slots, pending slots): the plain reference's reading."""
    return ref.read_marks(v, s.marks)


def table_errors(v: Variant, rows: tuple[ArmRow, ...], s: State) -> list[str]:
    """What the rows of a table get wrong about the state ``s`` they were drawn after."""
    out: list[str] = []
    if not rows:
        return ["no table"]
    lead_row, *arm_rows = rows
    (lead,) = halves(" ".join(lead_row.tiles))
    laid = [lead] + [t for r in arm_rows for t in halves(" ".join(r.tiles))]
    if sorted(Tile(min(t), max(t)).idx for t in laid) != sorted(bits(s.table)):
        out.append(f"tiles {laid}, the table {[Tile.from_index(i).show() for i in bits(s.table)]}")
    shown = [int(m.group(1)) for r in arm_rows if (m := re.match(r"shows (\d+)", r.note))]
    if Counter(shown) != Counter(s.open_ends):
        out.append(f"ends shown {sorted(shown)}, the state's {sorted(s.open_ends)}")
    markers, _, pending = marks_of(v, s)
    if sum("must be covered first" in r.note for r in arm_rows) != len(pending):
        out.append(f"pending rows, the state's pending slots {sorted(pending)}")
    slots = {sl.name: sl for sl in v.slot_layout.slots}
    for r in arm_rows:
        tiles = halves(" ".join(r.tiles))
        grows = re.search(r"grows from the \[(\d+)\|(\d+)\]", r.note)
        start = int(grows.group(1)) if grows else (
            lead[slots[r.name].half] if r.name in slots else None)
        for k, (near, _far) in enumerate(tiles):
            want = start if k == 0 else tiles[k - 1][1]
            if want is not None and near != want:
                out.append(f"{r.name}: tile {k} [{near}|{_far}] does not join {want}")
        sl = slots.get(r.name)
        if (sl is not None and sl.owner is not None
                and ("marker out" in r.note) != (sl.owner in markers)):
            out.append(f"{r.name}: marker said {'marker out' in r.note}, the state "
                       f"{sl.owner in markers}")
        if sl is not None and sl.after:  # the sides' own rows say whether they have a tile
            bare = [j for j in sl.after if not any(
                x.name == v.slot_layout.slots[j].name and x.tiles for x in arm_rows)]
            if ("waits until" in r.note) != bool(bare):
                out.append(f"{r.name}: waiting said {'waits until' in r.note}, the sides "
                           f"without a tile {bare}")
    return out


def every_table(name: str) -> tuple[Counter[str], int]:
    """Check every table of the rounds of ``name``; what their notes said, and how many."""
    v = kind_variant(name)
    said: Counter[str] = Counter()
    tables = 0
    for trace in rounds(name):
        states = trace.states()
        for st in narrate(trace):
            if not st.table:
                continue
            tables += 1
            errors = table_errors(v, st.table, states[st.number])
            assert not errors, (name, trace.seed, st.number, errors)
            for r in st.table:
                for phrase in ("waits until", "marker out", "must be covered first",
                               "grows from the", "not open yet", "shows"):
                    said[phrase] += phrase in r.note
    return said, tables


# ---------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(KINDS))
def test_every_table_of_a_round_says_what_the_state_holds(name: str) -> None:
    said, tables = every_table(name)
    assert tables > 0
    missing = {p for p in SHOWN[name] if not said[p]}
    assert not missing, (name, said)


@pytest.mark.parametrize("name", list(KINDS))
def test_a_round_of_several_lines_prints_within_the_width(name: str) -> None:
    for trace in rounds(name)[:3]:
        text = render_round(trace)
        # the title names the variant with its overrides, as given: not wrapped
        assert max(len(line) for line in text.splitlines()[1:]) <= WIDTH
        assert "no layout has them" not in text and "no line has them" not in text
        assert "\n              line  " not in text  # several lines are not told as one


def test_the_table_checks_fail_on_tables_told_wrong() -> None:
    """Each check of :func:`table_errors` catches a table drawn wrong on purpose."""
    v = kind_variant("trains")
    steps = [(st, trace.states()[st.number]) for trace in rounds("trains")
             for st in narrate(trace) if st.table]
    after = {id(st): s for st, s in steps}
    marked = next(st for st, _ in steps if any("marker out" in r.note for r in st.table))
    pending = next(st for st, _ in steps
                   if any("must be covered" in r.note for r in st.table))
    rich = next(st for st, _ in steps if any(len(r.tiles) >= 2 for r in st.table[1:])
                and sum(bool(r.tiles) for r in st.table[1:]) >= 2)

    def errors(st: Any, rows: list[ArmRow]) -> list[str]:
        return table_errors(v, tuple(rows), after[id(st)])

    assert not errors(rich, list(rich.table))
    rows = list(rich.table)
    k = next(i for i, r in enumerate(rows) if i and r.tiles)
    rows[k] = ArmRow(rows[k].name, rows[k].tiles[:-1], rows[k].note)  # a tile lost
    assert any("tiles" in e for e in errors(rich, rows))
    rows = list(rich.table)
    j = next(i for i, r in enumerate(rows) if i and len(r.tiles) >= 2)
    rows[j] = ArmRow(rows[j].name, tuple(reversed(rows[j].tiles)), rows[j].note)
    assert any("does not join" in e for e in errors(rich, rows))
    rows = [ArmRow(r.name, r.tiles, r.note.replace("shows", "showing")) for r in rich.table]
    assert any("ends shown" in e for e in errors(rich, rows))
    rows = [ArmRow(r.name, r.tiles, r.note.replace("; marker out: open to all (R2.3)", ""))
            for r in marked.table]
    assert any("marker said" in e for e in errors(marked, rows))
    rows = [ArmRow(r.name, r.tiles, r.note.replace("must be covered first", "fine"))
            for r in pending.table]
    assert any("pending rows" in e for e in errors(pending, rows))
    sv = kind_variant("spinner-sides-first")
    strace = rounds("spinner-sides-first")[0]
    first = narrate(strace)[0]
    assert first.table and not table_errors(sv, first.table, strace.states()[1])
    rows = [ArmRow(r.name, r.tiles, r.note.split("; waits")[0]) for r in first.table]
    assert any("waiting said" in e for e in table_errors(sv, tuple(rows), strace.states()[1]))


def test_a_train_s_play_and_draw_name_the_train() -> None:
    trace = rounds("trains")[0]
    steps = narrate(trace)
    names = {sl.name for sl in trace.variant.slot_layout.slots}
    plays = [st for st in steps if st.move.kind is MoveKind.PLAY and st.move.end >= 0]
    assert plays
    for st in plays:
        where = re.search(r" on (.+) \(showing (\d+)\)", st.text)
        assert where is not None and where.group(1) in names, st.text
    fits = [st.text for st in steps if st.move.kind is MoveKind.DRAW and "which fits" in st.text]
    assert all(re.search(r"fits (train P\d|public) \(\d+\)", t) for t in fits)


def test_play_prints_the_trains_with_their_owners_and_markers() -> None:
    args = ["play", "draw-2p-d6", "--seed", "1"]
    for key, value in KINDS["trains"].items():
        args += ["-o", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert re.search(r"\n +hub +\[(\d)\|\1\]\n", r.output)  # the hub, a double
    for p in range(3):
        assert f"train P{p}" in r.output
    assert "marker out: open to all (R2.3)" in r.output


# ---------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------


def of_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def waiting_slots(v: Variant, s: State) -> int:
    """Open slots that wait for a side not yet covered (the plain reading of the marks)."""
    _, covered, _ = marks_of(v, s)
    return sum(1 for i, sl in enumerate(v.slot_layout.slots)
               if s.ends[i] != CLOSED and any(j not in covered for j in sl.after))


@pytest.mark.parametrize("name", list(KINDS))
def test_the_picture_of_every_play_shows_what_the_state_holds(name: str) -> None:
    v = kind_variant(name)
    toes = [i for i, sl in enumerate(v.slot_layout.slots) if sl.opens is Opens.TOE]
    seen: Counter[str] = Counter()
    for trace in rounds(name)[:3]:
        states = trace.states()
        for k, m in enumerate(trace.moves, 1):
            if m.kind is not MoveKind.PLAY:
                continue
            s = states[k]
            root = ET.fromstring(round_scene(trace, k).svg())
            tiles = sorted(t.get("data-tile") or "" for t in of_class(root, "tile"))
            assert tiles == sorted(f"{Tile.from_index(i).lo}-{Tile.from_index(i).hi}"
                                   for i in bits(s.table))
            ends = [int(e.get("data-number") or -1) for e in of_class(root, "open-end")]
            assert Counter(ends) == Counter(s.open_ends)
            markers, _, pending = marks_of(v, s)
            assert len(of_class(root, "pending")) == len(pending), (trace.seed, k)
            assert len(of_class(root, "marker")) == len(markers)
            assert len(of_class(root, "waiting")) == waiting_slots(v, s), (trace.seed, k)
            if toes:  # every open toe joined to the double it grows from
                opened = sum(1 for x in s.ends if x != CLOSED) - 4
                assert len([c for c in of_class(root, "connector")
                            if "toe" in (c.get("class") or "")]) == opened
            seen["pending"] += bool(pending)
            seen["marker"] += bool(markers)
            seen["waiting"] += bool(waiting_slots(v, s))
            seen["toe"] += bool(toes) and len(s.open_ends) > 4
        arms, _ = round_arms(trace)
        placed, _, _ = geometry(arms)
        boxes = [t.box() for t in placed]
        for i, a in enumerate(boxes):  # no two tiles overlap
            for b in boxes[i + 1:]:
                assert not (min(a[2], b[2]) - max(a[0], b[0]) > 1e-6
                            and min(a[3], b[3]) - max(a[1], b[1]) > 1e-6), (name, a, b)
    want = {"spinner-sides-first": "waiting", "spinner-takes-4": "pending",
            "trains": "marker", "chicken-foot": "toe"}[name]
    assert seen[want] > 0, (name, seen)


def test_owners_labels_name_every_train() -> None:
    trace = rounds("trains")[0]
    root = ET.fromstring(round_scene(trace).svg())
    owners = sorted(e.get("data-seat") or "" for e in of_class(root, "owner"))
    assert owners == ["0", "1", "2"]
    assert {e.get("data-slot") for e in of_class(root, "open-end")} == {
        "train P0", "train P1", "train P2", "public"}


# ---------------------------------------------------------------------------
# Counterexamples
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fault_id", ["marker-stays-in", "double-left-uncovered",
                                      "arms-open-early", "confirm-past-double"])
def test_each_layout_fault_s_counterexample_is_told_arm_by_arm(fault_id: str) -> None:
    """The round of each layout fault's counterexample, replayed under the fault's rule
    book, is told arm by arm (every table true to the state it follows) and drawn."""
    from dominoproof.proofs.faults import FAULTS_BY_ID
    from dominoproof.proofs.search.verification import verify

    fault = FAULTS_BY_ID[fault_id]
    v = fault.variant()
    ver = verify(v, fault.init(v), engine=fault.engine, properties=list(fault.catches))
    traces = [r.trace for r in ver.results if isinstance(r.trace, Trace)]
    assert len(traces) == len(fault.catches)
    for trace in traces:
        states = trace.states()  # under the rule book the trace names (the fault's)
        steps = narrate(trace)
        several = v.slot_layout.width > 2
        assert any(st.table if several else st.line for st in steps)
        for st in steps:
            if st.table:
                assert not table_errors(v, st.table, states[st.number]), (fault_id, st)
            if st.line:  # the one line says the double it leaves to cover, if any
                _, _, pending = marks_of(v, states[st.number])
                assert ("must be covered first" in st.line[-1]) == bool(pending)
        text = render_round(trace)
        assert "no layout has them" not in text
        root = ET.fromstring(round_scene(trace).svg())
        assert Counter(int(e.get("data-number") or -1) for e in of_class(root, "open-end")) \
            == Counter(trace.final.open_ends)


def test_explore_s_counterexample_names_the_trains_and_draws_the_table() -> None:
    """``explore``'s counterexample on trains names the train each play goes on and
    tells the table where it fails, one arm a row, with the markers the state has."""
    r = CliRunner().invoke(main, [
        "explore", "block-2p-d6", "-o", "set.max=3", "-o", "deal.hand_size=2",
        "-o", "lead.rule=highest-double", "-o", "layout.kind=trains",
        "--fault", "marker-stays-in", "-p", "markers"])
    assert r.exit_code == 1, r.output
    text = r.output[r.output.index("counterexample to markers"):]
    assert re.search(r"plays \[\d\|\d\] on train P\d \(showing \d\)", text)
    table = text[text.index("  the table:"):text.index("  why:")].splitlines()[1:]
    assert re.match(r" +hub +\[(\d)\|\1\]$", table[0])
    assert [line.split()[0] + " " + line.split()[1] for line in table[1:3]] == [
        "train P0", "train P1"]
    assert "marker out" not in "\n".join(table)  # the fault left P1's marker in



def _unreplayed_run() -> Any:
    """A round on trains as a Z3 run the engine is said not to replay: the commands then
    tell it from its states (here the engine's own), not with ``render_round``."""
    from dominoproof.proofs.z3.bmc import Run

    trace = random_round(kind_variant("trains"), 0)
    return Run(trace.states(), list(trace.moves), trace, False, "said not to replay")


@pytest.mark.parametrize("command", ["prove", "witness"])
def test_prove_and_witness_draw_the_table_of_a_round_told_state_by_state(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A counterexample (prove) or an answer (witness) the engine does not replay is told
    from its states; its last state is drawn as ``play`` draws a table, one arm a row (the
    hub, each train with its owner and marker, the public train), by the function
    ``explore`` draws its counterexamples' with."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from dominoproof.commands import prove, witness
    from dominoproof.proofs.properties import Result, Verdict
    from dominoproof.proofs.z3.witnesses import Witness
    from dominoproof.render.narrate import table_rows
    from dominoproof.render.text import rows_text

    run = _unreplayed_run()
    v = run.trace.variant
    buf = io.StringIO()
    out = Console(file=buf, width=WIDTH, color_system=None, markup=False)
    if command == "prove":
        r = Result("markers", Verdict.VIOLATED, "bounded to depth 9", "", trace=run)
        prove._print_evidence(out, r, SimpleNamespace(variant=v), None)
        indent = "    "
    else:
        monkeypatch.setattr(witness, "console", lambda **_: out)
        w = Witness("tie", "", run, len(run.moves), True, 0.0)
        witness._print(SimpleNamespace(variant=v, label=v.name, seed=0, rlimit=1,
                                       timeout_ms=1), "tie", w, None)
        indent = "  "
    text = buf.getvalue()
    assert f"{indent}the table:" in text, text
    drawn = text[text.index(f"{indent}the table:"):].splitlines()[1:]
    arms, final = round_arms(run.trace)
    rows = table_rows(arms, final.marks, v.players)
    assert not table_errors(v, rows, final)
    assert [r.name for r in rows[:5]] == ["hub", "train P0", "train P1", "train P2", "public"]
    assert drawn[:len(rows_text(rows, indent + "  "))] == rows_text(rows, indent + "  ")


def _trains_without_doubles() -> Trace:
    """A round on trains whose hub is no double (nobody holds one: the fallback leads)."""
    from dominoproof.api import play

    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                                "lead.rule": "highest-double"})
    return play(v, seed=0, deal="P0: 0-1 1-2 2-3; P1: 0-2 1-3 0-3; stack:")


def test_the_hub_and_the_trains_are_named_as_the_layout_names_them() -> None:
    """The tile every train grows from is the hub, in the text and in the picture, also
    when the lead rule's fallback put a tile that is no double there; the picture's tiles
    say the train they lie on, by the slot's name."""
    trace = _trains_without_doubles()
    lead = Tile.from_index(trace.moves[0].tile)
    assert not lead.is_double
    steps = narrate(trace)
    assert all(st.table[0].name == "hub" for st in steps if st.table)
    assert "hub" in render_round(trace).split("Moves")[1].splitlines()[2]
    root = ET.fromstring(round_scene(trace).svg())
    names = dict(enumerate(sl.name for sl in trace.variant.slot_layout.slots))
    titles = {}
    for e in of_class(root, "tile"):
        t = e.find(f"{SVG}title")
        assert t is not None
        titles[e.get("data-tile")] = (int(e.get("data-arm") or 0), t.text or "")
    assert titles[f"{lead.lo}-{lead.hi}"][1].endswith("(the hub)")
    on_arms = [(arm, title) for arm, title in titles.values() if arm >= 0]
    assert on_arms and all(title.endswith(f" on {names[arm]}") for arm, title in on_arms)


def test_a_rule_book_leaving_ends_no_layout_has_is_said_under_the_table_not_a_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the arms cannot follow a broken rule book, a layout of several lines says so
    in a row of its table, never under a "line" it does not have."""
    import dominoproof.render.arms

    trace = _trains_without_doubles()

    def refuse(*_: object) -> None:
        raise ValueError("ends no layout has")

    monkeypatch.setattr(dominoproof.render.arms.RoundArms, "move", refuse)
    steps = narrate(trace)
    said = [st for st in steps if st.table and st.table[0].name == "table"]
    assert said and "no layout has them" in said[0].table[0].note
    assert not any(st.line for st in steps)
    text = render_round(trace)
    assert "table" in text and not re.search(r"^ +line  ", text, re.M)
