"""R2.1 under Matador matching (``[layout] match = "matador"``, docs/RULES.md R2.1).

A tile is laid where a half of it and the end's number sum to N+1 (7 on double-6), and
the end then shows its other half; the matadors -- 0-0 and the tiles whose halves sum to
N+1 -- go on any end at any time; so an end showing 0 takes only a matador, and a line
whose open ends show 0 is blocked for everyone who holds none. A matador is turned
either way round ("in either orientation", pagat): one whose halves differ is two plays
on any end -- also where a half of it makes N+1 -- each naming the half it leaves
showing. Every preset but matador-2p-d6 matches equal numbers, unchanged.
"""

from __future__ import annotations

import json
import re
from functools import partial
from itertools import pairwise

import pytest
from helpers import established, play, position, run, tiles, variant

from dominoproof.model import (
    IllegalMoveError,
    Move,
    MoveKind,
    State,
    Status,
    Trace,
    TraceError,
    random_round,
)
from dominoproof.model.layout import Match
from dominoproof.model.spec import Init, legal_moves, spec_for
from dominoproof.model.state import StateFlaw, state_status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import Variant, presets
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.verification import verify
from dominoproof.render.narrate import narrate

#: the published preset: draw until playable, double-6, sums to 7
MATADOR = presets()["matador-2p-d6"]
#: the block game under Matador matching (no drawing: R2 and R3 at once)
BLOCK = variant("block-2p-d6", {"layout.match": "matador"})
#: the same block game matching equal numbers
EQUAL = variant("block-2p-d6")


def at(v: Variant, hands: list[str], *, table: str, ends: tuple[int, int],
       turn: int = 0) -> State:
    """A well-formed state of the block game ``v`` written by hand: a line of ``table``
    whose open ends show ``ends`` (Matador's lines keep no parity of their halves, so the
    ends are given, not read off the tiles); every other tile is set aside."""
    masks = tuple(tiles(h) for h in hands)
    laid = tiles(table)
    used = laid
    for m in masks:
        used |= m
    s = State(masks, 0, v.tiles.full & ~used, laid, tuple(sorted(ends)), turn, 0, False, 0,
              Status.PLAYING, ())
    assert state_status(v, s) is StateFlaw.OK, state_status(v, s)
    return s


def plays(v: Variant, s: State) -> set[tuple[str, int]]:
    """The legal plays of ``s`` as (tile, number of the end it goes on)."""
    return {(str(Tile.from_index(m.tile)), s.ends[m.end]) for m in legal_moves(v, s)
            if m.kind is MoveKind.PLAY}


def turned(v: Variant, s: State) -> set[tuple[str, int, int]]:
    """The legal plays of ``s`` that name a way round: (tile, end's number, the number
    it leaves showing)."""
    return {(str(Tile.from_index(m.tile)), s.ends[m.end], m.leaves)
            for m in legal_moves(v, s) if m.kind is MoveKind.PLAY and m.leaves >= 0}


def test_every_other_preset_matches_equal_numbers() -> None:
    for name, v in presets().items():
        want = Match.MATADOR if name == "matador-2p-d6" else Match.EQUAL
        assert v.layout.match is want, name
    assert MATADOR.slot_layout.match_total == 7
    # an end showing 3 takes the tiles carrying a 4, and the four matadors
    fits = spec_for(MATADOR).fits[3]
    assert {str(t) for t in map(Tile.from_index, range(28)) if fits >> t.idx & 1} == {
        "0-4", "1-4", "2-4", "3-4", "4-4", "4-5", "4-6", "0-0", "1-6", "2-5"}


def test_a_tile_goes_where_touching_halves_sum_to_seven() -> None:
    """On 3 and 6: [2|4] on the 3 (4+3), [1|1] on the 6 (1+6); [3|5] carries the 3 but
    makes no 7 with either end, so it is refused (equal matching would lay it)."""
    s = at(BLOCK, ["2-4 3-5 1-1", "5-5"], table="3-6", ends=(3, 6))
    assert plays(BLOCK, s) == {("2-4", 3), ("1-1", 6)}
    assert ("3-5", 3) in plays(EQUAL, position(EQUAL, ["2-4 3-5 1-1", "5-5"], line="3-6"))
    with pytest.raises(IllegalMoveError,
                       match=r"^R2\.1: 3-5 does not match the end showing 3: no half of it "
                             r"makes 7 with it, and it is no matador"):
        run(BLOCK, s, play(BLOCK, s, 0, "3-5", 3))
    assert run(BLOCK, s, play(BLOCK, s, 0, "2-4", 3)).ends == (2, 6)  # the 2 now shows
    assert run(BLOCK, s, play(BLOCK, s, 0, "1-1", 6)).ends == (1, 3)


