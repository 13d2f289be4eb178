"""The engine: seeded deals, random rounds, traces that replay exactly, typed errors.

The engine is a loop over the rules (STYLE 2); these tests hold it to what a user
relies on: determinism, exact replay, tamper detection, and that every state of
every random round is well-formed (``state_status == OK``).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from helpers import dealt, play, position, tiles, variant

from dominoproof.model import (
    Deal,
    IllegalMoveError,
    Move,
    MoveKind,
    StateFlaw,
    Status,
    Tile,
    Trace,
    TraceError,
    Variant,
    apply,
    engine_for,
    find_variant,
    initial_state,
    legal_moves,
    presets,
    random_round,
    random_rounds,
    shuffled_deal,
    state_status,
)
from dominoproof.model.layout import CLOSED, layout_of
from dominoproof.model.moves import LEAD, move_json, read_move, resolve
from dominoproof.model.spec import VoidDeal

PRESETS = sorted(presets())


# ---------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["draw-2p-d6", "block-4p-d6", "draw-8p-d12"])
def test_same_seed_same_trace(name: str) -> None:
    v = find_variant(name)
    a, b = random_round(v, 7), random_round(v, 7)
    assert a == b
    assert a.dumps() == b.dumps()
    assert a.final == b.final


@pytest.mark.parametrize("name", ["draw-2p-d6", "block-4p-d6"])
def test_different_seeds_differ(name: str) -> None:
    v = find_variant(name)
    traces = [random_round(v, seed) for seed in range(6)]
    assert len({t.deal for t in traces}) == 6
    assert len({t.moves for t in traces}) == 6


def test_random_rounds_is_one_seeded_stream() -> None:
    v = find_variant("draw-2p-d6")
    first = list(random_rounds(v, 5, seed=3))
    assert first == list(random_rounds(v, 5, seed=3))
    assert first != list(random_rounds(v, 5, seed=4))
    for s, n in first:
        assert s.is_terminal and n > 0


# ---------------------------------------------------------------------------
# Traces: JSON round trip and tampering
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["draw-2p-d6", "fouls-4p-d6", "draw-leave2-2p-d6",
                                  "partnership-4p-d6", "draw-8p-d12"])
def test_trace_json_round_trip_replays_exactly(name: str) -> None:
    v = find_variant(name)
    for seed in range(3):
        t = random_round(v, seed)
        back = Trace.loads(t.dumps())
        assert back == t
        assert back.states() == t.states()
        assert back.outcome == t.outcome
        assert back.dumps() == t.dumps()


def test_free_draw_trace_round_trips() -> None:
    v = find_variant("draw-2p-d6")
    s = dealt(v, 5, free_draw=True)
    deal = shuffled_deal(v, random.Random(5))
    rng = random.Random(1)
    moves = []
    while not s.is_terminal:
        m = rng.choice(legal_moves(v, s))
        moves.append(m)
        s = apply(v, s, m)
    t = Trace(v, deal, tuple(moves), free_draw=True)
    assert t.final == s
    assert Trace.loads(t.dumps()) == t


def _tampered(t: Trace, change: Any) -> str:
    data = json.loads(t.dumps())
    change(data)
    return json.dumps(data)


def _first(t: Trace, kind: MoveKind) -> int:
    return next(i for i, m in enumerate(t.moves) if m.kind is kind)


def test_tampered_move_is_a_trace_error() -> None:
    t = random_round(find_variant("draw-2p-d6"), 11)
    i = _first(t, MoveKind.PLAY)

    def swap_player(d: dict[str, Any]) -> None:
        d["moves"][i]["player"] = 1 - d["moves"][i]["player"]

    with pytest.raises(TraceError, match=f"move {i + 1}"):
        Trace.loads(_tampered(t, swap_player))


def test_tampered_move_is_a_trace_error_even_without_a_recorded_final() -> None:
    t = random_round(find_variant("draw-2p-d6"), 11)
    i = _first(t, MoveKind.PLAY)

    def swap_and_drop_final(d: dict[str, Any]) -> None:
        d["moves"][i]["player"] = 1 - d["moves"][i]["player"]
        del d["final"]

    with pytest.raises(TraceError, match=f"move {i + 1}"):
        Trace.loads(_tampered(t, swap_and_drop_final))


def test_dropped_last_move_is_a_trace_error() -> None:
    t = random_round(find_variant("block-2p-d6"), 2)
    with pytest.raises(TraceError, match="final"):
        Trace.loads(_tampered(t, lambda d: d["moves"].pop()))


@pytest.mark.parametrize("field", ["status", "ends", "outcome"])
def test_tampered_final_is_a_trace_error(field: str) -> None:
    t = random_round(find_variant("draw-2p-d6"), 4)

    def change(d: dict[str, Any]) -> None:
        final = d["final"]
        if field == "status":
            final["status"] = "domino" if final["status"] == "blocked" else "blocked"
        elif field == "ends":
            final["ends"] = [e + 1 for e in final["ends"]]
        else:
            final["outcome"]["awards"] = [a + 1 for a in final["outcome"]["awards"]]

    with pytest.raises(TraceError, match="recorded final state"):
        Trace.loads(_tampered(t, change))


def test_tampered_deal_that_is_not_a_deal_is_a_trace_error() -> None:
    t = random_round(find_variant("draw-2p-d6"), 4)
    moved = t.deal.to_json()["stack"][-1]

    def duplicate(d: dict[str, Any]) -> None:  # a boneyard tile also in P0's hand
        d["deal"]["hands"][0].append(moved)

    def lose(d: dict[str, Any]) -> None:  # a boneyard tile vanishes
        d["deal"]["stack"].pop()

    def foreign(d: dict[str, Any]) -> None:  # a tile outside the double-6 set
        d["deal"]["stack"][-1] = "7-7"

    for change in (duplicate, lose, foreign):
        with pytest.raises(TraceError, match="deal"):
            Trace.loads(_tampered(t, change))


@pytest.mark.parametrize("text", ["", "[]", '{"format": "other"}', "{not json"])
def test_not_a_trace_is_a_trace_error(text: str) -> None:
    with pytest.raises(TraceError):
        Trace.loads(text)


def test_malformed_trace_is_a_trace_error() -> None:
    """Each malformed field is named, with its value and what is allowed."""
    t = random_round(find_variant("draw-2p-d6"), 4)
    for change, message in (
            (lambda d: d["moves"][0].update(kind="jump"),
             r'moves\[0\]\.kind = "jump": not a move kind \(allowed: play, draw'),
            (lambda d: d["moves"][0].update(tile="x"), r'moves\[0\]\.tile = "x": not a tile'),
            (lambda d: d.pop("deal"), "deal: missing")):
        with pytest.raises(TraceError, match=message):
            Trace.loads(_tampered(t, change))


# ---------------------------------------------------------------------------
# Illegal moves: a typed error, and the state is unchanged
# ---------------------------------------------------------------------------


def test_illegal_moves_raise_and_leave_the_state_unchanged() -> None:
    v = find_variant("draw-2p-d6")
    s = dealt(v, 1)
    before = s
    legal = set(legal_moves(v, s))
    p = s.turn
    tries = [Move.play(1 - p, t) for t in range(v.tiles.count)]
    tries += [Move.play(p, t) for t in range(v.tiles.count) if Move.play(p, t) not in legal]
    tries += [Move.draw(p, t) for t in range(v.tiles.count)]
    tries += [Move.pass_(p), Move.confirm(p), Move.establish(p), Move.domino(p)]
    assert tries
    for m in tries:
        with pytest.raises(IllegalMoveError):
            apply(v, s, m)
        assert s == before
    assert set(legal_moves(v, s)) == legal
    apply(v, s, next(iter(legal)))  # the rules still answer after the errors


@pytest.mark.parametrize("bad", [
    Move(0, 0, 0, 0),  # type: ignore[arg-type]  # a plain int where a MoveKind belongs
    (MoveKind.PLAY, 1, 27, LEAD),
    "P1 plays 6-6",
    None,
])
def test_a_value_that_is_not_a_move_is_an_illegal_move_error(bad: Any) -> None:
    v = find_variant("draw-2p-d6")
    s = position(v, ["0-0 1-2", "6-6 5-5"], boneyard="3-4", turn=1)
    assert Move.play(1, "6-6") in legal_moves(v, s)
    with pytest.raises(IllegalMoveError, match="not a move"):
        apply(v, s, bad)


def test_an_int_kind_move_is_not_taken_for_a_domino() -> None:
    v = find_variant("draw-2p-d6")
    s = position(v, ["0-0 1-2", "6-6 5-5"], boneyard="3-4", turn=1)
    fake = Move(0, 1, 27, LEAD)  # type: ignore[arg-type]  # equal to Move.play(1, "6-6")
    assert fake == Move.play(1, "6-6")
    with pytest.raises(IllegalMoveError):
        apply(v, s, fake)
    assert apply(v, s, Move.play(1, "6-6")).status is Status.PLAYING


# ---------------------------------------------------------------------------
# Random rounds of every preset: well-formed states, moves exactly until the end
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_random_rounds_terminate_with_every_state_well_formed(name: str) -> None:
    v = find_variant(name)
    rules = engine_for(v)
    seeds = range(3) if v.tiles.count > 100 else range(6)
    for seed in seeds:
        t = random_round(v, seed)
        states = t.states()  # replays with apply's checks
        assert len(states) == len(t.moves) + 1
        for s in states:
            assert state_status(v, s) is StateFlaw.OK, s.describe()
            assert s.set_aside == t.deal.set_aside  # R3.1 set-aside tiles stay out
            assert (rules.legal_moves(s) == ()) == s.is_terminal
        assert states[-1].is_terminal
        assert all(not s.is_terminal for s in states[:-1])
        assert t.outcome is not None


def test_legal_moves_are_empty_exactly_at_terminal_states() -> None:
    v = find_variant("block-2p-d6")
    for seed in range(20):
        t = random_round(v, seed)
        for s in t.states():
            moves = legal_moves(v, s)
            assert (not moves) == s.is_terminal
            assert len(set(moves)) == len(moves)  # no move is offered twice


# ---------------------------------------------------------------------------
# Init: the deal (SEMANTICS.md, Init)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("order", "p0", "p1"), [
    ("blocks", [0, 1, 2], [3, 4, 5]),
    ("round-robin", [0, 2, 4], [1, 3, 5]),
])
def test_init_deal_order(order: str, p0: list[int], p1: list[int]) -> None:
    v = variant("draw-2p-d6", {"deal.hand_size": 3, "deal.set_aside": 2,
                               "deal.order": order})
    deal = Deal.from_order(v, list(range(v.tiles.count)))
    assert deal.hands == (sum(1 << i for i in p0), sum(1 << i for i in p1))
    assert deal.stack == tuple(range(6, 26))  # the first T - P*H - K, top first
    assert deal.set_aside == (1 << 26) | (1 << 27)  # the last K


def test_init_state_after_a_deal() -> None:
    v = find_variant("draw-2p-d6")
    deal = shuffled_deal(v, random.Random(0))
    s = initial_state(v, deal)
    assert (s.table, s.ends, s.confirmed, s.drew, s.fouls, s.status, s.marks) == (
        0, (CLOSED, CLOSED), 0, False, 0, Status.PLAYING, 0)
    assert s.stack == deal.stack
    assert initial_state(v, deal, free_draw=True).stack is None
    assert state_status(v, s) is StateFlaw.OK
    assert [m.end for m in legal_moves(v, s)] == [LEAD]  # the lead: highest double


def test_shuffled_deal_is_a_permutation() -> None:
    v = find_variant("draw-leave2-2p-d6")
    for seed in range(10):
        d = shuffled_deal(v, random.Random(seed))
        masks = [*d.hands, d.set_aside, *(1 << t for t in d.stack)]
        assert sum(m.bit_count() for m in masks) == v.tiles.count
        union = 0
        for m in masks:
            union |= m
        assert union == v.tiles.full
        assert [h.bit_count() for h in d.hands] == [7, 7]
        assert d.set_aside.bit_count() == 2 and len(d.stack) == 12


def test_a_void_deal_in_a_trace_is_a_trace_error() -> None:
    v = variant("draw-2p-d6", {"deal.hand_size": 3, "lead.rule": "tile", "lead.tile": "0-0",
                               "lead.fallback": "redeal"})
    order = list(range(v.tiles.count))
    order.append(order.pop(0))  # 0-0 at the bottom of the boneyard: nobody holds it
    deal = Deal.from_order(v, order)
    text = json.dumps({"format": "dominoproof-trace/1", "variant": v.to_dict(),
                       "deal": deal.to_json(), "moves": []})
    with pytest.raises(TraceError, match="void"):
        Trace.loads(text)


# ---------------------------------------------------------------------------
# Init: the lead rule and its fallbacks (SEMANTICS.md, Init)
# ---------------------------------------------------------------------------


def _deal(v: Variant, *hands: str) -> Deal:
    """A deal of ``hands``; the rest of the set is the boneyard in index order."""
    masks = tuple(tiles(h) for h in hands)
    used = 0
    for m in masks:
        used |= m
    return Deal(masks, tuple(t for t in range(v.tiles.count) if not used >> t & 1), 0)


def _lead(v: Variant, deal: Deal) -> tuple[int, set[str]]:
    s = initial_state(v, deal)
    assert state_status(v, s) is StateFlaw.OK
    moves = legal_moves(v, s)
    assert all(m.kind is MoveKind.PLAY and m.end == LEAD and m.player == s.turn
               for m in moves)
    return s.turn, {str(Tile.from_index(m.tile)) for m in moves}


D3 = {"set.max": 3, "deal.hand_size": 2}


def test_lead_rule_player_any_tile() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "player", "lead.player": 1})
    assert _lead(v, _deal(v, "3-3 0-1", "1-2 0-3")) == (1, {"1-2", "0-3"})


def test_lead_rule_tile_its_holder_with_it() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "tile", "lead.tile": "1-2"})
    assert _lead(v, _deal(v, "3-3 0-1", "1-2 0-3")) == (1, {"1-2"})


def test_lead_rule_highest_double_held() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "highest-double"})
    assert _lead(v, _deal(v, "0-0 0-1", "2-2 0-3")) == (1, {"2-2"})
    assert _lead(v, _deal(v, "3-3 0-1", "2-2 0-3")) == (0, {"3-3"})


@pytest.mark.parametrize(("fallback", "hands", "expected"), [
    # nobody holds 1-2: the highest double held, else the heaviest tile
    ("highest-double", ("0-0 2-3", "1-1 0-3"), (1, {"1-1"})),
    ("highest-double", ("0-1 2-3", "1-3 0-3"), (0, {"2-3"})),
    # the heaviest tile: highest value
    ("heaviest-tile", ("0-0 2-3", "3-3 0-3"), (1, {"3-3"})),
    ("heaviest-tile", ("0-0 0-3", "1-3 0-1"), (1, {"1-3"})),
    ("player", ("0-0 2-3", "3-3 0-3"), (1, {"3-3", "0-3"})),
])
def test_lead_fallback_when_nobody_holds_the_tile(
    fallback: str, hands: tuple[str, str], expected: tuple[int, set[str]],
) -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "tile", "lead.tile": "1-2",
                               "lead.fallback": fallback, "lead.player": 1})
    assert _lead(v, _deal(v, *hands)) == expected


@pytest.mark.parametrize(("fallback", "expected"), [
    ("heaviest-tile", (0, {"2-3"})), ("player", (1, {"0-1", "1-3"})),
])
def test_lead_fallback_when_nobody_holds_a_double(
    fallback: str, expected: tuple[int, set[str]],
) -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "highest-double",
                               "lead.fallback": fallback, "lead.player": 1})
    assert _lead(v, _deal(v, "0-2 2-3", "0-1 1-3")) == expected


def test_lead_heaviest_tile_equal_values_highest_index() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "tile", "lead.tile": "3-3",
                               "lead.fallback": "heaviest-tile"})
    # 0-3 and 1-2 both count 3; 0-3 has the higher index (6 against 4)
    assert _lead(v, _deal(v, "0-0 1-2", "0-3 0-1")) == (1, {"0-3"})
    assert _lead(v, _deal(v, "0-0 0-3", "1-2 0-1")) == (0, {"0-3"})


def test_lead_heaviest_tile_uses_special_values() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "tile", "lead.tile": "1-2",
                               "lead.fallback": "heaviest-tile",
                               "scoring.tile_values": {"0-1": 40}})
    assert _lead(v, _deal(v, "0-0 2-3", "0-1 0-3")) == (1, {"0-1"})


def test_lead_fallback_redeal_deals_again() -> None:
    v = variant("draw-2p-d6", {**D3, "lead.rule": "tile", "lead.tile": "0-0",
                               "lead.fallback": "redeal"})
    void = _deal(v, "1-1 2-3", "1-3 0-3")
    with pytest.raises(VoidDeal):
        initial_state(v, void)
    # shuffled deals skip void ones: 0-0 is always in a hand, and its holder leads
    redealt = 0
    for seed in range(30):
        rng = random.Random(seed)
        first = Deal.from_order(v, sorted(range(v.tiles.count),
                                          key=[rng.random() for _ in range(v.tiles.count)]
                                          .__getitem__))
        deal = shuffled_deal(v, random.Random(seed))
        redealt += deal != first
        s = initial_state(v, deal)
        assert s.hands[s.turn] & 1
        assert legal_moves(v, s) == (Move.play(s.turn, "0-0"),)
    assert redealt  # some first deals were void and dealt again


@pytest.mark.parametrize("bad", [
    Move(MoveKind.PLAY, 0, 190, 0),  # past the last tile of double-18
    Move(MoveKind.PLAY, 0, 500, 3),
    Move(MoveKind.DRAW, 0, -2),  # a negative index is no tile (not the last one)
    Move(MoveKind.CONFIRM, 0, 3, 5),  # stray fields on a confirmation
])
def test_an_illegal_move_with_a_tile_outside_every_set_is_reported(bad: Move) -> None:
    v = find_variant("draw-2p-d6")
    s = position(v, ["0-0 1-2", "3-4 5-5"], line="6-6", boneyard="1-1")
    with pytest.raises(IllegalMoveError) as e:
        apply(v, s, bad)
    shown = repr(bad)
    assert shown in str(e.value) and "17-18" not in shown and "18-18" not in shown
    assert eval(shown, {"Move": Move, "MoveKind": MoveKind}) == bad  # still pasteable
    assert str(bad) == shown


def test_move_reprs_are_constructor_expressions() -> None:
    for m in (Move.play(1, "6-6"), Move.play(0, "2-6", 1), Move.draw(0, "1-1"),
              Move.pass_(1), Move.confirm(0), Move.establish(2), Move.domino(3)):
        assert eval(repr(m), {"Move": Move}) == m


def test_a_written_move_names_its_end_by_the_number_it_shows() -> None:
    """A trace writes "on the 6", the number the end shows; read back in the state it was
    made in, it names the slot that shows 6 (R2.1)."""
    v = variant("draw-2p-d6")
    s = position(v, ["2-6 1-1", "3-4"], line="0-6")
    m = play(v, s, 0, "2-6", 6)
    written = move_json(layout_of(v), s, m)
    assert written == {"kind": "play", "player": 0, "tile": "2-6", "end": 6}
    assert resolve(layout_of(v), s, read_move(written)) == m
    for other in (Move.play(1, "6-6"), Move.draw(0, "1-1"), Move.pass_(1), Move.confirm(0),
                  Move.establish(2), Move.domino(3)):
        assert resolve(layout_of(v), s, read_move(move_json(layout_of(v), s, other))) == other
    with pytest.raises(IllegalMoveError, match=r"^R2\.1: no open end shows 5"):
        resolve(layout_of(v), s, read_move({**written, "end": 5}))


@pytest.mark.parametrize("move", [Move.draw(0, "1-1"), Move.confirm(0), Move.pass_(0)])
def test_before_the_lead_the_error_names_the_lead(move: Move) -> None:
    v = variant("draw-2p-d6", {"lead.rule": "player"})
    s = position(v, ["0-0 1-2", "3-4 5-5"], boneyard="1-1 2-2", turn=0)
    assert legal_moves(v, s) == (Move.play(0, "0-0"), Move.play(0, "1-2"))  # P0 leads
    with pytest.raises(IllegalMoveError, match="lead") as e:
        apply(v, s, move)
    assert "top of the boneyard" not in str(e.value) and "draw first" not in str(e.value)
