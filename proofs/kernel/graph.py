"""The graph analyses of a kernel search, compiled: the same iterative depth-first search
as :meth:`SearchResult._order <dominoproof.proofs.search.result.SearchResult._order>`, over
the same CSR arrays, step for step (with arrays for its stack), and the longest paths of
:meth:`~dominoproof.proofs.search.result.SearchResult.longest_from_roots`, whose loop is
compiled as it is written there.

They read no rule: on graphs of tens of millions of states the Python loops take many
times longer (docs/KERNEL.md). The Python analyses stay the reading of record; the tests
hold these to them on acyclic and cyclic graphs (the same order, cycle and distances).

Every array is made by the caller (the kernel allocates nothing: ``_jit._OPTIONS``).
"""

from __future__ import annotations

from dominoproof.proofs.search.result import relax_longest

from ._jit import njit


@njit
def dfs_order(ptr, to, n, size, colour, post, stack_v, stack_e):  # type: ignore[no-untyped-def]
    """The post-order of the depth-first search from every state in id order, edges in
    CSR order (states ``>= n`` were not expanded: no edges). ``colour``: zeros on entry
    (``size`` bytes); ``post``, ``stack_v`` and ``stack_e``: ``size`` entries each.

    Returns ``(count, lo, hi)``: without a cycle, ``post[:count]`` is the post-order and
    ``lo == hi == -1``; at the first grey state met again, ``stack_v[lo:hi]`` is the
    cycle, from that state to the top of the stack (``count`` is then meaningless)."""
    count = 0
    for root in range(size):
        if colour[root]:
            continue
        colour[root] = 1
        top = 0
        stack_v[0] = root
        stack_e[0] = ptr[root] if root < n else 0
        while top >= 0:
            v = stack_v[top]
            e = stack_e[top]
            end = ptr[v + 1] if v < n else 0
            if e < end:
                stack_e[top] = e + 1
                w = to[e]
                c = colour[w]
                if c == 0:
                    colour[w] = 1
                    top += 1
                    stack_v[top] = w
                    stack_e[top] = ptr[w] if w < n else 0
                elif c == 1:
                    lo = 0
                    while stack_v[lo] != w:
                        lo += 1
                    return count, lo, top + 1
            else:
                colour[v] = 2
                post[count] = v
                count += 1
                top -= 1
    return count, -1, -1


#: ``SearchResult.longest_from_roots``'s own loop (``result.relax_longest``),
#: compiled: one source, read by the interpreter on the Python path and by numba here
longest_from_roots = njit(relax_longest)


__all__ = ["dfs_order", "longest_from_roots"]
