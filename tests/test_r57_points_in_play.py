"""R5.7, scoring in play (``[scoring] in_play = "fives"``, docs/RULES.md R5.7).

After each play -- the lead too -- the ends of the layout are counted: each open end's
number, a double lying at an end by both halves, a spinner's arm once a tile is on it
(a bare arm not at all; a lone opening double its pips once). When the count is a
multiple of 5 its player scores it (the count itself: 5, 10, 15 ...). A side's final
score is its award less its penalties plus its points in play. Every preset but
muggins-2p-d6 and all-fives-2p-d6 scores nothing in play, its states unchanged.
"""

from __future__ import annotations

import dataclasses
from itertools import pairwise

import pytest
from helpers import play, position, run, tiles, variant

from dominoproof.model import MoveKind, State, random_round
from dominoproof.model.errors import VariantError
from dominoproof.model.outcome import outcome
from dominoproof.model.params import InPlay
from dominoproof.model.spec import Init, dealt_state, legal_moves
from dominoproof.model.state import Deal, StateFlaw, state_status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import Variant, presets
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.verification import verify

#: the block game scoring in play: seat 0 leads any tile, no drawing
BLOCK = variant("block-2p-d6", {"scoring.in_play": "fives"})
ALL_FIVES = presets()["all-fives-2p-d6"]
MUGGINS = presets()["muggins-2p-d6"]


def lay(v: Variant, s: State, player: int, tile: str, number: int | None = None) -> State:
    """``s`` after ``player`` lays ``tile`` (on the end showing ``number``; the lead if
    ``None``)."""
    if number is None:
        (m,) = [m for m in legal_moves(v, s) if m.kind is MoveKind.PLAY
                and str(Tile.from_index(m.tile)) == tile]
        return run(v, s, m)
    return run(v, s, play(v, s, player, tile, number))


def test_every_other_preset_scores_nothing_in_play() -> None:
    for name, v in presets().items():
        want = InPlay.FIVES if name in ("muggins-2p-d6", "all-fives-2p-d6") else InPlay.NONE
        assert v.scoring.in_play is want, name
        t = random_round(v, seed=1)
        states = list(t.states())
        if want is InPlay.NONE:
            assert all(s.points == () and s.weights == () for s in states), name
            assert "points" not in t.outcome.to_json(), name
        else:
            assert all(len(s.points) == v.players for s in states), name


def test_fosters_muggins_count_a_double_at_an_end_by_both_halves() -> None:
    """Foster's Hoyle: "If double five is the first set it counts 10. The 5-0 played to
    this would count 10 for the second player [...] Double blank played to this would
    count 10 more. If 5-6 is now played on one end, and 0-4 on the other, the count will
    be 10 again." A lone opening double counts its pips once (10, not 20)."""
    s = position(BLOCK, ["5-5 0-0 0-4 1-1", "0-5 5-6 2-2 3-3"])
    s = lay(BLOCK, s, 0, "5-5")
    assert s.points == (10, 0)
    s = lay(BLOCK, s, 1, "0-5", 5)  # 0 + the double five at the other end
    assert s.points == (10, 10)
    s = lay(BLOCK, s, 0, "0-0", 0)  # a double blank at an end counts 0, the 5-5 10
    assert s.points == (20, 10)
    s = lay(BLOCK, s, 1, "5-6", 5)  # 6 + 0: not a multiple of 5
    assert s.points == (20, 10)
    s = lay(BLOCK, s, 0, "0-4", 0)  # 6 + 4
    assert s.points == (30, 10)
    assert state_status(BLOCK, s) is StateFlaw.OK


