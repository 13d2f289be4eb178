"""R2.3's two readings on Mexican Train, found by search (docs/LAYOUTS.md, "The R2.3
finding").

Mexican Train on a small set (double-4, two players, four tiles each, draw one; the
preset's rules otherwise: trains with markers, doubles covered by their player or the
next). Under trains the readings of R2.3 differ: "no hand holds a tile matching an open
end" against "no player has a legal move". The search finds:

1. a reachable state where no player has a legal move while a hand holds a tile
   matching an open end, printed as a round that ``dominoproof replay`` accepts;
2. the answer to the designer's question -- does the R4 procedure (a full round of
   confirmations, each putting the confirmer's marker out) bring the readings back into
   agreement when the block is established? -- as the ``readings-agree`` verdict:

   * with markers alone (no double to cover) it HOLDS: every marker is out at the block,
     every train open to everyone, so the readings coincide (proved by exhaustive search
     on every deal of double-3, on each searched deal of double-4). The test fails on
     the ``marker-stays-in`` fault, where a confirmation leaves the marker in;
   * with the preset's doubles that must be covered it is VIOLATED: a double nobody can
     cover blocks the round while a hand holds a tile for another end (every marker out),
     and the search prints that round.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import reference_rules as ref
from click.testing import CliRunner
from helpers import run, tile_list, tiles, variant

from dominoproof.cli import main
from dominoproof.model import IllegalMoveError, Move, MoveKind, Status, Trace
from dominoproof.model.engine import initial_state, seeded_deal
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import CLOSED, layout_of
from dominoproof.model.moves import said
from dominoproof.model.spec import Init, legal_moves, spec_for
from dominoproof.model.state import Deal, State
from dominoproof.model.variant import ExtendReading, Variant
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.layout_judge import readings_gap
from dominoproof.proofs.search.rounds import replay
from dominoproof.proofs.search.verification import Verification, verify

#: Mexican Train's rules (model/presets: trains, draw one, "can be extended" read as a
#: legal move) on double-4, two players with four tiles, seven in the boneyard
MEXICAN = {"set.max": 4, "deal.hand_size": 4, "draw.rule": "one",
           "lead.rule": "highest-double", "layout.kind": "trains",
           "layout.extend": "has-legal-move"}
#: ... and its doubles, covered by their player (who plays again) or the next
COVERED = {**MEXICAN, "layout.double_takes": 1, "layout.double_again": True}
#: the same on every deal of double-3 (three tiles each, four in the boneyard, every
#: draw order): the exhaustive proof
MEXICAN_D3 = {**MEXICAN, "set.max": 3, "deal.hand_size": 3}
COVERED_D3 = {**COVERED, "set.max": 3, "deal.hand_size": 3}
#: deals of double-4 whose rounds reach a block, by the number of players (three
#: players take three tiles each, six left in the boneyard)
SEEDS = {2: (0, 2, 3, 5), 3: (0, 8)}


def mexican(overrides: dict[str, Any]) -> Variant:
    return variant("draw-2p-d6", overrides)


def searched(v: Variant, init: Init, fault: str | None = None) -> Verification:
    engine = FAULTS_BY_ID[fault].engine if fault else None
    ver = verify(v, init, properties=["readings-agree"], engine=engine)
    assert ver.figures.complete
    return ver


def matching(v: Variant, s: Any) -> dict[int, list[tuple[int, int]]]:
    """Per seat, the tiles matching some open end: the plain reference's reading."""
    r = ref.from_model(v, s)
    numbers = {e for e in r.ends if e is not None}
    return {p: [t for t in sorted(hand) if set(t) & numbers]
            for p, hand in enumerate(r.hands) if any(set(t) & numbers for t in hand)}


def replays_on_the_command_line(trace: Trace, path: Path) -> str:
    path.write_text(trace.dumps())
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output
    return r.output


