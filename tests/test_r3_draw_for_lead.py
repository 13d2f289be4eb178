"""R3.6 -- [lead] fallback = "draw": when nobody was dealt the tile the lead rule names,
the players draw for it, one tile each in turn from ``lead.player`` on, until one draws
it and leads with it (Chicken Foot's rule: docs/RULES.md R3.6)."""

from __future__ import annotations

import pytest
from helpers import tile_list, tiles, variant

from dominoproof.model import IllegalMoveError, Move, MoveKind, legal_moves, random_round
from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.fast import engine_for
from dominoproof.model.spec import spec_for
from dominoproof.model.state import Deal, State
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import LeadFallback, Sizes, Variant
from dominoproof.render.narrate import narrate
from dominoproof.render.text import variant_summary

#: double-3, 2 players x 3, 4 in the boneyard; 3-3 names the leader; P1 draws first
TILE = variant("tiny-2p-d3", {"lead.fallback": "draw", "lead.player": 1})
#: the same under draw-one and the highest double (any double drawn is the first held)
DOUBLE = variant("tiny-2p-d3", {"lead.rule": "highest-double", "lead.fallback": "draw",
                                "draw.rule": "one", "deal.hand_size": 2})


def dealt(v: Variant, hands: list[str], stack: str, *, free_draw: bool = False) -> State:
    return initial_state(v, Deal(tuple(tiles(h) for h in hands), tuple(tile_list(stack)), 0),
                         free_draw=free_draw)


def test_r3_6_the_players_draw_in_turn_and_the_drawer_of_the_tile_leads_it() -> None:
    s = dealt(TILE, ["0-0 0-1 0-2", "1-1 1-2 0-3"], "1-3 2-2 3-3 2-3")
    assert s.turn == 1 and not s.led  # lead.player draws first
    assert legal_moves(TILE, s) == (Move.draw(1, "1-3"),)  # the top of the stack
    s = both(s, Move.draw(1, "1-3"))
    assert s.turn == 0 and not s.drew  # not it: the turn passes clockwise
    s = both(s, Move.draw(0, "2-2"))
    assert s.turn == 1
    s = both(s, Move.draw(1, "3-3"))
    assert s.turn == 1 and not s.drew  # it: P1 keeps the turn ...
    assert legal_moves(TILE, s) == (Move.play(1, "3-3"),)  # ... and leads it
    s = both(s, Move.play(1, "3-3"))
    assert s.led and s.boneyard == tiles("2-3") and s.turn == 0


def both(s: State, m: Move) -> State:
    """``m`` in ``s`` under ``TILE``: the specification and the engine give one state."""
    got = spec_for(TILE).apply(s, m)
    assert engine_for(TILE).apply(s, m) == got
    return got


def test_r3_6_with_a_free_draw_order_any_boneyard_tile_may_be_drawn() -> None:
    s = dealt(TILE, ["0-0 0-1 0-2", "1-1 1-2 0-3"], "1-3 2-2 3-3 2-3", free_draw=True)
    assert legal_moves(TILE, s) == tuple(Move.draw(1, t) for t in ("2-2", "1-3", "2-3",
                                                                     "3-3"))


def test_r3_6_under_highest_double_the_first_double_drawn_leads() -> None:
    """Nobody holds a double: the players draw until one turns up, which is then the only
    double held (so the highest held); a draw-one game leaves no draw counted."""
    s = dealt(DOUBLE, ["0-1 0-2", "1-2 0-3"], "1-3 1-1 3-3 0-0 2-3 2-2")
    assert s.turn == 0
    s = spec_for(DOUBLE).apply(s, Move.draw(0, "1-3"))
    s = spec_for(DOUBLE).apply(s, Move.draw(1, "1-1"))
    assert s.turn == 1 and not s.drew
    assert legal_moves(DOUBLE, s) == (Move.play(1, "1-1"),)


