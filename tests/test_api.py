"""The Python API (``dominoproof/api.py``): deals given to it are checked like deals read
from files -- one located :class:`DominoproofError`, never a traceback from deep inside the
engine, nothing played or searched first -- and good ones play and search as the CLI does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dominoproof import api
from dominoproof.model.errors import DominoproofError
from dominoproof.model.state import Deal
from dominoproof.model.tiles import Tile, mask_of

HANDS = ["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2"]


def idx(text: str) -> list[int]:
    return [Tile.parse(t).idx for t in text.split()]


def block_deal() -> Deal:
    """A deal of block-2p-d6 written by hand: the two hands above, the rest set aside."""
    held = {t for h in HANDS for t in idx(h)}
    return Deal(tuple(mask_of(idx(h)) for h in HANDS), (),
                mask_of([t for t in range(28) if t not in held]))


def test_a_deal_value_its_json_and_its_text_give_the_same_round() -> None:
    d = block_deal()
    text = f"P0: {HANDS[0]}; P1: {HANDS[1]}"
    rounds = [api.play("block-2p-d6", seed=5, deal=x) for x in (d, d.to_json(), text)]
    assert all(r.deal == d for r in rounds)
    assert len({r.moves for r in rounds}) == 1
    rounds[0].states()  # every move replays with apply's checks


def test_a_deal_file_is_read_as_the_cli_reads_it(tmp_path: Path) -> None:
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(block_deal().to_json()))
    assert api.deal("block-2p-d6", f) == block_deal()
    trace = tmp_path / "round.json"
    trace.write_text(api.play("block-2p-d6", seed=2).dumps())
    assert api.deal("block-2p-d6", trace) == api.play("block-2p-d6", seed=2).deal


def overlapping() -> Deal:
    d = block_deal()
    one = 1 << Tile.parse("1-1").idx  # P1 holds 0-0 instead of 1-1: 0-0 twice, 1-1 nowhere
    return d._replace(hands=(d.hands[0], d.hands[1] & ~one | 1))


def short() -> Deal:
    d = block_deal()
    return d._replace(hands=(d.hands[0] & ~1, d.hands[1]), set_aside=d.set_aside | 1)


def json_with(**change: Any) -> dict[str, Any]:
    return {**block_deal().to_json(), **change}


BAD: list[tuple[str, Any, str]] = [
    ("a tile in two hands", overlapping(), "the tiles are not the double-6 set, each tile once"),
    ("a hand one tile short", short(), "hands of [6, 7] tiles, not 7 each"),
    ("three hands", Deal((1, 2, 4), (), 0), "3 hands for 2 players"),
    ("a negative mask", Deal((-1, 0), (), 0), "hands[0] = -1: not a set of tiles"),
    ("a mask beyond every set", Deal((1 << 400, 0), (), 0), "hands[0] = "),
    ("a float in the stack", Deal((0, 0), (1.5,), 0), "stack[0] = 1.5: not a tile index"),
    ("a mask that is a bool", Deal((True, 0), (), 0), "hands[0] = true"),
    ("a tile beyond double-18", json_with(stack=["19-19"]), 'deal.stack[0] = "19-19"'),
    ("an unknown key", json_with(hand=[]), "deal.hand: unknown key"),
    ("hands that are not lists", json_with(hands="0-0"), "deal.hands = "),
    ("a text hand missing", "P0: 0-0", "no hand for P1"),
    ("not a deal at all", 42, "deal = 42: not a deal"),
]


@pytest.mark.parametrize("what, given, needle", BAD, ids=[b[0] for b in BAD])
def test_a_bad_deal_is_one_located_error_before_any_play(what: str, given: Any,
                                                         needle: str) -> None:
    for call in (lambda: api.deal("block-2p-d6", given),
                 lambda: api.play("block-2p-d6", deal=given)):
        with pytest.raises(DominoproofError) as e:
            call()
        msg = str(e.value)
        assert needle in msg and "\n" not in msg, msg
        assert msg.startswith(("deal", "--deal")), msg


def test_a_void_deal_is_refused() -> None:
    """Under block-4p-d6 the holder of 6-6 leads; with the fallback "redeal" a deal where
    nobody holds it (it is set aside) is void (R: Terms, the lead)."""
    v = api.variant("block-2p-d6", {"lead.rule": "tile", "lead.tile": "6-6",
                                    "lead.fallback": "redeal"})
    assert Tile.parse("6-6").idx not in idx(" ".join(HANDS))
    with pytest.raises(DominoproofError, match=r"^deal: the deal is void"):
        api.deal(v, block_deal())


def test_explore_checks_a_given_deal_before_searching() -> None:
    with pytest.raises(DominoproofError, match="3 hands for 2 players"):
        api.explore("tiny-2p-d3", deal=Deal((1, 2, 4), (), 0))
    good = api.play("tiny-2p-d3", seed=3).deal
    assert api.explore("tiny-2p-d3", deal=good).results  # the search ran on that deal


def test_without_the_check_the_engine_would_accept_an_impossible_deal() -> None:
    """Why the check is needed: the engine itself deals a state from any masks (a tile in
    two hands), so only the API's check stands between a user's typo and a wrong round."""
    from dominoproof.model.engine import initial_state

    v = api.variant("block-2p-d6")
    s = initial_state(v, overlapping())  # no error: the engine trusts its caller
    assert s.hands[0] & s.hands[1]


def test_check_log_through_the_api(tmp_path: Path) -> None:
    f = tmp_path / "log.jsonl"
    f.write_text(api.play("block-2p-d6", seed=1).dumps().replace("\n", "") + "\n")
    assert api.check_log(f, "block-2p-d6").exit_code == 0
    with pytest.raises(DominoproofError, match="cannot read the log"):
        api.check_log(tmp_path / "missing.jsonl", "block-2p-d6")