# ---------------------------------------------------------------------------
# 1. The state where the readings differ
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["markers alone", "covered doubles"])
def test_a_reachable_state_where_nobody_can_play_yet_a_hand_matches(rules: str,
                                                                    tmp_path: Path) -> None:
    """The search reaches a state where no player has a legal move while a hand holds a
    tile matching an open end: the shortest such round, replayed by the engine and by
    ``dominoproof replay``. With markers alone, the tile matches another player's train
    whose marker is in; with covered doubles, also an end play may not go to while a
    double waits."""
    v = mexican(MEXICAN if rules == "markers alone" else COVERED)
    ver = searched(v, Init.one(seeded_deal(v, 0)))
    assert ver.result is not None
    i = readings_gap(ver.result)
    assert i is not None
    trace = ver.result.trace_to(i)
    s = trace.final
    assert Trace.loads(trace.dumps()).final.key() == s.key()  # the engine replays it
    text = replays_on_the_command_line(trace, tmp_path / "gap.json")
    assert "train P0" in text and "train P1" in text  # told train by train
    rules_ = engine_for(v)
    assert s.status is Status.PLAYING and s.led
    assert all(not rules_.has_play(s, p) for p in range(v.players))  # nobody can play
    held = matching(v, s)
    assert held  # ... yet a hand matches an open end
    assert rules_.ends_unplayable(s, ExtendReading.HAS_LEGAL_MOVE)
    assert not rules_.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)
    # it is a shortest round to such a state: none before it on the way
    assert all(not (x.led and rules_.ends_unplayable(x, ExtendReading.HAS_LEGAL_MOVE)
                    and not rules_.ends_unplayable(x, ExtendReading.HOLDS_MATCHING_TILE))
               for x in trace.states()[:-1])
    if rules == "markers alone":  # every matching end is a train closed to the holder
        lay, data = layout_of(v), v.slot_layout
        for p, tiles in held.items():
            for t in tiles:
                for k, x in enumerate(s.ends):
                    if x != CLOSED and x in t:
                        owner = data.slots[k].owner
                        assert owner is not None and owner != p
                        assert not lay.marker_out(s.marks, owner)


# ---------------------------------------------------------------------------
# 2. Does the R4 procedure bring the readings back into agreement?
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("fault", [None, "marker-stays-in"])
def test_with_markers_alone_r4_brings_the_readings_into_agreement(fault: str | None,
                                                                   players: int) -> None:
    """Markers alone: at every established block of every searched deal the readings
    agree (each confirmation put its confirmer's marker out, so every train is open to
    everyone). Under ``marker-stays-in`` the same search finds a block where they differ
    (the answer depends on that rule)."""
    v = mexican({**MEXICAN, "deal.players": players, "deal.hand_size": 4 if players == 2
                 else 3})
    verdicts = []
    for seed in SEEDS[players]:
        ver = searched(v, Init.one(seeded_deal(v, seed)), fault)
        res = ver.results[0]
        verdicts.append(res.verdict)
        assert ver.result is not None and any(  # blocks are reached: nothing vacuous
            x.status is Status.BLOCKED for x in ver.result.states())
        if res.verdict is Verdict.VIOLATED:
            assert fault is not None, (seed, res.detail)
            states = replay(res.trace, FAULTS_BY_ID[fault].engine_for(v))
            final = states[-1]
            assert final.status is Status.BLOCKED
            assert "yet no player has a legal move" in res.detail
            assert not all(layout_of(v).marker_out(final.marks, p) for p in range(v.players))
    if fault is None:
        assert set(verdicts) == {Verdict.HOLDS}
    else:
        assert Verdict.VIOLATED in verdicts


