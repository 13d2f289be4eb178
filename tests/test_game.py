"""The game interface (``dominoproof.api.new_round``, :class:`dominoproof.game.Round`)
held to the engine: a random play-out through it is the engine's own play-out for the
same seed (same deal, states, moves and outcome), an illegal move raises the error
naming its rule and changes nothing, the end and the returns are R5's
(:mod:`dominoproof.model.outcome`), and the trace replays as ``dominoproof replay``
replays it. A move's text names its slot and the number its end shows."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominoproof import api
from dominoproof.game import Round
from dominoproof.model.engine import random_round, shuffled_deal
from dominoproof.model.errors import DominoproofError, FalseDeclarationError, IllegalMoveError
from dominoproof.model.layout import layout_of
from dominoproof.model.moves import Move, MoveKind, said
from dominoproof.model.outcome import outcome, side_of
from dominoproof.model.spec import spec_for
from dominoproof.model.state import Status
from dominoproof.model.variant import find_variant

#: a layout of each kind, fouls, teams, drawing: the presets the play-outs are drawn over
PRESETS = ["tiny-2p-d3", "draw-2p-d6", "fouls-4p-d6", "partnership-4p-d6",
           "sebastopol-4p-d6", "chickenfoot-4p-d9", "mextrain-4p-d12"]


def played_out(name: str, seed: int) -> Round:
    """A round played through the interface with uniformly random legal moves, drawn
    from one seeded stream after the deal, as the engine's ``random_round`` draws."""
    v = find_variant(name)
    rng = random.Random(seed)
    r = Round(v, shuffled_deal(v, rng), seed=seed)
    while not r.is_over():
        moves = r.legal_moves()
        assert r.turn == r.state.turn
        k = len(moves)
        r.push(moves[0] if k == 1 else moves[int(rng.random() * k)])
    return r


@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1))
def test_a_random_playout_through_the_round_is_the_engines(name: str, seed: int) -> None:
    r = played_out(name, seed)
    engine = random_round(r.variant, seed)
    assert r.deal == engine.deal == api.new_round(name, seed).deal
    assert r.moves == engine.moves
    assert list(r.states) == engine.states()
    assert r.trace() == engine
    assert r.outcome == engine.outcome == outcome(r.variant, r.state)
    assert r.is_over() and r.turn is None and r.legal_moves() == ()
    res = r.outcome
    assert res is not None and r.ending is res.termination
    assert r.ending.value == r.state.status.name.lower()
    assert r.returns() == tuple(res.scores[side_of(res.sides, p)]
                                for p in range(r.variant.players))


@given(name=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1))
def test_every_state_offers_the_specifications_moves_and_takes_them_back(
        name: str, seed: int) -> None:
    r = played_out(name, seed)
    spec = spec_for(r.variant)
    back = r.copy()
    for s, m in zip(r.states[-2::-1], r.moves[::-1], strict=True):
        assert back.pop() == m
        assert back.state == s
        assert back.legal_moves() == spec.legal_moves(s)
        assert not back.is_over() and back.returns() == (0,) * r.variant.players
        assert back.outcome is None and back.ending is None
    assert back.moves == () and back.state == r.states[0]
    assert len(r.moves) == len(r.states) - 1  # the copy's pops left the original alone
    with pytest.raises(DominoproofError, match="no move to take back"):
        back.pop()


def test_an_illegal_move_raises_naming_its_rule_and_changes_nothing() -> None:
    r = api.new_round("tiny-2p-d3", seed=41)
    before = (r.state, r.moves)
    p = r.turn
    assert p is not None
    with pytest.raises(IllegalMoveError) as e:
        r.push(Move.confirm(1 - p))
    assert e.value.rule == "Terms" and "turn" in str(e.value)
    with pytest.raises(IllegalMoveError) as e:
        r.push(Move.draw(p, 0))
    assert e.value.rule == "Terms"  # the round opens with the lead
    assert (r.state, r.moves) == before
    assert not r.is_legal(Move.confirm(1 - p))
    r.push(r.legal_moves()[0])
    mover = r.turn
    assert mover is not None
    if r.rules.has_play(r.state, mover):
        with pytest.raises(FalseDeclarationError) as f:
            r.push(Move.confirm(mover))
        assert f.value.rule == "R4.5"
    # a tuple equal to a legal move is not a move
    m = r.legal_moves()[0]
    with pytest.raises(IllegalMoveError):
        r.push(tuple(m))  # type: ignore[arg-type]
    assert not r.is_legal(tuple(m))  # type: ignore[arg-type]
    int_kind = Move(int(m.kind), m.player, m.tile, m.end)  # type: ignore[arg-type]
    assert int_kind == m and not r.is_legal(int_kind)
    with pytest.raises(IllegalMoveError):
        r.push(int_kind)