def test_r3_6_only_draws_before_the_tile_is_found_each_move_naming_its_rule() -> None:
    s = dealt(TILE, ["0-0 0-1 0-2", "1-1 1-2 0-3"], "1-3 2-2 3-3 2-3")
    with pytest.raises(IllegalMoveError, match=r"^R3\.6: nobody holds the tile"):
        spec_for(TILE).apply(s, Move.play(1, "1-1"))
    with pytest.raises(IllegalMoveError, match=r"^R3\.6:"):
        spec_for(TILE).apply(s, Move.confirm(1))
    with pytest.raises(IllegalMoveError, match=r"^Terms: it is P1's turn"):
        spec_for(TILE).apply(s, Move.draw(0, "1-3"))
    with pytest.raises(IllegalMoveError, match=r"^R3\.1: not the tile on top"):
        spec_for(TILE).apply(s, Move.draw(1, "2-2"))


def test_r3_6_a_dealt_tile_leads_at_once_as_before() -> None:
    s = dealt(TILE, ["0-0 0-1 3-3", "1-1 1-2 0-3"], "1-3 2-2 0-2 2-3")
    assert s.turn == 0 and legal_moves(TILE, s) == (Move.play(0, "3-3"),)


@pytest.mark.parametrize("v", [TILE, DOUBLE], ids=["tile", "highest-double"])
def test_r3_6_every_round_leads_the_named_tile_after_draws_in_turn(v: Variant) -> None:
    """Random rounds: the draws before the lead go clockwise from lead.player, and the
    lead is a tile the rule names, by its drawer; some rounds draw, some do not."""
    drew = 0
    for seed in range(40):
        t = random_round(v, seed)
        states = t.states()
        k = next(i for i, m in enumerate(t.moves) if m.kind is MoveKind.PLAY)
        assert all(m.kind is MoveKind.DRAW for m in t.moves[:k])
        assert [m.player for m in t.moves[:k]] == [
            (v.lead.player + i) % v.players for i in range(k)]
        lead = Tile.from_index(t.moves[k].tile)
        assert lead.is_double if v is DOUBLE else lead == Tile.parse(v.lead.tile)
        assert t.moves[k].player == (t.moves[k - 1].player if k else states[0].turn)
        drew += k
    assert drew


def test_r3_6_the_round_reads_in_words() -> None:
    deal = Deal((tiles("0-0 0-1 0-2"), tiles("1-1 1-2 0-3")),
                tuple(tile_list("1-3 3-3 2-2 2-3")), 0)
    moves = [Move.draw(1, "1-3"), Move.draw(0, "3-3"), Move.play(0, "3-3")]
    steps = narrate(Trace(TILE, deal, tuple(moves)))
    assert [x.rule for x in steps] == ["R3.6", "R3.6", "Terms"]
    assert "P1 draws [1|3] for the lead, not it: P0 draws next" in steps[0].text
    assert "P0 draws [3|3] for the lead, it: P0 leads next" in steps[1].text
    assert 'fallback "draw", R3.6: nobody was dealt [3|3], and P0 drew it' in steps[2].text
    assert "else the players draw for it from P1 (R3.6)" in variant_summary(TILE)


def test_r3_6_small_sizes_with_tiles_aside_lead_the_heaviest_tile_instead() -> None:
    """The search's small configurations keep R3.6 where nothing is set aside; where
    the sizes set tiles aside the named tile might never be drawn (the variant checks
    reject that), so the fallback follows the sizes, with a note."""
    v = variant("chickenfoot-4p-d9", {"lead.fallback": "draw"})
    kept, notes = v.resized(Sizes(4, 2, 3, 0))
    assert kept.lead.fallback is LeadFallback.DRAW and kept.lead.tile == "4-4"
    assert not any("fallback" in n for n in notes)
    moved, notes = v.resized(Sizes(4, 2, 3, 2))
    assert moved.lead.fallback is LeadFallback.HEAVIEST_TILE
    assert any("fallback" in n for n in notes)
