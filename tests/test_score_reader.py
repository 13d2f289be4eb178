"""The declarative scoring read on concrete states (``proofs/z3/scoring.py``).

The reader remembers what it has read by the values of the variables its terms contain,
collapsing the places that are not hands only where a check of every occurrence shows
the terms cannot tell them apart. Both shortcuts must give exactly what a fresh
evaluation gives.
"""

from __future__ import annotations

import z3  # type: ignore[import-untyped]
from helpers import variant

from dominoproof.model.engine import seeded_deal
from dominoproof.model.outcome import outcome
from dominoproof.model.spec import Init
from dominoproof.proofs.search.statespace import explore
from dominoproof.proofs.z3.encoding import Encoding
from dominoproof.proofs.z3.scoring import Classifier, ScoreReader
from dominoproof.proofs.z3.term_reader import TermReader


def reader_of(v, make):  # type: ignore[no-untyped-def]
    enc = Encoding(v)
    s = enc.v.state("probe")
    return TermReader(enc, s, [(make(enc, s), 1)])


def test_a_term_that_looks_at_the_boneyard_is_not_collapsed() -> None:
    v = variant("draw-2p-d6")
    one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
    hands = reader_of(v, lambda e, s: z3.If(s.loc[0] == 1, one, zero))
    stock = reader_of(v, lambda e, s: z3.If(s.loc[0] == e.v.P, one, zero))
    below = reader_of(v, lambda e, s: z3.If(z3.ULT(s.loc[0], e.v.P + 1), one, zero))
    assert hands.hands_only
    assert not stock.hands_only
    assert not below.hands_only
    # a state is looked up by its fields only where the places collapse to the hands
    assert hands._fields is not None and stock._fields is None and below._fields is None
    assert ScoreReader(v).reader.hands_only
    assert not Classifier(v).predicates.hands_only  # R3 reads the boneyard


def test_remembered_readings_equal_fresh_ones_and_the_engine() -> None:
    v = variant("fouls-4p-d6", {"set.max": 3, "deal.hand_size": 2, "lead.tile": "3-3"})
    reader = ScoreReader(v)
    seen = 0
    for seed in range(3):
        r = explore(v, Init.one(seeded_deal(v, seed)), max_states=20_000)
        for s in r.states():
            if not s.is_terminal:
                continue
            fresh = ScoreReader(v).read(s)
            got = reader.read(s)
            want = outcome(v, s)
            assert got == fresh
            assert got is not None and want is not None
            assert (got.penalties, got.scores, got.awards) == (
                want.penalties, want.scores, want.awards)
            seen += 1
    assert seen and len(reader.reader._memo) < seen
