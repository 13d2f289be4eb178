"""The layout properties of the catalogue on the search graph (issue "Layouts of several
lines"): markers (R2.3, R3.1, R4.2), doubles that must be covered (R2.2), a spinner's
arms (Terms, R2.2), blocks with a double nobody could cover (R1.1, R4.4) and the two
readings of R2.3 at a block.

* On the one line every layout property is N/A, saying why in domino terms.
* On small configurations of each new topology, with the correct rules, every layout
  property that applies HOLDS over every deal (each property is shown to fail on its
  fault in ``tests/test_faults_graph.py``).
* Where the catalogue rejects blocks this specification establishes, the search says
  so with a round, and the round shows it: trains (the last confirmation opens the
  last confirmer's train, so a block is established while a player has a legal move)
  and a double that must be covered (a block where nobody can cover the double while a
  hand matches another end: the two readings of R2.3 differ).
* ``blocked-sound`` and ``conservation`` are generic: they read every slot, a
  chicken foot's toes and a spinner's waiting arms included.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import variant

from dominoproof.model import State, Status, Trace, find_variant
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import Opens, layout_of
from dominoproof.model.moves import MoveKind
from dominoproof.model.spec import Init
from dominoproof.model.tiles import tile_index
from dominoproof.model.variant import ExtendReading, Variant, presets
from dominoproof.proofs.properties import BY_ID, LAYOUT_PROPERTIES, Verdict
from dominoproof.proofs.search.judge import Judge
from dominoproof.proofs.search.verification import verify

D3 = {"set.max": 3, "deal.hand_size": 2, "lead.rule": "highest-double"}
CONFIGS: dict[str, dict[str, Any]] = {
    "spinner-sides-first": {**D3, "layout.kind": "spinner"},
    "spinner-takes-4": {**D3, "layout.kind": "spinner", "layout.spinner_sides_first": False,
                        "layout.lead_double_takes": 4},
    "trains": {**D3, "layout.kind": "trains"},
    "trains-covered-again": {**D3, "deal.hand_size": 3, "layout.kind": "trains",
                             "layout.double_takes": 1,
                             "layout.double_again": True},
    "chicken-foot": {**D3, "deal.hand_size": 3, "layout.kind": "chicken-foot",
                     "layout.double_takes": 3},
    # R2.3's house rules of trains
    "trains-own-marker-out": {**D3, "deal.players": 3, "layout.kind": "trains",
                              "layout.open_trains": "own-marker-out"},
    "trains-public-after-own": {**D3, "layout.kind": "trains",
                                "layout.public_train": "after-own"},
    "line-covered": {**D3, "deal.hand_size": 3, "layout.double_takes": 1},
}
#: the layout properties that apply to each configuration and hold with the correct rules
HOLD: dict[str, set[str]] = {
    "spinner-sides-first": {"spinner-arms", "readings-agree"},
    "spinner-takes-4": {"spinner-arms", "doubles-covered", "uncoverable-double"},
    "trains": {"markers", "readings-agree"},
    "trains-covered-again": {"markers", "doubles-covered"},
    "chicken-foot": {"doubles-covered", "uncoverable-double"},
    "trains-own-marker-out": {"markers", "train-access"},
    "trains-public-after-own": {"markers", "train-access"},
    "line-covered": {"doubles-covered", "uncoverable-double"},
}


def config(name: str) -> Variant:
    return variant("block-2p-d6", CONFIGS[name])


def searched(name: str, pids: set[str]) -> dict[str, Any]:
    v = config(name)
    ver = verify(v, Init.every(), properties=sorted(pids))
    assert ver.figures.complete
    return {r.property: r for r in ver.results}


def test_on_the_one_line_every_layout_property_is_not_applicable_saying_why() -> None:
    lines = [v for v in presets().values() if v.layout.kind.value == "line"]
    assert len(lines) >= 12  # the classic presets and the published line variants
    for v in lines:
        for pid in LAYOUT_PROPERTIES:
            assert not BY_ID[pid].applies_to(v), (v.name, pid)
    v = find_variant("tiny-2p-d3")
    ver = verify(v, Init.one(rules_for_deal(v)), properties=list(LAYOUT_PROPERTIES))
    why = {r.property: r.detail for r in ver.results if r.verdict is Verdict.NOT_APPLICABLE}
    assert set(why) == set(LAYOUT_PROPERTIES)
    assert why["markers"].startswith("the layout has no markers; applies to")
    assert why["spinner-arms"].startswith("the layout has no spinner")
    assert "no double takes tiles" in why["doubles-covered"]
    assert "readings coincide" in why["readings-agree"]


def rules_for_deal(v: Variant) -> Any:
    from dominoproof.model.engine import seeded_deal

    return seeded_deal(v, 0)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_the_correct_rules_hold_each_layout_property_that_applies(name: str) -> None:
    got = searched(name, set(LAYOUT_PROPERTIES) | {"conservation"})
    v = config(name)
    for pid in LAYOUT_PROPERTIES:
        applies = BY_ID[pid].applies_to(v)
        assert (pid in HOLD[name]) <= applies, (name, pid)
        if pid in HOLD[name]:
            assert got[pid].verdict is Verdict.HOLDS, (name, pid, got[pid].detail)
        elif not applies:
            assert got[pid].verdict is Verdict.NOT_APPLICABLE, (name, pid)
    assert got["conservation"].verdict is Verdict.HOLDS, got["conservation"].detail


@pytest.mark.parametrize("name", [n for n in CONFIGS if "doubles-covered" in HOLD[n]])
def test_doubles_that_take_tiles_are_laid_in_the_searches(name: str) -> None:
    """doubles-covered holds on states where a double waits: after the opening double
    takes its tiles, or after a double laid during play (not vacuously)."""
    v = config(name)
    ver = verify(v, Init.every(), properties=["doubles-covered"])
    assert ver.result is not None
    lay = layout_of(v)
    waiting = [s for s in ver.result.states() if s.status is Status.PLAYING
               and lay.pending(s.marks)]
    assert waiting
    if v.slot_layout.lead_takes == 0:  # only a double laid during play makes them
        assert all(s.table.bit_count() > 1 for s in waiting)


@pytest.mark.parametrize("name", ["line-covered", "chicken-foot", "spinner-takes-4"])
def test_blocks_with_a_double_left_uncovered_are_reached_and_checked(name: str) -> None:
    """uncoverable-double holds because the blocks with a pending slot, which occur,
    are each one where nobody could cover it, not because there are none."""
    v = config(name)
    ver = verify(v, Init.every(), properties=["uncoverable-double"])
    assert ver.results[0].verdict is Verdict.HOLDS and ver.result is not None
    lay = layout_of(v)
    pending = sum(1 for i in range(len(ver.result.codes))
                  if (s := ver.result.state(i)).status is Status.BLOCKED
                  and lay.pending(s.marks))
    assert pending > 0


# ---------------------------------------------------------------------------
# What this specification establishes that the catalogue rejects
# ---------------------------------------------------------------------------


def test_trains_the_last_confirmation_opens_a_train_and_the_block_stands() -> None:
    """Trains, the correct rules: every player confirms in succession, the last
    confirmation puts the last confirmer's marker out, opening their train, and an
    earlier confirmer holds a tile for it -- yet the block is established (R4.4 counts
    the confirmations). blocked-sound is VIOLATED under both readings of R2.3, with the
    round; readings-agree holds (every marker is out)."""
    got = searched("trains", {"blocked-sound", "readings-agree"})
    res = got["blocked-sound"]
    assert res.verdict is Verdict.VIOLATED
    assert "reading has-legal-move" in res.detail
    assert got["readings-agree"].verdict is Verdict.HOLDS
    trace: Trace = res.trace
    v = config("trains")
    assert Trace.loads(trace.dumps()).final.key() == trace.final.key()  # the engine's round
    final = trace.final
    assert final.status is Status.BLOCKED and not final.boneyard
    last = trace.moves[-2]
    assert last.kind is MoveKind.CONFIRM and trace.moves[-1].kind is MoveKind.ESTABLISH
    lay, rules = layout_of(v), engine_for(v)
    q = last.player
    train = next(i for i, sl in enumerate(v.slot_layout.slots) if sl.owner == q)
    assert lay.marker_out(final.marks, q)
    # before q's confirmation the train was closed to the others; now some player has a
    # legal play on it
    before = trace.states()[-3]
    assert not lay.marker_out(before.marks, q)
    able = [p for p in range(v.players) if p != q
            and rules.playable_mask(final._replace(turn=p), p) & v.tiles.suit[final.ends[train]]
            and train in lay.targets(final.ends, p, final.marks)]
    assert able


def test_a_double_nobody_can_cover_blocks_while_a_hand_matches_another_end() -> None:
    """A double that must be covered, the correct rules: nobody holds its number, so
    everybody confirms and the block is established; a hand holds a tile for the other
    end, which nobody may play on yet. The two readings of R2.3 differ there:
    readings-agree is VIOLATED (and blocked-sound under "holds a matching tile"), while
    uncoverable-double holds."""
    got = searched("line-covered", {"readings-agree", "blocked-sound", "uncoverable-double"})
    assert got["uncoverable-double"].verdict is Verdict.HOLDS
    res = got["readings-agree"]
    assert res.verdict is Verdict.VIOLATED, res.detail
    assert "yet no player has a legal move" in res.detail
    blocked = got["blocked-sound"]
    assert blocked.verdict is Verdict.VIOLATED
    assert "holds-matching-tile" in blocked.detail and "has-legal-move" not in blocked.detail
    v = config("line-covered")
    final = res.trace.final
    lay, rules = layout_of(v), engine_for(v)
    pending = [i for i in range(lay.width) if lay.pending(final.marks) >> i & 1]
    assert final.status is Status.BLOCKED and pending
    numbers = {final.ends[i] for i in pending}
    others = set(final.open_ends) - numbers
    held = final.in_hands
    assert not any(held & v.tiles.suit[x] for x in numbers)  # nobody could cover it
    assert any(held & v.tiles.suit[x] for x in others)  # ... but a hand matches the other
    assert rules.ends_unplayable(final, ExtendReading.HAS_LEGAL_MOVE)
    assert not rules.ends_unplayable(final, ExtendReading.HOLDS_MATCHING_TILE)


# ---------------------------------------------------------------------------
# blocked-sound and conservation read every slot
# ---------------------------------------------------------------------------


class Caught:
    """A judge's context that records what fails."""

    def __init__(self, wanted: set[str]) -> None:
        self.wanted = wanted
        self.failed: dict[str, str] = {}

    def fail(self, pid: str, at: object, why: str, then: object = ()) -> None:
        """Every failure of a property is kept (one line each), not only the first."""
        self.failed[pid] = f"{self.failed[pid]}\n{why}" if pid in self.failed else why

    def count(self, key: str, n: int = 1) -> None:
        pass


