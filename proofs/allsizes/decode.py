"""Counterexamples of the all-sizes proofs, decoded into a small state of the round.

A failed query's model is one finite instance of "every N, every P": a few seats, tiles,
numbers and ends. :class:`Decoder` names its elements (``P0``, ``T0``, ``V0``, the ends by
their slots) and reads the state (hands, boneyard, ends, the run of confirmations) off the
model; :class:`AbstractCounterexample` is the result, printable and JSON-serialisable.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]

from .vocabulary import AState, Expr, Formula, SortRef, Step, Vocabulary


@dataclass
class AbstractCounterexample:
    """A model of a failed query, decoded: a (pre-)state of the abstract round, and
    for a transition the action, its parameters and the post-state.

    A counterexample to induction need not be reachable; its sorts are small
    finite sets (``P0, P1`` seats, ``T0..`` tiles, ``V0..`` numbers, the ends named by
    their slots, ``left, right``), one instance of "every N, every P".
    """

    query: str
    action: str | None
    universe: dict[str, list[str]]
    carries: dict[str, list[str]]
    clockwise: list[str]
    pre: dict[str, Any]
    post: dict[str, Any] | None = None
    params: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def __str__(self) -> str:
        tiles = ", ".join(f"{t}={'/'.join(vs)}" for t, vs in self.carries.items())
        lines = [f"{self.query}: seats {' -> '.join(self.clockwise)} (clockwise); "
                 f"tiles {tiles}"]
        lines.append(f"  before: {_state_text(self.pre)}")
        if self.action is not None:
            ps = ", ".join(f"{k}={v}" for k, v in self.params.items())
            lines.append(f"  action: {self.action}({ps})")
        if self.post is not None:
            lines.append(f"  after:  {_state_text(self.post)}")
        return "\n".join(lines)


def _state_text(st: dict[str, Any]) -> str:
    def braces(xs: Iterable[str]) -> str:
        return "{" + ",".join(xs) + "}"
    hands = " ".join(f"{p}:{braces(ts)}" for p, ts in st["hands"].items())
    ends = " ".join(f"{e}:{'/'.join(vs) or '-'}" for e, vs in st["shows"].items())
    flags = [k for k in ("opened", "drew", "blocked", "domino") if st[k]]
    flags += [f"{k} {braces(st[k])}" for k in ("covered", "pending") if st.get(k)]
    return (f"turn {st['turn']}, hands {hands}, boneyard {braces(st['boneyard'])}, "
            f"aside {braces(st['aside'])}, table {braces(st['table'])}, ends {ends}, "
            f"confirmed {braces(st['confirmed'])} (proposer {st['proposer']}), "
            f"fouls {braces(st['fouls'])}" + (f"; {' '.join(flags)}" if flags else ""))


def distinct_tiles(v: Vocabulary) -> Formula:
    """Two tiles carrying the same numbers are the same tile, as in every real set (the
    model does not need it: it is added only to decode a counterexample into real tiles;
    in EPR, its Skolem function is ``Tile x Tile -> Value``, in the same stratum)."""
    t1, t2, x = z3.Const("t_d1", v.tile), z3.Const("t_d2", v.tile), z3.Const("x_d", v.value)
    return z3.ForAll([t1, t2], z3.Implies(
        z3.ForAll([x], v.carries(t1, x) == v.carries(t2, x)), t1 == t2))


class Decoder:
    """Reads an abstract state off a Z3 model of a query over the vocabulary ``v``.

    Seats, tiles and numbers are named by their place in the model's universe (``P0``,
    ``T0``, ``V0``); an end is named by the slot it is (``slots``: each slot's name and
    its constant), in the layout's order."""

    def __init__(self, v: Vocabulary, model: Any,
                 slots: Sequence[tuple[str, Expr]] = (), marks: Sequence[str] = ()) -> None:
        self.v = v
        self.model = model
        #: the layout's marks the model keeps ("covered", "pending"), decoded per end
        self.marks = tuple(marks)
        self.names: dict[str, str] = {}
        self.universe: dict[str, list[Expr]] = {}
        for sort, prefix in ((v.player, "P"), (v.tile, "T"), (v.value, "V"), (v.end, "E")):
            elems = model.get_universe(sort) or []
            self.universe[sort.name()] = list(elems)
            for i, el in enumerate(elems):
                self.names[str(el)] = f"{prefix}{i}"
        order: dict[str, int] = {}
        for i, (name, const) in enumerate(slots):
            el = str(model.eval(const, model_completion=True))
            self.names[el] = name
            order.setdefault(el, i)
        ends = self.universe[v.end.name()]
        ends.sort(key=lambda el: order.get(str(el), len(order)))
    def name(self, e: Expr) -> str:
        val = self.model.eval(e, model_completion=True)
        return self.names.get(str(val), str(val))

    def true(self, f: Formula) -> bool:
        return bool(z3.is_true(self.model.eval(f, model_completion=True)))

    def els(self, sort: SortRef) -> list[Expr]:
        return self.universe[sort.name()]

    def set1(self, r: Callable[..., Formula], sort: SortRef) -> list[str]:
        return [self.name(x) for x in self.els(sort) if self.true(r(x))]

    def state(self, s: AState) -> dict[str, Any]:
        v = self.v
        return {
            "turn": self.name(s.turn), "proposer": self.name(s.proposer),
            "hands": {self.name(p): [self.name(t) for t in self.els(v.tile)
                                     if self.true(s.holds(p, t))] for p in self.els(v.player)},
            "boneyard": self.set1(s.in_boneyard, v.tile),
            "aside": self.set1(s.aside, v.tile),
            "table": self.set1(s.on_table, v.tile),
            "shows": {self.name(e): [self.name(x) for x in self.els(v.value)
                                     if self.true(s.shows(e, x))] for e in self.els(v.end)},
            "confirmed": self.set1(s.confirmed, v.player),
            "fouls": self.set1(s.fouls, v.player),
            **{k: self.true(getattr(s, k)) for k in ("opened", "drew", "blocked", "domino")},
            **{k: self.set1(getattr(s, k), v.end) for k in self.marks},
        }

    def clockwise(self) -> list[str]:
        ps = self.els(self.v.player)
        if not ps:
            return []
        first, rest = ps[0], ps[1:]

        def cmp(a: Expr, b: Expr) -> int:
            return -1 if self.true(self.v.btw(first, a, b)) else 1
        return [self.name(p) for p in [first, *sorted(rest, key=functools.cmp_to_key(cmp))]]

    def decode(self, query: str, pre: AState, step: Step | None = None,
               action: str | None = None) -> AbstractCounterexample:
        v = self.v
        return AbstractCounterexample(
            query=query, action=action,
            universe={k: [self.names.get(str(x), str(x)) for x in xs]
                      for k, xs in self.universe.items()},
            carries={self.name(t): [self.name(x) for x in self.els(v.value)
                                    if self.true(v.carries(t, x))] for t in self.els(v.tile)},
            clockwise=self.clockwise(),
            pre=self.state(pre),
            post=self.state(step.post) if step is not None else None,
            params={k: self.name(x) for k, x in step.params.items()} if step else {},
        )

