"""The kernel's screen (``proofs/kernel/screen.py``, ``proofs/search/compiled.py``) reads a search's
states as the catalogue's judge does: every state's invariants, the moves of those still
being played.

The screen tells the judge which of those states to read: for each local property, the
first one failing it. A screen that missed a failure would weaken a verdict, so it is held
to the judge itself -- :class:`~dominoproof.proofs.search.judge.Judge` run over the same
states -- on every state of small configurations: under the variant's own rules (nothing
fails; the premise states of blocked-complete and the census of R2.3's readings must be
the same), and under every deliberately broken rule set of ``proofs/faults.py`` whose
states the kernel's keys can hold (the same first failure, property by property). Every
screened property is found failing under some fault. Then the verdicts: the catalogue
checked with the screen is the catalogue checked without it, and a screen that names a
state the judge finds sound stops the run.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pytest
from helpers import variant

from dominoproof.model.engine import seeded_deal
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import Init
from dominoproof.model.state import Status
from dominoproof.proofs import kernel
from dominoproof.proofs.faults import FAULTS, Fault
from dominoproof.proofs.kernel.tables import unsupported
from dominoproof.proofs.properties import BY_ID, LAYOUT_PROPERTIES, Verdict
from dominoproof.proofs.search import check as graphcheck
from dominoproof.proofs.search.plans import small_variant
from dominoproof.proofs.search.result import SearchResult
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.search.verification import check_properties

pytestmark = pytest.mark.skipif(not kernel.available(), reason=kernel.status())

if kernel.available():
    from dominoproof.proofs.kernel import screen as kj
    from dominoproof.proofs.kernel.book import encode_move
    from dominoproof.proofs.kernel.codec import int_key
    from dominoproof.proofs.kernel.tables import tables_for
    from dominoproof.proofs.search import compiled as sc
    from dominoproof.proofs.search.compiled import KernelCodec, _spec

#: the properties the screen reads, and the two that need R2.3's readings
WANTED = frozenset({"conservation", "boneyard-monotone", "opening", "no-false-confirmation",
                    "procedure", "points-in-fives", "blocked-sound", "blocked-complete"})


def no_scoring(v: Any) -> Any:
    raise AssertionError(f"{v.name}: a state still being played is not scored")


def by_the_judge(r: SearchResult, wanted: set[str]) -> sc.Screen:
    """What the Python judge finds on the states of ``r``: the first failure of each
    screened property, the premise states and the readings' census (where the round is
    over, only what the screen reads of it: the invariants, not R4.7 or R5)."""
    ctx = graphcheck._Context(r, engine_for(r.variant), wanted)
    # (points-in-fives is terminal too: the judge reads only the invariants of a
    # terminal state here, so no reading of R5 is ever asked for)
    judge = graphcheck.Judge(ctx, r.variant, ctx.oracle, r.scorer, reader=no_scoring)
    out = sc.Screen([])
    for i in range(r.size):
        s = r.state(i)
        if s.status is not Status.PLAYING:
            judge.invariants(i, s)
            continue
        if judge.state(i, s):
            out.premise.append(i)
        if i < r.expanded:
            for e, m in zip(range(r.edge_ptr[i], r.edge_ptr[i + 1]), r.rules.moves(s),
                            strict=True):
                j = r.edge_to[e]
                judge.transition(i, s, m, j, r.state(j))
    out.first = {pid: (f.at, f.then[0] if f.then else -1) for pid, f in ctx.found.items()
                 if pid in kj.IDS}
    out.counts = {k: n for k, n in ctx.counts.items() if k.startswith("R2.3")}
    return out


def keyed(r: SearchResult) -> tuple[Any, ...] | None:
    """A Python search (under any rule book) as the kernel's keys and move codes, or
    ``None`` where some state does not fit the keys (a fault that loses a tile)."""
    tb = tables_for(r.variant)
    spec = _spec(tb, r.init)
    codec = KernelCodec(tb, spec)
    try:
        keys = np.array([int_key(codec.encode(r.state(i)), spec.words)
                         for i in range(r.size)], dtype=np.int64)
    except OverflowError:
        return None
    moves = [encode_move(m)
             for i in range(r.expanded) for m in r.rules.moves(r.state(i))]
    return (tb, spec, keys, np.array(r.edge_ptr, dtype=np.int64),
            np.array(r.edge_to, dtype=np.int32), np.array(moves, dtype=np.int64))


def screened(r: SearchResult, wanted: set[str]) -> sc.Screen:
    got = keyed(r)
    assert got is not None
    tb, spec, keys, ptr, to, moves = got
    return sc.screen_keys(r.variant, tb, spec, keys, r.expanded, ptr, to, wanted, True,
                          moves)


def same(a: sc.Screen, b: sc.Screen) -> None:
    assert a.first == b.first
    assert a.premise == b.premise
    assert a.counts == b.counts


# ---------------------------------------------------------------------------
# The variant's own rules
# ---------------------------------------------------------------------------


OWN = ["tiny-2p-d3", "block-4p-d6", "fouls-4p-d6", "partnership-4p-d6", "draw-4p-d12",
       "bergen-2p-d6", "pool-3p-d6", "mextrain-4p-d12", "sebastopol-4p-d6", "muggins-2p-d6",
       "all-fives-2p-d6"]


@pytest.mark.parametrize("name", OWN)
def test_the_screen_reads_the_states_of_a_kernel_search_as_the_judge_does(name: str) -> None:
    """The same premise states, census and failures (the variant's own rules fail
    nothing, but Mexican Train's establish a block while a train a marker opened is
    playable: an expected finding of ``procedure``, found by both)."""
    screens_as_the_judge(small_variant(variant(name)))


def test_the_screen_reads_first_turns_as_the_judge_does() -> None:
    """R2.3: where first turns lay tile after tile on one's own train, a state whose
    first turn goes on is no premise of blocked-complete, for the screen and the judge."""
    screens_as_the_judge(small_variant(variant("mextrain-4p-d12",
                                               {"layout.first_turn": "own-train"})))


def screens_as_the_judge(v: Any) -> None:
    free = v.boneyard_size > 0
    for seed in range(3):
        r = explore(v, Init.one(seeded_deal(v, seed), free_draw=free))
        assert getattr(r, "keys", None) is not None  # the kernel searched it
        wanted = {p for p in WANTED if BY_ID[p].applies_to(v)}
        got = sc.screen_search(r, wanted, True)
        assert got is not None
        want = by_the_judge(r, wanted)
        same(got, want)
        assert got.screened == sum(1 for i in range(r.size)
                                   if r.state(i).status is Status.PLAYING)


# ---------------------------------------------------------------------------
# Broken rule sets
# ---------------------------------------------------------------------------


@cache
def fault_search(fault_id: str) -> SearchResult:
    fault = next(f for f in FAULTS if f.id == fault_id)
    v = fault.variant()
    return explore(v, fault.init(v), rules=fault.engine_for(v), scorer=fault.scorer,
                   kernel=False)


#: the faults with a rule book whose demo the kernel reads (R5.7's fives-any-count too:
#: the kernel's keys hold the points in play)
KEYED = [f for f in FAULTS if f.engine is not None and not unsupported(f.variant())]


@pytest.mark.parametrize("fault", KEYED, ids=lambda f: f.id)
def test_the_screen_finds_the_judges_first_failure_under_a_broken_rule_set(
        fault: Fault) -> None:
    r = fault_search(fault.id)
    if keyed(r) is None:
        pytest.skip(f"{fault.id}: some state does not fit the kernel's keys")
    same(screened(r, set(WANTED)), by_the_judge(r, set(WANTED)))


def test_the_screen_finds_points_scored_wrong_where_the_judge_does() -> None:
    """R5.7: fives-any-count's states fit the kernel's keys (the points in play and the
    ends' weights are fields of them), and the screen finds points-in-fives failing at
    the judge's first failing play."""
    r = fault_search("fives-any-count")
    assert keyed(r) is not None
    got = screened(r, {"points-in-fives"})
    at, then = got.first["points-in-fives"]
    assert then >= 0 and r.state(then).points != r.state(at).points
    assert got.first == by_the_judge(r, {"points-in-fives"}).first


def test_every_screened_property_fails_under_some_fault() -> None:
    failed: set[str] = set()
    for fault in KEYED:
        r = fault_search(fault.id)
        if keyed(r) is not None:
            failed |= set(screened(r, set(WANTED)).first)
    assert failed == set(kj.IDS)


# ---------------------------------------------------------------------------
# The verdicts
# ---------------------------------------------------------------------------


def verdicts(r: SearchResult) -> list[tuple[Any, ...]]:
    return [(x.property, x.verdict, x.detail, x.stats,
             x.trace.moves if x.trace is not None else None) for x in check_properties(r)]


@pytest.mark.parametrize("name", ["block-4p-d6", "fouls-4p-d6", "draw-2p-d6",
                                  # the layout's properties too, read by the judge alone
                                  "mextrain-4p-d12", "all-fives-2p-d6", "chickenfoot-4p-d9"])
def test_the_catalogue_is_the_same_with_and_without_the_screen(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    v = small_variant(variant(name))
    r = explore(v, Init.one(seeded_deal(v, 1), free_draw=v.boneyard_size > 0))
    with_screen = verdicts(r)
    monkeypatch.setattr(graphcheck, "screen_search", lambda *a: None)
    assert verdicts(r) == with_screen


#: the faults that break a layout rule, and whose states the kernel's keys hold
LAYOUT_FAULTS = [f for f in KEYED if set(f.catches) & set(LAYOUT_PROPERTIES)]


@pytest.mark.parametrize("fault", LAYOUT_FAULTS, ids=lambda f: f.id)
def test_beside_the_screen_the_judge_reads_every_move_for_the_layout(
        fault: Fault, monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout's properties are not screened: beside the screen, the judge still reads
    every move of every state for them. A broken layout rule's search, judged with the
    screen (its keys screened as a kernel search's are), gets the verdicts it gets
    without, the layout property it breaks VIOLATED among them."""
    r = fault_search(fault.id)
    got = keyed(r)
    if got is None:
        pytest.skip(f"{fault.id}: some state does not fit the kernel's keys")
    without = verdicts(r)
    tb, spec, keys, ptr, to, moves = got

    def screen(res: SearchResult, wanted: set[str], readings: bool) -> sc.Screen:
        return sc.screen_keys(res.variant, tb, spec, keys, res.expanded, ptr, to,
                              set(wanted), readings, moves)

    monkeypatch.setattr(graphcheck, "screen_search", screen)
    assert verdicts(r) == without
    broken = set(fault.catches) & set(LAYOUT_PROPERTIES)
    assert {p for p, verdict, *_ in without if verdict is Verdict.VIOLATED} >= broken


def test_a_screen_naming_a_state_the_judge_finds_sound_stops_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    v = small_variant(variant("block-4p-d6"))
    r = explore(v, Init.one(seeded_deal(v, 1)))
    real = graphcheck.screen_search

    def lying(*args: Any) -> sc.Screen | None:
        got = real(*args)
        assert got is not None
        got.first["conservation"] = (3, -1)
        got.ids = sorted({*got.ids, 3})
        return got

    monkeypatch.setattr(graphcheck, "screen_search", lying)
    with pytest.raises(sc.ScreenDisagrees, match="conservation failing at state 3"):
        check_properties(r)


def corruptions(v: Any, s: Any) -> list[Any]:
    """States near ``s`` with one field wrong: each a way conservation can fail."""
    out = [s._replace(ends=tuple(reversed(s.ends))),  # not canonical (unless equal)
           s._replace(ends=(s.ends[0], (s.ends[1] + 1) % (v.n + 1), *s.ends[2:])),
           s._replace(turn=v.players - 1 if s.turn == 0 else 0),  # (a legal turn)
           s._replace(confirmed=v.players + 1),
           s._replace(fouls=1 << v.players)]
    if s.hands[0]:
        low = s.hands[0] & -s.hands[0]
        out.append(s._replace(hands=(s.hands[0] & ~low, *s.hands[1:]), table=s.table | low))
        out.append(s._replace(hands=(s.hands[0] & ~low, *s.hands[1:]), set_aside=s.set_aside
                              | low))
    return out


@pytest.mark.parametrize("name", ["tiny-2p-d3", "block-4p-d6", "mextrain-4p-d12",
                                  "sebastopol-4p-d6"])
def test_the_screen_and_the_judge_agree_on_states_with_one_field_wrong(name: str) -> None:
    v = small_variant(variant(name))
    r = explore(v, Init.one(seeded_deal(v, 0), free_draw=v.boneyard_size > 0))
    tb = tables_for(v)
    spec = _spec(tb, r.init)
    codec = KernelCodec(tb, spec)
    wanted = {"conservation"}
    bad = good = 0
    for i in range(0, r.size, max(1, r.size // 40)):
        s = r.state(i)
        if not s.led:
            continue
        for t in corruptions(v, s):
            try:
                key = int_key(codec.encode(t), spec.words)
            except OverflowError:
                continue  # the keys cannot hold it: no search meets it
            ctx = graphcheck._Context(r, engine_for(v), wanted)
            graphcheck.Judge(ctx, v, ctx.oracle, r.scorer).state(0, t)
            got = sc.screen_keys(v, tb, spec, np.array([key]), 0, np.zeros(1, np.int64),
                                 np.zeros(0, np.int32), wanted, False)
            assert ("conservation" in got.first) == ("conservation" in ctx.found), t
            bad += "conservation" in got.first
            good += "conservation" not in got.first
    assert bad and good  # some of them fail, and some are well formed