def test_with_covered_doubles_a_double_nobody_can_cover_blocks_apart(tmp_path: Path) -> None:
    """The preset's covered doubles: the search finds an established block where every
    marker is out, a double waits that nobody can cover (the boneyard is empty), and a
    hand holds a tile for another end. R4 does not close that gap: readings-agree is
    VIOLATED, with the round."""
    v = mexican(COVERED)
    res = searched(v, Init.one(seeded_deal(v, 0))).results[0]
    assert res.verdict is Verdict.VIOLATED, res.detail
    trace: Trace = res.trace
    text = replays_on_the_command_line(trace, tmp_path / "block.json")
    assert "must be covered first (R2.2)" in text and "block established" in text
    final = trace.final
    lay, r = layout_of(v), ref.from_model(v, trace.final)
    assert final.status is Status.BLOCKED and not final.boneyard
    assert r.marks == frozenset(range(v.players))  # every marker is out
    assert r.pending  # a double waits ...
    waiting = {r.ends[i] for i in r.pending}
    assert not any(set(t) & waiting for hand in r.hands for t in hand)  # ... uncoverable
    assert matching(v, final)  # ... while a hand matches another end
    assert lay.pending(final.marks)


@pytest.mark.slow
@pytest.mark.parametrize(("overrides", "verdict", "states"), [
    (MEXICAN_D3, Verdict.HOLDS, 576_320), (COVERED_D3, Verdict.VIOLATED, 768_888)])
def test_the_answer_on_every_deal_of_double_3(overrides: dict[str, Any], verdict: Verdict,
                                              states: int) -> None:
    """Every deal of double-3 in every draw order: with markers alone readings-agree is
    proved; with covered doubles it is VIOLATED. The state counts are pinned."""
    v = mexican(overrides)
    ver = searched(v, Init.every(free_draw=True))
    assert ver.results[0].verdict is verdict, ver.results[0].detail
    assert ver.figures.states == states


# ---------------------------------------------------------------------------
# R2.3's house rules of trains: what they do to the blocks
# ---------------------------------------------------------------------------

#: Mexican Train as the preset plays it, small: double-3, four tiles each, two in the
#: boneyard, covered doubles
PRESET_D3 = {**COVERED, "set.max": 3}


@pytest.mark.parametrize(("public", "verdict"), [
    ("always", Verdict.HOLDS), ("after-own", Verdict.VIOLATED)])
def test_a_public_train_after_ones_own_leaves_a_coverable_double_uncovered(
        tmp_path: Path, public: str, verdict: Verdict) -> None:
    """With the public train open only once one's own train is started, a double may wait
    on the public train while the only player holding a tile for it has an empty train:
    the block is established with the double coverable by a hand (uncoverable-double
    VIOLATED); with the public train open to all, it holds on the same deals."""
    v = mexican({**PRESET_D3, "layout.public_train": public})
    ver = verify(v, Init.every(), properties=["uncoverable-double"])
    res = ver.results[0]
    assert ver.figures.complete and res.verdict is verdict, res.detail
    if verdict is Verdict.HOLDS:
        return
    final = res.trace.final
    lay, r = layout_of(v), ref.from_model(v, final)
    public_slot = next(i for i, sl in enumerate(v.slot_layout.slots) if sl.owner is None)
    assert final.status is Status.BLOCKED and r.pending == frozenset({public_slot})
    number = final.ends[public_slot]
    holders = [p for p, hand in enumerate(r.hands) if any(number in t for t in hand)]
    assert holders and all(not lay.covered(final.marks, p) for p in holders)  # not started
    text = replays_on_the_command_line(res.trace, tmp_path / "public.json")
    assert "open to players whose own train is started" in text


