"""The fragment: is a query in (stratified, many-sorted) EPR?

Every all-sizes query is "is this formula satisfiable?". After negation and
Skolemisation, an ``exists`` under ``forall``s of sorts ``S`` becomes a function from
``S`` to its sort; when those functions (and the uninterpreted ones) never form a
cycle between sorts, only finitely many terms exist, a model (if any) is finite, and
Z3's model-based quantifier instantiation decides the query. :func:`fragment_of`
computes that sort graph, so each query records whether it is in the fragment.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import z3  # type: ignore[import-untyped]

from .vocabulary import Expr, Formula

Edge: TypeAlias = tuple[str, str]
#: Memo of :func:`fragment_of`: (AST id, polarity, enclosing universal sorts) ->
#: (the term, kept alive so that its id stays its own; its sort edges).
FragmentCache: TypeAlias = dict[tuple[int, int, tuple[str, ...]], tuple[Expr, frozenset[Edge]]]


def fragment_of(formulas: Iterable[Formula], cache: FragmentCache | None = None,
                ) -> tuple[bool, list[Edge]]:
    """Whether the conjunction of ``formulas`` is in stratified many-sorted EPR.

    Walks each formula with its polarity; an existential (a positive ``exists``
    or a negative ``forall``) under universals of sorts ``S`` becomes a Skolem
    function from ``S`` to its sort: an edge ``S -> sort``. Uninterpreted
    functions add edges from their arguments to their result. The query is in
    the fragment, and Z3 decides it, when this sort graph has no cycle.
    Returns ``(ok, sorted edges)``. ``cache`` memoises shared subterms (formulas
    are DAGs: a guard or a conjunct recurs in many queries).
    """
    memo: FragmentCache = {} if cache is None else cache
    empty: frozenset[Edge] = frozenset()

    def walk(e: Expr, pol: int, univ: tuple[str, ...]) -> frozenset[Edge]:
        key = (e.get_id(), pol, univ)
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        out: set[Edge] = set()
        if z3.is_quantifier(e):
            sorts = [e.var_sort(i).name() for i in range(e.num_vars())]
            fa = e.is_forall()
            as_exists = pol == 0 or (pol > 0) != fa
            as_forall = pol == 0 or (pol > 0) == fa
            if as_exists:
                out.update((u, s) for u in univ for s in sorts)
            out |= walk(e.body(), pol, univ + tuple(sorts) if as_forall else univ)
        elif z3.is_app(e) and e.num_args() > 0:
            k = e.decl().kind()
            kids = e.children()
            if k == z3.Z3_OP_NOT:
                out |= walk(kids[0], -pol, univ)
            elif k in (z3.Z3_OP_AND, z3.Z3_OP_OR):
                for c in kids:
                    out |= walk(c, pol, univ)
            elif k == z3.Z3_OP_IMPLIES:
                out |= walk(kids[0], -pol, univ) | walk(kids[1], pol, univ)
            elif k == z3.Z3_OP_ITE and z3.is_bool(e):
                out |= walk(kids[0], 0, univ) | walk(kids[1], pol, univ)
                out |= walk(kids[2], pol, univ)
            else:
                if k == z3.Z3_OP_UNINTERPRETED and not z3.is_bool(e):
                    d = e.decl()
                    rng = d.range().name()
                    out.update((d.domain(i).name(), rng) for i in range(d.arity()))
                for c in kids:
                    out |= walk(c, 0, univ)
        got = frozenset(out) if out else empty
        memo[key] = (e, got)
        return got

    edges: set[Edge] = set()
    for f in formulas:
        edges |= walk(f, 1, ())
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)

    def cyclic() -> bool:
        state: dict[str, int] = {}

        def visit(n: str) -> bool:
            state[n] = 1
            for m in graph.get(n, ()):
                if state.get(m) == 1 or (m not in state and visit(m)):
                    return True
            state[n] = 2
            return False
        return any(n not in state and visit(n) for n in list(graph))

    return not cyclic(), sorted(edges)