def test_a_round_over_refuses_every_move() -> None:
    r = played_out("draw-2p-d6", 7)
    with pytest.raises(IllegalMoveError) as e:
        r.push(Move.confirm(0))
    assert e.value.rule == "R5.1"


def test_a_given_deal_is_checked_as_the_api_checks_it() -> None:
    v = find_variant("block-2p-d6")
    d = api.play(v, seed=4).deal
    r = api.new_round("block-2p-d6", deal=d.to_json())
    assert r.deal == d and r.seed is None and r.state == api.play(v, seed=4).states()[0]
    with pytest.raises(DominoproofError, match="deal"):
        api.new_round("block-2p-d6", deal={"hands": [["0-0"]], "stack": []})
    with pytest.raises(DominoproofError, match="seed"):
        api.new_round("block-2p-d6", seed="3")  # type: ignore[arg-type]
    with pytest.raises(DominoproofError):
        api.new_round("no-such-variant")
    r = api.new_round("block-2p-d6", 2, overrides={"deal.players": 3})
    assert r.variant.players == 3 and len(r.returns()) == 3


def test_the_trace_replays_as_dominoproof_replay_replays_it(tmp_path: Path) -> None:
    r = played_out("mextrain-4p-d12", 11)
    f = tmp_path / "round.json"
    f.write_text(r.trace().dumps())
    back = api.replay(f)
    assert back == r.trace() and back.states() == list(r.states)
    data = json.loads(f.read_text())
    assert data["final"]["outcome"] == (r.outcome.to_json() if r.outcome else None)
    half = r.copy()
    for _ in range(len(r.moves) // 2):
        half.pop()
    assert api.replay(json.loads(half.trace().dumps())).moves == half.moves


def test_a_moves_text_names_its_slot_and_the_number_it_shows() -> None:
    r = played_out("mextrain-4p-d12", 3)
    layout = layout_of(r.variant)
    names = {sl.name for sl in r.variant.slot_layout.slots}
    plays = [(s, m) for s, m in zip(r.states, r.moves, strict=False)
             if m.kind is MoveKind.PLAY and m.end >= 0]
    assert plays
    for s, m in plays:
        text = said(layout, s, m)
        name = r.variant.slot_layout.slots[m.end].name
        assert text.endswith(f" on {name} (showing {s.ends[m.end]})"), text
        assert name in names and "slot" not in text
    s, m = plays[0]
    trace_r = Round(r.variant, r.deal)
    for x in r.moves[:r.moves.index(m)]:
        trace_r.push(x)
    assert trace_r.move_text(m) == said(layout, s, m)
    # the one line: the number names the end
    t = played_out("tiny-2p-d3", 5)
    line = layout_of(t.variant)
    for s, m in zip(t.states, t.moves, strict=False):
        if m.kind is MoveKind.PLAY and m.end >= 0:
            assert said(line, s, m).endswith(f" on {s.ends[m.end]}")
    # a move alone knows its slot's index only, and says so
    assert str(Move.play(0, "2-3", 3)) == "P0 plays [2|3] on slot index 3"


def test_an_illegal_play_names_the_slots_not_their_indices() -> None:
    r = played_out("mextrain-4p-d12", 3)
    while r.moves and not (r.state.status is Status.PLAYING and r.state.led
                           and any(m.kind is MoveKind.PLAY for m in r.legal_moves())):
        r.pop()
    p = r.turn
    assert p is not None
    open_slots = set(r.layout.targets(r.state.ends, p, r.state.marks))
    shut = next(i for i in range(r.layout.width) if i not in open_slots)
    tile = next(t for t in range(r.variant.tiles.count) if r.state.hands[p] >> t & 1)
    with pytest.raises(IllegalMoveError) as e:
        r.push(Move.play(p, tile, shut))
    assert e.value.rule == "R2.1"
    assert f"at {r.variant.slot_layout.slots[shut].name} for P{p}" in str(e.value)
    assert "(slot " not in str(e.value)
