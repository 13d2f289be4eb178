"""The readings of the rules as oracles, compared state by state.

An *oracle* is anything with

- ``name: str``;
- ``successors(state) -> set[tuple[Move, key]]``: every enabled move in the
  model :class:`~dominoproof.model.state.State` ``state``, each with the
  :meth:`State.key` of the state it leads to (empty for a terminal state);
- ``classify(state) -> Mapping[str, Any] | None``: a terminal classification.
  Known fields: ``terminal`` (no move is enabled), ``is_blocked`` (R1.1),
  ``ends_unplayable`` (R2), ``boneyard_supplies_nothing`` (R3.2), ``outcome``
  (R5: a dict with ``termination``, ``residuals``, ``totals``, ``counts``, ``winners``,
  ``awards``, ``penalties``, ``scores``; None while playing). Two oracles are
  compared on the fields both report; an oracle may omit any of them;
- optionally ``initial(hands, stack, set_aside, *, free_draw) -> key | None``:
  the key of Init for a dealt position (None: the lead rule voids the deal).

Oracles are plain objects (a ``Protocol``), so an oracle can live anywhere. This module
holds the oracles that need no Z3 (the engine, the specification, the kernel, a search's
graph) and :func:`compare`, so that the search's own check of its two readings
(:mod:`~dominoproof.proofs.search.check`) loads no Z3; :mod:`~dominoproof.proofs.conformance`
knows them by name, with the Z3 relation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from dominoproof.model.engine import initial_state
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import engine_for
from dominoproof.model.moves import Move
from dominoproof.model.outcome import Outcome, Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import VoidDeal, dealt_state, spec_for
from dominoproof.model.state import Deal, State
from dominoproof.model.tiles import Tile, bits
from dominoproof.model.variant import Variant
from dominoproof.proofs.kernel import reason as kernel_reason
from dominoproof.proofs.readings import ReadingsDisagree

if TYPE_CHECKING:
    from dominoproof.proofs.kernel.tables import Tables

Key = tuple[object, ...]
Transition = tuple[Move, Key]
Classification = Mapping[str, Any]

#: The fields of :meth:`State.key`, in order (for readable differences).
KEY_FIELDS = ("hands", "boneyard", "set_aside", "ends", "marks", "turn", "confirmed",
              "drew", "fouls", "status", "points", "weights", "stack")


class OracleUnavailable(DominoproofError):
    """A named oracle cannot be used here (its module or function does not exist yet)."""


@runtime_checkable
class Oracle(Protocol):
    name: str

    def successors(self, state: State) -> set[Transition]: ...

    def classify(self, state: State) -> Classification | None: ...



def outcome_fields(res: Outcome | None) -> dict[str, Any] | None:
    """The R5 fields every oracle reports, from a model :class:`Outcome`."""
    if res is None:
        return None
    return {
        "termination": res.termination.value,
        "residuals": tuple(res.residuals),
        "totals": tuple(res.totals),
        "counts": tuple(res.counts),
        "winners": tuple(sorted(res.winners)),
        "awards": tuple(res.awards),
        "penalties": tuple(res.penalties),
        "scores": tuple(res.scores),
    }


class EngineOracle:
    """The engine: :class:`Rules` (or a fault's subclass) and R5 scoring."""

    def __init__(self, variant: Variant, rules: RuleBook | None = None,
                 scorer: Scorer | None = None, name: str = "engine") -> None:
        self.variant = variant
        self.rules = rules if rules is not None else engine_for(variant)
        self.scorer: Scorer = scorer if scorer is not None else outcome
        self.name = name

    def successors(self, state: State) -> set[Transition]:
        return {(m, s.key()) for m, s in self.rules.successors(state)}

    def classify(self, state: State) -> Classification:
        r = self.rules
        return {
            "terminal": not r.legal_moves(state),
            "is_blocked": r.is_blocked(state),
            "ends_unplayable": r.ends_unplayable(state),
            "boneyard_supplies_nothing": r.boneyard_supplies_nothing(state),
            "outcome": outcome_fields(self.scorer(self.variant, state)),
        }

    def initial(self, hands: Sequence[int], stack: Sequence[int], set_aside: int, *,
                free_draw: bool = False) -> Key | None:
        try:
            s = initial_state(self.variant, Deal(tuple(hands), tuple(stack), set_aside),
                              free_draw=free_draw, rules=self.rules)
        except VoidDeal:
            return None
        return s.key()


def spec_oracle(variant: Variant) -> EngineOracle:
    """The specification's rule book (the named actions) as an oracle."""
    return EngineOracle(variant, spec_for(variant), name="spec")


class GraphOracle:
    """The edges a graph search recorded: ``edges[key]`` = the set of ``(move, key)``.

    Meaningful when the search stores its own edges (it checks the search's
    bookkeeping: deduplication by key, no lost or invented edges), not as an
    independent reading of the rules.
    """

    def __init__(self, edges: Mapping[Key, Iterable[Transition]], name: str = "graph") -> None:
        self.edges = edges
        self.name = name

    def successors(self, state: State) -> set[Transition]:
        return set(self.edges.get(state.key(), ()))

    def classify(self, state: State) -> Classification:
        return {"terminal": not self.edges.get(state.key())}


class KernelOracle:
    """The compiled kernel's rules, one state at a time (see the module docstring)."""

    name = "kernel"

    def __init__(self, variant: Variant, tables: Tables | None = None) -> None:
        """``tables``: the kernel table to read (default: the variant's own; a kernel
        search's own, to ask again the very reading that made its graph)."""
        why = kernel_reason(variant)
        if why:
            raise OracleUnavailable(why)
        # numba (optional): the kernel's rule book is compiled
        from dominoproof.proofs.kernel.book import KernelBook

        self.variant = variant
        self.book = KernelBook(variant, tables)

    def successors(self, state: State) -> set[Transition]:
        return {(m, s.key()) for m, s in self.book.successors(state)}

    def classify(self, state: State) -> Classification:
        b = self.book
        return {
            "terminal": b.count_moves(state) == 0,
            "is_blocked": b.is_blocked(state),
            "ends_unplayable": b.ends_unplayable(state),
            "boneyard_supplies_nothing": b.boneyard_supplies_nothing(state),
        }

    def initial(self, hands: Sequence[int], stack: Sequence[int], set_aside: int, *,
                free_draw: bool = False) -> Key | None:
        lead = self.book.opening(tuple(hands))
        if lead is None:
            return None
        s = dealt_state(self.variant, Deal(tuple(hands), tuple(stack), set_aside), lead[0],
                        free_draw)
        return s.key()

# -- Reports ---------------------------------------------------------------------------


def describe_key_difference(a: Key, b: Key) -> str:
    """The fields in which two state keys differ, as ``field: a | b``."""
    parts = []
    for name, x, y in zip(KEY_FIELDS, a, b, strict=False):
        if x != y:
            parts.append(f"{name}: {_show_field(name, x)} | {_show_field(name, y)}")
    if len(a) != len(b):
        parts.append(f"key length: {len(a)} | {len(b)}")
    return "; ".join(parts) or "(equal keys)"


def _show_field(name: str, x: object) -> str:
    if name in ("boneyard", "set_aside") and isinstance(x, int):
        return _tiles(x)
    if name == "hands" and isinstance(x, tuple):
        return "(" + ", ".join(_tiles(h) if isinstance(h, int) else repr(h) for h in x) + ")"
    if name == "stack" and isinstance(x, tuple):
        return "[" + " ".join(str(Tile.from_index(t)) if isinstance(t, int) else repr(t)
                              for t in x) + "]"
    if name == "fouls" and isinstance(x, int):
        return "{" + ", ".join(f"P{p}" for p in bits(x)) + "}"
    return repr(x)


def _tiles(mask: int) -> str:
    return "{" + " ".join(str(Tile.from_index(t)) for t in bits(mask)) + "}"


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between two oracles in one state."""

    state: State
    kind: str  #: "move only in A", "move only in B", "successor differs", "classification"
    detail: str
    move: Move | None = None  #: the move in question (None: a classification)

    def disagreement(self, a: str, b: str) -> ReadingsDisagree:
        """This mismatch as the internal disagreement of readings ``a`` and ``b``."""
        return ReadingsDisagree(a, b, self.detail, state=self.state, move=self.move)

    def describe(self, a: str = "A", b: str = "B") -> str:
        kind = self.kind.replace(" A", f" {a}").replace(" B", f" {b}")
        state = "\n".join("    " + line for line in self.state.describe().splitlines())
        head = f"internal disagreement: {a} vs {b} on {self.state!r}" + (
            "" if self.move is None else f" {self.move!r}")
        return f"{head}\n{kind}: {self.detail}\n  in the state {self.state!r}\n{state}"


@dataclass
class Comparison:
    """What :func:`compare` found."""

    a: str
    b: str
    states: int = 0  #: states compared
    transitions: int = 0  #: distinct (state, move) pairs compared
    terminal: int = 0  #: terminal states compared
    mismatched_states: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)  #: the first ones, in order
    mismatch_count: int = 0  #: every mismatch, also those not kept

    @property
    def ok(self) -> bool:
        return self.mismatch_count == 0

    def summary(self) -> str:
        verdict = "agree" if self.ok else f"DISAGREE ({self.mismatch_count} mismatches " \
            f"in {self.mismatched_states} states)"
        return (f"{self.a} vs {self.b}: {self.states} states, {self.transitions} transitions, "
                f"{self.terminal} terminal states compared; {verdict}")

    def disagreements(self) -> list[ReadingsDisagree]:
        """The kept mismatches, each as the internal disagreement of the two readings."""
        return [m.disagreement(self.a, self.b) for m in self.mismatches]

    def describe(self, limit: int = 5) -> str:
        shown = self.mismatches[:limit]
        lines = [self.summary(), *(m.describe(self.a, self.b) for m in shown)]
        if self.mismatch_count > len(shown):
            lines.append(f"... {self.mismatch_count - len(shown)} more")
        return "\n".join(lines)

    def merge(self, other: Comparison, keep: int = 10) -> None:
        self.states += other.states
        self.transitions += other.transitions
        self.terminal += other.terminal
        self.mismatched_states += other.mismatched_states
        self.mismatch_count += other.mismatch_count
        self.mismatches.extend(other.mismatches[: max(0, keep - len(self.mismatches))])


# -- The check -------------------------------------------------------------------------


def compare_answers(state: State, sa: set[Transition], ca: Classification | None,
                    sb: set[Transition], cb: Classification | None) -> tuple[
        list[Mismatch], int, bool]:
    """Compare two oracles' answers in ``state`` (their successors and classifications):
    (mismatches, transitions compared, terminal?)."""
    out: list[Mismatch] = []
    by_move_a, by_move_b = _by_move(sa), _by_move(sb)
    for m in sorted(by_move_a.keys() - by_move_b.keys()):
        out.append(Mismatch(state, "move only in A", f"{m!r} ({m})", m))
    for m in sorted(by_move_b.keys() - by_move_a.keys()):
        out.append(Mismatch(state, "move only in B", f"{m!r} ({m})", m))
    for m in sorted(by_move_a.keys() & by_move_b.keys()):
        ka, kb = by_move_a[m], by_move_b[m]
        if ka != kb:
            if len(ka) == 1 and len(kb) == 1:
                diff = describe_key_difference(next(iter(ka)), next(iter(kb)))
            else:
                diff = f"{len(ka)} successor(s) | {len(kb)} successor(s)"
            out.append(Mismatch(state, "successor differs", f"after {m!r}: {diff}", m))
    terminal = not sa and not sb
    if ca is not None and cb is not None:
        for name in sorted(ca.keys() & cb.keys()):
            if ca[name] != cb[name]:
                out.append(Mismatch(state, "classification",
                                    f"{name}: {ca[name]!r} | {cb[name]!r}"))
    return out, len(by_move_a.keys() | by_move_b.keys()), terminal


def _by_move(transitions: set[Transition]) -> dict[Move, set[Key]]:
    out: dict[Move, set[Key]] = {}
    for m, k in transitions:
        out.setdefault(m, set()).add(k)
    return out


def compare(variant: Variant, states: Iterable[State], oracle_a: Oracle, oracle_b: Oracle,
            *, keep: int = 10) -> Comparison:
    """Compare two oracles on every state of ``states`` (both inclusions of their
    transition sets, and their classifications); keep the first ``keep`` mismatches.

    ``variant`` names the configuration; the oracles were built for it.
    """
    (res,) = compare_all(variant, states, oracle_a, [oracle_b], keep=keep)
    return res


def compare_all(variant: Variant, states: Iterable[State], oracle_a: Oracle,
                others: Sequence[Oracle], *, keep: int = 10) -> list[Comparison]:
    """Compare ``oracle_a`` with each of ``others`` on every state of ``states``, in one
    pass: ``oracle_a`` answers once per state, whatever the number of others (the engine
    against the reference, the specification and the kernel on every state of a search).
    One :class:`Comparison` per other oracle, in their order."""
    results = [Comparison(oracle_a.name, b.name) for b in others]
    for s in states:
        sa, ca = oracle_a.successors(s), oracle_a.classify(s)
        for res, b in zip(results, others, strict=True):
            found, n, terminal = compare_answers(s, sa, ca, b.successors(s), b.classify(s))
            res.merge(Comparison(res.a, res.b, 1, n, terminal, int(bool(found)), found,
                                 len(found)), keep)
    return results