def test_every_train_open_to_a_marker_out_lets_more_hands_play() -> None:
    """With every train open to a player whose own marker is out, a searched state offers
    a play the preset's rules do not: on a train whose owner's marker is in."""
    small = {"set.max": 3, "deal.players": 3, "deal.hand_size": 2, "layout.kind": "trains",
             "lead.rule": "highest-double"}  # the block game: every deal, three seats
    base = variant("block-2p-d6", small)
    v = variant("block-2p-d6", {**small, "layout.open_trains": "own-marker-out"})
    ver = verify(v, Init.every(), properties=["train-access", "markers"])
    assert [r.verdict for r in ver.results] == [Verdict.HOLDS, Verdict.HOLDS]
    assert ver.result is not None
    lay, lb = layout_of(v), layout_of(base)
    wider = [s for s in ver.result.states() if s.table
             and set(lay.targets(s.ends, s.turn, s.marks)) > set(lb.targets(s.ends, s.turn,
                                                                              s.marks))]
    assert wider
    s = wider[0]
    extra = set(lay.targets(s.ends, s.turn, s.marks)) - set(lb.targets(s.ends, s.turn,
                                                                       s.marks))
    for i in extra:
        owner = v.slot_layout.slots[i].owner
        assert owner is not None and owner != s.turn
        assert lay.marker_out(s.marks, s.turn) and not lay.marker_out(s.marks, owner)


# ---------------------------------------------------------------------------
# R2.3's first turns: tile after tile on one's own train (first_turn = "own-train")
# ---------------------------------------------------------------------------

#: double-3 trains, two players with four tiles each, two in the boneyard, the highest
#: double leading; a first turn lays tile after tile on one's own train
FIRST = {"layout.kind": "trains", "lead.rule": "highest-double", "deal.hand_size": 4,
         "layout.first_turn": "own-train"}
TRAIN_P0, TRAIN_P1, PUBLIC = 0, 1, 2


def first_turn_round(overrides: dict[str, Any], hands: tuple[str, str],
                     stack: str) -> tuple[Variant, State]:
    """The initial state of the deal ``hands`` (P0, P1) and ``stack`` (top first)."""
    v = variant("tiny-2p-d3", {**FIRST, **overrides})
    deal = Deal(tuple(tiles(h) for h in hands), tuple(tile_list(stack)), 0)
    return v, initial_state(v, deal)


def test_r2_3_a_first_turn_lays_on_ones_own_train_until_the_player_ends_it() -> None:
    v, s = first_turn_round({}, ("3-3 0-0 2-2 1-1", "1-3 0-1 0-3 0-2"), "2-3 1-2")
    lay = layout_of(v)
    s = run(v, s, Move.play(0, "3-3"), Move.play(1, "1-3", TRAIN_P1))
    assert s.turn == 1 and lay.first_turn(s.marks)  # the turn stays with P1
    # own train only: [0|3] fits the public train, but not now; no draw either
    assert legal_moves(v, s) == (Move.play(1, "0-1", TRAIN_P1), Move.pass_(1))
    with pytest.raises(IllegalMoveError, match=r"^R2\.3: P1's first turn goes on"):
        run(v, s, Move.play(1, "0-3", PUBLIC))
    with pytest.raises(IllegalMoveError, match=r"^R2\.3"):
        run(v, s, Move.draw(1, "2-3"))
    s = run(v, s, Move.play(1, "0-1", TRAIN_P1))
    assert set(legal_moves(v, s)) == {Move.play(1, "0-3", TRAIN_P1),
                                      Move.play(1, "0-2", TRAIN_P1), Move.pass_(1)}
    ended = run(v, s, Move.pass_(1))  # End turn: no marker out, no confirmation
    assert ended.turn == 0 and not lay.first_turn(ended.marks)
    assert ended.confirmed == 0 and not lay.marker_out(ended.marks, 1)
    assert spec_for(v).action_of(s, Move.pass_(1)).name == "End turn"
    assert said(lay, s, Move.pass_(1)) == "P1 ends their first turn"