def judged(v: Variant, s: State, *pids: str) -> dict[str, str]:
    ctx = Caught(set(pids))
    Judge(ctx, v, engine_for(v), lambda v, s: None).state(0, s)
    return ctx.failed


def slots_of(name: str) -> list[tuple[str, int]]:
    return [(name, k) for k in range(config(name).slot_layout.width)]


#: every slot of a spinner (its waiting arms), of trains, and of a chicken foot (its toes)
EVERY_SLOT = [*slots_of("spinner-sides-first"), *slots_of("trains"),
              *slots_of("chicken-foot")]


def blocked_with_one_end_matching(v: Variant, k: int) -> State:
    """A BLOCKED state (written by hand, not necessarily reachable) whose open slots all
    show 0 but slot ``k``, showing 1, and P0 holds [1|2]: only slot ``k`` matches."""
    ts = v.tiles
    ends = tuple(1 if i == k else 0 for i in range(v.slot_layout.width))
    hand = 1 << tile_index(1, 2)
    table = 1 << tile_index(0, 0) | 1 << tile_index(0, 1)
    aside = ts.full & ~hand & ~table
    return State((hand, 0), 0, aside, table, ends, 0, 2, False, 0, Status.BLOCKED, (),
                 marks=0)


@pytest.mark.parametrize(("name", "k"), EVERY_SLOT)
def test_blocked_sound_reads_every_slot(name: str, k: int) -> None:
    """A tile matching slot ``k`` alone, whatever the slot (a closed train, a waiting arm,
    a toe), makes an established block unsound under "holds a matching tile"."""
    v = config(name)
    s = blocked_with_one_end_matching(v, k)
    failed = judged(v, s, "blocked-sound")
    assert "reading holds-matching-tile" in failed.get("blocked-sound", ""), (name, k)
    # ... and with nothing matching, nothing fails
    quiet = s._replace(ends=tuple(0 for _ in s.ends))
    assert "blocked-sound" not in judged(v, quiet, "blocked-sound")


@pytest.mark.parametrize(("name", "k"), EVERY_SLOT)
def test_conservation_reads_every_slot(name: str, k: int) -> None:
    """An open slot showing a number that no tile on the table carries (or beyond the
    set) is not a layout of those tiles, whichever slot it is."""
    v = config(name)
    s = blocked_with_one_end_matching(v, k)._replace(status=Status.PLAYING, confirmed=0)
    stray = s._replace(ends=tuple(2 if i == k else 0 for i in range(len(s.ends))))
    failed = judged(v, stray, "conservation")
    name_k = v.slot_layout.slots[k].name
    assert f"the open end {name_k} shows 2" in failed.get("conservation", ""), (name, k)
    beyond = s._replace(ends=tuple(v.n + 1 if i == k else 0 for i in range(len(s.ends))))
    assert "conservation" in judged(v, beyond, "conservation"), (name, k)


def test_the_configurations_have_the_slots_they_are_chosen_for() -> None:
    kinds = {sl.opens for name in CONFIGS for sl in config(name).slot_layout.slots}
    assert {Opens.LEAD, Opens.SPINNER, Opens.TOE} <= kinds
    assert any(sl.after for sl in config("spinner-sides-first").slot_layout.slots)
    assert config("trains").slot_layout.markers
