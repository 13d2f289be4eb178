"""R3 (condition 2): the boneyard supplies nothing; R3.1's draw rules; R3.2/R3.3 together."""

from __future__ import annotations

import pytest
from helpers import play, position, run, variant

from dominoproof.model import (
    IllegalMoveError,
    Move,
    MoveKind,
    StateFlaw,
    Status,
    boneyard_supplies_nothing,
    ends_unplayable,
    find_variant,
    is_blocked,
    legal_moves,
    random_round,
    state_status,
)
from dominoproof.model.spec import CASES, spec_for
from dominoproof.model.variant import ExtendReading, Variant

READINGS = list(ExtendReading)
DRAW = find_variant("draw-2p-d6")
DRAW_ONE = variant("draw-2p-d6", {"draw.rule": "one"})


# ---------------------------------------------------------------------------
# R3.1 -- none: the block game
# ---------------------------------------------------------------------------


def test_r3_1_none_a_stuck_player_confirms_and_never_draws() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1 1-2", "5-5"], line="0-6")
    assert s.set_aside  # every undealt tile is out of play
    assert legal_moves(v, s) == (Move.confirm(0),)
    with pytest.raises(IllegalMoveError, match=r"^R3\.1:"):
        run(v, s, Move.draw(0, "4-4"))


@pytest.mark.parametrize("name", ["block-2p-d6", "block-4p-d6", "fouls-4p-d6"])
def test_r3_1_none_no_round_ever_draws(name: str) -> None:
    v = find_variant(name)
    for seed in range(10):
        t = random_round(v, seed)
        assert all(m.kind is not MoveKind.DRAW for m in t.moves)
        for s in t.states():
            assert s.boneyard == 0 and s.set_aside == t.deal.set_aside
            assert not s.set_aside & (s.in_hands | s.table)


# ---------------------------------------------------------------------------
# R3.1 -- until-playable: draw one at a time until playable or exhausted
# ---------------------------------------------------------------------------


def test_r3_1_until_playable_draws_one_at_a_time_until_a_playable_tile() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1 2-6 3-3")
    assert legal_moves(DRAW, s) == (Move.draw(0, "0-1"),)  # the top of the stack only
    s = run(DRAW, s, Move.draw(0, "0-1"))
    assert (s.turn, s.drew, s.boneyard.bit_count()) == (0, False, 2)
    assert legal_moves(DRAW, s) == (Move.draw(0, "2-6"),)  # still stuck: draw again
    s = run(DRAW, s, Move.draw(0, "2-6"))
    assert legal_moves(DRAW, s) == (play(DRAW, s, 0, "2-6", 6),)  # now it must play
    with pytest.raises(IllegalMoveError, match=r"^R4\.3:"):
        run(DRAW, s, Move.draw(0, "3-3"))


def test_r3_1_until_playable_stops_when_the_boneyard_is_exhausted() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1")
    s = run(DRAW, s, Move.draw(0, "0-1"))
    assert s.boneyard == 0
    assert legal_moves(DRAW, s) == (Move.confirm(0),)  # R4.1: the block is proposed
    with pytest.raises(IllegalMoveError, match=r"^R3\.1:"):
        run(DRAW, s, Move.draw(0, "3-3"))


def test_r3_1_a_player_who_can_play_may_not_draw() -> None:
    s = position(DRAW, ["0-6 1-2", "3-4"], line="6-6", boneyard="0-1")
    assert legal_moves(DRAW, s) == (play(DRAW, s, 0, "0-6", 6),)
    with pytest.raises(IllegalMoveError, match=r"^R4\.3:"):
        run(DRAW, s, Move.draw(0, "0-1"))


def test_r3_1_only_the_top_of_the_stack_can_be_drawn() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1 2-6")
    with pytest.raises(IllegalMoveError, match="top of the boneyard"):
        run(DRAW, s, Move.draw(0, "2-6"))


def test_r3_1_free_draw_offers_every_boneyard_tile() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1 2-6 3-3",
                 free_draw=True)
    assert set(legal_moves(DRAW, s)) == {Move.draw(0, t) for t in ("0-1", "2-6", "3-3")}
    s = run(DRAW, s, Move.draw(0, "3-3"))
    assert s.stack is None and state_status(DRAW, s) is StateFlaw.OK


# ---------------------------------------------------------------------------
# R3.1 -- one: draw one tile, then play it or pass
# ---------------------------------------------------------------------------