def test_the_matadors_go_on_any_end_either_way_round() -> None:
    """[0|0] and [2|5] make no 7 with 3 or 6, yet go on either; [2|5] turned either way,
    leaving its 2 or its 5 (two plays on each end), [0|0] a blank (one play)."""
    s = at(BLOCK, ["0-0 2-5 4-4", "5-5"], table="3-6", ends=(3, 6))
    assert plays(BLOCK, s) == {("0-0", 3), ("0-0", 6), ("2-5", 3), ("2-5", 6), ("4-4", 3)}
    assert turned(BLOCK, s) == {("2-5", 3, 2), ("2-5", 3, 5), ("2-5", 6, 2), ("2-5", 6, 5)}
    assert sum(m.kind is MoveKind.PLAY for m in legal_moves(BLOCK, s)) == 7
    assert run(BLOCK, s, play(BLOCK, s, 0, "0-0", 6)).ends == (0, 3)
    assert run(BLOCK, s, play(BLOCK, s, 0, "2-5", 3, 5)).ends == (5, 6)
    assert run(BLOCK, s, play(BLOCK, s, 0, "2-5", 3, 2)).ends == (2, 6)
    # where a half of a matador makes 7 it is still turned either way: [2|5] on a 5
    # leaves the 5 (2 touching, 7) or its 2 (5 touching, wild)
    t = at(BLOCK, ["2-5", "4-4"], table="3-5", ends=(3, 5))
    assert turned(BLOCK, t) >= {("2-5", 5, 5), ("2-5", 5, 2)}
    assert run(BLOCK, t, play(BLOCK, t, 0, "2-5", 5, 5)).ends == (3, 5)
    assert run(BLOCK, t, play(BLOCK, t, 0, "2-5", 5, 2)).ends == (2, 3)


def test_a_play_names_its_way_round_exactly_when_it_has_two() -> None:
    """A matador's play must say which half it leaves showing (one of its own); any
    other tile's, and 0-0's, names none (R2.1)."""
    s = at(BLOCK, ["0-0 2-5 4-4", "5-5"], table="3-6", ends=(3, 6))
    with pytest.raises(IllegalMoveError, match=r"^R2\.1: 2-5 is a matador, turned either "
                                               r"way round: .* 2 or 5"):
        run(BLOCK, s, play(BLOCK, s, 0, "2-5", 3))
    with pytest.raises(IllegalMoveError, match=r"^R2\.1: 2-5 is a matador"):
        run(BLOCK, s, play(BLOCK, s, 0, "2-5", 3, 4))
    for tile in ("4-4", "0-0"):
        with pytest.raises(IllegalMoveError, match=rf"^R2\.1: {tile} goes on one way only"):
            run(BLOCK, s, play(BLOCK, s, 0, tile, 3, int(tile[0])))


def test_a_blank_end_takes_only_a_matador() -> None:
    s = at(BLOCK, ["0-5 0-6 1-6", "4-4"], table="0-0", ends=(0, 0))
    assert plays(BLOCK, s) == {("1-6", 0)}  # [0|5] and [0|6] carry the 0: no 7
    assert run(BLOCK, s, play(BLOCK, s, 0, "1-6", 0, 6)).ends == (0, 6)  # the end reopens
    assert run(BLOCK, s, play(BLOCK, s, 0, "1-6", 0, 1)).ends == (0, 1)
    assert plays(EQUAL, position(EQUAL, ["0-5 0-6 1-6", "4-4"], line="0-0")) == {
        ("0-5", 0), ("0-6", 0)}


def test_a_blank_line_is_blocked_for_everyone_without_a_matador() -> None:
    """Both ends blank and no matador in hand: R2 holds though both hands carry blanks,
    and the block is established (R4.4); equal matching refuses the confirmations."""
    hands = ["0-5 0-6", "0-1 4-4"]
    s = established(BLOCK, hands, line="0-0")
    assert s.status is Status.BLOCKED and spec_for(BLOCK).is_blocked(s)
    with pytest.raises(IllegalMoveError):
        established(EQUAL, hands, line="0-0")
    # a matador in a hand: the block is not real, its holder must play (R4.3)
    with pytest.raises(IllegalMoveError):
        established(BLOCK, ["0-5 0-6", "0-1 2-5"], line="0-0")


