"""R1: what a blocked game is -- a terminal state, not a domino, determined before scoring."""

from __future__ import annotations

import pytest
from helpers import established, play, position, run, variant

from dominoproof.model import (
    Ending,
    Move,
    MoveKind,
    Status,
    boneyard_supplies_nothing,
    ends_unplayable,
    find_variant,
    is_blocked,
    legal_moves,
    outcome,
    random_round,
)
from dominoproof.model.variant import ExtendReading

READINGS = list(ExtendReading)


def test_r1_1_blocked_state_is_terminal_and_both_conditions_hold() -> None:
    v = find_variant("block-2p-d6")
    s = established(v, ["1-1 1-2", "5-5"], line="0-6")
    assert s.status is Status.BLOCKED and s.is_terminal
    assert legal_moves(v, s) == ()
    for reading in READINGS:
        assert is_blocked(v, s, reading)


def test_r1_1_no_open_end_matched_by_any_active_player_and_empty_boneyard_is_blocked() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1 1-2", "5-5"], line="0-6")
    assert all(is_blocked(v, s, r) for r in READINGS)
    assert [m.kind for m in legal_moves(v, s)] == [MoveKind.CONFIRM]


def test_r1_1_one_matching_tile_anywhere_is_not_blocked() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1 1-2", "5-5 5-6"], line="0-6")
    assert not any(is_blocked(v, s, r) for r in READINGS)


def test_r1_2_a_domino_is_not_a_block() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-6", "5-5"], line="0-6")
    s = run(v, s, play(v, s, 0, "1-6", 6))
    assert legal_moves(v, s) == (Move.domino(0),)
    s = run(v, s, Move.domino(0))
    assert s.status is Status.DOMINO
    assert not any(is_blocked(v, s, r) for r in READINGS)
    res = outcome(v, s)
    assert res is not None and res.termination is Ending.DOMINO


def test_r1_2_after_the_last_tile_the_domino_comes_first_even_where_no_end_is_playable() -> None:
    """Between the last play and the Domino move, no hand can extend an end and the
    boneyard is empty, yet the round ends by a domino, not a block: a player who has
    emptied their hand is no longer active, so R1.1 does not hold (SEMANTICS.md)."""
    v = find_variant("block-2p-d6")
    s = position(v, ["1-6", "5-5"], line="0-6")
    s = run(v, s, play(v, s, 0, "1-6", 6))
    assert s.ends == (0, 1) and s.hands[0] == 0
    assert ends_unplayable(v, s) and boneyard_supplies_nothing(v, s)
    assert not any(is_blocked(v, s, r) for r in READINGS)
    assert legal_moves(v, s) == (Move.domino(0),)  # the round ends by a domino


def test_r1_2_a_pending_domino_with_no_playable_end_is_reached_by_random_play() -> None:
    v = find_variant("block-2p-d6")
    found = [s for seed in range(40) for s in random_round(v, seed).states()
             if s.status is Status.PLAYING and 0 in s.hands and ends_unplayable(v, s)]
    assert found
    for s in found:
        assert not is_blocked(v, s)
        assert [m.kind for m in legal_moves(v, s)] == [MoveKind.DOMINO]


def test_r1_3_outcome_exists_only_once_the_block_is_established() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1 1-2", "5-5"], line="0-6")
    assert is_blocked(v, s)
    assert outcome(v, s) is None  # R2 and R3 hold, but nothing is scored yet
    s = run(v, s, Move.confirm(0), Move.confirm(1))
    assert outcome(v, s) is None
    s = run(v, s, Move.establish(0))
    res = outcome(v, s)
    assert res is not None and res.termination is Ending.BLOCKED


@pytest.mark.parametrize("name", ["block-2p-d6", "block-4p-d6", "draw-2p-d6", "fouls-4p-d6"])
def test_r1_1_every_random_block_satisfies_r2_and_r3(name: str) -> None:
    v = find_variant(name)
    blocks = 0
    for seed in range(25):
        final = random_round(v, seed).final
        if final.status is Status.BLOCKED:
            blocks += 1
            assert final.boneyard == 0
            for reading in READINGS:
                assert is_blocked(v, final, reading)
    assert blocks > 0  # the check is not vacuous


def test_r1_1_a_block_needs_every_player_so_fewer_confirmations_can_block_too_early() -> None:
    """R4.4 asks every player to confirm. A variant that asks fewer ("all-others")
    can establish a block while the player who did not confirm could still play:
    the check above fails for it, and this test shows that it can fail."""
    v = variant("block-4p-d6", {"deal.hand_size": 2, "block.confirmations": "all-others"})
    s = position(v, ["1-1", "2-2", "3-3", "6-1 4-4"], line="0-6", turn=0)
    s = run(v, s, Move.confirm(0), Move.confirm(1), Move.confirm(2))
    assert legal_moves(v, s) == (Move.establish(3),)
    s = run(v, s, Move.establish(3))
    assert s.status is Status.BLOCKED
    assert not is_blocked(v, s)  # P3 holds 1-6, which matches the 6 end
