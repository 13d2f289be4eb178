"""Conjunction and disjunction of Z3 terms, made straight through Z3's C API.

``z3.And`` and ``z3.Or`` coerce every argument before they make the term: each one's
sort is asked for, wrapped, compared and cast, some five calls into Z3 a term, all in
Python. The encoding makes hundreds of thousands of conjunctions of terms that are
already Boolean (``verify`` of the chicken-foot preset spent about a fifth of its time
there), so :func:`And` and :func:`Or` make the same term (``Z3_mk_and`` / ``Z3_mk_or``
on the same arguments, in the same order) without the coercion when every argument is
a Boolean term of one context, and hand anything else (a Python ``bool``, a probe, a
trailing context, no argument at all) to z3's own. The terms are Z3's either way, so
the solver's answers and the models it picks do not change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3  # type: ignore[import-untyped]

__all__ = ["And", "Or"]


def _connective(make: Callable[..., Any], slow: Callable[..., Any]) -> Callable[..., Any]:
    boolean, array = z3.BoolRef, z3.Ast

    def connective(*args: Any) -> Any:
        items = args[0] if len(args) == 1 and isinstance(args[0], list | tuple) else args
        if not items or not isinstance(items[0], boolean):
            return slow(*args)
        ctx = items[0].ctx
        asts = (array * len(items))()
        for i, a in enumerate(items):
            if not isinstance(a, boolean) or a.ctx is not ctx:
                return slow(*args)
            asts[i] = a.as_ast()
        return boolean(make(ctx.ref(), len(items), asts), ctx)

    connective.__doc__ = f"``z3.{slow.__name__}``, the same term, made without coercion."
    return connective


#: ``z3.And(*terms)`` or ``z3.And(list)``
And = _connective(z3.Z3_mk_and, z3.And)
#: ``z3.Or(*terms)`` or ``z3.Or(list)``
Or = _connective(z3.Z3_mk_or, z3.Or)