def test_all_fives_spinner_counts_an_arm_once_a_tile_is_on_it() -> None:
    """The [6|6] spinner alone counts 12; with [6|3] on a side, 3 + 12 = 15 (the
    uncovered side is a double at an end); once both sides are covered the bare arms
    count nothing, and an arm counts once a tile is laid on it."""
    v = ALL_FIVES
    hands = (tiles("6-6 6-4 3-3 2-4"), tiles("6-3 6-5 6-1 0-1"))
    s = dealt_state(v, Deal(hands, (), v.tiles.full & ~(hands[0] | hands[1])), 0)
    s = lay(v, s, 0, "6-6")
    assert s.points == (0, 0)  # 12
    s = lay(v, s, 1, "6-3", 6)
    assert s.points == (0, 15)  # 3 + 12
    s = lay(v, s, 0, "6-4", 6)
    assert s.points == (0, 15)  # 3 + 4, the arms bare
    assert sorted(s.weights) == [0, 0, 1, 1]
    s = lay(v, s, 1, "6-5", 6)
    assert s.points == (0, 15)  # 3 + 4 + 5 = 12 (a bare arm counted would make 18)
    s = lay(v, s, 0, "3-3", 3)
    assert s.points == (15, 15)  # 6 + 4 + 5 (with the bare arm: 21)


def test_two_equal_ends_that_count_differently_are_two_plays() -> None:
    """On a line whose ends both show 4, one of them the [4|4]: [1|4] on the double
    scores 1 + 4 = 5, on the other end 1 + 8 = 9 scores nothing -- two plays."""
    s = position(BLOCK, ["2-4 2-3 1-4", "4-4 3-4 0-0"])
    s = lay(BLOCK, s, 0, "2-4")
    s = lay(BLOCK, s, 1, "4-4", 4)
    assert s.points == (0, 10)  # 2 + 8
    s = lay(BLOCK, s, 0, "2-3", 2)
    s = lay(BLOCK, s, 1, "3-4", 3)
    assert s.ends == (4, 4) and sorted(s.weights) == [1, 2]
    ones = [m for m in legal_moves(BLOCK, s) if m.kind is MoveKind.PLAY]
    assert len(ones) == 2 and {m.tile for m in ones} == {Tile.parse("1-4").idx}
    after = sorted(run(BLOCK, s, m).points for m in ones)
    assert after == [(0, 10), (5, 10)]


def test_final_scores_add_the_points_to_the_award() -> None:
    """Muggins' rounds: every play's score is a multiple of 5, and each side's final
    score is its points in play plus its award (less its penalties: none here)."""
    scored_in_play = 0
    for seed in range(30):
        t = random_round(MUGGINS, seed=seed)
        states = list(t.states())
        for a, b in pairwise(states):
            gained = [y - x for x, y in zip(a.points, b.points, strict=True)]
            assert all(g % 5 == 0 and g >= 0 for g in gained)
            scored_in_play += sum(gained)
        res = outcome(MUGGINS, t.final)
        assert res is not None
        assert res.points == t.final.points
        assert res.scores == tuple(w + p for w, p in zip(res.awards, res.points, strict=True))
        assert res.to_json()["points"] == list(t.final.points)
    assert scored_in_play > 0


def test_points_in_fives_catches_a_play_scored_off_the_fives() -> None:
    """The property holds on the fault's demo under the correct rules, and the fault
    fives-any-count (a play scores the count whatever it is) violates it."""
    fault = FAULTS_BY_ID["fives-any-count"]
    v = fault.variant()
    ok = verify(v, Init.every(True), properties=["points-in-fives", "final-scores"])
    assert {r.property: r.verdict for r in ok.results} == {
        "points-in-fives": Verdict.HOLDS, "final-scores": Verdict.HOLDS}
    bad = verify(v, Init.every(True), engine=fault.engine, properties=["points-in-fives"])
    (res,) = bad.results
    assert res.verdict is Verdict.VIOLATED
    assert "not a multiple of 5" in res.detail


def test_points_in_fives_catches_final_scores_that_forget_the_points() -> None:
    """A scoring that leaves out the points in play fails points-in-fives at every
    terminal state where someone scored."""
    fault = FAULTS_BY_ID["fives-any-count"]
    v = fault.variant()

    def forgets(variant: Variant, s: State) -> object:
        res = outcome(variant, s)
        return None if res is None else dataclasses.replace(res, scores=res.awards)

    bad = verify(v, Init.every(True), scorer=forgets,  # type: ignore[arg-type]
                 properties=["points-in-fives"])
    (res,) = bad.results
    assert res.verdict is Verdict.VIOLATED
    assert "points in play" in res.detail