def test_a_dead_end_is_one_every_fitting_tile_of_which_is_on_the_table() -> None:
    """R4.7 under Matador: a blank end is dead once the four matadors are on the table,
    though hands still carry blanks; the call is offered."""
    v = variant("block-2p-d6", {"layout.match": "matador", "block.call": "dead-end"})
    s = at(v, ["0-5 5-5", "0-1 6-6"], table="0-0 1-6 2-5 3-4", ends=(0, 3))
    assert spec_for(v).dead_end(s)
    assert Move.establish(0) in legal_moves(v, s)
    t = at(v, ["0-5 3-4", "0-1 6-6"], table="0-0 1-6 2-5 4-4", ends=(0, 4))
    assert not spec_for(v).dead_end(t)  # [3|4], a matador, is still in a hand


def _matador(a: int, b: int, total: int = 7) -> bool:
    return a + b == total or a == b == 0


def _fits(a: int, b: int, x: int, total: int) -> bool:
    """R2.1 under Matador, as the rule books say it."""
    return total in (a + x, b + x) or _matador(a, b, total)


def test_random_rounds_lay_only_fitting_tiles_and_block_on_blanks() -> None:
    """Every play of 200 random rounds of matador-2p-d6 fits its end as the rule books
    say; an end shows what R2.1 says (a matador the half its play names); some rounds
    block with a blank end showing, some turn a matador against its N+1 sum."""
    blank_blocks = wild = against = 0
    for seed in range(200):
        trace = random_round(MATADOR, seed)
        states = trace.states()
        for s, m, t in zip(states, trace.moves, states[1:], strict=False):
            if m.kind is not MoveKind.PLAY or m.end < 0:
                continue
            a, b = MATADOR.tiles.halves[m.tile]
            x = s.ends[m.end]
            assert _fits(a, b, x, 7), (seed, m, s.ends)
            wild += 7 not in (a + x, b + x)
            other = s.ends[1 - m.end]
            if _matador(a, b) and a != b:  # turned as the play says
                assert m.leaves in (a, b), (seed, m)
                shown = {m.leaves}
                against += 7 in (a + x, b + x) and m.leaves == 7 - x
            else:
                assert m.leaves == -1, (seed, m)
                shown = {b} if a + x == 7 else {a}
            assert any(sorted((other, y)) == list(t.ends) for y in shown), (seed, m)
        final = states[-1]
        blank_blocks += final.status is Status.BLOCKED and 0 in final.ends
    assert wild and blank_blocks and against


def test_a_trace_writes_the_way_round_and_replays_only_with_it() -> None:
    """A turned matador's play is written with the number it leaves ("leaves") and
    replays to the same round; the trace without it names no legal move (R2.1)."""
    trace = next(t for t in map(partial(random_round, MATADOR), range(50))
                 if any(m.leaves >= 0 for m in t.moves))
    data = trace.to_json()
    assert Trace.from_json(json.loads(json.dumps(data))).moves == trace.moves
    written = [w for w in data["moves"] if "leaves" in w]
    assert written and all(w["kind"] == "play" for w in written)
    del written[0]["leaves"]
    with pytest.raises(TraceError, match="is a matador, turned either way round"):
        Trace.from_json(data)


def test_the_narrated_line_makes_seven_at_every_joint_but_a_matadors() -> None:
    """The line as `play` prints it: touching halves sum to 7, or a matador touches."""
    said = 0
    for seed in range(30):
        for step in narrate(random_round(MATADOR, seed)):
            said += "a matador, wild on any end" in step.text
            if not step.line:
                continue
            laid = [tuple(map(int, t)) for t in re.findall(r"\[(\d)\|(\d)\]", "".join(step.line))]
            for (a, b), (c, d) in pairwise(laid):
                assert b + c == 7 or _matador(a, b) or _matador(c, d), (seed, laid)
    assert said


def test_the_search_finds_the_block_sound_on_every_deal() -> None:
    """Double-3 (sums to 4; matadors 0-0, 1-3, 2-2), 3 tiles each: on every deal the
    block is sound and no confirmation false."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3, "layout.match": "matador"})
    ver = verify(v, Init.every(), properties=["blocked-sound", "no-false-confirmation",
                                                "conservation", "procedure"])
    assert {r.property: r.verdict for r in ver.results} == dict.fromkeys(
        ("blocked-sound", "no-false-confirmation", "conservation", "procedure"),
        Verdict.HOLDS)
