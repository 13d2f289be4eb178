"""The API's inputs and rounds (:mod:`dominoproof.api`): a variant and a deal, checked as a
file is; a round played, replayed from a trace, or read from another engine's log."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from dominoproof.model.dealtext import parse_deal
from dominoproof.model.engine import Trace, checked_deal, initial_state, playout, random_round
from dominoproof.model.errors import DominoproofError, TraceError, brief
from dominoproof.model.fast import engine_for
from dominoproof.model.moves import Move
from dominoproof.model.reading import read_json
from dominoproof.model.state import Deal
from dominoproof.model.variant import Variant, find_variant
from dominoproof.proofs.analysis.checklog import LogCheck
from dominoproof.proofs.analysis.checklog import check_log as run_check_log
from dominoproof.proofs.faults import FAULTS


def variant(spec: Variant | str | Path, overrides: Mapping[str, Any] | None = None) -> Variant:
    """A variant from a preset name, an alias, a TOML path or a Variant, with
    ``overrides`` (``{"section.key": value}``) applied and validated."""
    v = spec if isinstance(spec, Variant) else find_variant(str(spec))
    return v.with_overrides(dict(overrides), source=f"{v.source} with overrides") \
        if overrides else v


def deal(spec: Variant | str | Path, given: Deal | Mapping[str, Any] | str | Path, *,
         overrides: Mapping[str, Any] | None = None) -> Deal:
    """A deal of a variant, checked exactly like a deal read from a file: ``given`` is a
    :class:`~dominoproof.model.engine.Deal` value (hands and set-aside tiles as bitmasks,
    the stack as tile indices, top first), its JSON (``{"hands": [["6-6", ...], ...],
    "stack": [...], "set_aside": [...]}``), the text ``play --deal`` reads (``"P0: 6-6
    5-6 ...; P1: ...; stack: ..."``) or the path of a file holding either. Every tile of
    the set once, hands of the variant's size, a deal the lead rule does not void; else
    one located :class:`~dominoproof.model.errors.DominoproofError` naming the deal, the
    key, the value and what is allowed."""
    return given_deal(variant(spec, overrides), given)


def given_deal(v: Variant, given: Any) -> Deal:
    """``given`` (see :func:`deal`) checked as a deal of ``v``."""

    if isinstance(given, Deal | Mapping):
        return checked_deal(v, given, "deal")
    if isinstance(given, str | Path):
        return checked_deal(v, parse_deal(v, str(given)), "deal")

    raise DominoproofError(f"deal = {brief(given)}: not a deal (allowed: a Deal, its JSON "
                           "as a mapping, the text of play --deal, or a file)")


def play(spec: Variant | str | Path, *, seed: int = 0,
         deal: Deal | Mapping[str, Any] | str | Path | None = None,
         overrides: Mapping[str, Any] | None = None) -> Trace:
    """One round of uniformly random legal moves (seeded), from a shuffled deal of
    ``seed`` or from ``deal`` (checked by :func:`deal`): what ``dominoproof play`` plays."""
    v = variant(spec, overrides)
    if deal is None:
        return random_round(v, seed)
    d = given_deal(v, deal)
    rules = engine_for(v)
    moves: list[Move] = []
    playout(rules, initial_state(v, d, rules=rules), random.Random(seed).random, moves)
    return Trace(v, d, tuple(moves), seed)


def check_log(log: str | Path, spec: Variant | str | Path, *, format: str = "trace",
              overrides: Mapping[str, Any] | None = None) -> LogCheck:
    """Another engine's logged rounds (a file; ``format``: ``trace``, ``openspiel`` or
    ``dominoes``, docs/CHECKLOG.md) replayed under a variant: per round agrees, or the
    first deviation with its rule ID; a summary by rule (what ``check-log`` prints)."""
    try:
        text = Path(log).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TraceError(f"{log}: cannot read the log ({e.__class__.__name__})") from None
    return run_check_log(variant(spec, overrides), text, str(log), format)


def fault_rule_book(name: object) -> Callable[[Variant], Any] | None:
    """The rule book a trace names (``"rules": "ConfirmWhilePlayable"``) when it is one of
    the deliberately broken rule books of :mod:`dominoproof.proofs.faults` (a fault's
    counterexample, as ``verify --traces`` writes it); None for any other name."""
    if not isinstance(name, str):
        return None

    for f in FAULTS:
        if f.engine is not None and f.engine.__name__ == name:
            engine: Callable[[Variant], Any] = f.engine
            return engine
    return None


def replay(trace: str | Path | Mapping[str, Any]) -> Trace:
    """A trace (a file, or its JSON data) read and replayed with every legality check: the
    deal must be a deal of its variant and the recorded final state must be reached.
    A trace recorded under a fault's broken rule book (it names it) replays under that
    rule book, and the trace keeps it (:attr:`Trace.rules`); a rule book of any other
    name is refused. Anything else is a located
    :class:`~dominoproof.model.errors.TraceError`."""
    if isinstance(trace, Mapping):
        data = dict(trace)
        t = Trace.from_json(data, rules=fault_rule_book(data.get("rules")))
    else:
        source = str(trace)
        try:
            text = Path(trace).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise TraceError(f"{source}: cannot read the trace ({e.__class__.__name__}: "
                             f"{getattr(e, 'strerror', None) or e})") from None
        try:
            data = read_json(text, source, TraceError)
            book = fault_rule_book(data.get("rules")) if isinstance(data, dict) else None
            t = Trace.from_json(data, source, rules=book)
        except TraceError as e:
            msg = str(e)
            raise TraceError(msg if msg.startswith(source) else f"{source}: {msg}") from None
    t.states()  # every move replayed with apply's checks (cached for rendering)
    return t