def test_r3_1_draw_one_then_pass_when_the_drawn_tile_does_not_fit() -> None:
    s = position(DRAW_ONE, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1 2-6")
    s = run(DRAW_ONE, s, Move.draw(0, "0-1"))
    assert (s.turn, s.drew) == (0, True)
    assert legal_moves(DRAW_ONE, s) == (Move.pass_(0),)
    with pytest.raises(IllegalMoveError, match="draw-one"):
        run(DRAW_ONE, s, Move.draw(0, "2-6"))
    s = run(DRAW_ONE, s, Move.pass_(0))
    assert (s.turn, s.drew, s.confirmed) == (1, False, 0)
    assert legal_moves(DRAW_ONE, s) == (Move.draw(1, "2-6"),)  # the next player draws


def test_r3_1_draw_one_then_play_when_the_drawn_tile_fits() -> None:
    s = position(DRAW_ONE, ["0-0 1-2", "3-4"], line="6-6", boneyard="2-6 0-1")
    s = run(DRAW_ONE, s, Move.draw(0, "2-6"))
    assert legal_moves(DRAW_ONE, s) == (play(DRAW_ONE, s, 0, "2-6", 6),)
    s = run(DRAW_ONE, s, play(DRAW_ONE, s, 0, "2-6", 6))
    assert (s.turn, s.drew, s.ends) == (1, False, (2, 6))


def test_r3_1_draw_one_last_tile_then_the_block_is_proposed() -> None:
    s = position(DRAW_ONE, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1")
    s = run(DRAW_ONE, s, Move.draw(0, "0-1"))
    assert legal_moves(DRAW_ONE, s) == (Move.confirm(0),)  # nothing left to pass over


def test_r3_1_a_pass_is_not_allowed_without_a_draw_or_with_a_play() -> None:
    s = position(DRAW_ONE, ["0-0 1-2", "3-4"], line="6-6", boneyard="0-1")
    with pytest.raises(IllegalMoveError):
        run(DRAW_ONE, s, Move.pass_(0))
    s = position(DRAW_ONE, ["0-6 1-2", "3-4"], line="6-6", boneyard="0-1")
    with pytest.raises(IllegalMoveError, match=r"^R4\.3:"):
        run(DRAW_ONE, s, Move.pass_(0))


# ---------------------------------------------------------------------------
# R3.1 -- leave k: set-aside tiles are never drawn
# ---------------------------------------------------------------------------


def test_r3_1_set_aside_tiles_are_never_drawn_and_do_not_count_as_boneyard() -> None:
    v = find_variant("draw-leave2-2p-d6")
    s = position(v, ["1-1 1-2", "5-5"], line="0-6")
    assert s.boneyard == 0 and s.set_aside.bit_count() > 0
    assert boneyard_supplies_nothing(v, s)
    assert legal_moves(v, s) == (Move.confirm(0),)
    assert all(is_blocked(v, s, r) for r in READINGS)


def test_r3_1_leave_k_rounds_never_touch_the_set_aside_tiles() -> None:
    v = find_variant("draw-leave2-2p-d6")
    assert v.deal.set_aside == 2
    for seed in range(15):
        t = random_round(v, seed)
        draws = sum(m.kind is MoveKind.DRAW for m in t.moves)
        assert draws <= v.boneyard_size == 12
        for s in t.states():
            assert s.set_aside == t.deal.set_aside and s.set_aside.bit_count() == 2
            assert not s.set_aside & (s.in_hands | s.table | s.boneyard)


@pytest.mark.parametrize("name", ["draw-2p-d6", "draw-8p-d12", "draw-leave2-2p-d6"])
def test_r3_1_the_boneyard_never_grows_and_draws_take_its_top(name: str) -> None:
    v = find_variant(name)
    for seed in range(5):
        t = random_round(v, seed)
        states = t.states()
        for before, m, after in zip(states[:-1], t.moves, states[1:], strict=True):
            assert after.boneyard & ~before.boneyard == 0
            if m.kind is MoveKind.DRAW:
                assert before.boneyard and before.stack is not None
                assert m.tile == before.stack[0]
                assert after.boneyard == before.boneyard & ~(1 << m.tile)
            else:
                assert after.boneyard == before.boneyard


# ---------------------------------------------------------------------------
# R3.2 / R3.3: both conditions at once; either failing, play continues
# ---------------------------------------------------------------------------


def test_r3_2_ends_unplayable_but_boneyard_not_empty_is_not_blocked() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6", boneyard="1-1")
    for reading in READINGS:
        assert ends_unplayable(DRAW, s, reading)
        assert not is_blocked(DRAW, s, reading)
    assert not boneyard_supplies_nothing(DRAW, s)
    assert legal_moves(DRAW, s) == (Move.draw(0, "1-1"),)  # play continues
    with pytest.raises(IllegalMoveError, match=r"^R4\.1:"):
        run(DRAW, s, Move.confirm(0))


def test_r3_3_boneyard_empty_but_a_tile_playable_is_not_blocked() -> None:
    s = position(DRAW, ["0-0 1-2", "3-6"], line="6-6", turn=0)
    assert boneyard_supplies_nothing(DRAW, s)
    for reading in READINGS:
        assert not ends_unplayable(DRAW, s, reading)
        assert not is_blocked(DRAW, s, reading)
    s = run(DRAW, s, Move.confirm(0))  # P0 truly cannot play ...
    assert legal_moves(DRAW, s) == (play(DRAW, s, 1, "3-6", 6),)  # ... P1 can: play continues
    s = run(DRAW, s, play(DRAW, s, 1, "3-6", 6))
    assert s.confirmed == 0 and s.status is Status.PLAYING


def test_r3_3_both_conditions_at_once_is_blocked() -> None:
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6")
    for reading in READINGS:
        assert ends_unplayable(DRAW, s, reading)
        assert is_blocked(DRAW, s, reading)
    assert boneyard_supplies_nothing(DRAW, s)
    assert legal_moves(DRAW, s) == (Move.confirm(0),)


def test_r3_4_at_a_block_no_move_but_the_procedure_is_left() -> None:
    """R3.4: when both conditions hold, every move has been exhausted: the only moves
    left are the confirmations of R4 and the establishment."""
    s = position(DRAW, ["0-0 1-2", "3-4"], line="6-6")
    kinds = []
    while s.status is Status.PLAYING:
        (m,) = legal_moves(DRAW, s)
        kinds.append(m.kind)
        s = run(DRAW, s, m)
    assert kinds == [MoveKind.CONFIRM, MoveKind.CONFIRM, MoveKind.ESTABLISH]
    assert s.status is Status.BLOCKED


# ---------------------------------------------------------------------------
# R3.5 -- [draw] when = "any-time": a player who can play may draw too
# ---------------------------------------------------------------------------

ANY_TIME = variant("draw-2p-d6", {"draw.when": "any-time"})
ANY_TIME_ONE = variant("draw-2p-d6", {"draw.rule": "one", "draw.when": "any-time"})


@pytest.mark.parametrize("v", [ANY_TIME, ANY_TIME_ONE], ids=["until-playable", "one"])
def test_r3_5_a_player_who_can_play_may_play_or_draw(v: Variant) -> None:
    s = position(v, ["0-6 1-2", "3-4"], line="6-6", boneyard="0-1 2-6")
    assert legal_moves(v, s) == (play(v, s, 0, "0-6", 6), Move.draw(0, "0-1"))
    s = run(v, s, Move.draw(0, "0-1"))
    assert s.turn == 0 and s.boneyard.bit_count() == 1  # the turn stays: play or draw on


def test_r3_5_until_playable_draws_again_and_again_then_plays() -> None:
    s = position(ANY_TIME, ["0-6 1-2", "3-4"], line="6-6", boneyard="0-1 2-6")
    s = run(ANY_TIME, s, Move.draw(0, "0-1"))
    assert not s.drew and Move.draw(0, "2-6") in legal_moves(ANY_TIME, s)
    s = run(ANY_TIME, s, Move.draw(0, "2-6"))
    assert s.boneyard == 0  # the stock is gone: play, as R4.3 says
    assert all(m.kind is MoveKind.PLAY for m in legal_moves(ANY_TIME, s))
    with pytest.raises(IllegalMoveError, match=r"^R3\.1: the boneyard is empty"):
        run(ANY_TIME, s, Move.draw(0, "3-3"))


def test_r3_5_draw_one_allows_one_draw_a_turn_then_play_or_pass() -> None:
    v = ANY_TIME_ONE
    s = run(v, position(v, ["0-6 1-2", "3-4"], line="6-6", boneyard="0-1 2-6"),
            Move.draw(0, "0-1"))
    assert s.drew and legal_moves(v, s) == (play(v, s, 0, "0-6", 6),)  # no second draw
    with pytest.raises(IllegalMoveError, match="one tile has been drawn already"):
        run(v, s, Move.draw(0, "2-6"))
    stuck = run(v, position(v, ["1-2", "3-4"], line="6-6", boneyard="0-1 2-6"),
                Move.draw(0, "0-1"))
    assert legal_moves(v, stuck) == (Move.pass_(0),)  # drawn, still stuck: pass (R3.1)


def test_r3_5_the_block_still_needs_the_boneyard_empty() -> None:
    """Under any-time, as under R3.1, nobody confirms while stock is left; the random
    rounds do draw while able to play."""
    rules, able = spec_for(ANY_TIME_ONE), 0
    for seed in range(10):
        t = random_round(ANY_TIME_ONE, seed)
        for s, m in zip(t.states(), t.moves, strict=False):
            if m.kind is MoveKind.CONFIRM:
                assert s.boneyard == 0
            able += m.kind is MoveKind.DRAW and rules.playable_mask(s, m.player) != 0
    assert able


def test_r3_5_case_reads_case_6s_guard_by_position() -> None:
    """The any-time case of model/spec.py asks CASES[7] for case 6's guard."""
    assert [c.number for c in CASES[5:8]] == [5, 5, 6]
    assert CASES[7].text == "boneyard != {}, DRAW != none, not drew"
