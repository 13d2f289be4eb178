"""R4: the procedure that establishes a block -- proposer, confirmations, fouls."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import play, position, run, variant

from dominoproof.game import Round
from dominoproof.model import (
    FalseDeclarationError,
    IllegalMoveError,
    Move,
    MoveKind,
    Status,
    find_variant,
    is_blocked,
    legal_moves,
    outcome,
    random_round,
)
from dominoproof.model.engine import seeded_deal
from dominoproof.model.spec import spec_for
from dominoproof.model.variant import load_variant
from dominoproof.render.narrate import narrate

BLOCK4 = find_variant("block-4p-d6")
FOULS = find_variant("fouls-4p-d6")
#: Four hands none of which can extend the line 0-6 (no 0 and no 6 anywhere).
STUCK4 = ["1-1 1-2", "2-2", "3-3 3-4", "4-4"]


# ---------------------------------------------------------------------------
# R4.1 the proposer
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("first", range(4))
def test_r4_1_the_first_confirmation_proposes_the_block(first: int) -> None:
    s = position(BLOCK4, STUCK4, line="0-6", turn=first)
    assert s.proposer is None
    s = run(BLOCK4, s, Move.confirm(first))
    assert (s.proposer, s.confirmed, s.turn) == (first, 1, (first + 1) % 4)
    s = run(BLOCK4, s, Move.confirm((first + 1) % 4))
    assert s.proposer == first  # later confirmations keep the proposer
    s = run(BLOCK4, s, Move.confirm((first + 2) % 4), Move.confirm((first + 3) % 4),
            Move.establish(first))
    res = outcome(BLOCK4, s)
    assert res is not None and res.proposer == first


def test_r4_1_the_trigger_is_a_player_stuck_after_drawing_every_available_tile() -> None:
    v = find_variant("draw-2p-d6")
    s = position(v, ["0-0 1-2", "3-4"], line="6-6", boneyard="1-1 2-2")
    with pytest.raises(IllegalMoveError, match=r"^R4\.1:"):
        run(v, s, Move.confirm(0))  # the boneyard still supplies tiles
    s = run(v, s, Move.draw(0, "1-1"), Move.draw(0, "2-2"))
    assert legal_moves(v, s) == (Move.confirm(0),)
    s = run(v, s, Move.confirm(0))
    assert s.proposer == 0


# ---------------------------------------------------------------------------
# R4.2 successive confirmations, clockwise
# ---------------------------------------------------------------------------


def test_r4_2_confirmations_pass_clockwise_one_at_a_time() -> None:
    s = position(BLOCK4, STUCK4, line="0-6", turn=2)
    for k, p in enumerate((2, 3, 0, 1)):
        assert s.turn == p and s.confirmed == k
        assert legal_moves(BLOCK4, s) == (Move.confirm(p),)
        for other in range(4):
            if other != p:
                with pytest.raises(IllegalMoveError, match="turn"):
                    run(BLOCK4, s, Move.confirm(other))
        s = run(BLOCK4, s, Move.confirm(p))
    assert s.confirmed == 4 and s.turn == 2


def test_r4_2_a_play_breaks_the_run_of_confirmations() -> None:
    v = find_variant("block-2p-d6")
    s = position(v, ["1-1 5-6", "2-2 1-4"], line="0-6", turn=1)
    s = run(v, s, Move.confirm(1))
    assert s.confirmed == 1
    s = run(v, s, play(v, s, 0, "5-6", 6))
    assert (s.confirmed, s.proposer, s.ends) == (0, None, (0, 5))


# ---------------------------------------------------------------------------
# R4.3 a player who can play must play
# ---------------------------------------------------------------------------


def test_r4_3_a_confirm_by_a_player_who_can_play_is_a_false_declaration() -> None:
    hands = [*STUCK4[:3], "4-4 6-5"]
    s = position(BLOCK4, hands, line="0-6", turn=1)
    s = run(BLOCK4, s, Move.confirm(1), Move.confirm(2))
    before = s
    with pytest.raises(FalseDeclarationError, match=r"^R4\.5:") as e:
        run(BLOCK4, s, Move.confirm(3))
    assert e.value.rule == "R4.5" and e.value.move == Move.confirm(3)
    assert s == before  # nothing changed
    assert legal_moves(BLOCK4, s) == (play(BLOCK4, s, 3, "5-6", 6),)
    s = run(BLOCK4, s, play(BLOCK4, s, 3, "5-6", 6))  # the block was not real
    assert (s.confirmed, s.status) == (0, Status.PLAYING)


def test_r4_3_where_fouls_are_penalised_the_false_confirm_is_recorded_as_a_foul() -> None:
    hands = [*STUCK4[:3], "4-4 6-5"]
    s = position(FOULS, hands, line="0-6", turn=1)
    s = run(FOULS, s, Move.confirm(1), Move.confirm(2))
    assert set(legal_moves(FOULS, s)) == {play(FOULS, s, 3, "5-6", 6), Move.confirm(3)}
    s = run(FOULS, s, Move.confirm(3))
    assert s.fouls == 1 << 3
    assert (s.confirmed, s.turn, s.drew, s.proposer) == (0, 0, False, None)  # run broken
    assert 3 in [p for p in range(4) if s.fouls >> p & 1]


def test_r4_5_one_foul_per_player_a_second_false_confirm_is_rejected() -> None:
    hands = ["1-1", "2-2", "3-3", "4-4 6-5"]
    s = position(FOULS, hands, line="0-6", turn=3, fouls=[3])
    assert legal_moves(FOULS, s) == (play(FOULS, s, 3, "5-6", 6),)
    with pytest.raises(FalseDeclarationError, match="one foul per player"):
        run(FOULS, s, Move.confirm(3))


def test_r4_5_a_foul_is_only_possible_once_the_boneyard_is_empty() -> None:
    v = variant("fouls-4p-d6", {"draw.rule": "until-playable", "deal.set_aside": 0})
    s = position(v, ["1-1", "2-2", "3-3", "4-4 6-5"], line="0-6", turn=3, boneyard="0-0")
    assert legal_moves(v, s) == (play(v, s, 3, "5-6", 6),)
    with pytest.raises(FalseDeclarationError):
        run(v, s, Move.confirm(3))


def test_r4_5_the_foul_costs_its_author_the_penalty_at_scoring() -> None:
    hands = ["1-1", "2-2", "3-3", "4-4 6-5"]
    s = position(FOULS, hands, line="0-6", turn=3)
    s = run(FOULS, s, Move.confirm(3))  # a false declaration: P3 holds 5-6
    s = run(FOULS, s, Move.confirm(0), Move.confirm(1), Move.confirm(2))
    assert s.confirmed == 3 and s.turn == 3
    s = run(FOULS, s, play(FOULS, s, 3, "5-6", 6))
    for p in (0, 1, 2, 3):
        s = run(FOULS, s, Move.confirm(p))
    s = run(FOULS, s, Move.establish(0))
    res = outcome(FOULS, s)
    assert res is not None
    assert res.residuals == (2, 4, 6, 8)
    assert res.penalties == (0, 0, 0, FOULS.fouls.penalty) and FOULS.fouls.penalty == 10
    assert res.winners == (0,) and res.awards == (18, 0, 0, 0)
    assert res.scores == (18, 0, 0, -10)


# ---------------------------------------------------------------------------
# R4.4 establishment: the needed consecutive confirmations, boneyard empty
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("confirmations", "needed"), [
    ("all", 4), ("all-others", 3), (2, 2), (1, 1), (4, 4),
])
def test_r4_4_establishment_only_after_the_needed_confirmations(
    confirmations: str | int, needed: int,
) -> None:
    v = variant("block-4p-d6", {"block.confirmations": confirmations})
    assert v.needed_confirmations == needed
    s = position(v, STUCK4, line="0-6", turn=1)
    for k in range(needed):
        with pytest.raises(IllegalMoveError, match=r"^R4\.4:"):
            run(v, s, Move.establish(s.turn))
        s = run(v, s, Move.confirm((1 + k) % 4))
    assert legal_moves(v, s) == (Move.establish((1 + needed) % 4),)
    with pytest.raises(IllegalMoveError, match=r"^R4\.4:"):
        run(v, s, Move.confirm(s.turn))  # enough: only the establishment is left
    s = run(v, s, Move.establish(s.turn))
    assert s.status is Status.BLOCKED and s.proposer == 1


def test_r4_4_all_means_a_whole_round_from_the_proposer() -> None:
    v = find_variant("draw-8p-d12")
    assert v.needed_confirmations == v.players == 8


def test_r4_4_a_confirmation_counts_only_with_the_boneyard_empty() -> None:
    """Draw-one game: a pass over a non-empty boneyard never counts towards a block."""
    v = variant("draw-2p-d6", {"draw.rule": "one"})
    s = position(v, ["0-0 1-2", "3-4 2-2"], line="6-6", boneyard="1-1 3-3 5-5")
    s = run(v, s, Move.draw(0, "1-1"), Move.pass_(0))
    s = run(v, s, Move.draw(1, "3-3"), Move.pass_(1))
    assert s.confirmed == 0 and s.boneyard
    s = run(v, s, Move.draw(0, "5-5"))
    assert s.boneyard == 0
    s = run(v, s, Move.confirm(0), Move.confirm(1))
    assert legal_moves(v, s) == (Move.establish(0),)


def test_r4_4_a_variant_counting_passes_can_block_with_a_non_empty_boneyard() -> None:
    """``boneyard_must_be_empty = false`` departs from R4.4: passes over a non-empty
    boneyard count, and a block is established while the boneyard still supplies
    tiles. The tool must be able to show it (blocked-sound fails for such variants)."""
    v = variant("draw-2p-d6", {"draw.rule": "one", "block.boneyard_must_be_empty": False})
    s = position(v, ["0-0 1-2", "3-4 2-2"], line="6-6", boneyard="1-1 3-3 5-5")
    s = run(v, s, Move.draw(0, "1-1"), Move.pass_(0), Move.draw(1, "3-3"), Move.pass_(1))
    assert s.confirmed == 2 and s.boneyard
    s = run(v, s, Move.establish(0))
    assert s.status is Status.BLOCKED and s.boneyard
    assert not is_blocked(v, s)


@pytest.mark.parametrize("name", ["block-4p-d6", "fouls-4p-d6", "draw-4p-d9"])
def test_r4_4_every_random_block_follows_a_full_run_of_confirmations(name: str) -> None:
    v = find_variant(name)
    seen = 0
    for seed in range(15):
        t = random_round(v, seed)
        if t.final.status is not Status.BLOCKED:
            continue
        seen += 1
        kinds = [m.kind for m in t.moves]
        run_ = kinds[-1 - v.players:-1]
        assert kinds[-1] is MoveKind.ESTABLISH
        assert run_ == [MoveKind.CONFIRM] * v.players
        players = [m.player for m in t.moves[-1 - v.players:-1]]
        assert players == [(players[0] + k) % v.players for k in range(v.players)]
        states = t.states()
        assert all(s.boneyard == 0 for s in states[-2 - v.players:])
        # and no foul hides in the run: every confirmer really could not play
        assert states[-1].fouls == states[-2 - v.players].fouls
    assert seen


def test_r4_5_after_a_foul_the_next_player_has_not_drawn() -> None:
    """Draw-one with fouls: P0 draws the last tile, which fits, and falsely confirms.
    The turn passes, so ``drew`` ("the player to move has drawn this turn") is false
    for P1. SEMANTICS.md lists no ``drew'`` for the foul (UNCHANGED would keep it
    true); the engine resets it like every other move that passes the turn -- the doc
    is reported as inconsistent with its own definition of ``drew``."""
    v = variant("fouls-4p-d6", {"draw.rule": "one", "deal.players": 2,
                                "deal.set_aside": 0})
    s = position(v, ["0-0 1-2", "3-4"], line="6-6", boneyard="2-6")
    s = run(v, s, Move.draw(0, "2-6"))
    assert s.drew and s.boneyard == 0
    assert set(legal_moves(v, s)) == {play(v, s, 0, "2-6", 6), Move.confirm(0)}
    s = run(v, s, Move.confirm(0))
    assert (s.fouls, s.turn, s.confirmed, s.drew) == (1, 1, 0, False)


# ---------------------------------------------------------------------------
# R4.7 calling a block at a dead end ([block] call = "dead-end")
# ---------------------------------------------------------------------------

#: Double Draw as pagat gives it (docs/examples/house-rules/called-block.toml)
CALLED = load_variant(Path(__file__).resolve().parent.parent / "docs" / "examples"
                      / "house-rules" / "called-block.toml")
UNCALLED = CALLED.with_overrides({"block.call": "never"})
#: every tile of 3 on the table, both ends showing 3 (double-6: an even set)
DEAD3 = "3-0 0-1 1-3 3-2 2-4 4-3 3-3 3-5 5-6 6-3"


def test_r4_7_a_dead_end_may_be_called_with_stock_left() -> None:
    s = position(CALLED, ["1-1 2-2", "4-4 5-5"], line=DEAD3, boneyard="6-6 0-6")
    moves = legal_moves(CALLED, s)
    assert moves[0] == Move.establish(0)  # the call, first ...
    assert moves[1:] == legal_moves(UNCALLED, s)  # ... beside what the rules offer anyway
    called = run(CALLED, s, Move.establish(0))
    assert called.status is Status.BLOCKED and called.confirmed == 0
    assert called.boneyard and not is_blocked(CALLED, called)  # R1.1 does not hold
    assert outcome(CALLED, called) is not None  # the hands are scored at once


def test_r4_7_the_call_is_a_choice_and_play_goes_on() -> None:
    s = position(CALLED, ["1-1 2-2", "4-4 5-5"], line=DEAD3, boneyard="6-6 0-6")
    s = run(CALLED, s, Move.draw(0, "6-6"))  # nobody noticed: P0 draws instead
    assert s.status is Status.PLAYING and legal_moves(CALLED, s)[0] == Move.establish(0)


def test_r4_7_no_call_without_a_dead_end() -> None:
    s = position(CALLED, ["1-1 2-2", "4-4 5-5"], line="3-0 0-1 1-3", boneyard="6-6 3-6")
    assert Move.establish(0) not in legal_moves(CALLED, s)
    with pytest.raises(IllegalMoveError, match=r"no open end is dead \(R4\.7\)"):
        run(CALLED, s, Move.establish(0))
    dead = position(UNCALLED, ["1-1 2-2", "4-4 5-5"], line=DEAD3, boneyard="6-6 0-6")
    assert Move.establish(0) not in legal_moves(UNCALLED, dead)  # "never": R4.4 only


def test_r4_7_on_an_odd_set_the_other_end_may_still_take_a_tile() -> None:
    """double-3: every 3 on the table shows at one end only; the other end's number is
    still in a hand, so the called block leaves a legal play (blocked-sound fails)."""
    v = variant("tiny-2p-d3", {"block.call": "dead-end"})
    s = position(v, ["0-0 1-2", "2-2"], line="3-0 0-2 2-3 3-3 3-1", boneyard="0-1")
    assert s.open_ends == (1, 3)
    assert legal_moves(v, s)[0] == Move.establish(0) and play(v, s, 0, "1-2", 1) in \
        legal_moves(v, s)
    called = run(v, s, Move.establish(0))
    assert spec_for(v).dead_end(called) and spec_for(v).playable_mask(called, 0)


def test_r4_7_random_rounds_call_only_at_a_dead_end() -> None:
    rules, calls, with_stock = spec_for(CALLED), 0, 0
    for seed in range(40):
        t = random_round(CALLED, seed)
        for s, m in zip(t.states(), t.moves, strict=False):
            if m.kind is MoveKind.ESTABLISH and not rules.block_ready(s):
                calls += 1
                with_stock += s.boneyard != 0
                assert rules.dead_end(s)
                both = s.open_ends  # an even set: the dead number shows at both ends
                assert both[0] == both[1]
    assert calls and with_stock


def test_r4_7_the_narration_names_the_call() -> None:
    rules = spec_for(CALLED)
    t = next(t for t in map(lambda seed: random_round(CALLED, seed), range(40))
             if t.moves[-1].kind is MoveKind.ESTABLISH
             and not rules.block_ready(t.states()[-2]))
    step = narrate(t)[-1]
    assert step.rule == "R4.7" and "calls the block: every tile of" in step.text


def test_r4_7_a_game_says_the_call() -> None:
    """``dominoproof play``'s text of the move: a call, not R4.4's establishment."""
    rules = spec_for(CALLED)
    for seed in range(40):
        rnd = Round(CALLED, seeded_deal(CALLED, seed), seed=seed)
        while rnd.legal_moves():
            m = rnd.legal_moves()[0]
            if m.kind is MoveKind.ESTABLISH and not rules.block_ready(rnd.state):
                assert rnd.move_text(m) == f"P{m.player} calls the block at a dead end (R4.7)"
                return
            rnd.push(rnd.legal_moves()[-1])
    raise AssertionError("no call in 40 rounds")
