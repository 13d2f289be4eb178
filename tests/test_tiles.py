"""Terms of RULES.md: tiles, sets, pips and the one tile <-> bit numbering."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominoproof.model import Tile, tile_count, tile_index, tile_set
from dominoproof.model.tiles import MAX_SET, bits, mask_of, show_tiles, tiles_of


def test_terms_set_double_n_has_n_plus_1_n_plus_2_over_2_tiles() -> None:
    assert [tile_count(n) for n in (6, 9, 12, 15, 18)] == [28, 55, 91, 136, 190]
    for n in range(MAX_SET + 1):
        ts = tile_set(n)
        assert len(ts.tiles) == ts.count == tile_count(n)
        assert len(set(ts.tiles)) == ts.count
        assert all(0 <= t.lo <= t.hi <= n for t in ts.tiles)
        assert ts.full.bit_count() == ts.count


def test_terms_pips_5_10_counts_15_and_12_12_counts_24() -> None:
    assert Tile.parse("5-10").pips == 15
    assert Tile.parse("12-12").pips == 24
    assert tile_set(12).pips[Tile.parse("12-12").idx] == 24
    assert tile_set(12).pips[Tile.parse("5-10").idx] == 15


def test_terms_numbering_is_universal_double_n_is_a_prefix_of_double_n_plus_1() -> None:
    for n in range(MAX_SET):
        small, big = tile_set(n), tile_set(n + 1)
        assert big.tiles[: small.count] == small.tiles
    assert tile_index(0, 0) == 0
    assert tile_index(0, 1) == 1
    assert tile_index(1, 1) == 2
    assert tile_index(6, 6) == 27  # the last tile of double-6
    assert tile_index(18, 18) == tile_count(18) - 1


@given(st.integers(0, MAX_SET), st.integers(0, MAX_SET))
def test_terms_index_ignores_the_order_of_the_halves(a: int, b: int) -> None:
    t = Tile.of(a, b)
    assert tile_index(a, b) == tile_index(b, a) == t.idx
    assert Tile.from_index(t.idx) == t
    assert t.lo <= t.hi


@pytest.mark.parametrize("text", ["5-10", "10-5", "5|10", "[5|10]", " [ 10 | 5 ] ", "5:10"])
def test_terms_tile_parse_accepts_the_written_forms(text: str) -> None:
    assert Tile.parse(text) == Tile(5, 10)


@pytest.mark.parametrize("text", ["", "5", "5-", "a-b", "5-10-2", "123-1"])
def test_terms_tile_parse_rejects_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(ValueError, match="not a tile"):
        Tile.parse(text)


def test_terms_repr_is_a_constructor_expression() -> None:
    t = Tile.parse("3-11")
    assert eval(repr(t), {"Tile": Tile}) == t
    assert str(t) == "3-11"
    assert t.show() == "[3|11]"


def test_terms_other_half_is_what_shows_after_matching() -> None:
    t = Tile.parse("3-11")
    assert t.other(3) == 11
    assert t.other(11) == 3
    assert Tile.parse("4-4").other(4) == 4
    with pytest.raises(ValueError):
        t.other(5)


def test_r2_1_suit_holds_exactly_the_tiles_carrying_a_number() -> None:
    ts = tile_set(12)
    for v in range(13):
        carried = {t for t in ts.tiles if v in t}
        assert set(tiles_of(ts.suit[v])) == carried
        assert len(carried) == 13  # N+1 tiles carry each number
    assert Tile.parse("11-11").idx in set(bits(ts.suit[11]))


def test_terms_masks_round_trip() -> None:
    idx = [Tile.parse(t).idx for t in ("0-0", "2-5", "12-12")]
    m = mask_of(idx)
    assert list(bits(m)) == sorted(idx)
    assert show_tiles(m) == "[0|0][2|5][12|12]"
    assert show_tiles(0) == "-"


def test_terms_set_sizes_outside_the_scope_are_rejected() -> None:
    with pytest.raises(ValueError, match="out of range"):
        tile_set(MAX_SET + 1)
