"""R2.2's house rule of the trains family: may a double that must be covered be a
player's last tile? (``[layout] out_on_double``, docs/RULES.md R2.2.)

Under "allowed" (every preset) a player may lay such a double as their last tile and go
out, the double left uncovered. Under "covered" that play is not legal: the player
holds a tile that fits, yet has no legal move -- they draw, pass or confirm as anyone
who cannot play -- and a double whose last tile covers a waiting double still goes out.
Where no double takes tiles the parameter changes nothing (a named warning,
tests/test_bad_input.py).
"""

from __future__ import annotations

import pytest
from helpers import established, play, position, run, variant

from dominoproof.model import IllegalMoveError, Move, MoveKind, Status, random_round
from dominoproof.model.layout import OutOnDouble
from dominoproof.model.spec import Init, legal_moves, spec_for
from dominoproof.model.variant import ExtendReading, Variant, presets
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.verification import verify
from dominoproof.render.narrate import narrate

#: the block game on a line whose doubles must be covered (by the next play)
ALLOWED = variant("block-2p-d6", {"layout.double_takes": 1})
COVERED = variant("block-2p-d6", {"layout.double_takes": 1,
                                  "layout.out_on_double": "covered"})
#: ... the draw game
DRAW = variant("draw-2p-d6", {"layout.double_takes": 1, "layout.out_on_double": "covered"})


def test_every_preset_allows_going_out_on_a_double() -> None:
    """The default is today's rule: no preset changes."""
    for v in presets().values():
        assert v.layout.out_on_double is OutOnDouble.ALLOWED
        assert not v.slot_layout.cover_out


def test_allowed_a_last_double_ends_the_round_uncovered() -> None:
    s = position(ALLOWED, ["5-5", "0-1"], line="2-5")
    m = play(ALLOWED, s, 0, "5-5", 5)
    assert legal_moves(ALLOWED, s) == (m,)
    s = run(ALLOWED, s, m, Move.domino(0))
    assert s.status is Status.DOMINO and spec_for(ALLOWED).layout.pending(s.marks)


def test_covered_a_last_double_that_would_wait_is_no_legal_play() -> None:
    s = position(COVERED, ["5-5", "0-1"], line="2-5")
    assert spec_for(COVERED).playable_mask(s, 0) == 0  # it fits the 5, but is no play
    assert legal_moves(COVERED, s) == (Move.confirm(0),)
    with pytest.raises(IllegalMoveError, match=r"^R2\.2: 5-5 is P0's last tile"):
        run(COVERED, s, play(ALLOWED, s, 0, "5-5", 5))


def test_covered_a_double_with_a_tile_left_may_be_laid_and_the_last_tile_covers_it() -> None:
    """The rule is about the last tile only: [5|5] with [5|6] behind it is laid, P1
    cannot cover it, and P0's last tile covers it and goes out."""
    s = position(COVERED, ["5-5 5-6", "0-1"], line="2-5")
    s = run(COVERED, s, play(COVERED, s, 0, "5-5", 5))
    assert spec_for(COVERED).layout.pending(s.marks)
    s = run(COVERED, s, Move.confirm(1))
    s = run(COVERED, s, play(COVERED, s, 0, "5-6", 5), Move.domino(0))
    assert s.status is Status.DOMINO


def test_covered_a_last_tile_that_is_no_double_goes_out_as_ever() -> None:
    s = position(COVERED, ["5-6", "0-1"], line="2-5")
    assert run(COVERED, s, play(COVERED, s, 0, "5-6", 5), Move.domino(0)).status \
        is Status.DOMINO


def test_covered_a_player_holding_only_that_double_draws_as_a_stuck_player() -> None:
    """In the draw game the player cannot play, so draws (R3.1)."""
    s = position(DRAW, ["5-5", "0-1"], line="2-5", boneyard="0-2 3-4")
    assert legal_moves(DRAW, s) == (Move.draw(0, "0-2"),)
    t = run(DRAW, s, Move.draw(0, "0-2"))
    # two tiles: the double may be laid now, the [0|2] left to follow
    assert set(legal_moves(DRAW, t)) == {play(DRAW, t, 0, "0-2", 2), play(DRAW, t, 0, "5-5", 5)}


def test_covered_a_block_with_that_double_in_hand_is_where_the_readings_differ() -> None:
    """Nobody may play, so the procedure establishes the block; R2 read "has a legal
    move" holds there, read "holds a matching tile" it does not (R2.3)."""
    s = established(COVERED, ["5-5", "0-1"], line="2-5")
    rules = spec_for(COVERED)
    assert s.status is Status.BLOCKED
    assert rules.ends_unplayable(s, ExtendReading.HAS_LEGAL_MOVE)
    assert not rules.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)
    with pytest.raises(IllegalMoveError):
        established(ALLOWED, ["5-5", "0-1"], line="2-5")  # there P0 plays it and goes out


def _out_on_a_waiting_double(v: Variant, seeds: range) -> int:
    """Rounds of ``v`` that end by a domino whose last play left a double waiting."""
    n = 0
    for seed in seeds:
        t = random_round(v, seed)
        if t.final.status is Status.DOMINO:
            last = [m for m in t.moves if m.kind is MoveKind.PLAY][-1]
            n += bool(spec_for(v).layout.pending(t.final.marks)) and last.player == t.final.turn
    return n


@pytest.mark.parametrize("rule", ["allowed", "covered"])
def test_mexican_train_rounds_go_out_on_a_waiting_double_only_where_allowed(rule: str) -> None:
    """Mexican Train's rules on double-6, four tiles each; under "covered" the narration
    of a round says why a player holding a last double that fits did not play it."""
    v = variant("mextrain-4p-d12", {"set.max": 6, "deal.hand_size": 4, "lead.tile": "6-6",
                                    "layout.out_on_double": rule})
    found = _out_on_a_waiting_double(v, range(150))
    assert (found > 0) is (rule == "allowed"), found
    said = [st.text for seed in range(20) for st in narrate(random_round(v, seed))
            if "is a double that must be covered: it cannot end the round" in st.text]
    assert bool(said) is (rule == "covered")


def test_search_doubles_covered_holds_on_every_deal_of_small_trains() -> None:
    """Every deal of trains on double-3 (two tiles each, doubles covered by their player
    or the next): doubles-covered, which under "covered" says no such double is a last
    tile, HOLDS; and some deal reaches a refused last double."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 2, "layout.kind": "trains",
                                "lead.rule": "highest-double", "layout.double_takes": 1,
                                "layout.double_again": True,
                                "layout.out_on_double": "covered"})
    ver = verify(v, Init.every(), properties=["doubles-covered"])
    assert ver.figures.complete and ver.results[0].verdict is Verdict.HOLDS
    assert ver.result is not None
    rules = spec_for(v)
    refused = [s for s in ver.result.states() if s.status is Status.PLAYING and s.led
               and bin(s.hands[s.turn]).count("1") == 1
               and rules.playable_mask(s, s.turn) == 0
               and rules.matching_mask(s) & s.hands[s.turn]]
    assert refused
