"""Z3 terms over one copy of the state variables, evaluated on concrete states.

The declarative scoring (:mod:`~dominoproof.proofs.z3.scoring`) reads its terms on every
terminal state a search or a cross-check meets through :class:`TermReader`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import z3  # type: ignore[import-untyped]

from dominoproof.model.state import State
from dominoproof.proofs.z3.encoding import BV, Encoding, StateVars
from dominoproof.proofs.z3.vocabulary import FIELDS


class TermReader:
    """Terms over one copy of the state variables, evaluated on concrete states.

    The terms are packed into one bit-vector; a concrete state is read by putting its
    values (:meth:`~.vocabulary.Vocabulary.values`) into a model and evaluating the
    packed term there.
    Results are remembered by the values of exactly the variables the terms contain
    (found by walking them), so states that differ only where the terms do not look
    are read once. Where Z3 proves that the terms see of a tile only *whether it is in a
    hand* (and whose) -- not whether it lies in the boneyard, aside or on the table --
    those places are one value in the key: at a block the score depends on the hands,
    the turn, the confirmations, the fouls and the status, not on the table. The proof
    is one query per reader (:meth:`_hands_only`); without it, nothing is collapsed.
    """

    def __init__(self, enc: Encoding, s: StateVars, terms: Sequence[tuple[BV, int]]) -> None:
        self.enc, self.s = enc, s
        self.widths = [w for _, w in terms]
        parts = [z3.Extract(w - 1, 0, t) if t.size() > w else z3.ZeroExt(w - t.size(), t)
                 if t.size() < w else t for t, w in terms]
        self.packed = z3.Concat(*parts) if len(parts) > 1 else parts[0]
        self._free = _free_names(self.packed)
        self._read: list[int] | None = None  #: positions in Encoding.values of the free ones
        self._memo: dict[tuple[int | bool, ...], tuple[int, ...]] = {}
        self._seen: dict[tuple[Any, ...], tuple[int, ...]] = {}  #: by state (see read)
        self._locs = frozenset(str(x) for x in s.loc) & self._free
        self.hands_only = bool(self._locs) and self._hands_only()
        self._collapse: list[bool] = []  #: per read position: a place to collapse
        #: per read position: the variable's declaration and its width (-1: a Boolean)
        self._slots: list[tuple[Any, int]] = []
        self._shown: list[int | None] = []  #: per read position: its value in the model
        self._model = z3.Model()
        self._values: dict[tuple[int, int], Any] = {}  #: (value, width) -> Z3 constant
        self._ctx = self.packed.ctx_ref()
        self._fields = self._state_fields()

    def _hands_only(self) -> bool:
        """Whether the terms see each tile's place only through atoms that cannot tell the
        places that are not hands apart: ``loc[t] == k`` with a constant seat ``k < P``, or
        ``loc[t] < k`` with a constant ``k <= P``. A syntactic check of every occurrence,
        sufficient for moving a tile between boneyard, aside, table and nowhere never to
        change the terms; any other use of a place, and nothing is collapsed."""
        P = self.enc.v.P
        seen: set[int] = set()
        todo = [self.packed]
        while todo:
            t = todo.pop()
            if t.get_id() in seen:
                continue
            seen.add(t.get_id())
            kids = t.children()
            for k, c in enumerate(kids):
                if z3.is_const(c) and str(c) in self._locs:
                    other = kids[1 - k] if len(kids) == 2 else None
                    if other is None or not z3.is_bv_value(other):
                        return False
                    val = other.as_long()
                    if z3.is_eq(t) and val < P:
                        continue
                    if t.decl().kind() == z3.Z3_OP_ULT and k == 0 and val <= P:
                        continue
                    return False
            todo.extend(c for c in kids if not (z3.is_const(c) and str(c) in self._locs))
        return True

    def read(self, state: State) -> tuple[int, ...]:
        """The terms' values in ``state``, in order (unsigned, each of its width).
        A state is first looked up by the fields of it that the terms' variables are
        read from (:meth:`_state_fields`), without making those values: most states a
        search ends in are read so."""
        if self._fields is None:
            return self._read_values(state)
        seen = tuple(f(state) for f in self._fields)
        got = self._seen.get(seen)
        if got is None:
            got = self._seen[seen] = self._read_values(state)
        return got

    def _state_fields(self) -> list[Callable[[State], Any]] | None:
        """The fields of a concrete state that the terms' variables are read from (the
        hands for every tile's place, where only whether it is in a hand matters), or
        None where a tile's other places matter too, or where a variable the terms
        contain is read otherwise (:meth:`~.vocabulary.Vocabulary.values`, :data:`FIELDS`)."""
        s, free = self.s, self._free
        if self._locs and not self.hands_only:
            return None
        fields: list[Callable[[State], Any]] = [attrgetter("hands")] if self._locs else []
        named = set(self._locs)
        for name, per_item in FIELDS:  # each variable read from the field of its name
            x = getattr(s, name)
            if per_item:
                for i, xi in enumerate(x):
                    if str(xi) in free:
                        fields.append(_item(name, i))
                        named.add(str(xi))
            elif x is not None and str(x) in free:
                fields.append(attrgetter(name))
                named.add(str(x))
        if s.drawn is not None and str(s.drawn) in free:
            fields.append(_stack_left)
            named.add(str(s.drawn))
        return fields if named == set(free) else None

    def _read_values(self, state: State) -> tuple[int, ...]:
        """:meth:`read`, from the values of the variables the terms contain."""
        pairs = self.enc.v.values(self.s, state)
        if self._read is None:
            self._read = [i for i, (x, _) in enumerate(pairs) if str(x) in self._free]
            self._collapse = [self.hands_only and str(pairs[i][0]) in self._locs
                              for i in self._read]
            self._slots = [self._variable(pairs[i][0]) for i in self._read]
            self._shown = [None] * len(self._read)
        P = self.enc.v.P
        key = tuple(min(pairs[i][1], P) if c else pairs[i][1]
                    for i, c in zip(self._read, self._collapse, strict=True))
        got = self._memo.get(key)
        if got is None:
            # one model, each free variable's value set where it differs from the value
            # the model holds (the terms contain no other variable); the values' ASTs
            # made once each
            m, shown = self._model.model, self._shown
            for j, i in enumerate(self._read):  # Model.update_value, its checks made once
                w = int(pairs[i][1])
                if shown[j] != w:
                    decl, size = self._slots[j]
                    z3.Z3_add_const_interp(self._ctx, m, decl.ast, self._value(size, w))
                    shown[j] = w
            n = self._model.eval(self.packed, model_completion=True).as_long()
            out = []
            for w in reversed(self.widths):
                out.append(n & ((1 << w) - 1))
                n >>= w
            got = self._memo[key] = tuple(reversed(out))
        return got

    @staticmethod
    def _variable(x: Any) -> tuple[Any, int]:
        """The declaration of the state variable ``x`` (a constant) and its bit-vector
        width (-1: a Boolean), read from Z3 once per variable (:meth:`_read_values`)."""
        d = x.decl()
        assert d.arity() == 0  # a constant: what update_value requires
        return d, x.size() if z3.is_bv(x) else -1

    def _value(self, size: int, w: int | bool) -> Any:
        """The constant ``w`` of a width (-1: a Boolean) as an AST pointer, made once per
        width and value."""
        key = (int(w), size)
        got = self._values.get(key)
        if got is None:
            got = self._values[key] = (z3.BoolVal(bool(w)) if size < 0
                                       else z3.BitVecVal(w, size))
        return got.as_ast()


def _item(name: str, i: int) -> Callable[[State], Any]:
    """The ``i``-th item of a state's field ``name`` (a slot's end, a seat's points)."""
    get = attrgetter(name)
    return lambda st: get(st)[i]


def _stack_left(st: State) -> int:
    """How many tiles of the draw order are left (the variable ``drawn`` reads it)."""
    assert st.stack is not None
    return len(st.stack)


def _free_names(term: Any) -> frozenset[str]:
    """The names of the uninterpreted constants (state variables) in ``term``."""
    seen: set[int] = set()
    names: set[str] = set()
    todo = [term]
    while todo:
        t = todo.pop()
        k = t.get_id()
        if k in seen:
            continue
        seen.add(k)
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            names.add(str(t))
        else:
            todo.extend(t.children())
    return frozenset(names)
