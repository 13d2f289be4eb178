"""``proofs/z3/terms.py``: the connectives made without z3's coercion are z3's own terms."""

from __future__ import annotations

import pytest
import z3  # type: ignore[import-untyped]

from dominoproof.proofs.z3.terms import And, Or


@pytest.mark.parametrize("ours, theirs", [(And, z3.And), (Or, z3.Or)])
def test_the_same_term_as_z3s_own(ours: object, theirs: object) -> None:
    """Boolean terms, as arguments or as one list: the very term z3 makes (the same
    AST, so the solver sees no difference); anything else goes to z3, unchanged."""
    a, b, c = z3.Bools("a b c")
    x = z3.Int("x")
    for args in [(a,), (a, b), (a, b, c), (x > 0, a), (z3.ForAll([x], x > 0), b)]:
        for call in (args, (list(args),), (tuple(args),)):
            got, want = ours(*call), theirs(*call)  # type: ignore[operator]
            assert got.get_id() == want.get_id() and got.ctx is want.ctx, (call, got, want)
    # a Python bool, no argument, a trailing context: z3's own coercion
    assert ours(a, True).get_id() == theirs(a, True).get_id()  # type: ignore[operator]
    assert ours().get_id() == theirs().get_id()  # type: ignore[operator]
    other = z3.Context()
    p, q = z3.Bool("p", other), z3.Bool("q", other)
    assert ours(p, q, other).ctx is other and ours(p, q).ctx is other  # type: ignore[operator]
    with pytest.raises(z3.Z3Exception):  # terms of two contexts, refused as z3 refuses them
        ours(a, p)  # type: ignore[operator]


def test_and_is_not_or() -> None:
    a, b = z3.Bools("a b")
    s = z3.Solver()
    s.add(Or(a, b), z3.Not(And(a, b)))
    assert s.check() == z3.sat
    s.add(z3.Not(Or([a, b])))
    assert s.check() == z3.unsat
