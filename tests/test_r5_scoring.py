"""R5: ending and scoring a blocked round -- residuals, winners, awards, ties.

Blocked states are reached by the R4 procedure itself (``helpers.established``):
the hands below are written so that no tile extends the line ``0-6``.
Tile values used: 1-1=2, 1-2=3, 1-3=4, 2-2=4, 1-4=5, 2-3=5, 3-3=6, 2-4=6, 4-4=8,
4-5=9, 5-5=10.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import established, play, position, run, variant
from reference_rules import from_model
from reference_scoring import score as reference_score

from dominoproof.model import (
    Ending,
    IllegalMoveError,
    Move,
    MoveKind,
    Status,
    find_variant,
    legal_moves,
    outcome,
)
from dominoproof.model.errors import VariantError
from dominoproof.model.outcome import Outcome, rounded
from dominoproof.proofs.oracles import outcome_fields
from dominoproof.proofs.z3.scoring import score_reader

#: Four blocked hands where P0 and P1 tie at 4; P2 holds 10 and P3 9.
TIE4 = ["1-3", "2-2", "5-5", "4-5"]


def blocked4(overrides: dict[str, Any], hands: list[str] = TIE4, proposer: int = 0) -> Outcome:
    v = variant("block-4p-d6", {"deal.hand_size": 2, **overrides})
    res = outcome(v, established(v, hands, line="0-6", proposer=proposer))
    assert res is not None and res.termination is Ending.BLOCKED
    return res


def blocked2(overrides: dict[str, Any], hands: list[str]) -> Outcome:
    v = variant("block-2p-d6", overrides)
    res = outcome(v, established(v, hands, line="0-6"))
    assert res is not None
    return res


# ---------------------------------------------------------------------------
# R5.1 the round ends at once
# ---------------------------------------------------------------------------


def test_r5_1_no_legal_move_after_the_block_is_established() -> None:
    v = find_variant("block-2p-d6")
    s = established(v, ["1-1 1-2", "5-5"], line="0-6")
    assert s.status is Status.BLOCKED
    assert legal_moves(v, s) == ()
    for m in (Move.confirm(0), Move.confirm(1), Move.establish(0), Move.play(0, "1-1", 0),
              Move.domino(0), Move.pass_(0), Move.draw(0, "0-0")):
        with pytest.raises(IllegalMoveError, match=r"^R5\.1:"):
            run(v, s, m)


# ---------------------------------------------------------------------------
# R5.2 lowest residual wins; R5.3 residual pip counts
# ---------------------------------------------------------------------------


def test_r5_2_lowest_residual_wins_not_most_tiles_played() -> None:
    res = blocked2({}, ["1-1 1-2 1-3", "5-5"])  # P0: 3 tiles, 9 pips; P1: 1 tile, 10
    assert res.residuals == (9, 10)
    assert res.winners == (0,) and res.winning_players == (0,)
    assert res.awards == (10, 0)
    res = blocked2({}, ["1-1 1-2 1-4", "5-5"])  # 10 against 10: a tie
    assert res.tied == (0, 1) and res.winners == ()


def test_r5_3_pips_5_10_counts_15_and_12_12_counts_24_in_a_residual() -> None:
    v = find_variant("draw-4p-d12")
    hands = ["12-12 5-10", "0-0", "1-1", "2-2"]
    s = established(v, hands, line="11-5 5-12 12-11")
    res = outcome(v, s)
    assert res is not None
    assert res.residuals == (39, 0, 2, 4)
    assert res.winners == (1,) and res.awards == (0, 45, 0, 0)


def test_r5_3_special_tile_values_override_the_pips() -> None:
    hands = ["0-0", "4-4 5-5"]
    plain = variant("block-2p-d6")
    res = outcome(plain, established(plain, hands, line="6-6"))
    assert res is not None and res.residuals == (0, 18) and res.winners == (0,)
    special = variant("block-2p-d6", {"scoring.tile_values": {"0-0": 25}})
    res = outcome(special, established(special, hands, line="6-6"))
    assert res is not None and res.residuals == (25, 18)
    assert res.winners == (1,) and res.awards == (0, 25)


def test_r5_3_totals_are_the_sums_of_each_sides_residuals() -> None:
    res = blocked4({}, ["1-1", "2-2", "5-5", "4-5"])
    assert res.residuals == (2, 4, 10, 9)
    assert res.sides == ((0,), (1,), (2,), (3,)) and res.totals == res.residuals


# ---------------------------------------------------------------------------
# R5.4 awards
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("award", "expected"), [
    ("others-sum", 10), ("others-minus-winner", 5), ("all-residuals", 15),
])
def test_r5_4_award_rules(award: str, expected: int) -> None:
    res = blocked2({"scoring.block_award": award}, ["1-1 1-2", "5-5"])  # 5 against 10
    assert res.winners == (0,)
    assert res.awards == (expected, 0) and res.scores == (expected, 0)


@pytest.mark.parametrize(("step", "expected"), [(1, 21), (5, 20), (10, 20), (4, 20),
                                                 (3, 21), (2, 22), (7, 21), (6, 24)])
def test_r5_4_awards_are_rounded_to_the_nearest_multiple(step: int, expected: int) -> None:
    res = blocked4({"scoring.round_to": step}, ["1-1", "2-2", "5-5", "3-4"])  # 4+10+7 = 21
    assert res.winners == (0,) and res.awards[0] == expected


def test_r5_4_rounding_goes_half_up() -> None:
    assert [rounded(x, 10) for x in (14, 15, 16, 25)] == [10, 20, 20, 30]
    assert [rounded(x, 4) for x in (1, 2, 3)] == [0, 4, 4]
    assert rounded(7, 1) == 7


def test_r5_4_team_award_partnership_compares_team_totals() -> None:
    v = find_variant("partnership-4p-d6")
    hands = ["1-1 1-2", "2-2", "5-5", "4-5 1-3"]  # team 0+2: 5+10 = 15; team 1+3: 4+13 = 17
    s = established(v, hands, line="0-6")
    res = outcome(v, s)
    assert res is not None
    assert res.sides == ((0, 2), (1, 3)) and res.totals == (15, 17)
    assert res.winners == (0,) and res.winning_players == (0, 2)
    assert res.awards == (32, 0)  # all-residuals: every pip on the table
    # P1 has the lowest single residual, but the teams are compared
    assert min(res.residuals) == res.residuals[1]


def test_r5_4_domino_award_goes_to_the_side_that_emptied_its_hand() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-6", "5-5 4-4"], line="0-6")
    s = run(v, s, play(v, s, 0, "1-6", 6), Move.domino(0))
    res = outcome(v, s)
    assert res is not None and res.termination is Ending.DOMINO
    assert res.residuals == (0, 18) and res.winners == (0,) and res.awards == (18, 0)


def test_r5_4_domino_in_a_partnership_scores_for_the_team() -> None:
    v = find_variant("partnership-4p-d6")
    s = position(v, ["1-1", "2-2", "1-6", "3-3"], line="0-6", turn=2)
    s = run(v, s, play(v, s, 2, "1-6", 6), Move.domino(2))
    res = outcome(v, s)
    assert res is not None and res.winners == (0,) and res.winning_players == (0, 2)
    assert res.awards == (12, 0)  # all-residuals: 2 + 4 + 0 + 6


# ---------------------------------------------------------------------------
# R5.5 ties
# ---------------------------------------------------------------------------


def test_r5_5_tie_none_nobody_scores() -> None:
    res = blocked4({"scoring.tie": "none"})
    assert res.tied == (0, 1) and res.winners == () and res.awards == (0, 0, 0, 0)


def test_r5_5_tie_split_shares_the_award_against_the_untied_sides() -> None:
    res = blocked4({"scoring.tie": "split"})
    assert res.tied == (0, 1) and res.winners == (0, 1)
    assert res.awards == (9, 9, 0, 0)  # (10 + 9) // 2, rounded down


def test_r5_5_tie_split_of_an_award_that_divides_evenly() -> None:
    res = blocked4({"scoring.tie": "split"}, ["1-3", "2-2", "5-5", "4-4"])  # 18 // 2
    assert res.awards == (9, 9, 0, 0)


def test_r5_5_tie_all_win_each_tied_side_gets_the_whole_award() -> None:
    res = blocked4({"scoring.tie": "all-win"})
    assert res.winners == (0, 1) and res.awards == (19, 19, 0, 0)


@pytest.mark.parametrize(("proposer", "winner"), [(0, 0), (1, 1), (2, 0), (3, 0)])
def test_r5_5_tie_first_from_proposer(proposer: int, winner: int) -> None:
    res = blocked4({"scoring.tie": "first-from-proposer"}, proposer=proposer)
    assert res.proposer == proposer
    assert res.tied == (0, 1) and res.winners == (winner,)
    # once the tie is broken there is one winner: the others are every other side,
    # the losing tied side included (4 + 10 + 9)
    assert res.awards[winner] == 23 and sum(res.awards) == 23


def test_r5_5_tie_first_from_proposer_clockwise_past_the_last_seat() -> None:
    res = blocked4({"scoring.tie": "first-from-proposer"}, ["5-5", "2-2", "4-5", "1-3"],
                   proposer=2)
    assert res.tied == (1, 3) and res.winners == (3,)  # 2 -> 3 before 0 -> 1


def test_r5_5_tie_lightest_tile_by_value() -> None:
    res = blocked4({"scoring.tie": "lightest-tile"}, ["1-1 1-2", "1-4", "5-5", "4-5"])
    assert res.residuals[:2] == (5, 5) and res.winners == (0,)  # 1-1 (2) beats 1-4 (5)


def test_r5_5_tie_lightest_tile_equal_values_lowest_index_wins() -> None:
    res = blocked4({"scoring.tie": "lightest-tile"})  # 1-3 (index 7) vs 2-2 (index 5)
    assert res.winners == (1,) and res.awards == (0, 23, 0, 0)


def test_r5_5_tie_lightest_tile_uses_special_values() -> None:
    hands = ["1-1 1-4", "1-2 1-3", "5-5", "4-5"]  # 7 against 7
    res = blocked4({"scoring.tie": "lightest-tile"}, hands)
    assert res.tied == (0, 1) and res.winners == (0,)  # 1-1 (2) is the lightest
    special = {"scoring.tie": "lightest-tile", "scoring.tile_values": {"1-1": 4, "1-4": 3}}
    res = blocked4(special, hands)  # still 7 against 7
    assert res.tied == (0, 1)
    assert res.winners == (1,)  # 1-2 (3, index 4) before 1-4 (3, index 11)


TEAMS = {"partnerships.teams": [[0, 2], [1, 3]], "scoring.tie": "team-total"}


def test_r5_5_tie_team_total_separates_tied_players_by_their_teams() -> None:
    res = blocked4(TEAMS)  # P0+P2 = 14, P1+P3 = 13
    assert res.tied == (0, 1) and res.winners == (1,)
    assert res.sides == ((0,), (1,), (2,), (3,))  # players still score alone
    assert res.awards == (0, 23, 0, 0)  # others-sum over the other players: 4 + 10 + 9


def test_r5_5_tie_team_total_still_tied_nobody_scores() -> None:
    res = blocked4(TEAMS, ["1-3", "2-2", "5-5", "4-4 1-1"])  # 14 against 14
    assert res.tied == (0, 1) and res.winners == () and res.awards == (0, 0, 0, 0)


def test_r5_5_tie_between_teams_in_a_partnership() -> None:
    v = find_variant("partnership-4p-d6")
    s = established(v, ["1-3", "2-2", "5-5", "4-5 1-1"], line="0-6")  # 14 against 15 ...
    res = outcome(v, s)
    assert res is not None and res.winners == (0,)
    s = established(v, ["1-3", "2-2", "5-5", "4-4 1-1"], line="0-6")  # ... 14 against 14
    res = outcome(v, s)
    assert res is not None and res.tied == (0, 1) and res.winners == ()
    assert res.awards == (0, 0)


# ---------------------------------------------------------------------------
# R5.2a a block won by the fewest tiles; R5.4 awards counted in pips or in tiles
# ---------------------------------------------------------------------------

FEWEST = {"scoring.block_winner": "fewest-tiles"}
IN_TILES = {"scoring.award_unit": "tiles"}


def read_thrice(v: Any, s: Any) -> Outcome:
    """The engine's outcome of ``s``, after checking that the plain reference and the Z3
    reading of R5 give the same fields (counts, winners and awards included)."""
    res = outcome(v, s)
    assert res is not None
    fields = outcome_fields(res)
    assert reference_score(v, from_model(v, s)) == fields
    scored = score_reader(v).read(s)
    assert scored is not None
    z3_fields = {k: (tuple(sorted(x)) if k == "winners" else x)
                 for k, x in scored.fields().items()}
    assert z3_fields == fields
    return res


def blocked_tiles(overrides: dict[str, Any], hands: list[str], preset: str = "block-2p-d6",
                  proposer: int = 0) -> Outcome:
    v = variant(preset, overrides)
    return read_thrice(v, established(v, hands, line="0-6", proposer=proposer))


def test_r5_2a_fewest_tiles_wins_the_block_and_the_award_stays_in_pips() -> None:
    res = blocked_tiles(FEWEST, ["1-1 1-2 1-3", "5-5"])  # P0: 3 tiles, 9; P1: 1 tile, 10
    assert res.residuals == (9, 10) and res.counts == (3, 1)
    assert res.winners == (1,) and res.awards == (0, 9)  # the others' pips
    assert res.explanation == "blocked: P1 has the fewest tiles (1)"
    pips = blocked_tiles({}, ["1-1 1-2 1-3", "5-5"])  # the same hands, R5.2: P0
    assert pips.winners == (0,) and pips.counts == pips.totals == (9, 10)


@pytest.mark.parametrize(("award", "expected"), [
    ("others-sum", 3), ("others-minus-winner", 2), ("all-residuals", 4)])
def test_r5_4_an_award_counted_in_tiles(award: str, expected: int) -> None:
    res = blocked_tiles({**FEWEST, **IN_TILES, "scoring.block_award": award},
                        ["1-1 1-2 1-3", "5-5"])
    assert res.winners == (1,) and res.awards == (0, expected)
    assert res.residuals == (9, 10)  # R5.3 still counts pips


def test_r5_4_tiles_awarded_to_the_fewest_pips() -> None:
    res = blocked_tiles(IN_TILES, ["1-1 1-2 1-3", "5-5"])
    assert res.winners == (0,) and res.awards == (1, 0)  # P1's one tile


def test_r5_4_a_domino_awarded_in_tiles() -> None:
    v = variant("block-2p-d6", IN_TILES)
    s = position(v, ["1-6", "5-5 4-4"], line="0-6")
    s = run(v, s, play(v, s, 0, "1-6", 6), Move.domino(0))
    res = read_thrice(v, s)
    assert res.termination is Ending.DOMINO and res.awards == (2, 0)


#: P0 and P1 hold one tile each; under R5.2 P0 (2 pips) would win alone
TIE_IN_TILES = ["1-1", "2-2", "5-5 1-2", "4-5 1-3"]


@pytest.mark.parametrize(("tie", "winners", "awards"), [
    ("none", (), (0, 0, 0, 0)),
    ("split", (0, 1), (13, 13, 0, 0)),  # (13 + 13) // 2: the untied sides' pips
    ("all-win", (0, 1), (26, 26, 0, 0)),
    ("first-from-proposer", (1,), (0, 28, 0, 0)),  # proposer P1; 2 + 13 + 13
    ("lightest-tile", (0,), (30, 0, 0, 0)),  # 1-1 (2) before 2-2 (4); 4 + 13 + 13
])
def test_r5_5_a_tie_in_tiles_is_settled_by_the_tie_rule(
        tie: str, winners: tuple[int, ...], awards: tuple[int, ...]) -> None:
    res = blocked_tiles({**FEWEST, "scoring.tie": tie, "deal.hand_size": 2}, TIE_IN_TILES,
                        preset="block-4p-d6", proposer=1)
    assert res.counts == (1, 1, 2, 2) and res.tied == (0, 1)
    assert res.winners == winners and res.awards == awards
    assert res.explanation.startswith(f"blocked: P0, P1 tie at 1 tiles; R5.5 {tie}")


def test_r5_5_team_total_separates_a_tie_in_tiles_by_the_teams_tiles() -> None:
    hands = ["1-1", "2-2", "5-5 4-4", "1-2 1-3 1-4"]  # teams 0+2: 3 tiles, 20 pips;
    res = blocked_tiles({**FEWEST, **TEAMS, "deal.hand_size": 2}, hands,  # 1+3: 4, 16
                        preset="block-4p-d6")
    assert res.tied == (0, 1) and res.winners == (0,)  # by pips it would be P1
    assert res.awards == (0 + 4 + 18 + 12, 0, 0, 0)


def test_the_outcome_json_names_the_count_and_the_unit_only_when_they_change() -> None:
    hands = ["1-1 1-2 1-3", "5-5"]
    plain = blocked_tiles({}, hands).to_json()
    assert not {"block_winner", "counts", "award_unit"} & set(plain)
    named = blocked_tiles({**FEWEST, **IN_TILES}, hands).to_json()
    assert (named["block_winner"], named["counts"], named["award_unit"]) == (
        "fewest-tiles", [3, 1], "tiles")


def test_an_award_unit_with_nothing_to_count_is_a_named_warning() -> None:
    v = variant("mextrain-4p-d12", IN_TILES)
    assert any('award_unit = "tiles" has no effect' in w and "block_award" in w
               for w in v.warnings)
    assert not variant("mextrain-4p-d12", FEWEST).warnings  # the winner still changes
    with pytest.raises(VariantError, match=r'block_winner = "fewest".*"fewest-tiles"'):
        variant("block-2p-d6", {"scoring.block_winner": "fewest"})


# ---------------------------------------------------------------------------
# R5 and R4.5 together: every terminal state of random rounds is scored consistently
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["block-4p-d6", "fouls-4p-d6", "partnership-4p-d6",
                                  "draw-4p-d9", "draw-8p-d12"])
def test_r5_outcomes_of_random_rounds_are_consistent(name: str) -> None:
    from dominoproof.model import random_round

    v = find_variant(name)
    for seed in range(10):
        t = random_round(v, seed)
        res = t.outcome
        assert res is not None
        s = t.final
        assert res.residuals == tuple(
            sum(v.tile_value[i] for i in range(v.tiles.count) if h >> i & 1)
            for h in s.hands)
        assert res.totals == tuple(sum(res.residuals[p] for p in side)
                                   for side in res.sides)
        assert res.scores == tuple(
            a - sum(res.penalties[p] for p in side)
            for a, side in zip(res.awards, res.sides, strict=True))
        assert all(res.totals[w] == min(res.totals) for w in res.winners) or (
            res.termination is Ending.DOMINO)
        kinds = [m.kind for m in t.moves]
        assert kinds[-1] in (MoveKind.ESTABLISH, MoveKind.DOMINO)
