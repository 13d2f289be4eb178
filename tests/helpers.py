"""Builders for hand-made variants and states, shared by the tests.

A test that needs one particular position is clearer when it writes that position
down than when it searches for a seed that happens to reach it::

    v = variant("block-2p-d6")
    s = position(v, hands=["1-1 1-2", "5-5"], line="0-6")
    assert is_blocked(v, s)

* :func:`variant` -- a preset, optionally with overrides (``"deal.players": 3``).
* :func:`tiles` -- a mask from tile text (``"5-10 12-12"``).
* :func:`line_ends` -- the slot values of a line written left to right.
* :func:`play` -- the play of a tile "on the 6", its slot read off the state's layout.
* :func:`position` -- a state built from hands, a line, a boneyard; every tile of the
  set not mentioned is set aside. The result is checked with ``state_status``, so a
  hand-made state is always a well-formed one (a typo fails loudly, not silently).
* :func:`run` -- apply moves one after another with the legality checks of ``apply``.
* :func:`established` -- a position played through the R4 procedure to an established
  block: every needed confirmation, then the establishment, each checked by ``apply``.
* :func:`dealt` -- the initial state of a seeded deal (what ``random_round`` starts from).

Nothing here knows any rule: the builders only place tiles; the rules under test
decide what is legal.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from dominoproof.model import (
    Move,
    State,
    StateFlaw,
    Status,
    Tile,
    Variant,
    apply,
    find_variant,
    initial_state,
    shuffled_deal,
    state_status,
)
from dominoproof.model.layout import CLOSED, layout_of
from dominoproof.model.matching import ONE_WAY

try:  # the plots extra: the tests that draw a plot skip without it, saying so
    import matplotlib  # noqa: F401

    HAVE_MPL = True
except ImportError:  # pragma: no cover - the plots extra is not installed
    HAVE_MPL = False

needs_matplotlib = pytest.mark.skipif(not HAVE_MPL, reason="plots need matplotlib: pip "
                                      "install 'dominoproof[plots]'")


def variant(name: str, overrides: Mapping[str, Any] | None = None) -> Variant:
    """The preset (or alias, or path) ``name``, with ``overrides`` applied and validated."""
    v = find_variant(name)
    return v.with_overrides(overrides, source="<test>") if overrides else v


def tile_list(text: str) -> list[int]:
    """Tile indices of ``"a-b c-d ..."`` in the order written (whitespace or commas)."""
    return [Tile.parse(t).idx for t in text.replace(",", " ").split()]


def tiles(text: str) -> int:
    """The mask of ``"a-b c-d ..."``; every tile must appear once."""
    idx = tile_list(text)
    if len(set(idx)) != len(idx):
        raise ValueError(f"a tile is written twice in {text!r}")
    m = 0
    for i in idx:
        m |= 1 << i
    return m


def line_ends(text: str) -> tuple[int, ...]:
    """The canonical slot values of a line written left to right (``"6-6 6-11 11-2"``):
    its two ends, sorted; both slots closed for ``""``.

    The first tile opens the line as written (``"11-5"``: 11 on the left); each next
    tile joins the right end when it matches it, else the left end. Raises
    ``ValueError`` for a tile that matches neither.
    """
    words = text.replace(",", " ").split()
    if not words:
        return (CLOSED, CLOSED)
    seq = [Tile.parse(t) for t in words]
    first = re.findall(r"\d+", words[0])  # the opening tile as written: left half first
    left, right = int(first[0]), int(first[1])
    for t in seq[1:]:
        if right in t:
            right = t.other(right)
        elif left in t:
            left = t.other(left)
        else:
            raise ValueError(f"{t} matches neither open end ({left}, {right}) of {text!r}")
    return (min(left, right), max(left, right))


def position(
    v: Variant,
    hands: Sequence[str],
    *,
    line: str = "",
    boneyard: str = "",
    free_draw: bool = False,
    turn: int = 0,
    confirmed: int = 0,
    drew: bool = False,
    fouls: Iterable[int] = (),
    status: Status = Status.PLAYING,
) -> State:
    """A well-formed state of ``v`` written by hand.

    ``hands[p]`` is seat ``p``'s tiles; ``line`` the layout left to right (``""``: the
    lead is still to come); ``boneyard`` the stock in draw order, top first (any order
    with ``free_draw``). Every other tile of the set is set aside.

    Before the lead (``line=""``) give ``turn`` as the leader the variant's lead rule
    names: ``state_status`` does not check it, and with another seat to move the
    rules offer no move at all.
    """
    if len(hands) != v.players:
        raise ValueError(f"{v.name} has {v.players} seats, got {len(hands)} hands")
    hand_masks = tuple(tiles(h) for h in hands)
    table = tiles(line)
    stack = tuple(tile_list(boneyard))
    bone = tiles(boneyard)
    used = table | bone
    for h in hand_masks:
        used |= h
    fouled = 0
    for p in fouls:
        fouled |= 1 << p
    s = State(hand_masks, bone, v.tiles.full & ~used, table, line_ends(line), turn,
              confirmed, drew, fouled, status, None if free_draw else stack)
    if v.scoring.in_play.value != "none":  # R5.7: the points and weights need the history
        if line:
            raise ValueError(f"{v.name} scores plays (R5.7): write the position before "
                             "the lead and play the round from there")
        s = s._replace(points=(0,) * v.players, weights=(0,) * layout_of(v).width)
    flaws = state_status(v, s)
    if flaws is not StateFlaw.OK:
        raise ValueError(f"not a well-formed state of {v.name}: {flaws!r}\n{s.describe()}")
    return s


def play(v: Variant, s: State, player: int, tile: str, number: int,
         leaves: int = ONE_WAY) -> Move:
    """``player``'s play of ``tile`` on the open end showing ``number`` in ``s`` (the slot
    the layout names so), a matador turned to leave ``leaves`` showing (R2.1). Raises
    ``ValueError`` if no end ``player`` may play on shows it."""
    slot = layout_of(v).slot_showing(s.ends, player, number, s.marks)
    if slot is None:
        raise ValueError(f"no open end shows {number} for P{player} in {s.open_ends}")
    return Move.play(player, tile, slot, leaves)


def run(v: Variant, s: State, *moves: Move) -> State:
    """``s`` after ``moves``, each checked by ``apply`` (raises on the first illegal one)."""
    for m in moves:
        s = apply(v, s, m)
    return s


def established(v: Variant, hands: Sequence[str], *, line: str, proposer: int = 0) -> State:
    """The BLOCKED state reached from ``position(v, hands, line=line, turn=proposer)`` by
    the R4 procedure: ``proposer`` and the next players confirm, then the block is
    established. Raises ``IllegalMoveError`` if the rules do not allow it."""
    s = position(v, hands, line=line, turn=proposer)
    for k in range(v.needed_confirmations):
        s = apply(v, s, Move.confirm((proposer + k) % v.players))
    return apply(v, s, Move.establish(s.turn))


def dealt(v: Variant, seed: int, *, free_draw: bool = False) -> State:
    """The initial state of the deal ``random.Random(seed)`` gives (``random_round``'s)."""
    return initial_state(v, shuffled_deal(v, random.Random(seed)), free_draw=free_draw)


# Bugs an outside tester plants in the engine's own scoring (tests/test_outcome_readings.py,
# tests/test_variant_space.py): monkeypatch them over ``outcome_module``'s helpers.

#: the scoring module (the package exports its function ``outcome`` under the same name)
outcome_module = importlib.import_module("dominoproof.model.outcome")


def stride_totals(sides: tuple[tuple[int, ...], ...], residuals: tuple[int, ...]
                  ) -> tuple[int, ...]:
    """A planted bug: side i sums seats i, i+n, i+2n, ..."""
    n = len(sides)
    return tuple(sum(residuals[p] for p in range(i, len(residuals), n)) for i in range(n))


def side_index_penalties(v: Variant, fouls: int) -> tuple[int, ...]:
    """A planted bug: a foul is charged to the seat numbered like its author's side."""
    out = [0] * v.players
    for p in range(v.players):
        if fouls >> p & 1:
            out[next(i for i, side in enumerate(v.teams) if p in side)] += v.fouls.penalty
    return tuple(out)


# The Z3 twins of the layouts' faults (markers, doubles, a spinner's arms) are written by
# another engineer on the layouts-z3 branch, with the encoding of those layouts. Until
# that branch merges, the tests that need a fault's twin are expected to fail for those
# faults, and say why; the mark disappears by itself once ``Z3_MUTANTS`` has the twin.

AWAITING_Z3 = ("the fault's Z3 twin (proofs/z3/encoding_faults.py) and the encoding of its "
               "layout are written on the layouts-z3 branch: expected to fail until it "
               "merges")


def awaiting_z3_twin(fault_id: str) -> bool:
    """The fault has no Z3 twin yet (see :data:`AWAITING_Z3`)."""
    from dominoproof.proofs.z3.encoding_faults import Z3_MUTANTS

    return fault_id not in Z3_MUTANTS and not z3_unstated(fault_id)


def z3_unstated(fault_id: str) -> str:
    """Why the Z3 relation cannot state the fault (``""``: it can): it breaks what the
    relation has no variable for (``Z3_UNSTATED``)."""
    from dominoproof.proofs.z3.encoding_faults import Z3_UNSTATED

    return Z3_UNSTATED.get(fault_id, "")


def with_z3_twin(fault_id: str, *values: Any, marks: Any = ()) -> Any:
    """A ``pytest.param`` of a test that needs the fault's Z3 twin: expected to fail
    (strictly) while the twin is awaited, an ordinary case once it is there."""
    import pytest

    more = [marks] if marks and not isinstance(marks, list | tuple) else list(marks)
    if awaiting_z3_twin(fault_id):
        more.append(pytest.mark.xfail(reason=AWAITING_Z3, strict=True))
    if z3_unstated(fault_id):
        more.append(pytest.mark.skip(reason=z3_unstated(fault_id)))
    return pytest.param(fault_id, *values, marks=more)


def unseen_successors(rules: Any, s: State, seen: set[Any]) -> list[State]:
    """The successors of ``s`` under ``rules`` not in ``seen`` (each added to it), none
    from a finished round: one step of the plain walks the tests' oracles make."""
    if s.status is not Status.PLAYING:
        return []
    out = []
    for m in rules.moves(s):
        t = rules.step(s, m)
        if t.key() not in seen:
            seen.add(t.key())
            out.append(t)
    return out
