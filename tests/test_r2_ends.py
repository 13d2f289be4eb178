"""R2 (condition 1): every open end is unplayable, universally over lines and players."""

from __future__ import annotations

import pytest
from helpers import play, position, run

from dominoproof.model import (
    FalseDeclarationError,
    Move,
    MoveKind,
    Tile,
    ends_unplayable,
    engine_for,
    find_variant,
    is_blocked,
    legal_moves,
    random_round,
)
from dominoproof.model.variant import ExtendReading

READINGS = list(ExtendReading)
D12 = find_variant("draw-4p-d12")
#: A double-12 line whose two open ends both show 11: 11-5, 5-12, 12-11.
LINE_11_11 = "11-5 5-12 12-11"
NO_11 = ["0-0 1-2", "3-4 10-10", "12-12 5-6", "7-8"]


def test_r2_1_end_showing_11_is_unplayable_when_no_hand_holds_an_11() -> None:
    s = position(D12, NO_11, line=LINE_11_11)
    assert s.ends == (11, 11)
    for reading in READINGS:  # R2.3: both readings agree on the one-line layout
        assert ends_unplayable(D12, s, reading)
        assert is_blocked(D12, s, reading)
    assert legal_moves(D12, s) == (Move.confirm(0),)


@pytest.mark.parametrize("seat", range(4))
def test_r2_1_end_showing_11_is_playable_when_one_hand_holds_an_11(seat: int) -> None:
    hands = list(NO_11)
    hands[seat] += " 3-11"
    s = position(D12, hands, line=LINE_11_11, turn=seat)
    for reading in READINGS:
        assert not ends_unplayable(D12, s, reading)
        assert not is_blocked(D12, s, reading)
    assert legal_moves(D12, s) == (play(D12, s, seat, "3-11", 11),)


def test_r2_1_the_tile_12_12_in_a_hand_leaves_the_11_ends_unplayable() -> None:
    """The number on an end is what matters, not the tiles next to it."""
    s = position(D12, NO_11, line=LINE_11_11)
    assert s.hands[2] >> Tile.parse("12-12").idx & 1
    assert ends_unplayable(D12, s)


def test_r2_2_every_end_must_be_unplayable() -> None:
    """A line with ends 11 and 12: a 12 in any hand makes the line extendable."""
    line = "12-12 12-11"
    hands = ["0-0 1-2", "3-4", "5-6", "7-8"]
    s = position(D12, hands, line=line)
    assert s.ends == (11, 12)
    assert ends_unplayable(D12, s)
    hands[1] += " 12-0"
    s = position(D12, hands, line=line)
    for reading in READINGS:
        assert not ends_unplayable(D12, s, reading)


@pytest.mark.parametrize("seat", range(4))
def test_r2_2_one_player_able_to_extend_means_not_blocked(seat: int) -> None:
    """Universality over players: whoever holds the one matching tile, even a player
    whose turn is far away, the game is not blocked and play continues."""
    v = find_variant("block-4p-d6")
    hands = ["1-1", "2-2", "3-3", "4-4"]
    hands[seat] += " 6-5"
    s = position(v, hands, line="0-6", turn=(seat + 1) % 4)
    for reading in READINGS:
        assert not is_blocked(v, s, reading)
    # the players before ``seat`` confirm; ``seat`` must play (R4.3)
    for k in range(3):
        p = (seat + 1 + k) % 4
        s = run(v, s, Move.confirm(p))
    assert s.turn == seat
    assert [m.kind for m in legal_moves(v, s)] == [MoveKind.PLAY]
    with pytest.raises(FalseDeclarationError):
        run(v, s, Move.confirm(seat))


def test_r2_before_the_lead_nothing_is_unplayable() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1", "2-2"])
    assert not s.led and s.open_ends == ()
    for reading in READINGS:
        assert not ends_unplayable(v, s, reading)
        assert not is_blocked(v, s, reading)


@pytest.mark.parametrize("name", ["block-2p-d6", "draw-4p-d9", "draw-leave2-2p-d6",
                                  "partnership-4p-d6"])
def test_r2_3_both_readings_agree_on_the_one_line_layout(name: str) -> None:
    """R2.3: "holds a matching tile" and "has a legal move" coincide when every player
    may play on both ends; checked on every state of a few random rounds, and each
    player's ability is compared with the plays the rules offer on that player's turn."""
    v = find_variant(name)
    rules = engine_for(v)
    for seed in range(8):
        for s in random_round(v, seed).states():
            a = ends_unplayable(v, s, ExtendReading.HOLDS_MATCHING_TILE)
            b = ends_unplayable(v, s, ExtendReading.HAS_LEGAL_MOVE)
            assert a == b
            if s.led and not s.is_terminal and s.hands[s.turn]:
                plays = [m for m in legal_moves(v, s) if m.kind is MoveKind.PLAY]
                assert bool(plays) == rules.has_play(s, s.turn)
                assert {m.tile for m in plays} == {
                    t for t in range(v.tiles.count)
                    if rules.playable_mask(s, s.turn) >> t & 1}