def test_the_property_does_not_apply_where_plays_score_nothing() -> None:
    v = variant("block-2p-d6", {"set.max": 2, "deal.hand_size": 2})
    ver = verify(v, Init.every(), properties=["points-in-fives"])
    (res,) = ver.results
    assert res.verdict is Verdict.NOT_APPLICABLE
    assert "plays score nothing" in res.detail


@pytest.mark.parametrize("overrides", [
    {"layout.kind": "trains"},
    {"layout.kind": "chicken-foot", "layout.lead_double_takes": 4, "layout.double_takes": 3},
    {"layout.match": "matador"},
    {"layout.double_takes": 1},
    {"layout.kind": "spinner", "layout.spinner_sides_first": False},
])
def test_scoring_in_play_is_stated_for_a_line_or_a_sides_first_spinner(
        overrides: dict[str, object]) -> None:
    with pytest.raises(VariantError, match=r"\[scoring\] in_play"):
        variant("block-2p-d6", {"scoring.in_play": "fives", **overrides})


def test_a_written_play_names_which_of_two_equal_ends_it_goes_on() -> None:
    """Where two ends show one number but count differently, a trace writes the slot's
    name too, and replays to the same play (and the same points)."""
    from dominoproof.model.layout import layout_of
    from dominoproof.model.moves import move_json, read_move, resolve

    s = position(BLOCK, ["2-4 2-3 1-4", "4-4 3-4 0-0"])
    for tile, player, number in (("2-4", 0, None), ("4-4", 1, 4), ("2-3", 0, 2),
                                 ("3-4", 1, 3)):
        s = lay(BLOCK, s, player, tile, number)
    lay_ = layout_of(BLOCK)
    for m in (m for m in legal_moves(BLOCK, s) if m.kind is MoveKind.PLAY):
        written = move_json(lay_, s, m)
        assert "slot" in written
        assert resolve(lay_, s, read_move(written)) == m


def test_scoring_in_play_on_a_set_too_small_to_reach_five_is_a_named_warning() -> None:
    v = variant("block-2p-d6", {"scoring.in_play": "fives", "set.max": 1,
                                "deal.hand_size": 1})
    assert any('in_play = "fives" has no effect' in w for w in v.warnings)
    assert not variant("block-2p-d6", {"scoring.in_play": "fives", "set.max": 2,
                                       "deal.hand_size": 2}).warnings


@pytest.mark.parametrize(("overrides", "said"), [
    (["scoring.in_play=fives", "layout.kind=trains"], 'kind = "trains"'),
    (["scoring.in_play=sixes"], 'allowed: "none", "fives"'),
])
def test_bad_scoring_in_play_is_one_located_line(overrides: list[str], said: str) -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    args = [x for o in overrides for x in ("-o", o)]
    res = CliRunner().invoke(main, ["show", "block-2p-d6", *args])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "[scoring] in_play" in lines[0] and said in lines[0]


def test_the_narration_lays_a_play_on_the_end_it_names() -> None:
    """Where both ends show 4 and one is the [4|4], the narration says which end a play
    went on, draws the tile there, and says what it scored."""
    from dominoproof.model.engine import Trace
    from dominoproof.render.narrate import narrate

    s0 = position(BLOCK, ["2-4 2-3 1-4", "4-4 3-4 0-0"])
    s = s0
    moves = []
    for tile, player, number in (("2-4", 0, None), ("4-4", 1, 4), ("2-3", 0, 2),
                                 ("3-4", 1, 3)):
        before = s
        s = lay(BLOCK, s, player, tile, number)
        moves.append(next(m for m in legal_moves(BLOCK, before)
                          if run(BLOCK, before, m) == s))
    for m in (m for m in legal_moves(BLOCK, s) if m.kind is MoveKind.PLAY):
        deal = Deal(s0.hands, (), s0.set_aside)
        last = narrate(Trace(BLOCK, deal, (*moves, m)))[-1]
        on_double = s.weights[m.end] == 2
        assert ("(the double [4|4])" if on_double else "(not the double [4|4])") in last.text
        line = "".join(last.line)
        # the [4|4] lies at the right end: a play on it goes there, else on the left
        assert line.endswith("[4|4][4|1]") if on_double else line.startswith("[1|4][4|3]")
        assert ("P0 scores 5" in last.text) == on_double
