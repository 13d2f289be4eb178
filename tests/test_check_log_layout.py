"""``check-log`` names the layout rule a deviation comes from (issue 32): a log of an
engine whose layout differs (doubles covered or not, a spinner's arms, trains and
markers) deviates under R2.2 or R2.3, saying which part of the layout, never only by
the symptom (R2.1, R4.3, R1.1, a turn out of order) it shows as."""

from __future__ import annotations

import json
from typing import Any

from dominoproof.model import find_variant, random_round
from dominoproof.model.engine import Trace
from dominoproof.model.layout import Access, layout_of
from dominoproof.model.moves import Move
from dominoproof.model.state import Status
from dominoproof.model.tiles import Tile, bits
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.checklog import LogCheck, check_log

SPINNER = find_variant("block-4p-d6").with_overrides({"layout.kind": "spinner"})


def checked(log_variant: Variant, ours: Variant, n: int = 30) -> LogCheck:
    rounds = [json.dumps(random_round(log_variant, s).to_json()) for s in range(n)]
    return check_log(ours, "\n".join(rounds) + "\n", "log")


def test_a_double_left_uncovered_is_named_r22() -> None:
    line = find_variant("draw-2p-d6")
    report = checked(line, line.with_overrides({"layout.double_takes": 1}))
    assert report.deviations and set(report.deviations) == {"R2.2"}
    d = next(r.deviation for r in report.rounds if r.deviation is not None)
    assert "must be covered first (doubles covered)" in d.message
    assert "seen as R2.1" in d.message  # the symptom is still said


def test_a_double_whose_player_plays_again_is_named_r22() -> None:
    mt = find_variant("mextrain-4p-d12")
    report = checked(mt.with_overrides({"layout.double_takes": 0,
                                        "layout.double_again": False}), mt, 10)
    assert report.deviations and set(report.deviations) == {"R2.2"}
    d = next(r.deviation for r in report.rounds if r.deviation is not None)
    assert "plays again to cover it" in d.message and "seen as Terms" in d.message


def test_a_play_on_a_spinners_closed_arm_is_named_spinner_arms() -> None:
    report = checked(SPINNER.with_overrides({"layout.spinner_sides_first": False}),
                     SPINNER.with_overrides({"layout.spinner_sides_first": True}))
    assert report.deviations and set(report.deviations) == {"R2.3"}
    d = next(r.deviation for r in report.rounds if r.deviation is not None)
    assert "spinner's arm, open once west and east are covered" in d.message


def test_a_pass_where_only_a_spinners_arm_is_open_is_named_spinner_arms() -> None:
    """A one-line engine's log under a spinner: its players pass where the arms are open
    to them here -- R4.3 as a symptom, R2.3 (spinner arms) as the cause."""
    report = checked(find_variant("block-4p-d6"),
                     SPINNER.with_overrides({"layout.spinner_sides_first": False}))
    assert report.deviations.get("R2.3")
    assert "R4.3" not in report.deviations
    d = next(r.deviation for r in report.rounds
             if r.deviation is not None and "seen as R4.3" in r.deviation.message)
    assert d.rule == "R2.3" and "spinner's arm, open now" in d.message


def marker_in_play() -> tuple[Trace, int, Move]:
    """A Mexican Train round cut where the player to move holds a tile matching another
    player's train whose marker is in: the play there the layout refuses (R2.3)."""
    v = find_variant("mextrain-4p-d12")
    layout = layout_of(v)
    slots = v.slot_layout.slots
    suit = [(t.lo, t.hi) for t in v.tiles.tiles]
    for seed in range(50):
        t = random_round(v, seed)
        for k, s in enumerate(t.states()):
            if s.status is not Status.PLAYING or not s.led:
                continue
            q = s.turn
            for i, sl in enumerate(slots):
                if (sl.owner in (None, q) or sl.access is not Access.OWNER_OR_MARKER
                        or layout.marker_out(s.marks, sl.owner) or layout.pending(s.marks)):
                    continue
                for x in bits(s.hands[q]):
                    if s.ends[i] in suit[x]:
                        return Trace(v, t.deal, t.moves[:k], seed), i, Move.play(q, x, i)
    raise AssertionError("no such state in 50 rounds")


def test_a_play_on_anothers_train_with_its_marker_in_is_named_r23() -> None:
    trace, slot, m = marker_in_play()
    s = trace.final
    data: dict[str, Any] = trace.to_json()
    data.pop("final")
    name = trace.variant.slot_layout.slots[slot].name
    data["moves"].append({"kind": "play", "player": m.player,
                          "tile": str(Tile.from_index(m.tile)),
                          "end": s.ends[slot], "slot": name})
    d = check_log(trace.variant, json.dumps(data), "log").rounds[0].deviation
    assert d is not None and d.rule == "R2.3", d
    assert f"{name} is P" in d.message and "marker is out (it is in)" in d.message
    assert d.step == len(trace.moves) and d.mover == m.player


def test_a_slot_named_by_its_symmetric_twin_is_read_as_that_twin() -> None:
    """A spinner whose sides wait for nothing: a play logged on the east side, when the
    west shows the same number, is the same move up to the layout's symmetry (it was an
    R2.1 deviation when the name had to be the canonical slot's)."""
    report = checked(SPINNER.with_overrides({"layout.spinner_sides_first": True}),
                     SPINNER.with_overrides({"layout.spinner_sides_first": False}))
    assert report.exit_code == 0, report.deviations