def test_r2_3_the_first_turn_is_the_one_that_starts_ones_train_and_only_that() -> None:
    """P0 cannot start their train on their first turn (they lead the hub): they draw,
    start it on a later turn, and that turn goes on; P1's later plays on their own,
    started train pass the turn as any play does."""
    v, s = first_turn_round({}, ("3-3 0-0 2-2 1-1", "1-3 0-1 0-3 0-2"), "2-3 1-2")
    lay = layout_of(v)
    s = run(v, s, Move.play(0, "3-3"), Move.play(1, "1-3", TRAIN_P1),
            Move.play(1, "0-1", TRAIN_P1), Move.pass_(1))
    assert legal_moves(v, s) == (Move.draw(0, "2-3"),)  # stuck: draw until playable
    s = run(v, s, Move.draw(0, "2-3"), Move.play(0, "2-3", TRAIN_P0))
    assert s.turn == 0 and lay.first_turn(s.marks)  # P0's train started: their first turn
    s = run(v, s, Move.play(0, "2-2", TRAIN_P0))
    assert legal_moves(v, s) == (Move.pass_(0),)  # nothing more fits: end the turn
    s = run(v, s, Move.pass_(0), Move.play(1, "0-2", TRAIN_P1))
    assert s.turn == 0 and not lay.first_turn(s.marks)  # a later turn: one tile


@pytest.mark.parametrize("again", [True, False])
def test_r2_3_a_double_left_waiting_ends_a_first_turn(again: bool) -> None:
    """With doubles to cover: a double laid on one's own train in a first turn waits for
    a tile there, and ends the first turn; the double's own rule (R2.2) decides what
    follows: where its player plays again, they must cover it (no End turn: a player who
    can play must), and the turn then passes; else the next player must cover it."""
    covered = {"layout.double_takes": 1, "layout.double_again": again}
    v, s = first_turn_round(covered, ("3-3 0-0 2-2 0-2", "1-3 1-1 1-2 0-3"), "0-1 2-3")
    lay = layout_of(v)
    s = run(v, s, Move.play(0, "3-3"), Move.play(1, "1-3", TRAIN_P1),
            Move.play(1, "1-1", TRAIN_P1))
    assert not lay.first_turn(s.marks) and lay.pending(s.marks) == 1 << TRAIN_P1
    if not again:  # P0 must cover a double on a train closed to them: they draw
        assert s.turn == 0 and [m.kind for m in legal_moves(v, s)] == [MoveKind.DRAW]
        return
    assert s.turn == 1 and legal_moves(v, s) == (Move.play(1, "1-2", TRAIN_P1),)
    s = run(v, s, Move.play(1, "1-2", TRAIN_P1))
    assert s.turn == 0 and not lay.first_turn(s.marks) and not lay.pending(s.marks)


def test_r2_3_first_turns_keep_every_property_and_the_fault_breaks_train_access() -> None:
    """Every deal of double-3 trains (three tiles each): the first-turn rule keeps markers
    and train-access (HOLDS); every-turn-first, which lets every turn on one's own train
    go on, is VIOLATED with a round the fault's engine replays."""
    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
                                "lead.rule": "highest-double",
                                "layout.first_turn": "own-train"})
    ver = verify(v, Init.every(), properties=["train-access", "markers", "termination"])
    assert [r.verdict for r in ver.results] == [Verdict.HOLDS] * 3
    fault = FAULTS_BY_ID["every-turn-first"]
    bad = verify(v, Init.every(), properties=["train-access"], engine=fault.engine)
    res = bad.results[0]
    assert res.verdict is Verdict.VIOLATED and "first turn" in res.detail
    assert replay(res.trace, fault.engine_for(v))[-1] == res.trace.final


def test_r2_3_one_tile_a_first_turn_is_every_presets_rule() -> None:
    """The default changes nothing: no preset lays several tiles on a first turn, and no
    layout but trains has the mark of one."""
    from dominoproof.model.variant import presets

    for name, v in presets().items():
        assert v.layout.first_turn.value == "one", name
        assert layout_of(v).fields.first == -1, name
    line = variant("tiny-2p-d3", {"layout.first_turn": "own-train"})
    assert not line.slot_layout.first_turn and layout_of(line).fields.first == -1
